"""A decision that offers nothing but passing is never asked (issue 21: after an abbey, a
follower step with no spot or no follower left was still asked): the service passes it at
once, stores the pass like any answer (so the record replays), and a picker's preview goes
past it as the move will."""

from __future__ import annotations

import json
import random
from pathlib import Path

from app.matches import MatchService
from engine import only_pass, pending
from engine.carcassonne.record import GameRecord, replay
from tests.bot.matchservice import CHANNEL, random_move, two_player_match


async def test_nobody_is_asked_a_decision_that_offers_only_passing(
    svc: MatchService, db_path: Path
) -> None:
    out = await two_player_match(svc, seed=7, expansions=("abbey_mayor",))
    rng = random.Random(7)
    submitted = abbeys = abbeys_alone = 0
    while not out.finished:
        _, mine = await svc.decisions_for(CHANNEL, out.user_of(out.awaiting[0]))
        assert not any(only_pass(d) for d in (*out.decisions, *mine)), out.decisions
        actions = random_move(out, rng)
        before = out.version
        out = await svc.submit(CHANNEL, out.user_of(out.decisions[0].seat), actions)
        submitted += 1
        if actions[0].notation().startswith("am.abbey"):
            abbeys += 1
            abbeys_alone += out.version > before + 1  # its follower step passed at once
    stored = [e.action for e in await svc.storage.actions.entries(out.match_id)]
    assert len(stored) > submitted, "empty follower steps were passed by the service"
    assert abbeys and abbeys_alone, (abbeys, abbeys_alone)
    # the passes are stored like any answer: the record replays to the same scores
    done = await svc.match(out.match_id)
    assert done.record_json is not None
    record = GameRecord.from_json(json.loads(done.record_json))
    result = replay(record, keep_states=True)
    assert result.over and list(result.scores) == [p.score for p in done.view.players]
    passed = [s for s in result.states if any(only_pass(d) for d in pending(s))]
    assert len(passed) == len(stored) - submitted


async def test_a_preview_goes_past_an_empty_follower_step(svc: MatchService) -> None:
    """Placing a tile where no figure can go: the placement is the whole move (the preview
    reveals the next tile, so there is nothing more to ask)."""
    out = await two_player_match(svc, seed=3)
    rng = random.Random(3)
    seen_empty = 0
    while not out.finished and not seen_empty:
        (d,) = out.decisions
        user = out.user_of(d.seat)
        if d.kind == "core.place":
            for o in d.options:
                found = await svc.preview(CHANNEL, user, o.action)
                follow = [x for x in found[0] if x.kind == "core.deploy"] if found else []
                if found is None or not follow:
                    seen_empty += 1
                assert not follow or follow[0].options, "an empty follower step is asked"
        out = await svc.submit(CHANNEL, user, random_move(out, rng))
    assert seen_empty, "every follower of a player was placed at some point"
