"""The ``timers`` table: turn reminders, move deadlines and warnings, one row per match and
kind, rewritten in place as turns pass, and claimed by one process when due."""

from __future__ import annotations

import aiosqlite

from storage.db import Database
from storage.rows import TimerRow

#: matches (or timers) deleted per pruning transaction, so the write lock is held briefly
PRUNE_BATCH = 200
#: timer kinds claimed on a lease (see :meth:`TimerRepo.claim_due`): the move deadlines
LEASED_KINDS = ("deadline",)
#: seconds a claimed deadline stays with its claimer before another process may fire it
TIMER_LEASE = 60.0


class TimerRepo:
    """Turn reminders: one row per match and kind, rewritten in place as turns pass."""

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
        """Schedule the match's reminder for ``user_id`` (replacing any earlier one, sent or
        not: the row is updated in place)."""
        await tx.execute(
            "INSERT INTO timers (match_id, fires_at, kind, user_id, version, sent)"
            " VALUES (?, ?, ?, ?, ?, 0)"
            " ON CONFLICT (match_id, kind) DO UPDATE SET fires_at = excluded.fires_at,"
            " user_id = excluded.user_id, version = excluded.version, sent = 0",
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

    async def claim_due(
        self, tx: aiosqlite.Connection, now: float, game: str | None = None
    ) -> list[tuple[TimerRow, int]]:
        """Claim every unsent timer of an active match due at ``now`` (of one ``game`` when
        given); return each with its match's channel id. A reminder is marked sent; a move
        deadline is leased instead (due again :data:`TIMER_LEASE` seconds later) until
        :meth:`finish` says it was dealt with, so a process that dies between the claim and
        the stand-in's move loses no deadline: another one fires it when the lease runs out."""
        rows = list(
            await tx.execute_fetchall(
                "SELECT t.id, t.match_id, t.fires_at, t.kind, t.user_id, t.version, t.sent,"
                " m.channel_id FROM timers t JOIN matches m ON m.id = t.match_id"
                " WHERE t.sent = 0 AND t.fires_at <= ? AND m.status = 'active'"
                " AND (? IS NULL OR m.game = ?)"
                " ORDER BY t.fires_at, t.id",
                (now, game, game),
            )
        )
        out = [(TimerRow(r[0], r[1], r[2], r[3], r[4], r[5], True), int(r[7])) for r in rows]
        await tx.executemany(
            "UPDATE timers SET sent = 1 WHERE id = ?",
            [(t.id,) for t, _ in out if t.kind not in LEASED_KINDS],
        )
        await tx.executemany(
            "UPDATE timers SET fires_at = ? WHERE id = ?",
            [(now + TIMER_LEASE, t.id) for t, _ in out if t.kind in LEASED_KINDS],
        )
        return out

    async def finish(
        self, tx: aiosqlite.Connection, match_id: int, kind: str, version: int
    ) -> None:
        """A leased timer (a move deadline set at ``version``) was dealt with: sent."""
        await tx.execute(
            "UPDATE timers SET sent = 1 WHERE match_id = ? AND kind = ? AND version = ?"
            " AND sent = 0",
            (match_id, kind, version),
        )

    async def next_due(self) -> float | None:
        """When the next unsent timer of a running match fires (None: no timer at all): the
        scheduler sleeps until then (or until a move writes an earlier one)."""
        r = await self.db.fetchone(
            "SELECT MIN(t.fires_at) FROM timers t JOIN matches m ON m.id = t.match_id"
            " WHERE t.sent = 0 AND m.status = 'active'",
            (),
        )
        return None if r is None or r[0] is None else float(r[0])

    async def prune(self, tx: aiosqlite.Connection, *, limit: int = PRUNE_BATCH) -> int:
        """Delete up to ``limit`` reminders that can never fire again: sent ones, and those of
        matches that are no longer running. Return how many."""
        cur = await tx.execute(
            "DELETE FROM timers WHERE id IN (SELECT t.id FROM timers t"
            " LEFT JOIN matches m ON m.id = t.match_id"
            " WHERE t.sent = 1 OR m.status IS NOT 'active' LIMIT ?)",
            (limit,),
        )
        return max(cur.rowcount, 0)
