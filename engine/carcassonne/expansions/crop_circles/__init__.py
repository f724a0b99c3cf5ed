"""Crop Circles (*Círculos en los cultivos*, RULES.md §12): six tiles with a crop circle
showing a shield (knights, cities), a club (thieves, roads) or a pitchfork (farmers, fields).

After a crop-circle tile's turn (its scoring included, before a builder's second tile), the
active player chooses option A or B for every player in turn from their left, themself last
(:mod:`.rounds`): under A each may add a follower from the supply beside one of theirs on a
feature of the symbol's kind; under B each must take one of theirs back from such a feature.
A player with nothing to do is skipped. The crop field itself cuts roads and fields (the tile
files say where roads end). Two official sets exist (I, 2010; II, 2012): the lobby picks which
go in the pile (:data:`.model.SET_I`, :data:`.model.SET_II`). Its JCloisterZone import:
:mod:`.jcz`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.flow import Slot, StepSpec
from engine.core.seats import Seat

from .jcz import JCZ
from .model import (
    ADD,
    CHOOSE_STEP,
    FILE_I,
    FILE_II,
    ID,
    KINDS,
    REMOVE,
    ROUND_STEP,
    SET_I,
    SET_II,
    SYMBOL,
    CropModel,
    FollowerTakenBack,
    OptionChosen,
    SeatPassed,
    SeatSkipped,
    model_of,
)
from .rounds import CHOOSE, ROUND, spots, symbol_placed


class CropCircles(Expansion):
    id = ID
    name = "Crop Circles"
    tile_sets = (FILE_I, FILE_II)
    options = (
        Option(SET_I, False, (False, True), "the six tiles of Crop Circles I (2010)"),
        Option(SET_II, True, (False, True), "the six tiles of Crop Circles II (2012)"),
    )
    concepts = ("crop circle", "corn circle", "cultivos")
    jcz = JCZ

    def tile_sets_in_play(self) -> tuple[str, ...]:
        """The sets the lobby chose; set II (the minis' set) when it chose neither."""
        chosen = tuple(f for f, key in ((FILE_I, SET_I), (FILE_II, SET_II)) if self.option(key))
        return chosen or (FILE_II,)

    def initial_model(self) -> CropModel:
        return CropModel()

    # ---- turn flow: after the tile's scoring and after-scoring steps, before a builder's
    # second tile and a market (RULES.md OQ-CC-2, §18 step 5)
    def steps(self) -> Iterable[StepSpec]:
        return (
            StepSpec(Slot.CLEANUP, CHOOSE, -20),
            StepSpec(Slot.CLEANUP, ROUND, -19),
        )

    def redact(self, model: Any, viewer: Seat | None) -> Any:
        return model


__all__ = [
    "ADD",
    "CHOOSE_STEP",
    "ID",
    "KINDS",
    "REMOVE",
    "ROUND_STEP",
    "SET_I",
    "SET_II",
    "SYMBOL",
    "CropCircles",
    "CropModel",
    "FollowerTakenBack",
    "OptionChosen",
    "SeatPassed",
    "SeatSkipped",
    "model_of",
    "spots",
    "symbol_placed",
]

#: this package's expansion (engine/carcassonne/expansions/__init__.py registers it)
EXPANSION = CropCircles

from . import de as _de  # noqa: E402, F401  (the German words)
