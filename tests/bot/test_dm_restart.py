"""A refused DM is remembered at once (issue 13): a restart right after ``/cardgame start``
neither tries the closed DM again nor repeats the notice in the channel."""

from __future__ import annotations

import random
from pathlib import Path

from tests.bot.cardtable import ALICE, BOB, EVE, Driver, close_table, open_table


def _notices(t: object) -> list[str]:
    fake = t.fake  # type: ignore[attr-defined]
    return [
        m["content"]
        for m in fake.channel_messages()
        if f"<@{BOB.id}>" in (m["content"] or "")
        and ("My hand" in m["content"] or "Mi mano" in m["content"])
    ]


async def test_a_restart_right_after_the_start_does_not_retry_a_closed_dm(tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite3"
    t = await open_table(db, [ALICE, BOB, EVE], {BOB.id})
    d = Driver(t, [ALICE, BOB], random.Random(7))
    try:
        await d.lobby_and_start()
        assert t.fake.dm_attempts[BOB.id] == 1 and len(_notices(t)) == 1
        old = t.fake
        await close_table(t)  # no move was made: nothing but the refusal was stored
        t = await open_table(db, [ALICE, BOB, EVE], {BOB.id}, old=old)
        d.t = t
        await t.fake.ready()
        for _ in range(8):  # Bob's hand changes: the old code DMed him (and said so) again
            await d.step()
        assert t.fake.dm_attempts[BOB.id] == 1, "the closed DM was not tried again"
        assert len(_notices(t)) == 1, "the channel was told once"
        assert t.fake.dm_attempts[ALICE.id] > 1, "open DMs still go out"
    finally:
        await close_table(t)
