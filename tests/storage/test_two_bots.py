"""Two bot processes on one real PostgreSQL database, through the real discord.py stack: each
interaction of a card game reaches one of the two bots at random (one Discord: they share its
messages and DM channels), as with two processes on different shards, where every direct
message reaches shard 0's. Each bot has its own service, pools, caches and locks."""

from __future__ import annotations

import random

from tests.bot.cardtable import ALICE, BOB, EVE, Driver, close_table, open_table, table_posts


async def test_a_whole_card_game_played_through_two_bot_processes(pg_url: str) -> None:
    one = await open_table(pg_url, [ALICE, BOB, EVE], set())  # type: ignore[arg-type]
    two = await open_table(pg_url, [ALICE, BOB, EVE], set(), old=one.fake)  # type: ignore[arg-type]
    two.fake.dm_channel = one.fake.dm_channel  # one Discord: the same DM channels
    rnd = random.Random(11)
    d = Driver(one, [ALICE, BOB], rnd)
    served = {"one": 0, "two": 0}
    try:
        await d.lobby_and_start()
        while not (await d.state()).over:
            name = rnd.choice(("one", "two"))
            d.t = one if name == "one" else two  # this interaction reaches that process
            served[name] += 1
            await d.step()  # checks that the move was applied once (version + 1)
        assert served["one"] > 5 and served["two"] > 5, served
        assert d.via.get("dm-play", 0) > 0, d.via  # DM answers went through either bot
        final = table_posts(d.history[-1][3])[-1]
        assert "Final scoring" in final.text()
        # both services read the same finished match, each from its own replay of the log
        for t in (one, two):
            t.cards.store.cache.clear()
            loaded = await t.cards.store.load(d.match_id)
            assert loaded.game.over and loaded.row.status == "finished"
            entries = await t.cards.storage.log_entries(d.match_id)
            assert [e.seq for e in entries] == list(range(1, loaded.row.version + 1))
    finally:
        await close_table(two)
        await close_table(one)
