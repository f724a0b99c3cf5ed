"""PostgreSQL schema migrations: ``storage/postgres/migrations/NNNN_name.sql``, applied once.

The same bookkeeping as SQLite's (:mod:`storage.migrate`): a ``schema_migrations`` row per
applied file, written in the transaction of the file itself. Several processes starting at
once against one server take turns through a transaction-scoped advisory lock, so each file
runs once; a database with a version this code does not know is refused.
"""

from __future__ import annotations

import time
from pathlib import Path

import asyncpg

from storage.migrate import MigrationError, available_migrations
from storage.postgres.connection import PgConn

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
#: the advisory lock key that serialises migrations (any constant shared by all processes)
MIGRATION_LOCK = 0x0CA2CA_B07


async def migrate(conn: PgConn, folder: Path = MIGRATIONS_DIR) -> list[int]:
    """Apply every migration not applied yet; the versions applied now (idempotent).

    Raises:
        MigrationError: a migration failed (nothing of it stays) or the database is newer.
    """
    migrations = available_migrations(folder)
    known = {m.version for m in migrations}
    applied: list[int] = []
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at DOUBLE PRECISION NOT NULL)"
        )
        done = {int(r[0]) for r in await conn.fetch("SELECT version FROM schema_migrations")}
        unknown = sorted(done - known)
        if unknown:
            raise MigrationError(
                f"the database has schema version {unknown[-1]}, newer than this code knows; "
                "upgrade Carcabot"
            )
        for m in migrations:
            if m.version in done:
                continue
            try:
                async with conn.transaction():  # a savepoint: the file and its row, or neither
                    await conn.execute(m.sql)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at)"
                        " VALUES ($1, $2, $3)",
                        m.version,
                        m.name,
                        time.time(),
                    )
            except asyncpg.PostgresError as e:
                raise MigrationError(f"migration {m.version:04d}_{m.name} failed: {e}") from e
            applied.append(m.version)
    return applied
