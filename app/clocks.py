"""Turn clocks: each move's deadline, a warning before it, and the turn reminder, as timer rows
written with the move that starts the turn (ARCHITECTURE.md decision 17: one transaction).

A match's ``clock`` option (:class:`~app.options.MatchOptions`) is ``off``, ``live`` (minutes a
move: a quick game) or ``async`` (hours a move: a game over days). When a person's decision
opens, its deadline is written; when it passes (:meth:`app.matches.MatchService.play_timeout`),
an AI stand-in plays that move, the seat's missed moves go up by one, and at the match's limit
the seat is handed to the AI for good (the player takes it back with ``back``). A person's own
move sets the count back to 0. A program's seat (an AI seat, an away player's) has no deadline:
it moves at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from app.errors import ERR_STALE, ServiceError
from app.options import CLOCKS, MatchOptions
from app.replay import Game
from app.seats import AWAY, STAND_IN_LEVEL, AiController, Played
from app.store import MatchStore
from app.types import Loaded
from engine.core.decisions import Decision
from storage import MatchRow, Reminder, SeatRow

#: timer kinds (``timers.kind``)
REMINDER, DEADLINE, WARNING = "turn_reminder", "deadline", "warning"
#: the most answers a stand-in gives for one missed move (a tile, its follower, a bonus tile ...)
MOVE_STEPS = 8
#: an async clock warns the player this long before the deadline (at most a quarter of it)
WARNING_AHEAD = 3600.0


def seconds_a_move(options: Any) -> float:
    """The time a move may take (0: no clock) under a game's options (their ``clock`` and
    ``clock_seconds``: the tile game's :class:`~app.options.MatchOptions`, the card game's)."""
    clock = getattr(options, "clock", "off")
    if clock == "off":
        return 0.0
    return float(getattr(options, "clock_seconds", 0) or CLOCKS.get(clock, 0))


def person_at(seats: Sequence[SeatRow], seat: int | None) -> SeatRow | None:
    """The seat's row when a person plays it now (not a program, not resigned)."""
    row = next((s for s in seats if s.seat == seat), None) if seat is not None else None
    if row is None or row.user_id <= 0 or row.controller is not None or row.resigned:
        return None
    return row


def awaited_person(game: Game, seats: Sequence[SeatRow]) -> SeatRow | None:
    """The first seat awaited (the one the reminder and the deadline name), if a person plays
    it now."""
    st = game.state
    if st.over:
        return None
    asks = st.asks
    return person_at(seats, asks[0].seat if asks else st.current)


def timers_for(
    row: MatchRow, seats: Sequence[SeatRow], game: Game, clock: Callable[[], float]
) -> tuple[Reminder, ...]:
    """The timers of a turn that starts now (see :func:`turn_timers`)."""
    options = MatchOptions.of_row(row)
    return turn_timers(options, awaited_person(game, seats), game.version, clock)


def turn_timers(
    options: Any, person: SeatRow | None, version: int, clock: Callable[[], float]
) -> tuple[Reminder, ...]:
    """The timers of a turn that starts now for ``person``: the reminder (when the match wants
    one), and with a clock the deadline and (async) a warning before it; none for a program's
    turn (``person`` None)."""
    if person is None:
        return ()
    now, user = clock(), person.user_id
    out: list[Reminder] = []
    minutes = int(getattr(options, "reminder_minutes", 0))
    if minutes > 0:
        out.append(Reminder(user, now + 60.0 * minutes, version, REMINDER))
    limit = seconds_a_move(options)
    if limit > 0:
        out.append(Reminder(user, now + limit, version, DEADLINE))
        if getattr(options, "clock", "off") == "async":
            ahead = min(WARNING_AHEAD, limit / 4)
            out.append(Reminder(user, now + limit - ahead, version, WARNING))
    return tuple(out)


def deadline_of(row: MatchRow, seats: Sequence[SeatRow], game: Game) -> float | None:
    """When the awaited person's move is due (shown on the turn message), if a clock runs: the
    turn started with the match's last write."""
    limit = seconds_a_move(MatchOptions.of_row(row))
    if limit <= 0 or awaited_person(game, seats) is None:
        return None
    return row.updated_at + limit


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A move a stand-in played when its deadline passed: every answer it gave (a tile, its
    follower ...), the seat's missed moves in a row now, and whether the seat was handed to
    the AI for good."""

    moves: tuple[Played, ...]
    missed: int
    handed: bool

    @property
    def played(self) -> Played:
        """The last answer the stand-in gave (its outcome is the match now)."""
        return self.moves[-1]


@dataclass(frozen=True, slots=True)
class Due:
    """A timer that fired: its match and channel, whom it names, its kind and the match
    version it was set at."""

    match_id: int
    channel_id: int
    user_id: int
    kind: str
    version: int


#: submits actions on a match as a user (MatchService._submit)
Submit = Callable[..., Awaitable[Any]]


class TurnClocks:
    """Fires the timers and plays the moves whose deadline passed (see the module
    docstring). A collaborator of :class:`app.matches.MatchService`."""

    def __init__(
        self,
        store: MatchStore[Any],
        *,
        submit: Submit,
        present: Callable[[Loaded[Any]], Awaitable[Any]],
        executor: Callable[[], Executor | None],
        awaited: Callable[[Any, Sequence[SeatRow]], SeatRow | None] = awaited_person,
        decisions: Callable[[Any], Sequence[Decision]] = lambda game: game.decisions(),
        state_of: Callable[[Any], Any] = lambda game: game.state,
        missed_limit: Callable[[MatchRow], int] = (
            lambda row: MatchOptions.of_row(row).missed_limit
        ),
    ) -> None:
        """``awaited``, ``decisions``, ``state_of`` and ``missed_limit`` read the game (the tile
        game's by default; the card game gives its own); ``submit(match_id, user_id, action,
        key=, timed_out=)`` plays as a seat."""
        self.store = store
        self.storage = store.storage
        self.submit = submit
        self.present = present
        self.executor = executor
        self.awaited = awaited
        self.decisions = decisions
        self.state_of = state_of
        self.missed_limit = missed_limit

    async def timeout(self, match_id: int, user_id: int, version: int) -> TimedOut | None:
        """A move deadline passed (a ``deadline`` timer of ``user_id`` set at ``version``): if
        the match still waits for that player's move, an AI stand-in plays the rest of it (the
        tile, its follower, ...) as them; their missed moves count one more, and at the
        match's limit their seat is handed to the AI. ``None`` when the player finished their
        move in time (it started a new turn and replaced the deadline: their move wins).

        Raises:
            ServiceError: ERR_NO_MATCH.
        """
        done = await self._timeout(match_id, user_id, version)
        # dealt with (played, or moot): the deadline's lease ends here; a process that dies
        # before this line leaves it to fire again, and the version checks above make a
        # second firing of a deadline already played change nothing
        await self.storage.finish_timer(match_id, DEADLINE, version)
        return done

    async def _timeout(self, match_id: int, user_id: int, version: int) -> TimedOut | None:
        played: list[Played] = []
        seed = 0
        limit = 1
        for _ in range(MOVE_STEPS):
            loaded = await self.store.load(match_id)
            person = self.awaited(loaded.game, loaded.seats)
            if (
                loaded.row.status != "active"
                or loaded.game.version < version
                or person is None
                or person.user_id != user_id
            ):
                break
            seat = loaded.seat_of(user_id)
            mine = [d for d in self.decisions(loaded.game) if d.seat == seat]
            if seat is None or not mine:
                break
            seed = loaded.row.seed
            limit = self.missed_limit(loaded.row)
            stand_in = AiController(STAND_IN_LEVEL, seed=seed, executor=self.executor())
            key, action = await stand_in.answer(self.state_of(loaded.game), seat, mine[0])
            d = next((o for o in mine if o.key == key), mine[0])
            try:
                # the move's first answer counts as missed; the rest of it counts nothing
                out = await self.submit(
                    match_id, user_id, action, key=d.key, timed_out=True if not played else None
                )
            except ServiceError as e:
                if e.key == ERR_STALE:
                    break  # the player moved meanwhile: their move stands
                raise
            played.append(Played(d, action, out))
        if not played:
            return None
        row = next(s for s in await self.storage.seats(match_id) if s.user_id == user_id)
        handed = row.missed >= limit and row.controller is None
        last = played[-1]
        if handed:
            await self.storage.set_controller(match_id, user_id, f"{AWAY}:{STAND_IN_LEVEL}")
            last = Played(
                last.decision, last.action, await self.present(await self.store.load(match_id))
            )
        return TimedOut(tuple(played[:-1]) + (last,), row.missed, handed)

    async def due(self, now: float) -> list[Due]:
        """Every timer due at ``now`` of a running match, claimed (marked fired in the same
        transaction: whichever process claims it fires it, once): (match_id, channel_id,
        user_id, kind, version)."""
        due = await self.storage.claim_due_timers(now, self.store.game)
        return [Due(t.match_id, channel, t.user_id, t.kind, t.version) for t, channel in due]
