"""Property tests: random games with Mage & Witch, alone and with every other built expansion,
keep every invariant at every step.

Checked after every action: the input state is unchanged; every owned figure is in a supply,
on the board, in flight, on a castle or a barn; scores are the sum of the awards and only grow
(a market's payment excepted); the model says exactly where the mage and the witch stand on the
board; when a turn begins they share no feature (a tile joining them had its scoring step move
one away, rule 6) and each stands on an unfinished road or city; every option of the magic decision is a part
of an unfinished road or city, off the other figure's feature and, for a figure on the board,
off its own tile and feature. At the end both have left the board, and records replay to the
same game.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameSetup, GameState, apply, new_game
from engine.carcassonne.expansions import BUILTIN_IDS
from engine.carcassonne.expansions.mage_witch import (
    JOIN_STEP,
    MOVE_STEP,
    FigurePlaced,
    MageWitchModel,
    model_of,
)
from engine.carcassonne.geometry import Position
from engine.carcassonne.placement import parse_spot
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.rules import pending
from engine.carcassonne.tiles import FeatureKind
from engine.core.rng import Rng
from tests.engine.expansions.property_kit import assert_replays, check_points, figures, seeds
from tests.engine.test_properties import check_answers_listed, check_board_model, snapshot

MW = "mage_witch"
OTHERS = tuple(i for i in BUILTIN_IDS if i != MW)
MAGIC = (MOVE_STEP, JOIN_STEP)


@st.composite
def setups(draw: st.DrawFn) -> GameSetup:
    others = draw(st.booleans())
    return GameSetup(
        players=draw(st.integers(2, 6)),
        expansions=(*(OTHERS if others else ()), MW),
        tiny_city=draw(st.sampled_from((2, 4))),
        farm_scoring=draw(st.sampled_from(("per_farm", "city_supply_1st_ed"))),
    )


RANDOM = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_figures(state: GameState) -> None:
    """The model and the board agree; the two share a feature only while rule 6 is pending;
    at a turn's start each stands on an unfinished road or city."""
    m = model_of(state.ext)
    board = state.board
    on_board = sorted((f.figure, f) for _, f in board.neutral_figures())
    assert on_board == sorted((k, f) for k, f in (("mage", m.mage), ("witch", m.witch)) if f)
    open_ = pending(state)
    if open_ and open_[0].kind == "core.place":
        # a tile may join them until its scoring step moves one away (rule 6): between
        # placements they never share a feature
        if m.mage is not None and m.witch is not None:
            assert board.root[m.mage.seg] != board.root[m.witch.seg]
        for f in (m.mage, m.witch):
            if f is not None:
                feat = board.feature_of(f.seg)
                assert feat.kind in (FeatureKind.ROAD, FeatureKind.CITY)
                assert feat.open > 0 and not feat.done


def check_options(state: GameState) -> None:
    """Every option of an open magic decision is a legal spot (rules 2–4, OQ-MW-3)."""
    m = model_of(state.ext)
    board = state.board
    for d in pending(state):
        if d.kind not in MAGIC:
            continue
        assert not d.optional and d.options
        for o in d.options:
            figure, _, rest = o.id.partition("@")
            if rest == "off":
                continue
            cell, _, spot = rest.partition("@")
            pos = Position.parse(cell)
            seg = board.cells[pos].segs[parse_spot(board.cells[pos].rt, spot)]
            feat = board.feature_of(seg)
            assert feat.kind in (FeatureKind.ROAD, FeatureKind.CITY) and feat.open > 0
            mine = m.mage if figure == "mage" else m.witch
            theirs = m.witch if figure == "mage" else m.mage
            if theirs is not None:
                assert board.root[seg] != board.root[theirs.seg]
            if mine is not None:
                assert pos != mine.pos and board.root[seg] != board.root[mine.seg]
        offs = [o for o in d.options if o.id.endswith("@off")]
        assert not offs or len(offs) == len(d.options)  # taking one off only with nowhere to go


def play_checked(setup: GameSetup, seed: int, choice_seed: int) -> tuple[GameState, int]:
    state = new_game(setup, seed=seed)
    rng = Rng(choice_seed)
    start = figures(state)
    steps = placed = 0
    while not state.over:
        steps += 1
        assert steps < 20_000
        d = pending(state)[0]
        if d.kind in MAGIC:
            check_options(state)
        action = choose_answer(d, rng)
        before = snapshot(state)
        if steps % 7 == 0:
            check_answers_listed(state)
        tr = apply(state, d.seat, action, key=d.key)
        assert snapshot(state) == before, "apply changed its input"
        after = tr.state
        assert figures(after) == start
        check_points(after, tr.events)
        if not after.over:
            check_figures(after)
        placed += sum(1 for e in tr.events if isinstance(e, FigurePlaced))
        if steps % 25 == 0:
            check_board_model(after)
        state = after
    assert not list(state.board.meeples())
    assert model_of(state.ext) == MageWitchModel()
    check_board_model(state)
    return state, placed


@given(setup=setups(), seed=seeds, choice_seed=seeds)
@RANDOM
def test_random_games_keep_every_invariant(setup: GameSetup, seed: int, choice_seed: int) -> None:
    play_checked(setup, seed, choice_seed)


@given(players=st.integers(2, 6), others=st.booleans(), seed=seeds)
@settings(max_examples=12, deadline=None)
def test_random_games_replay_from_their_record(players: int, others: bool, seed: int) -> None:
    assert_replays(GameSetup(players=players, expansions=(*(OTHERS if others else ()), MW)), seed)


def test_random_games_place_and_move_the_figures() -> None:
    """Over a few games the figures are placed (the magic decision is not stuck)."""
    placed = sum(
        play_checked(GameSetup(players=3, expansions=(MW,)), seed, seed + 100)[1]
        for seed in range(6)
    )
    assert placed > 0
