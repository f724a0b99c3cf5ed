"""The results, ratings and history of finished games on PostgreSQL (see storage/ratings.py,
whose SQLite twin this is: the same rows, the same once-only rating update)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from storage.postgres.connection import Connections, PgConn, count
from storage.ratings import (
    APPLIED,
    GLOBAL,
    PENDING,
    UNRATED,
    GameResult,
    Rate,
    RatingChange,
    RatingRow,
    ResultSeat,
)

_RESULT = (
    "SELECT match_id, guild_id, channel_id, game, expansions, finished_at, rated FROM game_results"
)
_UPSERT_RATING = (
    "INSERT INTO ratings (scope, user_id, mu, sigma, games, updated_at)"
    " VALUES ($1, $2, $3, $4, 1, $5)"
    " ON CONFLICT (scope, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
    " games = ratings.games + 1, updated_at = excluded.updated_at"
)
_INSERT_CHANGE = (
    "INSERT INTO rating_changes (match_id, scope, user_id, mu_before, sigma_before, mu_after,"
    " sigma_after) VALUES ($1, $2, $3, $4, $5, $6, $7)"
)


async def write_result(conn: PgConn, r: GameResult) -> bool:
    """Insert ``r`` on the caller's transaction; False when the match has one already."""
    status = await conn.execute(
        "INSERT INTO game_results (match_id, guild_id, channel_id, game, expansions,"
        " finished_at, rated) VALUES ($1, $2, $3, $4, $5, $6, $7)"
        " ON CONFLICT (match_id) DO NOTHING",
        r.match_id,
        r.guild_id,
        r.channel_id,
        r.game,
        json.dumps(list(r.expansions)),
        float(r.finished_at or time.time()),
        PENDING if r.rated else UNRATED,
    )
    if count(status) != 1:
        return False
    await conn.executemany(
        "INSERT INTO game_result_seats (match_id, seat, user_id, name, score, rank, left_game)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [(r.match_id, s.seat, s.user_id, s.name, s.score, s.rank, int(s.left)) for s in r.seats],
    )
    return True


class PgRatings:
    """The ``game_results``, ``game_result_seats``, ``ratings`` and ``rating_changes`` tables."""

    def __init__(self, db: Connections) -> None:
        self.db = db

    async def apply(self, result: GameResult, rate: Rate) -> bool:
        """Apply a pending result's rating update in one transaction (see
        :meth:`storage.ratings.RatingsRepo.apply`); False when it was not pending."""
        users = [s.user_id for s in result.seats]
        places = [s.rank for s in result.seats]
        async with self.db.transaction() as conn:
            claimed = await conn.execute(
                "UPDATE game_results SET rated = $1 WHERE match_id = $2 AND rated = $3",
                APPLIED,
                result.match_id,
                PENDING,
            )
            if count(claimed) != 1:
                return False
            now = time.time()
            for scope in dict.fromkeys((result.guild_id, GLOBAL)):
                rows = await conn.fetch(
                    "SELECT user_id, mu, sigma FROM ratings"
                    " WHERE scope = $1 AND user_id = ANY($2::bigint[]) FOR UPDATE",
                    scope,
                    users,
                )
                had = {int(r[0]): (float(r[1]), float(r[2])) for r in rows}
                rated = rate([had.get(u) for u in users], places)
                changes = [
                    RatingChange(result.match_id, u, *r) for u, r in zip(users, rated, strict=True)
                ]
                await conn.executemany(
                    _UPSERT_RATING,
                    [(scope, c.user_id, c.mu_after, c.sigma_after, now) for c in changes],
                )
                await conn.executemany(
                    _INSERT_CHANGE,
                    [
                        (c.match_id, scope, c.user_id, c.mu_before, c.sigma_before,
                         c.mu_after, c.sigma_after)
                        for c in changes
                    ],
                )  # fmt: skip
        return True

    async def pending(self) -> list[GameResult]:
        return await self._results(f"{_RESULT} WHERE rated = $1 ORDER BY match_id", (PENDING,))

    async def result(self, match_id: int) -> GameResult | None:
        found = await self._results(f"{_RESULT} WHERE match_id = $1", (match_id,))
        return found[0] if found else None

    async def results(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[GameResult]:
        where: list[str] = ["TRUE"]
        params: list[Any] = []
        for column, value in (("guild_id", guild_id), ("channel_id", channel_id)):
            if value is not None:
                params.append(value)
                where.append(f"{column} = ${len(params)}")
        if user_id is not None:
            params.append(user_id)
            where.append(
                f"match_id IN (SELECT match_id FROM game_result_seats WHERE user_id = ${len(params)})"
            )
        n = len(params)
        sql = f"{_RESULT} WHERE {' AND '.join(where)} ORDER BY match_id DESC LIMIT ${n + 1} OFFSET ${n + 2}"
        return await self._results(sql, (*params, limit, offset))

    async def count(self, *, guild_id: int | None = None, channel_id: int | None = None) -> int:
        if channel_id is not None:
            n = await self.db.fetchval(
                "SELECT COUNT(*) FROM game_results WHERE channel_id = $1", channel_id
            )
        else:
            n = await self.db.fetchval(
                "SELECT COUNT(*) FROM game_results WHERE guild_id = $1", guild_id
            )
        return int(n or 0)

    async def _results(self, sql: str, params: Sequence[object]) -> list[GameResult]:
        rows = await self.db.fetch(sql, *params)
        if not rows:
            return []
        ids = [int(r[0]) for r in rows]
        seats: dict[int, list[ResultSeat]] = {i: [] for i in ids}
        for s in await self.db.fetch(
            "SELECT match_id, seat, user_id, name, score, rank, left_game FROM game_result_seats"
            " WHERE match_id = ANY($1::bigint[]) ORDER BY match_id, seat",
            ids,
        ):
            seats[int(s[0])].append(
                ResultSeat(int(s[1]), int(s[2]), s[3], int(s[4]), int(s[5]), bool(s[6]))
            )
        return [
            GameResult(
                match_id=int(r[0]), guild_id=int(r[1]), channel_id=int(r[2]), game=r[3],
                expansions=tuple(json.loads(r[4])), seats=tuple(seats[int(r[0])]),
                rated=int(r[6]) != UNRATED, finished_at=float(r[5]),
            )
            for r in rows
        ]  # fmt: skip

    async def rating(self, scope: int, user_id: int) -> RatingRow | None:
        r = await self.db.fetchrow(
            "SELECT scope, user_id, mu, sigma, games FROM ratings WHERE scope = $1 AND user_id = $2",
            scope,
            user_id,
        )
        return None if r is None else RatingRow(int(r[0]), int(r[1]), r[2], r[3], int(r[4]))

    async def top(self, scope: int, *, limit: int, offset: int = 0) -> list[RatingRow]:
        rows = await self.db.fetch(
            "SELECT scope, user_id, mu, sigma, games FROM ratings WHERE scope = $1"
            " ORDER BY mu - 3 * sigma DESC, user_id LIMIT $2 OFFSET $3",
            scope,
            limit,
            offset,
        )
        return [RatingRow(int(r[0]), int(r[1]), r[2], r[3], int(r[4])) for r in rows]

    async def rated_players(self, scope: int) -> int:
        n = await self.db.fetchval("SELECT COUNT(*) FROM ratings WHERE scope = $1", scope)
        return int(n or 0)

    async def changes(self, scope: int, user_id: int, *, limit: int) -> list[RatingChange]:
        rows = await self.db.fetch(
            "SELECT match_id, user_id, mu_before, sigma_before, mu_after, sigma_after"
            " FROM rating_changes WHERE scope = $1 AND user_id = $2"
            " ORDER BY match_id DESC LIMIT $3",
            scope,
            user_id,
            limit,
        )
        return [RatingChange(int(r[0]), int(r[1]), r[2], r[3], r[4], r[5]) for r in rows]

    async def totals(self, user_id: int, guild_id: int) -> tuple[int, int, float]:
        r = await self.db.fetchrow(
            "SELECT COUNT(*),"
            " COALESCE(SUM(CASE WHEN s.rank = 1 AND s.left_game = 0 THEN 1 ELSE 0 END), 0),"
            " COALESCE(AVG(s.score), 0) FROM game_result_seats s"
            " JOIN game_results g ON g.match_id = s.match_id"
            " WHERE s.user_id = $1 AND g.guild_id = $2",
            user_id,
            guild_id,
        )
        return (int(r[0]), int(r[1]), float(r[2])) if r else (0, 0, 0.0)

    async def seconds_per_move(self, user_id: int, guild_id: int) -> float | None:
        v = await self.db.fetchval(
            "SELECT AVG(g.gap) FROM ("
            " SELECT a.match_id, a.seat,"
            "  a.created_at - LAG(a.created_at) OVER (PARTITION BY a.match_id ORDER BY a.seq)"
            "  AS gap FROM actions a JOIN game_results r ON r.match_id = a.match_id"
            "  WHERE r.guild_id = $1) g"
            " JOIN match_seats s ON s.match_id = g.match_id AND s.seat = g.seat"
            " WHERE s.user_id = $2 AND g.gap IS NOT NULL",
            guild_id,
            user_id,
        )
        return None if v is None else float(v)

    async def expansion_counts(self, user_id: int, guild_id: int) -> list[tuple[str, int]]:
        rows = await self.db.fetch(
            "SELECT j.value, COUNT(*) AS n FROM game_results g"
            " JOIN game_result_seats s ON s.match_id = g.match_id,"
            " jsonb_array_elements_text(g.expansions::jsonb) AS j(value)"
            ' WHERE s.user_id = $1 AND g.guild_id = $2 GROUP BY j.value ORDER BY n DESC, j.value COLLATE "C"',
            user_id,
            guild_id,
        )
        return [(str(r[0]), int(r[1])) for r in rows]
