"""The storage backends under test: a real SQLite file, and a real PostgreSQL server that the
session starts itself (tests/pgserver.py); each test gets a fresh database of either."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from storage.copy import TABLES
from storage.port import Store
from storage.postgres import PgStorage, migrate
from storage.postgres.admin import create_database
from storage.store import Storage
from tests.pgserver import DATABASE, Server


async def _template(server: Server) -> None:
    await create_database(server.url(), DATABASE)
    conn = await asyncpg.connect(server.url(DATABASE))
    try:
        await migrate(conn)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    """One PostgreSQL server for the whole session, with one migrated database."""
    server = Server().start()
    try:
        asyncio.run(_template(server))
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: Server) -> str:
    """The URL of the session's migrated database, emptied of every row (ids start again)."""
    tables = ", ".join(name for name, _, _ in TABLES)
    pg_server.sql(DATABASE, f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    return pg_server.url(DATABASE)


@pytest.fixture(params=["sqlite", "sqlite-writer", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """``sqlite-writer``: the file opened as the bot opens it, holding its writer lock, so the
    storage keeps what it read until it writes (storage/foundcache.py)."""
    return str(request.param)


@pytest.fixture
def store_target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """Where the backend under test keeps its data: a SQLite file, or a PostgreSQL URL (the
    server starts with the first test that needs it)."""
    if backend.startswith("sqlite"):
        return str(tmp_path / "contract.sqlite3")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def store(store_target: str, backend: str) -> AsyncIterator[Store]:
    s: Store
    if backend.startswith("sqlite"):
        s = await Storage.open(store_target, writer=backend == "sqlite-writer")
    else:
        s = await PgStorage.open(store_target)
    try:
        yield s
    finally:
        await s.close()
