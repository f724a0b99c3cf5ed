"""MatchService: the only place that does load -> apply -> save -> render (ARCHITECTURE.md §5.6).

Both front ends — the Discord cogs and the local console — call this service with primitive ids
(guild, channel, user) and get back plain result objects (:mod:`app.results`); they
never touch the engine's state or SQL. The lobby, locks, loading and caching are shared with the
card game (:mod:`app.base`); the options and the expansions a lobby may choose are in
:mod:`app.options`.

INTERFACE CONTRACT (shared by the storage/service and the Discord engineers): keep these names and
signatures; add to them freely, but change them only together.

How a match is kept: its setup and seed plus the append-only action log in SQLite (storage/);
the version is the number of log entries, so it only ever grows (an undo is itself an entry,
see app/replay.py) and a button made for an older version is always stale. Each
accepted call is one transaction that compare-and-sets the version; a snapshot (record, scores,
winners; ``"schema"`` 1) is stored with it so that listing needs no replay.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from app.base import (
    ERR_ALREADY_JOINED,
    ERR_ALREADY_STARTED,
    ERR_ILLEGAL,
    ERR_LOBBY_FULL,
    ERR_MATCH_EXISTS,
    ERR_NO_MATCH,
    ERR_NO_UNDO,
    ERR_NOT_HOST,
    ERR_NOT_IN_LOBBY,
    ERR_NOT_SEATED,
    ERR_NOT_YOUR_TURN,
    ERR_OTHER_GAME,
    ERR_STALE,
    ERR_TOO_FEW,
    MAX_SEED,
    GameService,
    Loaded,
    LobbyInfo,
    SeatInfo,
    ServiceError,
    illegal,
)
from app.clocks import Due, TimedOut, TurnClocks
from app.commits import MoveCommits
from app.decisions import DecisionReads
from app.options import MatchOptions, game_setup, validate_options
from app.outcomes import Outcomes, undo_seat
from app.painters import Painter
from app.private import DmRegistry
from app.replay import RESIGN, UNDO, Game, rebuild, start_game
from app.results import (
    SEAT_COLOURS,
    Animator,
    BoardRenderer,
    MatchSummary,
    Outcome,
    auto_move,
    default_animator,
    default_renderer,
    numbered_cells,
    snapshot_of,
)
from engine import (
    Action,
    EngineError,
    GameSetup,
    NotYourTurnError,
    Seat,
    only_pass,
)
from engine.carcassonne.events import Event
from engine.carcassonne.view import PublicView
from engine.core.decisions import Decision
from engine.core.errors import StaleStateError
from engine.core.messages import Phrase
from storage import ActionRow, MatchRow, NewAction, StaleVersion, snapshot_names
from storage.port import Store

__all__ = [
    "ERR_ALREADY_JOINED",
    "ERR_ALREADY_STARTED",
    "ERR_ILLEGAL",
    "ERR_LOBBY_FULL",
    "ERR_MATCH_EXISTS",
    "ERR_NOT_HOST",
    "ERR_NOT_IN_LOBBY",
    "ERR_NOT_SEATED",
    "ERR_NOT_YOUR_TURN",
    "ERR_NO_MATCH",
    "ERR_NO_UNDO",
    "ERR_OTHER_GAME",
    "ERR_STALE",
    "ERR_TOO_FEW",
    "GAME",
    "SEAT_COLOURS",
    "Animator",
    "BoardRenderer",
    "LobbyInfo",
    "MatchOptions",
    "MatchService",
    "MatchSummary",
    "Outcome",
    "SeatInfo",
    "ServiceError",
    "auto_move",
    "numbered_cells",
    "validate_options",
]

log = logging.getLogger(__name__)

#: the ``matches.game`` value of tile-game matches; the card game has its own service
GAME = "carcassonne"
#: a cached game's bytes, measured with tracemalloc (BENCHMARKS.md "Tables"): about 5 KB, 1.1-1.2
#: KB per move (states, log) and 2-9 KB for its public view; 150-170 KB for a whole base game
GAME_BASE_BYTES = 8_000
GAME_MOVE_BYTES = 1_200

_UNSET: Any = object()


class MatchService(GameService[MatchOptions, Game]):
    """See module docstring. Constructed once per process with a storage backend.

    Every call takes the channel's open match; calls on one match are serialised by a
    per-match ``asyncio.Lock``, and each accepted move is one SQLite transaction that
    compare-and-sets the match version. States are cached by ``(match_id, version)``.

    Resignation: the seat leaves for good. With two seats still playing the match ends and the
    other player wins (status ``finished``, ``Outcome.winners``). With more, the match goes on
    and the service plays the resigned seat's turns itself (first legal cell and rotation, no
    figure; ordinary log entries), so scores and the tile supply stay consistent.
    """

    game = GAME
    name = "Carcassonne tile"
    colours = SEAT_COLOURS

    def __init__(
        self,
        storage: Store,
        *,
        renderer: BoardRenderer | None = _UNSET,
        animator: Animator | None = _UNSET,
        clock: Callable[[], float] = time.time,
        cache_size: int = 64,
        cache_bytes: int | None = None,
        dm: DmRegistry | None = None,
        painter: Painter | None = None,
        animation_painter: Painter | None = None,
    ) -> None:
        """``painter`` draws the boards, ``animation_painter`` the replay animations (default:
        ``painter``); see :class:`~app.base.GameService` for the caches."""
        super().__init__(
            storage,
            clock=clock,
            cache_size=cache_size,
            cache_bytes=cache_bytes,
            dm=dm,
            painter=painter,
        )
        self.outcomes = Outcomes(
            self.store,
            self.pictures,
            renderer=default_renderer() if renderer is _UNSET else renderer,
            animator=default_animator() if animator is _UNSET else animator,
            animation_painter=animation_painter or self.painter,
        )
        self.commits = MoveCommits(self.store, clock, self.ratings)
        self.clocks = TurnClocks(
            self.store,
            submit=lambda match_id, user_id, action, **kw: self._submit(
                match_id, user_id, [action], **kw
            ),
            present=lambda loaded: self.outcomes.outcome(loaded, render=False),
            executor=lambda: self.ai_executor,
        )
        self.reads = DecisionReads(
            self.store, lambda loaded: self.outcomes.outcome(loaded, render=False)
        )

    @property
    def renderer(self) -> BoardRenderer | None:
        return self.outcomes.renderer

    @property
    def animation_painter(self) -> Painter:
        """Who draws the replay animations (the bot swaps in a worker process at start)."""
        return self.outcomes.animation_painter

    @animation_painter.setter
    def animation_painter(self, painter: Painter) -> None:
        self.outcomes.animation_painter = painter

    async def animation(self, match_id: int) -> bytes | None:
        """The replay animation of a started match (see :meth:`Outcomes.animation`), or
        ``None``. Raises ServiceError ERR_NO_MATCH."""
        return await self.outcomes.animation(match_id)

    # ------------------------------------------------------------------ game specifics
    def options_from_json(self, data: dict[str, Any]) -> MatchOptions:
        return MatchOptions.from_json(data)

    def validate(self, options: MatchOptions) -> None:
        validate_options(options)

    def replay_log(self, row: MatchRow, entries: list[ActionRow]) -> Game:
        assert row.setup is not None
        setup = GameSetup.from_json(row.setup)
        return rebuild(setup, row.seed, ((e.seat, e.action) for e in entries))

    def weigh(self, game: Game) -> int:
        return GAME_BASE_BYTES + GAME_MOVE_BYTES * len(game.moves)

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
    ) -> LobbyInfo[MatchOptions]:
        """Open a lobby in a channel with the host as its first player.

        Raises:
            ServiceError: ERR_MATCH_EXISTS (params: url of its message, if known), ERR_ILLEGAL.
        """
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        return await super().create_lobby(
            guild_id, channel_id, host_id, host_name, options, seed=seed
        )

    async def set_expansions(
        self, channel_id: int, user_id: int, expansions: list[str]
    ) -> LobbyInfo[MatchOptions]:
        """The host picks the lobby's expansions (rules of dropped expansions are forgotten).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_ILLEGAL.
        """
        return await self.change_options(
            channel_id, user_id, lambda o: o.with_expansions(expansions)
        )

    async def set_rule(
        self, channel_id: int, user_id: int, key: str, value: Any
    ) -> LobbyInfo[MatchOptions]:
        """The host sets one rule of a chosen expansion (validated against its choices).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_ILLEGAL.
        """
        return await self.change_options(channel_id, user_id, lambda o: o.with_rule(key, value))

    async def start(self, channel_id: int, user_id: int) -> Outcome:
        """Start the lobby: seat order (shuffled from the match seed when ``random_seats``),
        colours by seat, first tile drawn, first turn reminder stored; the lobby's expansions
        and rule values become the game's setup.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_TOO_FEW.
        """
        async with self.lobbies.starting(channel_id, user_id) as (row, seats):
            options = MatchOptions.from_json(row.options)
            order = self.lobbies.seat_order(row, seats, shuffle=options.random_seats)
            names = [s.name for s in order]
            setup = game_setup(options, names)
            try:
                game = start_game(setup, row.seed)
            except EngineError as e:
                raise illegal(e) from None
            try:
                seated_now = [dataclasses.replace(s, seat=i) for i, s in enumerate(order)]
                await self.storage.start_match(
                    row.id,
                    seat_order=[s.user_id for s in order],
                    setup=setup.to_json(),
                    snapshot=snapshot_of(game, names, record=False),
                    compact=True,
                    timers=self.commits.first_timers(row, game, seated_now),
                )
                self.commits.on_timers()
            except StaleVersion:  # a simultaneous start, join or leave won the race
                raise ServiceError(
                    ERR_ALREADY_STARTED, "The match has already started or its players changed."
                ) from None
            self.store.remember(row.id, game)
            loaded = await self.store.load(row.id)
        return await self.outcomes.outcome(loaded, render=True)  # drawn after the lock is released

    async def guild_defaults(self, guild_id: int) -> MatchOptions:
        """The guild's default lobby options (the built-in defaults if none were stored)."""
        return MatchOptions.from_json(await self.storage.guild_defaults(guild_id))

    async def set_guild_defaults(self, guild_id: int, options: MatchOptions) -> None:
        """Raises ServiceError ERR_ILLEGAL for invalid options."""
        validate_options(options)
        await self.storage.put_guild_defaults(guild_id, options.to_json())

    # ------------------------------------------------------------------ play
    async def submit(
        self,
        channel_id: int,
        user_id: int,
        actions: Sequence[Action],
        expected_version: int | None = None,
        *,
        key: str | None = None,
        match_id: int | None = None,
    ) -> Outcome:
        """Apply one or more actions atomically (e.g. place + deploy from one slash command):
        all are applied and stored in one transaction, or none (ServiceError ERR_ILLEGAL).

        ``key`` names the open decision the first action answers (a button's); an answer to a
        decision that has closed is refused as out of date, while another seat's new
        decision leaves it valid. The caller acts only on its own open decisions: several
        seats may have one at once. ``match_id`` names the match when the answer comes from
        a direct message (else the channel's active match).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED, ERR_STALE (params: message_url),
                ERR_NOT_YOUR_TURN (params: current_user_id), ERR_ILLEGAL (params: reason).
        """
        match_id = await self.store.match_of(channel_id, match_id)
        return await self._submit(match_id, user_id, actions, expected_version, key=key)

    async def _submit(
        self,
        match_id: int,
        user_id: int,
        actions: Sequence[Action],
        expected_version: int | None = None,
        *,
        key: str | None = None,
        timed_out: bool | None = False,
    ) -> Outcome:
        """:meth:`submit` on a known match; ``timed_out``: True when a stand-in plays a move
        whose deadline passed (the seat's missed moves count it), None for the rest of that
        move (counted once), False for the player's own move (the count goes back to 0)."""
        if not actions:
            raise illegal(Phrase("svc.no_action"))
        async with self.store.lock(match_id):
            loaded = await self.store.load(match_id)
            seat = self.store.require_seat(loaded, user_id)
            if expected_version is not None and expected_version != loaded.game.version:
                raise self.store.stale(loaded.row, version=loaded.game.version)
            game = loaded.game.copy()
            if game.state.over or loaded.row.status != "active":
                raise illegal(Phrase("svc.game_over"))
            if all(a.seat != seat for a in game.state.asks):
                if key is not None:  # a button of a decision that has closed
                    raise self.store.stale(loaded.row, version=loaded.game.version)
                self._not_your_turn(loaded)
            before = game.version
            events: list[Event] = []
            entries: list[NewAction] = []
            for i, action in enumerate(actions):
                if i:  # what opened meanwhile and offers nothing but passing is passed first
                    events.extend(self._autoplay(game, entries))
                try:
                    events.extend(game.play(seat, action, key=key if i == 0 else None))
                except StaleStateError:
                    raise self.store.stale(loaded.row, version=loaded.game.version) from None
                except NotYourTurnError:
                    self._not_your_turn(loaded)
                except EngineError as e:
                    raise illegal(e) from None
                entries.append(NewAction(game.version, seat, action.notation()))
            events.extend(self._autoplay(game, entries))
            loaded = await self.commits.commit(loaded, game, entries, before, timed_out=timed_out)
        # drawn after the lock is released: the next answer (another seat's sealed bid) is
        # stored while this picture is drawn; the stored match never changes under it
        return await self.outcomes.outcome(loaded, events=tuple(events), render=True)

    async def undo(self, channel_id: int, user_id: int) -> Outcome:
        """Take back your own placement while you are still deciding about that tile.

        Placing a tile reveals nothing (the next tile is drawn only after the deploy step), so
        the placement can be taken back until you answer the next choice (deploy, pass, a
        bridge); then it is final.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED, ERR_NO_UNDO.
        """
        row = await self.store.active_row(channel_id)
        async with self.store.lock(row.id):
            loaded = await self.store.load(row.id)
            seat = self.store.require_seat(loaded, user_id)
            game = loaded.game.copy()
            if undo_seat(game) != seat:
                raise ServiceError(
                    ERR_NO_UNDO,
                    "You can only take back your own tile placement before you deploy or pass.",
                )
            before = game.version
            game.undo_last()
            entries = [NewAction(game.version, seat, UNDO)]
            loaded = await self.commits.commit(loaded, game, entries, before)
        return await self.outcomes.outcome(loaded, render=True)  # drawn after the lock is released

    async def resign(self, channel_id: int, user_id: int) -> Outcome:
        """Leave a running match for good (see the class docstring for what happens next).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED (also when already resigned).
        """
        row = await self.store.active_row(channel_id)
        async with self.store.lock(row.id):
            loaded = await self.store.load(row.id)
            seat = self.store.require_seat(loaded, user_id)
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
            loaded = await self.commits.commit(
                loaded, game, entries, before, resign_winners=winners
            )
        return await self.outcomes.outcome(
            loaded, events=tuple(events), render=True
        )  # lock released

    async def play_timeout(self, match_id: int, user_id: int, version: int) -> TimedOut | None:
        """A move deadline passed: the stand-in plays it (see :meth:`TurnClocks.timeout`).

        Raises:
            ServiceError: ERR_NO_MATCH.
        """
        return await self.clocks.timeout(match_id, user_id, version)

    async def due_timers(self, now: float) -> list[Due]:
        """Every timer due at ``now``, claimed once (see :meth:`TurnClocks.due`)."""
        return await self.clocks.due(now)

    async def next_timer(self) -> float | None:
        """When the next timer fires (None: none is set)."""
        return await self.storage.next_timer_due()

    # ------------------------------------------------------------------ program seats
    def _open_decisions(self, game: Game) -> tuple[Decision, ...]:
        return tuple(game.decisions()) if not game.state.over else ()

    def _state_of(self, game: Game) -> Any:
        return game.state

    async def _submit_for(
        self, loaded: Loaded[Game], user_id: int, decision: Decision, action: Any
    ) -> Outcome:
        return await self.submit(
            loaded.row.channel_id, user_id, [action], key=decision.key, match_id=loaded.row.id
        )

    async def _presented(self, loaded: Loaded[Game]) -> Outcome:
        return await self.outcomes.outcome(loaded, render=False)

    # ------------------------------------------------------------------ reads
    async def decisions_for(
        self, channel_id: int, user_id: int, *, match_id: int | None = None
    ) -> tuple[Outcome, tuple[Decision, ...]]:
        """The caller's open decisions, private ones included, with the match as it stands
        (see :meth:`DecisionReads.decisions_for`).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED.
        """
        return await self.reads.decisions_for(channel_id, user_id, match_id=match_id)

    async def private_decisions(self, match_id: int) -> dict[int, tuple[Decision, ...]]:
        """Every seat's open secret decisions by user id (see
        :meth:`DecisionReads.private_decisions`)."""
        return await self.reads.private_decisions(match_id)

    async def preview(
        self,
        channel_id: int,
        user_id: int,
        action: Action | Sequence[Action],
        *,
        match_id: int | None = None,
    ) -> tuple[tuple[Decision, ...], PublicView] | None:
        """The caller's decisions right after ``action`` (or a sequence of actions) when
        reaching them reveals nothing, else ``None`` (see :meth:`DecisionReads.preview`).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED, ERR_ILLEGAL.
        """
        return await self.reads.preview(channel_id, user_id, action, match_id=match_id)

    async def current(self, channel_id: int, *, render: bool = True) -> Outcome:
        """The match in this channel as it stands (board PNG included when ``render``).

        Raises:
            ServiceError: ERR_NO_MATCH (also while it is still a lobby).
        """
        loaded = await self.store.load_active(channel_id)
        return await self.outcomes.outcome(loaded, render=render)

    async def match(self, match_id: int, *, render: bool = False) -> Outcome:
        """Any started match by id, finished or not (for records and history)."""
        loaded = await self.store.load(match_id)
        return await self.outcomes.outcome(loaded, render=render)

    async def recent_matches(self, channel_id: int, limit: int = 10) -> list[MatchSummary]:
        """The channel's started matches, newest first, read from snapshots (no replay)."""
        out = []
        for row in await self.storage.matches_in_channel(channel_id, limit=limit):
            snap = row.snapshot
            if row.setup is None or snap is None or row.game != GAME:
                continue
            out.append(
                MatchSummary(
                    match_id=row.id,
                    channel_id=row.channel_id,
                    status=row.status,
                    version=row.version,
                    turn=int(snap.get("turn", 0)),
                    names=tuple(snapshot_names(snap)),
                    scores=tuple(snap.get("scores", ())),
                    winners=tuple(snap.get("winners", ())) if row.status == "finished" else (),
                    updated_at=row.updated_at,
                )
            )
        return out

    async def active_matches(self) -> list[Outcome]:
        """Every active match, for restart recovery (re-post boards that were not posted).

        ``turn_message_id`` is set when the message for the current version was stored; when
        it is ``None`` the board was not posted and ``png`` holds it (if a renderer is set).
        A match whose log no longer replays is logged and left out.
        """
        out = []
        for row in await self.store.active_rows():
            try:
                loaded = await self.store.load(row.id)
            except ServiceError:
                continue  # logged by _load; one broken match must not stop the others
            posted = row.turn_message_version == row.version and row.turn_message_id is not None
            out.append(await self.outcomes.outcome(loaded, render=not posted))
        return out

    # ------------------------------------------------------------------ internals
    def _not_your_turn(self, loaded: Loaded[Game]) -> NoReturn:
        asks = loaded.game.state.asks
        seat = asks[0].seat if asks else loaded.game.state.current
        current = loaded.user_of(seat)
        raise ServiceError(ERR_NOT_YOUR_TURN, "It is not your turn.", current_user_id=current)

    def _autoplay(self, game: Game, entries: list[NewAction]) -> list[Event]:
        """Answer every open decision of resigned seats (see the class docstring), and pass
        every open decision that offers nothing but passing (:func:`only_pass`), whoever's:
        like an expansion's step with nothing to offer, it is never asked."""
        events: list[Event] = []
        while not game.state.over:
            waiting = [a.seat for a in game.state.asks if a.seat in game.resigned]
            if waiting:
                seat, key, action = auto_move(game.state, waiting[0])
            else:
                empty = next((d for d in game.decisions() if only_pass(d)), None)
                if empty is None:
                    break
                seat, key, action = empty.seat, empty.key, empty.pass_action
            events.extend(game.play(seat, action, key=key))
            entries.append(NewAction(game.version, seat, action.notation()))
        return events
