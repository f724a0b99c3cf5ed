"""One SQLite connection per process, opened for safe concurrent use from asyncio.

ECOSYSTEM.md §3 / R-04: autocommit mode (``isolation_level=None``) so no statement opens a hidden
transaction that another coroutine could commit; every multi-statement write runs in
:meth:`Database.transaction` (``BEGIN IMMEDIATE`` ... ``COMMIT``/``ROLLBACK``) under one
``asyncio.Lock``. WAL journal, ``synchronous=NORMAL``, foreign keys on. aiosqlite's worker
thread is not a daemon: always :meth:`Database.close` (or use ``async with``).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosqlite

from storage.migrate import migrate

DEFAULT_PATH = Path("data/carcabot.sqlite3")


def database_path(env: dict[str, str] | None = None) -> Path:
    """The database file named by ``DATABASE_PATH`` (default ``data/carcabot.sqlite3``)."""
    source = os.environ if env is None else env
    raw = source.get("DATABASE_PATH", "").strip()
    return Path(raw) if raw else DEFAULT_PATH


class Database:
    """An open, migrated SQLite database. SQL lives in :mod:`storage.repositories`."""

    def __init__(self, conn: aiosqlite.Connection, path: Path | str) -> None:
        self.conn = conn
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str, *, run_migrations: bool = True) -> Database:
        """Open (creating the file and its parent folder) and migrate the database at ``path``.

        ``":memory:"`` opens a private in-memory database (WAL does not apply there).
        """
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None, timeout=5.0)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            if run_migrations:
                await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path)

    async def close(self) -> None:
        await self.conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; any exception rolls everything back and re-raises.

        Never await Discord (or anything slow) inside: the write lock is held throughout.
        """
        async with self._write_lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            else:
                await self.conn.execute("COMMIT")

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self.conn.execute(sql, tuple(params)) as cur:
            row: aiosqlite.Row | None = await cur.fetchone()
            return row

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self.conn.execute(sql, tuple(params)) as cur:
            return list(await cur.fetchall())

    async def pragma(self, name: str) -> Any:
        """The value of ``PRAGMA name`` (for checks and tests)."""
        row = await self.fetchone(f"PRAGMA {name}")
        return None if row is None else row[0]
