"""Snapshots (JSON) and replays of card games."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cardgame.actions import CardAction, PlaceFollower
from engine.cardgame.cards import Colour
from engine.cardgame.codec import state_from_json, state_to_json
from engine.cardgame.rules import apply, legal_actions, new_game, replay
from engine.cardgame.sim import random_game
from engine.cardgame.state import STEP_CHOOSE, STEP_SETUP, CardSetup
from engine.core.errors import RecordError
from engine.core.rng import Rng


@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_every_state_of_a_game_survives_a_json_round_trip(players: int, seed: int) -> None:
    state = new_game(CardSetup(players=players, names=("Ana", "Bo")), seed=seed)
    rng = Rng(seed)
    steps = set()
    while True:
        steps.add(state.step)
        text = json.dumps(state_to_json(state))
        assert state_from_json(json.loads(text)) == state
        if not state.awaiting:
            break
        seat = min(state.awaiting)
        options = legal_actions(state, seat)
        state = apply(state, seat, options[rng.below(len(options))]).state
    assert "over" in steps and "play" in steps


def test_a_snapshot_taken_during_scoring_choices_continues_the_same_way() -> None:
    for seed in range(200):
        state, log = random_game(3, seed)
        mid = new_game(state.setup, seed=seed)
        for i, (seat, action) in enumerate(log):
            if mid.step == STEP_CHOOSE:
                restored = state_from_json(json.loads(json.dumps(state_to_json(mid))))
                assert restored.receipts == mid.receipts and restored.receipts
                rest = log[i:]
                for s, a in rest:
                    restored = apply(restored, s, a).state
                assert restored == state
                return
            mid = apply(mid, seat, action).state
    pytest.fail("no random game met a scoring choice")


def test_snapshots_of_other_games_or_schemas_are_refused() -> None:
    data = state_to_json(new_game(CardSetup(), seed=1))
    with pytest.raises(RecordError, match="schema"):
        state_from_json({**data, "schema": 99})
    with pytest.raises(RecordError, match="game"):
        state_from_json({**data, "game": "carcassonne"})
    broken = dict(data)
    del broken["hands"]
    with pytest.raises(RecordError, match="malformed"):
        state_from_json(broken)


def test_replay_names_the_first_move_that_breaks_a_rule() -> None:
    state, log = random_game(2, 11)
    assert replay(state.setup, 11, log) == state
    bad = list(log)
    seat, _ = bad[3]
    bad[3] = (seat, CardAction.from_notation("assign blue"))
    with pytest.raises(RecordError, match="move 4"):
        replay(state.setup, 11, bad)


def test_setup_jokers_appear_in_some_games_and_replay_too() -> None:
    seeds = [k for k in range(60) if new_game(CardSetup(players=4), seed=k).step == STEP_SETUP]
    assert seeds, "with 10 jokers in 130 cards some setups turn one up"
    state, log = random_game(4, seeds[0])
    assert log[0][1].kind == "lay"
    assert replay(state.setup, seeds[0], log) == state
    assert PlaceFollower(Colour.RED).notation() == "follower red"
