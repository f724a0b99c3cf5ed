"""The SQLite backend's whole operations (:class:`storage.port.Store`), over its repositories.

Each write opens one :meth:`storage.db.Database.transaction` and runs the repositories' checked
statements in it, exactly as the services did before the port: the SQLite behaviour is
unchanged, only where the transaction is opened moved here.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import replace
from typing import Any

from storage.db import Database, Wrote
from storage.direct import DmClosedRepo, PrivateSendsRepo, QuietPlayersRepo
from storage.foundcache import FoundCache
from storage.port import Capacity
from storage.ratings import RatingsRepo
from storage.repositories import ActionLogRepo, GuildSettingsRepo, MatchRepo, TimerRepo
from storage.rows import ActionRow, MatchRow, SeatRow, TimerRow
from storage.units import Found, MoveCommit, Reminder, Units
from storage.votes import VotesRepo

#: a write of tables other than the match rows and seats (timers, votes, settings, ...)
OTHER_TABLES = Wrote(rows=False)


class SqliteOperations:
    """The :class:`~storage.port.Store` operations of one SQLite :class:`Database`."""

    db: Database
    matches: MatchRepo
    actions: ActionLogRepo
    timers: TimerRepo
    guilds: GuildSettingsRepo
    dm_closed: DmClosedRepo
    quiet: QuietPlayersRepo
    votes: VotesRepo
    private_sends: PrivateSendsRepo
    units: Units
    _ratings: RatingsRepo
    #: the last reads of each match, kept while this process alone writes the file (None:
    #: others may write it, every read goes to the database)
    found_cache: FoundCache | None

    @property
    def shared(self) -> bool:
        """A SQLite file has one serving process (its writer lock): never shared."""
        return False

    def match_lock(self, match_id: int) -> AbstractAsyncContextManager[None]:
        """Nothing to hold: no other process serves this file."""
        return nullcontext()

    @property
    def ratings(self) -> RatingsRepo:
        """Finished games' results, ratings and their history (storage/ratings.py)."""
        return self._ratings

    # ------------------------------------------------------------------ reads
    async def match(self, match_id: int) -> MatchRow | None:
        if self.found_cache is None:
            return await self.matches.get(match_id)
        found = await self.load_match(match_id)  # the row as kept (with its seats)
        return None if found is None else found[0]

    async def open_match(self, channel_id: int) -> MatchRow | None:
        if self.found_cache is None:
            return await self.matches.open_in_channel(channel_id)
        found = await self.load_open_match(channel_id)
        return None if found is None else found[0]

    async def matches_with_status(self, status: str) -> list[MatchRow]:
        return await self.matches.with_status(status)

    async def matches_in_channel(self, channel_id: int, *, limit: int = -1) -> list[MatchRow]:
        return await self.matches.in_channel(channel_id, limit=limit)

    async def seats(self, match_id: int) -> list[SeatRow]:
        return await self.matches.seats(match_id)

    async def load_match(self, match_id: int) -> Found | None:
        if self.found_cache is None:
            return await self.units.match(match_id)
        return await self.found_cache.load_match(match_id, lambda: self.units.match(match_id))

    async def load_open_match(self, channel_id: int) -> Found | None:
        if self.found_cache is None:
            return await self.units.open_match(channel_id)
        return await self.found_cache.load_open_match(
            channel_id, lambda: self.units.open_match(channel_id)
        )

    async def log_entries(self, match_id: int) -> list[ActionRow]:
        return await self.actions.entries(match_id)

    async def guild_defaults(self, guild_id: int) -> dict[str, Any]:
        return await self.guilds.get(guild_id)

    async def pending_timers(self, match_id: int) -> list[TimerRow]:
        return await self.timers.pending(match_id)

    async def next_timer_due(self) -> float | None:
        return await self.timers.next_due()

    async def is_dm_closed(self, user_id: int) -> bool:
        return await self.dm_closed.is_closed(user_id)

    async def dm_closed_among(self, user_ids: list[int]) -> set[int]:
        return await self.dm_closed.closed_among(user_ids)

    async def quiet_players(self) -> set[int]:
        return await self.quiet.all()

    # ------------------------------------------------------------------ lobby writes
    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        seed: int,
        game: str,
    ) -> int:
        async with self.db.transaction(Wrote(channel_id=channel_id)) as tx:
            match_id = await self.matches.create(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                options=options,
                seed=seed,
                game=game,
            )
            await self.matches.add_seat(tx, match_id, host_id, host_name)
        return match_id

    async def join_lobby(
        self,
        match_id: int,
        user_id: int,
        name: str,
        *,
        capacity: Capacity,
        controller: str | None = None,
    ) -> int:
        async with self.db.transaction(Wrote(match_id)) as tx:
            return await self.matches.join(
                tx, match_id, user_id, name, capacity=capacity, controller=controller
            )

    async def remove_seats(
        self,
        match_id: int,
        user_ids: Sequence[int],
        *,
        abandon: bool = False,
        new_host: int | None = None,
    ) -> None:
        async with self.db.transaction(Wrote(match_id)) as tx:
            for user_id in user_ids:
                await self.matches.remove_seat(tx, match_id, user_id)
            if abandon:
                await self.matches.set_status(tx, match_id, "abandoned")
            elif new_host is not None:
                await self.matches.set_host(tx, match_id, new_host)

    async def set_lobby_options(self, match_id: int, options: dict[str, Any]) -> bool:
        async with self.db.transaction(Wrote(match_id)) as tx:
            return await self.matches.set_options(tx, match_id, options)

    async def abandon_match(self, match_id: int) -> None:
        async with self.db.transaction(Wrote(match_id)) as tx:
            await self.matches.set_status(tx, match_id, "abandoned")
            await self.timers.cancel(tx, match_id)

    async def start_match(
        self,
        match_id: int,
        *,
        seat_order: Sequence[int],
        setup: dict[str, Any],
        snapshot: dict[str, Any],
        compact: bool = False,
        timers: Sequence[Reminder] = (),
    ) -> None:
        async with self.db.transaction(Wrote(match_id)) as tx:
            await self.matches.start(
                tx, match_id, seat_order=seat_order, setup=setup, snapshot=snapshot, compact=compact
            )
            if timers:
                await self._write_timers(tx, match_id, timers)

    async def set_lobby_message(self, match_id: int, message_id: int) -> None:
        async with self.db.transaction(Wrote(match_id)) as tx:
            await self.matches.set_lobby_message(tx, match_id, message_id)

    async def set_turn_message(self, match_id: int, version: int, message_id: int) -> bool:
        rows = self.found_cache
        if rows is None:
            return await self.units.set_turn_message(match_id, version, message_id)

        def keep(stored: bool) -> None:  # right after its own write was told, in commit order
            kept = rows.forgotten(match_id)  # what this write made the cache forget
            if kept is not None:
                row, seats = kept
                if stored:
                    row = replace(row, turn_message_id=message_id, turn_message_version=version)
                rows.put((row, seats))

        return await self.units.set_turn_message(match_id, version, message_id, keep)

    async def put_guild_defaults(self, guild_id: int, defaults: dict[str, Any]) -> None:
        async with self.db.transaction(OTHER_TABLES) as tx:
            await self.guilds.put(tx, guild_id, defaults)

    async def set_quiet(self, user_id: int, quiet: bool) -> None:
        async with self.db.transaction(OTHER_TABLES) as tx:
            await self.quiet.set_quiet(tx, user_id, quiet)

    async def note_dm_closed(self, user_id: int, now: float | None = None) -> bool:
        async with self.db.transaction(OTHER_TABLES) as tx:
            return await self.dm_closed.note(tx, user_id, now)

    # ------------------------------------------------------------------ match writes
    async def commit_move(self, c: MoveCommit) -> Found:
        # as committed, in commit order: the next reads of the move need no trip
        rows = self.found_cache
        return await self.units.commit_move(c, None if rows is None else rows.put)

    async def set_controller(self, match_id: int, user_id: int, controller: str | None) -> bool:
        async with self.db.transaction(Wrote(match_id)) as tx:
            return await self.matches.set_controller(tx, match_id, user_id, controller)

    async def add_vote(self, match_id: int, target_id: int, version: int, voter_id: int) -> int:
        async with self.db.transaction(OTHER_TABLES) as tx:
            return await self.votes.add(tx, match_id, target_id, version, voter_id)

    async def clear_votes(self, match_id: int, target_id: int) -> None:
        async with self.db.transaction(OTHER_TABLES) as tx:
            await self.votes.clear(tx, match_id, target_id)

    async def claim_private_sends(
        self, match_id: int, sends: Sequence[tuple[int, str]]
    ) -> set[tuple[int, str]]:
        async with self.db.transaction(OTHER_TABLES) as tx:
            return await self.private_sends.claim(tx, match_id, sends)

    async def replace_timers(self, match_id: int, timers: Sequence[Reminder]) -> None:
        async with self.db.transaction(OTHER_TABLES) as tx:
            await self._write_timers(tx, match_id, timers)

    async def claim_due_timers(
        self, now: float, game: str | None = None
    ) -> list[tuple[TimerRow, int]]:
        async with self.db.transaction(OTHER_TABLES) as tx:
            return await self.timers.claim_due(tx, now, game)

    async def finish_timer(self, match_id: int, kind: str, version: int) -> None:
        async with self.db.transaction(OTHER_TABLES) as tx:
            await self.timers.finish(tx, match_id, kind, version)

    async def _write_timers(self, tx: Any, match_id: int, timers: Sequence[Reminder]) -> None:
        await self.timers.cancel(tx, match_id)
        for t in timers:
            await self.timers.replace_turn_reminder(
                tx, match_id, user_id=t.user_id, fires_at=t.fires_at, version=t.version, kind=t.kind
            )
