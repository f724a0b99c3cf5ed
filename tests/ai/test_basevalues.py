"""The base game's direct sums (ai/basevalues.py) give the engine's scoring: the score if the
game ended now and the full evaluation, on every position of random games of 2 to 4 players,
including positions between a placement and its scoring."""

from __future__ import annotations

import pytest

from ai import basevalues, evaluate
from engine.carcassonne import rules
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.state import GameSetup, GameState
from engine.core.rng import Rng


def _positions(players: int, seed: int) -> list[GameState]:
    s = rules.new_game(GameSetup(players=players), seed=seed)
    rng = Rng(seed)
    out = [s]
    while not s.over:
        d = rules.pending(s)[0]
        s = rules.apply(s, d.seat, choose_answer(d, rng), key=d.key).state
        out.append(s)
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (2, 4)])
def test_direct_sums_equal_the_engine(
    players: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    positions = _positions(players, seed)
    assert all(basevalues.applies(s) for s in positions)
    fast = [(basevalues.end_now(s), evaluate.full_values(s)) for s in positions]
    monkeypatch.setattr(basevalues, "applies", lambda state: False)
    monkeypatch.setattr(
        evaluate, "final_scores", lambda state, points=None: None
    )  # the engine's own
    for s, (now, full) in zip(positions, fast, strict=True):
        assert now == evaluate.end_now(s)
        assert full == pytest.approx(evaluate.full_values(s))


def test_not_with_an_expansion_or_the_first_edition_farms() -> None:
    assert not basevalues.applies(
        rules.new_game(GameSetup(expansions=("inns_cathedrals",)), seed=1)
    )
    assert not basevalues.applies(
        rules.new_game(GameSetup(farm_scoring="city_supply_1st_ed"), seed=1)
    )
