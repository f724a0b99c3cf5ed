"""A served slash command or autocomplete lets go of its response (bot/app.py ``CarcTree``):
reference counting frees the interaction, its member, channel, namespace and payload at once,
instead of the cyclic collector (~80 objects a move, issue 33). Through the real discord.py
stack. (Buttons and selects are dispatched by discord.py's view store, not the tree: their
interactions are still the collector's.)"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from tests.bot.tiletable import close_table, open_table, start_match, typed_move, whose_turn


@pytest.fixture
def saved_garbage() -> Iterator[list[object]]:
    """Cyclic garbage kept for the test to look at (the collector off meanwhile)."""
    was = gc.isenabled()
    gc.disable()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


async def test_moves_leave_no_interaction_to_the_cyclic_collector(
    tmp_path: Path, saved_garbage: list[object]
) -> None:
    t = await open_table(tmp_path / "db.sqlite3")
    try:
        turn = await start_match(t.fake)
        rng = random.Random(3)
        gc.collect()
        saved_garbage.clear()
        for _ in range(3):  # three autocompletes and the command each
            res = await typed_move(t.fake, whose_turn(turn), rng)
            turn = res.channel_sends[0]
        gc.collect()
        typed = (discord.InteractionType.application_command, discord.InteractionType.autocomplete)
        cyclic = [o for o in saved_garbage if isinstance(o, discord.Interaction)]
        assert [(i.type, i.data) for i in cyclic if i.type in typed] == []
    finally:
        await close_table(t)
