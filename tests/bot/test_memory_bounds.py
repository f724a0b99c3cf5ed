"""What the bot keeps in memory stays bounded however many matches are played (issue 13):
per-match locks exist only while a call holds them, the closed-DM knowledge lives in the
database, and what the cog remembers per match (language, secret decisions sent by DM) is
dropped when the match ends and capped for matches that never end. discord.py's own view and
modal stores do not grow with the turn messages either (every component is a dynamic item)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.tiletable import ALICE, BOB, close_table, open_table
from tests.fakediscord import User

CAP = 5


async def test_memory_stays_bounded_over_many_matches(tmp_path: Path) -> None:
    t = await open_table(tmp_path / "m.sqlite3")
    fake, service = t.fake, t.service
    cog = t.bot.get_cog("Carcassonne")
    assert cog is not None
    cog._lang.size = cog._dm_sent.size = CAP  # type: ignore[attr-defined]
    cards = t.bot.card_service  # type: ignore[attr-defined]
    try:
        ended = running = 0
        for i in range(36):
            channel = 10_000 + i
            host = User(1_000 + i, f"Host{i}", locale="es-ES" if i % 2 else "en-US")
            await fake.slash(host, "new", channel_id=channel)
            await fake.slash(BOB, "join", channel_id=channel)
            start = await fake.slash(host, "start", channel_id=channel)
            assert start.channel_sends, start.text()
            if i % 3 == 0:
                await fake.slash(BOB, "resign", channel_id=channel)  # ends: Host wins
                ended += 1
            elif i % 3 == 1:
                await fake.slash(host, "abandon", channel_id=channel)
                ended += 1
            else:
                running += 1  # left running: only the cap bounds what is remembered
            await fake.slash(ALICE, "new", channel_id=channel + 500, command="cardgame")
            await fake.slash(BOB, "join", channel_id=channel + 500, command="cardgame")
            await fake.slash(ALICE, "start", channel_id=channel + 500, command="cardgame")
        assert ended == 24 and running == 12
        assert len(service.store.locks) == 0 and len(cards.store.locks) == 0, "no call is in flight"
        assert len(cog._lang) <= CAP and len(cog._dm_sent) <= CAP  # type: ignore[attr-defined]
        assert len(service.store.cache) <= service.cache_size
        assert len(service.pictures.cache) <= service.cache_size
        assert not hasattr(service.dm, "closed"), "closed DMs are not kept in memory"
        store = t.bot._connection._view_store
        assert len(store._synced_message_views) == 0 and len(store._modals) == 0
        assert sum(len(v) for v in store._views.values()) <= 5, store._views.keys()
    finally:
        await close_table(t)


async def test_a_lock_lives_while_a_call_holds_it() -> None:
    """The per-match lock table forgets a lock with its last user, and two callers that
    overlap still share one lock."""
    import asyncio

    from app.store import MatchStore

    store: MatchStore[Any] = MatchStore.__new__(MatchStore)
    import weakref

    store.locks = weakref.WeakValueDictionary()
    order: list[str] = []

    async def call(name: str) -> None:
        async with store.lock(7):
            order.append(f"{name} in")
            await asyncio.sleep(0)
            order.append(f"{name} out")

    await asyncio.gather(call("a"), call("b"))
    assert order == ["a in", "a out", "b in", "b out"], "one lock serialised both"
    assert len(store.locks) == 0
