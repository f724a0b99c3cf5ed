"""Copying a whole database between backends (``carcabot copy-db FROM TO``).

Every table is read from the source in key order and written to the destination, which must
be empty (freshly migrated), in one transaction: a copy that fails leaves the destination as
it was. Row ids are kept (the action log, the timers and the results refer to them), and a
PostgreSQL destination's id sequences are moved past them. :func:`counts` gives each table's
row count on either side, for the caller to compare.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from storage.port import Store
from storage.postgres import PgStorage
from storage.store import Storage

#: every table, parents before children, with its columns and its key (the copy's order)
TABLES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("matches", ("id", "guild_id", "channel_id", "game", "status", "host_id", "version",
                 "options_json", "setup_json", "seed", "snapshot_json", "lobby_message_id",
                 "turn_message_id", "turn_message_version", "created_at", "updated_at"), "id"),
    ("match_seats", ("match_id", "join_order", "seat", "user_id", "name", "resigned",
                     "controller", "missed"), "match_id, join_order"),
    ("seat_votes", ("match_id", "target_id", "version", "voter_id", "voted_at"),
     "match_id, target_id, version, voter_id"),
    ("private_sends", ("match_id", "user_id", "decision_key", "sent_at"),
     "match_id, user_id, decision_key"),
    ("actions", ("match_id", "seq", "seat", "action", "visibility", "created_at"),
     "match_id, seq"),
    ("timers", ("id", "match_id", "fires_at", "kind", "user_id", "version", "sent"), "id"),
    ("guild_settings", ("guild_id", "defaults_json", "updated_at"), "guild_id"),
    ("dm_closed", ("user_id", "noted_at"), "user_id"),
    ("quiet_players", ("user_id", "set_at"), "user_id"),
    ("game_results", ("match_id", "guild_id", "channel_id", "game", "expansions",
                      "finished_at", "rated"), "match_id"),
    ("game_result_seats", ("match_id", "seat", "user_id", "name", "score", "rank",
                           "left_game"), "match_id, seat"),
    ("ratings", ("scope", "user_id", "mu", "sigma", "games", "updated_at"), "scope, user_id"),
    ("rating_changes", ("match_id", "scope", "user_id", "mu_before", "sigma_before",
                        "mu_after", "sigma_after"), "match_id, scope, user_id"),
)  # fmt: skip
#: PostgreSQL columns of type DOUBLE PRECISION (SQLite may hand back an int for a REAL)
_FLOATS = frozenset(
    {"created_at", "updated_at", "fires_at", "noted_at", "set_at", "finished_at", "voted_at",
     "sent_at", "mu", "sigma", "mu_before", "sigma_before", "mu_after", "sigma_after"}
)  # fmt: skip
#: the identity columns whose sequence must follow the copied ids
_IDENTITIES = (("matches", "id"), ("timers", "id"))


class CopyError(RuntimeError):
    """The copy cannot be made (the destination is not empty); nothing was written."""


async def _rows(store: Store, table: str, columns: Sequence[str], key: str) -> list[Any]:
    sql = f"SELECT {', '.join(columns)} FROM {table} ORDER BY {key}"
    if isinstance(store, PgStorage):
        return [tuple(r) for r in await store.db.fetch(sql)]
    assert isinstance(store, Storage)
    return [tuple(r) for r in await store.db.fetchall(sql, ())]


async def counts(store: Store) -> dict[str, int]:
    """Each table's row count."""
    out: dict[str, int] = {}
    for table, _, _ in TABLES:
        sql = f"SELECT COUNT(*) FROM {table}"
        if isinstance(store, PgStorage):
            out[table] = int(await store.db.fetchval(sql))
        else:
            assert isinstance(store, Storage)
            row = await store.db.fetchone(sql, ())
            out[table] = int(row[0]) if row else 0
    return out


async def copy_all(source: Store, dest: Store) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``dest``; the rows copied per table.

    Raises:
        CopyError: ``dest`` holds rows already (nothing was written).
    """
    if any((await counts(dest)).values()):
        raise CopyError("the destination database is not empty; copy into a new one")
    data = {t: await _rows(source, t, cols, key) for t, cols, key in TABLES}
    if isinstance(dest, PgStorage):
        async with dest.db.transaction() as conn:
            for table, columns, _ in TABLES:
                floats = [i for i, c in enumerate(columns) if c in _FLOATS]
                records = [
                    tuple(float(v) if i in floats and v is not None else v for i, v in enumerate(r))
                    for r in data[table]
                ]
                if records:
                    await conn.copy_records_to_table(table, records=records, columns=columns)
            for table, column in _IDENTITIES:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                    f" COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
                )
    else:
        assert isinstance(dest, Storage)

        def work(conn: sqlite3.Connection) -> None:
            for table, columns, _ in TABLES:
                marks = ", ".join("?" * len(columns))
                conn.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", data[table]
                )

        await dest.db.write(work)
    return {t: len(rows) for t, rows in data.items()}
