"""Robbers (*Ladrones*, RULES.md §11): 8 tiles with the robber symbol and a robber per player,
a figure that stands beside the scoring track.

Placing a robber tile lets the active player, then the next player in turn order with a robber
in front of them, put their robber beside another player's scoring figure (:mod:`.placing`).
When that figure scores, the robber's owner takes half, rounded up, and the robber goes home;
the steals of a tile placement are settled together after its scoring, gold and messages, and a
robber beside a figure that only took robber points moves along with it (:mod:`.steals`).
Robbers stand beside *any* scoring figure on the track (a seat's marker, or a scoring figure
another expansion puts there) and never steal in final scoring: they go home first (OQ-ROB-1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.carcassonne.events import Event
from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.flow import Slot, StepSpec
from engine.carcassonne.scoring import Award
from engine.carcassonne.state import GameState
from engine.carcassonne.track import TrackMove, figures, take

from .model import (
    CATEGORY,
    FOLLOW,
    ID,
    OFFER,
    OFFERS,
    OPEN_STEP,
    PLACE_STEP,
    ROBBER,
    STEAL_STEP,
    SYMBOL,
    Note,
    RobberFollowed,
    RobbersModel,
    RobbersRemoved,
    RobberStole,
    half,
    model_of,
)
from .placing import PLACE, targets, victim_spaces
from .steals import OPEN, STEAL, note


class Robbers(Expansion):
    id = ID
    name = "Robbers"
    tile_sets = ("robbers",)
    concepts = ("ladrones",)
    options = (
        Option(
            OFFER,
            "next",
            OFFERS,
            "who may place a robber after the active player: the next player (rulebook) or "
            "each other player (English rules)",
        ),
    )

    def initial_model(self) -> RobbersModel:
        return RobbersModel()

    # ---- turn flow: placing right after the tile (RULES.md §18 step 1.4: after gold and the
    # mage, before a bridge), noting from the start of scoring, collecting last after scoring
    # (step 4.3: after gold and messages)
    def steps(self) -> Iterable[StepSpec]:
        return (
            StepSpec(Slot.AFTER_PLACE, PLACE, 4),
            StepSpec(Slot.SCORE, OPEN, -1000),
            StepSpec(Slot.AFTER_SCORE, STEAL, 1000),
        )

    def on_track_moved(self, state: GameState, move: TrackMove, depth: int) -> Iterable[Award]:
        return note(state, move)

    def final_points(self, state: GameState) -> Sequence[int]:
        """The robbers go home in final scoring and never steal there: no points."""
        return ()

    def final_scoring(self, state: GameState) -> Iterable[Event]:
        events: list[Event] = []
        robbers = figures(state, kind=ROBBER)
        for r in robbers:  # one line for them all (RobbersRemoved), not one per robber
            take(state, r.seat, ROBBER)
        if robbers:
            events.append(RobbersRemoved(len(robbers)))
        state.ext[ID] = RobbersModel()
        return events

    def redact(self, model: Any, viewer: Any) -> Any:
        return model


__all__ = [
    "CATEGORY",
    "FOLLOW",
    "ID",
    "OFFER",
    "OFFERS",
    "OPEN_STEP",
    "PLACE_STEP",
    "ROBBER",
    "STEAL_STEP",
    "SYMBOL",
    "Note",
    "RobberFollowed",
    "RobberStole",
    "Robbers",
    "RobbersModel",
    "RobbersRemoved",
    "half",
    "model_of",
    "targets",
    "victim_spaces",
]

#: this package's expansion (engine/carcassonne/expansions/__init__.py registers it)
EXPANSION = Robbers

from . import de as _de  # noqa: E402, F401  (the German words)
