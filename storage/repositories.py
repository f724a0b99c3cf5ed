"""Every SQL statement of Carcabot. Rows come back as small frozen dataclasses (storage/rows.py).

Reads run on the database's reader connection; writes take the connection of an open
:meth:`storage.db.Database.transaction` (``tx``) so that one move is one transaction. A check
that guards a write (a lobby's free seats, its status, the match version) is made inside that
same transaction, so a second process cannot slip in between the check and the write.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any

import aiosqlite

from storage.db import Database
from storage.errors import (
    AlreadySeated,
    ChannelBusy,
    DatabaseInUse,
    LobbyClosed,
    LobbyFull,
    StaleVersion,
    StorageBusy,
    StorageError,
)
from storage.rows import (
    ENDED_STATUSES,
    GAMES,
    OPEN_STATUSES,
    STATUSES,
    ActionRow,
    LeaveResult,
    MatchRow,
    NewAction,
    SeatRow,
    TimerRow,
    dumps,
    loads,
)
from storage.snapshots import compact_snapshot
from storage.timers import LEASED_KINDS, PRUNE_BATCH, TIMER_LEASE, TimerRepo

__all__ = [
    "LEASED_KINDS",
    "PRUNE_BATCH",
    "TIMER_LEASE",
    "ENDED_STATUSES",
    "GAMES",
    "OPEN_STATUSES",
    "STATUSES",
    "ActionLogRepo",
    "ActionRow",
    "AlreadySeated",
    "ChannelBusy",
    "DatabaseInUse",
    "GuildSettingsRepo",
    "LeaveResult",
    "LobbyClosed",
    "LobbyFull",
    "MatchRepo",
    "MatchRow",
    "NewAction",
    "SeatRow",
    "StaleVersion",
    "StorageBusy",
    "StorageError",
    "TimerRepo",
    "TimerRow",
]


def _is_unique_violation(e: sqlite3.IntegrityError) -> bool:
    return "UNIQUE" in str(e).upper()


def _need_tx(tx: aiosqlite.Connection, what: str) -> None:
    """Refuse a checked write outside a transaction (its check would not hold)."""
    if not tx.in_transaction:
        raise RuntimeError(f"{what} must run inside Database.transaction()")


async def _rows(tx: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> list[Any]:
    """Rows read inside the caller's transaction, fetched whole."""
    return list(await tx.execute_fetchall(sql, tuple(params)))


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
            "SELECT match_id, join_order, seat, user_id, name, resigned, controller, missed FROM match_seats "
            "WHERE match_id = ? ORDER BY join_order",
            (match_id,),
        )
        return [SeatRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], int(r[7])) for r in rows]

    # --------------------------------------------------------------- lobby writes
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
                (guild_id, channel_id, game, host_id, dumps(options), seed, now, now),
            )
        except sqlite3.IntegrityError as e:
            if _is_unique_violation(e):
                raise ChannelBusy("a match is already open in this channel") from e
            raise
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    async def add_seat(
        self,
        tx: aiosqlite.Connection,
        match_id: int,
        user_id: int,
        name: str,
        *,
        controller: str | None = None,
    ) -> None:
        """Append a player to the lobby, unchecked (the host of a new lobby); players who join
        later go through :meth:`join`, which checks the free seats.

        Raises:
            AlreadySeated: the user already joined.
        """
        try:
            await tx.execute(
                "INSERT INTO match_seats (match_id, join_order, user_id, name, controller)"
                " VALUES (?, (SELECT COALESCE(MAX(join_order), -1) + 1 FROM match_seats"
                "             WHERE match_id = ?), ?, ?, ?)",
                (match_id, match_id, user_id, name, controller),
            )
        except sqlite3.IntegrityError as e:
            if _is_unique_violation(e):
                raise AlreadySeated("already joined") from e
            raise

    async def join(
        self,
        tx: aiosqlite.Connection,
        match_id: int,
        user_id: int,
        name: str,
        *,
        capacity: int | Callable[[dict[str, Any]], int],
        controller: str | None = None,
    ) -> int:
        """Seat ``user_id`` in the lobby if it has a free seat; return the seats taken now.

        The status, the seat count and the insert are one transaction: two joins racing for
        the last seat, from two coroutines or two processes, seat exactly one. ``capacity`` is
        the number of seats, or a function of the lobby's options read in this same transaction
        (so that a host changing the player count meanwhile cannot be overtaken either).

        Raises:
            LobbyClosed: the match is no longer a lobby (or does not exist).
            AlreadySeated: the user already joined.
            LobbyFull: ``capacity`` seats are taken.
        """
        _need_tx(tx, "join")
        found = await _rows(
            tx, "SELECT status, options_json FROM matches WHERE id = ?", (match_id,)
        )
        if not found or found[0][0] != "lobby":
            raise LobbyClosed("the match is no longer a lobby")
        if callable(capacity):
            capacity = capacity(loads(found[0][1]) or {})
        seated = [
            r[0]
            for r in await _rows(
                tx, "SELECT user_id FROM match_seats WHERE match_id = ?", (match_id,)
            )
        ]
        if user_id in seated:
            raise AlreadySeated("already joined")
        if len(seated) >= capacity:
            raise LobbyFull(len(seated), capacity)
        await self.add_seat(tx, match_id, user_id, name, controller=controller)
        return len(seated) + 1

    async def count_move(
        self, tx: aiosqlite.Connection, match_id: int, seat: int, *, timed_out: bool | None
    ) -> None:
        """A seat's missed moves in a row: back to 0 after its own move (``timed_out``
        False), one more when a stand-in played it (True), unchanged (None)."""
        if timed_out is True:
            sql = "UPDATE match_seats SET missed = missed + 1 WHERE match_id = ? AND seat = ?"
        elif timed_out is False:
            sql = "UPDATE match_seats SET missed = 0 WHERE match_id = ? AND seat = ? AND missed > 0"
        else:
            return
        await tx.execute(sql, (match_id, seat))

    async def set_controller(
        self, tx: aiosqlite.Connection, match_id: int, user_id: int, controller: str | None
    ) -> bool:
        """Who plays ``user_id``'s seat from now on (``None``: the person again); False when
        no such seat."""
        _need_tx(tx, "set_controller")
        cur = await tx.execute(
            "UPDATE match_seats SET controller = ? WHERE match_id = ? AND user_id = ?",
            (controller, match_id, user_id),
        )
        return cur.rowcount > 0

    async def leave(self, tx: aiosqlite.Connection, match_id: int, user_id: int) -> LeaveResult:
        """Take a player out of a lobby, in one transaction: when nobody is left the lobby is
        abandoned; when the host left, the next player to have joined becomes host.

        Raises:
            LobbyClosed: the match is no longer a lobby (or does not exist).
        """
        _need_tx(tx, "leave")
        row = await _rows(tx, "SELECT status, host_id FROM matches WHERE id = ?", (match_id,))
        if not row or row[0][0] != "lobby":
            raise LobbyClosed("the match is no longer a lobby")
        if not await self.remove_seat(tx, match_id, user_id):
            return LeaveResult(left=False)
        rest = await _rows(
            tx,
            "SELECT user_id FROM match_seats WHERE match_id = ? ORDER BY join_order",
            (match_id,),
        )
        if not rest:
            await self.set_status(tx, match_id, "abandoned")
            return LeaveResult(left=True, abandoned=True)
        if row[0][1] == user_id:
            await self.set_host(tx, match_id, rest[0][0])
            return LeaveResult(left=True, new_host_id=rest[0][0])
        return LeaveResult(left=True)

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
        self,
        tx: aiosqlite.Connection,
        match_id: int,
        options: dict[str, Any],
        *,
        capacity: int | None = None,
    ) -> bool:
        """Store a lobby's options; False when it is no longer a lobby. With ``capacity`` (the
        seats the new options allow) the seat count is checked in the same transaction.

        Raises:
            LobbyFull: more than ``capacity`` players have joined already.
        """
        if capacity is not None:
            _need_tx(tx, "set_options with a capacity")
            (n,) = (
                await _rows(tx, "SELECT COUNT(*) FROM match_seats WHERE match_id = ?", (match_id,))
            )[0]
            if n > capacity:
                raise LobbyFull(n, capacity)
        cur = await tx.execute(
            "UPDATE matches SET options_json = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
            (dumps(options), time.time(), match_id),
        )
        return cur.rowcount == 1

    async def start(
        self,
        tx: aiosqlite.Connection,
        match_id: int,
        *,
        seat_order: Sequence[int],
        setup: dict[str, Any],
        snapshot: dict[str, Any],
        compact: bool = False,
    ) -> None:
        """Lobby -> active: give seats ``0..n-1`` to ``seat_order`` (user ids), store setup.

        Raises:
            StaleVersion: the match is no longer a lobby, or its players are not exactly
                ``seat_order`` any more (someone joined or left since it was read).
        """
        if compact:
            snapshot = compact_snapshot(snapshot, final=False)
        cur = await tx.execute(
            "UPDATE matches SET status = 'active', version = 0, setup_json = ?,"
            " snapshot_json = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
            (dumps(setup), dumps(snapshot), time.time(), match_id),
        )
        if cur.rowcount != 1:
            raise StaleVersion("the match is no longer a lobby")
        seated = await _rows(tx, "SELECT user_id FROM match_seats WHERE match_id = ?", (match_id,))
        if sorted(r[0] for r in seated) != sorted(seat_order):
            raise StaleVersion("the lobby's players changed")
        for seat, user_id in enumerate(seat_order):
            await tx.execute(
                "UPDATE match_seats SET seat = ? WHERE match_id = ? AND user_id = ?",
                (seat, match_id, user_id),
            )

    # --------------------------------------------------------------- match writes
    async def advance(
        self,
        tx: aiosqlite.Connection,
        match_id: int,
        *,
        expected_version: int,
        new_version: int,
        snapshot: dict[str, Any],
        status: str | None = None,
        compact: bool = False,
    ) -> None:
        """Compare-and-set: move an active match from ``expected_version`` to ``new_version``.

        ``compact=True`` stores the snapshot flat (:func:`storage.snapshots.compact_snapshot`):
        without the game record while the match runs, whole when ``status`` ends it. The
        status columns are only written when ``status`` is given, so an ordinary move rewrites
        the match's table page and none of the indexes on ``status``.

        Raises:
            StaleVersion: the stored version is not ``expected_version`` (or it is not active).
        """
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        if compact:
            snapshot = compact_snapshot(snapshot, final=status in ENDED_STATUSES)
        now = time.time()
        if status is None:
            cur = await tx.execute(
                "UPDATE matches SET version = ?, snapshot_json = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, dumps(snapshot), now, match_id, expected_version),
            )
        else:
            cur = await tx.execute(
                "UPDATE matches SET version = ?, snapshot_json = ?, status = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, dumps(snapshot), status, now, match_id, expected_version),
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

    # --------------------------------------------------------------- pruning
    async def prune_abandoned(
        self,
        tx: aiosqlite.Connection,
        *,
        before: float,
        started: bool,
        limit: int = PRUNE_BATCH,
    ) -> int:
        """Delete up to ``limit`` abandoned matches last touched before ``before`` (Unix
        seconds), with their seats, reminders and (``started``) log; return how many.

        ``started=False`` takes lobbies that never started, ``True`` matches abandoned during
        play. Finished matches are never touched: their records are the players' history.
        """
        ids = [
            r[0]
            for r in await _rows(
                tx,
                "SELECT id FROM matches WHERE status = 'abandoned' AND updated_at < ?"
                " AND (setup_json IS NOT NULL) = ? ORDER BY id LIMIT ?",
                (before, int(started), limit),
            )
        ]
        if not ids:
            return 0
        marks = ",".join("?" * len(ids))
        for table in ("actions", "match_seats", "timers"):
            await tx.execute(f"DELETE FROM {table} WHERE match_id IN ({marks})", ids)
        await tx.execute(f"DELETE FROM matches WHERE status = 'abandoned' AND id IN ({marks})", ids)
        return len(ids)


class ActionLogRepo:
    """The append-only ``actions`` table (triggers refuse UPDATE, and DELETE unless the match
    was abandoned)."""

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


class GuildSettingsRepo:
    """Per-guild defaults (lobby options, language) as a JSON object."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, guild_id: int) -> dict[str, Any]:
        r = await self.db.fetchone(
            "SELECT defaults_json FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return {} if r is None else dict(loads(r[0]))

    async def put(self, tx: aiosqlite.Connection, guild_id: int, defaults: dict[str, Any]) -> None:
        await tx.execute(
            "INSERT INTO guild_settings (guild_id, defaults_json, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET defaults_json = excluded.defaults_json,"
            " updated_at = excluded.updated_at",
            (guild_id, dumps(defaults), time.time()),
        )
