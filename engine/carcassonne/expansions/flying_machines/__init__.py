"""Flying Machines (*Máquinas voladoras*, RULES.md §6): 8 tiles with a flying machine and the
special die (1, 1, 2, 2, 3, 3).

After placing a flier tile the seat may put a follower on the machine instead of on the tile's
features; the die, rolled for everyone to see, says how far it flies in the machine's
direction (diagonals included), and it must land on an unfinished road, city or cloister of
that tile, occupied or not — the seat chooses which. If it cannot, it goes home
(:mod:`.flight`). Rule variants: who may fly (``flier.figures``) and what a failed flight
forbids (``flier.after_failed``). Its part of the JCloisterZone import: :mod:`.jcz`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from engine.carcassonne.actions import Deploy
from engine.carcassonne.board import Feature, PlacedTile
from engine.carcassonne.events import Event
from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.figures import FIGURES as FIGURE_SPECS
from engine.carcassonne.figures import is_follower
from engine.carcassonne.flow import Slot, StepSpec
from engine.carcassonne.state import GameState
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

from .flight import LAND_STEP, TURN_END_STEP, board_machine, flier_deploys, grounded
from .jcz import JCZ
from .model import (
    AFTER_FAILED,
    AFTER_FAILED_CHOICES,
    DIE,
    FACES,
    FIGURE_CHOICES,
    FIGURES,
    ID,
    SPOT,
    SYMBOL,
    FlierBoarded,
    FlierFlew,
    FlierLanded,
    FlierModel,
    Flight,
    landing_square,
    model_of,
    turned,
)


class FlyingMachines(Expansion):
    id = ID
    name = "Flying Machines"
    tile_sets = ("flying_machines",)
    concepts = ("flying machine",)
    jcz = JCZ
    options = (
        Option(
            FIGURES,
            "followers",
            FIGURE_CHOICES,
            "who may fly: normal and large followers (rulebook) or every follower figure "
            "(JCloisterZone)",
        ),
        Option(
            AFTER_FAILED,
            "placement",
            AFTER_FAILED_CHOICES,
            "after a failed flight: no other follower on that tile (proposal) or all turn",
        ),
    )

    @property
    def deploy_opinions(self) -> frozenset[str]:  # type: ignore[override]
        """The grounding veto (``flier.after_failed=turn``) concerns followers only; with the
        default variant it concerns nothing, so the follower step never asks it."""
        if self.option(AFTER_FAILED) != "turn":
            return frozenset()
        return frozenset(k for k, spec in FIGURE_SPECS.items() if spec.follower)

    def initial_model(self) -> FlierModel:
        return FlierModel()

    # ---- placing figures: the machine is a spot beside the tile's features
    extra_deploys_unless = ("", SYMBOL)  # a printed machine: no call for the other tiles

    def extra_deploys(self, state: GameState, seat: Seat, placed: PlacedTile) -> Iterable[Deploy]:
        if not isinstance(placed.rt.tile.symbol_map.get(SYMBOL), str):
            return ()  # no machine on the tile (most tiles): no calls
        return flier_deploys(state, seat, placed)

    def deploy_extra(
        self, state: GameState, seat: Seat, placed: PlacedTile, deploy: Deploy
    ) -> Iterable[Event] | None:
        return board_machine(state, seat, placed, deploy)

    def can_deploy(
        self, state: GameState, seat: Seat, figure: str, feature: Feature
    ) -> bool | None:
        # only with ``flier.after_failed=turn``: a failed flight keeps followers off all turn
        if state.ext[ID].grounded is not None and is_follower(figure) and grounded(state, seat):
            return False
        return None

    def deploy_refusal(
        self, state: GameState, seat: Seat, figure: str, feature: Feature | None
    ) -> IllegalActionError | None:
        if feature is not None and is_follower(figure) and grounded(state, seat):
            return IllegalActionError.keyed("flier.err.grounded")
        return None

    # ---- turn flow
    def steps(self) -> Iterable[StepSpec]:
        # before any other step of the slot (a ferry moved, OQ-FM-4); the end of a turn
        # ungrounds a seat only when a failed flight may ground it
        land = StepSpec(Slot.AFTER_DEPLOY, LAND_STEP, 0)
        if self.option(AFTER_FAILED) != "turn":
            return (land,)
        return (land, StepSpec(Slot.END, TURN_END_STEP, -1))

    on_placed_unless = (ID, "flight")  # no call while no flight is shown

    def on_placed(self, state: GameState, placed: PlacedTile) -> Iterable[Event]:
        m = state.ext[ID]
        if m.flight is not None:  # the last flight was shown on the turn's pictures
            state.ext[ID] = replace(m, flight=None)
        return ()

    def redact(self, model: Any, viewer: Seat | None) -> Any:
        return model


__all__ = [
    "AFTER_FAILED",
    "DIE",
    "FACES",
    "FIGURES",
    "ID",
    "SPOT",
    "FlierBoarded",
    "FlierFlew",
    "FlierLanded",
    "FlierModel",
    "Flight",
    "FlyingMachines",
    "landing_square",
    "model_of",
    "turned",
]


#: this package's expansion (engine/carcassonne/expansions/__init__.py registers it)
EXPANSION = FlyingMachines

from . import de as _de  # noqa: E402, F401  (the German words)
