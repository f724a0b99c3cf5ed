"""Property tests: random games with Crop Circles, alone and with every other built
expansion, keep every invariant at every step.

Checked after every action: the input state is unchanged; every figure is in a supply, on the
board, in flight, on a castle or a barn; scores are the sum of the awards and only grow (a
market's payment excepted); a crop-circle tile asks its placer for A or B; the round asks the
seats in turn order from the placer's left, the placer last, each seat at most once, option A
optional and B not; every answer offered names one of the seat's figures on an unfinished
feature of the symbol's kind; each answer moves exactly one figure between supply and board;
the board's features agree with a flood fill. Records replay to the same game.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameSetup, GameState, apply, new_game
from engine.carcassonne.events import FigureDeployed
from engine.carcassonne.expansions import BUILTIN_IDS
from engine.carcassonne.expansions.crop_circles import (
    CHOOSE_STEP,
    KINDS,
    ROUND_STEP,
    SET_I,
    SET_II,
    CropModel,
    FollowerTakenBack,
    OptionChosen,
    SeatSkipped,
)
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.rules import pending
from engine.core.rng import Rng
from tests.engine.expansions.property_kit import assert_replays, check_points, figures, seeds
from tests.engine.test_properties import check_answers_listed, check_board_model, snapshot

CC = "crop_circles"
OTHERS = tuple(i for i in BUILTIN_IDS if i != CC)


@st.composite
def setups(draw: st.DrawFn) -> GameSetup:
    others = draw(st.booleans())
    sets = draw(st.sampled_from(((True, False), (False, True), (True, True))))
    return GameSetup(
        players=draw(st.integers(2, 6)),
        expansions=(*(OTHERS if others else ()), CC),
        tiny_city=draw(st.sampled_from((2, 4))),
        options=((SET_I, sets[0]), (SET_II, sets[1])),
    )


RANDOM = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def model(state: GameState) -> CropModel:
    m = state.ext[CC]
    assert isinstance(m, CropModel)
    return m


class Round:
    """The round under way as the players see it: who was asked or skipped, in order."""

    def __init__(self) -> None:
        self.placer: int | None = None
        self.seen: list[int] = []

    def check(self, before: GameState, after: GameState, events: tuple[object, ...]) -> None:
        n = after.setup.players
        for e in events:
            if isinstance(e, OptionChosen):
                self.placer, self.seen = int(e.seat), []
            elif isinstance(e, SeatSkipped):
                self.seen.append(int(e.seat))
        asked = [d for d in pending(after) if d.kind == ROUND_STEP] if not after.over else []
        if asked:
            (d,) = asked
            m = model(after)
            assert self.placer is not None
            self.seen.append(int(d.seat))
            assert d.optional is (m.mode == "a")
            kind = KINDS[m.symbol]
            for o in d.options:
                cell, spot, figure = o.id.split("/")
                x, y = (int(v) for v in cell.split(","))
                feats = [
                    f
                    for f in after.board.live_features()
                    if any(
                        mm.pos.x == x and mm.pos.y == y and mm.seat == d.seat for mm in f.meeples
                    )
                ]
                assert any(f.kind is kind and not f.done for f in feats), o.id
        if self.placer is not None and (after.over or model(after) == CropModel()):
            # one round: each seat once, asked or skipped, from the placer's left, placer last
            assert self.seen == [(self.placer + 1 + i) % n for i in range(n)]
            self.placer, self.seen = None, []
        moved = [e for e in events if isinstance(e, FollowerTakenBack)]
        if moved and not after.over:  # (the game's end sends every figure home)
            (e,) = moved
            assert (
                after.players[e.seat].supply[e.figure]
                == before.players[e.seat].supply.get(e.figure, 0) + 1
            )


def play_checked(setup: GameSetup, seed: int, choice_seed: int) -> tuple[GameState, int]:
    state = new_game(setup, seed=seed)
    rng = Rng(choice_seed)
    start = figures(state)
    steps = answered = 0
    rnd = Round()
    while not state.over:
        steps += 1
        assert steps < 20_000
        d = pending(state)[0]
        if d.kind == CHOOSE_STEP:
            assert state.placed is not None
            assert state.board.cells[state.placed].rt.tile.symbol("crop_circle")
            assert not d.optional and [o.id for o in d.options] == ["a", "b"]
        action = choose_answer(d, rng)
        before = snapshot(state)
        if steps % 7 == 0:
            check_answers_listed(state)
        tr = apply(state, d.seat, action, key=d.key)
        assert snapshot(state) == before, "apply changed its input"
        after = tr.state
        assert figures(after) == start
        check_points(after, tr.events)
        rnd.check(state, after, tr.events)
        if d.kind == ROUND_STEP:
            answered += sum(
                1 for e in tr.events if isinstance(e, FigureDeployed | FollowerTakenBack)
            )
        if steps % 25 == 0:
            check_board_model(after)
        state = after
    assert not list(state.board.meeples())
    check_board_model(state)
    return state, answered


@given(setup=setups(), seed=seeds, choice_seed=seeds)
@RANDOM
def test_random_games_keep_every_invariant(setup: GameSetup, seed: int, choice_seed: int) -> None:
    play_checked(setup, seed, choice_seed)


@given(players=st.integers(2, 6), others=st.booleans(), seed=seeds)
@settings(max_examples=12, deadline=None)
def test_random_games_replay_from_their_record(players: int, others: bool, seed: int) -> None:
    assert_replays(GameSetup(players=players, expansions=(*(OTHERS if others else ()), CC)), seed)


def test_random_games_add_and_take_back_followers() -> None:
    """Over a few games the rounds move figures (they are not always skipped)."""
    moved = sum(
        play_checked(
            GameSetup(players=3, expansions=(CC,), options=((SET_I, True),)), seed, seed + 100
        )[1]
        for seed in range(8)
    )
    assert moved > 0
