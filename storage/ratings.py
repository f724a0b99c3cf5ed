"""The results of finished games, the players' ratings and their history (migration 0005).

A finished game's result is written in the transaction of the move that finished it
(:func:`write_result`, called by :mod:`storage.units` and by the card game's commit); its
rating update is applied later, in one transaction with its ``rated`` flag
(:meth:`RatingsRepo.pending` / :meth:`RatingsRepo.apply`), so a game counts once whatever
restarts in between.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import aiosqlite

from storage.db import Database, Wrote

#: the ``ratings.scope`` of the global ratings (the others are guild ids)
GLOBAL = 0
#: ``game_results.rated``: waiting for its update, applied, never rated (AI seats)
PENDING, APPLIED, UNRATED = 0, 1, 2

#: the rating model, one call per game and scope: from each player's (mu, sigma) (None: no
#: rating yet) and rank (1 the best), each player's (mu, sigma) before and after the game
Rate = Callable[
    [list[tuple[float, float] | None], list[int]], list[tuple[float, float, float, float]]
]


@dataclass(frozen=True, slots=True)
class ResultSeat:
    """One seat of a finished game's final table (``rank`` 1 is the best)."""

    seat: int
    user_id: int
    name: str
    score: int
    rank: int
    left: bool = False


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: where, which game, its expansions and final table."""

    match_id: int
    guild_id: int
    channel_id: int
    game: str
    expansions: tuple[str, ...]
    seats: tuple[ResultSeat, ...]
    rated: bool
    finished_at: float = 0.0


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's rating in a scope (a guild, or :data:`GLOBAL`)."""

    scope: int
    user_id: int
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A player's rating before and after one game."""

    match_id: int
    user_id: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


_INSERT_RESULT = (
    "INSERT INTO game_results (match_id, guild_id, channel_id, game, expansions, finished_at,"
    " rated) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING"
)
_INSERT_SEAT = (
    "INSERT INTO game_result_seats (match_id, seat, user_id, name, score, rank, left_game)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)


_UPSERT_RATING = (
    "INSERT INTO ratings (scope, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, 1, ?)"
    " ON CONFLICT (scope, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
    " games = games + 1, updated_at = excluded.updated_at"
)
_INSERT_CHANGE = (
    "INSERT INTO rating_changes (match_id, scope, user_id, mu_before, sigma_before, mu_after,"
    " sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def _rating_params(scope: int, changes: Sequence[RatingChange]) -> list[tuple[object, ...]]:
    now = time.time()
    return [(scope, c.user_id, c.mu_after, c.sigma_after, now) for c in changes]


def _change_params(scope: int, changes: Sequence[RatingChange]) -> list[tuple[object, ...]]:
    return [
        (c.match_id, scope, c.user_id, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
        for c in changes
    ]


def _result_params(r: GameResult) -> tuple[object, ...]:
    return (
        r.match_id, r.guild_id, r.channel_id, r.game, json.dumps(list(r.expansions)),
        r.finished_at or time.time(), PENDING if r.rated else UNRATED,
    )  # fmt: skip


def _seat_params(r: GameResult) -> list[tuple[object, ...]]:
    return [(r.match_id, s.seat, s.user_id, s.name, s.score, s.rank, int(s.left)) for s in r.seats]


def write_result(conn: sqlite3.Connection, r: GameResult) -> bool:
    """Insert ``r`` (on the caller's transaction); False when the match has one already."""
    if conn.execute(_INSERT_RESULT, _result_params(r)).rowcount != 1:
        return False
    conn.executemany(_INSERT_SEAT, _seat_params(r))
    return True


_RESULT = (
    "SELECT match_id, guild_id, channel_id, game, expansions, finished_at, rated FROM game_results"
)
_SEATS = (
    "SELECT match_id, seat, user_id, name, score, rank, left_game FROM game_result_seats"
    " WHERE match_id IN ({}) ORDER BY match_id, seat"
)


class RatingsRepo:
    """The ``game_results``, ``game_result_seats``, ``ratings`` and ``rating_changes`` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # --------------------------------------------------------------- writes
    async def record(self, tx: aiosqlite.Connection, r: GameResult) -> bool:
        """Store a finished game's result in the caller's transaction (see
        :func:`write_result`); False when it was stored before."""
        cur = await tx.execute(_INSERT_RESULT, _result_params(r))
        if cur.rowcount != 1:
            return False
        await tx.executemany(_INSERT_SEAT, _seat_params(r))
        return True

    async def apply(self, result: GameResult, rate: Rate) -> bool:
        """Apply a pending result's rating update as one whole operation (one transaction):
        mark it applied, read its players' ratings in the guild and globally, ``rate`` them
        and store the new ratings with their changes. False when it was not pending (applied
        already, by this process or another): nothing is written."""
        users = [s.user_id for s in result.seats]
        places = [s.rank for s in result.seats]

        def work(conn: sqlite3.Connection) -> bool:
            claimed = conn.execute(
                "UPDATE game_results SET rated = ? WHERE match_id = ? AND rated = ?",
                (APPLIED, result.match_id, PENDING),
            )
            if claimed.rowcount != 1:
                return False
            marks = ",".join("?" * len(users))
            # a game outside any server (the local table, guild 0) counts once: globally
            for scope in dict.fromkeys((result.guild_id, GLOBAL)):
                rows = conn.execute(
                    f"SELECT user_id, mu, sigma FROM ratings WHERE scope = ? AND user_id IN ({marks})",
                    (scope, *users),
                ).fetchall()
                had = {int(r[0]): (float(r[1]), float(r[2])) for r in rows}
                rated = rate([had.get(u) for u in users], places)
                changes = [
                    RatingChange(result.match_id, u, *r) for u, r in zip(users, rated, strict=True)
                ]
                conn.executemany(_UPSERT_RATING, _rating_params(scope, changes))
                conn.executemany(_INSERT_CHANGE, _change_params(scope, changes))
            return True

        return await self.db.write(work, Wrote(rows=False))  # ratings tables only

    async def save(
        self, tx: aiosqlite.Connection, scope: int, match_id: int, changes: Sequence[RatingChange]
    ) -> None:
        """Store ratings of one game in ``scope`` and their changes as given (an import of
        ratings computed elsewhere; games are rated through :meth:`apply`)."""
        await tx.executemany(_UPSERT_RATING, _rating_params(scope, changes))
        await tx.executemany(_INSERT_CHANGE, _change_params(scope, changes))

    # --------------------------------------------------------------- reads
    async def pending(self) -> list[GameResult]:
        """Results whose rating update is not applied yet, oldest first."""
        return await self._results(f"{_RESULT} WHERE rated = ? ORDER BY match_id", (PENDING,))

    async def result(self, match_id: int) -> GameResult | None:
        found = await self._results(f"{_RESULT} WHERE match_id = ?", (match_id,))
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
        """Finished games, newest first, of a guild, a channel and/or a player."""
        where, params = ["1 = 1"], []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if channel_id is not None:
            where.append("channel_id = ?")
            params.append(channel_id)
        if user_id is not None:
            where.append("match_id IN (SELECT match_id FROM game_result_seats WHERE user_id = ?)")
            params.append(user_id)
        sql = f"{_RESULT} WHERE {' AND '.join(where)} ORDER BY match_id DESC LIMIT ? OFFSET ?"
        return await self._results(sql, (*params, limit, offset))

    async def count(self, *, guild_id: int | None = None, channel_id: int | None = None) -> int:
        """How many finished games a guild (or a channel) has."""
        if channel_id is not None:
            r = await self.db.fetchone(
                "SELECT COUNT(*) FROM game_results WHERE channel_id = ?", (channel_id,)
            )
        else:
            r = await self.db.fetchone(
                "SELECT COUNT(*) FROM game_results WHERE guild_id = ?", (guild_id,)
            )
        return int(r[0]) if r else 0

    async def _results(self, sql: str, params: Sequence[object]) -> list[GameResult]:
        rows = await self.db.fetchall(sql, params)
        if not rows:
            return []
        ids = [int(r[0]) for r in rows]
        seats: dict[int, list[ResultSeat]] = {i: [] for i in ids}
        for s in await self.db.fetchall(_SEATS.format(",".join("?" * len(ids))), ids):
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
        r = await self.db.fetchone(
            "SELECT scope, user_id, mu, sigma, games FROM ratings WHERE scope = ? AND user_id = ?",
            (scope, user_id),
        )
        return None if r is None else RatingRow(int(r[0]), int(r[1]), r[2], r[3], int(r[4]))

    async def top(self, scope: int, *, limit: int, offset: int = 0) -> list[RatingRow]:
        """The best ratings of ``scope`` by ordinal (mu - 3 sigma), best first."""
        rows = await self.db.fetchall(
            "SELECT scope, user_id, mu, sigma, games FROM ratings WHERE scope = ?"
            " ORDER BY mu - 3 * sigma DESC, user_id LIMIT ? OFFSET ?",
            (scope, limit, offset),
        )
        return [RatingRow(int(r[0]), int(r[1]), r[2], r[3], int(r[4])) for r in rows]

    async def rated_players(self, scope: int) -> int:
        r = await self.db.fetchone("SELECT COUNT(*) FROM ratings WHERE scope = ?", (scope,))
        return int(r[0]) if r else 0

    async def changes(self, scope: int, user_id: int, *, limit: int) -> list[RatingChange]:
        """A player's last rating changes in ``scope``, newest first."""
        rows = await self.db.fetchall(
            "SELECT match_id, user_id, mu_before, sigma_before, mu_after, sigma_after"
            " FROM rating_changes WHERE scope = ? AND user_id = ?"
            " ORDER BY match_id DESC LIMIT ?",
            (scope, user_id, limit),
        )
        return [RatingChange(int(r[0]), int(r[1]), r[2], r[3], r[4], r[5]) for r in rows]

    async def totals(self, user_id: int, guild_id: int) -> tuple[int, int, float]:
        """(games, wins, mean score) of a player's finished games in a guild."""
        r = await self.db.fetchone(
            "SELECT COUNT(*), COALESCE(SUM(s.rank = 1 AND NOT s.left_game), 0),"
            " COALESCE(AVG(s.score), 0) FROM game_result_seats s"
            " JOIN game_results g ON g.match_id = s.match_id"
            " WHERE s.user_id = ? AND g.guild_id = ?",
            (user_id, guild_id),
        )
        return (int(r[0]), int(r[1]), float(r[2])) if r else (0, 0, 0.0)

    async def seconds_per_move(self, user_id: int, guild_id: int) -> float | None:
        """The mean time a player took over a move in their finished games in a guild: from
        the move before (anyone's) to theirs, from the action log's times (None: no move)."""
        r = await self.db.fetchone(
            "SELECT AVG(g.gap) FROM ("
            " SELECT a.match_id, a.seat,"
            "  a.created_at - LAG(a.created_at) OVER (PARTITION BY a.match_id ORDER BY a.seq)"
            "  AS gap FROM actions a JOIN game_results r ON r.match_id = a.match_id"
            "  WHERE r.guild_id = ?) g"
            " JOIN match_seats s ON s.match_id = g.match_id AND s.seat = g.seat"
            " WHERE s.user_id = ? AND g.gap IS NOT NULL",
            (guild_id, user_id),
        )
        return None if r is None or r[0] is None else float(r[0])

    async def expansion_counts(self, user_id: int, guild_id: int) -> list[tuple[str, int]]:
        """The expansions of a player's games in a guild, most played first."""
        rows = await self.db.fetchall(
            "SELECT j.value, COUNT(*) AS n FROM game_results g"
            " JOIN game_result_seats s ON s.match_id = g.match_id, json_each(g.expansions) j"
            " WHERE s.user_id = ? AND g.guild_id = ? GROUP BY j.value ORDER BY n DESC, j.value",
            (user_id, guild_id),
        )
        return [(str(r[0]), int(r[1])) for r in rows]
