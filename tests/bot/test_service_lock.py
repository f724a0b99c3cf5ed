"""A match's lock covers reading, checking and storing a move, not drawing its picture
(issue 29): while one answer's board is drawn, the next call on the same match (another
seat's sealed bid, a refusal) is served at once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from app.matches import ERR_NOT_YOUR_TURN, MatchService
from app.painters import Painter
from engine import PlaceTile
from tests.bot.matchservice import ANN, BOB, CHANNEL, open_service, refused, two_player_match

T = TypeVar("T")


class GatedPainter(Painter):
    """Draws in a thread like the default painter, but holds its first picture until the
    test opens the gate (a slow board, deterministically)."""

    def __init__(self) -> None:
        self.drawing = asyncio.Event()
        self.gate = asyncio.Event()
        self.calls = 0

    async def paint(self, fn: Callable[[], T]) -> T:
        self.calls += 1
        if self.calls == 1:
            self.drawing.set()
            await self.gate.wait()
        return await super().paint(fn)


async def test_another_call_is_served_while_a_move_is_being_drawn(db_path: Path) -> None:
    svc: MatchService = await open_service(db_path)
    try:
        out = await two_player_match(svc)
        first = out.current_user_id
        other = BOB if first == ANN else ANN
        painter = GatedPainter()
        svc.painter = painter
        pos = next(iter(out.placements))
        move = asyncio.create_task(
            svc.submit(CHANNEL, first, [PlaceTile(pos, out.placements[pos][0])], out.version)
        )
        await asyncio.wait_for(painter.drawing.wait(), 5)  # the first move is stored, being drawn
        # the other seat's call takes the same match's lock: it is answered while the first
        # move's board is drawn
        # (before the fix it waited for the picture: the wait_for timed out)
        await asyncio.wait_for(
            refused(ERR_NOT_YOUR_TURN, svc.submit(CHANNEL, other, [PlaceTile(pos, 0)])), 5
        )
        stored = await svc.current(CHANNEL, render=False)
        assert stored.version == out.version + 1  # the placement is stored already
        assert not move.done()
        painter.gate.set()
        done = await move
        assert done.version == out.version + 1 and done.png is not None
    finally:
        await svc.close()
