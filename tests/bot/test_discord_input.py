"""Input a player types reaches the bot bounded, and every answer to it fits Discord (issue 13).

* every text option of every slash command has a ``max_length`` (Discord refuses longer input);
* a reply that quotes what was typed quotes it shortened: even a 3,000-character option (a
  client that ignores ``max_length``) gets an answer Discord accepts (the fake Discord refuses
  a message over its limits with HTTP 400, as the real one does);
* while the setup joker is being laid, ``/cardgame play`` refuses any other card instead of
  laying the joker whatever ``card`` says.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import CarcBot
from bot.translators import CarcTranslator
from bot.ui.message import MAX_OPTION
from engine.cardgame import seat_view
from tests.bot.cardtable import ALICE as CARD_ALICE
from tests.bot.cardtable import BOB as CARD_BOB
from tests.bot.cardtable import Driver, close_table, open_table, table_posts
from tests.bot.tiletable import ALICE, BOB, Table, cid
from tests.fakediscord import FakeDiscord, Result, limit_errors

LONG = "<@999> **x** `" + "é" * 3000


def _options(payload: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for sub in payload.get("options", []):
        for o in sub.get("options", []):
            out.append((f"/{payload['name']} {sub['name']} {o['name']}", o))
    return out


async def test_every_text_option_has_a_max_length() -> None:
    bot = CarcBot(None, background_tasks=False)
    fake = FakeDiscord(bot)
    await fake.start()
    try:
        payloads = [
            await cmd.get_translated_payload(bot.tree, CarcTranslator())
            for cmd in bot.tree.get_commands()
        ]
    finally:
        await fake.close()
    texts = [(name, o) for p in payloads for name, o in _options(p) if o["type"] == 3]
    assert {n for n, _ in texts} >= {
        "/carcassonne choose option",
        "/carcassonne place follower",
        "/cardgame play card",
        "/cardgame play row",
        "/cardgame claim row",
    }
    for name, o in texts:
        if o.get("choices"):
            continue  # a fixed list: nothing typed
        assert 0 < o.get("max_length", 0) <= MAX_OPTION, name


def _answered(res: Result) -> str:
    """The ephemeral answer the player got; every message of ``res`` fits Discord."""
    assert not [r for r in res.requests if r.refused], "Discord refused a message"
    for r in res.messages:
        assert not limit_errors(r.data), r.data
    answer = res.last
    assert answer.ephemeral and answer.content
    assert len(answer.content) <= 2000
    return answer.content


async def test_a_long_option_gets_a_short_answer_in_the_tile_game(table: Table) -> None:
    fake = table.fake
    lobby = (await fake.slash(ALICE, "new")).callback
    await fake.click(BOB, lobby.message_id or 0, cid(lobby, "join"))
    await fake.click(ALICE, lobby.message_id or 0, cid(lobby, "start"))
    outcome = await table.service.current(900_000_000_000_000_003, render=False)
    mover = ALICE if outcome.user_of(outcome.view.current) == ALICE.id else BOB
    text = _answered(await fake.slash(mover, "choose", option=LONG))
    assert "éééé" in text and "é" * 100 not in text, "the input is quoted, shortened"
    assert "**x**" not in text.replace("\\*", "")
    cells = await fake.autocomplete(mover, "place", "cell", cell="")
    cell = cells[0]["value"]
    rotations = await fake.autocomplete(mover, "place", "rotation", cell=cell, rotation="")
    res = await fake.slash(mover, "place", cell=cell, rotation=rotations[0]["value"], follower=LONG)
    text = _answered(res)
    assert "é" * 100 not in text
    version = (await table.service.current(900_000_000_000_000_003, render=False)).version
    assert version == outcome.version, "the refused move was not stored"


async def test_a_long_option_gets_a_short_answer_in_the_card_game(tmp_path: Path) -> None:
    t = await open_table(tmp_path / "c.sqlite3", [CARD_ALICE, CARD_BOB], set(), seed=1)
    d = Driver(t, [CARD_ALICE, CARD_BOB], random.Random(1))
    try:
        await d.lobby_and_start()
        st = await d.state()
        user = await d.user_of(min(st.awaiting))
        for options in (
            {"card": LONG},
            {"card": LONG, "row": LONG},
            {"card": "blue-2", "row": LONG},
        ):
            res = await t.fake.slash(user, "play", command="cardgame", **options)
            assert "é" * 100 not in _answered(res)
        res = await t.fake.slash(user, "claim", command="cardgame", row=LONG)
        assert "é" * 100 not in _answered(res)
        assert (await d.state()).version == st.version
    finally:
        await close_table(t)


@pytest.mark.parametrize("card", ["blue-2", "fairy", "building-joker", "nonsense", LONG])
async def test_only_the_setup_joker_can_be_laid(tmp_path: Path, card: str) -> None:
    """Seed 2 turns up a joker during setup: ``play card:<other> row:blue`` is refused (the
    joker is named), and nothing is laid."""
    t = await open_table(tmp_path / "c.sqlite3", [CARD_ALICE, CARD_BOB], set(), seed=2)
    d = Driver(t, [CARD_ALICE, CARD_BOB], random.Random(1))
    try:
        await d.lobby_and_start()
        st = await d.state()
        assert st.step == "setup"
        dealer = await d.user_of(st.dealer)
        joker = seat_view(st, st.dealer).public.setup_joker
        assert joker is not None and joker.code != card
        res = await t.fake.slash(dealer, "play", command="cardgame", card=card, row="blue")
        text = _answered(res)
        assert f"{joker.describe()} (`{joker.code}`)" in text, text
        assert not table_posts(res), "nothing was posted in the channel"
        assert (await d.state()).version == st.version, "the joker was not laid"
        res = await t.fake.slash(dealer, "play", command="cardgame", card=joker.code, row="blue")
        assert (await d.state()).version == st.version + 1, "the joker itself is laid"
    finally:
        await close_table(t)
