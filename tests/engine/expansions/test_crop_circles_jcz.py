"""Crop Circles in JCloisterZone saves: the random 4.x game with both sets reaches
JCloisterZone's scores, and the 5.x castle fixture goes on to the next tile (a castle is not
a city: nobody is asked to take a knight back)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.carcassonne.expansions.crop_circles import (
    CHOOSE_STEP,
    ROUND_STEP,
    SET_I,
    SET_II,
    OptionChosen,
    SeatSkipped,
)
from engine.carcassonne.jcz import loads_jcz
from engine.carcassonne.jcz5 import loads_jcz5
from engine.carcassonne.record import dumps, loads, replay
from engine.carcassonne.rules import pending
from engine.core.seats import Seat

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
RANDOM = FIXTURES / "jcz" / "random" / "cc-3p-02.jcz"
CASTLE = FIXTURES / "jcz5" / "bridge-bazaar-and-castles" / "castle-not-affected-by-corn-circles.jcz"


def test_the_random_4x_game_with_both_sets_reaches_jcloisterzones_scores() -> None:
    expected = json.loads((RANDOM.parent / "expected.json").read_text())["cc-3p-02.jcz"]
    game = loads_jcz(RANDOM.read_bytes())
    setup = game.record.setup
    assert setup.expansions == ("crop_circles",)
    assert dict(setup.options) == {SET_I: True, SET_II: True}  # CORN_CIRCLES and _II
    result = replay(game.record)
    assert list(result.scores) == expected["scores"] == [1, 8, 17]
    notations = [a.notation for a in game.record.actions]
    # 12 crop-circle tiles, 12 choices: 7 × B (REMOVE), 5 × A (DEPLOY)
    assert sum(n == f"{CHOOSE_STEP} b" for n in notations) == 7
    assert sum(n == f"{CHOOSE_STEP} a" for n in notations) == 5
    # 10 RETURN_MEEPLE and 1 crop-circle DEPLOY_MEEPLE answer the rounds, 2 PASS decline A
    rounds = [n for n in notations if n.startswith(ROUND_STEP)]
    assert len(rounds) == 11
    assert replay(loads(dumps(game.record))).scores == result.scores


def test_the_castle_is_not_affected_by_the_crop_circle() -> None:
    """shared/jcz5 README: Alice turns her completed 2-tile city into a castle; CC.1/Cc.1 (a
    shield) then gets REMOVE. The castle's follower stands on no city, so Alice is skipped and
    the game goes on to the next tile ("phase is TilePhase")."""
    game = loads_jcz5(CASTLE.read_bytes())
    assert dict(game.record.setup.options)[SET_I] is True
    assert [a.notation for a in game.record.actions][-1] == f"{CHOOSE_STEP} b"
    result = replay(game.record)
    assert not result.over and result.scores == (0,)
    assert [d.kind for d in pending(result.state)] == ["core.place"]
    events = [e for e in result.events if isinstance(e, OptionChosen | SeatSkipped)]
    assert events == [OptionChosen(Seat(0), "shield", "b"), SeatSkipped(Seat(0), "shield", "b")]
