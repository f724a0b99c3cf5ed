"""Every step of the game and of every built-in expansion refuses a wrong answer in the
player's language (issue 21: a Spanish player who typed 'pass' at a market's opening bid was
answered in English): ``Step.refuse`` gives a keyed error whose Spanish words differ from its
English ones."""

from __future__ import annotations

import pytest

from engine.carcassonne import steps as _core  # noqa: F401  (registers the core steps)
from engine.carcassonne.actions import Pass
from engine.carcassonne.registry import all_expansions
from engine.carcassonne.rules import new_game
from engine.carcassonne.state import GameSetup
from engine.core.errors import IllegalActionError


def _steps() -> list[tuple[str, object]]:
    """Every step of a match with every built-in expansion."""
    from engine.carcassonne.flow import program_of

    setup = GameSetup(players=2, expansions=tuple(cls.id for cls in all_expansions()))
    return [(step.id, step) for step in program_of(setup).steps]


@pytest.mark.parametrize(("step_id", "step"), _steps(), ids=[i for i, _ in _steps()])
def test_a_refusal_is_worded_in_both_languages(step_id: str, step: object) -> None:
    state = new_game(GameSetup(players=2), seed=1)
    refused = step.refuse(state, Pass())  # type: ignore[attr-defined]
    assert isinstance(refused, IllegalActionError), f"{step_id} refuses in English only"
    assert refused.key is not None
    en, es = refused.text("en"), refused.text("es")
    assert en and es and en != es and refused.key not in (en, es), (step_id, en, es)
