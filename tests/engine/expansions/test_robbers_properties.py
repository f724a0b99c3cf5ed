"""Property tests: random games with Robbers, alone and with every other built expansion, keep
every invariant at every step.

Checked after every action: the input state is unchanged; every figure is in a supply, on the
board, in flight, on a castle or a barn (a robber is no follower: it stands on the track or in
front of its owner); scores are the sum of the awards and only grow (a market's payment
excepted); each seat has at most one robber, on a space 0–49; every space offered to a robber
holds a scoring figure of another seat; every steal takes half, rounded up, of more than 0
points of another seat and is paid as one robber award to the thief, whose robber goes home;
the board's features agree with a flood fill. At the end no robber is on the track, nothing is
noted, and records replay to the same game.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameSetup, GameState, apply, new_game
from engine.carcassonne.events import PointsScored
from engine.carcassonne.expansions import BUILTIN_IDS
from engine.carcassonne.expansions.robbers import (
    CATEGORY,
    PLACE_STEP,
    ROBBER,
    RobbersModel,
    RobberStole,
    half,
    victim_spaces,
)
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.rules import pending
from engine.carcassonne.track import figures as on_track
from engine.core.rng import Rng
from tests.engine.expansions.property_kit import assert_replays, check_points, figures, seeds
from tests.engine.test_properties import check_answers_listed, check_board_model, snapshot

RB = "robbers"
OTHERS = tuple(i for i in BUILTIN_IDS if i != RB)


@st.composite
def setups(draw: st.DrawFn) -> GameSetup:
    others = draw(st.booleans())
    return GameSetup(
        players=draw(st.integers(2, 6)),
        expansions=(*(OTHERS if others else ()), RB),
        tiny_city=draw(st.sampled_from((2, 4))),
        options=((f"{RB}.offer", draw(st.sampled_from(("next", "each")))),),
    )


RANDOM = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def model(state: GameState) -> RobbersModel:
    m = state.ext[RB]
    assert isinstance(m, RobbersModel)
    return m


def check_robbers(after: GameState, events: tuple[object, ...]) -> int:
    robbers = on_track(after, kind=ROBBER)
    assert len({r.seat for r in robbers}) == len(robbers)
    assert all(0 <= r.value < 50 and not r.scoring for r in robbers)
    stole = [e for e in events if isinstance(e, RobberStole)]
    loot = [
        a for e in events if isinstance(e, PointsScored) for a in e.awards
        if a.item.category == CATEGORY
    ]  # fmt: skip
    assert [(e.seat, e.points) for e in stole] == [(a.seat, a.points) for a in loot]
    for e in stole:
        assert e.of > 0 and e.points == half(e.of) and e.seat != e.victim_seat
    if not after.over:
        for d in pending(after):
            if d.kind == PLACE_STEP:
                allowed = set(victim_spaces(after, d.seat))
                assert {o.target.n for o in d.options} <= allowed  # type: ignore[union-attr]
    return len(stole)


def play_checked(setup: GameSetup, seed: int, choice_seed: int) -> tuple[GameState, int]:
    state = new_game(setup, seed=seed)
    rng = Rng(choice_seed)
    start = figures(state)
    steps = steals = 0
    while not state.over:
        steps += 1
        assert steps < 20_000
        d = pending(state)[0]
        action = choose_answer(d, rng)
        before = snapshot(state)
        if steps % 7 == 0:
            check_answers_listed(state)
        tr = apply(state, d.seat, action, key=d.key)
        assert snapshot(state) == before, "apply changed its input"
        after = tr.state
        assert figures(after) == start
        check_points(after, tr.events)
        steals += check_robbers(after, tr.events)
        if steps % 25 == 0:
            check_board_model(after)
        state = after
    assert not list(state.board.meeples())
    assert not on_track(state, kind=ROBBER)
    assert model(state) == RobbersModel()
    check_board_model(state)
    return state, steals


@given(setup=setups(), seed=seeds, choice_seed=seeds)
@RANDOM
def test_random_games_keep_every_invariant(setup: GameSetup, seed: int, choice_seed: int) -> None:
    play_checked(setup, seed, choice_seed)


@given(players=st.integers(2, 6), others=st.booleans(), seed=seeds)
@settings(max_examples=10, deadline=None)
def test_random_games_replay_from_their_record(players: int, others: bool, seed: int) -> None:
    assert_replays(GameSetup(players=players, expansions=(*(OTHERS if others else ()), RB)), seed)


def test_random_games_steal() -> None:
    """Over a few games robbers steal (the settling is not stuck)."""
    steals = sum(
        play_checked(GameSetup(players=3, expansions=(RB,)), seed, seed + 100)[1]
        for seed in range(4)
    )
    assert steals > 0
