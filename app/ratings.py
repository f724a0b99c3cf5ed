"""Ratings: the Plackett–Luce model of ``openskill`` over finished games (docs/ratings.md).

A collaborator of both services (:class:`app.base.GameService`). A finished match's result
(:func:`result_of`) is stored in the transaction of its final move; :meth:`Ratings.settle`
then applies every pending result, oldest first, each in one transaction with its ``rated``
flag, so a game counts exactly once even across a restart. One rating per player and guild,
and a global one (scope :data:`storage.GLOBAL`), shared by the tile and the card game.

Rules (docs/decisions.md): a game with an AI seat rates nobody; a player who resigned, or
whose seat an AI plays at the end (``away``), is ranked last (tied with the other leavers).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from app.seats import AI, AWAY, parse_controller
from storage import GameResult, ResultSeat, SeatRow
from storage.port import Store

#: shown rating = BASE + SCALE × ordinal (mu − 3σ): a new player shows 1500
BASE, SCALE = 1500, 20


def shown(mu: float, sigma: float) -> int:
    """The familiar number for a rating (see :data:`BASE`, :data:`SCALE`)."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def ranks(
    scores: Sequence[int], left: Iterable[int] = (), winners: Iterable[int] = ()
) -> list[int]:
    """Rank per seat (1 the best; equal scores tie unless the game's tie-break named
    ``winners`` among them); seats in ``left`` share the last rank."""
    gone, won = set(left), set(winners)
    keys = [(s, i in won) for i, s in enumerate(scores)]
    stayed = [k for i, k in enumerate(keys) if i not in gone]
    last = len(stayed) + 1
    return [last if i in gone else 1 + sum(1 for o in stayed if o > k) for i, k in enumerate(keys)]


def result_of(
    match_id: int,
    guild_id: int,
    channel_id: int,
    game: str,
    seats: Sequence[SeatRow],
    scores: Sequence[int],
    *,
    resigned: Iterable[int] = (),
    expansions: Sequence[str] = (),
    winners: Iterable[int] = (),
    now: float | None = None,
) -> GameResult:
    """The result of a finished match whose ``seats`` are in seat order."""
    controls = [parse_controller(s.controller) for s in seats]
    left = set(resigned) | {
        i for i, s in enumerate(seats) if s.resigned or (controls[i] or ("", ""))[0] == AWAY
    }
    ai = any(
        s.user_id <= 0 or (c is not None and c[0] == AI)
        for s, c in zip(seats, controls, strict=True)
    )
    places = ranks(scores, left, winners)
    return GameResult(
        match_id=match_id,
        guild_id=guild_id,
        channel_id=channel_id,
        game=game,
        expansions=tuple(expansions),
        seats=tuple(
            ResultSeat(i, s.user_id, s.name, int(scores[i]), places[i], i in left)
            for i, s in enumerate(seats)
        ),
        rated=not ai and len(seats) >= 2,
        finished_at=time.time() if now is None else now,
    )


@dataclass(frozen=True, slots=True)
class Standing:
    """A leaderboard line."""

    place: int
    user_id: int
    rating: int
    games: int


class Ratings:
    """Applies finished games to the ratings, and reads them (see the module docstring)."""

    def __init__(self, storage: Store, model: PlackettLuce | None = None) -> None:
        self.storage = storage
        self.repo = storage.ratings
        self.model = model or PlackettLuce()
        self._lock = asyncio.Lock()

    async def settle(self) -> int:
        """Apply every pending result, oldest first; how many were applied now."""
        async with self._lock:
            done = 0
            for result in await self.repo.pending():
                if await self._apply(result):
                    done += 1
            return done

    async def _apply(self, result: GameResult) -> bool:
        return await self.repo.apply(result, self.rate)

    def rate(
        self, now: list[tuple[float, float] | None], places: list[int]
    ) -> list[tuple[float, float, float, float]]:
        """One game in one scope: each player's (mu, sigma) before and after (see
        :data:`storage.ratings.Rate`)."""
        model = self.model
        olds = [model.rating() if r is None else model.rating(*r) for r in now]
        new = model.rate([[r] for r in olds], ranks=[float(p) for p in places])
        return [(o.mu, o.sigma, n[0].mu, n[0].sigma) for o, n in zip(olds, new, strict=True)]

    async def leaderboard(self, guild_id: int, *, page: int = 0, size: int = 10) -> list[Standing]:
        """A page of the guild's best ratings."""
        await self.settle()
        rows = await self.repo.top(guild_id, limit=size, offset=page * size)
        return [
            Standing(page * size + i + 1, r.user_id, shown(r.mu, r.sigma), r.games)
            for i, r in enumerate(rows)
        ]

    async def players(self, guild_id: int) -> int:
        """How many players of the guild have a rating."""
        return await self.repo.rated_players(guild_id)
