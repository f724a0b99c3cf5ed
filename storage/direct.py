"""The ``dm_closed`` table: users whose direct messages are closed (migration 0003); the
``quiet_players`` table: users who are not pinged on their turn (migration 0007); and the
``private_sends`` table: secret decisions already sent by direct message (migration 0009).

A DM that Discord refuses with 403 marks its user here in the same moment
(:meth:`DmClosedRepo.note`), so the knowledge survives a restart that comes before the match's
next move. Rows older than the pruning age go (:meth:`DmClosedRepo.prune`): a player who opened
their DMs meanwhile is tried again.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import aiosqlite

from storage.db import Database


class DmClosedRepo:
    """Who cannot be sent direct messages."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def is_closed(self, user_id: int) -> bool:
        r = await self.db.fetchone("SELECT 1 FROM dm_closed WHERE user_id = ?", (user_id,))
        return r is not None

    async def closed_among(self, user_ids: list[int]) -> set[int]:
        """Which of ``user_ids`` have their DMs closed."""
        if not user_ids:
            return set()
        marks = ",".join("?" * len(user_ids))
        rows = await self.db.fetchall(
            f"SELECT user_id FROM dm_closed WHERE user_id IN ({marks})", tuple(user_ids)
        )
        return {int(r[0]) for r in rows}

    async def note(self, tx: aiosqlite.Connection, user_id: int, now: float | None = None) -> bool:
        """Mark ``user_id`` as closed; ``True`` when they were not marked before."""
        cur = await tx.execute(
            "INSERT INTO dm_closed (user_id, noted_at) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO NOTHING",
            (user_id, time.time() if now is None else now),
        )
        return cur.rowcount == 1

    async def prune(self, tx: aiosqlite.Connection, *, before: float, limit: int) -> int:
        """Forget up to ``limit`` marks made before ``before`` (Unix seconds); how many."""
        cur = await tx.execute(
            "DELETE FROM dm_closed WHERE user_id IN"
            " (SELECT user_id FROM dm_closed WHERE noted_at < ? LIMIT ?)",
            (before, limit),
        )
        return max(cur.rowcount, 0)


class QuietPlayersRepo:
    """Who asked not to be pinged when it is their turn."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def all(self) -> set[int]:
        rows = await self.db.fetchall("SELECT user_id FROM quiet_players", ())
        return {int(r[0]) for r in rows}

    async def set_quiet(self, tx: aiosqlite.Connection, user_id: int, quiet: bool) -> None:
        if quiet:
            await tx.execute(
                "INSERT INTO quiet_players (user_id, set_at) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO NOTHING",
                (user_id, time.time()),
            )
        else:
            await tx.execute("DELETE FROM quiet_players WHERE user_id = ?", (user_id,))


class PrivateSendsRepo:
    """Which secret decisions were sent to their player by direct message (once each)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def claim(
        self, tx: aiosqlite.Connection, match_id: int, sends: Sequence[tuple[int, str]]
    ) -> set[tuple[int, str]]:
        """Mark ``(user, decision key)`` pairs as sent; those not marked before."""
        now, fresh = time.time(), set()
        for user_id, key in sends:
            cur = await tx.execute(
                "INSERT INTO private_sends (match_id, user_id, decision_key, sent_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (match_id, user_id, key, now),
            )
            if cur.rowcount == 1:
                fresh.add((user_id, key))
        return fresh

    async def prune(self, tx: aiosqlite.Connection, *, limit: int) -> int:
        """Forget the sends of up to ``limit`` matches no longer running; how many rows."""
        cur = await tx.execute(
            "DELETE FROM private_sends WHERE match_id IN (SELECT DISTINCT p.match_id"
            " FROM private_sends p JOIN matches m ON m.id = p.match_id"
            " WHERE m.status <> 'active' LIMIT ?)",
            (limit,),
        )
        return max(cur.rowcount, 0)
