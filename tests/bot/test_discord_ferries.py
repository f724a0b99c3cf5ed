"""Ferries through the real Discord stack (tests/fakediscord.py), no code in ``bot/`` knowing
it: chosen in the lobby's Expansions menu, a whole game is played through the turn messages'
buttons and the ephemeral pickers; every lake's ferry comes as a decision whose picker shows
the lake with each pair of road ends numbered on it and the pairs named in words ("road (east,
south)"), a ferry move as an optional one (with Pass), and the turn message tells where each
ferry went."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app import matches
from app.matches import MatchService
from bot.app import CarcBot
from tests.bot.cardtable import CardDiscord
from tests.bot.pickers import Answerer, components, turn_posts, verb
from tests.bot.test_discord_decisions import ALICE, BOB, USERS, decider, decision_buttons, start
from tests.bot.tiletable import png_of
from tests.fakediscord import Request, User

FR = "ferries"
#: a match seed whose game (with the choices below) has lakes and ferry moves
SEED = 3


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
class Ferryman(Answerer):
    """Answers pickers at random and remembers the ferry pickers it saw."""

    places: list[Request] = field(default_factory=list)
    moves: list[Request] = field(default_factory=list)

    async def inspect(self, user: User, picker: Request) -> None:
        if "Put the ferry on the lake" in picker.content:
            self.places.append(picker)
        elif "You may move a ferry" in picker.content:
            self.moves.append(picker)


async def test_a_whole_game_with_ferries_through_the_pickers(table: Table) -> None:
    fake = table.fake
    answer = Ferryman(fake, random.Random(4), pass_rate=0.3)
    turn = await start(fake, [ALICE, BOB], [FR])
    announced: list[str] = []
    for _ in range(400):
        if "🏁" in turn.content:
            break
        user = decider(turn)
        opener = [c for c in decision_buttons(turn) if verb(c) == "o"]
        assert opener, turn.content
        res = await answer.play(user, turn.message_id or 0, opener[0]["custom_id"])
        (turn,) = turn_posts(res)
        announced += [line for line in turn.text().splitlines() if "ferry" in line]
    else:
        pytest.fail("the game did not end")
    assert answer.places, "no lake came up in this game"
    for picker in answer.places:
        png_of(picker.file("choices.png"))  # the lake with the pairs numbered on it
        words = " ".join(
            [c.get("label") or "" for c in components(picker)]
            + [o.get("label", "") for c in components(picker) for o in c.get("options") or ()]
        )
        assert "road (" in words, words
        assert not any(c.get("label") == "Pass" for c in components(picker))
    assert any("puts the ferry on the lake at" in a for a in announced), announced
    assert answer.moves, "no ferry could move in this game"
    assert any(re.search(r"moves the ferry at -?\d+,-?\d+: it joined", a) for a in announced)
    for picker in answer.moves:
        png_of(picker.file("choices.png"))  # the lakes' pairs, the ferries as they lie
        assert any(c.get("label") == "Pass" for c in components(picker))
    outcome = await table.service.match(1)
    assert outcome.finished
