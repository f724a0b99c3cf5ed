"""Mage & Witch through the real Discord stack (tests/fakediscord.py), no code in ``bot/``
knowing it: chosen in the lobby's Expansions menu, a whole game is played through the turn
messages' buttons and the ephemeral pickers; a magic tile opens its decision (the figure, then
its spot, the unfinished roads and cities drawn and labelled on a picture), and the turn
message tells where the mage or the witch went and the score lines they changed."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from app import matches
from app.matches import MatchService
from bot.app import CarcBot
from tests.bot.cardtable import CardDiscord
from tests.bot.pickers import Answerer, turn_posts, verb
from tests.bot.test_discord_decisions import ALICE, BOB, USERS, decider, decision_buttons, start
from tests.bot.tiletable import png_of
from tests.fakediscord import Request, User

MW = "mage_witch"
#: a match seed whose game (with the choices below) has magic tiles and scores they change
SEED = 4
PROMPT = "place or move the mage or the witch"


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


class Magic(Answerer):
    """Answers pickers at random and remembers the magic decision's pickers."""

    magic: list[Request]

    async def inspect(self, user: User, picker: Request) -> None:
        if PROMPT in picker.content:
            self.magic.append(picker)


async def test_a_whole_game_with_the_mage_and_the_witch_through_the_pickers(table: Table) -> None:
    fake = table.fake
    answer = Magic(fake, random.Random(4), pass_rate=0.1)
    answer.magic = []
    turn = await start(fake, [ALICE, BOB], [MW])
    lines: list[str] = []
    for _ in range(400):
        if "🏁" in turn.content:
            break
        user = decider(turn)
        opener = [c for c in decision_buttons(turn) if verb(c) == "o"]
        assert opener, turn.content
        res = await answer.play(user, turn.message_id or 0, opener[0]["custom_id"])
        (turn,) = turn_posts(res)
        lines += turn.text().splitlines()
    else:
        pytest.fail("the game did not end")
    assert answer.magic, "no magic tile was placed in this game"
    pictures = [p for p in answer.magic if any("choices" in name for name, _ in p.files)]
    assert pictures, "the spots were never drawn"
    for picker in pictures:
        png_of(picker.file("choices.png"))  # the unfinished roads and cities, labelled
    moves = [x for x in lines if " the mage " in x or " the witch " in x]
    assert any(("puts the" in x or "moves the" in x) for x in moves), lines
    scored = [x for x in lines if x.rstrip().endswith(tuple(f"= {n}" for n in range(200)))]
    assert any(" mage" in x or "½ witch" in x for x in scored), scored
    outcome = await table.service.match(1)
    assert outcome.finished
