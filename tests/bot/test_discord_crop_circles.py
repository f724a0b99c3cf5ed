"""Crop Circles through the real Discord stack (tests/fakediscord.py), no code in ``bot/``
knowing it: chosen in the lobby's Expansions menu with both tile sets (a rule of the lobby), a
whole game is played through the turn messages' buttons and the ephemeral pickers. The active
player's A-or-B choice comes as a decision with two buttons worded in the rulebook's terms;
every round's answer is a decision addressed to its seat (the other player answers with their
own buttons); the option chosen and the skipped seats are announced in the turn message."""

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
from engine.carcassonne.expansions.crop_circles import SET_I
from tests.bot.cardtable import CardDiscord
from tests.bot.pickers import Answerer, components, turn_posts, verb
from tests.bot.test_discord_decisions import ALICE, BOB, USERS, decider, decision_buttons, start
from tests.bot.tiletable import png_of
from tests.fakediscord import Request, User

CC = "crop_circles"
SEED = 3
PLAYED = re.compile(r"^(Alice|Bob) played:", re.M)


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


class Farmer(Answerer):
    """Answers pickers at random and remembers the crop circles' A-or-B pickers it saw."""

    choices: list[Request]

    rounds: list[Request]

    async def inspect(self, user: User, picker: Request) -> None:
        if "choose option A" in picker.content:
            self.choices.append(picker)
        if "Crop circle, option" in picker.content:
            self.rounds.append(picker)

    def pick(self, msg: dict[str, Any]) -> tuple[str, list[str] | None]:
        return super().pick(msg)


async def test_a_whole_game_with_crop_circles_through_the_pickers(table: Table) -> None:
    fake = table.fake
    answer = Farmer(fake, random.Random(4), pass_rate=0.2)
    answer.choices = []
    answer.rounds = []
    turn = await start(fake, [ALICE, BOB], [CC], {SET_I: True})
    chosen: list[str] = []
    skipped: list[str] = []
    others = 0
    answered: list[str] = []
    texts: list[str] = []
    placer = ""
    for _ in range(600):
        if "🏁" in turn.content:
            break
        user = decider(turn)
        text = turn.text()
        played = PLAYED.search(text)
        if played:
            placer = played.group(1)
        if "your turn: Crop circle, option" in text and user.name != placer:
            others += 1  # a round's decision addressed to the other player
            answered.append(text)
        opener = [c for c in decision_buttons(turn) if verb(c) == "o"]
        assert opener, turn.content
        res = await answer.play(user, turn.message_id or 0, opener[0]["custom_id"])
        (turn,) = turn_posts(res)
        lines = turn.text().splitlines()
        texts.append(turn.text())
        chosen += [line for line in lines if "chooses option" in line]
        skipped += [line for line in lines if "is skipped" in line]
    else:
        pytest.fail("the game did not end")
    assert chosen and skipped, (chosen, skipped)
    assert answer.choices, "no A-or-B picker was shown"
    for picker in answer.choices:
        labels = [c.get("label") or "" for c in components(picker) if c["type"] == 2]
        assert any(label.startswith("A: add a") for label in labels), labels
        assert any(label.startswith("B: take a") for label in labels), labels
    assert others, "no round asked the other player"
    assert answer.rounds, "no round's picker was shown"
    for picker in answer.rounds:  # the followers to answer with, drawn and numbered
        png_of(picker.file("choices.png"))
        labels = [c.get("label") or "" for c in components(picker) if c["type"] == 2]
        assert any(w in " ".join(labels) for w in ("road", "city", "field")), labels
    # an answer is worded by the follower's feature and tile, never a raw spot
    assert not any("kind_" in t for t in texts)
    outcome = await table.service.match(1)
    assert outcome.finished
