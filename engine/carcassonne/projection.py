"""The scores a game would end with if it ended now, computed without changing the state.

:func:`engine.carcassonne.featurescore.final_scoring` is the rule: it mutates a state, builds
events and awards, sends figures home. An AI evaluates tens of thousands of positions a move
and needs only the resulting scores, so :func:`final_scores` adds up the same score items
(:func:`~engine.carcassonne.featurescore.feature_item`,
:func:`~engine.carcassonne.featurescore.farm_item`, each with the expansions' adjustments and
seat bonuses) and asks every expansion that has final-scoring lines of its own for their points
through :meth:`Expansion.final_points <engine.carcassonne.expansion.Expansion.final_points>`.
It names no expansion. Where it cannot tell (first-edition farms, an expansion that does not
answer) it returns ``None`` and the caller runs the final scoring on a copy.

The tests check it equals the final scoring on every position of random games with every
expansion (``tests/ai/test_projection.py``).
"""

from __future__ import annotations

from engine.carcassonne.board import Feature
from engine.carcassonne.expansion import Expansion, expansions_of, per_setup
from engine.carcassonne.featurescore import farm_item, feature_item
from engine.carcassonne.scoring import ScoreItem
from engine.carcassonne.state import GameSetup, GameState
from engine.carcassonne.tiles import FeatureKind

_FIELD = FeatureKind.FIELD
_CLOISTER = FeatureKind.CLOISTER


@per_setup
def final_lines(setup: GameSetup) -> tuple[Expansion, ...]:
    """The enabled expansions with final-scoring lines of their own (that override
    ``final_scoring``): the ones :func:`final_scores` asks for their ``final_points``."""
    return tuple(
        e for e in expansions_of(setup) if type(e).final_scoring is not Expansion.final_scoring
    )


def applies(state: GameState) -> bool:
    """Whether :func:`final_scores` can answer for this setup at all (farms scored per farm);
    it may still answer ``None`` for a position an expansion cannot project."""
    return state.setup.farm_scoring == "per_farm"


def final_scores(state: GameState, points: dict[int, int] | None = None) -> list[int] | None:
    """Each seat's score if the game ended now (what ``final_scoring`` on a copy would leave),
    or ``None`` where it cannot tell (see the module doc). ``state`` is not changed.

    ``points``, when given, receives what each road, city and cloister with figures pays its
    majority now, by ``id()`` of the feature (an evaluation that also wants these reads them
    instead of scoring the features again)."""
    if state.over:
        return list(state.scores)
    if not applies(state):
        return None
    lines = []
    for e in final_lines(state.setup):
        pts = e.final_points(state)
        if pts is None:
            return None
        lines.append(pts)
    scores = list(state.scores)
    bonuses = state.hooks.seat_points
    board = state.board
    farms = []
    for feat in board.live_features():
        if not feat.meeples:
            continue
        kind = feat.kind
        if kind is _FIELD:
            farms.append(feat)
            continue
        if kind is _CLOISTER:
            (pos,) = feat.tiles
            item = feature_item(
                state, feat, complete=False, final=True, cloister_pos=pos, detail=False
            )
        else:
            item = feature_item(state, feat, complete=feat.open == 0, final=True, detail=False)
        if points is not None:
            points[id(feat)] = item.points
        if item.winners:
            _add(scores, state, item, feat, bonuses)
    for feat in farms:
        item = farm_item(state, feat, detail=False)
        if item.points and item.winners:
            _add(scores, state, item, feat, bonuses)
    for pts in lines:
        for seat, p in enumerate(pts):
            scores[seat] += p
    return scores


def _add(
    scores: list[int],
    state: GameState,
    item: ScoreItem,
    feat: Feature,
    bonuses: tuple[Expansion, ...],
) -> None:
    """Add ``item`` to its winners' scores as ``scoring.award`` would (with the seat bonuses)."""
    features = (feat,)
    for seat in item.winners:
        pts = item.points
        for e in bonuses:
            extra = e.seat_points(state, item, seat, features)
            if extra is not None:
                pts += extra[0]
        scores[seat] += pts
