"""The ``seat_votes`` table (migration 0008): votes to hand a silent player's seat to an AI.

A vote counts for the match version it was cast at; casting one drops the match's votes of
other versions (a move started the count again), so a match keeps at most one round of votes.
The votes of matches no longer running go when the database is pruned.
"""

from __future__ import annotations

import time

import aiosqlite

from storage.db import Database


class VotesRepo:
    """Who voted to hand whose seat to an AI, per match version."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(
        self, tx: aiosqlite.Connection, match_id: int, target_id: int, version: int, voter_id: int
    ) -> int:
        """Record ``voter_id``'s vote (once); how many voted against ``target_id`` at
        ``version``."""
        await tx.execute(
            "DELETE FROM seat_votes WHERE match_id = ? AND version <> ?", (match_id, version)
        )
        await tx.execute(
            "INSERT INTO seat_votes (match_id, target_id, version, voter_id, voted_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (match_id, target_id, version, voter_id, time.time()),
        )
        async with tx.execute(
            "SELECT COUNT(*) FROM seat_votes WHERE match_id = ? AND target_id = ? AND version = ?",
            (match_id, target_id, version),
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def clear(self, tx: aiosqlite.Connection, match_id: int, target_id: int) -> None:
        """The vote against ``target_id`` is over (their seat was handed over)."""
        await tx.execute(
            "DELETE FROM seat_votes WHERE match_id = ? AND target_id = ?", (match_id, target_id)
        )

    async def prune(self, tx: aiosqlite.Connection, *, limit: int) -> int:
        """Forget the votes of up to ``limit`` matches no longer running; how many votes."""
        cur = await tx.execute(
            "DELETE FROM seat_votes WHERE match_id IN (SELECT DISTINCT v.match_id"
            " FROM seat_votes v JOIN matches m ON m.id = v.match_id"
            " WHERE m.status <> 'active' LIMIT ?)",
            (limit,),
        )
        return max(cur.rowcount, 0)
