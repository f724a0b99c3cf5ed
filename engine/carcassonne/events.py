"""Events: what happened in one transition, for announcements and the renderer."""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.scoring import Award, ScoreItem
from engine.core import messages
from engine.core.decisions import Prompt
from engine.core.seats import Seat

messages.register(
    {
        "event.die_rolled": ("{seat} rolls a {value}.", "{seat} saca un {value}."),
        "event.track_moved": (
            "{seat}'s {figure} moves to {space} on the score track.",
            "La figura {figure} de {seat} pasa a la casilla {space} del marcador.",
        ),
        "event.track_left": (
            "{seat}'s {figure} leaves the score track.",
            "La figura {figure} de {seat} sale del marcador.",
        ),
    }
)


class Event:
    """Base class of events.

    An event players should read of, and that a front end cannot know (an expansion's),
    says so with :meth:`prompt`: a message key (``engine.core.messages``) and parameters.
    By convention a parameter named ``seat`` (or ending in ``_seat``) holds a seat number,
    which a front end shows as that player's name.
    """

    __slots__ = ()

    def prompt(self) -> Prompt | None:
        return None


@dataclass(frozen=True, slots=True)
class TileDrawn(Event):
    seat: Seat
    tile: str


@dataclass(frozen=True, slots=True)
class TileDiscarded(Event):
    """A drawn tile fitted nowhere and left the game (RULES.md §2.4.4)."""

    seat: Seat
    tile: str


@dataclass(frozen=True, slots=True)
class TilePlaced(Event):
    seat: Seat
    tile: str
    pos: Position
    rotation: Rotation


@dataclass(frozen=True, slots=True)
class FigureDeployed(Event):
    seat: Seat
    figure: str
    pos: Position
    spot: str


@dataclass(frozen=True, slots=True)
class PointsScored(Event):
    """One feature (or final-scoring line) scored; ``awards`` lists who got what."""

    item: ScoreItem
    awards: tuple[Award, ...]


@dataclass(frozen=True, slots=True)
class FiguresReturned(Event):
    seat: Seat
    figure: str
    count: int


@dataclass(frozen=True, slots=True)
class BoardFigure:
    """A figure on the board: owner, kind, tile and the index of its feature on that tile."""

    seat: Seat
    figure: str
    pos: Position
    feature: int


@dataclass(frozen=True, slots=True)
class FinalScoringStarted(Event):
    """Final scoring begins with these figures on the board. Final scoring takes them off, so
    a picture of the final board puts them back from here (ordered by tile, then seat)."""

    figures: tuple[BoardFigure, ...]


@dataclass(frozen=True, slots=True)
class DieRolled(Event):
    """A die rolled in public (``chance.roll_die``): who rolled, which die, what it shows."""

    seat: Seat
    die: str
    value: int

    def prompt(self) -> Prompt:
        return Prompt.of("event.die_rolled", seat=self.seat, value=self.value)


@dataclass(frozen=True, slots=True)
class TrackFigureMoved(Event):
    """A figure on the scoring track other than a seat's own marker was put on it, moved or
    taken off (``space`` ``None``) (:mod:`engine.carcassonne.track`)."""

    seat: Seat
    figure: str
    space: int | None

    def prompt(self) -> Prompt:
        if self.space is None:
            return Prompt.of("event.track_left", seat=self.seat, figure=_figure(self.figure))
        return Prompt.of(
            "event.track_moved", seat=self.seat, figure=_figure(self.figure), space=self.space
        )


def _figure(kind: str) -> Prompt | str:
    """A figure kind in the reader's words when the catalogue names it (``fig.<kind>``)."""
    return Prompt.of(f"fig.{kind}") if messages.has(f"fig.{kind}") else kind


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
