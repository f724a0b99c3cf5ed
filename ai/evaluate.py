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

from engine.carcassonne.board import Feature
from engine.carcassonne.featurescore import feature_item, final_scoring
from engine.carcassonne.figures import is_follower
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.cardgame.state import CardState
from engine.core.seats import Seat

#: a figure in supply is worth up to this many points, early in the game
FIGURE_VALUE = 3.0
#: ... falling to nothing over the last this many turns of each seat
FIGURE_HORIZON = 8.0
#: the chance that one more open end of a road or a city gets closed in time
END_CLOSES = 0.82
#: a city's chance is lowered (cities are harder to close than roads)
CITY_FACTOR = 0.9

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
    values = end_now(state)
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
    values = end_now(state)
    if state.over:
        return values
    fig = figure_value(state)
    for i, player in enumerate(state.players):
        values[i] += fig * sum(player.supply.values())
    board = state.board
    for feat in board.live_features():
        if feat.done or not feat.meeples or feat.kind is FeatureKind.FIELD:
            continue
        p = completion_chance(state, feat)
        if p <= 0.0:
            continue
        winners = feat.winners()
        if feat.kind is FeatureKind.CLOISTER:
            (pos,) = feat.tiles
            gain = float(8 - board.neighbours_count(pos))
        else:  # a road or a city: what completing it adds (a city doubles, an inn ...)
            done = feature_item(state, feat, complete=True, final=False).points
            now = feature_item(state, feat, complete=False, final=True).points
            gain = float(done - now)
        for w in winners:
            if 0 <= w < len(values):
                values[w] += p * gain
        for m in feat.meeples:
            if 0 <= m.seat < len(values) and is_follower(m.figure):
                values[m.seat] += p * fig
    return values


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
