"""Versioned schema migrations: ``storage/migrations/NNNN_name.sql``, applied in order, once.

Each applied file is recorded in ``schema_migrations(version, name, applied_at)``. A migration
runs in one ``BEGIN IMMEDIATE`` ... ``COMMIT`` script together with its bookkeeping row, so a
failing statement leaves neither the schema change nor the row. A database that already has a
version this code does not know is refused (it was written by a newer Carcabot).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class MigrationError(RuntimeError):
    """The schema cannot be brought up to date; the message says why."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def available_migrations(folder: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Every ``NNNN_name.sql`` in ``folder``, sorted by version."""
    out = []
    for path in sorted(folder.glob("*.sql")):
        m = _NAME.match(path.name)
        if m is None:
            raise MigrationError(f"migration file name not understood: {path.name}")
        out.append(Migration(int(m.group(1)), m.group(2), path.read_text(encoding="utf-8")))
    versions = [m.version for m in out]
    if len(set(versions)) != len(versions):
        raise MigrationError("two migration files share a version number")
    return out


async def applied_versions(conn: aiosqlite.Connection) -> list[int]:
    async with conn.execute("SELECT version FROM schema_migrations ORDER BY version") as cur:
        return [int(r[0]) for r in await cur.fetchall()]


async def migrate(conn: aiosqlite.Connection, folder: Path = MIGRATIONS_DIR) -> list[int]:
    """Apply every migration not yet applied; return the versions applied now (idempotent).

    Raises:
        MigrationError: a migration failed (nothing of it stays) or the database is newer.
    """
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    migrations = available_migrations(folder)
    known = {m.version for m in migrations}
    done = set(await applied_versions(conn))
    unknown = sorted(done - known)
    if unknown:
        raise MigrationError(
            f"the database has schema version {unknown[-1]}, newer than this code knows; "
            "upgrade Carcabot"
        )
    applied: list[int] = []
    for m in migrations:
        if m.version in done:
            continue
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{m.sql}\n;\n"
            "INSERT INTO schema_migrations (version, name, applied_at) "
            f"VALUES ({m.version}, '{m.name}', {time.time()!r});\n"
            "COMMIT;\n"
        )
        try:
            await conn.executescript(script)
        except Exception as e:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            if m.version in set(await applied_versions(conn)):
                continue  # another process applied it meanwhile
            raise MigrationError(f"migration {m.version:04d}_{m.name} failed: {e}") from e
        applied.append(m.version)
    return applied
