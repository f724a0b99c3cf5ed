"""The data the application layer passes around for either game: seats, lobbies, loaded
matches, and what a game's options and rebuilt games must offer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from engine.core.seats import Seat
from storage import MatchRow, SeatRow


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    user_id: int  # <= 0 for a local random-move seat
    name: str
    resigned: bool = False
    colour: str = ""  # the seat's colour name once the match started
    #: who plays the seat when not a person (``ai:<level>``, ``away:<level>``; app.seats)
    controller: str | None = None

    @property
    def program(self) -> bool:
        """Whether a program (an AI) plays this seat now."""
        return self.controller is not None


class LobbyOptions(Protocol):
    """What the shared lobby needs of a game's options: the seats wanted and a JSON form."""

    @property
    def players(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


Opts = TypeVar("Opts", bound=LobbyOptions)


class Versioned(Protocol):
    """A rebuilt game: its version is the number of log entries it has replayed."""

    @property
    def version(self) -> int: ...


G = TypeVar("G", bound=Versioned)


@dataclass(frozen=True, slots=True)
class LobbyInfo(Generic[Opts]):
    """A lobby (or the match it became): who joined, with which options."""

    match_id: int
    channel_id: int
    host_id: int
    options: Opts
    players: tuple[SeatInfo, ...]  # joined so far, in join order
    status: str  # "lobby" | "active" | "finished" | "abandoned"
    message_id: int | None = None  # the lobby message, if the front end stored it
    guild_id: int = 0


@dataclass(slots=True)
class Loaded(Generic[G]):
    """A match read from storage and rebuilt: row, seats (by seat number) and the game."""

    row: MatchRow
    seats: list[SeatRow]
    game: G

    def seat_of(self, user_id: int) -> Seat | None:
        for s in self.seats:
            if s.user_id == user_id and s.seat is not None:
                return Seat(s.seat)
        return None

    def user_of(self, seat: int) -> int:
        for s in self.seats:
            if s.seat == seat:
                return s.user_id
        raise KeyError(seat)

    def seat_infos(self, colours: Sequence[str] = ()) -> tuple[SeatInfo, ...]:
        out = []
        for s in self.seats:
            n = int(s.seat or 0)
            colour = colours[n % len(colours)] if colours else ""
            out.append(
                SeatInfo(
                    n,
                    s.user_id,
                    s.name,
                    resigned=s.resigned,
                    colour=colour,
                    controller=s.controller,
                )  # fmt: skip
            )
        return tuple(out)


def seated(seats: Sequence[SeatRow]) -> list[SeatRow]:
    """The seats of a started match by seat number (players who left the lobby have none)."""
    return sorted(
        (s for s in seats if s.seat is not None),
        key=lambda s: s.seat if s.seat is not None else -1,
    )
