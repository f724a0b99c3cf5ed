"""Every SQL statement of Carcabot. Rows come back as small frozen dataclasses.

Reads run on the shared connection; writes take the connection of an open
:meth:`storage.db.Database.transaction` (``tx``) so that one move is one transaction.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from storage.db import Database

OPEN_STATUSES = ("lobby", "active")
STATUSES = ("lobby", "active", "finished", "abandoned")
GAMES = ("carcassonne", "cardgame")


class StorageError(Exception):
    """Base class of storage failures the service turns into player messages."""


class ChannelBusy(StorageError):
    """A lobby or active match already exists in this channel."""


class AlreadySeated(StorageError):
    """The user already has a seat in this match."""


class StaleVersion(StorageError):
    """The match moved on since it was read (compare-and-set on ``version`` failed)."""


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    status: str
    host_id: int
    version: int
    options: dict[str, Any]
    setup: dict[str, Any] | None
    seed: int
    snapshot: dict[str, Any] | None
    lobby_message_id: int | None
    turn_message_id: int | None
    turn_message_version: int | None
    created_at: float
    updated_at: float

    @classmethod
    def from_row(cls, r: aiosqlite.Row) -> MatchRow:
        return cls(
            id=r["id"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            game=r["game"],
            status=r["status"],
            host_id=r["host_id"],
            version=r["version"],
            options=_loads(r["options_json"]) or {},
            setup=_loads(r["setup_json"]),
            seed=r["seed"],
            snapshot=_loads(r["snapshot_json"]),
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


def _is_unique_violation(e: sqlite3.IntegrityError) -> bool:
    return "UNIQUE" in str(e).upper()


class MatchRepo:
    """The ``matches`` and ``match_seats`` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # --------------------------------------------------------------- reads
    async def get(self, match_id: int) -> MatchRow | None:
        r = await self.db.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
        return None if r is None else MatchRow.from_row(r)

    async def open_in_channel(self, channel_id: int) -> MatchRow | None:
        """The lobby or active match of a channel (at most one: a unique index says so)."""
        r = await self.db.fetchone(
            "SELECT * FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return None if r is None else MatchRow.from_row(r)

    async def with_status(self, status: str) -> list[MatchRow]:
        rows = await self.db.fetchall(
            "SELECT * FROM matches WHERE status = ? ORDER BY id", (status,)
        )
        return [MatchRow.from_row(r) for r in rows]

    async def in_channel(self, channel_id: int, *, limit: int = -1) -> list[MatchRow]:
        """Matches of a channel, newest first (all of them unless ``limit``)."""
        rows = await self.db.fetchall(
            "SELECT * FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT ?",
            (channel_id, limit),
        )
        return [MatchRow.from_row(r) for r in rows]

    async def seats(self, match_id: int) -> list[SeatRow]:
        """Seats in join order (``seat`` is set once the match started)."""
        rows = await self.db.fetchall(
            "SELECT match_id, join_order, seat, user_id, name, resigned FROM match_seats "
            "WHERE match_id = ? ORDER BY join_order",
            (match_id,),
        )
        return [SeatRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in rows]

    # --------------------------------------------------------------- writes
    async def create(
        self,
        tx: aiosqlite.Connection,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: dict[str, Any],
        seed: int,
        game: str = "carcassonne",
    ) -> int:
        """Insert a lobby; return its id.

        Raises:
            ChannelBusy: the channel already has a lobby or active match.
        """
        now = time.time()
        try:
            cur = await tx.execute(
                "INSERT INTO matches (guild_id, channel_id, game, status, host_id, version,"
                " options_json, seed, created_at, updated_at)"
                " VALUES (?, ?, ?, 'lobby', ?, 0, ?, ?, ?, ?)",
                (guild_id, channel_id, game, host_id, _dumps(options), seed, now, now),
            )
        except sqlite3.IntegrityError as e:
            if _is_unique_violation(e):
                raise ChannelBusy("a match is already open in this channel") from e
            raise
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    async def add_seat(
        self, tx: aiosqlite.Connection, match_id: int, user_id: int, name: str
    ) -> None:
        """Append a player to the lobby.

        Raises:
            AlreadySeated: the user already joined.
        """
        try:
            await tx.execute(
                "INSERT INTO match_seats (match_id, join_order, user_id, name)"
                " VALUES (?, (SELECT COALESCE(MAX(join_order), -1) + 1 FROM match_seats"
                "             WHERE match_id = ?), ?, ?)",
                (match_id, match_id, user_id, name),
            )
        except sqlite3.IntegrityError as e:
            if _is_unique_violation(e):
                raise AlreadySeated("already joined") from e
            raise

    async def remove_seat(self, tx: aiosqlite.Connection, match_id: int, user_id: int) -> bool:
        """Take a player out of a lobby; ``False`` if they were not in it."""
        cur = await tx.execute(
            "DELETE FROM match_seats WHERE match_id = ? AND user_id = ? AND seat IS NULL",
            (match_id, user_id),
        )
        return cur.rowcount > 0

    async def set_host(self, tx: aiosqlite.Connection, match_id: int, host_id: int) -> None:
        await tx.execute(
            "UPDATE matches SET host_id = ?, updated_at = ? WHERE id = ?",
            (host_id, time.time(), match_id),
        )

    async def set_options(
        self, tx: aiosqlite.Connection, match_id: int, options: dict[str, Any]
    ) -> None:
        await tx.execute(
            "UPDATE matches SET options_json = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
            (_dumps(options), time.time(), match_id),
        )

    async def start(
        self,
        tx: aiosqlite.Connection,
        match_id: int,
        *,
        seat_order: Sequence[int],
        setup: dict[str, Any],
        snapshot: dict[str, Any],
    ) -> None:
        """Lobby -> active: give seats ``0..n-1`` to ``seat_order`` (user ids), store setup.

        Raises:
            StaleVersion: the match is no longer a lobby.
        """
        cur = await tx.execute(
            "UPDATE matches SET status = 'active', version = 0, setup_json = ?,"
            " snapshot_json = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
            (_dumps(setup), _dumps(snapshot), time.time(), match_id),
        )
        if cur.rowcount != 1:
            raise StaleVersion("the match is no longer a lobby")
        for seat, user_id in enumerate(seat_order):
            await tx.execute(
                "UPDATE match_seats SET seat = ? WHERE match_id = ? AND user_id = ?",
                (seat, match_id, user_id),
            )

    async def advance(
        self,
        tx: aiosqlite.Connection,
        match_id: int,
        *,
        expected_version: int,
        new_version: int,
        snapshot: dict[str, Any],
        status: str | None = None,
    ) -> None:
        """Compare-and-set: move an active match from ``expected_version`` to ``new_version``.

        Raises:
            StaleVersion: the stored version is not ``expected_version`` (or it is not active).
        """
        cur = await tx.execute(
            "UPDATE matches SET version = ?, snapshot_json = ?, status = COALESCE(?, status),"
            " updated_at = ? WHERE id = ? AND version = ? AND status = 'active'",
            (new_version, _dumps(snapshot), status, time.time(), match_id, expected_version),
        )
        if cur.rowcount != 1:
            raise StaleVersion(f"match {match_id} is not at version {expected_version}")

    async def set_status(self, tx: aiosqlite.Connection, match_id: int, status: str) -> None:
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        await tx.execute(
            "UPDATE matches SET status = ?, updated_at = ? WHERE id = ?",
            (status, time.time(), match_id),
        )

    async def set_resigned(self, tx: aiosqlite.Connection, match_id: int, seat: int) -> None:
        await tx.execute(
            "UPDATE match_seats SET resigned = 1 WHERE match_id = ? AND seat = ?",
            (match_id, seat),
        )

    async def set_turn_message(
        self, tx: aiosqlite.Connection, match_id: int, version: int, message_id: int
    ) -> bool:
        """Remember the message that shows ``version``; ignored if an newer one is stored."""
        cur = await tx.execute(
            "UPDATE matches SET turn_message_id = ?, turn_message_version = ?"
            " WHERE id = ? AND COALESCE(turn_message_version, -1) <= ?",
            (message_id, version, match_id, version),
        )
        return cur.rowcount == 1

    async def set_lobby_message(
        self, tx: aiosqlite.Connection, match_id: int, message_id: int
    ) -> None:
        await tx.execute(
            "UPDATE matches SET lobby_message_id = ? WHERE id = ?", (message_id, match_id)
        )


class ActionLogRepo:
    """The append-only ``actions`` table (triggers refuse UPDATE and DELETE)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def append(
        self, tx: aiosqlite.Connection, match_id: int, entries: Sequence[NewAction]
    ) -> None:
        """Raises:
        StaleVersion: an entry with the same ``seq`` exists (another writer got there first).
        """
        now = time.time()
        try:
            await tx.executemany(
                "INSERT INTO actions (match_id, seq, seat, action, visibility, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(match_id, e.seq, e.seat, e.action, e.visibility, now) for e in entries],
            )
        except sqlite3.IntegrityError as e:
            raise StaleVersion(f"action log of match {match_id} already has that entry") from e

    async def entries(self, match_id: int) -> list[ActionRow]:
        rows = await self.db.fetchall(
            "SELECT match_id, seq, seat, action, visibility, created_at FROM actions"
            " WHERE match_id = ? ORDER BY seq",
            (match_id,),
        )
        return [ActionRow(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]


class TimerRepo:
    """Turn reminders: one pending reminder per match at most."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def replace_turn_reminder(
        self,
        tx: aiosqlite.Connection,
        match_id: int,
        *,
        user_id: int,
        fires_at: float,
        version: int,
        kind: str = "turn_reminder",
    ) -> None:
        """Drop the match's pending reminder and schedule one for ``user_id``."""
        await self.cancel(tx, match_id)
        await tx.execute(
            "INSERT INTO timers (match_id, fires_at, kind, user_id, version)"
            " VALUES (?, ?, ?, ?, ?)",
            (match_id, fires_at, kind, user_id, version),
        )

    async def cancel(self, tx: aiosqlite.Connection, match_id: int) -> None:
        await tx.execute("DELETE FROM timers WHERE match_id = ? AND sent = 0", (match_id,))

    async def pending(self, match_id: int) -> list[TimerRow]:
        rows = await self.db.fetchall(
            "SELECT id, match_id, fires_at, kind, user_id, version, sent FROM timers"
            " WHERE match_id = ? AND sent = 0 ORDER BY fires_at",
            (match_id,),
        )
        return [TimerRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6])) for r in rows]

    async def claim_due(self, tx: aiosqlite.Connection, now: float) -> list[tuple[TimerRow, int]]:
        """Mark every unsent reminder of an active match due at ``now`` as sent; return each
        with its match's channel id."""
        async with tx.execute(
            "SELECT t.id, t.match_id, t.fires_at, t.kind, t.user_id, t.version, t.sent,"
            " m.channel_id FROM timers t JOIN matches m ON m.id = t.match_id"
            " WHERE t.sent = 0 AND t.fires_at <= ? AND m.status = 'active'"
            " ORDER BY t.fires_at, t.id",
            (now,),
        ) as cur:
            rows = list(await cur.fetchall())
        out = [(TimerRow(r[0], r[1], r[2], r[3], r[4], r[5], True), int(r[7])) for r in rows]
        await tx.executemany("UPDATE timers SET sent = 1 WHERE id = ?", [(t.id,) for t, _ in out])
        return out


class GuildSettingsRepo:
    """Per-guild defaults (lobby options, language) as a JSON object."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, guild_id: int) -> dict[str, Any]:
        r = await self.db.fetchone(
            "SELECT defaults_json FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return {} if r is None else dict(json.loads(r[0]))

    async def put(self, tx: aiosqlite.Connection, guild_id: int, defaults: dict[str, Any]) -> None:
        await tx.execute(
            "INSERT INTO guild_settings (guild_id, defaults_json, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET defaults_json = excluded.defaults_json,"
            " updated_at = excluded.updated_at",
            (guild_id, _dumps(defaults), time.time()),
        )


class Storage:
    """The database and its repositories, opened and closed together."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.matches = MatchRepo(db)
        self.actions = ActionLogRepo(db)
        self.timers = TimerRepo(db)
        self.guilds = GuildSettingsRepo(db)

    @classmethod
    async def open(cls, path: Path | str) -> Storage:
        return cls(await Database.open(path))

    async def close(self) -> None:
        await self.db.close()
