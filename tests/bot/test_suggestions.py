"""Autocomplete's reads are kept per player until the board changes (bot/cogs/suggestions.py):
a player is never offered the moves of a board that is gone, and three suggestions in a row
read the match once."""

from __future__ import annotations

import asyncio

from bot.cogs.suggestions import Suggestions
from tests.bot.tiletable import ALICE, BOB, Table, start_match, whose_turn


async def test_kept_until_the_board_changes_or_the_time_passes() -> None:
    reads: list[tuple[int, int]] = []

    async def read(channel: int, user: int) -> str:
        reads.append((channel, user))
        return f"{channel}/{user}#{len(reads)}"

    s = Suggestions(read, ttl_s=0.05)
    assert await s.get(1, 7) == "1/7#1"
    assert await s.get(1, 7) == "1/7#1"  # kept
    assert await s.get(1, 8) == "1/8#2"  # per player
    s.forget(1)  # a new board in channel 1
    assert await s.get(1, 7) == "1/7#3"
    await asyncio.sleep(0.06)
    assert await s.get(1, 7) == "1/7#4"  # too old: read again
    assert s.hits == 1 and s.misses == 4


async def test_a_read_the_board_overtook_is_not_kept() -> None:
    gate = asyncio.Event()
    s: Suggestions[int] = Suggestions(lambda c, u: _slow(gate, c))
    first = asyncio.ensure_future(s.get(1, 7))
    await asyncio.sleep(0)
    s.forget(1)  # the board changed while the read was under way
    gate.set()
    assert await first == 1
    assert s.misses == 1
    await s.get(1, 7)
    assert s.misses == 2  # read again: the first answer was the old board's


async def _slow(gate: asyncio.Event, channel: int) -> int:
    await gate.wait()
    return channel


def test_bounded() -> None:
    async def run() -> None:
        async def read(channel: int, user: int) -> int:
            return user

        s = Suggestions(read, kept=3)
        for u in range(10):
            await s.get(1, u)
        assert len(s._kept) == 3

    asyncio.run(run())


async def test_after_a_move_each_player_is_offered_the_new_boards_moves(table: Table) -> None:
    fake = table.fake
    turn = await start_match(fake)
    mover = whose_turn(turn)
    other = BOB if mover is ALICE else ALICE
    assert not await fake.autocomplete(other, "place", "cell", cell="")  # not their turn
    cells = await fake.autocomplete(mover, "place", "cell", cell="")
    assert cells
    rots = await fake.autocomplete(mover, "place", "rotation", cell=cells[0]["value"], rotation="")
    res = await fake.slash(
        mover, "place", cell=cells[0]["value"], rotation=rots[0]["value"], follower="none"
    )
    assert "Done" in res.last.text()
    assert await fake.autocomplete(other, "place", "cell", cell="")  # their turn now
    assert not await fake.autocomplete(mover, "place", "cell", cell="")
