"""AI players through the real discord.py stack: ``/carcassonne new opponents:`` starts a game
against AI seats at once, the lobby's AI select adds and removes them, the turn message says
an AI is thinking (no buttons, no ping) while its move is played in the background and posted
like a person's, and ``/carcassonne away`` hands a seat to a stand-in until ``back``."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.cardgame import seat_view
from tests.bot.tiletable import ALICE, BOB, Table, cid, close_table, open_table
from tests.fakediscord import DEFAULT_CHANNEL, Request, walk_components


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    t = await open_table(tmp_path / "ai.sqlite3")
    try:
        yield t
    finally:
        await close_table(t)


async def _alice_moves(table: Table, rng: random.Random) -> list[Request]:
    """Alice places the drawn tile on a random cell and rotation, with no follower; returns
    the channel messages that followed (hers, then the AI's)."""
    fake = table.fake
    cells = await fake.autocomplete(ALICE, "place", "cell", cell="")
    cell = rng.choice(cells)["value"]
    rots = await fake.autocomplete(ALICE, "place", "rotation", cell=cell, rotation="")
    res = await fake.slash(
        ALICE, "place", cell=cell, rotation=rng.choice(rots)["value"], follower="none"
    )
    return res.channel_sends


async def test_a_game_against_an_ai_from_new_to_the_final_scores(table: Table) -> None:
    fake = table.fake
    new = await fake.slash(ALICE, "new", opponents=1, level="easy")
    lobby = new.callback
    assert "🤖 AI 1" in lobby.text(), lobby.text()
    sends = new.channel_sends  # the first turn (and the AI's move when it went first)
    assert sends, new.requests
    rng = random.Random(5)
    ai_moves = 0
    for _ in range(200):
        if any("🏁" in s.content for s in sends):
            break
        last = sends[-1]
        assert "<@101>" in last.content and "thinking" not in last.content, last.content
        sends = await _alice_moves(table, rng)
        assert len(sends) >= 2 or "🏁" in sends[0].content, "Alice's move, then the AI's"
        thinking = sends[0]
        if "🏁" not in thinking.content and len(sends) > 1:
            # Alice's move hands the turn to the AI: it thinks, with nothing to press
            assert "🤖 AI 1 is thinking…" in thinking.content, thinking.content
            labels = [c.get("label") for c in walk_components(thinking.data["components"])]
            assert all("Cell" not in str(x) for x in labels)
            assert "<@" not in thinking.content.split("\n")[-1]
        for s in sends[1:]:
            if s.content.startswith("🤖 AI 1:"):
                ai_moves += 1
    else:
        raise AssertionError("the game did not end")
    assert ai_moves > 30
    outcome = await table.service.match(1)
    assert outcome.finished and {s.name for s in outcome.seats} == {"Alice", "AI 1"}


async def test_the_lobby_adds_and_removes_ai_seats(table: Table) -> None:
    fake = table.fake
    new = await fake.slash(ALICE, "new", players=3)
    lobby = new.callback.message_id or 0
    res = await fake.click(ALICE, lobby, cid(fake.message(lobby), "ai"), values=["strong"])
    assert res.callback.callback_type == 7
    assert "🤖 AI 1" in str(fake.message(lobby)["embeds"])
    res = await fake.click(BOB, lobby, cid(fake.message(lobby), "ai"), values=["easy"])
    assert res.callback.ephemeral and "Only the host" in res.callback.content
    await fake.click(ALICE, lobby, cid(fake.message(lobby), "ai"), values=["remove"])
    info = await table.service.lobby(DEFAULT_CHANNEL)
    assert [p.user_id for p in info.players] == [ALICE.id]


async def test_away_hands_the_seat_to_a_stand_in_until_back(table: Table) -> None:
    fake = table.fake
    await fake.slash(ALICE, "new")
    await fake.slash(BOB, "join")
    start = await fake.slash(ALICE, "start")
    turn = start.channel_sends[0]
    mover = ALICE if "<@101>" in turn.content else BOB
    res = await fake.slash(mover, "away")
    assert "An AI plays your seat" in res.text()
    posted = res.channel_sends
    assert posted and posted[0].content.startswith("🤖 "), [p.content for p in posted]
    back = await fake.slash(mover, "back")
    assert "yours again" in back.text()
    outcome = await table.service.current(DEFAULT_CHANNEL, render=False)
    assert all(not s.program for s in outcome.seats)


async def test_a_card_game_against_an_ai_is_dealt_at_once_and_played_to_the_end(
    tmp_path: Path,
) -> None:
    """``/cardgame new opponents:1``: the table is dealt at once; the AI's plays are posted
    in the background after each of Alice's, and the game ends with both seats scored."""
    from tests.bot.cardtable import close_table as close_cards
    from tests.bot.cardtable import open_table as open_cards

    cards = await open_cards(tmp_path / "cards.sqlite3", [ALICE], set())
    try:
        fake = cards.fake
        new = await fake.slash(ALICE, "new", command="cardgame", opponents=1, level="easy")
        assert "🤖 AI 1" in new.callback.text() or new.channel_sends, new.requests
        match_id = (await cards.cards.current(DEFAULT_CHANNEL)).match_id
        rng = random.Random(2)
        for _ in range(500):
            out = await cards.cards.match(match_id)
            if out.view.over:
                break
            loaded = await cards.cards.store.load(match_id)
            seat = loaded.seat_of(ALICE.id)
            assert seat is not None and seat in loaded.game.awaiting, "the AI never holds up"
            action = rng.choice(seat_view(loaded.game, seat).legal)
            await cards.cards.submit(match_id, ALICE.id, action)
            await cards.cog._after_move(await cards.cards.match(match_id))
            await fake._settle(set())
        else:
            raise AssertionError("the card game did not end")
        final = await cards.cards.match(match_id)
        assert final.view.over and len(final.view.players) == 2
    finally:
        await close_cards(cards)
