"""The PostgreSQL backend of the storage port (:class:`storage.port.Store`), on asyncpg.

Chosen by ``DATABASE_URL=postgresql://…`` for several processes sharing one database. The rows
and their rules are SQLite's (storage/repositories.py, storage/units.py); what differs is how
two processes are kept apart:

- **Moves serialise per match.** A write to a match first locks its row (``SELECT … FOR
  UPDATE``), then compares the stored version with the one it was computed from: of two
  processes answering the same click, the second waits for the first's commit, finds the
  version moved on and raises :class:`~storage.errors.StaleVersion`; nothing is applied twice.
- **Lobby checks** (free seats, status) are made under the same row lock.
- **A timer fires once.** Due timers are claimed with ``FOR UPDATE SKIP LOCKED`` in one
  transaction: another process skips the rows being claimed, and finds them sent (a reminder)
  or leased (a move deadline, due again only if its claimer dies before dealing with it)
  afterwards.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from storage.errors import (
    AlreadySeated,
    ChannelBusy,
    DatabaseUnavailable,
    LobbyClosed,
    LobbyFull,
    StaleVersion,
    StorageBusy,
)
from storage.port import Capacity
from storage.postgres.connection import BUSY_ERRORS, Connections, PgConn, count, create_pool
from storage.postgres.migrate import migrate
from storage.postgres.moves import commit_in_one_statement
from storage.postgres.ratings import PgRatings, write_result
from storage.postgres.timers import UPSERT_TIMER, PgTimers, write_timers
from storage.rows import (
    ENDED_STATUSES,
    STATUSES,
    ActionRow,
    MatchRow,
    SeatRow,
    dumps,
    loads,
)
from storage.snapshots import compact_snapshot
from storage.units import Found, MoveCommit, Reminder

#: advisory lock keys of matches: this plus the match id (apart from the migrations' key)
MATCH_LOCKS = 1 << 40

_SEATS = (
    "SELECT match_id, join_order, seat, user_id, name, resigned, controller, missed"
    " FROM match_seats WHERE match_id = $1 ORDER BY join_order"
)


def _seat(r: Any) -> SeatRow:
    return SeatRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6], int(r[7]))


#: a match row with its seats (join order) as one JSON column: read in one statement
_WITH_SEATS = (
    "SELECT m.*, (SELECT COALESCE(json_agg(json_build_array(s.match_id, s.join_order, s.seat,"
    " s.user_id, s.name, s.resigned, s.controller, s.missed) ORDER BY s.join_order), '[]')"
    " FROM match_seats s WHERE s.match_id = m.id) AS seats_json FROM matches m"
)


def _found_row(row: asyncpg.Record | None) -> Found | None:
    if row is None:
        return None
    return MatchRow.from_row(row), [_seat(s) for s in json.loads(row["seats_json"])]


async def _lock(conn: PgConn, match_id: int, columns: str = "status") -> Any:
    """Lock the match's row for this transaction; its ``columns`` (None: no such match)."""
    return await conn.fetchrow(f"SELECT {columns} FROM matches WHERE id = $1 FOR UPDATE", match_id)


class PgStorage(PgTimers):
    """A PostgreSQL database behind the storage port (see the module docstring)."""

    def __init__(self, pool: asyncpg.Pool, url: str, locks: asyncpg.Pool | None = None) -> None:
        self.pool = pool
        self.url = url
        self.db = Connections(pool)
        #: the connections that hold matches' advisory locks (apart, so that a holder never
        #: waits for a connection that another holder has)
        self.locks = locks
        #: lock connections being given back (see :meth:`match_lock`)
        self._releasing: set[asyncio.Future[None]] = set()
        self._ratings = PgRatings(self.db)

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        run_migrations: bool = True,
        min_size: int = 1,
        max_size: int = 10,
        lock_connections: int = 50,
    ) -> PgStorage:
        """Connect to ``url`` and bring its schema up to date (several processes may do this
        at once: they take turns).

        Raises:
            DatabaseUnavailable: the server cannot be reached or refuses the connection.
            MigrationError: the schema cannot be brought up to date.
        """
        try:
            pool = await create_pool(url, min_size=min_size, max_size=max_size)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            from storage.backends import describe

            raise DatabaseUnavailable(
                f"cannot use the PostgreSQL database {describe(url)}: {e}"
            ) from e
        try:
            if run_migrations:
                async with pool.acquire() as conn:
                    await migrate(conn)
            locks = await create_pool(url, min_size=0, max_size=lock_connections, reset=True)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, locks)

    @property
    def shared(self) -> bool:
        return True

    @asynccontextmanager
    async def match_lock(self, match_id: int) -> AsyncIterator[None]:
        """Hold match ``match_id`` against every other process: a session advisory lock on a
        connection of its own, dropped when the connection is given back (asyncpg's reset of
        the lock pool, ``pg_advisory_unlock_all``, whatever ended the block). Waits at most
        the lock timeout.

        The connection is given back in the background: the caller does not wait for the
        unlock's round trip (a task of this process that takes the match next waits for it in
        the database, as another process would).

        Raises:
            StorageBusy: another process held the match for longer than that.
        """
        locks = self.locks
        assert locks is not None
        try:
            conn = await locks.acquire()
        except BUSY_ERRORS as e:
            raise StorageBusy(f"no connection to hold match {match_id}: {e}") from e
        try:
            await conn.execute("SELECT pg_advisory_lock($1)", MATCH_LOCKS + match_id)
        except BaseException as e:
            await locks.release(conn)
            if isinstance(e, BUSY_ERRORS):
                raise StorageBusy(f"match {match_id} is held by another process: {e}") from e
            raise
        try:
            yield
        finally:
            task = asyncio.ensure_future(locks.release(conn))
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    @property
    def ratings(self) -> PgRatings:
        return self._ratings

    async def close(self) -> None:
        if self._releasing:  # the matches' locks still being given back
            await asyncio.gather(*self._releasing, return_exceptions=True)
        try:
            if self.locks is not None:
                await self.locks.close()
        finally:
            await self.pool.close()

    # ------------------------------------------------------------------ reads
    async def match(self, match_id: int) -> MatchRow | None:
        r = await self.db.fetchrow("SELECT * FROM matches WHERE id = $1", match_id)
        return None if r is None else MatchRow.from_row(r)

    async def open_match(self, channel_id: int) -> MatchRow | None:
        r = await self.db.fetchrow(
            "SELECT * FROM matches WHERE channel_id = $1 AND status IN ('lobby', 'active')",
            channel_id,
        )
        return None if r is None else MatchRow.from_row(r)

    async def matches_with_status(self, status: str) -> list[MatchRow]:
        rows = await self.db.fetch("SELECT * FROM matches WHERE status = $1 ORDER BY id", status)
        return [MatchRow.from_row(r) for r in rows]

    async def matches_in_channel(self, channel_id: int, *, limit: int = -1) -> list[MatchRow]:
        rows = await self.db.fetch(
            "SELECT * FROM matches WHERE channel_id = $1 ORDER BY id DESC LIMIT $2",
            channel_id,
            None if limit < 0 else limit,
        )
        return [MatchRow.from_row(r) for r in rows]

    async def seats(self, match_id: int) -> list[SeatRow]:
        return [_seat(r) for r in await self.db.fetch(_SEATS, match_id)]

    async def load_match(self, match_id: int) -> Found | None:
        """The row and its seats in one statement (one snapshot, one round trip)."""
        return _found_row(await self.db.fetchrow(f"{_WITH_SEATS} WHERE m.id = $1", match_id))

    async def load_open_match(self, channel_id: int) -> Found | None:
        return _found_row(
            await self.db.fetchrow(
                f"{_WITH_SEATS} WHERE m.channel_id = $1 AND m.status IN ('lobby', 'active')",
                channel_id,
            )
        )

    async def log_entries(self, match_id: int) -> list[ActionRow]:
        rows = await self.db.fetch(
            "SELECT match_id, seq, seat, action, visibility, created_at FROM actions"
            " WHERE match_id = $1 ORDER BY seq",
            match_id,
        )
        return [ActionRow(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    async def guild_defaults(self, guild_id: int) -> dict[str, Any]:
        v = await self.db.fetchval(
            "SELECT defaults_json FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return {} if v is None else dict(loads(v))

    async def is_dm_closed(self, user_id: int) -> bool:
        return (
            await self.db.fetchrow("SELECT 1 FROM dm_closed WHERE user_id = $1", user_id)
            is not None
        )

    async def dm_closed_among(self, user_ids: list[int]) -> set[int]:
        if not user_ids:
            return set()
        rows = await self.db.fetch(
            "SELECT user_id FROM dm_closed WHERE user_id = ANY($1::bigint[])", user_ids
        )
        return {int(r[0]) for r in rows}

    async def quiet_players(self) -> set[int]:
        return {int(r[0]) for r in await self.db.fetch("SELECT user_id FROM quiet_players")}

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
        now = time.time()
        try:
            async with self.db.transaction() as conn:
                match_id = int(
                    await conn.fetchval(
                        "INSERT INTO matches (guild_id, channel_id, game, status, host_id,"
                        " version, options_json, seed, created_at, updated_at)"
                        " VALUES ($1, $2, $3, 'lobby', $4, 0, $5, $6, $7, $7) RETURNING id",
                        guild_id,
                        channel_id,
                        game,
                        host_id,
                        dumps(options),
                        seed,
                        now,
                    )  # fmt: skip
                )
                await conn.execute(
                    "INSERT INTO match_seats (match_id, join_order, user_id, name)"
                    " VALUES ($1, 0, $2, $3)",
                    match_id,
                    host_id,
                    host_name,
                )
        except asyncpg.UniqueViolationError as e:
            raise ChannelBusy("a match is already open in this channel") from e
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
        async with self.db.transaction() as conn:
            found = await _lock(conn, match_id, "status, options_json")
            if found is None or found[0] != "lobby":
                raise LobbyClosed("the match is no longer a lobby")
            if callable(capacity):
                capacity = capacity(loads(found[1]) or {})
            seated = [r[0] for r in await conn.fetch(
                "SELECT user_id FROM match_seats WHERE match_id = $1", match_id
            )]  # fmt: skip
            if user_id in seated:
                raise AlreadySeated("already joined")
            if len(seated) >= capacity:
                raise LobbyFull(len(seated), capacity)
            await conn.execute(
                "INSERT INTO match_seats (match_id, join_order, user_id, name, controller)"
                " VALUES ($1, (SELECT COALESCE(MAX(join_order), -1) + 1 FROM match_seats"
                "              WHERE match_id = $1), $2, $3, $4)",
                match_id,
                user_id,
                name,
                controller,
            )
            return len(seated) + 1

    async def remove_seats(
        self,
        match_id: int,
        user_ids: Sequence[int],
        *,
        abandon: bool = False,
        new_host: int | None = None,
    ) -> None:
        async with self.db.transaction() as conn:
            await _lock(conn, match_id)
            await conn.execute(
                "DELETE FROM match_seats WHERE match_id = $1 AND user_id = ANY($2::bigint[])"
                " AND seat IS NULL",
                match_id,
                list(user_ids),
            )
            if abandon:
                await conn.execute(
                    "UPDATE matches SET status = 'abandoned', updated_at = $2 WHERE id = $1",
                    match_id,
                    time.time(),
                )
            elif new_host is not None:
                await conn.execute(
                    "UPDATE matches SET host_id = $2, updated_at = $3 WHERE id = $1",
                    match_id,
                    new_host,
                    time.time(),
                )

    async def set_lobby_options(self, match_id: int, options: dict[str, Any]) -> bool:
        status = await self.db.execute(
            "UPDATE matches SET options_json = $2, updated_at = $3"
            " WHERE id = $1 AND status = 'lobby'",
            match_id,
            dumps(options),
            time.time(),
        )
        return count(status) == 1

    async def abandon_match(self, match_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE matches SET status = 'abandoned', updated_at = $2 WHERE id = $1",
                match_id,
                time.time(),
            )
            await conn.execute("DELETE FROM timers WHERE match_id = $1 AND sent = 0", match_id)

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
        if compact:
            snapshot = compact_snapshot(snapshot, final=False)
        async with self.db.transaction() as conn:
            status = await conn.execute(
                "UPDATE matches SET status = 'active', version = 0, setup_json = $2,"
                " snapshot_json = $3, updated_at = $4 WHERE id = $1 AND status = 'lobby'",
                match_id,
                dumps(setup),
                dumps(snapshot),
                time.time(),
            )
            if count(status) != 1:
                raise StaleVersion("the match is no longer a lobby")
            seated = await conn.fetch(
                "SELECT user_id FROM match_seats WHERE match_id = $1", match_id
            )
            if sorted(r[0] for r in seated) != sorted(seat_order):
                raise StaleVersion("the lobby's players changed")
            await conn.executemany(
                "UPDATE match_seats SET seat = $3 WHERE match_id = $1 AND user_id = $2",
                [(match_id, user_id, seat) for seat, user_id in enumerate(seat_order)],
            )
            if timers:
                await write_timers(conn, match_id, timers)

    async def set_lobby_message(self, match_id: int, message_id: int) -> None:
        await self.db.execute(
            "UPDATE matches SET lobby_message_id = $2 WHERE id = $1", match_id, message_id
        )

    async def set_turn_message(self, match_id: int, version: int, message_id: int) -> bool:
        status = await self.db.execute(
            "UPDATE matches SET turn_message_id = $2, turn_message_version = $3"
            " WHERE id = $1 AND COALESCE(turn_message_version, -1) <= $3",
            match_id,
            message_id,
            version,
        )
        return count(status) == 1

    async def put_guild_defaults(self, guild_id: int, defaults: dict[str, Any]) -> None:
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, defaults_json, updated_at)"
            " VALUES ($1, $2, $3) ON CONFLICT (guild_id) DO UPDATE SET"
            " defaults_json = excluded.defaults_json, updated_at = excluded.updated_at",
            guild_id,
            dumps(defaults),
            time.time(),
        )

    async def set_quiet(self, user_id: int, quiet: bool) -> None:
        async with self.db.transaction() as conn:
            if quiet:
                await conn.execute(
                    "INSERT INTO quiet_players (user_id, set_at) VALUES ($1, $2)"
                    " ON CONFLICT (user_id) DO NOTHING",
                    user_id,
                    time.time(),
                )
            else:
                await conn.execute("DELETE FROM quiet_players WHERE user_id = $1", user_id)

    async def note_dm_closed(self, user_id: int, now: float | None = None) -> bool:
        status = await self.db.execute(
            "INSERT INTO dm_closed (user_id, noted_at) VALUES ($1, $2)"
            " ON CONFLICT (user_id) DO NOTHING",
            user_id,
            float(time.time() if now is None else now),
        )
        return count(status) == 1

    # ------------------------------------------------------------------ match writes
    async def commit_move(self, c: MoveCommit) -> Found:
        """Store one move (see :meth:`storage.units.Units.commit_move`): the compare-and-set
        on the version locks the match's row, so two processes storing the same move
        serialise and the second finds the version moved on.

        Raises:
            StaleVersion: the match is not at ``expected_version`` (or not active), or its log
                has one of the entries already: nothing was written.
            StorageBusy: the row stayed locked past the lock timeout, or the server is away.
        """
        if c.status is not None and c.status not in STATUSES:
            raise ValueError(f"unknown status {c.status!r}")
        snap = dumps(compact_snapshot(c.snapshot, final=c.status in ENDED_STATUSES))
        now = time.time()
        if c.result is None:  # every move but a match's last: one round trip
            return await commit_in_one_statement(self.db, c, snap, now)
        async with self.db.transaction() as conn:
            # the compare-and-set locks the row: a second writer waits for this commit, then
            # finds the version moved on (READ COMMITTED re-reads the row it waited for)
            row = await conn.fetchrow(
                "UPDATE matches SET version = $2, snapshot_json = $3, updated_at = $4,"
                " status = COALESCE($5, status)"
                " WHERE id = $1 AND version = $6 AND status = 'active' RETURNING *",
                c.match_id, c.new_version, snap, now, c.status, c.expected_version,
            )  # fmt: skip
            if row is None:
                raise StaleVersion(f"match {c.match_id} is not at version {c.expected_version}")
            try:
                await conn.executemany(
                    "INSERT INTO actions (match_id, seq, seat, action, visibility, created_at)"
                    " VALUES ($1, $2, $3, $4, $5, $6)",
                    [(c.match_id, e.seq, e.seat, e.action, e.visibility, now) for e in c.entries],
                )
            except asyncpg.UniqueViolationError as e:
                raise StaleVersion(
                    f"action log of match {c.match_id} already has that entry"
                ) from e
            seat_updates = (
                ("UPDATE match_seats SET resigned = 1 WHERE match_id = $1 AND seat = $2", c.resigned),
                ("UPDATE match_seats SET missed = 0 WHERE match_id = $1 AND seat = $2 AND missed > 0", c.moved),
                ("UPDATE match_seats SET missed = missed + 1 WHERE match_id = $1 AND seat = $2", c.missed),
            )  # fmt: skip
            for sql, which in seat_updates:
                if which:
                    await conn.executemany(sql, [(c.match_id, s) for s in which])
            if c.timers is not None:
                await write_timers(conn, c.match_id, c.timers)
            elif c.timer == "cancel":
                await conn.execute(
                    "DELETE FROM timers WHERE match_id = $1 AND sent = 0", c.match_id
                )
            elif isinstance(c.timer, Reminder):
                t = c.timer
                await conn.execute(
                    UPSERT_TIMER, c.match_id, float(t.fires_at), t.kind, t.user_id, t.version
                )
            if c.result is not None:
                await write_result(conn, c.result)
            seats = [_seat(r) for r in await conn.fetch(_SEATS, c.match_id)]
        return MatchRow.from_row(row), seats

    async def add_vote(self, match_id: int, target_id: int, version: int, voter_id: int) -> int:
        """One statement: the match's votes of other versions dropped, this vote added once,
        and the count (the statement's snapshot does not see its own insert: added to it)."""
        return int(
            await self.db.fetchval(
                "WITH gone AS (DELETE FROM seat_votes WHERE match_id = $1 AND version <> $3),"
                " cast_ AS (INSERT INTO seat_votes"
                " (match_id, target_id, version, voter_id, voted_at)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1)"
                " SELECT (SELECT count(*) FROM seat_votes"
                " WHERE match_id = $1 AND target_id = $2 AND version = $3)"
                " + (SELECT count(*) FROM cast_)",
                match_id,
                target_id,
                version,
                voter_id,
                time.time(),
            )
        )

    async def clear_votes(self, match_id: int, target_id: int) -> None:
        await self.db.execute(
            "DELETE FROM seat_votes WHERE match_id = $1 AND target_id = $2", match_id, target_id
        )

    async def claim_private_sends(
        self, match_id: int, sends: Sequence[tuple[int, str]]
    ) -> set[tuple[int, str]]:
        if not sends:
            return set()
        rows = await self.db.fetch(
            "INSERT INTO private_sends (match_id, user_id, decision_key, sent_at)"
            " SELECT $1, x.u, x.k, $4 FROM unnest($2::bigint[], $3::text[]) AS x(u, k)"
            " ON CONFLICT DO NOTHING RETURNING user_id, decision_key",
            match_id,
            [u for u, _ in sends],
            [k for _, k in sends],
            time.time(),
        )
        return {(int(r[0]), str(r[1])) for r in rows}

    async def set_controller(self, match_id: int, user_id: int, controller: str | None) -> bool:
        status = await self.db.execute(
            "UPDATE match_seats SET controller = $3 WHERE match_id = $1 AND user_id = $2",
            match_id,
            user_id,
            controller,
        )
        return count(status) > 0
