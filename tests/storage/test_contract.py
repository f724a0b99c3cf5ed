"""One contract for both storage backends: every test runs on a real SQLite file and on a real
PostgreSQL server (tests/storage/conftest.py), through the port the services use
(:class:`storage.port.Store`)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from storage import (
    AlreadySeated,
    ChannelBusy,
    GameResult,
    LobbyClosed,
    LobbyFull,
    MoveCommit,
    NewAction,
    Reminder,
    ResultSeat,
    StaleVersion,
)
from storage.port import Store

GUILD, CHANNEL = 10, 20


async def lobby(store: Store, channel: int = CHANNEL, host: int = 1, **options: Any) -> int:
    return await store.create_lobby(
        guild_id=GUILD, channel_id=channel, host_id=host, host_name=f"p{host}",
        options={"players": 4, **options}, seed=7, game="carcassonne",
    )  # fmt: skip


async def started(store: Store, players: int = 2, channel: int = CHANNEL) -> int:
    match_id = await lobby(store, channel)
    for user in range(2, players + 1):
        await store.join_lobby(match_id, user, f"p{user}", capacity=4)
    await store.start_match(
        match_id,
        seat_order=list(range(1, players + 1)),
        setup={"players": players},
        snapshot={"turn": 0, "record": {"names": ["p1", "p2"]}},
        compact=True,
        timers=(Reminder(user_id=1, fires_at=100.0, version=0),),
    )
    return match_id


def move(match_id: int, before: int, **more: Any) -> MoveCommit:
    return MoveCommit(
        match_id=match_id,
        expected_version=before,
        new_version=before + 1,
        snapshot={"turn": before + 1},
        entries=[NewAction(before + 1, before % 2, f"move {before + 1}")],
        **more,
    )


async def test_lobby_create_join_leave(store: Store) -> None:
    match_id = await lobby(store)
    with pytest.raises(ChannelBusy):
        await lobby(store)
    assert await store.join_lobby(match_id, 2, "p2", capacity=lambda o: o["players"]) == 2
    with pytest.raises(AlreadySeated):
        await store.join_lobby(match_id, 2, "p2", capacity=4)
    with pytest.raises(LobbyFull):
        await store.join_lobby(match_id, 3, "p3", capacity=2)
    await store.remove_seats(match_id, [1], new_host=2)
    row = await store.match(match_id)
    assert row is not None and row.host_id == 2
    assert [s.user_id for s in await store.seats(match_id)] == [2]
    assert await store.set_lobby_options(match_id, {"players": 3})
    assert (await store.open_match(CHANNEL)) == await store.match(match_id)
    await store.remove_seats(match_id, [2], abandon=True)
    assert await store.open_match(CHANNEL) is None
    with pytest.raises(LobbyClosed):
        await store.join_lobby(match_id, 5, "p5", capacity=4)


async def test_start_and_moves(store: Store) -> None:
    match_id = await started(store)
    found = await store.load_match(match_id)
    assert found is not None
    row, seats = found
    assert row.status == "active" and [s.seat for s in seats] == [0, 1]
    assert row.snapshot == {"turn": 0, "names": ["p1", "p2"]}  # stored compact
    assert [t.user_id for t in await store.pending_timers(match_id)] == [1]
    row, seats = await store.commit_move(
        move(match_id, 0, moved=[0], timers=(Reminder(user_id=2, fires_at=200.0, version=1),))
    )
    assert row.version == 1 and row.snapshot == {"turn": 1}
    with pytest.raises(StaleVersion):
        await store.commit_move(move(match_id, 0))
    await store.commit_move(move(match_id, 1, missed=[1], resigned=[1]))
    seats = await store.seats(match_id)
    assert seats[1].missed == 1 and seats[1].resigned
    assert [e.seq for e in await store.log_entries(match_id)] == [1, 2]
    assert await store.next_timer_due() == 200.0
    assert await store.set_turn_message(match_id, 2, 555)
    assert not await store.set_turn_message(match_id, 1, 444)
    assert await store.set_controller(match_id, 2, "away:easy")
    opened = await store.load_open_match(CHANNEL)
    assert opened is not None and opened[1][1].controller == "away:easy"
    assert [m.id for m in await store.matches_in_channel(CHANNEL)] == [match_id]
    assert [m.id for m in await store.matches_with_status("active")] == [match_id]


async def test_start_refuses_changed_players(store: Store) -> None:
    match_id = await lobby(store)
    await store.join_lobby(match_id, 2, "p2", capacity=4)
    with pytest.raises(StaleVersion):
        await store.start_match(match_id, seat_order=[1, 3], setup={}, snapshot={})
    row = await store.match(match_id)
    assert row is not None and row.status == "lobby"  # nothing of it stayed


async def test_finish_records_result_and_ratings(store: Store) -> None:
    match_id = await started(store)
    result = GameResult(
        match_id=match_id, guild_id=GUILD, channel_id=CHANNEL, game="carcassonne",
        expansions=("inns", "abbey"), rated=True,
        seats=(ResultSeat(0, 1, "p1", 30, 1), ResultSeat(1, 2, "p2", 20, 2)),
    )  # fmt: skip
    row, _ = await store.commit_move(move(match_id, 0, status="finished", result=result))
    assert row.status == "finished"
    pending = await store.ratings.pending()
    assert [r.match_id for r in pending] == [match_id]

    def rate(had: list[Any], places: list[int]) -> list[tuple[float, float, float, float]]:
        return [(25.0, 8.0, 30.0 - p, 7.0) for p in places]

    assert await store.ratings.apply(pending[0], rate)
    assert not await store.ratings.apply(pending[0], rate)  # once only
    top = await store.ratings.top(GUILD, limit=5)
    assert [(r.user_id, r.mu) for r in top] == [(1, 29.0), (2, 28.0)]
    assert await store.ratings.rated_players(0) == 2
    assert await store.ratings.totals(1, GUILD) == (1, 1, 30.0)
    assert await store.ratings.expansion_counts(1, GUILD) == [("abbey", 1), ("inns", 1)]
    assert [c.mu_after for c in await store.ratings.changes(GUILD, 2, limit=3)] == [28.0]
    assert await store.ratings.count(guild_id=GUILD) == 1
    assert [r.match_id for r in await store.ratings.results(user_id=2)] == [match_id]
    assert await store.ratings.result(match_id) == (await store.ratings.results())[0]
    assert await store.ratings.seconds_per_move(1, GUILD) is None


async def test_timers_claimed_once(store: Store) -> None:
    match_id = await started(store)
    assert await store.claim_due_timers(50.0) == []
    claimed = await store.claim_due_timers(150.0, "carcassonne")
    assert [(t.match_id, t.user_id, channel) for t, channel in claimed] == [(match_id, 1, CHANNEL)]
    assert await store.claim_due_timers(150.0) == []
    assert await store.next_timer_due() is None


async def test_settings_dms_quiet(store: Store) -> None:
    assert await store.guild_defaults(GUILD) == {}
    await store.put_guild_defaults(GUILD, {"lang": "de"})
    await store.put_guild_defaults(GUILD, {"lang": "es"})
    assert await store.guild_defaults(GUILD) == {"lang": "es"}
    assert await store.note_dm_closed(5)
    assert not await store.note_dm_closed(5)
    assert await store.is_dm_closed(5) and not await store.is_dm_closed(6)
    assert await store.dm_closed_among([5, 6]) == {5}
    await store.set_quiet(7, True)
    await store.set_quiet(7, True)
    await store.set_quiet(8, True)
    await store.set_quiet(8, False)
    assert await store.quiet_players() == {7}


async def test_abandon_and_prune(store: Store) -> None:
    match_id = await started(store)
    await store.commit_move(move(match_id, 0))
    await store.abandon_match(match_id)
    assert await store.pending_timers(match_id) == []
    report = await store.prune(now=10**12, lobby_days=1, match_days=1, dm_days=1)
    assert report.matches == 1
    assert await store.match(match_id) is None


async def test_votes_count_per_target_and_version_and_go_with_the_match(store: Store) -> None:
    match_id = await started(store, players=3)
    assert await store.add_vote(match_id, 3, 0, 1) == 1
    assert await store.add_vote(match_id, 3, 0, 1) == 1  # a voter counts once
    assert await store.add_vote(match_id, 3, 0, 2) == 2
    assert await store.add_vote(match_id, 2, 0, 1) == 1  # another target counts apart
    await store.commit_move(move(match_id, 0))
    assert await store.add_vote(match_id, 3, 1, 2) == 1  # a move starts the count again
    await store.clear_votes(match_id, 3)  # the seat was handed over
    assert await store.add_vote(match_id, 3, 1, 1) == 1
    await store.abandon_match(match_id)
    await store.prune(now=0, match_days=None)  # votes of matches no longer running go
    assert await store.add_vote(match_id, 3, 1, 2) == 1
    await store.prune(now=10**12, lobby_days=1, match_days=1, dm_days=1)
    assert await store.match(match_id) is None  # its votes did not hold it back


# ---------------------------------------------------------------- two connections racing


@pytest.fixture
async def second(store_target: str, backend: str) -> Any:
    """A second, independent connection to the same database (another process's view)."""
    from storage.postgres import PgStorage
    from storage.store import Storage

    if backend == "sqlite-writer":
        pytest.skip("a SQLite file has one writer (its lock): no second one to race")
    s: Store = await (
        Storage.open(store_target) if backend == "sqlite" else PgStorage.open(store_target)
    )
    try:
        yield s
    finally:
        await s.close()


async def test_the_same_move_from_two_connections_applies_once(store: Store, second: Store) -> None:
    match_id = await started(store)
    for before in range(5):
        results = await asyncio.gather(
            store.commit_move(move(match_id, before)),
            second.commit_move(move(match_id, before)),
            return_exceptions=True,
        )
        assert sum(isinstance(r, StaleVersion) for r in results) == 1, results
        assert sum(isinstance(r, tuple) for r in results) == 1, results
    assert [e.seq for e in await second.log_entries(match_id)] == [1, 2, 3, 4, 5]


async def test_a_due_timer_is_claimed_by_one_connection(store: Store, second: Store) -> None:
    ids = [await started(store, channel=c) for c in range(100, 110)]
    claims = await asyncio.gather(
        store.claim_due_timers(150.0), second.claim_due_timers(150.0), return_exceptions=True
    )
    assert not any(isinstance(c, BaseException) for c in claims), claims
    fired = sorted(t.match_id for c in claims for t, _ in c)  # type: ignore[union-attr]
    assert fired == sorted(ids)


async def test_the_last_seat_goes_to_one_of_two_connections(store: Store, second: Store) -> None:
    match_id = await lobby(store)
    results = await asyncio.gather(
        store.join_lobby(match_id, 2, "p2", capacity=2),
        second.join_lobby(match_id, 3, "p3", capacity=2),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["LobbyFull", "int"], results
    assert len(await store.seats(match_id)) == 2


async def test_a_vote_cast_through_one_connection_counts_in_another(
    store: Store, second: Store
) -> None:
    match_id = await started(store, players=3)
    assert await store.add_vote(match_id, 3, 0, 1) == 1
    assert await second.add_vote(match_id, 3, 0, 2) == 2  # another process's view


async def test_a_match_is_held_by_one_process_at_a_time(store: Store, second: Store) -> None:
    """``match_lock``: the other process waits (PostgreSQL); nothing to hold for SQLite's one
    serving process."""
    order: list[str] = []

    async def hold(s: Store, name: str, match_id: int) -> None:
        async with s.match_lock(match_id):
            order.append(f"{name} in")
            await asyncio.sleep(0.05)
            order.append(f"{name} out")

    await asyncio.gather(hold(store, "a", 1), hold(second, "b", 1), hold(second, "c", 2))
    if store.shared:
        a, b = order.index("a in"), order.index("b in")
        first = "a" if a < b else "b"
        other = "b" if first == "a" else "a"
        assert order.index(f"{first} out") < order.index(f"{other} in")
        assert order.index("c in") < order.index(f"{other} in")  # another match: no wait


async def test_a_deadline_is_leased_until_finished(store: Store) -> None:
    """A claimed move deadline comes back if its claimer never says it was dealt with (the
    process died): due again once the lease runs out, until finished."""
    from storage.repositories import TIMER_LEASE

    match_id = await started(store)
    await store.replace_timers(
        match_id, [Reminder(user_id=1, fires_at=100.0, version=0, kind="deadline")]
    )
    (first,) = await store.claim_due_timers(150.0)
    assert first[0].kind == "deadline"
    assert await store.claim_due_timers(150.0 + TIMER_LEASE - 1) == []
    (again,) = await store.claim_due_timers(150.0 + TIMER_LEASE + 1)
    assert again[0].id == first[0].id
    await store.finish_timer(match_id, "deadline", 0)
    assert await store.claim_due_timers(10.0**9) == []
    assert await store.next_timer_due() is None


async def test_a_move_keeps_replaces_or_cancels_the_timers(store: Store) -> None:
    match_id = await started(store)

    async def kinds() -> list[tuple[str, int]]:
        return sorted((t.kind, t.user_id) for t in await store.pending_timers(match_id))

    await store.commit_move(move(match_id, 0))  # "keep"
    assert await kinds() == [("turn_reminder", 1)]
    await store.commit_move(move(match_id, 1, timer=Reminder(user_id=2, fires_at=300.0, version=2)))
    assert await kinds() == [("turn_reminder", 2)]
    deadline = Reminder(user_id=1, fires_at=400.0, version=3, kind="deadline")
    warning = Reminder(user_id=1, fires_at=350.0, version=3, kind="warning")
    await store.commit_move(move(match_id, 2, timers=(deadline, warning)))
    assert await kinds() == [("deadline", 1), ("warning", 1)]
    assert await store.next_timer_due() == 350.0
    await store.commit_move(move(match_id, 3, timers=(deadline,)))
    assert await kinds() == [("deadline", 1)]
    await store.commit_move(move(match_id, 4, timer="cancel", moved=[0], missed=[1]))
    assert await kinds() == []
    row, seats = await store.commit_move(move(match_id, 5, missed=[1], status="abandoned"))
    assert row.status == "abandoned" and [s.missed for s in seats] == [0, 2]


async def test_a_secret_decision_is_claimed_for_sending_once(store: Store, second: Store) -> None:
    match_id = await started(store)
    assert await store.claim_private_sends(match_id, []) == set()
    sends = [(1, "bid#3"), (2, "bid#3")]
    assert await store.claim_private_sends(match_id, sends) == set(sends)
    assert await second.claim_private_sends(match_id, [(2, "bid#3"), (2, "bid#4")]) == {
        (2, "bid#4")
    }  # another process sends only what nobody sent
    await store.abandon_match(match_id)
    await store.prune(now=0, match_days=None)  # those of matches no longer running go
    assert await store.claim_private_sends(match_id, sends) == set(sends)
