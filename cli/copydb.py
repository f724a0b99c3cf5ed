"""``carcabot copy-db FROM TO``: copy a whole database to a new one and check the copy.

FROM and TO are each a SQLite file or a ``postgresql://`` URL; TO must be empty (it is created
and migrated first). See :mod:`storage.copy` for the copy and :mod:`cli.database` for the check.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from cli.database import replay_all
from engine.core.errors import one_line
from storage.backends import describe, is_postgres, open_store
from storage.copy import CopyError, copy_all, counts
from storage.errors import StorageError
from storage.migrate import MigrationError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", help="the database to copy: a SQLite file or a postgresql:// URL")
    p.add_argument("dest", help="the new, empty database: a SQLite file or a postgresql:// URL")


def run(args: argparse.Namespace) -> int:
    if not is_postgres(args.source) and not Path(args.source).is_file():
        print(f"carcabot copy-db: no such database file: {args.source}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(copy_db(args.source, args.dest))
    except (CopyError, MigrationError, StorageError, OSError) as e:
        print(f"carcabot copy-db: {one_line(str(e))}", file=sys.stderr)
        return 1


async def copy_db(source: str, dest: str) -> int:
    """Copy, then compare the counts and replay every match from the copy; 0 when it holds."""
    src = await open_store(source)
    try:
        dst = await open_store(dest)
        try:
            copied = await copy_all(src, dst)
            before, after = await counts(src), await counts(dst)
            checked, failed = await replay_all(dst)
        finally:
            await dst.close()
    finally:
        await src.close()
    for table, n in copied.items():
        mark = "" if before[table] == after[table] else f"  MISMATCH: {after[table]} in the copy"
        print(f"{table:<18} {n:>8}{mark}")
    for line in failed:
        print(f"replay failed: {line}", file=sys.stderr)
    if before != after or failed:
        print("carcabot copy-db: the copy does not match its source", file=sys.stderr)
        return 1
    print(
        f"copied {describe(source)} to {describe(dest)}: every table's rows counted, "
        f"{checked} matches replayed"
    )
    return 0
