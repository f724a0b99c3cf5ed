"""A move's units of work on a real SQLite file: each is one trip to the connection's thread
(counted by wrapping the connections, not timed), all-or-nothing, and the JSON columns are
decoded only when read."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage import (
    MoveCommit,
    NewAction,
    Reminder,
    StaleVersion,
    Storage,
    StorageBusy,
)
from tests.storage.trips import Trips


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Storage]:
    s = await Storage.open(tmp_path / "units.sqlite3")
    try:
        yield s
    finally:
        await s.close()


async def _active(store: Storage, channel: int = 10) -> int:
    async with store.db.transaction() as tx:
        mid = await store.matches.create(
            tx,
            guild_id=1,
            channel_id=channel,
            host_id=1,
            options={"players": 2, "reminder_minutes": 5},
            seed=7,
        )
        await store.matches.add_seat(tx, mid, 1, "Ann")
        await store.matches.add_seat(tx, mid, 2, "Bob")
        await store.matches.start(
            tx, mid, seat_order=[2, 1], setup={"players": 2}, snapshot={"schema": 1}
        )
    return mid


def _move(mid: int, before: int, **kw: Any) -> MoveCommit:
    after = before + 1
    kw.setdefault("entries", [NewAction(after, before % 2, f"place {after},0 r0")])
    return MoveCommit(
        match_id=mid,
        expected_version=before,
        new_version=after,
        snapshot={"schema": 1, "turn": after, "record": {"names": ["Bob", "Ann"]}},
        **kw,
    )


async def test_a_read_of_row_and_seats_is_one_trip(store: Storage) -> None:
    mid = await _active(store)
    trips = Trips(store.db)
    found = await store.units.match(mid)
    assert trips.take() == 1
    assert found is not None
    row, seats = found
    assert row.id == mid and row.status == "active"
    assert [(s.seat, s.user_id, s.name) for s in seats] == [(1, 1, "Ann"), (0, 2, "Bob")]
    by_channel = await store.units.open_match(10)
    assert trips.take() == 1 and by_channel == found
    assert await store.units.open_match(11) is None and await store.units.match(999) is None
    assert trips.take() == 2


async def test_a_whole_move_is_one_trip_and_returns_the_row_as_committed(store: Storage) -> None:
    mid = await _active(store)
    trips = Trips(store.db)
    row, seats = await store.units.commit_move(
        _move(mid, 0, timer=Reminder(user_id=2, fires_at=123.0, version=1))
    )
    assert trips.take() == 1, "BEGIN, the compare-and-set, the log, the timer, COMMIT, re-read"
    assert row.version == 1 and row.status == "active" and len(seats) == 2
    assert row.snapshot == {"schema": 1, "turn": 1, "names": ["Bob", "Ann"]}  # compact
    assert [(e.seq, e.action) for e in await store.actions.entries(mid)] == [(1, "place 1,0 r0")]
    (timer,) = await store.timers.pending(mid)
    assert (timer.user_id, timer.fires_at, timer.version) == (2, 123.0, 1)

    row, seats = await store.units.commit_move(
        _move(mid, 1, status="finished", resigned=[0], timer="cancel")
    )
    assert row.status == "finished" and row.version == 2
    assert row.snapshot is not None and row.snapshot["record"] == {"names": ["Bob", "Ann"]}
    assert [s.resigned for s in seats] == [False, True]  # Bob sat at seat 0
    assert await store.timers.pending(mid) == []


async def test_a_stale_or_failing_move_writes_nothing(store: Storage) -> None:
    mid = await _active(store)
    await store.units.commit_move(_move(mid, 0))
    with pytest.raises(StaleVersion):  # someone else moved the match on
        await store.units.commit_move(_move(mid, 0))
    # the version matches but the log already holds that entry: the update is rolled back
    clash = MoveCommit(mid, 1, 2, {"schema": 1}, [NewAction(1, 0, "pass")])
    with pytest.raises(StaleVersion):
        await store.units.commit_move(clash)
    found = await store.units.match(mid)
    assert found is not None and found[0].version == 1
    assert len(await store.actions.entries(mid)) == 1
    assert not store.db.conn.in_transaction
    with pytest.raises(ValueError):
        await store.units.commit_move(_move(mid, 1, status="won"))


async def test_set_turn_message_is_one_trip_and_never_goes_back(store: Storage) -> None:
    mid = await _active(store)
    trips = Trips(store.db)
    assert await store.units.set_turn_message(mid, 3, 555)
    assert trips.take() == 1
    assert not await store.units.set_turn_message(mid, 2, 444)  # an older version
    found = await store.units.match(mid)
    assert found is not None
    assert (found[0].turn_message_id, found[0].turn_message_version) == (555, 3)


async def test_json_columns_are_decoded_on_first_use(
    store: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    import storage.rows as rows

    mid = await _active(store)
    decoded: list[str] = []
    real = rows.loads

    def counting(text: str | None) -> Any:
        decoded.append(text or "")
        return real(text)

    monkeypatch.setattr(rows, "loads", counting)
    found = await store.units.match(mid)
    assert found is not None
    row = found[0]
    assert decoded == [] and row.started
    assert row.setup == {"players": 2} and row.setup == {"players": 2}
    assert len(decoded) == 1, "decoded once, then kept"
    assert row.options["players"] == 2 and row.snapshot == {"schema": 1}
    assert len(decoded) == 3


async def test_a_busy_file_is_retried_then_refused_and_nothing_is_half_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "busy.sqlite3"
    store = await Storage.open(path, busy_timeout_ms=10, write_deadline=0.3)
    try:
        mid = await _active(store)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # a second process holds the write lock
        with pytest.raises(StorageBusy):
            await store.units.commit_move(_move(mid, 0))
        task = asyncio.create_task(store.units.commit_move(_move(mid, 0)))
        await asyncio.sleep(0.05)
        other.execute("ROLLBACK")  # released while the unit waits: it gets through
        row, _ = await task
        assert row.version == 1
        other.close()
    finally:
        await store.close()


async def test_units_do_not_nest_inside_a_transaction(store: Storage) -> None:
    mid = await _active(store)
    async with store.db.transaction():
        with pytest.raises(RuntimeError):
            await store.units.commit_move(_move(mid, 0))
        # reads inside a transaction see its writes (they run on the writer connection)
        assert await store.units.match(mid) is not None
