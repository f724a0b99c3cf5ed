"""Property tests: random games with Ferries, alone and with every other built expansion, keep
every invariant at every step.

Checked after every action: the input state is unchanged; every figure is in a supply, on the
board, in flight, on a castle or a barn (a re-routing never makes or loses one); scores are the
sum of the awards and only grow (a market's payment excepted); every lake placed has exactly one
ferry once its seat has chosen (only the lake just placed may wait for it), joining two of its road ends, and the
board's links are exactly the ferries; a ferry moves only to another pair of its own lake, at
most once a turn, and only when it was the first met along a road of the tile just placed; the
board's features agree with a flood fill that follows the ferries. Records replay to the same
game.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameSetup, GameState, apply, new_game
from engine.carcassonne.expansions import BUILTIN_IDS
from engine.carcassonne.expansions.ferries import (
    MOVE_STEP,
    MOVES,
    PLACE_STEP,
    FerryMoved,
    lake_ends,
    model_of,
    nearest_ferries,
)
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.rules import pending
from engine.core.rng import Rng
from tests.engine.expansions.property_kit import assert_replays, check_points, figures, seeds
from tests.engine.test_properties import check_answers_listed, check_board_model, snapshot

FR = "ferries"
OTHERS = tuple(i for i in BUILTIN_IDS if i != FR)


@st.composite
def setups(draw: st.DrawFn) -> GameSetup:
    others = draw(st.booleans())
    return GameSetup(
        players=draw(st.integers(2, 6)),
        expansions=(*(OTHERS if others else ()), FR),
        tiny_city=draw(st.sampled_from((2, 4))),
        options=((MOVES, draw(st.sampled_from(("turn", "placement")))),),
    )


RANDOM = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_ferries(before: GameState, after: GameState, events: tuple[object, ...]) -> None:
    m = model_of(after.ext)
    lakes = [pos for pos in after.board.cells if lake_ends(after.board, pos)]
    unferried = set(lakes) - {f.pos for f in m.ferries}
    # only the lake just placed may wait for its ferry (before and during its decision)
    assert unferried <= ({after.placed} if not after.over and after.placed else set())
    if any(d.kind == PLACE_STEP for d in pending(after)):
        assert unferried == {after.placed}
    assert {f.pos: (tuple(f.ends),) for f in m.ferries} == dict(after.board.links)
    for f in m.ferries:
        ends = lake_ends(after.board, f.pos)
        assert f.ends[0] in ends and f.ends[1] in ends and f.ends[0] < f.ends[1]
    moved = [e for e in events if isinstance(e, FerryMoved)]
    if moved:
        assert before.placed is not None
        assert len({e.pos for e in moved}) == len(moved)  # each once
        was = model_of(before.ext)
        for e in moved:
            assert e.pos not in was.moved and e.before != e.after
            assert e.pos in nearest_ferries(before, before.placed) or len(moved) > 1
    if not after.over:
        for d in pending(after):
            if d.kind == MOVE_STEP:
                assert d.optional and after.placed is not None
                lakes_offered = {o.id.split(":")[0] for o in d.options}
                near = {p.notation() for p in nearest_ferries(after, after.placed)}
                assert lakes_offered <= near
                assert not lakes_offered & {p.notation() for p in m.moved}


def play_checked(setup: GameSetup, seed: int, choice_seed: int) -> tuple[GameState, int]:
    state = new_game(setup, seed=seed)
    rng = Rng(choice_seed)
    start = figures(state)
    steps = moves = 0
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
        check_ferries(state, after, tr.events)
        moves += sum(1 for e in tr.events if isinstance(e, FerryMoved))
        if steps % 11 == 0 or moves and any(isinstance(e, FerryMoved) for e in tr.events):
            check_board_model(after)
        state = after
    assert not list(state.board.meeples())
    check_board_model(state)
    return state, moves


@given(setup=setups(), seed=seeds, choice_seed=seeds)
@RANDOM
def test_random_games_keep_every_invariant(setup: GameSetup, seed: int, choice_seed: int) -> None:
    play_checked(setup, seed, choice_seed)


@given(players=st.integers(2, 6), others=st.booleans(), seed=seeds)
@settings(max_examples=12, deadline=None)
def test_random_games_replay_from_their_record(players: int, others: bool, seed: int) -> None:
    assert_replays(GameSetup(players=players, expansions=(*(OTHERS if others else ()), FR)), seed)


def test_random_games_move_ferries() -> None:
    """Over a few games ferries are moved (the moves are offered and taken)."""
    moved = sum(
        play_checked(GameSetup(players=3, expansions=(FR,)), seed, seed + 100)[1]
        for seed in range(8)
    )
    assert moved > 0
