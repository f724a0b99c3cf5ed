"""Databases made and dropped on a PostgreSQL server (benchmarks and tests give each bot a
fresh one); the SQL stays in :mod:`storage` (ARCHITECTURE.md decision 10)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

import asyncpg

_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def database_url(server: str, name: str) -> str:
    """``server`` (a ``postgresql://`` URL) with its database replaced by ``name``."""
    parts = urlsplit(server)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _checked(name: str) -> str:
    if not _NAME.match(name):
        raise ValueError(f"not a plain database name: {name!r}")
    return name


async def create_database(server: str, name: str, *, template: str | None = None) -> str:
    """Create database ``name`` (a copy of ``template``) on ``server``; its URL."""
    conn = await asyncpg.connect(server)
    try:
        copy = f" TEMPLATE {_checked(template)}" if template else ""
        await conn.execute(f"CREATE DATABASE {_checked(name)}{copy}")
    finally:
        await conn.close()
    return database_url(server, name)


async def drop_database(server: str, name: str) -> None:
    """Drop database ``name`` of ``server`` (its connections ended first), if it exists."""
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {_checked(name)} WITH (FORCE)")
    finally:
        await conn.close()
