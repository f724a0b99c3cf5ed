"""One game's matches as stored games: per-match locks, the rows, and the games rebuilt from
their logs behind a cache.

A collaborator of both game services (:class:`~app.base.GameService`): the lobby, the moves
and the reads all find a match here. A move's reads are one trip to SQLite each
(:meth:`storage.port.Store.load_match`: the match row with its seats), its JSON columns decoded only when
used; a game is replayed from its log only when the cache does not hold it at its version.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, Generic

from app.cache import GameCache
from app.errors import (
    ERR_NO_MATCH,
    ERR_NOT_SEATED,
    ERR_OTHER_GAME,
    ERR_STALE,
    ServiceError,
    illegal,
    message_url,
)
from app.types import G, Loaded, seated
from engine.core.errors import EngineError
from engine.core.messages import Phrase
from engine.core.seats import Seat
from storage import ActionRow, MatchRow
from storage.port import Store
from storage.units import Found

log = logging.getLogger(__name__)

#: rebuilds a started match's game from its row and log (engine errors propagate)
Replayer = Callable[[MatchRow, list[ActionRow]], G]


def on_shards(shard_ids: tuple[int, ...], shard_count: int) -> Callable[[int], bool]:
    """Whether a guild's events reach one of ``shard_ids``: Discord's rule, ``(guild_id >> 22)
    % shard_count``; direct messages and the local table (guild 0) are shard 0's."""
    mine = frozenset(shard_ids)
    return lambda guild_id: (guild_id >> 22) % shard_count in mine


class MatchLock:
    """A match held by this task: first against this process's other tasks (an
    :class:`asyncio.Lock`), then, with a shared database, against the other processes (the
    database's lock, :meth:`storage.port.Store.match_lock`). A move is thus computed and stored
    by one process at a time, as in a single process: two seats playing at once through two
    processes both get their play in, one after the other."""

    def __init__(
        self, local: asyncio.Lock, across: AbstractAsyncContextManager[None] | None
    ) -> None:
        self.local = local
        self.across = across

    async def __aenter__(self) -> None:
        await self.local.acquire()
        if self.across is not None:
            try:
                await self.across.__aenter__()
            except BaseException:
                self.local.release()
                raise

    async def __aexit__(
        self, kind: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            if self.across is not None:
                await self.across.__aexit__(kind, e, tb)
        finally:
            self.local.release()


class MatchStore(Generic[G]):
    """The stored matches of one game (``game`` is its ``matches.game`` value, ``name`` how
    messages call it), rebuilt by ``replay_log`` and cached (``cache_size`` games, at most
    ``cache_bytes`` as ``weigh`` estimates them)."""

    def __init__(
        self,
        storage: Store,
        *,
        game: str,
        name: str,
        replay_log: Replayer[G],
        weigh: Callable[[G], int],
        cache_size: int = 64,
        cache_bytes: int | None = None,
    ) -> None:
        self.storage = storage
        self.game = game
        self.name = name
        self.replay_log = replay_log
        #: one lock per match while a call holds or awaits it: an entry goes with its last
        #: user, so the table never outgrows the matches being played at this moment
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.cache: GameCache[G] = GameCache(cache_size, max_bytes=cache_bytes, weigh=weigh)
        if storage.shared:
            self.across = storage.match_lock

    #: which servers' matches this process recovers at start (None: every one): the guilds
    #: of its Discord shards, when the bot runs as several processes (:func:`on_shards`)
    serves: Callable[[int], bool] | None = None
    #: the database's lock of a match across processes (None: this process is the only one)
    across: Callable[[int], AbstractAsyncContextManager[None]] | None = None

    def lock(self, match_id: int) -> MatchLock:
        """The match's lock; the caller keeps it alive by holding it (``async with``). With a
        database several processes share, it also holds the match against the others."""
        lock = self.locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self.locks[match_id] = lock
        return MatchLock(lock, None if self.across is None else self.across(match_id))

    # ------------------------------------------------------------------ rows
    async def open_row(self, channel_id: int) -> MatchRow:
        """The channel's open match of this game.

        Raises:
            ServiceError: ERR_NO_MATCH, or ERR_OTHER_GAME when the other game owns the channel
                (its commands must never touch this game's log).
        """
        row = await self.storage.open_match(channel_id)
        if row is None:
            raise ServiceError(ERR_NO_MATCH, f"No {self.name} match is running in this channel.")
        if row.game != self.game:
            raise ServiceError(
                ERR_OTHER_GAME, "Another game is running in this channel.", game=row.game
            )
        return row

    async def active_row(self, channel_id: int) -> MatchRow:
        row = await self.open_row(channel_id)
        if row.status != "active":
            raise ServiceError(
                ERR_NO_MATCH, "The match in this channel has not started yet.", lobby=True
            )
        return row

    async def reread(self, match_id: int) -> MatchRow:
        row = await self.storage.match(match_id)
        if row is None or row.game != self.game:
            raise ServiceError(ERR_NO_MATCH, f"No such {self.name} match.")
        return row

    async def active_rows(self) -> list[MatchRow]:
        """Every active match of this game that this process serves (restart recovery: with
        several processes each recovers the matches of its own shards' servers)."""
        return [
            r
            for r in await self.storage.matches_with_status("active")
            if r.game == self.game and (self.serves is None or self.serves(r.guild_id))
        ]

    async def match_of(self, channel_id: int, match_id: int | None) -> int:
        """The match a call is about: ``match_id`` (a DM's button names it), else the
        channel's active match."""
        if match_id is not None:
            return match_id
        return (await self.active_row(channel_id)).id

    # ------------------------------------------------------------------ games
    async def load(self, match_id: int) -> Loaded[G]:
        """The started match ``match_id``, rebuilt from its log unless cached at its version
        (one trip to the database when cached).

        Raises:
            ServiceError: ERR_NO_MATCH (no such match, or still a lobby), ERR_ILLEGAL (its log
                no longer replays; logged).
        """
        return await self.rebuild(await self.storage.load_match(match_id))

    async def load_active(self, channel_id: int) -> Loaded[G]:
        """The channel's active match of this game, like :meth:`load` (one trip when cached).

        Raises:
            ServiceError: ERR_NO_MATCH (also while a lobby), ERR_OTHER_GAME, ERR_ILLEGAL.
        """
        found = await self.storage.load_open_match(channel_id)
        if found is None:
            raise ServiceError(ERR_NO_MATCH, f"No {self.name} match is running in this channel.")
        row = found[0]
        if row.game != self.game:
            raise ServiceError(
                ERR_OTHER_GAME, "Another game is running in this channel.", game=row.game
            )
        if row.status != "active":
            raise ServiceError(
                ERR_NO_MATCH, "The match in this channel has not started yet.", lobby=True
            )
        return await self.rebuild(found)

    async def load_in(self, channel_id: int, match_id: int | None) -> Loaded[G]:
        """The match a read is about, loaded in one trip to the database when cached:
        ``match_id`` (a DM's button names it), else the channel's active match."""
        if match_id is not None:
            return await self.load(match_id)
        return await self.load_active(channel_id)

    async def rebuild(self, found: Found | None) -> Loaded[G]:
        """A match read from storage, with its game from the cache or replayed from its log."""
        if found is None or found[0].game != self.game:
            raise ServiceError(ERR_NO_MATCH, f"No such {self.name} match.")
        row, seats = found
        if not row.started:
            raise ServiceError(ERR_NO_MATCH, "The match has not started yet.", lobby=True)
        game = self.cache.get(row.id, row.version)
        if game is None:
            entries = await self.storage.log_entries(row.id)
            try:
                game = self.replay_log(row, entries)
            except (EngineError, ValueError, TypeError, KeyError) as e:
                log.error("%s match %s no longer replays from its log: %s", self.game, row.id, e)
                raise illegal(Phrase("svc.no_replay", error=str(e))) from e
            self.remember(row.id, game)
        return Loaded(row, seated(seats), game)

    def remember(self, match_id: int, game: G) -> None:
        self.cache.put(match_id, game.version, game)

    # ------------------------------------------------------------------ checks
    @staticmethod
    def require_seat(loaded: Loaded[Any], user_id: int) -> Seat:
        """The caller's seat. Raises ServiceError ERR_NOT_SEATED (also once resigned)."""
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise ServiceError(ERR_NOT_SEATED, "You are not playing in this match.")
        if any(s.resigned and s.user_id == user_id for s in loaded.seats):
            raise ServiceError(ERR_NOT_SEATED, "You have resigned from this match.")
        return seat

    @staticmethod
    def stale(row: MatchRow, **params: Any) -> ServiceError:
        """ERR_STALE with a link to the current turn message, when it is known."""
        msg_id = row.turn_message_id if row.turn_message_version == row.version else None
        return ServiceError(
            ERR_STALE,
            "This is out of date: use the latest message.",
            message_url=message_url(row.guild_id, row.channel_id, msg_id),
            **params,
        )
