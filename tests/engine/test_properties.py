"""Property tests: random legal base games (2–6 players) to the end never break the invariants.

Hypothesis draws the setup and two seeds (the pile's shuffle and the players' choices); each game
is played to the end with every invariant checked at every step. Kept under about a minute.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Action,
    GameSetup,
    GameState,
    IllegalActionError,
    Pass,
    PlaceTile,
    Position,
    Rotation,
    apply,
    legal_actions,
    legal_placements,
    new_game,
    public_view,
)
from engine.carcassonne.events import Event, PointsScored
from engine.core.rng import Rng

FOLLOWERS = 7
BASE_PILE = 71  # 72 tiles minus the start tile

setups = st.builds(
    GameSetup,
    players=st.integers(2, 6),
    tiny_city=st.sampled_from((2, 4)),
    farm_scoring=st.sampled_from(("per_farm", "city_supply_1st_ed")),
)
seeds = st.integers(0, 2**63 - 1)
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything a state holds, as plain values: equal snapshots mean equal states."""
    board = state.board
    features = {
        rep: (
            f.kind,
            f.segs,
            f.tiles,
            f.open,
            f.pennants,
            f.meeples,
            f.cities,
            dict(f.mods),
            f.done,
        )
        for rep, f in board.features.items()
    }
    cells = {pos: (p.rt.tile.id, p.rt.rotation, p.segs) for pos, p in board.cells.items()}
    return (
        public_view(state),
        cells,
        dict(board.frontier),
        dict(board.root),
        features,
        board.next_seg,
        [(p.score, dict(p.supply)) for p in state.players],
        state.pile,
        state.pile_pos,
        state.version,
        state.turn,
        state.current,
        state.step,
        state.drawn,
        state.placed,
        state.discarded,
        state.awards,
        dict(state.last_placed),
        dict(state.ext),
    )


def choose(state: GameState, rng: Rng) -> Action:
    options = sorted(legal_actions(state, state.current), key=lambda a: a.notation())
    assert options, f"no legal action at step {state.step}"
    return options[rng.below(len(options))]


def check_followers(state: GameState) -> None:
    on_board = [0] * state.setup.players
    for m in state.board.meeples():
        on_board[m.seat] += 1
    for seat, p in enumerate(state.players):
        assert p.supply["follower"] + on_board[seat] == FOLLOWERS, (seat, state.turn)
        assert p.supply["follower"] >= 0


def check_scores(before: GameState, after: GameState, events: tuple[Event, ...]) -> None:
    gained = [0] * after.setup.players
    for e in events:
        if isinstance(e, PointsScored):
            for a in e.awards:
                assert a.points > 0
                gained[a.seat] += a.points
    for seat in range(after.setup.players):
        assert after.scores[seat] >= before.scores[seat]
        assert after.scores[seat] - before.scores[seat] == gained[seat]
        assert after.scores[seat] == sum(a.points for a in after.awards if a.seat == seat)


def check_unlisted_placements_rejected(state: GameState, rng: Rng) -> None:
    legal = legal_placements(state)
    candidates: list[PlaceTile] = []
    for pos in state.board.frontier:
        for r in Rotation:
            if r not in legal.get(pos, ()):
                candidates.append(PlaceTile(pos, r))
    occupied = list(state.board.cells)
    candidates.append(PlaceTile(occupied[rng.below(len(occupied))], Rotation.R0))
    candidates.append(PlaceTile(Position(1000, -1000), Rotation.R90))
    for i in range(min(6, len(candidates))):
        action = candidates[rng.below(len(candidates))] if i else candidates[-1]
        with pytest.raises(IllegalActionError):
            apply(state, state.current, action)


def play_checked(
    setup: GameSetup, seed: int, choice_seed: int, *, exhaustive_every: int
) -> tuple[GameState, list[Action]]:
    """Play a whole random game checking every invariant; return the end state and the log."""
    state = new_game(setup, seed=seed)
    rng = Rng(choice_seed)
    log: list[Action] = []
    check_followers(state)
    steps = 0
    while not state.over:
        steps += 1
        assert steps < 10_000
        before = snapshot(state)
        options = list(legal_actions(state, state.current))
        if state.step == "deploy":
            assert Pass() in options
        if steps % exhaustive_every == 0:
            # every listed action is accepted, and leaves the input untouched
            for option in options:
                apply(state, state.current, option)
            if state.step == "place":
                check_unlisted_placements_rejected(state, rng)
        action = choose(state, rng)
        tr = apply(state, state.current, action)
        assert snapshot(state) == before, f"apply changed its input at step {steps}"
        assert tr.state is not state
        assert tr.state.version == state.version + 1
        check_followers(tr.state)
        check_scores(state, tr.state, tr.events)
        log.append(action)
        state = tr.state
    return state, log


@given(setup=setups, seed=seeds, choice_seed=seeds)
@PROPERTY
def test_random_games_keep_every_invariant(setup: GameSetup, seed: int, choice_seed: int) -> None:
    state, log = play_checked(setup, seed, choice_seed, exhaustive_every=3)
    # the pile is used up: every tile was placed or discarded
    assert state.pile_pos == len(state.pile) == BASE_PILE
    assert len(state.board.cells) - 1 + len(state.discarded) == BASE_PILE
    assert state.tiles_left == 0 and state.drawn is None
    # at the very end every figure is home
    assert list(state.board.meeples()) == []
    # every turn was one placement then one deploy-or-pass
    places = [a for a in log if isinstance(a, PlaceTile)]
    assert len(places) == len(state.board.cells) - 1
    assert len(log) == 2 * len(places)


@given(setup=setups, seed=seeds, choice_seed=seeds)
@settings(max_examples=20, deadline=None)
def test_replaying_the_same_actions_gives_the_same_game(
    setup: GameSetup, seed: int, choice_seed: int
) -> None:
    state, log = play_checked(setup, seed, choice_seed, exhaustive_every=10**9)
    again = new_game(setup, seed=seed)
    for action in log:
        again = apply(again, again.current, action).state
    assert again.over
    assert snapshot(again) == snapshot(state)
    assert again.scores == state.scores


@given(seed=seeds)
@settings(max_examples=20, deadline=None)
def test_same_seed_same_pile(seed: int) -> None:
    a = new_game(GameSetup(players=3), seed=seed)
    b = new_game(GameSetup(players=3), seed=seed)
    assert snapshot(a) == snapshot(b)
    assert len(a.pile) == BASE_PILE
