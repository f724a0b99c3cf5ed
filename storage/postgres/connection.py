"""The connection pool of the PostgreSQL backend and its error mapping.

One :class:`asyncpg.Pool` per process. Every whole operation takes one connection for its
transaction and gives it back; no statement of another coroutine runs on it meanwhile, and
asyncpg rolls back a transaction whose task was cancelled before the connection returns to the
pool. A lock the server could not grant in time, a deadlock or a lost connection is
:class:`~storage.errors.StorageBusy` (nothing of the operation was written), like SQLite's busy
file.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from storage.errors import StorageBusy

#: a connection of the pool (as a transaction yields it), or one opened on its own
PgConn: TypeAlias = "asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]"

#: the transient failures a caller may simply try again
BUSY_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.LockNotAvailableError,
    asyncpg.exceptions.QueryCanceledError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.CannotConnectNowError,
    ConnectionError,
)
#: how long one statement may wait for a row lock before the operation gives up (ms)
LOCK_TIMEOUT_MS = 5_000


def count(status: str) -> int:
    """The row count of a command tag (``"UPDATE 1"``, ``"INSERT 0 1"``, ``"DELETE 3"``)."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0


async def _keep(conn: PgConn) -> None:
    """Give a connection back as it is: no reset query (one round trip less per operation).
    asyncpg still rolls back a transaction left open; the operations set nothing else."""


async def create_pool(
    url: str, *, min_size: int = 1, max_size: int = 10, reset: bool = False
) -> asyncpg.Pool:
    """A pool on ``url`` whose connections wait at most :data:`LOCK_TIMEOUT_MS` for a lock
    (a setting of the session itself, which a reset keeps). ``reset``: asyncpg's full reset
    of a connection given back (session advisory locks dropped), else none."""
    pool = await asyncpg.create_pool(
        url,
        min_size=min_size,
        max_size=max_size,
        server_settings={"lock_timeout": str(LOCK_TIMEOUT_MS)},
        reset=None if reset else _keep,
    )
    assert pool is not None
    return pool


class Connections:
    """Transactions and reads on a pool, failures mapped to the storage errors."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @asynccontextmanager
    async def transaction(self, **options: Any) -> AsyncIterator[PgConn]:
        """One connection in one transaction: committed at the end, rolled back on any error.

        Raises:
            StorageBusy: a lock wait ran out, a deadlock, or the server was unreachable.
        """
        try:
            async with self.pool.acquire() as conn, conn.transaction(**options):
                yield conn
        except BUSY_ERRORS as e:
            raise StorageBusy(f"the database could not take the write now: {e}") from e

    async def execute(self, sql: str, *args: Any) -> str:
        """One statement on its own (atomic by itself: no transaction round trips); its tag.

        Raises:
            StorageBusy: as :meth:`transaction`.
        """
        try:
            return await self.pool.execute(sql, *args)
        except BUSY_ERRORS as e:
            raise StorageBusy(f"the database could not take the write now: {e}") from e

    async def fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        try:
            return list(await self.pool.fetch(sql, *args))
        except BUSY_ERRORS as e:
            raise StorageBusy(f"the database could not be read now: {e}") from e

    async def fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        try:
            return await self.pool.fetchrow(sql, *args)
        except BUSY_ERRORS as e:
            raise StorageBusy(f"the database could not be read now: {e}") from e

    async def fetchval(self, sql: str, *args: Any) -> Any:
        try:
            return await self.pool.fetchval(sql, *args)
        except BUSY_ERRORS as e:
            raise StorageBusy(f"the database could not be read now: {e}") from e
