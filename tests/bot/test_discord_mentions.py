"""Names are shown, never interpreted (issue 13): a player whose name is written like a mention
(``<@id>``, ``@everyone``) pings nobody; each message may ping only the players it calls on."""

from __future__ import annotations

import re

from tests.bot.test_discord_e2e import ALICE, Table, cid
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
