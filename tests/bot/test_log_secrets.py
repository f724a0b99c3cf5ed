"""No secret reaches any log, at any level (issue 13).

Whole card games are played at DEBUG through the fake Discord's ``wire`` mode: every event
goes through discord.py's real gateway code and every request through its real HTTP and webhook
code, whose DEBUG logs print whole payloads — the hand DMs, the select values, the messages an
interaction was clicked on. Every logger is at DEBUG (aiosqlite too, whose log names SQL
parameters). Every record is then scanned, formatted as a handler would write it: no card code,
no full custom id of the bot's components, no interaction token.
"""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path

import pytest

from bot.logs import redact_text
from engine.cardgame import seat_view
from tests.bot.cardtable import (
    ALICE,
    BOB,
    CAROL,
    EVE,
    Driver,
    close_table,
    ids,
    open_table,
)
from tests.bot.test_cardgame_secrecy import named
from tests.fakediscord import walk_components

LOGGERS = ("", "discord", "discord.gateway", "discord.http", "discord.client", "aiosqlite")
#: a custom id of the bot's components with more than its match id
FULL_ID = re.compile(r"\b(carc|card)[a-z]*:\d+:(?!…)")


def _written(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every record as a handler writes it (message, traceback), plus its raw parts."""
    fmt = logging.Formatter("%(name)s %(levelname)s %(message)s")
    out = []
    for rec in caplog.records:
        out.append(fmt.format(rec))
        out.append(rec.getMessage())
        out.append(str(rec.exc_text or ""))
    return out


@pytest.mark.parametrize(
    ("players", "seed", "closed"),
    [(2, 4, {BOB.id}), (3, 2, {CAROL.id})],
)
async def test_a_whole_card_game_at_debug_logs_no_secret(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    players: int,
    seed: int,
    closed: set[int],
) -> None:
    users = [ALICE, BOB, CAROL][:players]
    t = await open_table(tmp_path / "l.sqlite3", [*users, EVE], closed, seed=seed, wire=True)
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name)
    d = Driver(t, users, random.Random(seed))
    hands: set[str] = set()
    try:
        await d.lobby_and_start()
        while not (await d.state()).over:
            st = await d.state()
            for s in range(players):
                hands.update(f.code for f in seat_view(st, s).hand)
            await d.step()
    finally:
        await close_table(t)
    assert d.moves > 50 and len(hands) > 10
    lines = _written(caplog)
    text = "\n".join(lines)
    # the loggers that print payloads did print: the game went through them
    assert text.count("WebSocket Event") >= d.moves, "every event passed the real gateway"
    assert "has received" in text and "has returned" in text
    for line in lines:
        assert not named(line), f"a log line names a card: {line[:300]}"
        assert not FULL_ID.search(line), f"a log line shows a custom id: {line[:300]}"
        assert not re.search(r"\btok\d+", line), f"a log line shows a token: {line[:300]}"


async def test_an_error_in_a_click_is_logged_without_its_custom_id(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The generic apology's log line names the interaction; a decision's path in its custom
    id (which can name the card chosen) is cut, in the message and in the traceback."""
    t = await open_table(tmp_path / "e.sqlite3", [ALICE, BOB, EVE], set(), seed=4, wire=True)
    caplog.set_level(logging.DEBUG)
    d = Driver(t, [ALICE, BOB], random.Random(4))
    try:
        await d.lobby_and_start()
        st = await d.state()
        seat = min(st.awaiting)
        user = await d.user_of(seat)
        decision = next(x for x in seat_view(st, seat).own_decisions if x.private)

        async def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError(f"boom in {decision.key} cardd:1:2:3:s:o4")

        monkeypatch.setattr(type(t.cog), "_submit", broken)
        dms = t.fake.dms(user.id)
        assert dms, "the player got a hand DM"
        dm = int(dms[-1]["id"])
        opener = next(c for c in ids(t.fake.message(dm)) if c.startswith("cardd:"))
        picker = (await t.fake.click(user, dm, opener)).last
        pid = picker.message_id or 0
        for _ in range(6):
            comps = list(walk_components(t.fake.message(pid)["components"]))
            confirm = [c for c in comps if c["custom_id"].split(":")[4] == "s"]
            go = [c for c in comps if c["type"] == 2 and c["custom_id"].split(":")[4] == "g"]
            select = [c for c in comps if c["type"] == 3]
            if confirm:
                res = await t.fake.click(user, pid, confirm[0]["custom_id"])
            elif select:
                value = select[0]["options"][0]["value"]
                res = await t.fake.click(user, pid, select[0]["custom_id"], values=[value])
            else:
                res = await t.fake.click(user, pid, go[0]["custom_id"])
            if "went wrong" in res.text() or "fallado" in res.text():
                break
        assert "went wrong" in res.text() or "fallado" in res.text(), res.text()
    finally:
        await close_table(t)
    failures = [r for r in caplog.records if r.exc_info or r.exc_text]
    assert failures, "the failure was logged"
    assert any(re.search(r"cardds?:\d+:…", r.getMessage()) for r in failures), "named, cut"
    for line in _written(caplog):
        assert not FULL_ID.search(line), line[:300]
        assert not named(line), line[:300]


def test_redact_text_cuts_ids_and_tokens() -> None:
    assert redact_text("x cardg:12:3:row:blue-2:red y") == "x cardg:12:… y"
    assert redact_text("(cardds:5:k1:ab12:g:o3.v1@2)") == "(cardds:5:…)"
    assert redact_text("carc:7:9:place") == "carc:7:…"
    assert redact_text("/interactions/123/aW50ZXJhY3Rpb24/callback") == (
        "/interactions/123/<token>/callback"
    )
    assert redact_text("/webhooks/1/tok.en-_x/messages/@original") == (
        "/webhooks/1/<token>/messages/@original"
    )
    assert redact_text("cards: 3 cardgame matches") == "cards: 3 cardgame matches"
