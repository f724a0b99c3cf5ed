"""Messages through the real Discord stack (tests/fakediscord.py), no code in ``bot/`` knowing
it: chosen in the lobby's Expansions menu, a whole game is played through the turn messages'
buttons and the ephemeral pickers. Every award's figure is a decision of its own seat, off-turn
too, whose buttons say where each figure would land ("Messenger → 5 (dark: a message)"); the
player takes a dark landing whenever one is offered; a message drawn is announced in the turn
message with its text in both languages, and used through its own picker."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from app import matches
from app.matches import MatchService
from bot.app import CarcBot
from tests.bot.cardtable import CardDiscord
from tests.bot.pickers import Answerer, components, turn_posts, verb
from tests.bot.test_discord_decisions import ALICE, BOB, USERS, decider, decision_buttons, start
from tests.fakediscord import Request

MS = "dispatches"
#: a match seed whose game (with the choices below: a follower whenever one may go) draws a
#: message
SEED = 3
ARROW = re.compile(r"(Main figure|Messenger) → (\d+)")


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


@dataclass
class Courier(Answerer):
    """Answers pickers at random, but puts points where a figure lands on a dark space, and
    remembers the figure buttons and message pickers it saw."""

    figure_labels: list[str] = field(default_factory=list)
    message_pickers: list[str] = field(default_factory=list)
    darks: int = 0

    def pick(self, msg: dict[str, Any]) -> tuple[str, list[str] | None]:
        labels = [c.get("label") or "" for c in components(msg) if c["type"] == 2]
        labels += [o.get("label", "") for c in components(msg) for o in c.get("options") or ()]
        arrows = [x for x in labels if ARROW.search(x)]
        self.figure_labels += arrows
        if any("Take 2 points" in x for x in labels):
            self.message_pickers.append(" | ".join(labels))
        for c in components(msg):
            if c["type"] == 2 and "(dark" in (c.get("label") or ""):
                self.darks += 1
                return c["custom_id"], None
            for o in c.get("options") or ():
                if "(dark" in o.get("label", ""):
                    self.darks += 1
                    return c["custom_id"], [o["value"]]
        for c in components(msg):  # keep being asked: never the standing choice
            if c["type"] == 2 and (c.get("label") or "").startswith("From now on"):
                rest = [
                    d
                    for d in components(msg)
                    if d["type"] == 2
                    and verb(d) == "g"
                    and d is not c
                    and "→" in (d.get("label") or "")
                ]
                if rest:
                    return self.rng.choice(rest)["custom_id"], None
        return super().pick(msg)


def press(answer: Courier, turn: Request) -> str:
    """The decision button to press on a turn message: its opener, or (a decision of a few
    options shown on the turn message itself: a figure choice, a message) one of its
    options, a dark landing first."""
    buttons = decision_buttons(turn)
    opener = [c for c in buttons if verb(c) == "o"]
    if opener:
        return opener[0]["custom_id"]
    options = [c for c in buttons if verb(c) == "g"]
    assert options, turn.content
    labels = [c.get("label") or "" for c in options]
    answer.figure_labels += [x for x in labels if ARROW.search(x)]
    if any("Take 2 points" in x for x in labels):
        answer.message_pickers.append(" | ".join(labels))
    dark = [c for c in options if "(dark" in (c.get("label") or "")]
    if dark:
        answer.darks += 1
        return dark[0]["custom_id"]
    asked = [c for c in options if not (c.get("label") or "").startswith("From now on")]
    return answer.rng.choice(asked or options)["custom_id"]


async def test_a_whole_game_with_messengers_and_messages_through_the_pickers(
    table: Table,
) -> None:
    fake = table.fake
    answer = Courier(fake, random.Random(1), pass_rate=0.0)
    turn = await start(fake, [ALICE, BOB], [MS])
    drawn: list[str] = []
    for _ in range(600):
        if "🏁" in turn.content:
            break
        user = decider(turn)
        res = await answer.play(user, turn.message_id or 0, press(answer, turn))
        (turn,) = turn_posts(res)
        text = turn.text()
        drawn += [line for line in text.splitlines() if "draws message" in line]
    else:
        pytest.fail("the game did not end")
    assert answer.figure_labels, "no figure was ever chosen"
    assert any(x.startswith("Main figure → ") for x in answer.figure_labels)
    assert any(x.startswith("Messenger → ") for x in answer.figure_labels)
    assert drawn and answer.darks, "no message was drawn in this game"
    # «2 points per shield» («Por cada escudo 2 puntos»): the message in both languages
    assert all(line.count("«") == 2 for line in drawn), drawn
    assert answer.message_pickers, "no message picker was shown"
    outcome = await table.service.match(1)
    assert outcome.finished
    assert not [f for f in outcome.view.track if f.kind == "dispatches.messenger"]
