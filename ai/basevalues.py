"""The base game's evaluations computed straight from the board, without the engine's scoring.

:func:`ai.evaluate.end_now` runs the engine's final scoring on a copy of the state: exact for
every expansion, but it clones the state, builds score items, awards and events, and that was
about 85 % of the strong search's time. In a game with no expansion (and the current farm
rule) the score if the game ended now is a short sum over the features with figures, so the
searches read it from here instead and fit several times more positions in the same budget.

``tests/ai/test_basevalues.py`` checks that these sums equal the engine's on many positions.
"""

from __future__ import annotations

from engine.carcassonne.board import Board, Feature
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind


def applies(state: GameState) -> bool:
    """Whether the direct sums hold for ``state``: no expansion, farms scored per farm."""
    return not state.setup.expansions and state.setup.farm_scoring == "per_farm"


def _completed_cities(board: Board, field: Feature) -> int:
    root, features = board.root, board.features
    return len({rep for rep in (root[s] for s in field.cities) if features[rep].open == 0})


def now_points(state: GameState, feat: Feature) -> int:
    """What ``feat`` (figures on it, not yet scored) pays its majority if the game ends now
    (a road or city closed by the tile just placed, before it is scored, counts as complete)."""
    kind = feat.kind
    board = state.board
    if kind is FeatureKind.ROAD:
        return len(feat.tiles)
    if kind is FeatureKind.CITY:
        if feat.open == 0:
            return done_points(state, feat)
        return len(feat.tiles) + feat.pennants
    if kind is FeatureKind.CLOISTER:
        (pos,) = feat.tiles
        return 1 + board.neighbours_count(pos)
    return 3 * _completed_cities(board, feat)


def done_points(state: GameState, feat: Feature) -> int:
    """What completing the road, city or cloister ``feat`` would pay its majority."""
    kind = feat.kind
    n = len(feat.tiles)
    if kind is FeatureKind.ROAD:
        return n
    if kind is FeatureKind.CITY:
        if n == 2 and state.setup.tiny_city == 2:
            return 2 + feat.pennants
        return 2 * (n + feat.pennants)
    return 9


def end_now(state: GameState) -> list[float]:
    """Each seat's score if the game ended now (only where :func:`applies`)."""
    values = [float(s) for s in state.scores]
    if state.over:
        return values
    board = state.board
    for feat in board.live_features():
        if feat.meeples and not feat.done:
            pts = now_points(state, feat)
            if pts:
                for w in feat.winners():
                    values[w] += pts
    return values
