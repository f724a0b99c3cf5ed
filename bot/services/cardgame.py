"""CardMatchService: lobby, moves and private views of the card game (RULES.md §17).

The card-game twin of :class:`bot.services.matches.MatchService`, on the same storage: a match
is a ``matches`` row with ``game = 'cardgame'`` (so the one-open-match-per-channel rule is shared
with the tile game), its setup and seed, and the append-only action log. Every load replays the
log (cached by ``(match_id, version)``), so a restart loses nothing. Calls on one match are
serialised by a per-match ``asyncio.Lock`` and each accepted move is one transaction that
compare-and-sets the version (the engine's ``state.version``, which is also the log ``seq``).

Secrecy (ARCHITECTURE.md decision 4): :class:`CardOutcome` carries only the public view and
the table image rendered from it; a seat's hand leaves only through :meth:`private_view` for
that user. The log stores a face-down play with visibility ``seat:N``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from bot.services.cache import GameCache
from bot.services.matches import (
    ERR_ALREADY_JOINED,
    ERR_ALREADY_STARTED,
    ERR_ILLEGAL,
    ERR_LOBBY_FULL,
    ERR_MATCH_EXISTS,
    ERR_NO_MATCH,
    ERR_NOT_HOST,
    ERR_NOT_IN_LOBBY,
    ERR_NOT_SEATED,
    ERR_NOT_YOUR_TURN,
    ERR_STALE,
    ERR_TOO_FEW,
    SeatInfo,
    ServiceError,
)
from engine.cardgame import (
    CardAction,
    CardPublicView,
    CardSeatView,
    CardSetup,
    CardState,
    PlayCard,
    apply,
    public_view,
    replay,
    seat_view,
)
from engine.cardgame.cards import MAX_PLAYERS, MIN_PLAYERS
from engine.cardgame.events import CardEvent
from engine.core.errors import EngineError, NotYourTurnError
from engine.core.rng import Rng
from engine.core.seats import Seat
from storage import AlreadySeated, ChannelBusy, MatchRow, NewAction, SeatRow, StaleVersion, Storage

log = logging.getLogger(__name__)

GAME = "cardgame"
SNAPSHOT_SCHEMA = 1
#: the other game runs in this channel (params: game)
ERR_OTHER_GAME = "other_game"
#: a private choice asked of someone who owes none
ERR_NO_CHOICE = "no_choice"
_MAX_SEED = (1 << 62) - 1
_UNSET: Any = object()


def quiet_sql_logging() -> None:
    """Keep aiosqlite's logger at INFO or above: at DEBUG it logs every statement with its
    parameters, and the action log of a face-down play names the card."""
    sql_log = logging.getLogger("aiosqlite")
    if sql_log.level < logging.INFO:
        sql_log.setLevel(logging.INFO)


class TableRenderer(Protocol):
    """Draws the public view of a card game as PNG bytes (``rendering.cardgame.render_table``).

    It takes a :class:`CardPublicView` only: the channel image cannot show a secret.
    """

    def __call__(self, view: CardPublicView, lang: str = "en") -> bytes: ...


def default_renderer() -> TableRenderer | None:
    try:
        from rendering.cardgame import render_table
    except ImportError:  # pragma: no cover - rendering is installed with the bot
        return None
    return render_table


@dataclass(frozen=True, slots=True)
class CardLobby:
    match_id: int
    channel_id: int
    guild_id: int
    host_id: int
    players_wanted: int
    players: tuple[SeatInfo, ...]  # in join order
    status: str
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class CardOutcome:
    """A card match after a call: the public view only (plus who is who)."""

    match_id: int
    version: int
    view: CardPublicView
    seats: tuple[SeatInfo, ...]
    events: tuple[CardEvent, ...] = ()
    png: bytes | None = None
    finished: bool = False
    guild_id: int = 0
    channel_id: int = 0
    turn_message_id: int | None = None
    #: user ids whose private view (hand, own face-down cards, choices owed) changed
    private_changed: tuple[int, ...] = ()
    #: the seat that acted (``None`` for start / reads)
    actor: Seat | None = None
    #: the match language (its creator's): public messages and DMs use it
    lang: str = "en"

    @property
    def awaiting_users(self) -> tuple[int, ...]:
        return tuple(self.seats[s].user_id for s in sorted(self.view.awaiting))

    def seat_of(self, user_id: int) -> Seat | None:
        for s in self.seats:
            if s.user_id == user_id:
                return Seat(s.seat)
        return None


@dataclass(slots=True)
class _Loaded:
    row: MatchRow
    seats: list[SeatRow]
    state: CardState

    def seat_of(self, user_id: int) -> Seat | None:
        for s in self.seats:
            if s.user_id == user_id and s.seat is not None:
                return Seat(s.seat)
        return None


def _private_key(state: CardState, seat: Seat) -> tuple[Any, ...]:
    """What a seat's private message shows; when it changes, the hand is sent again."""
    sv = seat_view(state, seat)
    owed = tuple(p for p in sv.public.pending if p.seat == seat)
    return (sv.hand, sv.face_down, sv.next_card_face_down, owed, state.round)


@dataclass
class CardMatchService:
    """See the module docstring. One per process, next to the tile-game MatchService."""

    storage: Storage
    renderer: TableRenderer | None = _UNSET
    clock: Callable[[], float] = time.time
    #: where new lobbies get their seed (tests fix it)
    seeds: Callable[[], int] = lambda: secrets.randbelow(_MAX_SEED)
    cache_size: int = 64
    _locks: dict[int, asyncio.Lock] = field(default_factory=dict, repr=False)
    _cache: GameCache[CardState] = field(init=False, repr=False)
    _png: OrderedDict[tuple[int, int], bytes] = field(default_factory=OrderedDict, repr=False)
    #: users whose DMs are closed (decision 5); also kept in each match snapshot
    dm_closed: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._cache = GameCache(self.cache_size)
        if self.renderer is _UNSET:
            self.renderer = default_renderer()
        quiet_sql_logging()

    @classmethod
    async def open(cls, path: Path | str, **kwargs: Any) -> CardMatchService:
        return cls(await Storage.open(path), **kwargs)

    async def close(self) -> None:
        await self.storage.close()

    # ------------------------------------------------------------------ lobby
    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        players: int = 2,
        *,
        lang: str = "en",
        seed: int | None = None,
    ) -> CardLobby:
        """Open a card-game lobby with the host seated.

        Raises:
            ServiceError: ERR_MATCH_EXISTS (any game already open here), ERR_ILLEGAL.
        """
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            reason = f"The card game needs {MIN_PLAYERS}–{MAX_PLAYERS} players."
            raise ServiceError(ERR_ILLEGAL, reason, reason=reason)
        if seed is None:
            seed = self.seeds()
        try:
            async with self.storage.db.transaction() as tx:
                match_id = await self.storage.matches.create(
                    tx,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    options={"players": players, "lang": lang},
                    seed=seed,
                    game=GAME,
                )
                await self.storage.matches.add_seat(tx, match_id, host_id, host_name)
        except ChannelBusy:
            row = await self.storage.matches.open_in_channel(channel_id)
            game = row.game if row is not None else GAME
            raise ServiceError(
                ERR_MATCH_EXISTS, "A match is already open in this channel.", game=game
            ) from None
        return await self._lobby(match_id)

    async def join(self, channel_id: int, user_id: int, name: str) -> CardLobby:
        """Raises ServiceError: ERR_NO_MATCH, ERR_NOT_IN_LOBBY, ERR_ALREADY_JOINED, ERR_LOBBY_FULL."""
        row = await self._open_row(channel_id)
        async with self._lock(row.id):
            row = await self._reread(row.id)
            if row.status != "lobby":
                raise ServiceError(ERR_ALREADY_STARTED, "The match has already started.")
            seats = await self.storage.matches.seats(row.id)
            wanted = int(row.options.get("players", 2))
            if any(s.user_id == user_id for s in seats):
                raise ServiceError(ERR_ALREADY_JOINED, "You have already joined this match.")
            if len(seats) >= wanted:
                raise ServiceError(ERR_LOBBY_FULL, "This match is full.", players=wanted)
            try:
                async with self.storage.db.transaction() as tx:
                    await self.storage.matches.add_seat(tx, row.id, user_id, name)
            except AlreadySeated:
                raise ServiceError(ERR_ALREADY_JOINED, "You have already joined.") from None
            return await self._lobby(row.id)

    async def leave(self, channel_id: int, user_id: int) -> CardLobby:
        """Leave a lobby (the next player becomes host; the last one out closes it)."""
        row = await self._open_row(channel_id)
        async with self._lock(row.id):
            row = await self._reread(row.id)
            if row.status != "lobby":
                raise ServiceError(ERR_ALREADY_STARTED, "The match has already started.")
            seats = await self.storage.matches.seats(row.id)
            if not any(s.user_id == user_id for s in seats):
                raise ServiceError(ERR_NOT_IN_LOBBY, "You are not in this lobby.")
            rest = [s for s in seats if s.user_id != user_id]
            async with self.storage.db.transaction() as tx:
                await self.storage.matches.remove_seat(tx, row.id, user_id)
                if not rest:
                    await self.storage.matches.set_status(tx, row.id, "abandoned")
                elif row.host_id == user_id:
                    await self.storage.matches.set_host(tx, row.id, rest[0].user_id)
            return await self._lobby(row.id)

    async def lobby(self, channel_id: int) -> CardLobby:
        row = await self._open_row(channel_id)
        return await self._lobby(row.id)

    async def set_lobby_message(self, match_id: int, message_id: int) -> None:
        async with self.storage.db.transaction() as tx:
            await self.storage.matches.set_lobby_message(tx, match_id, message_id)

    async def set_turn_message(self, match_id: int, version: int, message_id: int) -> None:
        async with self.storage.db.transaction() as tx:
            await self.storage.matches.set_turn_message(tx, match_id, version, message_id)

    async def start(self, channel_id: int, user_id: int) -> CardOutcome:
        """Deal: seats in a seed-shuffled order, the setup cards laid, the first hands dealt.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_TOO_FEW.
        """
        row = await self._open_row(channel_id)
        async with self._lock(row.id):
            row = await self._reread(row.id)
            if row.status != "lobby":
                raise ServiceError(ERR_ALREADY_STARTED, "The match has already started.")
            if row.host_id != user_id:
                raise ServiceError(ERR_NOT_HOST, "Only the host can start.", host_id=row.host_id)
            seats = await self.storage.matches.seats(row.id)
            if len(seats) < MIN_PLAYERS:
                raise ServiceError(ERR_TOO_FEW, "Not enough players.", minimum=MIN_PLAYERS)
            order = Rng(row.seed ^ 0x5EA75EA7).shuffled(list(seats))
            setup = CardSetup(players=len(order), names=tuple(s.name for s in order))
            try:
                state = replay(setup, row.seed, ())
            except EngineError as e:
                raise ServiceError(ERR_ILLEGAL, str(e), reason=str(e)) from None
            async with self.storage.db.transaction() as tx:
                await self.storage.matches.start(
                    tx,
                    row.id,
                    seat_order=[s.user_id for s in order],
                    setup=setup.to_json(),
                    snapshot=self._snapshot(state, [s.user_id for s in order]),
                )
            self._remember(row.id, state)
            loaded = await self._load(row.id)
            users = tuple(s.user_id for s in loaded.seats)
            return await self._outcome(loaded, private_changed=users)

    async def abandon(self, channel_id: int, user_id: int, *, can_manage: bool) -> CardLobby:
        """End the lobby or match without a result (host or channel manager)."""
        row = await self._open_row(channel_id)
        async with self._lock(row.id):
            row = await self._reread(row.id)
            if row.host_id != user_id and not can_manage:
                raise ServiceError(ERR_NOT_HOST, "Only the host may abandon.", host_id=row.host_id)
            async with self.storage.db.transaction() as tx:
                await self.storage.matches.set_status(tx, row.id, "abandoned")
            return await self._lobby(row.id)

    # ------------------------------------------------------------------ play
    async def submit(
        self,
        match_id: int,
        user_id: int,
        action: CardAction,
        expected_version: int | None = None,
    ) -> CardOutcome:
        """Apply ``action`` for the user's seat and store it.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED, ERR_STALE, ERR_NOT_YOUR_TURN,
                ERR_ILLEGAL (params: reason, the engine's player-readable text).
        """
        async with self._lock(match_id):
            loaded = await self._load_active(match_id)
            seat = self._require_seat(loaded, user_id)
            if expected_version is not None and expected_version != loaded.state.version:
                raise ServiceError(ERR_STALE, "This table is out of date.", message_url=None)
            before = loaded.state
            if before.over:
                raise ServiceError(ERR_ILLEGAL, "The game is over.", reason="The game is over.")
            try:
                tr = apply(before, seat, action)
            except NotYourTurnError:
                self._not_your_turn(loaded)
            except EngineError as e:
                raise ServiceError(ERR_ILLEGAL, str(e), reason=str(e)) from None
            after = tr.state
            secret = isinstance(action, PlayCard) and before.played[seat] == 0
            entry = NewAction(
                after.version, seat, action.notation(), f"seat:{seat}" if secret else "public"
            )
            users = [s.user_id for s in loaded.seats]
            try:
                async with self.storage.db.transaction() as tx:
                    await self.storage.matches.advance(
                        tx,
                        match_id,
                        expected_version=before.version,
                        new_version=after.version,
                        snapshot=self._snapshot(after, users),
                        status="finished" if after.over else None,
                    )
                    await self.storage.actions.append(tx, match_id, [entry])
            except StaleVersion:
                self._cache.drop(match_id, before.version)
                raise ServiceError(ERR_STALE, "This table is out of date.") from None
            self._remember(match_id, after)
            changed = tuple(
                loaded.seats[s].user_id
                for s in range(after.players)
                if _private_key(before, Seat(s)) != _private_key(after, Seat(s))
            )
            loaded = await self._load(match_id)
            return await self._outcome(
                loaded, events=tr.events, private_changed=changed, actor=seat
            )

    # ------------------------------------------------------------------ reads
    async def current(self, channel_id: int, *, render: bool = False) -> CardOutcome:
        """The running card match of this channel. Raises ServiceError ERR_NO_MATCH."""
        row = await self._open_row(channel_id)
        if row.status != "active":
            raise ServiceError(ERR_NO_MATCH, "The match has not started yet.", lobby=True)
        return await self.match(row.id, render=render)

    async def match(self, match_id: int, *, render: bool = False) -> CardOutcome:
        """A started card match by id (finished too)."""
        loaded = await self._load(match_id)
        return await self._outcome(loaded, render=render)

    async def match_id_in(self, channel_id: int) -> int:
        return (await self._open_row(channel_id)).id

    async def private_view(self, match_id: int, user_id: int) -> tuple[CardOutcome, CardSeatView]:
        """The user's own view (hand, own face-down cards, legal moves) — for them only.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED.
        """
        loaded = await self._load(match_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise ServiceError(ERR_NOT_SEATED, "You are not playing in this match.")
        outcome = await self._outcome(loaded, render=False)
        return outcome, seat_view(loaded.state, seat, outcome.view)

    async def note_dm_closed(self, user_id: int) -> bool:
        """Remember that ``user_id`` cannot be sent DMs; True the first time (say it once)."""
        if user_id in self.dm_closed:
            return False
        self.dm_closed.add(user_id)
        return True

    async def active_matches(self) -> list[CardOutcome]:
        """Every active card match (restart recovery); unreplayable ones are logged and skipped."""
        out = []
        for row in await self.storage.matches.with_status("active"):
            if row.game != GAME:
                continue
            try:
                out.append(await self.match(row.id, render=True))
            except ServiceError:
                continue
        return out

    # ------------------------------------------------------------------ internals
    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    async def _open_row(self, channel_id: int) -> MatchRow:
        row = await self.storage.matches.open_in_channel(channel_id)
        if row is None:
            raise ServiceError(ERR_NO_MATCH, "No card game is running in this channel.")
        if row.game != GAME:
            raise ServiceError(
                ERR_OTHER_GAME, "A tile game is running in this channel.", game=row.game
            )
        return row

    async def _reread(self, match_id: int) -> MatchRow:
        row = await self.storage.matches.get(match_id)
        if row is None or row.game != GAME:
            raise ServiceError(ERR_NO_MATCH, "No such card game.")
        return row

    async def _load_active(self, match_id: int) -> _Loaded:
        loaded = await self._load(match_id)
        if loaded.row.status != "active":
            raise ServiceError(ERR_NO_MATCH, "This match is not running.")
        return loaded

    async def _load(self, match_id: int) -> _Loaded:
        row = await self._reread(match_id)
        if row.setup is None:
            raise ServiceError(ERR_NO_MATCH, "The match has not started yet.", lobby=True)
        seats = sorted(
            (s for s in await self.storage.matches.seats(match_id) if s.seat is not None),
            key=lambda s: s.seat if s.seat is not None else -1,
        )
        if row.snapshot:
            self.dm_closed.update(int(u) for u in row.snapshot.get("dm_closed", ()))
        state = self._cache.get(match_id, row.version)
        if state is None:
            entries = await self.storage.actions.entries(match_id)
            try:
                setup = CardSetup.from_json(row.setup)
                state = replay(
                    setup,
                    row.seed,
                    ((Seat(e.seat), CardAction.from_notation(e.action)) for e in entries),
                )
            except (EngineError, ValueError, KeyError, TypeError) as e:
                log.error("card match %s no longer replays from its log: %s", match_id, e)
                reason = f"This match can no longer be replayed ({e})."
                raise ServiceError(ERR_ILLEGAL, reason, reason=reason) from e
            self._remember(match_id, state)
        return _Loaded(row, seats, state)

    def _remember(self, match_id: int, state: CardState) -> None:
        self._cache.put(match_id, state.version, state)

    def _require_seat(self, loaded: _Loaded, user_id: int) -> Seat:
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise ServiceError(ERR_NOT_SEATED, "You are not playing in this match.")
        return seat

    def _not_your_turn(self, loaded: _Loaded) -> Any:
        users = [loaded.seats[s].user_id for s in sorted(loaded.state.awaiting)]
        raise ServiceError(
            ERR_NOT_YOUR_TURN,
            "It is not your turn.",
            current_user_id=users[0] if users else 0,
        )

    def _snapshot(self, state: CardState, users: list[int]) -> dict[str, Any]:
        return {
            "schema": SNAPSHOT_SCHEMA,
            "game": GAME,
            "version": state.version,
            "round": state.round,
            "step": state.step,
            "scores": list(state.scores),
            "winners": [int(s) for s in state.winners],
            "names": list(state.setup.names),
            "dm_closed": sorted(u for u in users if u in self.dm_closed),
        }

    async def _lobby(self, match_id: int) -> CardLobby:
        row = await self._reread(match_id)
        seats = await self.storage.matches.seats(match_id)
        return CardLobby(
            match_id=row.id,
            channel_id=row.channel_id,
            guild_id=row.guild_id,
            host_id=row.host_id,
            players_wanted=int(row.options.get("players", 2)),
            players=tuple(
                SeatInfo(s.seat if s.seat is not None else i, s.user_id, s.name)
                for i, s in enumerate(seats)
            ),
            status=row.status,
            message_id=row.lobby_message_id,
        )

    async def _outcome(
        self,
        loaded: _Loaded,
        *,
        events: tuple[CardEvent, ...] = (),
        render: bool = True,
        private_changed: tuple[int, ...] = (),
        actor: Seat | None = None,
    ) -> CardOutcome:
        row, state = loaded.row, loaded.state
        view = public_view(state)
        lang = str(row.options.get("lang", "en"))
        png = await self._render(row.id, view, lang) if render else None
        msg = row.turn_message_id if row.turn_message_version == row.version else None
        return CardOutcome(
            match_id=row.id,
            version=state.version,
            view=view,
            seats=tuple(
                SeatInfo(int(s.seat or 0), s.user_id, s.name, resigned=s.resigned)
                for s in loaded.seats
            ),
            events=events,
            png=png,
            finished=state.over,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            turn_message_id=msg,
            private_changed=private_changed,
            actor=actor,
            lang=lang,
        )

    async def _render(self, match_id: int, view: CardPublicView, lang: str) -> bytes | None:
        renderer = self.renderer
        if renderer is None:
            return None
        key = (match_id, view.version)
        png = self._png.get(key)
        if png is not None:
            return png
        try:
            png = await asyncio.to_thread(renderer, view, lang)
        except Exception:
            log.exception("rendering card table of match %s failed", match_id)
            return None
        self._png[key] = png
        while len(self._png) > self.cache_size:
            self._png.popitem(last=False)
        return png
