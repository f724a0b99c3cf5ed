"""The database of one process: a writer connection, a reader connection, safe transactions.

ECOSYSTEM.md §3 / R-04: autocommit mode (``isolation_level=None``) so no statement opens a hidden
transaction that another coroutine could commit; every multi-statement write runs in
:meth:`Database.transaction` (``BEGIN IMMEDIATE`` ... ``COMMIT``/``ROLLBACK``) under one
``asyncio.Lock``. WAL journal, foreign keys on, ``synchronous=FULL`` (an acknowledged move
survives a power cut; BENCHMARKS.md "Storage" has the cost). aiosqlite's worker threads are not
daemons: always :meth:`Database.close` (or use ``async with``).

Holding up under a second process on the same file:

- **Busy:** a write waits for the file's write lock in short attempts (``busy_timeout``) with
  backoff between them, up to :data:`WRITE_DEADLINE` seconds, then raises
  :class:`~storage.errors.StorageBusy`; no raw "database is locked" leaves this module.
- **No stale snapshot:** reads outside a transaction go to a second, read-only connection and
  are fetched whole in one step, so no read keeps a snapshot open while someone writes, and a
  read never sees another coroutine's uncommitted transaction. Reads made inside a transaction
  (same task) use the writer connection and see that transaction's own writes.
- **Cancellation:** :meth:`Database.transaction` always ends in ``COMMIT`` or ``ROLLBACK``, even
  when the awaiting task is cancelled at any of its awaits; each ``BEGIN``/``COMMIT``/
  ``ROLLBACK`` runs to its end and the cancellation is re-raised afterwards.
- **One writer process:** ``Database.open(path, writer=True)`` first takes the file's writer
  lock (:mod:`storage.lock`) and refuses with :class:`~storage.errors.DatabaseInUse`.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import random
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TypeVar

import aiosqlite

from storage.awaits import finish
from storage.errors import StorageBusy
from storage.groupcommit import GroupWriter, Work, run_batch
from storage.groupcommit import in_transaction as _in_transaction
from storage.lock import WriterLock
from storage.migrate import migrate

DEFAULT_PATH = Path("data/carcabot.sqlite3")
#: the durability of a commit: FULL syncs the WAL at every commit (survives a power cut)
SYNCHRONOUS: Literal["NORMAL", "FULL"] = "FULL"
#: how long SQLite itself waits for a lock in one attempt (the worker thread blocks meanwhile)
BUSY_TIMEOUT_MS = 200
#: how long a write (or a read) may wait in all for the database before StorageBusy
WRITE_DEADLINE = 5.0
#: how long opening (WAL switch, migrations) may wait for another process's write
OPEN_BUSY_TIMEOUT_MS = 10_000

log = logging.getLogger(__name__)
T = TypeVar("T")
W = TypeVar("W")
#: the Database whose transaction the current task is inside (reads then use its connection)
_IN_TX: contextvars.ContextVar[Database | None] = contextvars.ContextVar(
    "storage_in_transaction", default=None
)


def database_path(env: dict[str, str] | None = None) -> Path:
    """The database file named by ``DATABASE_PATH`` (default ``data/carcabot.sqlite3``)."""
    source = os.environ if env is None else env
    raw = source.get("DATABASE_PATH", "").strip()
    return Path(raw) if raw else DEFAULT_PATH


def is_busy(e: BaseException) -> bool:
    """True for SQLite's "database is locked" (SQLITE_BUSY and its extended codes)."""
    if not isinstance(e, sqlite3.OperationalError):
        return False
    code: int | None = getattr(e, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF == sqlite3.SQLITE_BUSY
    return "database is locked" in str(e).lower()


def _backoff(attempt: int) -> float:
    """Seconds to sleep before retry ``attempt`` (1, 2, ...): 5 ms doubling to 100 ms, jittered."""
    return min(0.005 * 2.0 ** (attempt - 1), 0.1) * random.uniform(0.5, 1.0)


async def _connect(path: str, *, busy_ms: int, read_only: bool) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None, timeout=busy_ms / 1000)
    try:
        conn.row_factory = aiosqlite.Row
        await conn.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        if read_only:
            await conn.execute("PRAGMA query_only=ON")
    except BaseException:
        await conn.close()
        raise
    return conn


@dataclass(frozen=True, slots=True)
class Wrote:
    """What a write may have changed of the match rows and their seats, as the write listeners
    are told: one match (``match_id``), the open match of one channel (``channel_id``), none
    (``rows=False``: other tables only), or with neither named, anything."""

    match_id: int | None = None
    channel_id: int | None = None
    rows: bool = True

    @property
    def anything(self) -> bool:
        return self.rows and self.match_id is None and self.channel_id is None


class Database:
    """An open, migrated SQLite database. SQL lives in :mod:`storage.repositories`.

    ``conn`` is the writer connection (transactions, pragmas, migrations). Reads go to a
    read-only second connection (``:memory:`` has only the one).
    """

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: Path | str,
        *,
        reader: aiosqlite.Connection | None = None,
        lock: WriterLock | None = None,
        write_deadline: float = WRITE_DEADLINE,
    ) -> None:
        self.conn = conn
        self.path = path
        self.reader = reader
        #: told after each write of this process, committed or not, what it may have changed
        #: (:class:`Wrote`); :class:`storage.foundcache.FoundCache` forgets by it
        self.write_listeners: list[Callable[[Wrote], None]] = []
        self.lock = lock
        self.write_deadline = write_deadline
        self._write_lock = asyncio.Lock()
        #: the writes of :meth:`write`, run in batches (storage/groupcommit.py)
        self.group = GroupWriter(self._run_batch, self._run_alone, self._wrote, self._write_lock)

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        run_migrations: bool = True,
        writer: bool = False,
        synchronous: Literal["NORMAL", "FULL", "EXTRA"] = SYNCHRONOUS,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        write_deadline: float = WRITE_DEADLINE,
    ) -> Database:
        """Open (creating the file and its parent folder) and migrate the database at ``path``.

        ``writer=True`` first claims the file's writer lock: use it in the processes that serve
        players (the bot, the local table); tools and tests that only read leave it off.
        ``":memory:"`` opens a private in-memory database (WAL and the lock do not apply).

        Raises:
            DatabaseInUse: ``writer`` and another process holds the writer lock.
            MigrationError: the schema cannot be brought up to date.
        """
        memory = str(path) == ":memory:"
        if synchronous not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"unknown synchronous level {synchronous!r}")
        if not memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        lock = WriterLock.acquire(path) if writer and not memory else None
        conn = reader = None
        try:
            conn = await _connect(str(path), busy_ms=OPEN_BUSY_TIMEOUT_MS, read_only=False)
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute(f"PRAGMA synchronous={synchronous}")
            await conn.execute("PRAGMA foreign_keys=ON")
            if run_migrations:
                await migrate(conn)
            await conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            if not memory:
                reader = await _connect(str(path), busy_ms=busy_timeout_ms, read_only=True)
        except BaseException:
            for c in (reader, conn):
                if c is not None:
                    await c.close()
            if lock is not None:
                lock.release()
            raise
        return cls(conn, path, reader=reader, lock=lock, write_deadline=write_deadline)

    async def close(self) -> None:
        """Run the writes still queued, close both connections, then give the writer lock up.
        Idempotent."""
        try:
            await self.group.drained()
        finally:
            await self._close()

    async def _close(self) -> None:
        try:
            if self.reader is not None:
                await self.reader.close()
        finally:
            try:
                await self.conn.close()
            finally:
                if self.lock is not None:
                    self.lock.release()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # ------------------------------------------------------------------ writes
    @asynccontextmanager
    async def transaction(self, wrote: Wrote = Wrote()) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; any exception rolls everything back and re-raises.
        ``wrote``: what it may change of the match rows and seats (the write listeners are told;
        by default, anything).

        Always ends committed or rolled back, whatever is cancelled where. Never await Discord
        (or anything slow) inside: the write lock is held throughout.

        Raises:
            StorageBusy: another process kept the write lock past the deadline (nothing written).
        """
        if _IN_TX.get() is self:
            raise RuntimeError("transactions do not nest")
        async with self._write_lock:
            await self._begin()
            token = _IN_TX.set(self)
            try:
                try:
                    yield self.conn
                except sqlite3.OperationalError as e:
                    if is_busy(e):
                        raise StorageBusy(
                            "another process kept the database locked; nothing was written"
                        ) from e
                    raise
                await self._commit()
            finally:
                try:
                    _IN_TX.reset(token)
                except ValueError:  # finalised from another context (a collected generator)
                    _IN_TX.set(None)
                try:
                    if self.conn.in_transaction:
                        await finish(self._exec("ROLLBACK"))
                finally:  # told even if cancelled here (a commit may have landed before)
                    self._wrote(wrote)

    def _wrote(self, wrote: Wrote) -> None:
        for listener in self.write_listeners:
            listener(wrote)

    @property
    def only_writer(self) -> bool:
        """Whether no one else writes this database: this process holds the file's writer
        lock, or the database is a private ``:memory:`` one."""
        return self.lock is not None or str(self.path) == ":memory:"

    def in_transaction(self) -> bool:
        """Whether the current task is inside a :meth:`transaction` of this database (its
        reads then see its own uncommitted writes)."""
        return _IN_TX.get() is self

    async def _exec(self, sql: str) -> None:
        await self.conn.execute(sql)

    async def _begin(self) -> None:
        """``BEGIN IMMEDIATE``, retried while the file is busy; open on return, else not."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.write_deadline
        await self._rollback_left_open()
        attempt = 0
        while True:
            attempt += 1
            try:
                await finish(self._exec("BEGIN IMMEDIATE"))
                return
            except asyncio.CancelledError:
                if self.conn.in_transaction:  # BEGIN got through before the cancel landed
                    await finish(self._exec("ROLLBACK"))
                raise
            except sqlite3.OperationalError as e:
                if not is_busy(e):
                    raise
                if loop.time() >= deadline:
                    raise StorageBusy(
                        f"another process held the database's write lock for over "
                        f"{self.write_deadline:g} s; nothing was written"
                    ) from None
            await asyncio.sleep(_backoff(attempt))

    async def _commit(self) -> None:
        """``COMMIT``, retried while busy (the transaction stays open until it succeeds)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.write_deadline
        attempt = 0
        while True:
            attempt += 1
            try:
                await finish(self._exec("COMMIT"))
                return
            except sqlite3.OperationalError as e:
                if not is_busy(e) or not self.conn.in_transaction:
                    raise
                if loop.time() >= deadline:
                    raise StorageBusy(
                        "the database stayed locked at commit; the write was rolled back"
                    ) from None
            await asyncio.sleep(_backoff(attempt))

    # ------------------------------------------------------------------ units of work
    async def write(
        self,
        work: Callable[[sqlite3.Connection], T],
        wrote: Wrote = Wrote(),
        then: Callable[[T], None] | None = None,
    ) -> T:
        """Run ``work(conn)`` as one transaction in **one** trip to the writer's thread.

        ``BEGIN IMMEDIATE``, every statement of ``work`` and ``COMMIT`` (or ``ROLLBACK`` when
        it raises) run back to back on the connection's own thread, so a move costs one
        hand-over between the event loop and SQLite instead of one per statement (each about
        0.3 ms through aiosqlite against a few µs in sqlite3); the writes that queue meanwhile
        share the next trip and its ``COMMIT``, each in a savepoint of its own
        (:mod:`storage.groupcommit`: answered only once committed, one's failure never
        another's). ``work`` is plain synchronous
        sqlite3 code; it must not touch the event loop. A busy file is retried with backoff up
        to the write deadline (the whole unit again: nothing of a failed try stays), then
        :class:`~storage.errors.StorageBusy`. Like :meth:`transaction`: serialised with every
        other write of this process, never left open whatever is cancelled. ``wrote``: what
        ``work`` may change of the match rows and seats (as :meth:`transaction`); ``then(result)``
        runs once it committed, right after the write listeners were told of it and before they
        are told of any later write (a cache that keeps what was written stays in commit order).
        """
        if _IN_TX.get() is self:
            raise RuntimeError("transactions do not nest")
        return await self.group.write(work, wrote, then)

    async def _run_batch(self, works: list[Work]) -> list[Any]:
        """One trip of the group writer: every work in one transaction (write lock held)."""
        await self._rollback_left_open()
        return await self._retry_busy(self.conn, run_batch, works, "written")

    async def _run_alone(self, work: Work) -> Any:
        """One work in a transaction of its own (write lock held)."""
        await self._rollback_left_open()
        return await self._retry_busy(self.conn, _in_transaction, work, "written")

    async def _rollback_left_open(self) -> None:
        if self.conn.in_transaction:  # left open by raw use of ``conn``: never build on it
            log.warning("a transaction was left open on the database connection; rolled back")
            await finish(self._exec("ROLLBACK"))

    async def read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work(conn)`` on the reader connection's thread in one trip: several queries
        answered by one hand-over, all seeing the same commit (inside a transaction of this
        task: on the writer, seeing its own writes). ``work`` must read only and fetch whole
        (no cursor may outlive it).

        Raises:
            StorageBusy: the database stayed locked past the deadline.
        """
        return await self._retry_busy(self._read_conn(), _snapshot, work, "read")

    async def _retry_busy(
        self,
        conn: aiosqlite.Connection,
        wrap: Callable[[sqlite3.Connection, W], T],
        work: W,
        what: str,
    ) -> T:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.write_deadline
        attempt = 0
        while True:
            attempt += 1
            try:
                # aiosqlite has no public "run this on your thread"; ``_execute`` is how its
                # own methods do it (0.20-0.22), and ``_conn`` is its sqlite3 connection
                return await finish(conn._execute(wrap, conn._conn, work))  # type: ignore[no-untyped-call]
            except sqlite3.OperationalError as e:
                if not is_busy(e):
                    raise
                if loop.time() >= deadline:
                    raise StorageBusy(
                        f"another process kept the database locked; nothing was {what}"
                    ) from None
            await asyncio.sleep(_backoff(attempt))

    # ------------------------------------------------------------------ reads
    def _read_conn(self) -> aiosqlite.Connection:
        if self.reader is None or _IN_TX.get() is self:
            return self.conn
        return self.reader

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        """Every row of a query, fetched in one step on the worker thread (the statement is
        done before this returns, so no snapshot stays open, cancelled or not).

        Raises:
            StorageBusy: the database stayed locked past the deadline.
        """
        conn = self._read_conn()
        args = tuple(params)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.write_deadline
        attempt = 0
        while True:
            attempt += 1
            try:
                return list(await conn.execute_fetchall(sql, args))
            except sqlite3.OperationalError as e:
                if not is_busy(e):
                    raise
                if loop.time() >= deadline:
                    raise StorageBusy(
                        "another process kept the database locked; nothing could be read"
                    ) from None
            await asyncio.sleep(_backoff(attempt))

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        """The first row of a query (fetched like :meth:`fetchall`), or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def pragma(self, name: str) -> Any:
        """The value of ``PRAGMA name`` on the writer connection (for checks and tests)."""
        rows = list(await self.conn.execute_fetchall(f"PRAGMA {name}"))
        return rows[0][0] if rows else None


def _snapshot(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work`` in one read transaction, so that all its queries see the same commit (inside a
    transaction already open on this connection: in that one)."""
    if conn.in_transaction:
        return work(conn)
    conn.execute("BEGIN")
    try:
        return work(conn)
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")
