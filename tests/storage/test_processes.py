"""Two real processes on one SQLite file (tests/storage/worker.py is the other one).

What broke before: a write blocked by the other process raised a raw "database is locked"; a
cancelled call left one process inside a transaction, so the other could not write at all and
the first read a frozen snapshot; two joins took the last seat of a lobby twice; and a second
bot started on the same file without a word.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage import (
    AlreadySeated,
    DatabaseInUse,
    LobbyClosed,
    LobbyFull,
    Storage,
    StorageBusy,
    lock_path,
)

ROOT = Path(__file__).resolve().parents[2]


async def spawn(*args: object) -> asyncio.subprocess.Process:
    """``python -m tests.storage.worker ARGS`` with pipes on all three streams."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.storage.worker",
        *(str(a) for a in args),
        cwd=ROOT,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def reply(proc: asyncio.subprocess.Process, timeout: float = 60.0) -> Any:
    """The worker's next JSON line."""
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), timeout)
    if not line:
        assert proc.stderr is not None
        err = (await proc.stderr.read()).decode()
        raise AssertionError(f"worker said nothing; stderr: {err}")
    return json.loads(line)


async def finish(proc: asyncio.subprocess.Process, timeout: float = 60.0) -> int:
    return await asyncio.wait_for(proc.wait(), timeout)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "shared.sqlite3"


@pytest.fixture
async def store(path: Path) -> AsyncIterator[Storage]:
    s = await Storage.open(path, write_deadline=0.6)
    try:
        yield s
    finally:
        await s.close()


async def _lobby(store: Storage, channel: int, host: int = 1) -> int:
    async with store.db.transaction() as tx:
        mid = await store.matches.create(
            tx, guild_id=1, channel_id=channel, host_id=host, options={}, seed=1
        )
        await store.matches.add_seat(tx, mid, host, "Host")
    return mid


async def test_a_write_the_other_process_blocks_ends_in_storage_busy_while_reads_go_on(
    store: Storage, path: Path
) -> None:
    mid = await _lobby(store, 10)
    other = await spawn("lock", path, 2.5)
    try:
        assert await reply(other) == {"locked": True}
        loop = asyncio.get_running_loop()
        t0 = loop.time()

        async def write() -> None:
            async with store.db.transaction() as tx:
                await store.guilds.put(tx, 1, {"n": 1})

        blocked = asyncio.create_task(write())
        await asyncio.sleep(0.05)
        t_read = loop.time()
        row = await store.matches.get(mid)  # not stuck behind the waiting write
        assert row is not None and row.status == "lobby"
        assert loop.time() - t_read < 0.15
        with pytest.raises(StorageBusy, match="write lock"):
            await blocked
        assert 0.55 <= loop.time() - t0 < 2.0  # bounded by the deadline, not SQLite's 5 s
        assert not store.db.conn.in_transaction
        assert await finish(other) == 0
    finally:
        if other.returncode is None:
            other.kill()
            await other.wait()
    async with store.db.transaction() as tx:  # the connection writes again
        await store.guilds.put(tx, 1, {"n": 2})
    assert await store.guilds.get(1) == {"n": 2}


async def test_three_writers_on_one_file_lose_no_update_and_see_no_lock_error(
    path: Path,
) -> None:
    s = await Storage.open(path)
    try:
        workers = [await spawn("count", path, 60, 2, 5) for _ in range(2)]
        errors: list[str] = []
        for _ in range(60):  # this process takes part too
            try:
                async with s.db.transaction() as tx:
                    value = (await s.guilds.get(5)).get("n", 0)
                    await asyncio.sleep(0.002)
                    await s.guilds.put(tx, 5, {"n": value + 1})
            except Exception as e:
                errors.append(repr(e))
        results = [await reply(w) for w in workers]
        assert [await finish(w) for w in workers] == [0, 0]
        assert errors == [] and [r["errors"] for r in results] == [{}, {}]
        assert [r["done"] for r in results] == [60, 60]
        assert await s.guilds.get(5) == {"n": 180}
    finally:
        await s.close()


async def test_cancelled_transactions_never_jam_the_file_nor_freeze_reads(
    store: Storage, path: Path
) -> None:
    """The other process writes all along; here 60 transactions are cancelled at random
    points (half of them right as they begin). Afterwards nothing is left open, the other
    process never failed, and a read here sees its last write."""
    other = await spawn("count", path, 150, 1, 7)
    rng = random.Random(13)
    committed = 0

    async def write(k: int) -> None:
        async with store.db.transaction() as tx:
            await store.guilds.put(tx, 8, {"k": k})
            await tx.execute("SELECT 1")

    try:
        for k in range(60):
            task = asyncio.create_task(write(k))
            if k % 2:
                await asyncio.sleep(rng.uniform(0, 0.004))
            else:
                for _ in range(k % 6):
                    await asyncio.sleep(0)
            task.cancel()
            try:
                await task
                committed += 1
            except asyncio.CancelledError:
                pass
            assert not store.db.conn.in_transaction, f"left inside a transaction (try {k})"
            assert not task.cancelled() or not store.db.conn.in_transaction
        result = await reply(other)
        assert await finish(other) == 0
    finally:
        if other.returncode is None:
            other.kill()
            await other.wait()
    assert result == {"done": 150, "errors": {}}
    assert await store.guilds.get(7) == {"n": 150}  # not a frozen, older snapshot
    async with store.db.transaction() as tx:
        await store.guilds.put(tx, 8, {"k": "after"})
    assert await store.guilds.get(8) == {"k": "after"}
    assert 0 <= committed < 60


async def test_a_second_writer_process_refuses_to_start_in_one_line_and_readers_still_read(
    path: Path,
) -> None:
    first = await spawn("hold", path)
    try:
        assert await reply(first) == {"ready": True}
        second = await spawn("hold", path)
        assert await finish(second) == 3
        assert second.stderr is not None
        err = (await second.stderr.read()).decode()
        assert err.count("\n") == 1, err  # one line
        assert "already writing" in err and str(path) in err and "pid" in err
        with pytest.raises(DatabaseInUse):  # this process is refused too
            await Storage.open(path, writer=True)
        reader = await Storage.open(path)  # replay, tests and tools read (and may write)
        try:
            mid = await _lobby(reader, 3)
            assert (await reader.matches.get(mid)) is not None
        finally:
            await reader.close()
        # a crash (kill -9) frees the lock at once: no stale claim to wait out
        first.send_signal(signal.SIGKILL)
        await finish(first)
        again = await Storage.open(path, writer=True)
        await again.close()
        assert lock_path(path).exists()
    finally:
        if first.returncode is None:
            first.kill()
            await first.wait()


async def test_the_writer_lock_is_given_back_on_close(path: Path) -> None:
    a = await Storage.open(path, writer=True)
    with pytest.raises(DatabaseInUse, match="already writing"):
        await Storage.open(path, writer=True)
    await a.close()
    b = await Storage.open(path, writer=True)
    await b.close()
    memory = await Storage.open(":memory:", writer=True)  # private: nothing to lock
    await memory.close()


async def test_two_processes_racing_for_the_last_seats_seat_exactly_one_each(
    store: Storage, path: Path
) -> None:
    lobbies = [await _lobby(store, 100 + i) for i in range(40)]
    go = path.with_name("go")
    workers = [await spawn("join", path, user, go, *lobbies) for user in (201, 202)]
    await asyncio.sleep(1.0)  # both started and waiting
    go.touch()
    results = [await reply(w) for w in workers]
    assert [await finish(w) for w in workers] == [0, 0]
    for mid in lobbies:
        got = sorted(r[str(mid)] for r in results)
        assert got == ["full", "seated"], (mid, got)
        seats = await store.matches.seats(mid)
        assert len(seats) == 2 and seats[0].user_id == 1


async def test_joins_in_one_process_from_two_connections_respect_the_capacity(
    store: Storage, path: Path
) -> None:
    other = await Storage.open(path)
    try:
        mid = await _lobby(store, 5)

        async def join(s: Storage, user: int) -> str:
            try:
                async with s.db.transaction() as tx:
                    await asyncio.sleep(0)
                    await s.matches.join(tx, mid, user, f"U{user}", capacity=3)
                return "seated"
            except LobbyFull:
                return "full"

        got = await asyncio.gather(*(join((store, other)[u % 2], u) for u in range(10, 20)))
        assert sorted(got).count("seated") == 2
        assert len(await store.matches.seats(mid)) == 3
        with pytest.raises(AlreadySeated):
            async with other.db.transaction() as tx:
                await other.matches.join(tx, mid, 1, "Host", capacity=9)
        with pytest.raises(RuntimeError, match="inside Database.transaction"):
            await other.matches.join(other.db.conn, mid, 99, "X", capacity=9)
        async with store.db.transaction() as tx:
            await store.matches.set_status(tx, mid, "abandoned")
        with pytest.raises(LobbyClosed):
            async with other.db.transaction() as tx:
                await other.matches.join(tx, mid, 42, "Late", capacity=9)
    finally:
        await other.close()
