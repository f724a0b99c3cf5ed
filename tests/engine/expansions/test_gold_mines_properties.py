"""Property tests: random games with Gold Mines, alone and with every other built expansion,
keep every invariant at every step.

Checked after every action: the input state is unchanged; every figure is in a supply, on the
board, in flight, on a castle or a barn; scores are the sum of the awards and only grow (a
market's payment excepted); no bar is made or lost: the bars on tiles and in hand are two per
gold tile placed (one while its seat chooses where the second goes); bars in hand only grow,
and only when a completed feature took them; the second bar's targets are exactly the tiles
around the gold tile, diagonals included; the board's features agree with a flood fill. At the
end the bars left on tiles are removed, every seat's Gold award is its bars × the table's value
for its total, and records replay to the same game.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameSetup, GameState, apply, new_game
from engine.carcassonne.expansions import BUILTIN_IDS
from engine.carcassonne.expansions.gold_mines import (
    BAR_STEP,
    GoldModel,
    GoldRemoved,
    GoldTaken,
    per_bar,
)
from engine.carcassonne.geometry import Position
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.rules import pending
from engine.core.rng import Rng
from tests.engine.expansions.property_kit import assert_replays, check_points, figures, seeds
from tests.engine.test_properties import check_answers_listed, check_board_model, snapshot

GM = "gold_mines"
OTHERS = tuple(i for i in BUILTIN_IDS if i != GM)
RING = ((-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


@st.composite
def setups(draw: st.DrawFn) -> GameSetup:
    others = draw(st.booleans())
    return GameSetup(
        players=draw(st.integers(2, 6)),
        expansions=(*(OTHERS if others else ()), GM),
        tiny_city=draw(st.sampled_from((2, 4))),
        farm_scoring=draw(st.sampled_from(("per_farm", "city_supply_1st_ed"))),
    )


RANDOM = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def model(state: GameState) -> GoldModel:
    m = state.ext[GM]
    assert isinstance(m, GoldModel)
    return m


def gold_tiles(state: GameState) -> int:
    return sum(1 for p in state.board.cells.values() if p.rt.tile.symbol("gold"))


def asked_bar(state: GameState) -> bool:
    return any(d.kind == BAR_STEP for d in pending(state))


def check_bars(before: GameState, after: GameState, events: tuple[object, ...]) -> None:
    m, was = model(after), model(before)
    removed = sum(e.n for e in events if isinstance(e, GoldRemoved))
    made = 2 * gold_tiles(after) - (1 if not after.over and asked_bar(after) else 0)
    assert m.bars.total + sum(m.held) + removed == made
    assert all(n > 0 for _, n in m.bars)
    assert all(h >= w for h, w in zip(m.held, was.held, strict=True))
    taken = Counter[int]()
    for e in events:
        if isinstance(e, GoldTaken):
            taken[int(e.seat)] += e.n
    assert [h - w for h, w in zip(m.held, was.held, strict=True)] == [
        taken[s] for s in range(after.setup.players)
    ]
    if not after.over and asked_bar(after):
        (d,) = [d for d in pending(after) if d.kind == BAR_STEP]
        pos = after.placed
        assert pos is not None and not d.optional
        around = {
            Position(pos.x + dx, pos.y + dy).notation()
            for dx, dy in RING
            if Position(pos.x + dx, pos.y + dy) in after.board.cells
        }
        assert {o.id for o in d.options} == around and len(around) >= 2


def play_checked(setup: GameSetup, seed: int, choice_seed: int) -> tuple[GameState, int]:
    state = new_game(setup, seed=seed)
    rng = Rng(choice_seed)
    start = figures(state)
    steps = taken = 0
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
        check_bars(state, after, tr.events)
        taken += sum(1 for e in tr.events if isinstance(e, GoldTaken))
        if steps % 25 == 0:
            check_board_model(after)
        state = after
    assert not list(state.board.meeples())
    m = model(state)
    assert m.bars.total == 0 and not m.pool
    gold = {int(a.seat): a.points for a in state.awards if a.item.category == "gold"}
    assert gold == {s: n * per_bar(n) for s, n in enumerate(m.held) if n}
    check_board_model(state)
    return state, taken


@given(setup=setups(), seed=seeds, choice_seed=seeds)
@RANDOM
def test_random_games_keep_every_invariant(setup: GameSetup, seed: int, choice_seed: int) -> None:
    play_checked(setup, seed, choice_seed)


@given(players=st.integers(2, 6), others=st.booleans(), seed=seeds)
@settings(max_examples=12, deadline=None)
def test_random_games_replay_from_their_record(players: int, others: bool, seed: int) -> None:
    assert_replays(GameSetup(players=players, expansions=(*(OTHERS if others else ()), GM)), seed)


def test_random_games_share_gold_out() -> None:
    """Over a few games bars are taken (the sharing is not stuck)."""
    taken = sum(
        play_checked(GameSetup(players=3, expansions=(GM,)), seed, seed + 100)[1]
        for seed in range(8)
    )
    assert taken > 0
