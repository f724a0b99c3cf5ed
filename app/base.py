"""What both game services share, as collaborators: the stored matches (:class:`MatchStore`:
locks, loading, the game cache), the lobby (:class:`Lobbies`), the pictures
(:class:`~app.pictures.Pictures`: the painter, the picture cache, each match's language) and
which users have their DMs closed (:class:`~app.private.DmRegistry`).

:class:`GameService` composes them and is what the front ends call: every public coroutine
checks its arguments first (:mod:`app.guard`). A game service (tile game:
:mod:`app.matches`; card game: :mod:`app.cardgame`) subclasses it with its options type, its
rebuilt-game type and its moves.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, Self

from app.errors import (
    ERR_ALREADY_JOINED as ERR_ALREADY_JOINED,
)
from app.errors import (
    ERR_ALREADY_STARTED as ERR_ALREADY_STARTED,
)
from app.errors import (
    ERR_ILLEGAL as ERR_ILLEGAL,
)
from app.errors import (
    ERR_LOBBY_FULL as ERR_LOBBY_FULL,
)
from app.errors import (
    ERR_MATCH_EXISTS as ERR_MATCH_EXISTS,
)
from app.errors import (
    ERR_NO_MATCH as ERR_NO_MATCH,
)
from app.errors import (
    ERR_NO_UNDO as ERR_NO_UNDO,
)
from app.errors import (
    ERR_NOT_HOST as ERR_NOT_HOST,
)
from app.errors import (
    ERR_NOT_IN_LOBBY as ERR_NOT_IN_LOBBY,
)
from app.errors import (
    ERR_NOT_SEATED as ERR_NOT_SEATED,
)
from app.errors import (
    ERR_NOT_YOUR_TURN as ERR_NOT_YOUR_TURN,
)
from app.errors import (
    ERR_OTHER_GAME as ERR_OTHER_GAME,
)
from app.errors import (
    ERR_STALE as ERR_STALE,
)
from app.errors import (
    ERR_TOO_FEW as ERR_TOO_FEW,
)
from app.errors import (  # re-exported: callers import them from here
    ServiceError as ServiceError,
)
from app.errors import (
    illegal as illegal,
)
from app.errors import (
    message_url as message_url,
)
from app.guard import ERR_BAD_INPUT as ERR_BAD_INPUT
from app.guard import Guarded, guard_class
from app.lobbies import SEAT_SALT as SEAT_SALT
from app.lobbies import Lobbies
from app.painters import Painter
from app.pictures import Pictures
from app.private import DmRegistry
from app.ratings import Ratings
from app.seats import (
    AI,
    AWAY,
    LEVELS,
    STAND_IN_LEVEL,
    AiController,
    Controller,
    Played,
    SeatControllers,
    parse_controller,
)
from app.stats import Stats
from app.store import MatchStore
from app.types import G as G
from app.types import Loaded as Loaded
from app.types import LobbyInfo as LobbyInfo
from app.types import LobbyOptions as LobbyOptions
from app.types import Opts as Opts
from app.types import SeatInfo as SeatInfo
from app.types import Versioned as Versioned
from app.types import seated as seated
from engine.core import messages
from engine.core.decisions import Decision
from engine.core.messages import Phrase
from storage import ActionRow, MatchRow
from storage.backends import open_store
from storage.port import Store

log = logging.getLogger(__name__)


#: where new lobbies get their seed when none is given
MAX_SEED = (1 << 62) - 1
#: bytes of board pictures kept for asking again (the newest of each match; BENCHMARKS.md)
PICTURE_CACHE_BYTES = 16 * 1024 * 1024


#: a seat may be voted out to an AI once it has been silent this long on its move
SILENT_SECONDS = 300


@dataclass(frozen=True, slots=True)
class VoteOut:
    """A vote to hand a silent seat to an AI: the votes so far, how many are needed, and the
    match once handed over (None while more votes are needed)."""

    votes: int
    needed: int
    outcome: Any | None


class GameService(Guarded, Generic[Opts, G]):
    """One game's matches for the front ends (see the module docstring).

    Every public coroutine method checks its arguments against its type hints first
    (:mod:`app.guard`): a wrong type or an id beyond 64 bits is answered with
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
        storage: Store,
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
        self.store: MatchStore[G] = MatchStore(
            storage,
            game=self.game,
            name=self.name,
            replay_log=self.replay_log,
            weigh=self.weigh,
            cache_size=cache_size,
            cache_bytes=cache_bytes,
        )
        self.lobbies: Lobbies[Opts] = Lobbies(
            self.store,
            options_from_json=self.options_from_json,
            validate=self.validate,
            colours=self.colours,
            min_players=self.min_players,
        )
        self.controllers = SeatControllers()
        #: finished games rate their players; stats and history read them
        self.ratings = Ratings(storage)
        self.stats = Stats(storage, self.ratings)
        self.pictures = Pictures(
            painter if painter is not None else Painter(), cache_size, PICTURE_CACHE_BYTES
        )

    @property
    def painter(self) -> Painter:
        """Who draws this service's pictures (the bot swaps in worker processes at start)."""
        return self.pictures.painter

    @painter.setter
    def painter(self, painter: Painter) -> None:
        self.pictures.painter = painter

    @classmethod
    async def open(cls, path: Path | str, *, writer: bool = False, **kwargs: Any) -> Self:
        """Open (and migrate) the database ``path`` names (a SQLite file, or a ``postgresql://``
        URL) and build a service on it. ``writer``: claim a SQLite file's writer lock, as the
        bot does (then the storage keeps what it read until it writes: storage/foundcache.py)."""
        return cls(await open_store(path, writer=writer), **kwargs)

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

    # ------------------------------------------------------------------ lobby (Lobbies)
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
        return await self.lobbies.create(
            guild_id, channel_id, host_id, host_name, options, seed=seed
        )

    async def join(self, channel_id: int, user_id: int, name: str) -> LobbyInfo[Opts]:
        """Raises:
        ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_ALREADY_JOINED, ERR_LOBBY_FULL.
        """
        return await self.lobbies.join(channel_id, user_id, name)

    async def leave(self, channel_id: int, user_id: int) -> LobbyInfo[Opts]:
        """Leave a lobby (the next player becomes host; the last one abandons it).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED (resign instead), ERR_NOT_IN_LOBBY.
        """
        return await self.lobbies.leave(channel_id, user_id)

    async def change_options(
        self, channel_id: int, user_id: int, change: Callable[[Opts], Opts]
    ) -> LobbyInfo[Opts]:
        """The host changes the lobby's options (``change`` maps the old ones to the new).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_ILLEGAL.
        """
        return await self.lobbies.change_options(channel_id, user_id, change)

    async def lobby(self, channel_id: int) -> LobbyInfo[Opts]:
        """The lobby (or running match) of this channel. Raises ServiceError ERR_NO_MATCH."""
        return await self.lobbies.of_channel(channel_id)

    async def set_lobby_message(self, match_id: int, message_id: int) -> None:
        await self.storage.set_lobby_message(match_id, message_id)

    async def set_turn_message(self, match_id: int, version: int, message_id: int) -> None:
        """Remember the message showing ``version`` (restart recovery and stale-click links)."""
        await self.storage.set_turn_message(match_id, version, message_id)

    async def abandon(self, channel_id: int, user_id: int, *, can_manage: bool) -> LobbyInfo[Opts]:
        """End the lobby or match without a result (the host, or a member who can manage the
        channel). Raises ServiceError ERR_NO_MATCH, ERR_NOT_HOST."""
        return await self.lobbies.abandon(channel_id, user_id, can_manage=can_manage)

    # ------------------------------------------------------------------ program seats
    #: the seats programs play (app.seats) that a front end set on this service (the
    #: console's random seats); the others' are stored with their seats
    controllers: SeatControllers
    #: where AI seats think (the bot sets worker processes; None: a thread)
    ai_executor: Executor | None = None

    def _open_decisions(self, game: G) -> tuple[Decision, ...]:
        """The open decisions of a rebuilt game (none once it is over)."""
        raise NotImplementedError

    def _state_of(self, game: G) -> Any:
        """The engine state a program thinks about."""
        raise NotImplementedError

    async def _submit_for(
        self, loaded: Loaded[G], user_id: int, decision: Decision, action: Any
    ) -> Any:
        """Submit ``action`` answering ``decision`` as ``user_id`` (the game's own submit)."""
        raise NotImplementedError

    async def _presented(self, loaded: Loaded[G]) -> Any:
        """The game's outcome of a loaded match, without a picture."""
        raise NotImplementedError

    def controller_of(self, loaded: Loaded[G], user_id: int) -> Controller | None:
        """Who plays ``user_id``'s seat when a program does: one set on this service (the
        console's random seats), else the seat's stored controller (an AI seat, an away
        player's stand-in); None for a person."""
        found = self.controllers.of(loaded.row.id, user_id)
        if found is not None:
            return found
        row = next((s for s in loaded.seats if s.user_id == user_id), None)
        parsed = parse_controller(row.controller if row is not None else None)
        if parsed is None or (row is not None and row.resigned):
            return None
        _, level = parsed
        return AiController(
            level, seed=loaded.row.seed ^ (user_id & 0xFFFF_FFFF), executor=self.ai_executor
        )

    async def add_ai(self, channel_id: int, user_id: int, level: str = "normal") -> LobbyInfo[Opts]:
        """The host adds an AI seat at ``level`` (:data:`app.seats.LEVELS`), named in the
        lobby's language ("AI 1").

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_LOBBY_FULL,
                ERR_ILLEGAL (an unknown level).
        """
        if level not in LEVELS:
            raise illegal(Phrase("svc.ai_level", levels=", ".join(LEVELS)))
        lang = str(getattr((await self.lobby(channel_id)).options, "lang", "") or "en")
        name = messages.text("seat.ai", lang, n="{n}")
        return await self.lobbies.add_program(channel_id, user_id, f"{AI}:{level}", name)

    async def remove_ai(self, channel_id: int, user_id: int) -> LobbyInfo[Opts]:
        """The host takes the last AI seat out of the lobby.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_NOT_IN_LOBBY.
        """
        return await self.lobbies.remove_program(channel_id, user_id)

    async def hand_over(self, channel_id: int, user_id: int) -> Any:
        """The caller is away: an AI stands in for their seat until they take it back
        (:meth:`take_back`); the front end lets it play (:meth:`play_controlled`).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED.
        """
        return await self._set_controller(channel_id, user_id, f"{AWAY}:{STAND_IN_LEVEL}")

    async def take_back(self, channel_id: int, user_id: int) -> Any:
        """The caller plays their own seat again (after :meth:`hand_over`).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED.
        """
        return await self._set_controller(channel_id, user_id, None)

    async def _set_controller(self, channel_id: int, user_id: int, controller: str | None) -> Any:
        row = await self.store.active_row(channel_id)
        async with self.store.lock(row.id):
            loaded = await self.store.load(row.id)
            self.store.require_seat(loaded, user_id)
            await self.storage.set_controller(row.id, user_id, controller)
            loaded = await self.store.load(row.id)
        return await self._presented(loaded)

    async def vote_out(self, channel_id: int, voter_id: int, target_id: int) -> VoteOut:
        """The caller votes to hand ``target_id``'s seat to an AI while they are silent: it must
        be their move, for at least :data:`SILENT_SECONDS`. A majority of the other people
        playing hands it over (until the player comes back); a move of theirs, or of anyone,
        starts the count again (votes are kept per match version, in the database: a restart or
        another process serving the channel keeps the count).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED (the caller), ERR_ILLEGAL (the target
                is not playing, is the caller, is not to move, or has not been silent long).
        """
        row = await self.store.active_row(channel_id)
        async with self.store.lock(row.id):
            loaded = await self.store.load(row.id)
            self.store.require_seat(loaded, voter_id)
            target = next((s for s in loaded.seats if s.user_id == target_id), None)
            if target is None or target.resigned or target.controller is not None:
                raise illegal(Phrase("svc.vote_who"))
            if target_id == voter_id:
                raise illegal(Phrase("svc.vote_self"))
            if not any(d.seat == target.seat for d in self._open_decisions(loaded.game)):
                raise illegal(Phrase("svc.vote_not_turn"))
            if self.clock() < loaded.row.updated_at + SILENT_SECONDS:
                raise illegal(Phrase("svc.vote_soon", minutes=SILENT_SECONDS // 60))
            people = [
                s.user_id
                for s in loaded.seats
                if s.user_id > 0 and s.controller is None and not s.resigned and s is not target
            ]
            needed = len(people) // 2 + 1
            votes = await self.storage.add_vote(row.id, target_id, loaded.row.version, voter_id)
            if votes < needed:
                return VoteOut(votes, needed, None)
            await self.storage.set_controller(row.id, target_id, f"{AWAY}:{STAND_IN_LEVEL}")
            await self.storage.clear_votes(row.id, target_id)
            loaded = await self.store.load(row.id)
        return VoteOut(votes, needed, await self._presented(loaded))

    async def claim_private_sends(
        self, match_id: int, sends: Sequence[tuple[int, str]]
    ) -> set[tuple[int, str]]:
        """Which of the ``(user, decision key)`` pairs a front end is to send by DM now: all of
        them when this process alone serves the database (the front end remembers what it
        sent); else those no process has sent, claimed in the database, so that a secret
        decision goes once whatever process posts the next state."""
        if not self.storage.shared:
            return set(sends)
        return await self.storage.claim_private_sends(match_id, sends)

    async def play_controlled(self, match_id: int, seat: int | None = None) -> Played | None:
        """Answer the first open decision of a seat a program plays (:mod:`app.seats`: a random
        mover, an AI, a stand-in) through :meth:`submit`, as that seat; ``None`` when every
        open decision waits for a person (or the match is over). The program thinks outside
        the match's lock: a person's move meanwhile makes its answer out of date, and it is
        asked again. ``seat`` limits it to that seat's decisions.

        Raises:
            ServiceError: ERR_NO_MATCH.
        """
        for _ in range(3):
            loaded = await self.store.load(match_id)
            decisions = self._open_decisions(loaded.game)
            if loaded.row.status != "active" or not decisions:
                self.controllers.forget(match_id)
                return None
            for d in decisions:
                if seat is not None and d.seat != seat:
                    continue
                user = loaded.user_of(d.seat)
                controller = self.controller_of(loaded, user)
                if controller is None:
                    continue
                key, action = await controller.answer(self._state_of(loaded.game), d.seat, d)
                d = next((o for o in decisions if o.key == key and o.seat == d.seat), d)
                try:
                    out = await self._submit_for(loaded, user, d, action)
                except ServiceError as e:
                    if e.key != ERR_STALE:
                        raise
                    break  # the match moved on while it thought: look again
                return Played(d, action, out)
            else:
                return None
        return None

    # ------------------------------------------------------------------ pictures and DMs
    def note_lang(self, match_id: int, lang: str) -> None:
        """Draw ``match_id``'s next pictures in ``lang`` (``"en"``/``"es"``/``"de"``)."""
        self.pictures.note_lang(match_id, lang)

    def lang_of_match(self, match_id: int, opened_in: str = "") -> str:
        """The language last heard for ``match_id``; else the one it was opened in; else
        English."""
        return self.pictures.lang_of_match(match_id, opened_in)

    async def quiet_players(self) -> frozenset[int]:
        """Who asked not to be pinged on their turn (kept with the DM registry, which both
        games' services share)."""
        return await self.dm.quiet()

    async def set_pings(self, user_id: int, on: bool) -> None:
        """Ping ``user_id`` on their turn (``on``), or leave them out of the pings."""
        await self.dm.set_pings(user_id, on)

    async def note_dm_closed(self, user_id: int) -> bool:
        """Remember that ``user_id`` cannot be sent DMs; True the first time (say it once)."""
        return await self.dm.note_closed(user_id)

    async def dm_is_closed(self, user_id: int) -> bool:
        return await self.dm.is_closed(user_id)


guard_class(GameService)  # its subclasses are guarded by Guarded.__init_subclass__
