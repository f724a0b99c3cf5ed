"""``carcabot migrate`` and ``carcabot copy-db FROM TO``: the database's schema and moves.

``migrate`` brings the database of ``DATABASE_URL`` (PostgreSQL) or ``DATABASE_PATH`` (SQLite)
up to date, or the one named on the command line (the bot also does it at start-up).
``copy-db`` copies every match, lobby, setting and rating from one database to a new, empty one
(a SQLite file to PostgreSQL, or back), then checks the copy: every table holds as many rows
as the source, and every stored match replays from the destination's log to its stored version.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from dotenv import load_dotenv

from engine.core.errors import one_line
from storage.backends import database_target, describe, open_store
from storage.errors import StorageError
from storage.migrate import MigrationError
from storage.port import Store


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "database",
        nargs="?",
        help="a postgresql:// URL or a SQLite file (default: DATABASE_URL, else DATABASE_PATH)",
    )
    p.add_argument("--env-file", type=Path, default=Path(".env"), help="settings file to load")


def run(args: argparse.Namespace) -> int:
    """``carcabot migrate [DATABASE]``."""
    env_file: Path = args.env_file
    if env_file.is_file():
        load_dotenv(env_file, override=False)
    target = args.database or database_target()
    try:
        asyncio.run(_migrate(target))
    except (MigrationError, StorageError, OSError) as e:
        print(f"carcabot migrate: {one_line(str(e))}", file=sys.stderr)
        return 1
    print(f"carcabot migrate: {describe(target)} is up to date")
    return 0


async def _migrate(target: Path | str) -> None:
    store = await open_store(target)  # opening migrates
    await store.close()


async def replay_all(store: Store) -> tuple[int, list[str]]:
    """Replay every started match of ``store`` from its log: how many, and the failures."""
    from app.cardgame import CardMatchService
    from app.errors import ServiceError
    from app.matches import MatchService

    tiles = MatchService(store, renderer=None, animator=None)
    cards = CardMatchService(store, renderer=None)
    checked, failed = 0, []
    for status in ("active", "finished", "abandoned"):
        for row in await store.matches_with_status(status):
            if not row.started:
                continue
            checked += 1
            try:
                if row.game == "cardgame":
                    version = (await cards.store.load(row.id)).game.version
                else:
                    version = (await tiles.store.load(row.id)).game.version
            except ServiceError as e:
                failed.append(f"match {row.id}: {e}")
                continue
            if version != row.version:
                failed.append(f"match {row.id}: replays to version {version}, stored {row.version}")
    return checked, failed
