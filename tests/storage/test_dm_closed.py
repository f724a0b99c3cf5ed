"""The ``dm_closed`` table (migration 0003): marked at once, said once, carried over from the
snapshots of older databases, pruned after a while (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Database, Storage
from storage.migrate import MIGRATIONS_DIR, applied_versions, migrate


async def test_a_mark_is_stored_at_once_and_new_only_once(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite3"
    s = await Storage.open(path)
    try:
        assert not await s.dm_closed.is_closed(7)
        async with s.db.transaction() as tx:
            assert await s.dm_closed.note(tx, 7, now=100.0)
        async with s.db.transaction() as tx:
            assert not await s.dm_closed.note(tx, 7, now=200.0)
    finally:
        await s.close()
    again = await Storage.open(path)  # a restart
    try:
        assert await again.dm_closed.is_closed(7)
        assert await again.dm_closed.closed_among([5, 7, 9]) == {7}
        assert await again.dm_closed.closed_among([]) == set()
    finally:
        await again.close()


async def test_old_marks_are_pruned(tmp_path: Path) -> None:
    s = await Storage.open(tmp_path / "p.sqlite3")
    try:
        async with s.db.transaction() as tx:
            for uid, when in ((1, 0.0), (2, 10.0), (3, 40 * 86_400.0)):
                await s.dm_closed.note(tx, uid, now=when)
        report = await s.prune(now=45 * 86_400.0, dm_days=30.0, batch=1)
        assert report.dm_marks == 2 and report.total >= 2
        assert await s.dm_closed.closed_among([1, 2, 3]) == {3}
        assert (await s.prune(now=45 * 86_400.0, dm_days=None)).dm_marks == 0
    finally:
        await s.close()


async def test_migration_3_carries_the_closed_dms_of_old_snapshots(tmp_path: Path) -> None:
    old = tmp_path / "old"
    old.mkdir()
    for name in ("0001_init.sql", "0002_bounded_growth.sql"):
        (old / name).write_text((MIGRATIONS_DIR / name).read_text())
    path = tmp_path / "v2.sqlite3"
    snaps = [
        json.dumps({"schema": 1, "dm_closed": [11, 12]}),
        json.dumps({"schema": 1, "dm_closed": [12, 13, "x", -4]}),
        json.dumps({"schema": 1}),
        "not json",
        None,
    ]
    async with await Database.open(path, run_migrations=False) as db:
        assert await migrate(db.conn, old) == [1, 2]
        for i, snap in enumerate(snaps, start=1):
            await db.conn.execute(
                "INSERT INTO matches (id, guild_id, channel_id, status, host_id, seed,"
                " snapshot_json, created_at, updated_at) VALUES (?, 1, ?, 'finished', 1, 1, ?,"
                " 0, 5)",
                (i, i, snap),
            )
        await db.conn.commit()
    s = await Storage.open(path)
    try:
        assert 3 in await applied_versions(s.db.conn)
        assert await s.dm_closed.closed_among([11, 12, 13, 14]) == {11, 12, 13}
    finally:
        await s.close()
