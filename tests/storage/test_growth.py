"""What each move writes stays small and flat, and what only grows is pruned (real files).

Before: each move rewrote a snapshot holding the whole game record (20–33 KiB of WAL per move,
growing with the game), every reminder added a row, and nothing was ever deleted.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage import (
    Database,
    NewAction,
    PruneReport,
    Storage,
    compact_snapshot,
    migrate,
    snapshot_names,
)
from storage.migrate import MIGRATIONS_DIR, applied_versions

PAGE = 4096
FRAME = 24 + PAGE  # a WAL frame: header + one page
DAY = 86_400.0


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Storage]:
    s = await Storage.open(tmp_path / "grow.sqlite3")
    try:
        yield s
    finally:
        await s.close()


async def _active(store: Storage, channel: int, users: tuple[int, int] = (1, 2)) -> int:
    async with store.db.transaction() as tx:
        mid = await store.matches.create(
            tx, guild_id=1, channel_id=channel, host_id=users[0], options={}, seed=1
        )
        for u in users:
            await store.matches.add_seat(tx, mid, u, f"P{u}")
        await store.matches.start(tx, mid, seat_order=list(users), setup={}, snapshot={})
    return mid


def _snapshot(version: int) -> dict[str, Any]:
    """The service's snapshot: a small summary plus the whole record so far."""
    actions = [
        {"seat": i % 2, "action": f"place {i % 17},{-(i % 11)} r{90 * (i % 4)}"}
        for i in range(version)
    ]
    return {
        "schema": 1,
        "version": version,
        "turn": version // 2,
        "scores": [version, version // 2],
        "winners": [],
        "record": {"names": ["Ann", "Bob"], "setup": {"players": 2}, "actions": actions},
    }


async def _play(store: Storage, mid: int, moves: int, *, compact: bool) -> dict[int, int]:
    """Store ``moves`` moves like the service; the WAL bytes of each commit by version."""
    wal = Path(str(store.db.path) + "-wal")
    out = {}
    for v in range(1, moves + 1):
        await store.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        async with store.db.transaction() as tx:
            await store.matches.advance(
                tx, mid, expected_version=v - 1, new_version=v, snapshot=_snapshot(v),
                compact=compact,
            )  # fmt: skip
            await store.actions.append(tx, mid, [NewAction(v, v % 2, "pass")])
            if v % 2 == 0:  # the turn passes every other move
                await store.timers.replace_turn_reminder(
                    tx, mid, user_id=1 + v % 3, fires_at=time.time() + 600, version=v
                )
        out[v] = wal.stat().st_size
    return out


def _mean(per: dict[int, int], around: int) -> float:
    return sum(per[v] for v in range(around - 4, around + 4)) / 8


async def test_a_move_writes_a_few_pages_at_turn_150_as_at_turn_10(store: Storage) -> None:
    compact = await _play(store, await _active(store, 1), 160, compact=True)
    # at most the match page, the log page and the timer page (+ a rare b-tree split)
    assert _mean(compact, 10) <= 32 + 3 * FRAME
    assert _mean(compact, 150) <= _mean(compact, 10) + FRAME / 2
    full = await _play(store, await _active(store, 2), 160, compact=False)
    assert _mean(full, 150) > _mean(full, 10) + FRAME  # what the whole record costs
    assert _mean(full, 150) > 2 * _mean(compact, 150)


async def test_compact_snapshots_drop_the_record_until_the_match_ends(store: Storage) -> None:
    mid = await _active(store, 3)
    async with store.db.transaction() as tx:
        await store.matches.advance(
            tx, mid, expected_version=0, new_version=1, snapshot=_snapshot(1), compact=True
        )
    row = await store.matches.get(mid)
    assert row is not None and row.snapshot is not None
    assert "record" not in row.snapshot and row.snapshot["names"] == ["Ann", "Bob"]
    assert row.snapshot["scores"] == [1, 0] and snapshot_names(row.snapshot) == ("Ann", "Bob")
    async with store.db.transaction() as tx:
        await store.matches.advance(
            tx,
            mid,
            expected_version=1,
            new_version=2,
            snapshot=_snapshot(2),
            status="finished",
            compact=True,
        )
    row = await store.matches.get(mid)
    assert row is not None and row.status == "finished" and row.snapshot == _snapshot(2)
    assert snapshot_names(row.snapshot) == ("Ann", "Bob")  # read from the kept record


def test_compact_snapshot_and_names_by_themselves() -> None:
    full = _snapshot(3)
    assert compact_snapshot(full, final=True) == full
    small = compact_snapshot(full, final=False)
    assert set(small) == set(full) - {"record"} | {"names"}
    assert full["record"]["actions"]  # the input is not changed
    assert compact_snapshot({"names": ["X"], "record": {"names": ["Y"]}}, final=False) == {
        "names": ["X"]
    }
    assert snapshot_names(None) == () and snapshot_names({"record": 5}) == ()


async def test_a_match_keeps_one_reminder_row_however_many_turns_pass(store: Storage) -> None:
    mid = await _active(store, 4)
    for v in range(50):
        async with store.db.transaction() as tx:
            await store.timers.replace_turn_reminder(
                tx, mid, user_id=1 + v % 2, fires_at=100.0 + v, version=v
            )
            if v % 5 == 0:
                assert len(await store.timers.claim_due(tx, 1e9)) == 1
    rows = await store.db.fetchall("SELECT match_id, user_id, version, sent FROM timers")
    assert [tuple(r) for r in rows] == [(mid, 2, 49, 0)]
    assert [t.version for t in await store.timers.pending(mid)] == [49]


async def test_pruning_drops_what_only_grows_and_keeps_finished_games(store: Storage) -> None:
    now = time.time()
    finished = await _active(store, 10)
    running = await _active(store, 11)
    old_game = await _active(store, 12)
    new_game = await _active(store, 13)
    async with store.db.transaction() as tx:
        for mid in (finished, running, old_game, new_game):
            await store.actions.append(tx, mid, [NewAction(1, 0, "pass")])
            await store.timers.replace_turn_reminder(
                tx, mid, user_id=1, fires_at=now + 60, version=1
            )
        await store.matches.set_status(tx, finished, "finished")
        await store.matches.set_status(tx, old_game, "abandoned")
        await store.matches.set_status(tx, new_game, "abandoned")
    lobbies = {}
    for channel in (20, 21, 22):
        async with store.db.transaction() as tx:
            lobbies[channel] = mid = await store.matches.create(
                tx, guild_id=1, channel_id=channel, host_id=5, options={}, seed=1
            )
            await store.matches.add_seat(tx, mid, 5, "Eve")
            if channel != 22:  # 22 stays an open lobby
                await store.matches.set_status(tx, mid, "abandoned")
    async with store.db.transaction() as tx:  # abandoned long ago: lobby 20, game old_game
        await tx.execute(
            "UPDATE matches SET updated_at = ? WHERE id IN (?, ?)",
            (now - 40 * DAY, lobbies[20], old_game),
        )
    sent = await _active(store, 30)
    async with store.db.transaction() as tx:
        await store.timers.replace_turn_reminder(tx, sent, user_id=1, fires_at=1.0, version=0)
        assert len(await store.timers.claim_due(tx, now)) == 1

    report = await store.prune(now=now, lobby_days=7, match_days=30, batch=1)
    # reminders: sent one, and those of the finished and both abandoned games
    assert report == PruneReport(reminders=4, lobbies=1, matches=1) and report.total == 6
    assert await store.matches.get(lobbies[20]) is None
    assert await store.matches.seats(lobbies[20]) == []
    assert await store.matches.get(old_game) is None
    assert await store.actions.entries(old_game) == []
    for kept in (finished, running, new_game, lobbies[21], lobbies[22], sent):
        assert await store.matches.get(kept) is not None
    assert len(await store.actions.entries(finished)) == 1  # the record of a finished game
    assert [t.match_id for t in await store.timers.pending(running)] == [running]
    left = await store.db.fetchall("SELECT match_id FROM timers ORDER BY match_id")
    assert [r[0] for r in left] == [running]
    assert await store.prune(now=now) == PruneReport()  # nothing left to do
    none_kept = await store.prune(now=now + 31 * DAY, match_days=None)
    assert none_kept.lobbies == 1 and none_kept.matches == 0  # lobby 21 now; games kept
    assert await store.matches.get(new_game) is not None


async def test_the_log_stays_append_only_unless_the_match_was_abandoned(store: Storage) -> None:
    mid = await _active(store, 40)
    async with store.db.transaction() as tx:
        await store.actions.append(tx, mid, [NewAction(1, 0, "pass")])
    for status in ("active", "finished", "abandoned"):
        async with store.db.transaction() as tx:
            await store.matches.set_status(tx, mid, status)
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            async with store.db.transaction() as tx:
                await tx.execute("UPDATE actions SET action = 'x' WHERE match_id = ?", (mid,))
        if status == "abandoned":
            break
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            async with store.db.transaction() as tx:
                await tx.execute("DELETE FROM actions WHERE match_id = ?", (mid,))
    async with store.db.transaction() as tx:
        await tx.execute("DELETE FROM actions WHERE match_id = ?", (mid,))
    assert await store.actions.entries(mid) == []


async def test_migration_2_keeps_one_reminder_per_match_from_an_old_database(
    tmp_path: Path,
) -> None:
    old = tmp_path / "old"
    old.mkdir()
    (old / "0001_init.sql").write_text((MIGRATIONS_DIR / "0001_init.sql").read_text())
    path = tmp_path / "v1.sqlite3"
    async with await Database.open(path, run_migrations=False) as db:
        assert await migrate(db.conn, old) == [1]
        await db.conn.executescript(
            "BEGIN;"
            "INSERT INTO matches (id, guild_id, channel_id, status, host_id, seed, created_at,"
            " updated_at) VALUES (1, 1, 1, 'active', 1, 1, 0, 0), (2, 1, 2, 'active', 1, 1, 0, 0);"
            "INSERT INTO timers (match_id, fires_at, kind, user_id, version, sent) VALUES"
            " (1, 10, 'turn_reminder', 1, 1, 1), (1, 20, 'turn_reminder', 2, 2, 1),"
            " (1, 30, 'turn_reminder', 1, 3, 0), (2, 10, 'turn_reminder', 1, 1, 1),"
            " (2, 20, 'turn_reminder', 2, 2, 1);"
            "COMMIT;"
        )
    s = await Storage.open(path)
    try:
        assert (await applied_versions(s.db.conn))[:2] == [1, 2]
        rows = await s.db.fetchall("SELECT match_id, version, sent FROM timers ORDER BY match_id")
        assert [tuple(r) for r in rows] == [(1, 3, 0), (2, 2, 1)]
        async with s.db.transaction() as tx:  # and the new upsert works on migrated data
            await s.timers.replace_turn_reminder(tx, 2, user_id=9, fires_at=5.0, version=4)
        assert [(t.user_id, t.version) for t in await s.timers.pending(2)] == [(9, 4)]
    finally:
        await s.close()
