"""Mage & Witch (*Mago y Bruja*, RULES.md §10): 8 magic tiles, a mage and a witch.

A magic tile makes its seat place or move the mage or the witch onto an unfinished road or city
(one decision, :mod:`.magic`); the two never share a feature, and a tile joining them makes the
active seat move one away before anything scores. A road or city with the mage scores 1 more
per tile; with the witch, half its points rounded up (after an inn or a cathedral); the same
in final scoring, where an unfinished inn road or cathedral city with the mage scores 1 per
tile. A figure whose feature is completed leaves the board (OQ-MW-1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from engine.carcassonne.board import Feature
from engine.carcassonne.events import Event
from engine.carcassonne.expansion import Expansion
from engine.carcassonne.figures import FigureSpec
from engine.carcassonne.flow import Slot, StepSpec
from engine.carcassonne.scoring import Part, ScoreItem
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind

from .jcz import JCZ
from .magic import JOIN, LEAVE, MOVE, movable, set_aside, targets
from .model import (
    FIGURES,
    ID,
    JOIN_STEP,
    LEAVE_STEP,
    MAGE,
    MOVE_STEP,
    SYMBOL,
    WITCH,
    FigurePlaced,
    FigureSetAside,
    MageWitchModel,
    model_of,
)


def modified(feature: Feature, item: ScoreItem) -> ScoreItem:
    """``item`` with the mage's +1 per tile and the witch's halving (rounded up, after the
    inn or cathedral the item already counts) when they stand on ``feature`` (RULES.md §10.3,
    §10.4)."""
    mage = witch = False
    for m in feature.meeples:
        if m.seat < 0:
            mage = mage or m.figure == MAGE
            witch = witch or m.figure == WITCH
    if not (mage or witch):
        return item
    points, parts = item.points, item.parts
    if mage:
        points += item.tiles
        parts = (*parts, Part("part.mage", n=item.tiles))
    if witch:
        points = (points + 1) // 2
        parts = (*parts, Part("part.witch"))
    return replace(item, points=points, parts=parts)


class MageWitch(Expansion):
    id = ID
    name = "Mage & Witch"
    tile_sets = ("mage_witch",)
    figure_specs = (FigureSpec(MAGE, neutral=True), FigureSpec(WITCH, neutral=True))
    concepts = ("mago", "bruja")
    jcz = JCZ

    def initial_model(self) -> MageWitchModel:
        return MageWitchModel()

    # ---- turn flow: the magic tile's figure before a robber or a bridge (RULES.md §18 step
    # 1.3, after the gold); a join resolved first in scoring (step 3.1); the figures of
    # completed features set aside first after scoring (step 3.6)
    def steps(self) -> Iterable[StepSpec]:
        return (
            StepSpec(Slot.AFTER_PLACE, MOVE, 5),
            StepSpec(Slot.SCORE, JOIN, -100),
            StepSpec(Slot.AFTER_SCORE, LEAVE, -200),
        )

    def score_feature(self, state: GameState, feature: Feature, item: ScoreItem) -> ScoreItem:
        if feature.kind is not FeatureKind.ROAD and feature.kind is not FeatureKind.CITY:
            return item
        return modified(feature, item)

    def final_points(self, state: GameState) -> Sequence[int]:
        """The mage and the witch only leave the board: no points."""
        return ()

    def final_scoring(self, state: GameState) -> Iterable[Event]:
        """After the unfinished features scored with them, both figures leave the board as
        the followers did."""
        events: list[Event] = []
        for figure in FIGURES:
            set_aside(state, figure, events)
        return events

    def redact(self, model: Any, viewer: Any) -> Any:
        return model


__all__ = [
    "FIGURES",
    "ID",
    "JOIN_STEP",
    "LEAVE_STEP",
    "MAGE",
    "MOVE_STEP",
    "SYMBOL",
    "WITCH",
    "FigurePlaced",
    "FigureSetAside",
    "MageWitch",
    "MageWitchModel",
    "model_of",
    "modified",
    "movable",
    "targets",
]

#: this package's expansion (engine/carcassonne/expansions/__init__.py registers it)
EXPANSION = MageWitch

from . import de as _de  # noqa: E402, F401  (the German words)
