"""The greedy player takes an obvious completing move: a hand-built position where one
placement closes the seat's own city."""

from __future__ import annotations

from typing import Any

from ai import choose
from engine.carcassonne import rules
from engine.carcassonne.actions import Deploy, PlaceTile
from engine.carcassonne.geometry import Position
from engine.carcassonne.state import GameSetup, GameState


def _place(s: GameState, seat: int, x: int, y: int) -> GameState:
    """Place the drawn tile at (x, y) in its first legal rotation."""
    d = rules.pending(s)[0]
    for o in d.options:
        a: Any = o.action
        if isinstance(a, PlaceTile) and a.pos == Position(x, y):
            return rules.apply(s, seat, a, key=d.key).state
    raise AssertionError(f"no placement at {x},{y}")


def test_greedy_closes_its_own_city() -> None:
    # the start tile's city faces north; a city running north-south extends it, a cap closes it
    setup = GameSetup(draw_order=("BA/CFc+", "BA/RFr", "BA/C"))
    s = rules.new_game(setup, seed=1)
    s = _place(s, 0, 0, -1)
    city = next(o.action for o in rules.pending(s)[0].options if o.id.startswith("city"))
    assert isinstance(city, Deploy)
    s = rules.apply(s, 0, city).state
    s = _place(s, 1, 1, 0)
    s = rules.apply(s, 1, rules.pending(s)[0].pass_action).state
    assert s.scores == (0, 0) and s.drawn == "BA/C"
    before = s
    while s.current == 0 and not s.over:
        key, action = choose(s, 0, level="greedy")
        s = rules.apply(s, 0, action, key=key).state
    assert s.scores[0] >= 8, "3 tiles and a shield, completed: 8 points"
    # the follower came home (greedy may send it, or another, out again on the cap)
    assert s.players[0].supply["follower"] >= before.players[0].supply["follower"]
