"""Choosing the backend: a ``postgresql://`` URL opens PostgreSQL, anything else a SQLite file.

``DATABASE_URL`` (``postgresql://user:pass@host:5432/db``) selects PostgreSQL for processes that
share one database (several bot processes, each on some of Discord's shards); without it the
bot keeps its SQLite file at ``DATABASE_PATH`` (the default, one process).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from storage.db import database_path
from storage.port import Store

PG_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: Path | str) -> bool:
    """Whether ``target`` names a PostgreSQL database (a ``postgresql://`` URL)."""
    return str(target).startswith(PG_SCHEMES)


def describe(target: Path | str) -> str:
    """A database for a message or the log: a URL without the password it may hold."""
    text = str(target)
    if is_postgres(text) and "@" in text:
        scheme, rest = text.split("://", 1)
        return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return text


def database_target(env: dict[str, str] | None = None) -> Path | str:
    """``DATABASE_URL`` when set (PostgreSQL), else the SQLite file of ``DATABASE_PATH``."""
    source = os.environ if env is None else env
    url = source.get("DATABASE_URL", "").strip()
    return url if url else database_path(env)


async def open_store(target: Path | str, *, writer: bool = False, **options: Any) -> Store:
    """Open (and migrate) the database ``target`` names behind the storage port.

    ``writer`` claims a SQLite file's writer lock (one serving process per file); PostgreSQL
    has no such lock: any number of processes share it, each move serialised per match.

    Raises:
        DatabaseInUse: a SQLite ``writer`` and another process writes to this file already.
        MigrationError: the schema cannot be brought up to date.
    """
    if is_postgres(target):
        from storage.postgres import PgStorage

        return await PgStorage.open(str(target), **options)
    from storage.store import Storage

    return await Storage.open(target, writer=writer, **options)
