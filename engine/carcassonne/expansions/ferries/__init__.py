"""Ferries (*Transbordadores*, RULES.md §8): 8 lake tiles and a ferry for each.

A lake tile's roads end at its lake; an end without a ferry closes its road (OQ-FER-1). After
the follower step the seat must put the new lake's ferry between two of its road ends, which
then form one road; then it may move the first ferry met in each direction along the roads of
the tile it placed, each ferry at most once a turn, re-routing the roads (features split and
join, followers stay on their part); roads completed by it all score in the placement's
scoring (:mod:`.ferry`). Rule variant: how long a moved ferry stays put (``ferries.moves``).
Its part of the JCloisterZone import: :mod:`.jcz`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.flow import Slot, StepSpec

from .ferry import MOVE, PLACE, SCORE, TURN_END, lake_ends, move_choices, nearest_ferries, pairs
from .jcz import JCZ
from .model import (
    ID,
    MOVE_STEP,
    MOVES,
    MOVES_CHOICES,
    PLACE_STEP,
    SCORE_STEP,
    SYMBOL,
    FerriesModel,
    Ferry,
    FerryMoved,
    FerryPlaced,
    model_of,
    pair_mask,
    pair_name,
)


class Ferries(Expansion):
    id = ID
    name = "Ferries"
    tile_sets = ("ferries",)
    concepts = ("ferry", "transbordador")
    jcz = JCZ
    options = (
        Option(
            MOVES,
            "turn",
            MOVES_CHOICES,
            "a moved ferry stays put for the whole turn (rulebook, OQ-FER-4) or for that "
            "placement only (JCloisterZone)",
        ),
    )

    def initial_model(self) -> FerriesModel:
        return FerriesModel()

    # ---- turn flow: after the follower step and the flier's landing (OQ-FM-4), the new
    # ferry, then the moves (§8.2 steps 3–4); what a move completed scores after the core's
    # scoring of the new tile; the moves are forgotten at the end of the turn (OQ-FER-4)
    def steps(self) -> Iterable[StepSpec]:
        if self.option(MOVES) == "placement":
            end = StepSpec(Slot.CLEANUP, TURN_END, -50)
        else:
            end = StepSpec(Slot.END, TURN_END, -1)
        return (
            StepSpec(Slot.AFTER_DEPLOY, PLACE, 10),
            StepSpec(Slot.AFTER_DEPLOY, MOVE, 20),
            StepSpec(Slot.SCORE, SCORE, 10),
            end,
        )

    def redact(self, model: Any, viewer: Any) -> Any:
        return model


__all__ = [
    "ID",
    "MOVES",
    "MOVE_STEP",
    "PLACE_STEP",
    "SCORE_STEP",
    "SYMBOL",
    "Ferries",
    "FerriesModel",
    "Ferry",
    "FerryMoved",
    "FerryPlaced",
    "lake_ends",
    "model_of",
    "move_choices",
    "nearest_ferries",
    "pair_mask",
    "pair_name",
    "pairs",
]

#: this package's expansion (engine/carcassonne/expansions/__init__.py registers it)
EXPANSION = Ferries

from . import de as _de  # noqa: E402, F401  (the German words)
