"""The SQLite writer keeps what it read of each match until it writes (storage/foundcache.py):
reads answered without a trip, every kind of write forgetting what it may have changed, and a
read that raced a write never kept. On a real file held with its writer lock, as the bot opens
it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from storage.errors import StaleVersion
from storage.foundcache import FoundCache
from storage.store import Storage
from storage.units import Found
from tests.storage.test_contract import CHANNEL, lobby, move, started


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Storage]:
    s = await Storage.open(tmp_path / "cache.sqlite3", writer=True)
    try:
        yield s
    finally:
        await s.close()


def trips(store: Storage) -> list[str]:
    """Counts the match reads that reach SQLite (appended to the returned list)."""
    seen: list[str] = []
    units = store.units
    real_match, real_open = units.match, units.open_match

    async def match(match_id: int) -> Found | None:
        seen.append(f"match {match_id}")
        return await real_match(match_id)

    async def open_match(channel_id: int) -> Found | None:
        seen.append(f"channel {channel_id}")
        return await real_open(channel_id)

    units.match = match  # type: ignore[method-assign]
    units.open_match = open_match  # type: ignore[method-assign]
    return seen


def cache(store: Storage) -> FoundCache:
    assert store.found_cache is not None
    return store.found_cache


async def test_only_the_writer_keeps_reads(tmp_path: Path, store: Storage) -> None:
    assert store.found_cache is not None
    reader = await Storage.open(tmp_path / "cache.sqlite3")  # a tool beside the bot
    try:
        assert reader.found_cache is None  # the bot may write behind it: always read
    finally:
        await reader.close()


async def test_reads_are_kept_until_a_write(store: Storage) -> None:
    match_id = await started(store)
    seen = trips(store)
    first = await store.load_match(match_id)
    again = await store.load_match(match_id)
    by_channel = await store.load_open_match(CHANNEL)
    by_channel_again = await store.load_open_match(CHANNEL)
    assert seen == [f"match {match_id}", f"channel {CHANNEL}"]
    assert first == again == by_channel == by_channel_again
    assert first is not None and first[0].version == 0


async def test_a_move_is_kept_as_committed(store: Storage) -> None:
    match_id = await started(store)
    await store.load_match(match_id)
    await store.load_open_match(CHANNEL)
    seen = trips(store)
    await store.commit_move(move(match_id, 0))
    found = await store.load_match(match_id)
    open_found = await store.load_open_match(CHANNEL)
    assert seen == []  # the commit's own read of the row answers both
    assert found is not None and found[0].version == 1
    assert open_found is not None and open_found[0].version == 1
    assert found[0].snapshot == {"turn": 1}


async def test_a_finished_match_leaves_its_channel(store: Storage) -> None:
    match_id = await started(store)
    assert await store.load_open_match(CHANNEL) is not None
    await store.commit_move(move(match_id, 0, status="finished"))
    assert await store.load_open_match(CHANNEL) is None
    found = await store.load_match(match_id)
    assert found is not None and found[0].status == "finished"


async def test_the_turn_message_is_written_into_what_was_kept(store: Storage) -> None:
    one = await started(store)
    two = await started(store, channel=CHANNEL + 1)
    await store.load_match(one)
    await store.load_match(two)
    fresh = store.units.match  # read past the cache, not counted
    seen = trips(store)
    assert await store.set_turn_message(one, 0, 555)
    found = await store.load_match(one)
    by_channel = await store.load_open_match(CHANNEL)
    await store.load_match(two)
    assert seen == []
    assert found == by_channel == await fresh(one)
    assert found is not None and found[0].turn_message_id == 555
    assert not await store.set_turn_message(one, -1, 556)  # older: not stored
    assert await store.load_match(one) == await fresh(one)
    assert seen == []


async def test_a_turn_message_after_another_write_is_read_again(store: Storage) -> None:
    """A write of the match lands while the turn message waits for the write lock: what was
    kept before is not patched (it misses that write), the next read goes to SQLite."""
    match_id = await started(store)
    await store.load_match(match_id)
    await asyncio.gather(
        store.commit_move(move(match_id, 0)), store.set_turn_message(match_id, 1, 7)
    )
    found = await store.load_match(match_id)
    assert found == await store.units.match(match_id)
    assert found is not None and found[0].version == 1 and found[0].turn_message_id == 7


#: each write, and whether it may change the lobby's row or seats (then both are read again)
WRITES: dict[str, tuple[Callable[[Storage, int], Awaitable[Any]], bool]] = {
    "join": (lambda s, m: s.join_lobby(m, 9, "p9", capacity=4), True),
    "options": (lambda s, m: s.set_lobby_options(m, {"players": 3}), True),
    "lobby message": (lambda s, m: s.set_lobby_message(m, 77), True),
    "controller": (lambda s, m: s.set_controller(m, 1, "ai:strong"), True),
    "leave": (lambda s, m: s.remove_seats(m, [1], abandon=True), True),
    "abandon": (lambda s, m: s.abandon_match(m), True),
    "a tool's transaction": (lambda s, m: _raw_host(s, m), True),
    "timers": (lambda s, m: s.replace_timers(m, ()), False),
    "votes": (lambda s, m: s.add_vote(m, 1, 0, 2), False),
    "settings": (lambda s, m: s.put_guild_defaults(10, {"lang": "es"}), False),
    "quiet": (lambda s, m: s.set_quiet(1, True), False),
    "closed DMs": (lambda s, m: s.note_dm_closed(1), False),
}


async def _raw_host(store: Storage, match_id: int) -> None:
    async with store.db.transaction() as tx:  # says nothing of what it writes: anything
        await tx.execute("UPDATE matches SET host_id = 42 WHERE id = ?", (match_id,))


@pytest.mark.parametrize("what", sorted(WRITES))
async def test_each_write_forgets_what_it_may_change(store: Storage, what: str) -> None:
    match_id = await lobby(store)
    other = await started(store, channel=CHANNEL + 1)
    for m, c in ((match_id, CHANNEL), (other, CHANNEL + 1)):
        await store.load_match(m)
        await store.load_open_match(c)
    write, changes_rows = WRITES[what]
    await write(store, match_id)
    fresh = store.units.match
    seen = trips(store)
    after = await store.load_match(match_id)
    await store.load_open_match(CHANNEL)
    await store.load_match(other)
    await store.load_open_match(CHANNEL + 1)
    expected = [f"match {match_id}", f"channel {CHANNEL}"] if changes_rows else []
    if what == "a tool's transaction":  # everything is forgotten
        expected += [f"match {other}", f"channel {CHANNEL + 1}"]
    assert seen == expected
    assert after == await fresh(match_id)


async def test_a_new_lobby_forgets_its_channel_only(store: Storage) -> None:
    assert await store.load_open_match(CHANNEL) is None  # nothing open: kept as such
    other = await started(store, channel=CHANNEL + 1)
    await store.load_match(other)
    await store.load_open_match(CHANNEL + 1)
    seen = trips(store)
    match_id = await lobby(store)
    found = await store.load_open_match(CHANNEL)
    await store.load_match(other)
    await store.load_open_match(CHANNEL + 1)
    assert seen == [f"channel {CHANNEL}"]
    assert found is not None and found[0].id == match_id


async def test_a_started_match_is_read_again(store: Storage) -> None:
    match_id = await lobby(store)
    await store.join_lobby(match_id, 2, "p2", capacity=4)
    before = await store.load_open_match(CHANNEL)
    assert before is not None and before[0].status == "lobby"
    await store.start_match(match_id, seat_order=[1, 2], setup={"players": 2}, snapshot={})
    after = await store.load_open_match(CHANNEL)
    assert after is not None and after[0].status == "active" and after[0].started


async def test_a_read_that_raced_a_write_is_not_kept(store: Storage) -> None:
    """The read leaves for SQLite's thread, a move commits before its answer is handled: the
    answer may predate the move, so it is handed back but not kept."""
    match_id = await started(store)
    real = store.units.match

    async def slow_read(mid: int) -> Found | None:
        found = await real(mid)  # read at version 0 ...
        await store.commit_move(move(match_id, 0))  # ... then a move lands
        return found

    store.units.match = slow_read  # type: ignore[method-assign]
    raced = await store.load_match(match_id)
    store.units.match = real  # type: ignore[method-assign]
    assert raced is not None and raced[0].version == 0
    found = await store.load_match(match_id)
    assert found is not None and found[0].version == 1  # not the raced answer


async def test_reads_inside_a_transaction_see_its_writes(store: Storage) -> None:
    match_id = await started(store)
    await store.load_match(match_id)
    async with store.db.transaction() as tx:
        await tx.execute("UPDATE matches SET host_id = 43 WHERE id = ?", (match_id,))
        inside = await store.load_match(match_id)
        assert inside is not None and inside[0].host_id == 43


async def test_answers_are_copies(store: Storage) -> None:
    match_id = await lobby(store)
    found = await store.load_match(match_id)
    assert found is not None
    found[0].options["players"] = 99  # a caller changes what it was handed
    found[1].clear()
    again = await store.load_match(match_id)
    assert again is not None and again[0].options.get("players") != 99 and again[1]
    playing = await started(store, channel=CHANNEL + 1)
    committed = await store.commit_move(move(playing, 0))
    committed[1].clear()  # the mover changes the row it was handed back
    kept = await store.load_match(playing)
    assert kept is not None and len(kept[1]) == 2


async def test_bounded(store: Storage) -> None:
    cache(store).size = 3
    ids = [await started(store, channel=CHANNEL + i) for i in range(5)]
    for i, m in enumerate(ids):
        await store.load_match(m)
        await store.load_open_match(CHANNEL + i)
    kept = cache(store)
    assert len(kept._by_match) == 3 and len(kept._by_channel) == 3
    assert len(kept._channel_of) == 3
    seen = trips(store)
    await store.load_match(ids[0])  # the oldest was forgotten
    await store.load_match(ids[-1])
    assert seen == [f"match {ids[0]}"]


async def test_concurrent_moves_and_reads_end_fresh(store: Storage) -> None:
    """Reads and moves of several matches interleaved on the loop: every read after the last
    move of its match shows that move."""
    ids = [await started(store, channel=CHANNEL + i) for i in range(4)]

    async def play(m: int) -> None:
        for v in range(6):
            await asyncio.gather(store.load_match(m), store.commit_move(move(m, v)))
            await store.load_open_match(CHANNEL + ids.index(m))

    await asyncio.gather(*(play(m) for m in ids))
    for i, m in enumerate(ids):
        found = await store.load_match(m)
        by_channel = await store.load_open_match(CHANNEL + i)
        assert found is not None and found[0].version == 6
        assert by_channel is not None and by_channel[0].version == 6


# ---------------------------------------------------- writes committed together (storage/groupcommit.py)
async def test_a_move_and_its_turn_message_committed_together_are_kept_as_committed(
    store: Storage,
) -> None:
    match_id = await started(store)
    await store.load_match(match_id)
    before = store.db.group.batches
    await asyncio.gather(
        store.commit_move(move(match_id, 0)), store.set_turn_message(match_id, 1, 7)
    )
    assert store.db.group.batches == before + 1  # one trip for both
    seen = trips(store)
    found = await store.load_match(match_id)
    assert seen == []  # answered from what was kept: the move's row with its turn message
    assert found == await store.units.match(match_id)
    assert found is not None and found[0].version == 1 and found[0].turn_message_id == 7


async def test_other_tables_writes_in_the_same_trip_do_not_lose_a_turn_message(
    store: Storage,
) -> None:
    """Table A's move and table B's turn message share a trip: B's kept row gets its id (it
    used to be dropped whenever any other write came between)."""
    a = await started(store)
    b = await started(store, channel=CHANNEL + 1)
    await store.commit_move(move(b, 0))
    await store.load_match(a)
    await store.load_match(b)
    with pytest.raises(StaleVersion):  # and a refused move in the same trip changes nothing
        await asyncio.gather(
            store.commit_move(move(a, 0)),
            store.set_turn_message(b, 1, 99),
            store.commit_move(move(a, 5)),
        )
    seen = trips(store)
    found_a, found_b = await store.load_match(a), await store.load_match(b)
    assert seen == [f"match {a}"]  # a refused write is told too: A is read again, B is kept
    assert found_a == await store.units.match(a) and found_b == await store.units.match(b)
    assert found_a is not None and found_a[0].version == 1
    assert found_b is not None and found_b[0].turn_message_id == 99
