"""Robbers through the real Discord stack (tests/fakediscord.py), no code in ``bot/`` knowing
it: chosen in the lobby's Expansions menu, a whole game is played through the turn messages'
buttons and the ephemeral pickers, putting a robber beside a space whenever one is offered; the
robber's decision comes with its spaces lettered and labelled ("A · space 12"), and a steal is a named line of
the turn message ("Alice's robber takes 2 of Bob's 3")."""

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
from tests.fakediscord import Request, User

RB = "robbers"
SEED = 3
STOLE = re.compile(r"(Alice|Bob)'s robber takes (\d+) of (Alice|Bob)'s (\d+)\.")


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


class Thief(Answerer):
    """Answers pickers at random, but puts its robber beside a space whenever offered, and
    remembers the robber pickers it saw."""

    placed: int = 0
    pickers: list[Request]

    async def inspect(self, user: User, picker: Request) -> None:
        if "Put your robber" in picker.content:
            self.pickers.append(picker)

    def pick(self, msg: dict[str, Any]) -> tuple[str, list[str] | None]:
        for c in components(msg):
            if c["type"] == 2 and "· space " in (c.get("label") or ""):
                self.placed += 1
                return c["custom_id"], None
            for o in c.get("options") or ():
                if "· space " in o.get("label", ""):
                    self.placed += 1
                    return c["custom_id"], [o["value"]]
        return super().pick(msg)


async def test_a_whole_game_with_robbers_through_the_pickers(table: Table) -> None:
    fake = table.fake
    answer = Thief(fake, random.Random(4), pass_rate=0.1)
    answer.pickers = []
    turn = await start(fake, [ALICE, BOB], [RB])
    steals: list[tuple[str, int, str, int]] = []
    for _ in range(400):
        if "🏁" in turn.content:
            break
        user = decider(turn)
        opener = [c for c in decision_buttons(turn) if verb(c) == "o"]
        assert opener, turn.content
        res = await answer.play(user, turn.message_id or 0, opener[0]["custom_id"])
        (turn,) = turn_posts(res)
        for m in STOLE.finditer(turn.text()):
            steals.append((m.group(1), int(m.group(2)), m.group(3), int(m.group(4))))
    else:
        pytest.fail("the game did not end")
    assert answer.placed >= 2 and answer.pickers
    assert steals, "no robber stole in this game"
    for thief, n, victim, of in steals:
        assert thief != victim and n == (of + 1) // 2 and of > 0
    outcome = await table.service.match(1)
    assert outcome.finished
