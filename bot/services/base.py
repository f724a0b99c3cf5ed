"""What both game services share: errors, the lobby, per-match locks, loading and caching.

A match of either game is a ``matches`` row (``game`` names which), its seats, its setup and
seed, and the append-only action log. :class:`GameService` holds everything that does not
depend on the game: opening a lobby (one open match per channel, across both games), joining,
leaving, changing the lobby options (host only), abandoning, starting checks, the per-match
``asyncio.Lock`` that serialises calls, rebuilding a match from its log behind a
:class:`~bot.services.cache.GameCache`, rendering behind a PNG cache, and which users have
their DMs closed (:class:`~bot.services.private.DmRegistry`, stored at once in the database).

A move's reads are one trip to SQLite each (:class:`storage.units.Units`: the match row with its
seats), its JSON columns decoded only when used, and pictures are drawn by a
:class:`~bot.services.painters.Painter` (worker processes in the bot, threads elsewhere).

A game service (tile game: :mod:`bot.services.matches`; card game: :mod:`bot.services.cardgame`)
subclasses it with its options type, its rebuilt-game type and its moves.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from bot.services.cache import GameCache, PictureCache
from bot.services.errors import (
    ERR_ALREADY_JOINED as ERR_ALREADY_JOINED,
)
from bot.services.errors import (
    ERR_ALREADY_STARTED as ERR_ALREADY_STARTED,
)
from bot.services.errors import (
    ERR_ILLEGAL as ERR_ILLEGAL,
)
from bot.services.errors import (
    ERR_LOBBY_FULL as ERR_LOBBY_FULL,
)
from bot.services.errors import (
    ERR_MATCH_EXISTS as ERR_MATCH_EXISTS,
)
from bot.services.errors import (
    ERR_NO_MATCH as ERR_NO_MATCH,
)
from bot.services.errors import (
    ERR_NO_UNDO as ERR_NO_UNDO,
)
from bot.services.errors import (
    ERR_NOT_HOST as ERR_NOT_HOST,
)
from bot.services.errors import (
    ERR_NOT_IN_LOBBY as ERR_NOT_IN_LOBBY,
)
from bot.services.errors import (
    ERR_NOT_SEATED as ERR_NOT_SEATED,
)
from bot.services.errors import (
    ERR_NOT_YOUR_TURN as ERR_NOT_YOUR_TURN,
)
from bot.services.errors import (
    ERR_OTHER_GAME as ERR_OTHER_GAME,
)
from bot.services.errors import (
    ERR_STALE as ERR_STALE,
)
from bot.services.errors import (
    ERR_TOO_FEW as ERR_TOO_FEW,
)
from bot.services.errors import (  # re-exported: callers import them from here
    ServiceError as ServiceError,
)
from bot.services.errors import (
    illegal as illegal,
)
from bot.services.errors import (
    message_url as message_url,
)
from bot.services.guard import ERR_BAD_INPUT as ERR_BAD_INPUT
from bot.services.guard import Guarded, guard_class
from bot.services.painters import Painter
from bot.services.private import DmRegistry
from engine.core.errors import EngineError
from engine.core.messages import Phrase
from engine.core.rng import Rng
from engine.core.seats import Seat
from storage import ActionRow, AlreadySeated, ChannelBusy, MatchRow, SeatRow, Storage
from storage.errors import LobbyClosed, LobbyFull
from storage.repositories import OPEN_STATUSES
from storage.units import Found

log = logging.getLogger(__name__)


#: where new lobbies get their seed when none is given
MAX_SEED = (1 << 62) - 1
#: mixed into the match seed to shuffle the seat order (not the tile order)
SEAT_SALT = 0x5EA75EA7
#: bytes of board pictures kept for asking again (the newest of each match; BENCHMARKS.md)
PICTURE_CACHE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    user_id: int  # <= 0 for a local random-move seat
    name: str
    resigned: bool = False
    colour: str = ""  # the seat's colour name once the match started


class LobbyOptions(Protocol):
    """What the shared lobby needs of a game's options: the seats wanted and a JSON form."""

    @property
    def players(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


Opts = TypeVar("Opts", bound=LobbyOptions)


class Versioned(Protocol):
    """A rebuilt game: its version is the number of log entries it has replayed."""

    @property
    def version(self) -> int: ...


G = TypeVar("G", bound=Versioned)


@dataclass(frozen=True, slots=True)
class LobbyInfo(Generic[Opts]):
    """A lobby (or the match it became): who joined, with which options."""

    match_id: int
    channel_id: int
    host_id: int
    options: Opts
    players: tuple[SeatInfo, ...]  # joined so far, in join order
    status: str  # "lobby" | "active" | "finished" | "abandoned"
    message_id: int | None = None  # the lobby message, if the front end stored it
    guild_id: int = 0


@dataclass(slots=True)
class Loaded(Generic[G]):
    """A match read from storage and rebuilt: row, seats (by seat number) and the game."""

    row: MatchRow
    seats: list[SeatRow]
    game: G

    def seat_of(self, user_id: int) -> Seat | None:
        for s in self.seats:
            if s.user_id == user_id and s.seat is not None:
                return Seat(s.seat)
        return None

    def user_of(self, seat: int) -> int:
        for s in self.seats:
            if s.seat == seat:
                return s.user_id
        raise KeyError(seat)

    def seat_infos(self, colours: Sequence[str] = ()) -> tuple[SeatInfo, ...]:
        out = []
        for s in self.seats:
            n = int(s.seat or 0)
            colour = colours[n % len(colours)] if colours else ""
            out.append(SeatInfo(n, s.user_id, s.name, resigned=s.resigned, colour=colour))
        return tuple(out)


class GameService(Guarded, Generic[Opts, G]):
    """The lobby, locks, loading and caching of one game's matches (see the module docstring).

    Every public coroutine method checks its arguments against its type hints first
    (:mod:`bot.services.guard`): a wrong type or an id beyond 64 bits is answered with
    ServiceError ``bad_input``, never a raw TypeError or OverflowError.

    Subclasses set ``game`` (the ``matches.game`` value), ``min_players`` and ``name`` (for
    messages), and implement :meth:`options_from_json`, :meth:`validate` and :meth:`replay_log`.
    """

    game: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int] = 2
    #: colour names by seat number (empty: no colours)
    colours: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        cache_size: int = 64,
        cache_bytes: int | None = None,
        dm: DmRegistry | None = None,
        painter: Painter | None = None,
    ) -> None:
        """``cache_size`` games (estimated at most ``cache_bytes``, see :meth:`weigh`) and as
        many pictures (at most :data:`PICTURE_CACHE_BYTES`) stay in memory; ``painter`` draws
        them (default: threads of this process)."""
        self.storage = storage
        self.clock = clock
        self.cache_size = cache_size
        self.dm = dm if dm is not None else DmRegistry(storage)
        self.painter = painter if painter is not None else Painter()
        #: one lock per match while a call holds or awaits it: an entry goes with its last
        #: user, so the table never outgrows the matches being played at this moment
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: GameCache[G] = GameCache(cache_size, max_bytes=cache_bytes, weigh=self.weigh)
        #: the newest picture of each match by (match_id, version, ...): a version fixes the
        #: view, so it fixes the image
        self._png = PictureCache(cache_size, PICTURE_CACHE_BYTES)

    @classmethod
    async def open(cls, path: Path | str, **kwargs: Any) -> Self:
        """Open (and migrate) the database at ``path`` and build a service on it."""
        return cls(await Storage.open(path), **kwargs)

    async def close(self) -> None:
        """Close the database (its worker thread would otherwise keep the process alive)."""
        await self.storage.close()

    # ------------------------------------------------------------------ game specifics
    def options_from_json(self, data: dict[str, Any]) -> Opts:
        raise NotImplementedError

    def validate(self, options: Opts) -> None:
        """Raises ServiceError ERR_ILLEGAL for options no match can be played with."""

    def replay_log(self, row: MatchRow, entries: list[ActionRow]) -> G:
        """The game of a started match, replayed from its log (engine errors propagate)."""
        raise NotImplementedError

    def weigh(self, game: G) -> int:
        """About how many bytes ``game`` holds in the cache (measured per game; 0: unknown)."""
        return 0

    async def start(self, channel_id: int, user_id: int) -> Any:
        """The host starts the channel's lobby; returns the game's first outcome."""
        raise NotImplementedError

    # ------------------------------------------------------------------ lobby
    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: Opts,
        *,
        seed: int,
    ) -> LobbyInfo[Opts]:
        """Open a lobby in a channel with the host as its first player.

        Raises:
            ServiceError: ERR_MATCH_EXISTS (params: url of its message if known, game),
                ERR_ILLEGAL.
        """
        self.validate(options)
        try:
            async with self.storage.db.transaction() as tx:
                match_id = await self.storage.matches.create(
                    tx,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    options=options.to_json(),
                    seed=seed,
                    game=self.game,
                )
                await self.storage.matches.add_seat(tx, match_id, host_id, host_name)
        except ChannelBusy:
            row = await self.storage.matches.open_in_channel(channel_id)
            url, game = None, self.game
            if row is not None:
                msg_id = row.turn_message_id if row.status == "active" else row.lobby_message_id
                url, game = message_url(row.guild_id, channel_id, msg_id), row.game
            raise ServiceError(
                ERR_MATCH_EXISTS, "A match is already open in this channel.", url=url, game=game
            ) from None
        return await self._lobby_info(match_id)

    async def join(self, channel_id: int, user_id: int, name: str) -> LobbyInfo[Opts]:
        """Raises:
        ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_ALREADY_JOINED, ERR_LOBBY_FULL.
        """
        async with self._in_lobby(channel_id) as (row, seats):
            if any(s.user_id == user_id for s in seats):
                raise ServiceError(ERR_ALREADY_JOINED, "You have already joined this match.")
            try:
                # the capacity check and the insert are one transaction (two processes, one seat)
                async with self.storage.db.transaction() as tx:
                    await self.storage.matches.join(
                        tx,
                        row.id,
                        user_id,
                        name,
                        capacity=lambda o: self.options_from_json(o).players,
                    )
            except AlreadySeated:
                raise ServiceError(
                    ERR_ALREADY_JOINED, "You have already joined this match."
                ) from None
            except LobbyFull as e:
                raise ServiceError(
                    ERR_LOBBY_FULL, "This match is full.", players=e.capacity
                ) from None
            except LobbyClosed:
                raise ServiceError(ERR_ALREADY_STARTED, "The match has already started.") from None
        return await self._lobby_info(row.id)

    async def leave(self, channel_id: int, user_id: int) -> LobbyInfo[Opts]:
        """Leave a lobby. When the host leaves, the next player to have joined becomes host;
        when the last player leaves, the lobby is abandoned (status ``abandoned``).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED (resign instead), ERR_NOT_IN_LOBBY.
        """
        async with self._in_lobby(channel_id) as (row, seats):
            if not any(s.user_id == user_id for s in seats):
                raise ServiceError(ERR_NOT_IN_LOBBY, "You are not in this lobby.")
            rest = [s for s in seats if s.user_id != user_id]
            async with self.storage.db.transaction() as tx:
                await self.storage.matches.remove_seat(tx, row.id, user_id)
                if not rest:
                    await self.storage.matches.set_status(tx, row.id, "abandoned")
                elif row.host_id == user_id:
                    await self.storage.matches.set_host(tx, row.id, rest[0].user_id)
        return await self._lobby_info(row.id)

    async def change_options(
        self, channel_id: int, user_id: int, change: Callable[[Opts], Opts]
    ) -> LobbyInfo[Opts]:
        """The host changes the lobby's options (``change`` maps the old ones to the new).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_ILLEGAL (the new
                options are invalid, e.g. fewer seats than players joined).
        """
        async with self._in_lobby(channel_id) as (row, seats):
            self._require_host(row, user_id)
            options = change(self.options_from_json(row.options))
            self.validate(options)
            if options.players < len(seats):
                raise illegal(Phrase("svc.joined_already", n=len(seats)))
            async with self.storage.db.transaction() as tx:
                await self.storage.matches.set_options(tx, row.id, options.to_json())
        return await self._lobby_info(row.id)

    async def lobby(self, channel_id: int) -> LobbyInfo[Opts]:
        """The lobby (or running match) of this channel. Raises ServiceError ERR_NO_MATCH."""
        row = await self._open_row(channel_id)
        return await self._lobby_info(row.id)

    async def set_lobby_message(self, match_id: int, message_id: int) -> None:
        async with self.storage.db.transaction() as tx:
            await self.storage.matches.set_lobby_message(tx, match_id, message_id)

    async def set_turn_message(self, match_id: int, version: int, message_id: int) -> None:
        """Remember the message showing ``version`` (restart recovery and stale-click links)."""
        await self.storage.units.set_turn_message(match_id, version, message_id)

    async def abandon(self, channel_id: int, user_id: int, *, can_manage: bool) -> LobbyInfo[Opts]:
        """End the lobby or match without a result (the host, or a member who can manage the
        channel). Raises ServiceError ERR_NO_MATCH, ERR_NOT_HOST."""
        row = await self._open_row(channel_id)
        async with self._lock(row.id):
            row = await self._reread(row.id)
            if row.status not in OPEN_STATUSES:
                raise ServiceError(ERR_NO_MATCH, "No match is running in this channel.")
            if not can_manage:
                self._require_host(row, user_id)
            async with self.storage.db.transaction() as tx:
                await self.storage.matches.set_status(tx, row.id, "abandoned")
                await self.storage.timers.cancel(tx, row.id)
        return await self._lobby_info(row.id)

    @asynccontextmanager
    async def _starting(
        self, channel_id: int, user_id: int
    ) -> AsyncIterator[tuple[MatchRow, list[SeatRow]]]:
        """Hold the match's lock while the host starts it: yields the lobby row and its seats.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_TOO_FEW.
        """
        async with self._in_lobby(channel_id) as (row, seats):
            self._require_host(row, user_id)
            if len(seats) < self.min_players:
                raise ServiceError(
                    ERR_TOO_FEW,
                    f"At least {self.min_players} players are needed to start.",
                    minimum=self.min_players,
                )
            yield row, seats

    @asynccontextmanager
    async def _in_lobby(self, channel_id: int) -> AsyncIterator[tuple[MatchRow, list[SeatRow]]]:
        """The channel's lobby, re-read under its lock (raises ERR_ALREADY_STARTED after start)."""
        row = await self._open_row(channel_id)
        async with self._lock(row.id):
            row = await self._reread(row.id)
            if row.status != "lobby":
                raise ServiceError(ERR_ALREADY_STARTED, "The match has already started.")
            yield row, await self.storage.matches.seats(row.id)

    @staticmethod
    def seat_order(row: MatchRow, seats: Sequence[SeatRow], *, shuffle: bool) -> list[SeatRow]:
        """The seat order at start: shuffled from the match seed, or the join order."""
        order = list(seats)
        return Rng(row.seed ^ SEAT_SALT).shuffled(order) if shuffle else order

    def _require_host(self, row: MatchRow, user_id: int) -> None:
        if row.host_id != user_id:
            raise ServiceError(ERR_NOT_HOST, "Only the host may do that.", host_id=row.host_id)

    async def _lobby_info(self, match_id: int) -> LobbyInfo[Opts]:
        row = await self._reread(match_id)
        seats = await self.storage.matches.seats(match_id)
        colours = self.colours
        return LobbyInfo(
            match_id=row.id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            options=self.options_from_json(row.options),
            players=tuple(
                SeatInfo(
                    s.seat if s.seat is not None else i,
                    s.user_id,
                    s.name,
                    resigned=s.resigned,
                    colour=colours[s.seat % len(colours)] if colours and s.seat is not None else "",
                )
                for i, s in enumerate(seats)
            ),
            status=row.status,
            message_id=row.lobby_message_id,
            guild_id=row.guild_id,
        )

    # ------------------------------------------------------------------ loading
    def _lock(self, match_id: int) -> asyncio.Lock:
        """The match's lock; the caller keeps it alive by holding it (``async with``)."""
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock

    async def _open_row(self, channel_id: int) -> MatchRow:
        """The channel's open match of this game.

        Raises:
            ServiceError: ERR_NO_MATCH, or ERR_OTHER_GAME when the other game owns the channel
                (its commands must never touch this game's log).
        """
        row = await self.storage.matches.open_in_channel(channel_id)
        if row is None:
            raise ServiceError(ERR_NO_MATCH, f"No {self.name} match is running in this channel.")
        if row.game != self.game:
            raise ServiceError(
                ERR_OTHER_GAME, "Another game is running in this channel.", game=row.game
            )
        return row

    async def _active_row(self, channel_id: int) -> MatchRow:
        row = await self._open_row(channel_id)
        if row.status != "active":
            raise ServiceError(
                ERR_NO_MATCH, "The match in this channel has not started yet.", lobby=True
            )
        return row

    async def _reread(self, match_id: int) -> MatchRow:
        row = await self.storage.matches.get(match_id)
        if row is None or row.game != self.game:
            raise ServiceError(ERR_NO_MATCH, f"No such {self.name} match.")
        return row

    async def _active_rows(self) -> list[MatchRow]:
        """Every active match of this game (restart recovery)."""
        return [r for r in await self.storage.matches.with_status("active") if r.game == self.game]

    async def _load(self, match_id: int) -> Loaded[G]:
        """The started match ``match_id``, rebuilt from its log unless cached at its version
        (one trip to the database when cached).

        Raises:
            ServiceError: ERR_NO_MATCH (no such match, or still a lobby), ERR_ILLEGAL (its log
                no longer replays; logged).
        """
        return await self._rebuild(await self.storage.units.match(match_id))

    async def _load_active(self, channel_id: int) -> Loaded[G]:
        """The channel's active match of this game, like :meth:`_load` (one trip when cached).

        Raises:
            ServiceError: ERR_NO_MATCH (also while a lobby), ERR_OTHER_GAME, ERR_ILLEGAL.
        """
        found = await self.storage.units.open_match(channel_id)
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
        return await self._rebuild(found)

    async def _rebuild(self, found: Found | None) -> Loaded[G]:
        """A match read from storage, with its game from the cache or replayed from its log."""
        if found is None or found[0].game != self.game:
            raise ServiceError(ERR_NO_MATCH, f"No such {self.name} match.")
        row, seats = found
        if not row.started:
            raise ServiceError(ERR_NO_MATCH, "The match has not started yet.", lobby=True)
        game = self._cache.get(row.id, row.version)
        if game is None:
            entries = await self.storage.actions.entries(row.id)
            try:
                game = self.replay_log(row, entries)
            except (EngineError, ValueError, TypeError, KeyError) as e:
                log.error("%s match %s no longer replays from its log: %s", self.game, row.id, e)
                raise illegal(Phrase("svc.no_replay", error=str(e))) from e
            self._remember(row.id, game)
        return Loaded(row, seated(seats), game)

    def _remember(self, match_id: int, game: G) -> None:
        self._cache.put(match_id, game.version, game)

    def _require_seat(self, loaded: Loaded[G], user_id: int) -> Seat:
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise ServiceError(ERR_NOT_SEATED, "You are not playing in this match.")
        if any(s.resigned and s.user_id == user_id for s in loaded.seats):
            raise ServiceError(ERR_NOT_SEATED, "You have resigned from this match.")
        return seat

    def _stale(self, row: MatchRow, **params: Any) -> ServiceError:
        """ERR_STALE with a link to the current turn message, when it is known."""
        msg_id = row.turn_message_id if row.turn_message_version == row.version else None
        return ServiceError(
            ERR_STALE,
            "This is out of date: use the latest message.",
            message_url=message_url(row.guild_id, row.channel_id, msg_id),
            **params,
        )

    async def _picture(
        self, key: tuple[Any, ...], draw: Callable[[], bytes], what: str
    ) -> bytes | None:
        """``draw()`` by the painter (a worker process when it pickles), cached by ``key``
        (``(match_id, version, ...)``; the newest picture of each match is kept); a failure is
        logged, not raised (the move itself is stored already)."""
        png = self._png.get(key)
        if png is not None:
            return png
        try:
            png = await self.painter.paint(draw)
        except Exception:
            log.exception("drawing %s failed; the move itself is stored", what)
            return None
        self._png.put(key, png)
        return png

    async def note_dm_closed(self, user_id: int) -> bool:
        """Remember that ``user_id`` cannot be sent DMs; True the first time (say it once)."""
        return await self.dm.note_closed(user_id)

    async def dm_is_closed(self, user_id: int) -> bool:
        return await self.dm.is_closed(user_id)


def seated(seats: Sequence[SeatRow]) -> list[SeatRow]:
    """The seats of a started match by seat number (players who left the lobby have none)."""
    return sorted(
        (s for s in seats if s.seat is not None),
        key=lambda s: s.seat if s.seat is not None else -1,
    )


guard_class(GameService)  # its subclasses are guarded by Guarded.__init_subclass__
