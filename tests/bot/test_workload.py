"""Full is not broken (issue 33): a move is acknowledged at once however busy the bot is, then
waits for a work slot (bot/workload.py); one that cannot get a slot is refused cleanly and
changes nothing; a lobby answered after Discord's 3 s is still posted. Driven through the real
discord.py stack, with the fake Discord enforcing the acknowledgement deadline (404 10062)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from app.base import ServiceError
from bot.workload import BUSY, WorkGate
from tests.bot.tiletable import ALICE, BOB, Table, channel_of, cid, start_match, whose_turn
from tests.fakediscord import DEFAULT_CHANNEL, FakeDiscord, User
from tests.fakediscord_records import DEFERRED_CHANNEL_MESSAGE


# ------------------------------------------------------------------------------ the gate
async def test_gate_bounds_the_work_and_keeps_arrival_order() -> None:
    gate = WorkGate(2, patience_s=5, notice_after_s=5)
    running, most, order = 0, 0, []

    async def move(i: int) -> None:
        nonlocal running, most
        async with gate.slot():
            running += 1
            most = max(most, running)
            order.append(i)
            await asyncio.sleep(0.01)
            running -= 1

    await asyncio.gather(*(move(i) for i in range(8)))
    assert most == 2
    assert order == list(range(8))  # first come, first served
    assert gate.stats.entered == 8 and gate.stats.waited == 6 and gate.stats.refused == 0
    assert gate.busy == 0 and gate.waiting == 0


async def test_gate_refuses_after_its_patience_and_when_too_many_wait() -> None:
    gate = WorkGate(1, patience_s=0.05, notice_after_s=0.01, max_waiting=1)
    notices: list[int] = []

    async def notice(ahead: int) -> None:
        notices.append(ahead)

    async with gate.slot():
        with pytest.raises(ServiceError) as refused:
            async with gate.slot(notice):
                raise AssertionError("no slot should be free")
        assert refused.value.key == BUSY
        assert notices == [1]  # told once that it waits, then refused

        waiter = asyncio.ensure_future(_enter(gate))
        await asyncio.sleep(0)  # it waits now: a second waiter is one too many
        with pytest.raises(ServiceError):
            async with gate.slot():
                pass
        with contextlib.suppress(ServiceError):
            await waiter
    assert gate.stats.refused == 3
    assert gate.busy == 0 and gate.waiting == 0  # no slot leaked by the refusals


async def test_a_cancelled_waiter_leaks_no_slot() -> None:
    gate = WorkGate(1, patience_s=5, notice_after_s=5)
    async with gate.slot():
        waiter = asyncio.ensure_future(_enter(gate))
        await asyncio.sleep(0.01)
        waiter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiter
    assert gate.busy == 0 and gate.waiting == 0
    async with gate.slot():  # the slot is free again
        assert gate.busy == 1


async def _enter(gate: WorkGate) -> None:
    async with gate.slot():
        await asyncio.sleep(0)


# ------------------------------------------------------------------------------ through Discord
@contextlib.asynccontextmanager
async def all_slots_taken(table: Table, **options: float) -> AsyncIterator[WorkGate]:
    """The bot with one work slot, held by someone else until the block ends."""
    gate = WorkGate(1, **options)
    table.bot.work = gate
    async with gate.slot():
        yield gate


async def legal_place(fake: FakeDiscord, user: User) -> dict[str, object]:
    cell = (await fake.autocomplete(user, "place", "cell", cell=""))[0]["value"]
    rots = await fake.autocomplete(user, "place", "rotation", cell=cell, rotation="")
    return {"cell": cell, "rotation": rots[0]["value"], "follower": "none"}


async def test_a_move_past_capacity_is_acknowledged_then_refused_cleanly(table: Table) -> None:
    fake = table.fake
    fake.ack_deadline = 3.0
    turn = await start_match(fake)
    user = whose_turn(turn)
    move = await legal_place(fake, user)
    before = await table.service.current(channel_of(turn), render=False)
    async with all_slots_taken(table, patience_s=0.2, notice_after_s=0.1):
        res = await fake.slash(user, "place", **move)
    assert res.callback.callback_type == DEFERRED_CHANNEL_MESSAGE  # acknowledged first
    assert "not** made" in res.last.text() and res.last.ephemeral
    assert "waits its turn" in res.text()  # told it was queued before it gave up
    assert not res.channel_sends  # no board: nothing happened
    after = await table.service.current(channel_of(turn), render=False)
    assert after.version == before.version
    assert fake.late_acks == 0
    # the player tries again once the bot has room: the move is made, once
    again = await fake.slash(user, "place", **move)
    assert "Done" in again.last.text() and len(again.channel_sends) == 1
    final = await table.service.current(channel_of(turn), render=False)
    assert final.version > before.version


async def test_a_move_that_waits_is_made_when_a_slot_frees(table: Table) -> None:
    fake = table.fake
    fake.ack_deadline = 3.0
    turn = await start_match(fake)
    user = whose_turn(turn)
    move = await legal_place(fake, user)
    gate = WorkGate(1, patience_s=30, notice_after_s=0.05)
    table.bot.work = gate
    held = asyncio.Event()
    release = asyncio.Event()

    async def other_move() -> None:
        async with gate.slot():
            held.set()
            await release.wait()

    other = asyncio.ensure_future(other_move())
    await held.wait()
    sent = asyncio.ensure_future(fake.slash(user, "place", **move))
    while gate.waiting == 0:  # the move is acknowledged and waits for the slot
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)
    release.set()
    res = await sent
    await other
    assert res.callback.callback_type == DEFERRED_CHANNEL_MESSAGE
    assert "waits its turn" in res.text() and "Done" in res.last.text()
    assert len(res.channel_sends) == 1  # the new board, once
    assert fake.late_acks == 0 and gate.stats.waited == 1


async def test_a_lobby_answered_too_late_is_still_posted(table: Table) -> None:
    """Discord drops an answer after 3 s (10062): the lobby message goes to the channel
    instead, and the table is playable — it does not stay dead."""
    fake = table.fake
    fake.ack_deadline = 0.0  # every answer is late
    new = await fake.slash(ALICE, "new")
    assert fake.late_acks == 1
    lobby = new.channel_sends[-1]
    assert "Join" in str(lobby.payload)
    fake.ack_deadline = None
    join = await fake.click(BOB, lobby.message_id or 0, cid(lobby, "join"))
    assert join.callback.callback_type == 7 and "<@202>" in join.callback.text()
    start = await fake.click(ALICE, lobby.message_id or 0, cid(lobby, "start"))
    assert len(start.channel_sends) == 1 and start.channel_sends[0].custom_ids()


async def test_a_lobby_opened_while_moves_queue_is_acknowledged_first(table: Table) -> None:
    """With every work slot taken, ``/carcassonne new`` acknowledges at once and the lobby
    comes as its followup; the table then plays as usual, and against AIs it starts at once."""
    fake = table.fake
    fake.ack_deadline = 3.0
    gate = WorkGate(1)
    table.bot.work = gate
    async with gate.slot():  # another move is being worked on: the bot is busy
        new = await fake.slash(ALICE, "new")
    assert new.callback.callback_type == DEFERRED_CHANNEL_MESSAGE
    lobby = new.followups[-1]
    assert "Join" in str(lobby.payload) and lobby.message_id
    join = await fake.click(BOB, lobby.message_id, cid(lobby, "join"))
    assert join.callback.callback_type == 7 and "<@202>" in join.callback.text()
    start = await fake.click(ALICE, lobby.message_id, cid(lobby, "start"))
    assert len(start.channel_sends) == 1 and start.channel_sends[0].custom_ids()
    assert fake.late_acks == 0


async def test_a_game_against_ais_opened_too_late_still_starts(table: Table) -> None:
    """``/carcassonne new opponents:1`` answered after Discord's 3 s: the lobby is posted in
    the channel, closed there, and the first turn follows — the table does not stay dead."""
    fake = table.fake
    fake.ack_deadline = 0.0
    new = await fake.slash(ALICE, "new", opponents=1, level="easy")
    fake.ack_deadline = None
    lobby = new.channel_sends[0]
    assert "AI 1" in str(lobby.payload)
    assert any(r.method == "PATCH" and r.message_id == lobby.message_id for r in new.requests)
    outcome = await table.service.current(DEFAULT_CHANNEL, render=False)
    assert not outcome.finished
    turns = [r for r in new.channel_sends[1:] if any(n == "board.png" for n, _ in r.files)]
    assert turns, "the first turn is posted after the lobby"
