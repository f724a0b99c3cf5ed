"""A transaction cancelled at any await point still ends committed or rolled back.

Before: cancelling a call while it began its transaction (a cog unloaded, a reminder task
cancelled, an interaction timing out) left the connection inside the transaction, and every
later write failed until restart. Here every database call of a move's transaction (and of a
failing one) is the cancellation point in turn, both while the statement runs and right after
it; then the task is cancelled while it waits for the write lock, and at random moments.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from storage import NewAction, StaleVersion, Storage

Body = Callable[[Storage, int], Awaitable[None]]


@pytest.fixture(params=[False, True], ids=["shared file", "writer"])
async def store(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Storage]:
    """The file opened by a tool, or by its writer (which keeps what it read of a match until
    it writes: a cancelled write must still make it forget, storage/foundcache.py)."""
    s = await Storage.open(tmp_path / "cancel.sqlite3", writer=request.param)
    try:
        yield s
    finally:
        await s.close()


async def _active(store: Storage) -> int:
    async with store.db.transaction() as tx:
        mid = await store.matches.create(
            tx, guild_id=1, channel_id=9, host_id=1, options={}, seed=3
        )
        await store.matches.add_seat(tx, mid, 1, "Ann")
        await store.matches.add_seat(tx, mid, 2, "Bob")
        await store.matches.start(tx, mid, seat_order=[1, 2], setup={}, snapshot={})
    return mid


async def move(store: Storage, mid: int) -> None:
    """One move as the service stores it: log entry, compare-and-set, reminder."""
    async with store.db.transaction() as tx:
        row = await store.matches.get(mid)  # inside: this transaction's own view
        assert row is not None
        v = row.version
        await store.actions.append(tx, mid, [NewAction(v + 1, v % 2, "pass")])
        await store.matches.advance(
            tx, mid, expected_version=v, new_version=v + 1, snapshot={"v": v + 1}, compact=True
        )
        await store.timers.replace_turn_reminder(
            tx, mid, user_id=1 + (v + 1) % 2, fires_at=1e9, version=v + 1
        )


async def stale_move(store: Storage, mid: int) -> None:
    """A move that fails half-way (another writer won): everything must roll back."""
    row = await store.matches.get(mid)
    assert row is not None
    v = row.version
    async with store.db.transaction() as tx:
        await store.actions.append(tx, mid, [NewAction(v + 1, 0, "pass")])
        await store.timers.replace_turn_reminder(tx, mid, user_id=2, fires_at=1.0, version=v)
        await store.matches.advance(tx, mid, expected_version=v - 1, new_version=v + 1, snapshot={})


class Instrument:
    """Counts the connection's statements and cancels a task at the chosen one."""

    def __init__(self, store: Storage) -> None:
        self.conn = store.db.conn
        self.calls = 0
        self.at: int | None = None
        self.phase = "during"
        self.task: asyncio.Task[Any] | None = None
        for name in ("execute", "executemany", "execute_fetchall"):
            setattr(self.conn, name, self._wrap(getattr(self.conn, name)))

    def _wrap(self, real: Callable[..., Any]) -> Callable[..., Any]:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            hit = self.calls == self.at and self.task is not None
            if hit and self.phase == "during":
                assert self.task is not None
                self.task.cancel()  # lands while this statement runs
            result = await real(*args, **kwargs)
            if hit and self.phase == "after":
                assert self.task is not None
                self.task.cancel()  # lands at the next await
            return result

        return wrapper

    async def run(self, body: Body, store: Storage, mid: int, at: int | None) -> bool:
        """Run ``body`` cancelled at statement ``at``; True if it was cancelled."""
        self.calls, self.at = 0, at
        self.task = asyncio.create_task(body(store, mid))
        try:
            await self.task
        except asyncio.CancelledError:
            return True
        except StaleVersion:
            return False
        finally:
            self.task = None
        return False


async def check(store: Storage, mid: int) -> None:
    """Nothing open; the match and its log agree (all of a move or none of it)."""
    assert not store.db.conn.in_transaction
    row = await store.matches.get(mid)
    assert row is not None
    log = await store.actions.entries(mid)
    assert row.version == len(log) and [e.seq for e in log] == list(range(1, len(log) + 1))
    assert row.snapshot == ({"v": row.version} if row.version else {})
    if store.found_cache is not None:  # what the writer kept is what is stored
        assert await store.load_match(mid) == await store.units.match(mid)


async def test_cancelling_at_every_statement_of_a_transaction_never_leaves_it_open(
    store: Storage,
) -> None:
    mid = await _active(store)
    probe = Instrument(store)
    cancelled = 0
    for body in (move, stale_move):
        await probe.run(body, store, mid, None)  # count the statements of one run
        n = probe.calls
        assert n >= 4
        for at in range(1, n + 1):
            for phase in ("during", "after"):
                probe.phase = phase
                cancelled += await probe.run(body, store, mid, at)
                await check(store, mid)
                await move(store, mid)  # and the connection still writes
                await check(store, mid)
    assert cancelled >= 20


async def test_cancelling_while_waiting_for_the_write_lock_or_at_random_moments(
    store: Storage,
) -> None:
    mid = await _active(store)
    rng = random.Random(5)
    outcomes = {"cancelled": 0, "done": 0}
    for k in range(60):
        holder = asyncio.create_task(move(store, mid))  # holds the write lock first
        task = asyncio.create_task(move(store, mid))
        if k % 3 == 0:
            await asyncio.sleep(0)  # the second one waits for the lock now
        elif k % 3 == 1:
            for _ in range(rng.randrange(1, 12)):
                await asyncio.sleep(0)
        else:
            await asyncio.sleep(rng.uniform(0, 0.003))
        task.cancel()
        await holder
        try:
            await task
            outcomes["done"] += 1
        except asyncio.CancelledError:
            outcomes["cancelled"] += 1
        await check(store, mid)
    assert outcomes["cancelled"] >= 20
    row = await store.matches.get(mid)
    # a move cancelled during its COMMIT is stored all the same (never half of it)
    assert row is not None
    assert 60 + outcomes["done"] <= row.version <= 60 + outcomes["done"] + outcomes["cancelled"]
    await move(store, mid)
    await check(store, mid)


async def test_a_failing_commit_is_rolled_back_not_left_open(store: Storage) -> None:
    mid = await _active(store)
    with pytest.raises(Exception, match="FOREIGN KEY"):
        async with store.db.transaction() as tx:
            await tx.execute("PRAGMA defer_foreign_keys = ON")
            await store.actions.append(tx, 424242, [NewAction(1, 0, "pass")])
    assert not store.db.conn.in_transaction
    await move(store, mid)
    await check(store, mid)


async def test_transactions_do_not_nest(store: Storage) -> None:
    with pytest.raises(RuntimeError, match="nest"):
        async with store.db.transaction(), store.db.transaction():
            pass
    assert not store.db.conn.in_transaction


async def test_a_transaction_left_open_by_raw_use_is_rolled_back_not_built_on(
    store: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    mid = await _active(store)
    await store.db.conn.execute("BEGIN")
    await store.db.conn.execute("UPDATE matches SET host_id = 77 WHERE id = ?", (mid,))
    await move(store, mid)
    assert "left open" in caplog.text
    row = await store.matches.get(mid)
    assert row is not None and row.host_id == 1 and row.version == 1
    await check(store, mid)
