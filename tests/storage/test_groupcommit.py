"""Group commit (storage/groupcommit.py): the writes that queue while one is in SQLite's hands
share one trip and one COMMIT, yet each caller gets its own answer, one's failure is never
another's, and nobody is answered before the data is on disk (the kept match rows follow the
commit order: tests/storage/test_foundcache.py). On real SQLite files held with the writer lock,
as the bot opens them."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from storage.db import Database, Wrote
from storage.groupcommit import Work


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    d = await Database.open(tmp_path / "group.sqlite3", writer=True)
    await d.write(lambda c: c.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)"))
    try:
        yield d
    finally:
        await d.close()


def insert(k: int, v: str = "x") -> Callable[[sqlite3.Connection], int]:
    def work(conn: sqlite3.Connection) -> int:
        conn.execute("INSERT INTO t (k, v) VALUES (?, ?)", (k, v))
        return k * 10

    return work


def on_disk(path: Path) -> set[int]:
    """The keys another connection sees: what is committed (and synced) in the file."""
    with sqlite3.connect(path) as other:
        return {k for (k,) in other.execute("SELECT k FROM t")}


async def test_writes_that_queue_together_share_one_trip_and_each_gets_its_answer(
    db: Database,
) -> None:
    trips_before, units_before = db.group.batches, db.group.units
    answers = await asyncio.gather(*(db.write(insert(k)) for k in range(20)))
    assert answers == [k * 10 for k in range(20)]
    assert db.group.units - units_before == 20
    assert db.group.batches - trips_before == 1  # 20 writes, one BEGIN ... COMMIT
    assert on_disk(Path(db.path)) == set(range(20))


async def guilty_between_innocents(
    db: Database, guilty: Callable[[sqlite3.Connection], None]
) -> None:
    """Writes 1, ``guilty`` and 2 queued together: 1 and 2 answered and committed, the guilty
    one's caller alone hears its IntegrityError, and no transaction is left open."""
    results = await asyncio.gather(
        db.write(insert(1)), db.write(guilty), db.write(insert(2)), return_exceptions=True
    )
    assert results[0] == 10 and results[2] == 20
    assert isinstance(results[1], sqlite3.IntegrityError)
    assert on_disk(Path(db.path)) == {1, 2}
    assert not db.conn.in_transaction


async def test_a_failing_write_is_rolled_back_alone(db: Database) -> None:
    def half_then_fail(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO t (k, v) VALUES (100, 'half')")
        conn.execute("INSERT INTO t (k, v) VALUES (1, 'duplicate')")  # k=1 is the batch's

    before = db.group.batches
    await guilty_between_innocents(db, half_then_fail)  # nothing of it stays, not even its half
    assert db.group.batches == before + 1


async def test_a_batch_refused_at_commit_is_run_again_unit_by_unit(db: Database) -> None:
    """A deferred foreign key fails the whole COMMIT: the innocent units are committed anyway
    (each alone), only the guilty one's caller hears of it."""

    def tables(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        conn.execute(
            "CREATE TABLE child (id INTEGER PRIMARY KEY,"
            " parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)"
        )

    await db.write(tables)

    def orphan(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO child (id, parent) VALUES (1, 999)")

    await guilty_between_innocents(db, orphan)


async def test_nobody_is_answered_before_the_commit(db: Database) -> None:
    seen: list[set[int]] = []

    async def write_then_look(k: int) -> None:
        await db.write(insert(k))
        seen.append(on_disk(Path(db.path)))

    await asyncio.gather(*(write_then_look(k) for k in range(8)))
    assert all(set(range(8)) <= keys for keys in seen)  # each saw the whole batch committed


async def test_a_write_cancelled_before_its_trip_is_never_written(db: Database) -> None:
    async with db._write_lock:  # a transaction holds the connection: the writes queue
        tasks = [asyncio.create_task(db.write(insert(k))) for k in range(4)]
        await asyncio.sleep(0.01)
        tasks[1].cancel()
        tasks[3].cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert done[0] == 0 and done[2] == 20
    assert all(isinstance(done[i], asyncio.CancelledError) for i in (1, 3))
    assert on_disk(Path(db.path)) == {0, 2}


async def test_listeners_and_follow_ups_see_the_writes_in_commit_order(db: Database) -> None:
    log: list[str] = []
    db.write_listeners.append(lambda w: log.append(f"told {w.match_id}"))
    await asyncio.gather(
        *(db.write(insert(k), Wrote(k), then=lambda r: log.append(f"then {r}")) for k in (1, 2, 3))
    )
    assert log == ["told 1", "then 10", "told 2", "then 20", "told 3", "then 30"]


async def test_close_runs_the_writes_still_queued(tmp_path: Path) -> None:
    d = await Database.open(tmp_path / "close.sqlite3", writer=True)
    await d.write(lambda c: c.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)"))
    tasks = [asyncio.create_task(d.write(insert(k))) for k in range(5)]
    await asyncio.sleep(0)
    await d.close()
    assert [t.result() for t in tasks] == [0, 10, 20, 30, 40]
    assert on_disk(tmp_path / "close.sqlite3") == set(range(5))


async def test_a_file_locked_past_the_deadline_fails_the_batch_once(tmp_path: Path) -> None:
    """Another process holds the file: every caller of the batch hears StorageBusy after one
    deadline, not one deadline per unit run again alone."""
    from storage.errors import StorageBusy

    path = tmp_path / "locked.sqlite3"
    d = await Database.open(path, writer=True, write_deadline=0.3, busy_timeout_ms=20)
    try:
        await d.write(lambda c: c.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)"))
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # a tool writing beside the bot, for too long
        alone = d.group._alone
        again: list[Work] = []

        async def counted(work: Work) -> Any:
            again.append(work)
            return await alone(work)

        d.group._alone = counted
        try:
            results = await asyncio.gather(
                *(d.write(insert(k)) for k in range(4)),
                return_exceptions=True,
            )
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert all(isinstance(r, StorageBusy) for r in results)
        assert again == []  # none run again alone: each would wait out the deadline again
        assert await d.write(insert(9)) == 90  # and the file is written again once free
        assert on_disk(path) == {9}
    finally:
        await d.close()
