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
from collections.abc import Callable
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
from storage import ActionRow, GameResult, MatchRow, NewAction, StaleVersion, Storage

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

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "lang": self.lang}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CardOptions:
        return cls(int(data.get("players", 2)), str(data.get("lang", "en")))


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
        storage: Storage,
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
        self.seeds: Callable[[], int] = seeds or (lambda: secrets.randbelow(MAX_SEED))
        quiet_sql_logging()

    # ------------------------------------------------------------------ game specifics
    def options_from_json(self, data: dict[str, Any]) -> CardOptions:
        return CardOptions.from_json(data)

    def validate(self, options: CardOptions) -> None:
        if not MIN_PLAYERS <= options.players <= MAX_PLAYERS:
            raise illegal(Phrase("svc.card_players", low=MIN_PLAYERS, high=MAX_PLAYERS))

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
            CardOptions(players, lang),
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
            async with self.storage.db.transaction() as tx:
                await self.storage.matches.start(
                    tx,
                    row.id,
                    seat_order=[s.user_id for s in order],
                    setup=setup.to_json(),
                    snapshot=self._snapshot(state),
                )
            self.store.remember(row.id, state)
            loaded = await self.store.load(row.id)
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
                async with self.storage.db.transaction() as tx:
                    await self.storage.matches.advance(
                        tx,
                        match_id,
                        expected_version=before.version,
                        new_version=after.version,
                        snapshot=self._snapshot(after),
                        status="finished" if after.over else None,
                    )
                    await self.storage.actions.append(tx, match_id, [entry])
                    if after.over:  # the final table, with the final move
                        await self.storage.ratings.record(tx, self._result(loaded, after))
            except StaleVersion:
                self.store.cache.drop(match_id, before.version)
                raise ServiceError(ERR_STALE, "This table is out of date.") from None
            self.store.remember(match_id, after)
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
        entries = await self.storage.actions.entries(match_id)
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
        )
