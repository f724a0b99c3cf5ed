"""How good a position is for a seat: the heuristic evaluations (docs/ai.md, "Evaluation").

Tile game. Both evaluations start from what the engine's own final scoring would give if the
game ended now (unfinished roads, cities and cloisters, farms, and every expansion's lines: so an
expansion's points count with no AI code of its own):

* :func:`simple_values` (the greedy player) adds one point per figure in supply;
* :func:`full_values` (normal and strong) adds, for each unfinished road, city and cloister with
  figures, the extra points of completing it times a completion chance (fewer open ends and more
  tiles left: likelier), the figures that completion would bring home, and the figures in
  supply, each worth more the more turns are left.

A seat's evaluation is its value less the best other seat's (:func:`margin`). Card game:
:func:`card_values` is the score plus a little for the cards already secured.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ai import basevalues
from engine.carcassonne.board import Feature
from engine.carcassonne.featurescore import feature_item, final_scoring
from engine.carcassonne.figures import is_follower
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.cardgame.state import CardState
from engine.core.seats import Seat

#: a figure in supply is worth up to this many points, early in the game
FIGURE_VALUE = 4.5
#: ... falling to nothing over the last this many turns of each seat
FIGURE_HORIZON = 8.0
#: the chance that one more open end of a road or a city gets closed in time
END_CLOSES = 0.7
#: a city's chance is lowered (cities are harder to close than roads)
CITY_FACTOR = 0.9
#: a farm counts this share of the 3 points of each unfinished city it supplies, times the
#: city's completion chance (a farmer placed early is worth the cities still to be closed)
FARM_POTENTIAL = 0.0

Values = Callable[[GameState], list[float]]


def end_now(state: GameState) -> list[float]:
    """Each seat's score if the game ended now (the engine's final scoring on a copy)."""
    if state.over:
        return [float(s) for s in state.scores]
    copy = state.clone()
    final_scoring(copy, [])
    return [float(s) for s in copy.scores]


def simple_values(state: GameState) -> list[float]:
    """The greedy player's values: the score if the game ended now plus one point per figure
    in supply."""
    values = basevalues.end_now(state) if basevalues.applies(state) else end_now(state)
    if state.over:
        return values
    for i, player in enumerate(state.players):
        values[i] += sum(player.supply.values())
    return values


def _turns_left(state: GameState) -> float:
    return state.tiles_left / max(1, state.setup.players)


def figure_value(state: GameState) -> float:
    """What one figure in supply is worth now."""
    return FIGURE_VALUE * min(1.0, _turns_left(state) / FIGURE_HORIZON)


def completion_chance(state: GameState, feat: Feature) -> float:
    """The chance that the unfinished ``feat`` is completed before the game ends."""
    turns = _turns_left(state)
    if feat.kind is FeatureKind.CLOISTER:
        (pos,) = feat.tiles
        empty = 8 - state.board.neighbours_count(pos)
        need = empty
        base = 0.93**empty
    else:
        need = feat.open
        base = END_CLOSES**feat.open
        if feat.kind is FeatureKind.CITY:
            base *= CITY_FACTOR
    time = min(1.0, state.tiles_left / max(1.0, 2.0 * need * state.setup.players))
    return base * time if turns > 0 else 0.0


def full_values(state: GameState) -> list[float]:
    """The normal and strong players' values (see the module doc)."""
    fast = basevalues.applies(state)
    if state.over:
        return [float(s) for s in state.scores]
    values = [float(s) for s in state.scores] if fast else end_now(state)
    fig = figure_value(state)
    for i, player in enumerate(state.players):
        values[i] += fig * sum(player.supply.values())
    board = state.board
    n = len(values)
    for feat in board.live_features():
        if feat.done or not feat.meeples:
            continue
        winners = [w for w in feat.winners() if 0 <= w < n]
        now = basevalues.now_points(state, feat) if fast else 0
        for w in winners:
            values[w] += now
        if feat.kind is FeatureKind.FIELD:
            if FARM_POTENTIAL and winners:
                pot = FARM_POTENTIAL * 3.0 * _open_cities(state, feat)
                for w in winners:
                    values[w] += pot
            continue
        p = completion_chance(state, feat)
        if p <= 0.0:
            continue
        if fast:
            gain = float(basevalues.done_points(state, feat) - now)
        elif feat.kind is FeatureKind.CLOISTER:
            (pos,) = feat.tiles
            gain = float(8 - board.neighbours_count(pos))
        elif feat.open == 0:  # closed by the tile just placed, scored as complete already
            gain = 0.0
        else:  # a road or a city: what completing it adds (a city doubles, an inn ...)
            done = feature_item(state, feat, complete=True, final=False).points
            now_pts = feature_item(state, feat, complete=False, final=True).points
            gain = float(done - now_pts)
        for w in winners:
            values[w] += p * gain
        for m in feat.meeples:
            if 0 <= m.seat < n and is_follower(m.figure):
                values[m.seat] += p * fig
    return values


def _open_cities(state: GameState, field: Feature) -> float:
    """The summed completion chances of the unfinished cities ``field`` supplies."""
    board = state.board
    root, features = board.root, board.features
    reps = {root[seg] for seg in field.cities}
    return sum(completion_chance(state, features[r]) for r in reps if features[r].open > 0)


def margin(values: Sequence[float], seat: Seat) -> float:
    """``seat``'s value less the others' (the best other's, and half of it against several)."""
    others = [v for i, v in enumerate(values) if i != seat]
    if not others:
        return values[seat]
    best = max(others)
    if len(others) == 1:
        return values[seat] - best
    return values[seat] - 0.5 * best - 0.5 * sum(others) / len(others)


def card_values(state: CardState) -> list[float]:
    """Card game values: the score (the engine scores as rounds end)."""
    return [float(s) for s in state.scores]
