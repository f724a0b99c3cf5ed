"""Scoring lines name each winner's own points: a farm shared by two players where one has the
pig pays the pig's owner more (Traders & Builders), and the line must say so.

The game is found, not hand-made: a seeded policy that likes pigs and farmers is played on the
engine (as the service plays it) until a scoring splits its points; then the same game is played
through the real discord.py stack, by slash commands, and its messages are read.
"""

from __future__ import annotations

import random
import re

import pytest

from app import matches
from app.options import MatchOptions, game_setup
from app.replay import start_game
from engine import Deploy, Pass, PlaceTile, legal_deploys, legal_placements
from engine.carcassonne.events import PointsScored
from tests.bot.tiletable import (
    Table,
    assert_final,
    posted,
    score_lines,
    start_match,
    whose_turn,
)
from tests.fakediscord import DEFAULT_CHANNEL

TB = "traders_builders"


def _pick_deploy(rng: random.Random, deploys: list[Deploy]) -> Deploy | None:
    """Pigs first, then farmers, sometimes anything; ``None`` is no figure."""
    liked = [d for d in deploys if d.figure == "pig"] or [
        d for d in deploys if d.spot.startswith("field")
    ]
    if liked and rng.random() < 0.8:
        return rng.choice(liked)
    if deploys and rng.random() < 0.5:
        return rng.choice(deploys)
    return None


def _split_game(seed: int) -> bool:
    """Whether the policy's game on ``seed`` has a scoring whose winners got different points."""
    setup = game_setup(MatchOptions(expansions=(TB,)), ("A", "B"))
    game = start_game(setup, seed)
    rng = random.Random(seed)
    while not game.state.over:
        st = game.state
        assert st.step == "place", st.step
        cells = list(matches.numbered_cells(legal_placements(st)).items())
        pos, rots = cells[rng.randrange(len(cells))]
        events = list(game.play(st.current, PlaceTile(pos, rng.choice(rots))))
        deploy = _pick_deploy(rng, list(legal_deploys(game.state)))
        events += game.play(game.state.current, deploy or Pass())
        if any(
            isinstance(e, PointsScored) and len({a.points for a in e.awards}) > 1 for e in events
        ):
            return True
    return False


async def test_each_winner_of_a_split_scoring_gets_their_own_points(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = next((s for s in range(1, 300) if _split_game(s)), None)
    assert seed is not None, "no game with a pig-split farm in 300 seeds"
    monkeypatch.setattr(matches.secrets, "randbelow", lambda n: seed)
    fake = table.fake
    rng = random.Random(seed)
    turn = await start_match(fake, expansions=[TB])
    announced: dict[str, int] = {}
    split_lines: list[str] = []
    for _ in range(200):
        if "🏁" in turn.content:
            break
        user = whose_turn(turn)
        # the same choices as _split_game, typed as the slash command's values: cells are
        # numbered north to south (as on the board), followers by their option ids
        outcome = await table.service.current(DEFAULT_CHANNEL, render=False)
        cells = list(outcome.placements.items())
        number = rng.randrange(len(cells))
        pos, rots = cells[number]
        rotation = rng.choice(rots)
        seen = await table.service.preview(DEFAULT_CHANNEL, user.id, PlaceTile(pos, rotation))
        # no follower step: it offered nothing, so the service passes it (and draws on)
        follow = [d for d in seen[0] if d.kind == "core.deploy"] if seen is not None else []
        options = follow[0].options if follow else ()
        deploy = _pick_deploy(rng, [o.action for o in options])
        follower = next((o.id for o in options if o.action == deploy), "none")
        res = await fake.slash(
            user, "place", cell=number + 1, rotation=rotation.degrees, follower=follower
        )
        turn = posted(res)
        text = turn.text()
        for name, pts in score_lines(text).items():
            announced[name] = announced.get(name, 0) + pts
        for line in text.splitlines():
            groups = re.findall(r"\*\*([^*]+)\*\* \+(\d+)", line.partition(" — ")[0])
            if len({pts for _, pts in groups}) > 1:
                split_lines.append(line)
    else:
        pytest.fail("the game did not end")
    assert split_lines, "the found game's split scoring was announced"
    assert any("(pig +" in line for line in split_lines), split_lines
    outcome = await table.service.match(1)
    # every player's announced points add up to their final score: each got their own
    assert_final(res.channel_sends, announced, {p.name: p.score for p in outcome.view.players})
