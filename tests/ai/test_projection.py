"""The projected final scores (engine/carcassonne/projection.py, what the AI's evaluation reads
with expansions) equal the engine's final scoring run on a copy, on every position of random
games with every expansion, including positions in the middle of a turn."""

from __future__ import annotations

import pytest

from ai import evaluate
from engine.carcassonne import projection, rules
from engine.carcassonne.featurescore import final_scoring
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.registry import all_expansions
from engine.carcassonne.state import GameSetup, GameState
from engine.core.rng import Rng

ALL = tuple(c.id for c in all_expansions())


def _positions(setup: GameSetup, seed: int) -> list[GameState]:
    s = rules.new_game(setup, seed=seed)
    rng = Rng(seed)
    out = [s]
    while not s.over:
        d = rules.pending(s)[0]
        s = rules.apply(s, d.seat, choose_answer(d, rng), key=d.key).state
        out.append(s)
    return out


def _engine(state: GameState) -> list[int]:
    copy = state.clone()
    final_scoring(copy, [])
    return list(copy.scores)


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (2, 13), (4, 14)])
def test_projection_equals_the_final_scoring_with_every_expansion(players: int, seed: int) -> None:
    positions = _positions(GameSetup(players=players, expansions=ALL), seed)
    answered = 0
    for s in positions:
        if s.over:
            continue
        before = list(s.scores)
        got = projection.final_scores(s)
        assert list(s.scores) == before  # the state is left as it was
        if got is None:
            continue
        answered += 1
        assert got == _engine(s), f"position {positions.index(s)}"
        assert evaluate.end_now(s) == [float(v) for v in got]
    assert answered >= 0.9 * (len(positions) - 1)


@pytest.mark.parametrize("exp", ALL)
def test_projection_with_each_expansion_alone(exp: str) -> None:
    for s in _positions(GameSetup(players=3, expansions=(exp,)), seed=21)[::3]:
        got = projection.final_scores(s)
        if got is not None and not s.over:
            assert got == _engine(s)


def test_none_where_an_expansion_cannot_tell(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _positions(GameSetup(players=2, expansions=ALL), seed=5)[60]
    assert projection.final_scores(s) is not None
    first = projection.final_lines(s.setup)[0]
    monkeypatch.setattr(type(first), "final_points", lambda self, state: None)
    assert projection.final_scores(s) is None
    assert evaluate.end_now(s) == [float(v) for v in _engine(s)]


def test_none_with_first_edition_farms() -> None:
    s = rules.new_game(GameSetup(expansions=ALL, farm_scoring="city_supply_1st_ed"), seed=1)
    assert projection.final_scores(s) is None
