"""MatchService: the only place that does load -> apply -> save -> render (ARCHITECTURE.md §5.6).

Both front ends — the Discord cogs and the local console — call this service with primitive ids
(guild, channel, user) and get back plain result objects; they never touch the engine's state or SQL.

INTERFACE CONTRACT (shared by the storage/service and the Discord engineers): keep these names and
signatures; add to them freely, but change them only together.

How a match is kept: its setup and seed plus the append-only action log in SQLite (storage/);
the version is the number of log entries, so it only ever grows (an undo is itself an entry,
see bot/services/replay.py) and a button made for an older version is always stale. Each
accepted call is one transaction that compare-and-sets the version; a snapshot (record, scores,
winners; ``"schema"`` 1) is stored with it so that listing needs no replay.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, Protocol

import aiosqlite

from bot.services.cache import GameCache
from bot.services.replay import RESIGN, UNDO, Game, rebuild, start_game, turn_states
from engine import (
    Action,
    Deploy,
    EngineError,
    GameSetup,
    GameState,
    NotYourTurnError,
    Pass,
    PlaceTile,
    Position,
    PublicView,
    Rotation,
    Seat,
    apply,
    legal_deploys,
    legal_placements,
    public_view,
)
from engine.carcassonne.events import Event
from engine.carcassonne.expansions import find_expansion
from engine.carcassonne.state import (
    FARM_SCORING_VALUES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TINY_CITY_VALUES,
)
from engine.core.rng import Rng
from storage import (
    AlreadySeated,
    ChannelBusy,
    MatchRow,
    NewAction,
    SeatRow,
    StaleVersion,
    Storage,
)
from storage.repositories import OPEN_STATUSES

log = logging.getLogger(__name__)

#: the ``matches.game`` value of tile-game matches; the card game has its own service
GAME = "carcassonne"

#: version of the snapshot JSON stored with each match (``"schema"`` key)
SNAPSHOT_SCHEMA = 1


class ServiceError(Exception):
    """A user-caused problem the front end shows as a friendly ephemeral message.

    ``key`` picks the localised text (bot/i18n.py); ``params`` fill it in; ``str()`` is English.
    """

    def __init__(self, key: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


# keys used with ServiceError (each has an English and a Spanish text in bot/i18n.py)
ERR_MATCH_EXISTS = "match_exists"  # a lobby or match already runs in this channel (params: url?)
ERR_NO_MATCH = "no_match"  # nothing running in this channel
ERR_NOT_SEATED = "not_seated"  # user is not a player of this match
ERR_NOT_YOUR_TURN = "not_your_turn"  # params: current_user_id
ERR_LOBBY_FULL = "lobby_full"
ERR_ALREADY_JOINED = "already_joined"
ERR_NOT_IN_LOBBY = "not_in_lobby"
ERR_NOT_HOST = "not_host"
ERR_TOO_FEW = "too_few_players"
ERR_STALE = "stale"  # params: message_url (link to the current turn message) if known
ERR_ILLEGAL = "illegal"  # params: reason (engine's player-readable text, English)
ERR_NO_UNDO = "no_undo"
ERR_ALREADY_STARTED = "already_started"


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """Lobby options (RULES.md §0.3)."""

    players: int = 2  # seats wanted (2–6); start is allowed with >= 2 joined
    farm_scoring: str = "per_farm"  # or "city_supply_1st_ed"
    tiny_city: int = 2  # or 4
    reminder_minutes: int = 0  # 0 = no turn reminders
    random_seats: bool = True  # shuffle seat order at start (else join order)
    expansions: tuple[str, ...] = ()  # engine expansion ids, e.g. ("inns_cathedrals",)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    user_id: int  # <= 0 for a local random-move seat
    name: str
    resigned: bool = False
    colour: str = ""  # SEAT_COLOURS[seat] once the match started


@dataclass(frozen=True, slots=True)
class LobbyInfo:
    match_id: int
    channel_id: int
    host_id: int
    options: MatchOptions
    players: tuple[SeatInfo, ...]  # joined so far, in join order
    status: str  # "lobby" | "active" | "finished" | "abandoned"
    message_id: int | None = None  # the lobby message, if the front end stored it


@dataclass(frozen=True, slots=True)
class Outcome:
    """What changed after a successful call; the front end turns it into messages."""

    match_id: int
    version: int
    view: PublicView
    seats: tuple[SeatInfo, ...]
    events: tuple[Event, ...] = ()
    png: bytes | None = None  # the board after the change (public view), when it changed
    finished: bool = False
    record_json: str | None = None  # the game record, when finished
    animation: bytes | None = None  # replay GIF, when finished
    turn_message_id: int | None = None  # the current turn message, if stored
    extra: dict[str, Any] = field(default_factory=dict)
    #: legal cells of the drawn tile in numbering order (cell n = n-th key), step "place" only
    placements: dict[Position, tuple[Rotation, ...]] = field(default_factory=dict)
    #: legal figure placements on the tile just placed, step "deploy" only (Pass is also legal)
    deploys: tuple[Deploy, ...] = ()
    #: seats that won, once finished (ties share; after a resignation, the remaining player)
    winners: tuple[int, ...] = ()
    guild_id: int = 0
    channel_id: int = 0

    @property
    def current_user_id(self) -> int:
        return self.seats[self.view.current].user_id


class BoardRenderer(Protocol):
    """Draws the public view as PNG bytes (``rendering.render_board``).

    ``placements``: the legal cells of the drawn tile, numbered 1, 2, ... in the mapping's
    order (the order of :func:`numbered_cells`), so players can pick a cell by number.
    """

    def __call__(
        self,
        view: PublicView,
        *,
        placements: Mapping[Position, tuple[Rotation, ...]] | None = None,
    ) -> bytes: ...


class Animator(Protocol):
    """Draws a replay animation from one view per turn (``rendering.render_animation``)."""

    def __call__(self, views: list[PublicView], *, fmt: str = "gif") -> bytes: ...


def default_renderer() -> BoardRenderer | None:
    """``rendering.render_board`` if the rendering package provides it (imported lazily)."""
    try:
        import rendering
    except ImportError:
        return None
    fn: BoardRenderer | None = getattr(rendering, "render_board", None)
    return fn


def default_animator() -> Animator | None:
    try:
        import rendering
    except ImportError:
        return None
    fn: Animator | None = getattr(rendering, "render_animation", None)
    return fn


def numbered_cells(
    placements: Mapping[Position, tuple[Rotation, ...]],
) -> dict[Position, tuple[Rotation, ...]]:
    """Legal cells in their numbering order (north to south, then west to east): cell number
    ``n`` is the ``n``-th key, 1-based. The image and every picker use this order."""
    return {p: placements[p] for p in sorted(placements, key=lambda p: (p.y, p.x))}


#: colour names by seat, as the renderer draws them (rendering/style.py SEAT_STYLES)
SEAT_COLOURS = ("red", "blue", "yellow", "green", "black", "pink")

_UNSET: Any = object()
_MAX_SEED = (1 << 62) - 1


@dataclass(slots=True)
class _Loaded:
    """A match read from storage and rebuilt: row, seats (by seat number) and the game."""

    row: MatchRow
    seats: list[SeatRow]
    game: Game

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


def _options_to_json(o: MatchOptions) -> dict[str, Any]:
    return {
        "players": o.players,
        "farm_scoring": o.farm_scoring,
        "tiny_city": o.tiny_city,
        "reminder_minutes": o.reminder_minutes,
        "random_seats": o.random_seats,
        "expansions": list(o.expansions),
    }


def _options_from_json(d: dict[str, Any]) -> MatchOptions:
    base = MatchOptions()
    return MatchOptions(
        players=int(d.get("players", base.players)),
        farm_scoring=str(d.get("farm_scoring", base.farm_scoring)),
        tiny_city=int(d.get("tiny_city", base.tiny_city)),
        reminder_minutes=int(d.get("reminder_minutes", base.reminder_minutes)),
        random_seats=bool(d.get("random_seats", base.random_seats)),
        expansions=tuple(str(e) for e in d.get("expansions", base.expansions)),
    )


def validate_options(o: MatchOptions) -> None:
    """Raises:
    ServiceError: ERR_ILLEGAL with the reason, for options no match can be played with.
    """
    problems = []
    if not MIN_PLAYERS <= o.players <= MAX_PLAYERS:
        problems.append(f"players must be {MIN_PLAYERS}–{MAX_PLAYERS}")
    if o.tiny_city not in TINY_CITY_VALUES:
        problems.append("tiny_city must be 2 or 4")
    if o.farm_scoring not in FARM_SCORING_VALUES:
        problems.append(f"farm_scoring must be one of {', '.join(FARM_SCORING_VALUES)}")
    if not 0 <= o.reminder_minutes <= 7 * 24 * 60:
        problems.append("reminder_minutes must be 0–10080")
    if len(set(o.expansions)) != len(o.expansions):
        problems.append("an expansion is listed twice")
    for e in o.expansions:
        try:
            find_expansion(e)
        except EngineError as err:
            problems.append(str(err))
    if problems:
        reason = "; ".join(problems)
        raise ServiceError(ERR_ILLEGAL, f"Invalid options: {reason}.", reason=reason)


def _message_url(guild_id: int, channel_id: int, message_id: int | None) -> str | None:
    if message_id is None:
        return None
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def auto_move(state: GameState) -> Action:
    """The move the service plays for a resigned seat: the first legal cell and rotation in
    numbering order, then no figure."""
    if state.step == "place":
        cells = numbered_cells(legal_placements(state))
        pos, rots = next(iter(cells.items()))
        return PlaceTile(pos, rots[0])
    return Pass()


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A started match as its stored snapshot tells it (no replay needed)."""

    match_id: int
    channel_id: int
    status: str
    version: int
    turn: int
    names: tuple[str, ...]  # in seat order
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # seats, once finished
    updated_at: float


class MatchService:
    """See module docstring. Constructed once per process with a storage backend.

    Every call takes the channel's open match; calls on one match are serialised by a
    per-match ``asyncio.Lock``, and each accepted move is one SQLite transaction that
    compare-and-sets the match version. States are cached by ``(match_id, version)``.

    Resignation: the seat leaves for good. With two seats still playing the match ends and the
    other player wins (status ``finished``, ``Outcome.winners``). With more, the match goes on
    and the service plays the resigned seat's turns itself (first legal cell and rotation, no
    figure; ordinary log entries), so scores and the tile supply stay consistent.
    """

    def __init__(
        self,
        storage: Storage,
        *,
        renderer: BoardRenderer | None = _UNSET,
        animator: Animator | None = _UNSET,
        clock: Callable[[], float] = time.time,
        cache_size: int = 64,
    ) -> None:
        self.storage = storage
        self.renderer: BoardRenderer | None = default_renderer() if renderer is _UNSET else renderer
        self.animator: Animator | None = default_animator() if animator is _UNSET else animator
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: GameCache[Game] = GameCache(cache_size)
        self._cache_size = cache_size
        #: board PNGs by (match_id, version): a version fixes the view, so it fixes the image
        self._png_cache: OrderedDict[tuple[int, int], bytes] = OrderedDict()

    @classmethod
    async def open(cls, path: Path | str, **kwargs: Any) -> MatchService:
        """Open (and migrate) the database at ``path`` and build a service on it."""
        return cls(await Storage.open(path), **kwargs)

    async def close(self) -> None:
        """Close the database (its worker thread would otherwise keep the process alive)."""
        await self.storage.close()

    # ------------------------------------------------------------------ lobby
    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: MatchOptions,
        *,
        seed: int | None = None,
    ) -> LobbyInfo:
        """Open a lobby in a channel with the host as its first player.

        Raises:
            ServiceError: ERR_MATCH_EXISTS (params: url of its message, if known), ERR_ILLEGAL.
        """
        validate_options(options)
        if seed is None:
            seed = secrets.randbelow(_MAX_SEED)
        try:
            async with self.storage.db.transaction() as tx:
                match_id = await self.storage.matches.create(
                    tx,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    options=_options_to_json(options),
                    seed=seed,
                )
                await self.storage.matches.add_seat(tx, match_id, host_id, host_name)
        except ChannelBusy:
            row = await self.storage.matches.open_in_channel(channel_id)
            msg_id = None
            if row is not None:
                msg_id = row.turn_message_id if row.status == "active" else row.lobby_message_id
            url = None if row is None else _message_url(row.guild_id, channel_id, msg_id)
            raise ServiceError(
                ERR_MATCH_EXISTS, "A match is already open in this channel.", url=url
            ) from None
        return await self._lobby_info(match_id)

    async def join(self, channel_id: int, user_id: int, name: str) -> LobbyInfo:
        """Raises:
        ServiceError: ERR_NO_MATCH, ERR_NOT_IN_LOBBY, ERR_ALREADY_JOINED, ERR_LOBBY_FULL.
        """
        row = await self._open_row(channel_id)
        async with self._lock(row.id):
            row = await self._reread(row.id)
            if row.status != "lobby":
                raise ServiceError(ERR_NOT_IN_LOBBY, "The match has already started.")
            seats = await self.storage.matches.seats(row.id)
            if any(s.user_id == user_id for s in seats):
                raise ServiceError(ERR_ALREADY_JOINED, "You have already joined this match.")
            options = _options_from_json(row.options)
            if len(seats) >= options.players:
                raise ServiceError(ERR_LOBBY_FULL, "This match is full.", players=options.players)
            try:
                async with self.storage.db.transaction() as tx:
                    await self.storage.matches.add_seat(tx, row.id, user_id, name)
            except AlreadySeated:
                raise ServiceError(
                    ERR_ALREADY_JOINED, "You have already joined this match."
                ) from None
            return await self._lobby_info(row.id)

    async def leave(self, channel_id: int, user_id: int) -> LobbyInfo:
        """Leave a lobby. When the host leaves, the next player to have joined becomes host;
        when the last player leaves, the lobby is abandoned (status ``abandoned``).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_IN_LOBBY (use resign), ERR_NOT_SEATED.
        """
        row = await self._open_row(channel_id)
        async with self._lock(row.id):
            row = await self._reread(row.id)
            if row.status != "lobby":
                raise ServiceError(
                    ERR_NOT_IN_LOBBY, "The match has started: use resign to leave it."
                )
            seats = await self.storage.matches.seats(row.id)
            if not any(s.user_id == user_id for s in seats):
                raise ServiceError(ERR_NOT_SEATED, "You are not in this lobby.")
            rest = [s for s in seats if s.user_id != user_id]
            async with self.storage.db.transaction() as tx:
                await self.storage.matches.remove_seat(tx, row.id, user_id)
                if not rest:
                    await self.storage.matches.set_status(tx, row.id, "abandoned")
                elif row.host_id == user_id:
                    await self.storage.matches.set_host(tx, row.id, rest[0].user_id)
            return await self._lobby_info(row.id)

    async def lobby(self, channel_id: int) -> LobbyInfo:
        """The lobby (or running match) of this channel. Raises ServiceError ERR_NO_MATCH."""
        row = await self._open_row(channel_id)
        return await self._lobby_info(row.id)

    async def set_lobby_message(self, match_id: int, message_id: int) -> None:
        async with self.storage.db.transaction() as tx:
            await self.storage.matches.set_lobby_message(tx, match_id, message_id)

    async def start(self, channel_id: int, user_id: int) -> Outcome:
        """Start the lobby: seat order (shuffled from the match seed when ``random_seats``),
        colours by seat, first tile drawn, first turn reminder stored.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_TOO_FEW.
        """
        row = await self._open_row(channel_id)
        async with self._lock(row.id):
            row = await self._reread(row.id)
            if row.status != "lobby":
                raise ServiceError(ERR_ALREADY_STARTED, "The match has already started.")
            if row.host_id != user_id:
                raise ServiceError(
                    ERR_NOT_HOST, "Only the host can start the match.", host_id=row.host_id
                )
            seats = await self.storage.matches.seats(row.id)
            if len(seats) < MIN_PLAYERS:
                raise ServiceError(
                    ERR_TOO_FEW,
                    f"At least {MIN_PLAYERS} players are needed to start.",
                    minimum=MIN_PLAYERS,
                )
            options = _options_from_json(row.options)
            order = list(seats)
            if options.random_seats:
                order = Rng(row.seed ^ 0x5EA75EA7).shuffled(order)
            setup = GameSetup(
                players=len(order),
                tiny_city=options.tiny_city,
                farm_scoring=options.farm_scoring,
                expansions=options.expansions,
                names=tuple(s.name for s in order),
                # TEMPORARY until the generic decision presenter lands (issue 9 phase 2)
                options=(("tb.builder_bonus", "auto"),),
            )
            try:
                game = start_game(setup, row.seed)
            except EngineError as e:
                raise ServiceError(ERR_ILLEGAL, str(e), reason=str(e)) from None
            names = [s.name for s in order]
            async with self.storage.db.transaction() as tx:
                await self.storage.matches.start(
                    tx,
                    row.id,
                    seat_order=[s.user_id for s in order],
                    setup=setup.to_json(),
                    snapshot=self._snapshot(game, names),
                )
                await self._schedule_reminder(tx, row, game, [s.user_id for s in order])
            self._remember(row.id, game)
            loaded = await self._load(row.id)
            return await self._outcome(loaded, render=True)

    # ------------------------------------------------------------------ play
    async def submit(
        self,
        channel_id: int,
        user_id: int,
        actions: list[Action],
        expected_version: int | None = None,
    ) -> Outcome:
        """Apply one or more actions atomically (e.g. place + deploy from one slash command):
        all are applied and stored in one transaction, or none (ServiceError ERR_ILLEGAL).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED, ERR_STALE (params: message_url),
                ERR_NOT_YOUR_TURN (params: current_user_id), ERR_ILLEGAL (params: reason).
        """
        if not actions:
            raise ServiceError(ERR_ILLEGAL, "No action given.", reason="No action given.")
        row = await self._active_row(channel_id)
        async with self._lock(row.id):
            loaded = await self._load(row.id)
            seat = self._require_seat(loaded, user_id)
            self._require_version(loaded, expected_version)
            game = loaded.game.copy()
            if game.state.over:
                raise ServiceError(ERR_ILLEGAL, "The game is over.", reason="The game is over.")
            if seat != game.state.current:
                self._not_your_turn(loaded)
            before = game.version
            events: list[Event] = []
            entries: list[NewAction] = []
            for action in actions:
                try:
                    events.extend(game.play(seat, action))
                except NotYourTurnError:
                    self._not_your_turn(loaded)
                except EngineError as e:
                    raise ServiceError(ERR_ILLEGAL, str(e), reason=str(e)) from None
                entries.append(NewAction(game.version, seat, action.notation()))
            events.extend(self._autoplay(game, entries))
            loaded = await self._commit(loaded, game, entries, before)
            return await self._outcome(loaded, events=tuple(events), render=True)

    async def undo(self, channel_id: int, user_id: int) -> Outcome:
        """Take back your own placement while you are still in the deploy step.

        Placing a tile reveals nothing (the next tile is drawn only after the deploy step), so
        the placement can be taken back until you deploy or pass; then it is final.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED, ERR_NO_UNDO.
        """
        row = await self._active_row(channel_id)
        async with self._lock(row.id):
            loaded = await self._load(row.id)
            seat = self._require_seat(loaded, user_id)
            game = loaded.game.copy()
            st = game.state
            last = game.moves[-1] if game.moves else None
            if (
                st.step != "deploy"
                or st.current != seat
                or last is None
                or last.seat != seat
                or not isinstance(last.action, PlaceTile)
                or game.previous is None
            ):
                raise ServiceError(
                    ERR_NO_UNDO,
                    "You can only take back your own tile placement before you deploy or pass.",
                )
            before = game.version
            game.undo_last()
            entries = [NewAction(game.version, seat, UNDO)]
            loaded = await self._commit(loaded, game, entries, before)
            return await self._outcome(loaded, render=True)

    async def resign(self, channel_id: int, user_id: int) -> Outcome:
        """Leave a running match for good (see the class docstring for what happens next).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED (also when already resigned).
        """
        row = await self._active_row(channel_id)
        async with self._lock(row.id):
            loaded = await self._load(row.id)
            seat = self._require_seat(loaded, user_id)
            game = loaded.game.copy()
            before = game.version
            game.note_resign(seat)
            entries = [NewAction(game.version, seat, RESIGN)]
            events: list[Event] = []
            playing = [
                Seat(s.seat)
                for s in loaded.seats
                if s.seat is not None and Seat(s.seat) not in game.resigned
            ]
            winners: tuple[int, ...] | None = None
            if len(playing) <= 1 and not game.state.over:
                winners = tuple(playing)
            else:
                events.extend(self._autoplay(game, entries))
            loaded = await self._commit(loaded, game, entries, before, resign_winners=winners)
            return await self._outcome(loaded, events=tuple(events), render=True)

    async def abandon(self, channel_id: int, user_id: int, *, can_manage: bool) -> LobbyInfo:
        """End the lobby or match without a result (the host, or a member who can manage the
        channel). Raises ServiceError ERR_NO_MATCH, ERR_NOT_HOST."""
        row = await self._open_row(channel_id)
        async with self._lock(row.id):
            row = await self._reread(row.id)
            if row.status not in OPEN_STATUSES:
                raise ServiceError(ERR_NO_MATCH, "No match is running in this channel.")
            if row.host_id != user_id and not can_manage:
                raise ServiceError(
                    ERR_NOT_HOST,
                    "Only the host or a channel manager can abandon the match.",
                    host_id=row.host_id,
                )
            async with self.storage.db.transaction() as tx:
                await self.storage.matches.set_status(tx, row.id, "abandoned")
                await self.storage.timers.cancel(tx, row.id)
            return await self._lobby_info(row.id)

    async def current(self, channel_id: int, *, render: bool = True) -> Outcome:
        """The match in this channel as it stands (board PNG included when ``render``).

        Raises:
            ServiceError: ERR_NO_MATCH (also while it is still a lobby).
        """
        row = await self._active_row(channel_id)
        loaded = await self._load(row.id)
        return await self._outcome(loaded, render=render)

    async def candidate(self, channel_id: int, place: PlaceTile) -> tuple[Deploy, ...]:
        """Every figure placement legal after ``place`` (Pass is also legal); nothing is stored.

        The real cached state is asked, so expansion figures (large, builder, pig) and their
        conditions are the engine's own. Raises the engine's error if ``place`` is illegal.
        """
        return tuple(legal_deploys(await self._candidate_state(channel_id, place)))

    async def candidate_view(self, channel_id: int, place: PlaceTile) -> PublicView:
        """The public view with the drawn tile placed by ``place`` (for the spots picture)."""
        return public_view(await self._candidate_state(channel_id, place))

    async def _candidate_state(self, channel_id: int, place: PlaceTile) -> GameState:
        row = await self._active_row(channel_id)
        loaded = await self._load(row.id)
        state = loaded.game.state
        return apply(state, state.current, place).state

    async def match(self, match_id: int, *, render: bool = False) -> Outcome:
        """Any started match by id, finished or not (for records and history)."""
        row = await self.storage.matches.get(match_id)
        if row is None or row.setup is None:
            raise ServiceError(ERR_NO_MATCH, "No such match.")
        loaded = await self._load(match_id)
        return await self._outcome(loaded, render=render)

    async def recent_matches(self, channel_id: int, limit: int = 10) -> list[MatchSummary]:
        """The channel's started matches, newest first, read from snapshots (no replay)."""
        out = []
        for row in await self.storage.matches.in_channel(channel_id, limit=limit):
            snap = row.snapshot
            if row.setup is None or snap is None:
                continue
            record = snap.get("record", {})
            out.append(
                MatchSummary(
                    match_id=row.id,
                    channel_id=row.channel_id,
                    status=row.status,
                    version=row.version,
                    turn=int(snap.get("turn", 0)),
                    names=tuple(record.get("names", ())),
                    scores=tuple(snap.get("scores", ())),
                    winners=tuple(snap.get("winners", ())) if row.status == "finished" else (),
                    updated_at=row.updated_at,
                )
            )
        return out

    async def set_turn_message(self, match_id: int, version: int, message_id: int) -> None:
        """Remember the message showing ``version`` (restart recovery and stale-click links)."""
        async with self.storage.db.transaction() as tx:
            await self.storage.matches.set_turn_message(tx, match_id, version, message_id)

    async def active_matches(self) -> list[Outcome]:
        """Every active match, for restart recovery (re-post boards that were not posted).

        ``turn_message_id`` is set when the message for the current version was stored; when
        it is ``None`` the board was not posted and ``png`` holds it (if a renderer is set).
        A match whose log no longer replays is logged and left out.
        """
        out = []
        for row in await self.storage.matches.with_status("active"):
            if row.game != GAME:
                continue  # card-game matches are recovered by their own service
            try:
                loaded = await self._load(row.id)
            except ServiceError:
                continue  # logged by _load; one broken match must not stop the others
            posted = row.turn_message_version == row.version and row.turn_message_id is not None
            out.append(await self._outcome(loaded, render=not posted))
        return out

    async def due_reminders(self, now: float) -> list[tuple[int, int, int]]:
        """(match_id, channel_id, user_id) whose turn reminder is due; marks them sent."""
        async with self.storage.db.transaction() as tx:
            due = await self.storage.timers.claim_due(tx, now)
        return [(t.match_id, channel_id, t.user_id) for t, channel_id in due]

    async def guild_defaults(self, guild_id: int) -> MatchOptions:
        """The guild's default lobby options (the built-in defaults if none were stored)."""
        return _options_from_json(await self.storage.guilds.get(guild_id))

    async def set_guild_defaults(self, guild_id: int, options: MatchOptions) -> None:
        """Raises ServiceError ERR_ILLEGAL for invalid options."""
        validate_options(options)
        async with self.storage.db.transaction() as tx:
            await self.storage.guilds.put(tx, guild_id, _options_to_json(options))

    # ------------------------------------------------------------------ internals
    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    async def _open_row(self, channel_id: int) -> MatchRow:
        row = await self.storage.matches.open_in_channel(channel_id)
        if row is None or row.game != GAME:
            # a card game owns this channel: tile commands must never touch its log
            raise ServiceError(
                ERR_NO_MATCH, "No Carcassonne tile match is running in this channel."
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
        if row is None or row.game != GAME:
            raise ServiceError(
                ERR_NO_MATCH, "No Carcassonne tile match is running in this channel."
            )
        return row

    async def _load(self, match_id: int) -> _Loaded:
        row = await self._reread(match_id)
        if row.setup is None:
            raise ServiceError(ERR_NO_MATCH, "The match in this channel has not started yet.")
        seats = [s for s in await self.storage.matches.seats(match_id) if s.seat is not None]
        seats.sort(key=lambda s: s.seat if s.seat is not None else -1)
        game = self._cache.get(match_id, row.version)
        if game is None:
            entries = await self.storage.actions.entries(match_id)
            try:
                setup = GameSetup.from_json(row.setup)
                game = rebuild(setup, row.seed, ((e.seat, e.action) for e in entries))
            except (EngineError, ValueError, TypeError, KeyError) as e:
                log.error("match %s no longer replays from its log: %s", match_id, e)
                reason = f"This match can no longer be replayed ({e}); abandon it to start anew."
                raise ServiceError(ERR_ILLEGAL, reason, reason=reason) from e
            self._remember(match_id, game)
        return _Loaded(row, seats, game)

    def _remember(self, match_id: int, game: Game) -> None:
        self._cache.put(match_id, game.version, game)

    def _require_seat(self, loaded: _Loaded, user_id: int) -> Seat:
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise ServiceError(ERR_NOT_SEATED, "You are not playing in this match.")
        if seat in loaded.game.resigned:
            raise ServiceError(ERR_NOT_SEATED, "You have resigned from this match.")
        return seat

    def _require_version(self, loaded: _Loaded, expected: int | None) -> None:
        if expected is None or expected == loaded.game.version:
            return
        row = loaded.row
        msg_id = row.turn_message_id if row.turn_message_version == row.version else None
        raise ServiceError(
            ERR_STALE,
            "This board is out of date: use the latest one.",
            message_url=_message_url(row.guild_id, row.channel_id, msg_id),
            version=loaded.game.version,
        )

    def _not_your_turn(self, loaded: _Loaded) -> NoReturn:
        current = loaded.user_of(loaded.game.state.current)
        raise ServiceError(ERR_NOT_YOUR_TURN, "It is not your turn.", current_user_id=current)

    def _autoplay(self, game: Game, entries: list[NewAction]) -> list[Event]:
        """Play the turns of resigned seats (see the class docstring)."""
        events: list[Event] = []
        while not game.state.over and game.state.current in game.resigned:
            seat = game.state.current
            action = auto_move(game.state)
            events.extend(game.play(seat, action))
            entries.append(NewAction(game.version, seat, action.notation()))
        return events

    async def _commit(
        self,
        loaded: _Loaded,
        game: Game,
        entries: list[NewAction],
        before: int,
        *,
        resign_winners: tuple[int, ...] | None = None,
    ) -> _Loaded:
        """Store the new log entries and snapshot in one transaction (compare-and-set).

        Raises:
            ServiceError: ERR_STALE when another writer moved the match on meanwhile.
        """
        row = loaded.row
        names = [s.name for s in loaded.seats]
        finished = game.state.over or resign_winners is not None
        status = "finished" if finished else None
        snapshot = self._snapshot(game, names, winners=resign_winners)
        users = [s.user_id for s in loaded.seats]
        try:
            async with self.storage.db.transaction() as tx:
                await self.storage.matches.advance(
                    tx,
                    row.id,
                    expected_version=before,
                    new_version=game.version,
                    snapshot=snapshot,
                    status=status,
                )
                await self.storage.actions.append(tx, row.id, entries)
                for e in entries:
                    if e.action == RESIGN:
                        await self.storage.matches.set_resigned(tx, row.id, e.seat)
                if finished:
                    await self.storage.timers.cancel(tx, row.id)
                elif game.state.current != loaded.game.state.current or any(
                    e.action == RESIGN for e in entries
                ):
                    await self._schedule_reminder(tx, row, game, users)
        except StaleVersion:
            self._cache.drop(row.id, before)
            raise ServiceError(
                ERR_STALE,
                "This board is out of date: use the latest one.",
                message_url=None,
            ) from None
        self._remember(row.id, game)
        return await self._load(row.id)

    async def _schedule_reminder(
        self, tx: aiosqlite.Connection, row: MatchRow, game: Game, users: list[int]
    ) -> None:
        minutes = _options_from_json(row.options).reminder_minutes
        user = users[game.state.current]
        if minutes <= 0 or user <= 0 or game.state.over:
            await self.storage.timers.cancel(tx, row.id)
            return
        await self.storage.timers.replace_turn_reminder(
            tx,
            row.id,
            user_id=user,
            fires_at=self.clock() + 60.0 * minutes,
            version=game.version,
        )

    def _snapshot(
        self, game: Game, names: list[str], *, winners: tuple[int, ...] | None = None
    ) -> dict[str, Any]:
        st = game.state
        if winners is None and st.over:
            best = max(st.scores)
            winners = tuple(i for i, s in enumerate(st.scores) if s == best)
        return {
            "schema": SNAPSHOT_SCHEMA,
            "version": game.version,
            "turn": st.turn,
            "step": st.step,
            "current": int(st.current),
            "tiles_left": st.tiles_left,
            "scores": list(st.scores),
            "winners": list(winners or ()),
            "resigned": sorted(int(s) for s in game.resigned),
            "record": game.record_json(names),
        }

    async def _lobby_info(self, match_id: int) -> LobbyInfo:
        row = await self._reread(match_id)
        seats = await self.storage.matches.seats(match_id)
        return LobbyInfo(
            match_id=row.id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            options=_options_from_json(row.options),
            players=tuple(
                SeatInfo(
                    s.seat if s.seat is not None else i,
                    s.user_id,
                    s.name,
                    resigned=s.resigned,
                    colour=SEAT_COLOURS[s.seat] if s.seat is not None else "",
                )
                for i, s in enumerate(seats)
            ),
            status=row.status,
            message_id=row.lobby_message_id,
        )

    async def _outcome(
        self, loaded: _Loaded, *, events: tuple[Event, ...] = (), render: bool
    ) -> Outcome:
        row, game = loaded.row, loaded.game
        st = game.state
        view = public_view(st)
        seats = tuple(
            SeatInfo(
                int(s.seat or 0),
                s.user_id,
                s.name,
                resigned=s.resigned,
                colour=SEAT_COLOURS[int(s.seat or 0)],
            )
            for s in loaded.seats
        )
        finished = row.status == "finished"
        placements = numbered_cells(legal_placements(st)) if not finished else {}
        deploys = tuple(legal_deploys(st)) if not finished else ()
        png = None
        if render and self.renderer is not None:
            key = (row.id, game.version)
            png = self._png_cache.get(key)
            if png is None:
                png = await self._render(view, placements)
                if png is not None:
                    self._png_cache[key] = png
                    while len(self._png_cache) > self._cache_size:
                        self._png_cache.popitem(last=False)
        record_json = animation = None
        if finished:
            record_json = json.dumps(game.record_json([s.name for s in seats]), indent=1)
            if render and self.animator is not None:
                animation = await self._animate(game)
        snapshot = row.snapshot or {}
        winners = tuple(snapshot.get("winners", ())) if finished else ()
        msg = row.turn_message_id if row.turn_message_version == row.version else None
        return Outcome(
            match_id=row.id,
            version=game.version,
            view=view,
            seats=seats,
            events=events,
            png=png,
            finished=finished,
            record_json=record_json,
            animation=animation,
            turn_message_id=msg,
            placements=placements,
            deploys=deploys,
            winners=winners,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
        )

    async def _render(
        self, view: PublicView, placements: dict[Position, tuple[Rotation, ...]]
    ) -> bytes | None:
        renderer = self.renderer
        assert renderer is not None
        try:
            return await asyncio.to_thread(renderer, view, placements=placements or None)
        except Exception:
            log.exception("rendering the board failed; the move itself is stored")
            return None

    async def _animate(self, game: Game) -> bytes | None:
        animator = self.animator
        assert animator is not None

        def work() -> bytes:
            states = turn_states(game.setup, game.seed, game.moves)
            return animator([public_view(s) for s in states])

        try:
            return await asyncio.to_thread(work)
        except Exception:
            log.exception("rendering the replay animation failed")
            return None
