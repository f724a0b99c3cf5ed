"""Messages (*Despachos*, RULES.md §7): a second scoring figure per player, the messenger
(*seguidora*), and a pile of eight message tokens.

Each award's points go to either of the seat's figures, a decision of the scoring seat (also
off-turn, OQ-MSG-8) unless its standing choice decides. When one of the active player's figures
lands on a dark space (0, 5, 10 …) during the scoring of a placement, they draw the top message
and carry it out or take 2 points; the used message goes under the pile (:mod:`.steps`, the
eight messages in :mod:`.cards`). At the end the two figures are added up (§7.4). No program
had this expansion: its tests, derived by hand from the rulebook, are the oracle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.carcassonne import chance, track
from engine.carcassonne.events import Event
from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.flow import Slot, StepSpec
from engine.carcassonne.scoring import MAIN, Award
from engine.carcassonne.state import GameState
from engine.carcassonne.track import TrackFigure
from engine.core.decisions import Prompt
from engine.core.seats import Seat

from .model import (
    ASK,
    CARDS,
    CATEGORY,
    CHOICE,
    DECK,
    ID,
    MESSENGER,
    STANDING,
    FigureChosen,
    MessageDrawn,
    MessagesModel,
    MessageUsed,
    Pending,
    model_of,
    update,
)
from .steps import FIGURE, MARK, MESSAGE, SETTLE


class Messages(Expansion):
    id = ID
    name = "Messages"
    concepts = ("messenger", "despacho", "seguidora")
    options = (
        Option(
            CHOICE,
            ASK,
            STANDING,
            "which scoring figure takes each award: ask every time, or a standing choice",
        ),
    )

    def initial_model(self) -> MessagesModel:
        n = self.setup.players
        return MessagesModel(standing=(self.option(CHOICE),) * n, messengers=(0,) * n)

    def counters(self, model: Any, seat: Seat) -> Iterable[Prompt]:
        """The points on ``seat``'s messenger (the score is both figures together)."""
        if not isinstance(model, MessagesModel) or not 0 <= seat < len(model.messengers):
            return ()
        return (Prompt.of("dispatches.counter", n=model.messengers[seat]),)

    def on_start(self, state: GameState) -> None:
        for seat in range(state.setup.players):
            track.put(state, TrackFigure(Seat(seat), MESSENGER, 0, True))
        chance.new_pile(state, DECK, CARDS)

    def steps(self) -> Iterable[StepSpec]:
        return (
            StepSpec(Slot.SCORE, MARK, -100),
            StepSpec(Slot.AFTER_SCORE, FIGURE, 50),
            StepSpec(Slot.AFTER_SCORE, MESSAGE, 51),
            StepSpec(Slot.END, SETTLE, -50),
        )

    def on_points_awarded(self, state: GameState, award: Award, depth: int) -> Iterable[Award]:
        """An award during the game waits for its seat's figure choice (final scoring adds
        the two figures up instead, §7.4)."""
        if award.points and award.figure == MAIN and not award.item.final and not state.over:
            m = model_of(state)
            update(state, pending=(*m.pending, Pending(award, m.scoring)))
        elif award.figure == MESSENGER and not state.over:
            # points put on the messenger by another rule (a robber's loot): the public count
            held = list(model_of(state).messengers)
            if 0 <= award.seat < len(held):
                held[award.seat] = track.value(state, award.seat, MESSENGER)
                update(state, messengers=tuple(held))
        return ()

    def final_points(self, state: GameState) -> Sequence[int]:
        """The messenger's points are part of the score already; a final-scoring award never
        waits for a figure choice: no points."""
        return ()

    def final_scoring(self, state: GameState) -> Iterable[Event]:
        """The two figures are added up: the messenger leaves the track (§7.4)."""
        events: list[Event] = []
        update(state, pending=(), card=None, landed=False, scoring=False, messengers=())
        for seat in range(state.setup.players):
            track.take(state, Seat(seat), MESSENGER, events)
        return events

    def redact(self, model: Any, viewer: Seat | None) -> Any:
        return model


__all__ = [
    "CATEGORY",
    "DECK",
    "ID",
    "MESSENGER",
    "FigureChosen",
    "MessageDrawn",
    "MessageUsed",
    "Messages",
    "MessagesModel",
]

#: this package's expansion (engine/carcassonne/expansions/__init__.py registers it)
EXPANSION = Messages

from . import de as _de  # noqa: E402, F401  (the German words)
