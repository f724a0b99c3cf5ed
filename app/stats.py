"""A player's stats and the history of finished games, read from the stored results.

A collaborator of both services beside :class:`app.ratings.Ratings`; the front ends call it
through ``service.stats``.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.ratings import Ratings, shown
from storage import GLOBAL, GameResult
from storage.port import Store

#: rating changes the trend covers, and last games shown
TREND_GAMES, LAST_GAMES = 5, 5


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """What ``/carcassonne stats`` shows of a player in a guild."""

    user_id: int
    games: int
    wins: int
    mean_score: float
    #: shown rating in the guild and globally (None: not rated yet)
    rating: int | None
    global_rating: int | None
    #: change of the shown rating over the last :data:`TREND_GAMES` rated games
    trend: int
    favourite_expansions: tuple[tuple[str, int], ...]
    last_games: tuple[GameResult, ...]
    #: the mean seconds the player took over a move (None: no move timed)
    seconds_per_move: float | None = None


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """A page of finished games, newest first, and how many there are in all."""

    games: tuple[GameResult, ...]
    total: int
    page: int
    size: int


class Stats:
    """Stats and history (see the module docstring)."""

    def __init__(self, storage: Store, ratings: Ratings) -> None:
        self.repo = storage.ratings
        self.ratings = ratings

    async def player(self, guild_id: int, user_id: int) -> PlayerStats:
        """A player's stats in a guild (zeros for somebody who never finished a game)."""
        await self.ratings.settle()
        games, wins, mean = await self.repo.totals(user_id, guild_id)
        mine = await self.repo.rating(guild_id, user_id)
        world = await self.repo.rating(GLOBAL, user_id)
        changes = await self.repo.changes(guild_id, user_id, limit=TREND_GAMES)
        trend = 0
        if changes:
            oldest, newest = changes[-1], changes[0]
            trend = shown(newest.mu_after, newest.sigma_after) - shown(
                oldest.mu_before, oldest.sigma_before
            )
        return PlayerStats(
            user_id=user_id,
            games=games,
            wins=wins,
            mean_score=mean,
            rating=None if mine is None else shown(mine.mu, mine.sigma),
            global_rating=None if world is None else shown(world.mu, world.sigma),
            trend=trend,
            favourite_expansions=tuple((await self.repo.expansion_counts(user_id, guild_id))[:3]),
            last_games=tuple(
                await self.repo.results(guild_id=guild_id, user_id=user_id, limit=LAST_GAMES)
            ),
            seconds_per_move=await self.repo.seconds_per_move(user_id, guild_id),
        )

    async def history(
        self, guild_id: int, channel_id: int | None = None, *, page: int = 0, size: int = 5
    ) -> HistoryPage:
        """Finished games of a channel (or of the whole guild), newest first."""
        games = await self.repo.results(
            guild_id=guild_id, channel_id=channel_id, limit=size, offset=page * size
        )
        total = await self.repo.count(guild_id=guild_id, channel_id=channel_id)
        return HistoryPage(tuple(games), total, page, size)

    async def result(self, guild_id: int, match_id: int) -> GameResult | None:
        """One finished game of the guild (None: no such game here)."""
        found = await self.repo.result(match_id)
        return found if found is not None and found.guild_id == guild_id else None
