"""Flying Machines through the real Discord stack (tests/fakediscord.py), no code in ``bot/``
knowing it: chosen in the lobby's Expansions menu, a whole game is played through the turn
messages' buttons and the ephemeral pickers, taking the flying machine whenever it is offered;
the machine is offered among the tile's spots by name ("flying machine (west)"), the roll and
the flight are announced in the turn message, and the landing comes as a decision whose picker
shows the landing tile's features drawn and labelled on a picture."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app import matches
from app.matches import MatchService
from bot.app import CarcBot
from tests.bot.cardtable import CardDiscord
from tests.bot.pickers import Answerer, components, turn_posts, verb
from tests.bot.test_discord_decisions import ALICE, BOB, USERS, decider, decision_buttons, start
from tests.bot.tiletable import png_of
from tests.fakediscord import Request, User

FM = "flying_machines"
#: a match seed whose game (with the choices below) has flights that land and that fail
SEED = 3
ROLLED = re.compile(r"(Alice|Bob) rolls a ([123])\.")


@dataclass
class Table:
    fake: CardDiscord
    service: MatchService


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Table]:
    monkeypatch.setattr(matches.secrets, "randbelow", lambda n: SEED)
    service = await MatchService.open(tmp_path / "d.sqlite3", animator=None)
    bot = CarcBot(service, background_tasks=False)
    fake = CardDiscord(bot, list(USERS.values()), set())
    await fake.start()
    try:
        yield Table(fake, service)
    finally:
        await fake.close()
        await service.close()


class Flier(Answerer):
    """Answers pickers at random, but takes the flying machine whenever a picker offers it, and
    remembers the landing pickers it saw."""

    machines: int = 0
    landings: list[Request]

    async def inspect(self, user: User, picker: Request) -> None:
        if "The die shows" in picker.content:
            self.landings.append(picker)

    def pick(self, msg: dict[str, Any]) -> tuple[str, list[str] | None]:
        for c in components(msg):
            if c["type"] == 2 and "flying machine" in (c.get("label") or ""):
                self.machines += 1
                return c["custom_id"], None
            for o in c.get("options") or ():
                if "flying machine" in o.get("label", ""):
                    self.machines += 1
                    return c["custom_id"], [o["value"]]
        return super().pick(msg)


async def test_a_whole_game_with_flights_through_the_pickers(table: Table) -> None:
    fake = table.fake
    answer = Flier(fake, random.Random(4), pass_rate=0.1)
    answer.landings = []
    turn = await start(fake, [ALICE, BOB], [FM])
    rolls: list[tuple[str, int]] = []
    announced: list[str] = []
    for _ in range(400):
        if "🏁" in turn.content:
            break
        user = decider(turn)
        opener = [c for c in decision_buttons(turn) if verb(c) == "o"]
        assert opener, turn.content
        res = await answer.play(user, turn.message_id or 0, opener[0]["custom_id"])
        (turn,) = turn_posts(res)
        text = turn.text()
        rolls += [(m.group(1), int(m.group(2))) for m in ROLLED.finditer(text)]
        announced += [line for line in text.splitlines() if "flying machine" in line]
    else:
        pytest.fail("the game did not end")
    assert answer.machines >= 2 and len(rolls) == answer.machines, (answer.machines, rolls)
    # "Bob played: x 1, y -2 · 0° · flying machine (west)", then the boarding in words
    assert any(
        re.search(r"played: .* · flying machine \((west|north|east|south)", a) for a in announced
    )
    assert any("puts a follower on the flying machine" in a for a in announced), announced
    assert answer.landings, "no flight could land in this game"
    for picker in answer.landings:
        png_of(picker.file("choices.png"))  # the landing tile's features, drawn and labelled
        labels = [c.get("label") or "" for c in components(picker) if c["type"] == 2]
        assert any(w in " ".join(labels) for w in ("road", "city", "cloister")), labels
        assert not any(c for c in components(picker) if c.get("label") == "Pass")
    outcome = await table.service.match(1)
    assert outcome.finished
