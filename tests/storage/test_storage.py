"""Storage on real SQLite files: migrations, WAL, one open match per channel, the append-only
log and compare-and-set versions."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage import (
    AlreadySeated,
    ChannelBusy,
    Database,
    LeaveResult,
    LobbyClosed,
    LobbyFull,
    MigrationError,
    NewAction,
    StaleVersion,
    Storage,
    database_path,
    migrate,
)
from storage.migrate import MIGRATIONS_DIR, applied_versions, available_migrations


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Storage]:
    s = await Storage.open(tmp_path / "db" / "carcabot.sqlite3")
    try:
        yield s
    finally:
        await s.close()


async def _new_match(store: Storage, channel: int = 10, *, host: int = 1) -> int:
    async with store.db.transaction() as tx:
        mid = await store.matches.create(
            tx, guild_id=1, channel_id=channel, host_id=host, options={"players": 2}, seed=7
        )
        await store.matches.add_seat(tx, mid, host, "Ann")
    return mid


async def _active_match(store: Storage, channel: int = 10) -> int:
    mid = await _new_match(store, channel)
    async with store.db.transaction() as tx:
        await store.matches.add_seat(tx, mid, 2, "Bob")
        await store.matches.start(
            tx, mid, seat_order=[2, 1], setup={"players": 2}, snapshot={"schema": 1}
        )
    return mid


async def test_open_creates_parent_folder_and_turns_on_wal_and_foreign_keys(
    tmp_path: Path,
) -> None:
    path = tmp_path / "nested" / "deeper" / "x.sqlite3"
    async with await Database.open(path) as db:
        assert path.exists()
        assert await db.pragma("journal_mode") == "wal"
        assert await db.pragma("foreign_keys") == 1
        assert await db.pragma("synchronous") == 2  # FULL: a move survives a power cut


async def test_migrations_are_recorded_and_idempotent_on_a_real_file(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    every = [m.version for m in available_migrations()]
    assert every[0] == 1
    async with await Database.open(path, run_migrations=False) as db:
        assert await migrate(db.conn) == every
        assert await migrate(db.conn) == []
        assert await applied_versions(db.conn) == every
    async with await Database.open(path) as db:  # reopening migrates nothing again
        assert await applied_versions(db.conn) == every
        tables = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master")}
        assert {"matches", "match_seats", "actions", "timers", "guild_settings"} <= tables


async def test_a_failing_migration_leaves_nothing_behind(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_init.sql").write_text((MIGRATIONS_DIR / "0001_init.sql").read_text())
    (folder / "0002_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    async with await Database.open(tmp_path / "f.sqlite3", run_migrations=False) as db:
        with pytest.raises(MigrationError, match="0002_broken"):
            await migrate(db.conn, folder)
        assert await applied_versions(db.conn) == [1]
        names = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master")}
        assert "half_done" not in names and "matches" in names
        assert not db.conn.in_transaction


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite3"
    async with await Database.open(path) as db:
        await db.conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)"
        )
    with pytest.raises(MigrationError, match="newer"):
        await Database.open(path)


async def test_only_one_lobby_or_active_match_per_channel(store: Storage) -> None:
    mid = await _new_match(store, 10)
    with pytest.raises(ChannelBusy):
        await _new_match(store, 10)
    other = await _new_match(store, 11)  # another channel is fine
    assert other != mid
    async with store.db.transaction() as tx:
        await store.matches.set_status(tx, mid, "finished")
    again = await _new_match(store, 10)  # a finished match frees the channel
    row = await store.matches.open_in_channel(10)
    assert row is not None and row.id == again
    assert [m.id for m in await store.matches.in_channel(10)] == [again, mid]


async def test_a_user_takes_one_seat_per_match(store: Storage) -> None:
    mid = await _new_match(store, host=1)
    with pytest.raises(AlreadySeated):
        async with store.db.transaction() as tx:
            await store.matches.add_seat(tx, mid, 1, "Ann again")
    async with store.db.transaction() as tx:
        await store.matches.add_seat(tx, mid, 2, "Bob")
    seats = await store.matches.seats(mid)
    assert [(s.join_order, s.user_id, s.seat) for s in seats] == [(0, 1, None), (1, 2, None)]


async def test_start_assigns_seats_in_the_given_order(store: Storage) -> None:
    mid = await _active_match(store)
    row = await store.matches.get(mid)
    assert row is not None and row.status == "active" and row.setup == {"players": 2}
    seats = {s.user_id: s.seat for s in await store.matches.seats(mid)}
    assert seats == {2: 0, 1: 1}
    with pytest.raises(StaleVersion):  # a second start finds no lobby
        async with store.db.transaction() as tx:
            await store.matches.start(tx, mid, seat_order=[1, 2], setup={}, snapshot={})


async def test_leaving_hands_the_host_on_and_the_last_one_out_abandons(store: Storage) -> None:
    mid = await _new_match(store, host=1)
    for user in (2, 3):
        async with store.db.transaction() as tx:
            await store.matches.join(tx, mid, user, f"U{user}", capacity=4)
    async with store.db.transaction() as tx:
        assert await store.matches.leave(tx, mid, 9) == LeaveResult(left=False)
        assert await store.matches.leave(tx, mid, 1) == LeaveResult(left=True, new_host_id=2)
        assert await store.matches.leave(tx, mid, 3) == LeaveResult(left=True)
    row = await store.matches.get(mid)
    assert row is not None and row.host_id == 2 and row.status == "lobby"
    async with store.db.transaction() as tx:
        assert await store.matches.leave(tx, mid, 2) == LeaveResult(left=True, abandoned=True)
    row = await store.matches.get(mid)
    assert row is not None and row.status == "abandoned"
    with pytest.raises(LobbyClosed):
        async with store.db.transaction() as tx:
            await store.matches.leave(tx, mid, 2)


async def test_options_that_seat_fewer_than_have_joined_are_refused(store: Storage) -> None:
    mid = await _new_match(store, host=1)
    async with store.db.transaction() as tx:
        await store.matches.join(tx, mid, 2, "Bob", capacity=3)
        await store.matches.join(tx, mid, 3, "Cy", capacity=3)
        with pytest.raises(LobbyFull) as full:
            await store.matches.join(tx, mid, 4, "Di", capacity=3)
    assert (full.value.seated, full.value.capacity) == (3, 3)
    with pytest.raises(LobbyFull):
        async with store.db.transaction() as tx:
            await store.matches.set_options(tx, mid, {"players": 2}, capacity=2)
    async with store.db.transaction() as tx:
        assert await store.matches.set_options(tx, mid, {"players": 4}, capacity=4)
    row = await store.matches.get(mid)
    assert row is not None and row.options == {"players": 4}

    def players(options: dict[str, Any]) -> int:  # read in the join's own transaction
        return int(options["players"])

    async with store.db.transaction() as tx:
        assert await store.matches.join(tx, mid, 4, "Di", capacity=players) == 4
        with pytest.raises(LobbyFull):
            await store.matches.join(tx, mid, 5, "Ed", capacity=players)


async def test_a_start_with_players_that_are_no_longer_the_lobbys_is_stale(
    store: Storage,
) -> None:
    mid = await _new_match(store, host=1)
    async with store.db.transaction() as tx:
        await store.matches.join(tx, mid, 2, "Bob", capacity=2)
    for order in ([1], [1, 2, 3]):  # someone joined or left after the lobby was read
        with pytest.raises(StaleVersion, match="changed"):
            async with store.db.transaction() as tx:
                await store.matches.start(
                    tx, mid, seat_order=order, setup={}, snapshot={}, compact=True
                )
    row = await store.matches.get(mid)
    assert row is not None and row.status == "lobby"  # rolled back


async def test_the_action_log_is_append_only(store: Storage) -> None:
    mid = await _active_match(store)
    async with store.db.transaction() as tx:
        await store.actions.append(
            tx, mid, [NewAction(1, 0, "place 0,-1 r0"), NewAction(2, 0, "pass")]
        )
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with store.db.transaction() as tx:
            await tx.execute("UPDATE actions SET action = 'pass' WHERE match_id = ?", (mid,))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with store.db.transaction() as tx:
            await tx.execute("DELETE FROM actions WHERE match_id = ?", (mid,))
    with pytest.raises(StaleVersion):  # the same seq twice
        async with store.db.transaction() as tx:
            await store.actions.append(tx, mid, [NewAction(2, 1, "pass")])
    log = await store.actions.entries(mid)
    assert [(e.seq, e.seat, e.action) for e in log] == [(1, 0, "place 0,-1 r0"), (2, 0, "pass")]


async def test_log_entries_need_an_existing_match(store: Storage) -> None:
    with pytest.raises(StaleVersion):
        async with store.db.transaction() as tx:
            await store.actions.append(tx, 12345, [NewAction(1, 0, "pass")])
    assert await store.actions.entries(12345) == []


async def test_compare_and_set_detects_a_stale_version_and_rolls_back(store: Storage) -> None:
    mid = await _active_match(store)
    async with store.db.transaction() as tx:
        await store.matches.advance(
            tx, mid, expected_version=0, new_version=1, snapshot={"schema": 1, "v": 1}
        )
        await store.actions.append(tx, mid, [NewAction(1, 0, "place 0,-1 r0")])
    with pytest.raises(StaleVersion):
        async with store.db.transaction() as tx:
            # the log entry goes in first, then the version check fails: both roll back
            await store.actions.append(tx, mid, [NewAction(2, 0, "pass")])
            await store.matches.advance(
                tx, mid, expected_version=0, new_version=1, snapshot={"schema": 1, "v": 9}
            )
    row = await store.matches.get(mid)
    assert row is not None and row.version == 1 and row.snapshot == {"schema": 1, "v": 1}
    assert [e.seq for e in await store.actions.entries(mid)] == [1]


async def test_turn_message_ids_only_move_forward(store: Storage) -> None:
    mid = await _active_match(store)
    async with store.db.transaction() as tx:
        assert await store.matches.set_turn_message(tx, mid, 3, 555)
        assert not await store.matches.set_turn_message(tx, mid, 2, 444)
    row = await store.matches.get(mid)
    assert row is not None
    assert (row.turn_message_id, row.turn_message_version) == (555, 3)


async def test_due_timers_are_claimed_once_and_only_for_active_matches(store: Storage) -> None:
    a = await _active_match(store, 10)
    b = await _active_match(store, 11)
    async with store.db.transaction() as tx:
        await store.timers.replace_turn_reminder(tx, a, user_id=2, fires_at=100.0, version=0)
        await store.timers.replace_turn_reminder(tx, a, user_id=1, fires_at=200.0, version=1)
        await store.timers.replace_turn_reminder(tx, b, user_id=2, fires_at=150.0, version=0)
        await store.matches.set_status(tx, b, "abandoned")
    assert [t.user_id for t in await store.timers.pending(a)] == [1]  # replaced, not added
    async with store.db.transaction() as tx:
        assert await store.timers.claim_due(tx, 199.0) == []
        due = await store.timers.claim_due(tx, 200.0)
    assert [(t.match_id, t.user_id, ch) for t, ch in due] == [(a, 1, 10)]
    async with store.db.transaction() as tx:
        assert await store.timers.claim_due(tx, 10_000.0) == []


async def test_guild_settings_round_trip(store: Storage) -> None:
    assert await store.guilds.get(5) == {}
    async with store.db.transaction() as tx:
        await store.guilds.put(tx, 5, {"players": 3})
        await store.guilds.put(tx, 5, {"players": 4, "tiny_city": 4})
    assert await store.guilds.get(5) == {"players": 4, "tiny_city": 4}


async def test_data_survives_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "persist.sqlite3"
    s = await Storage.open(path)
    try:
        mid = await _active_match(s)
    finally:
        await s.close()
    s = await Storage.open(path)
    try:
        row = await s.matches.get(mid)
        assert row is not None and row.status == "active"
    finally:
        await s.close()


def test_database_path_comes_from_the_environment() -> None:
    assert database_path({}) == Path("data/carcabot.sqlite3")
    assert database_path({"DATABASE_PATH": "  "}) == Path("data/carcabot.sqlite3")
    assert database_path({"DATABASE_PATH": "/x/y.db"}) == Path("/x/y.db")


async def test_reads_outside_a_transaction_never_see_it_uncommitted(store: Storage) -> None:
    """Another coroutine's open transaction is invisible until it commits (reads go to the
    reader connection); inside the transaction its own writes are visible."""
    mid = await _new_match(store)
    inside = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        async with store.db.transaction() as tx:
            await store.matches.set_host(tx, mid, 99)
            row = await store.matches.get(mid)
            assert row is not None and row.host_id == 99  # its own write
            inside.set()
            await release.wait()
            raise RuntimeError("changed my mind")

    task = asyncio.create_task(writer())
    await inside.wait()
    row = await store.matches.get(mid)
    assert row is not None and row.host_id == 1  # not the uncommitted 99
    release.set()
    with pytest.raises(RuntimeError, match="changed my mind"):
        await task
    row = await store.matches.get(mid)
    assert row is not None and row.host_id == 1
