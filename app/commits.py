"""Storing a tile-game move: its snapshot, its reminder and the one transaction that holds them.

A collaborator of :class:`app.matches.MatchService`. Every accepted move is one compare-and-set transaction, run in one trip to SQLite's thread
(:meth:`storage.port.Store.commit_move`), which also reads the match row and seats back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from app.clocks import timers_for
from app.errors import ERR_STALE, ServiceError
from app.options import MatchOptions
from app.ratings import Ratings, result_of
from app.replay import RESIGN, Game
from app.results import snapshot_of
from app.store import MatchStore
from app.types import Loaded, seated
from storage import MatchRow, MoveCommit, NewAction, Reminder, SeatRow, StaleVersion


class MoveCommits:
    """Storing a move (see the module docstring); ``clock`` times the turn reminders."""

    def __init__(
        self, store: MatchStore[Game], clock: Callable[[], float], ratings: Ratings
    ) -> None:
        self.store = store
        self.storage = store.storage
        self.clock = clock
        #: called when a move wrote timers (the front end's scheduler wakes to look again)
        self.on_timers: Callable[[], None] = lambda: None
        self.ratings = ratings

    async def commit(
        self,
        loaded: Loaded[Game],
        game: Game,
        entries: list[NewAction],
        before: int,
        *,
        resign_winners: tuple[int, ...] | None = None,
        timed_out: bool | None = False,
    ) -> Loaded[Game]:
        """Store the new log entries and snapshot in one transaction (compare-and-set), with
        the timers of the turn it starts (app/clocks.py) and the mover's missed-moves count:
        back to 0 after a person's own move (``timed_out`` False), one more when a stand-in
        played it for them (True), unchanged for the rest of that move (None); a move that
        finishes the match stores its result with it and settles the ratings.

        Raises:
            ServiceError: ERR_STALE when another writer moved the match on meanwhile.
        """
        row = loaded.row
        names = [s.name for s in loaded.seats]
        finished = game.state.over or resign_winners is not None
        # the whole record only goes into the final snapshot (storage keeps others compact)
        snapshot = snapshot_of(game, names, winners=resign_winners, record=finished)
        resigned = [e.seat for e in entries if e.action == RESIGN]
        timer: Reminder | Literal["keep", "cancel"] = "keep"
        timers: tuple[Reminder, ...] | None = None
        if finished:
            timer = "cancel"
        elif newly_awaiting(loaded.game, game) or resigned:
            timers = timers_for(row, loaded.seats, game, self.clock)
        mover = [entries[0].seat] if entries else []
        result = None
        if finished:  # the final table, stored with the final move (rated just below)
            result = result_of(
                row.id, row.guild_id, row.channel_id, row.game, loaded.seats,
                game.state.scores, resigned=[*game.resigned, *resigned],
                expansions=MatchOptions.from_json(row.options).expansions,
            )  # fmt: skip
        try:
            found = await self.storage.commit_move(
                MoveCommit(
                    match_id=row.id,
                    expected_version=before,
                    new_version=game.version,
                    snapshot=snapshot,
                    entries=entries,
                    status="finished" if finished else None,
                    resigned=resigned,
                    timer=timer,
                    timers=timers,
                    moved=mover if timed_out is False else [],
                    missed=mover if timed_out is True else [],
                    result=result,
                )
            )
        except StaleVersion:
            self.store.cache.drop(row.id, before)
            raise ServiceError(
                ERR_STALE,
                "This board is out of date: use the latest one.",
                message_url=None,
            ) from None
        self.store.remember(row.id, game)
        if timers:
            self.on_timers()  # the scheduler may have to wake earlier
        if finished:
            await self.ratings.settle()
        return Loaded(found[0], seated(found[1]), game)

    def first_timers(
        self, row: MatchRow, game: Game, seats: Sequence[SeatRow]
    ) -> tuple[Reminder, ...]:
        """The first turn's timers, written with the start (app/clocks.py)."""
        return tuple(timers_for(row, seats, game, self.clock))


def newly_awaiting(before: Game, after: Game) -> bool:
    """Whether a seat has an open decision now that it did not have before the move (its
    reminder timer starts afresh)."""
    was = {a.seat for a in before.state.asks}
    return any(a.seat not in was for a in after.state.asks) or (
        before.state.current != after.state.current
    )
