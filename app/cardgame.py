"""CardMatchService: lobby, moves and private views of the card game (RULES.md §17).

The card-game twin of :class:`app.matches.MatchService`, on the same storage and the
same skeleton (:class:`app.base.GameService`: lobby, locks, loading, caching, closed
DMs): a match is a ``matches`` row with ``game = 'cardgame'`` (so the one-open-match-per-channel
rule is shared with the tile game), its setup and seed, and the append-only action log. Every
load replays the log (cached by ``(match_id, version)``), so a restart loses nothing. Each
accepted move is one transaction that compare-and-sets the version (the engine's
``state.version``, which is also the log ``seq``).

Secrecy (ARCHITECTURE.md decision 4): :class:`CardOutcome` carries only the public view and
the table image rendered from it; a seat's hand leaves only through :meth:`private_view` for
that user. The log stores a face-down play with visibility ``seat:N``.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, NoReturn, Protocol

from app.base import (
    ERR_NO_MATCH,
    ERR_NOT_SEATED,
    ERR_NOT_YOUR_TURN,
    ERR_STALE,
    MAX_SEED,
    GameService,
    Loaded,
    LobbyInfo,
    SeatInfo,
    ServiceError,
    illegal,
)
from app.clocks import Due, TimedOut, TurnClocks, person_at, seconds_a_move, turn_timers
from app.options import CLOCKS
from app.painters import Painter
from app.private import DmRegistry
from app.ratings import result_of
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
from engine.cardgame.decisions import pending, seat_pending
from engine.cardgame.events import CardEvent
from engine.cardgame.record import CardRecord
from engine.cardgame.rules import answer as answer_decision
from engine.core.decisions import Decision
from engine.core.errors import EngineError, NotYourTurnError, StaleStateError
from engine.core.messages import Phrase
from engine.core.seats import Seat
from storage import (
    ActionRow,
    GameResult,
    MatchRow,
    NewAction,
    Reminder,
    SeatRow,
    StaleVersion,
)
from storage.port import Store
from storage.units import MoveCommit

log = logging.getLogger(__name__)

GAME = "cardgame"
SNAPSHOT_SCHEMA = 1
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
class CardOptions:
    """A card-game lobby's options: the seats wanted and the language of its messages."""

    players: int = 2
    lang: str = "en"
    #: the turn clock (app/clocks.py): ``off``, ``live`` or ``async``, seconds a move (0: the
    #: mode's default), missed moves in a row before the seat goes to the AI
    clock: str = "off"
    clock_seconds: int = 0
    missed_limit: int = 3

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "lang": self.lang}
        if self.clock != "off":
            out.update(clock=self.clock, clock_seconds=self.clock_seconds)
            out["missed_limit"] = self.missed_limit
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CardOptions:
        return cls(
            int(data.get("players", 2)),
            str(data.get("lang", "en")),
            str(data.get("clock") or "off"),
            int(data.get("clock_seconds", 0)),
            int(data.get("missed_limit", 3)),
        )


#: a card-game lobby (``info.options.players`` seats wanted)
CardLobby = LobbyInfo[CardOptions]


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
    #: when the awaited person's move is due (Unix seconds), when the match has a clock
    deadline: float | None = None

    @property
    def awaiting_users(self) -> tuple[int, ...]:
        return tuple(self.seats[s].user_id for s in sorted(self.view.awaiting))

    def seat_of(self, user_id: int) -> Seat | None:
        for s in self.seats:
            if s.user_id == user_id:
                return Seat(s.seat)
        return None


def _private_key(state: CardState, seat: Seat) -> tuple[Any, ...]:
    """What a seat's private message shows; when it changes, the hand is sent again (a new
    private decision too: the DM carries its buttons, and an old DM's key is closed)."""
    sv = seat_view(state, seat)
    owed = tuple(p for p in sv.public.pending if p.seat == seat)
    private = tuple(d.key for d in seat_pending(state, seat) if d.private)
    return (sv.hand, sv.face_down, sv.next_card_face_down, owed, state.round, private)


class CardMatchService(GameService[CardOptions, CardState]):
    """See the module docstring. One per process, next to the tile-game MatchService."""

    game = GAME
    name = "card game"
    min_players = MIN_PLAYERS

    def __init__(
        self,
        storage: Store,
        *,
        renderer: TableRenderer | None = _UNSET,
        clock: Callable[[], float] = time.time,
        seeds: Callable[[], int] | None = None,
        cache_size: int = 64,
        dm: DmRegistry | None = None,
        painter: Painter | None = None,
    ) -> None:
        """``seeds`` gives new lobbies their seed (tests fix it); ``dm`` and ``painter`` are
        shared with the tile-game service when both run in one process."""
        super().__init__(storage, clock=clock, cache_size=cache_size, dm=dm, painter=painter)
        self.renderer: TableRenderer | None = default_renderer() if renderer is _UNSET else renderer
        #: called when a move wrote timers (the front end's scheduler wakes to look again)
        self.on_timers: Callable[[], None] = lambda: None
        self.clocks = TurnClocks(
            self.store,
            submit=self._submit,
            present=lambda loaded: self._outcome(loaded, render=False),
            executor=lambda: self.ai_executor,
            awaited=card_awaited,
            decisions=lambda game: () if game.over else pending(game),
            state_of=lambda game: game,
            missed_limit=lambda row: CardOptions.from_json(row.options).missed_limit,
        )
        self.seeds: Callable[[], int] = seeds or (lambda: secrets.randbelow(MAX_SEED))
        quiet_sql_logging()

    # ------------------------------------------------------------------ game specifics
    def options_from_json(self, data: dict[str, Any]) -> CardOptions:
        return CardOptions.from_json(data)

    def validate(self, options: CardOptions) -> None:
        if not MIN_PLAYERS <= options.players <= MAX_PLAYERS:
            raise illegal(Phrase("svc.card_players", low=MIN_PLAYERS, high=MAX_PLAYERS))
        if options.clock not in CLOCKS or not 1 <= options.missed_limit <= 99:
            raise illegal(Phrase("svc.card_clock", clocks=", ".join(CLOCKS)))

    def replay_log(self, row: MatchRow, entries: list[ActionRow]) -> CardState:
        assert row.setup is not None
        setup = CardSetup.from_json(row.setup)
        return replay(
            setup, row.seed, ((Seat(e.seat), CardAction.from_notation(e.action)) for e in entries)
        )

    # ------------------------------------------------------------------ lobby
    async def create_lobby(  # type: ignore[override]
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        players: int = 2,
        *,
        lang: str = "en",
        seed: int | None = None,
        clock: str = "off",
    ) -> CardLobby:
        """Open a card-game lobby with the host seated.

        Raises:
            ServiceError: ERR_MATCH_EXISTS (any game already open here), ERR_ILLEGAL.
        """
        return await super().create_lobby(
            guild_id,
            channel_id,
            host_id,
            host_name,
            CardOptions(players, lang, clock),
            seed=self.seeds() if seed is None else seed,
        )

    async def start(self, channel_id: int, user_id: int) -> CardOutcome:
        """Deal: seats in a seed-shuffled order, the setup cards laid, the first hands dealt.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_TOO_FEW.
        """
        async with self.lobbies.starting(channel_id, user_id) as (row, seats):
            order = self.lobbies.seat_order(row, seats, shuffle=True)
            setup = CardSetup(players=len(order), names=tuple(s.name for s in order))
            try:
                state = replay(setup, row.seed, ())
            except EngineError as e:
                raise illegal(e) from None
            await self.storage.start_match(
                row.id,
                seat_order=[s.user_id for s in order],
                setup=setup.to_json(),
                snapshot=self._snapshot(state),
            )
            self.store.remember(row.id, state)
            loaded = await self.store.load(row.id)
            timers = turn_timers(
                CardOptions.from_json(row.options),
                card_awaited(state, loaded.seats),
                state.version,
                self.clock,
            )
            if timers:
                await self.storage.replace_timers(row.id, timers)
                self.on_timers()
            users = tuple(s.user_id for s in loaded.seats)
        return await self._outcome(loaded, private_changed=users)  # drawn after the lock

    # ------------------------------------------------------------------ play
    async def submit(
        self,
        match_id: int,
        user_id: int,
        action: CardAction,
        expected_version: int | None = None,
        *,
        key: str | None = None,
    ) -> CardOutcome:
        """Apply ``action`` for the user's seat and store it. With ``key`` (a decision's
        button) the action answers that open decision of the seat: a closed key is refused as
        out of date whatever the version (another seat's move leaves it open).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED, ERR_STALE, ERR_NOT_YOUR_TURN,
                ERR_ILLEGAL (params: reason, the engine's player-readable text).
        """
        return await self._submit(match_id, user_id, action, expected_version, key=key)

    async def _submit(
        self,
        match_id: int,
        user_id: int,
        action: CardAction,
        expected_version: int | None = None,
        *,
        key: str | None = None,
        timed_out: bool | None = False,
    ) -> CardOutcome:
        """:meth:`submit`; ``timed_out``: True when a stand-in plays a move whose deadline
        passed (the seat's missed moves count it), None for the rest of that move, False for
        the player's own move (the count goes back to 0)."""
        async with self.store.lock(match_id):
            loaded = await self.store.load(match_id)
            if loaded.row.status != "active":
                raise ServiceError(ERR_NO_MATCH, "This match is not running.")
            seat = self.store.require_seat(loaded, user_id)
            before = loaded.game
            if expected_version is not None and expected_version != before.version:
                raise self.store.stale(loaded.row)
            if before.over:
                raise illegal(Phrase("svc.game_over"))
            try:
                if key is None:
                    tr = apply(before, seat, action)
                else:
                    tr = answer_decision(before, seat, key, action)
            except StaleStateError:
                raise self.store.stale(loaded.row) from None
            except NotYourTurnError:
                self._not_your_turn(loaded)
            except EngineError as e:
                raise illegal(e) from None
            after = tr.state
            secret = isinstance(action, PlayCard) and before.played[seat] == 0
            entry = NewAction(
                after.version, seat, action.notation(), f"seat:{seat}" if secret else "public"
            )
            try:
                timers = self._turn_timers(loaded, before, after)
                await self.storage.commit_move(
                    MoveCommit(
                        match_id=match_id,
                        expected_version=before.version,
                        new_version=after.version,
                        snapshot=self._snapshot(after),
                        entries=[entry],
                        status="finished" if after.over else None,
                        timers=timers,
                        moved=[seat] if timed_out is False else [],
                        missed=[seat] if timed_out is True else [],
                        # the final table, with the final move
                        result=self._result(loaded, after) if after.over else None,
                    )
                )
            except StaleVersion:
                self.store.cache.drop(match_id, before.version)
                raise ServiceError(ERR_STALE, "This table is out of date.") from None
            self.store.remember(match_id, after)
            if timers:
                self.on_timers()  # the scheduler may have to wake earlier
            if after.over:
                await self.ratings.settle()
            changed = tuple(
                loaded.seats[s].user_id
                for s in range(after.players)
                if _private_key(before, Seat(s)) != _private_key(after, Seat(s))
            )
            loaded = await self.store.load(match_id)
        # drawn after the lock is released: another seat's play is stored meanwhile
        return await self._outcome(loaded, events=tr.events, private_changed=changed, actor=seat)

    # ------------------------------------------------------------------ clocks
    def _turn_timers(
        self, loaded: Loaded[CardState], before: CardState, after: CardState
    ) -> tuple[Reminder, ...] | None:
        """The timers of the turn a move starts (app/clocks.py), or None when the same
        person is still awaited (their deadline stands)."""
        was = card_awaited(before, loaded.seats)
        now = card_awaited(after, loaded.seats)
        if now is not None and was is not None and now.user_id == was.user_id:
            return None
        options = CardOptions.from_json(loaded.row.options)
        return turn_timers(options, now, after.version, self.clock)

    async def play_timeout(self, match_id: int, user_id: int, version: int) -> TimedOut | None:
        """A move deadline passed: an AI stand-in plays it (see :meth:`TurnClocks.timeout`).

        Raises:
            ServiceError: ERR_NO_MATCH.
        """
        return await self.clocks.timeout(match_id, user_id, version)

    async def due_timers(self, now: float) -> list[Due]:
        """Every card-game timer due at ``now``, claimed once."""
        return await self.clocks.due(now)

    # ------------------------------------------------------------------ program seats
    def _open_decisions(self, game: CardState) -> tuple[Decision, ...]:
        return () if game.over else pending(game)

    def _state_of(self, game: CardState) -> Any:
        return game

    async def _submit_for(
        self, loaded: Loaded[CardState], user_id: int, decision: Decision, action: Any
    ) -> CardOutcome:
        return await self.submit(loaded.row.id, user_id, action, key=decision.key)

    async def _presented(self, loaded: Loaded[CardState]) -> CardOutcome:
        return await self._outcome(loaded, render=False)

    # ------------------------------------------------------------------ reads
    async def current(self, channel_id: int, *, render: bool = False) -> CardOutcome:
        """The running card match of this channel. Raises ServiceError ERR_NO_MATCH."""
        row = await self.store.active_row(channel_id)
        return await self.match(row.id, render=render)

    async def match(self, match_id: int, *, render: bool = False) -> CardOutcome:
        """A started card match by id (finished too)."""
        loaded = await self.store.load(match_id)
        return await self._outcome(loaded, render=render)

    async def record(self, match_id: int) -> CardRecord:
        """The record of a started card match (its setup, seed and every move; the final
        scores once it is over), which ``carcabot replay`` reads.

        Raises:
            ServiceError: ERR_NO_MATCH.
        """
        loaded = await self.store.load(match_id)
        row = loaded.row
        assert row.setup is not None
        entries = await self.storage.log_entries(match_id)
        state = loaded.game
        return CardRecord(
            CardSetup.from_json(row.setup),
            row.seed,
            tuple((Seat(e.seat), e.action) for e in entries),
            tuple(state.scores) if state.over else None,
        )

    async def match_id_in(self, channel_id: int) -> int:
        return (await self.store.open_row(channel_id)).id

    async def private_view(self, match_id: int, user_id: int) -> tuple[CardOutcome, CardSeatView]:
        """The user's own view (hand, own face-down cards, legal moves) — for them only.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_NOT_SEATED.
        """
        loaded = await self.store.load(match_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise ServiceError(ERR_NOT_SEATED, "You are not playing in this match.")
        outcome = await self._outcome(loaded, render=False)
        return outcome, seat_view(loaded.game, seat, outcome.view)

    async def active_matches(self) -> list[CardOutcome]:
        """Every active card match (restart recovery); unreplayable ones are logged and skipped."""
        out = []
        for row in await self.store.active_rows():
            try:
                out.append(await self.match(row.id, render=True))
            except ServiceError:
                continue
        return out

    # ------------------------------------------------------------------ internals
    def _not_your_turn(self, loaded: Loaded[CardState]) -> NoReturn:
        users = [loaded.seats[s].user_id for s in sorted(loaded.game.awaiting)]
        raise ServiceError(
            ERR_NOT_YOUR_TURN,
            "It is not your turn.",
            current_user_id=users[0] if users else 0,
        )

    def _result(self, loaded: Loaded[CardState], state: CardState) -> GameResult:
        row = loaded.row
        return result_of(
            row.id, row.guild_id, row.channel_id, row.game, loaded.seats, state.scores,
            winners=[int(s) for s in state.winners],
        )  # fmt: skip

    def _snapshot(self, state: CardState) -> dict[str, Any]:
        return {
            "schema": SNAPSHOT_SCHEMA,
            "game": GAME,
            "version": state.version,
            "round": state.round,
            "step": state.step,
            "scores": list(state.scores),
            "winners": [int(s) for s in state.winners],
            "names": list(state.setup.names),
        }

    async def _outcome(
        self,
        loaded: Loaded[CardState],
        *,
        events: tuple[CardEvent, ...] = (),
        render: bool = True,
        private_changed: tuple[int, ...] = (),
        actor: Seat | None = None,
    ) -> CardOutcome:
        row, state = loaded.row, loaded.game
        view = public_view(state)
        lang = CardOptions.from_json(row.options).lang
        png = None
        renderer = self.renderer
        if render and renderer is not None:
            png = await self.pictures.picture(
                (row.id, view.version, lang),
                partial(renderer, view, lang),
                f"the card table of match {row.id}",
            )
        msg = row.turn_message_id if row.turn_message_version == row.version else None
        return CardOutcome(
            match_id=row.id,
            version=state.version,
            view=view,
            seats=loaded.seat_infos(),
            events=events,
            png=png,
            finished=state.over,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            turn_message_id=msg,
            private_changed=private_changed,
            actor=actor,
            lang=lang,
            deadline=_deadline(row, loaded.seats, state),
        )


def card_awaited(state: CardState, seats: Sequence[SeatRow]) -> SeatRow | None:
    """The first seat the card game awaits (the one its deadline names), if a person plays it
    now."""
    if state.over or not state.awaiting:
        return None
    return person_at(seats, min(state.awaiting))


def _deadline(row: MatchRow, seats: Sequence[SeatRow], state: CardState) -> float | None:
    limit = seconds_a_move(CardOptions.from_json(row.options))
    if limit <= 0 or card_awaited(state, seats) is None:
        return None
    return row.updated_at + limit
