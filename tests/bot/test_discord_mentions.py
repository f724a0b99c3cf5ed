"""Names are shown, never interpreted (issue 13): a player whose name is written like a mention
(``<@id>``, ``@everyone``) pings nobody; each message may ping only the players it calls on."""

from __future__ import annotations

import random
import re

import pytest

from bot.ui.message import shown_name
from tests.bot.tiletable import ALICE, Table, cid, typed_move
from tests.fakediscord import User

STRANGER = 999  # not in the match: a name must never ping them
MALLORY = User(202, f"<@{STRANGER}> @everyone @here")


async def test_a_mention_shaped_name_pings_nobody(table: Table) -> None:
    fake = table.fake
    lobby = (await fake.slash(ALICE, "new")).callback
    await fake.click(MALLORY, lobby.message_id or 0, cid(lobby, "join"))
    start = await fake.click(ALICE, lobby.message_id or 0, cid(lobby, "start"))
    (turn,) = start.channel_sends
    assert f"<@{STRANGER}>" in turn.text()  # the name is shown as it is written ...
    allowed = turn.data["allowed_mentions"]
    assert allowed.get("parse", []) == []  # ... but no kind of mention is parsed from text
    pinged = {int(u) for u in allowed.get("users", [])}
    assert STRANGER not in pinged and pinged <= {ALICE.id, MALLORY.id} and pinged
    # the players called on this turn are the only ones who may be pinged
    deciders = {int(u) for u in re.findall(r"<@(\d+)>", turn.content)} - {STRANGER}
    assert pinged == deciders


MARKDOWN = User(205, "**Mal** _lory_ ~~x~~ `y` [link](https://e.com) ||z|| # h")


async def test_markdown_in_a_name_is_shown_not_interpreted(table: Table) -> None:
    """A whole game against a player whose name is markdown: every message shows the name as
    typed (escaped), none lets Discord read it as bold, a link, a heading ..."""
    fake = table.fake
    players = {ALICE.id: ALICE, MARKDOWN.id: MARKDOWN}
    rng = random.Random(3)
    lobby = (await fake.slash(MARKDOWN, "new")).callback
    joined = await fake.slash(ALICE, "join")
    start = await fake.click(MARKDOWN, lobby.message_id or 0, cid(lobby, "start"))
    sent = [*joined.messages, *start.messages]
    turn = start.channel_sends[0]
    for _ in range(200):
        if "🏁" in turn.content:
            break
        user = players[int(re.findall(r"<@(\d+)>", turn.content)[-1])]
        res = await typed_move(fake, user, rng)
        sent += res.messages
        turn = res.channel_sends[0]
    else:
        pytest.fail("the game did not end")
    sent += (await fake.slash(ALICE, "score")).messages  # no match any more: a refusal
    escaped = shown_name(MARKDOWN.name)
    texts = [r.text() for r in sent]
    assert not [x for x in texts if MARKDOWN.name in x], "the raw name is never message text"
    assert escaped != MARKDOWN.name
    assert sum(escaped in x for x in texts) > 10, "the name is shown, escaped"
    headlines = [x for x in texts if x.startswith(escaped)]
    assert headlines, "the turn headline names the mover"


async def test_a_markdown_name_is_shown_as_typed_in_labels_and_text() -> None:
    """``shown_name`` escapes what Discord would read as markdown, and only that."""
    for raw in ("a_b", "**x**", "# h", "> q", "[l](https://e.com)", "||s||", "`c`", "~~s~~"):
        shown = shown_name(raw)
        assert shown != raw and shown.replace("\\", "") == raw
    assert shown_name("Ana María 李") == "Ana María 李"
    assert shown_name("<@1> @everyone") == "<@1> @everyone"  # pinging() stops those
