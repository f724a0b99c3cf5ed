"""Abbey & Mayor through the real discord.py stack (tests/fakediscord.py), with no code in
``bot/`` that knows it: a whole game played only through the turn message's buttons and the
ephemeral pickers. The abbey is offered before the draw with its holes numbered on a picture,
the barn's corners are lettered like spots, the wagon's moves come as a decision of its owner
with its targets drawn, the mayor, wagon and barn appear as figures, and the scoring lines name
the barn.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app import matches
from app.matches import MatchService
from bot.app import CarcBot
from tests.bot.cardtable import CardDiscord
from tests.bot.pickers import Answerer, components, turn_posts, verb
from tests.bot.test_discord_decisions import ALICE, BOB, CAROL, USERS, Table, decider, start
from tests.bot.tiletable import png_of
from tests.fakediscord import Request, User

#: a match seed whose game (with the choices below) has abbeys, barns and wagon moves
SEED = 4
FIGURES = ("barn", "mayor", "wagon")


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Table]:
    monkeypatch.setattr(matches.secrets, "randbelow", lambda n: SEED)
    service = await MatchService.open(tmp_path / "am.sqlite3", animator=None)
    bot = CarcBot(service, background_tasks=False)
    fake = CardDiscord(bot, list(USERS.values()), set())
    await fake.start()
    try:
        yield Table(fake, service)
    finally:
        await fake.close()
        await service.close()


class Builder(Answerer):
    """Answers like :class:`Answerer`, but plays the abbey and the expansion's figures when
    offered, and remembers the pickers of the abbey, the barn and the wagon."""

    abbeys: list[Request]
    barns: list[Request]
    wagons: list[Request]

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.abbeys, self.barns, self.wagons = [], [], []

    async def inspect(self, user: User, picker: Request) -> None:
        if "Play your abbey" in picker.content:
            self.abbeys.append(picker)
        if "Your wagon comes back" in picker.content:
            self.wagons.append(picker)
        if any("barn" in label or "corner" in label for label in _labels(picker)):
            self.barns.append(picker)

    def pick(self, msg: dict[str, Any]) -> tuple[str, list[str] | None]:
        content = str(msg.get("content", ""))
        if ("Play your abbey" in content or "Your wagon comes back" in content) and (
            self.rng.random() < 0.8
        ):
            answers = [c for c in components(msg) if c["type"] == 2 and c.get("label") != "Pass"]
            answers = [c for c in answers if c.get("label") not in ("Next", "Back", "Previous")]
            if answers:
                return answers[0]["custom_id"], None
        if "Put a figure" in content and self.rng.random() < 0.8:
            for c in components(msg):
                if c["type"] == 2 and any(f in (c.get("label") or "") for f in FIGURES):
                    return c["custom_id"], None
                if c["type"] == 3:
                    liked = [
                        o["value"] for o in c["options"] if any(f in o["label"] for f in FIGURES)
                    ]
                    if liked:
                        return c["custom_id"], [self.rng.choice(liked)]
        return super().pick(msg)


def _labels(picker: Request) -> list[str]:
    out = []
    for c in components(picker):  # type: ignore[arg-type]
        if c["type"] == 3:
            out += [o["label"] for o in c["options"]]
        elif c["type"] == 2:
            out.append(c.get("label") or "")
    return out


async def test_whole_abbey_mayor_game_through_buttons(table: Table) -> None:
    fake = table.fake
    answer = Builder(fake, random.Random(4), pass_rate=0.2, page_rate=0.1)
    turn = await start(fake, [ALICE, BOB, CAROL], ["abbey_mayor"])
    rules = (await fake.slash(BOB, "rules")).last.text()
    assert "Abbey & Mayor" in rules
    score = (await fake.slash(BOB, "score")).last.text()
    assert "mayor 1" in score and "barn 1" in score and "wagon 1" in score
    assert "abbey: 1" in score  # the expansion's counter, read generically
    lines: list[str] = []
    for _ in range(500):
        if "🏁" in turn.content:
            break
        user = decider(turn)
        opener = [c for c in components(turn) if verb(c) == "o"]
        assert opener, turn.content
        res = await answer.play(user, turn.message_id or 0, opener[0]["custom_id"])
        (turn,) = turn_posts(res)
        lines += turn.text().splitlines()
    else:
        pytest.fail("the game did not end")
    # the abbey: asked before the draw, its holes numbered on the picture
    assert answer.abbeys, "no abbey was offered"
    png_of(answer.abbeys[0].file("choices.png"))
    assert any(re.search(r"plays their abbey at -?\d+,-?\d+", ln) for ln in lines)
    # the barn: its corner offered beside the spots, lettered on the picture
    assert answer.barns, "no barn corner was offered"
    assert any("corner" in label for p in answer.barns for label in _labels(p))
    png_of(answer.barns[0].file("choices.png"))
    # the wagon: its owner asked after the scoring, the targets drawn
    assert answer.wagons, "no wagon move was offered"
    png_of(answer.wagons[0].file("choices.png"))
    assert any("wagon moves on to" in ln for ln in lines)
    assert any("barn" in ln and "completed cit" in ln for ln in lines)  # barn scoring named
    outcome = await table.service.match(1)
    assert outcome.finished
    for p in outcome.view.players:
        assert re.search(rf"{p.name} — \*\*{p.score}\*\*", turn.text())
