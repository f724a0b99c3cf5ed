"""The rows the repositories return (small frozen dataclasses) and the JSON column codec."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

OPEN_STATUSES = ("lobby", "active")
#: a match that ended: its row, seats and log are final
ENDED_STATUSES = ("finished", "abandoned")
STATUSES = ("lobby", "active", "finished", "abandoned")
GAMES = ("carcassonne", "cardgame")


def dumps(data: Any) -> str:
    """Compact, key-sorted JSON for a JSON column."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


class ByName(Protocol):
    """A database row read by column name (sqlite3's, aiosqlite's or asyncpg's)."""

    def __getitem__(self, key: str, /) -> Any: ...


def loads(text: str | None) -> Any:
    """A JSON column's value (``None`` stays ``None``)."""
    return None if text is None else json.loads(text)


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One ``matches`` row. The JSON columns are kept as stored and decoded on first use
    (``options``, ``setup``, ``snapshot``): a move reads the row several times and most
    reads need none of them (the rebuilt game is cached), so none is decoded in vain."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    status: str
    host_id: int
    version: int
    options_json: str | None
    setup_json: str | None
    seed: int
    snapshot_json: str | None
    lobby_message_id: int | None
    turn_message_id: int | None
    turn_message_version: int | None
    created_at: float
    updated_at: float
    #: decoded JSON columns by name (filled on first use; not part of the row's identity)
    _decoded: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def options(self) -> dict[str, Any]:
        """The lobby options (``{}`` when none were stored)."""
        d = self._decoded
        if "options" not in d:
            d["options"] = loads(self.options_json) or {}
        out: dict[str, Any] = d["options"]
        return out

    @property
    def setup(self) -> dict[str, Any] | None:
        """The game setup of a started match (``None`` for a lobby)."""
        d = self._decoded
        if "setup" not in d:
            d["setup"] = loads(self.setup_json)
        out: dict[str, Any] | None = d["setup"]
        return out

    @property
    def started(self) -> bool:
        """Whether the match has a setup (it left the lobby), without decoding it."""
        return self.setup_json is not None

    @property
    def snapshot(self) -> dict[str, Any] | None:
        """The snapshot stored with the last move (``None`` before the start)."""
        d = self._decoded
        if "snapshot" not in d:
            d["snapshot"] = loads(self.snapshot_json)
        out: dict[str, Any] | None = d["snapshot"]
        return out

    @classmethod
    def from_row(cls, r: ByName) -> MatchRow:
        """From a ``SELECT *`` row (read by column name)."""
        return cls(
            id=r["id"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            game=r["game"],
            status=r["status"],
            host_id=r["host_id"],
            version=r["version"],
            options_json=r["options_json"],
            setup_json=r["setup_json"],
            seed=r["seed"],
            snapshot_json=r["snapshot_json"],
            lobby_message_id=r["lobby_message_id"],
            turn_message_id=r["turn_message_id"],
            turn_message_version=r["turn_message_version"],
            created_at=r["created_at"],
            updated_at=r["updated_at"],
        )


@dataclass(frozen=True, slots=True)
class SeatRow:
    match_id: int
    join_order: int
    seat: int | None
    user_id: int
    name: str
    resigned: bool
    #: who plays the seat when not a person (``ai:<level>``, ``away:<level>``; None: a person)
    controller: str | None = None
    #: the seat's move deadlines missed in a row (a turn clock's count; app/clocks.py)
    missed: int = 0


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One entry of the append-only log; ``seq`` is the match version it produced."""

    match_id: int
    seq: int
    seat: int
    action: str
    visibility: str
    created_at: float


@dataclass(frozen=True, slots=True)
class NewAction:
    seq: int
    seat: int
    action: str
    visibility: str = "public"


@dataclass(frozen=True, slots=True)
class TimerRow:
    id: int
    match_id: int
    fires_at: float
    kind: str
    user_id: int
    version: int
    sent: bool


@dataclass(frozen=True, slots=True)
class LeaveResult:
    """What :meth:`storage.repositories.MatchRepo.leave` did, in its one transaction."""

    #: the user had a seat and gave it up
    left: bool
    #: nobody is left: the lobby is now abandoned
    abandoned: bool = False
    #: the new host when the host left (the next player to have joined)
    new_host_id: int | None = None


@dataclass(frozen=True, slots=True)
class PruneReport:
    """Rows :meth:`storage.repositories.Storage.prune` deleted."""

    #: sent reminders, and reminders of matches that are no longer running
    reminders: int = 0
    #: abandoned lobbies (never started), with their seats
    lobbies: int = 0
    #: abandoned started matches, with their seats and log
    matches: int = 0
    #: closed-DM marks old enough to try the player's DMs again
    dm_marks: int = 0

    @property
    def total(self) -> int:
        return self.reminders + self.lobbies + self.matches + self.dm_marks
