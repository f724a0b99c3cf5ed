"""What every expansion's property tests check alike: each seat's figures are conserved
(wherever the other expansions keep them: in the air, on a castle, as a barn), every point
is an award, and only a market's payments are negative. Each test file adds its own
expansion's invariants; no expansion's tests import another's."""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from engine import GameSetup, play_random_game
from engine.carcassonne.events import PointsScored
from engine.carcassonne.record import replay
from engine.carcassonne.state import GameState
from tests.engine.test_properties import snapshot

seeds = st.integers(0, 2**63 - 1)


def figures(state: GameState) -> list[Counter[str]]:
    """Per seat, every figure kind: in supply, on the board, in the air (Flying Machines), on a
    castle (Bridges, Castles & Bazaars) or a barn (Abbey & Mayor), read from the public models
    without importing those expansions."""
    out = [Counter(p.supply) for p in state.players]
    for m in state.board.meeples():
        if m.seat >= 0:
            out[m.seat][m.figure] += 1
    flight = getattr(state.ext.get("flying_machines"), "flight", None)
    if flight is not None and flight.status == "landing":
        out[flight.seat][flight.figure] += 1
    for c in getattr(state.ext.get("bridges_castles_bazaars"), "castles", ()):
        if c.figure:
            out[c.owner][c.figure] += 1
    for b in getattr(state.ext.get("abbey_mayor"), "barns", ()):
        out[b.seat]["barn"] += 1
    return out


def check_points(after: GameState, events: tuple[object, ...]) -> None:
    """Scores only grow (a market's payment aside) and each seat's score is its awards."""
    for e in events:
        if isinstance(e, PointsScored) and e.item.category != "market":
            assert all(a.points >= 0 for a in e.awards)
    for seat in range(after.setup.players):
        assert after.scores[seat] == sum(a.points for a in after.awards if a.seat == seat)


def assert_replays(setup: GameSetup, seed: int) -> None:
    """A random game of ``setup`` replays from its record to the same scores and state."""
    game = play_random_game(setup, seed)
    result = replay(game.record)
    assert result.scores == game.scores
    assert snapshot(result.state) == snapshot(game.state)
