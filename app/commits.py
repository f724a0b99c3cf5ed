"""Storing a tile-game move: its snapshot, its reminder and the one transaction that holds them.

A collaborator of :class:`app.matches.MatchService`. Every accepted move is one compare-and-set transaction, run in one trip to SQLite's thread
(:meth:`storage.units.Units.commit_move`), which also reads the match row and seats back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import aiosqlite

from app.errors import ERR_STALE, ServiceError
from app.options import MatchOptions
from app.ratings import Ratings, result_of
from app.replay import RESIGN, Game
from app.results import snapshot_of
from app.store import MatchStore
from app.types import Loaded, seated
from storage import MatchRow, MoveCommit, NewAction, Reminder, StaleVersion


class MoveCommits:
    """Storing a move (see the module docstring); ``clock`` times the turn reminders."""

    def __init__(
        self, store: MatchStore[Game], clock: Callable[[], float], ratings: Ratings
    ) -> None:
        self.store = store
        self.storage = store.storage
        self.clock = clock
        self.ratings = ratings

    async def commit(
        self,
        loaded: Loaded[Game],
        game: Game,
        entries: list[NewAction],
        before: int,
        *,
        resign_winners: tuple[int, ...] | None = None,
    ) -> Loaded[Game]:
        """Store the new log entries and snapshot in one transaction (compare-and-set); a
        move that finishes the match stores its result with it and settles the ratings.

        Raises:
            ServiceError: ERR_STALE when another writer moved the match on meanwhile.
        """
        row = loaded.row
        names = [s.name for s in loaded.seats]
        finished = game.state.over or resign_winners is not None
        users = [s.user_id for s in loaded.seats]
        # the whole record only goes into the final snapshot (storage keeps others compact)
        snapshot = snapshot_of(game, names, winners=resign_winners, record=finished)
        resigned = [e.seat for e in entries if e.action == RESIGN]
        timer: Reminder | Literal["keep", "cancel"] = "keep"
        if finished:
            timer = "cancel"
        elif newly_awaiting(loaded.game, game) or resigned:
            timer = self.reminder(row, game, users)
        result = None
        if finished:  # the final table, stored with the final move (rated just below)
            result = result_of(
                row.id, row.guild_id, row.channel_id, row.game, loaded.seats,
                game.state.scores, resigned=[*game.resigned, *resigned],
                expansions=MatchOptions.from_json(row.options).expansions,
            )  # fmt: skip
        try:
            found = await self.storage.units.commit_move(
                MoveCommit(
                    match_id=row.id,
                    expected_version=before,
                    new_version=game.version,
                    snapshot=snapshot,
                    entries=entries,
                    status="finished" if finished else None,
                    resigned=resigned,
                    timer=timer,
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
        if finished:
            await self.ratings.settle()
        return Loaded(found[0], seated(found[1]), game)

    def reminder(self, row: MatchRow, game: Game, users: list[int]) -> Reminder | Literal["cancel"]:
        """The match's turn reminder now, or ``"cancel"`` (none wanted, or nobody to remind).

        One timer per match: it names the first seat awaited; the reminder, when it fires,
        mentions every seat that still has an open decision (``Outcome.awaiting``).
        """
        minutes = MatchOptions.from_json(row.options).reminder_minutes
        asks = game.state.asks
        user = users[asks[0].seat if asks else game.state.current]
        if minutes <= 0 or user <= 0 or game.state.over:
            return "cancel"
        return Reminder(user_id=user, fires_at=self.clock() + 60.0 * minutes, version=game.version)

    async def schedule_reminder(
        self, tx: aiosqlite.Connection, row: MatchRow, game: Game, users: list[int]
    ) -> None:
        reminder = self.reminder(row, game, users)
        if reminder == "cancel":
            await self.storage.timers.cancel(tx, row.id)
            return
        assert isinstance(reminder, Reminder)
        await self.storage.timers.replace_turn_reminder(
            tx,
            row.id,
            user_id=reminder.user_id,
            fires_at=reminder.fires_at,
            version=reminder.version,
        )


def newly_awaiting(before: Game, after: Game) -> bool:
    """Whether a seat has an open decision now that it did not have before the move (its
    reminder timer starts afresh)."""
    was = {a.seat for a in before.state.asks}
    return any(a.seat not in was for a in after.state.asks) or (
        before.state.current != after.state.current
    )
