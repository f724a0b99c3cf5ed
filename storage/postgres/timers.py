"""The PostgreSQL backend's timers and pruning (a part of :class:`storage.postgres.PgStorage`).

Due timers are claimed with ``SELECT … FOR UPDATE SKIP LOCKED`` in one transaction: another
process skips the rows being claimed and finds them sent (a reminder) or leased (a move
deadline: due again only if its claimer dies before :meth:`PgTimers.finish_timer`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from storage.postgres.connection import Connections, PgConn, count
from storage.rows import PruneReport, TimerRow
from storage.timers import LEASED_KINDS, PRUNE_BATCH, TIMER_LEASE
from storage.units import Reminder

DAY = 86_400.0

UPSERT_TIMER = (
    "INSERT INTO timers (match_id, fires_at, kind, user_id, version, sent)"
    " VALUES ($1, $2, $3, $4, $5, 0)"
    " ON CONFLICT (match_id, kind) DO UPDATE SET fires_at = excluded.fires_at,"
    " user_id = excluded.user_id, version = excluded.version, sent = 0"
)


async def write_timers(conn: PgConn, match_id: int, timers: Sequence[Reminder]) -> None:
    await conn.execute("DELETE FROM timers WHERE match_id = $1 AND sent = 0", match_id)
    if timers:
        await conn.executemany(
            UPSERT_TIMER,
            [(match_id, float(t.fires_at), t.kind, t.user_id, t.version) for t in timers],
        )


class PgTimers:
    """Timers and pruning on :attr:`db` (the operations' connections)."""

    db: Connections

    async def pending_timers(self, match_id: int) -> list[TimerRow]:
        rows = await self.db.fetch(
            "SELECT id, match_id, fires_at, kind, user_id, version, sent FROM timers"
            " WHERE match_id = $1 AND sent = 0 ORDER BY fires_at",
            match_id,
        )
        return [TimerRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6])) for r in rows]

    async def next_timer_due(self) -> float | None:
        v = await self.db.fetchval(
            "SELECT MIN(t.fires_at) FROM timers t JOIN matches m ON m.id = t.match_id"
            " WHERE t.sent = 0 AND m.status = 'active'"
        )
        return None if v is None else float(v)

    async def replace_timers(self, match_id: int, timers: Sequence[Reminder]) -> None:
        async with self.db.transaction() as conn:
            await write_timers(conn, match_id, timers)

    async def claim_due_timers(
        self, now: float, game: str | None = None
    ) -> list[tuple[TimerRow, int]]:
        async with self.db.transaction() as conn:
            rows = await conn.fetch(
                "SELECT t.id, t.match_id, t.fires_at, t.kind, t.user_id, t.version,"
                " m.channel_id FROM timers t JOIN matches m ON m.id = t.match_id"
                " WHERE t.sent = 0 AND t.fires_at <= $1 AND m.status = 'active'"
                " AND ($2::text IS NULL OR m.game = $2)"
                " ORDER BY t.fires_at, t.id FOR UPDATE OF t SKIP LOCKED",
                float(now),
                game,
            )
            out = [(TimerRow(r[0], r[1], r[2], r[3], r[4], r[5], True), int(r[6])) for r in rows]
            sent = [t.id for t, _ in out if t.kind not in LEASED_KINDS]
            leased = [t.id for t, _ in out if t.kind in LEASED_KINDS]
            if sent:
                await conn.execute("UPDATE timers SET sent = 1 WHERE id = ANY($1::bigint[])", sent)
            if leased:
                await conn.execute(
                    "UPDATE timers SET fires_at = $2 WHERE id = ANY($1::bigint[])",
                    leased,
                    float(now) + TIMER_LEASE,
                )
        return out

    async def finish_timer(self, match_id: int, kind: str, version: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE timers SET sent = 1 WHERE match_id = $1 AND kind = $2 AND version = $3"
                " AND sent = 0",
                match_id,
                kind,
                version,
            )

    # ------------------------------------------------------------------ pruning
    async def prune(
        self,
        *,
        now: float | None = None,
        lobby_days: float = 7.0,
        match_days: float | None = 30.0,
        dm_days: float | None = 30.0,
        batch: int = PRUNE_BATCH,
    ) -> PruneReport:
        """Delete what only grows (see :meth:`storage.store.Storage.prune`), in short
        transactions; safe while other processes play."""
        now = time.time() if now is None else now
        reminders = await self._batches(
            "DELETE FROM timers WHERE id IN (SELECT t.id FROM timers t"
            " LEFT JOIN matches m ON m.id = t.match_id"
            " WHERE t.sent = 1 OR m.status IS DISTINCT FROM 'active' LIMIT $1)",
            batch,
        )
        lobbies = await self._prune_abandoned(now - lobby_days * DAY, False, batch)
        matches = 0
        if match_days is not None:
            matches = await self._prune_abandoned(now - match_days * DAY, True, batch)
        for table in ("seat_votes", "private_sends"):  # what matches no longer running kept
            await self._batches(
                f"DELETE FROM {table} WHERE match_id IN (SELECT DISTINCT x.match_id"
                f" FROM {table} x JOIN matches m ON m.id = x.match_id"
                " WHERE m.status <> 'active' LIMIT $1)",
                batch,
            )
        dms = 0
        if dm_days is not None:
            dms = await self._batches(
                "DELETE FROM dm_closed WHERE user_id IN"
                " (SELECT user_id FROM dm_closed WHERE noted_at < $2 LIMIT $1)",
                batch,
                now - dm_days * DAY,
            )
        return PruneReport(reminders=reminders, lobbies=lobbies, matches=matches, dm_marks=dms)

    async def _batches(self, sql: str, batch: int, *args: Any) -> int:
        total = 0
        while True:
            async with self.db.transaction() as conn:
                n = count(await conn.execute(sql, batch, *args))
            total += n
            if n < batch:
                return total

    async def _prune_abandoned(self, before: float, started: bool, batch: int) -> int:
        total = 0
        while True:
            async with self.db.transaction() as conn:
                ids = [r[0] for r in await conn.fetch(
                    "SELECT id FROM matches WHERE status = 'abandoned' AND updated_at < $1"
                    " AND (setup_json IS NOT NULL) = $2 ORDER BY id LIMIT $3 FOR UPDATE",
                    before, started, batch,
                )]  # fmt: skip
                for table in ("actions", "match_seats", "timers"):
                    await conn.execute(
                        f"DELETE FROM {table} WHERE match_id = ANY($1::bigint[])", ids
                    )
                await conn.execute("DELETE FROM matches WHERE id = ANY($1::bigint[])", ids)
            total += len(ids)
            if len(ids) < batch:
                return total
