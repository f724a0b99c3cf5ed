"""Random games of Bridges, Castles & Bazaars, alone and with every other built expansion: every
invariant holds at every step (pure apply, figures and tokens conserved, scores equal to the
awards, market payments between players, no sealed bid or face-down tile in any other seat's
view, the board's features agree with a flood fill), the game ends with every figure home and
every drawn tile placed or discarded, and the record replays to the same game."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameSetup, GameState, apply, new_game, pending, play_random_game, view_for
from engine.carcassonne.events import PointsScored
from engine.carcassonne.expansions.bridges_castles_bazaars.model import NO_BID, BcbModel
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.record import replay
from engine.core.rng import Rng
from tests.engine.test_properties import check_answers_listed, check_board_model, snapshot

BCB = "bridges_castles_bazaars"
OTHERS = ("inns_cathedrals", "traders_builders")

setups = st.builds(
    lambda players, others, bidding, bridges, castles, markets, tiny, farms: GameSetup(
        players=players,
        expansions=(*(OTHERS if others else ()), BCB),
        tiny_city=tiny,
        farm_scoring=farms,
        options=tuple(
            sorted(
                {
                    "bcb.bidding": bidding,
                    "bcb.bridges": bridges,
                    "bcb.castles": castles,
                    "bcb.markets": markets,
                }.items()
            )
        ),
    ),
    st.integers(2, 6),
    st.booleans(),
    st.sampled_from(("sealed", "open", "no_auction")),
    st.booleans() | st.just(True),
    st.booleans() | st.just(True),
    st.booleans() | st.just(True),
    st.sampled_from((2, 4)),
    st.sampled_from(("per_farm", "city_supply_1st_ed")),
)
seeds = st.integers(0, 2**63 - 1)
RANDOM = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def model(state: GameState) -> BcbModel:
    m = state.ext[BCB]
    assert isinstance(m, BcbModel)
    return m


def figures(state: GameState) -> list[Counter[str]]:
    """Per seat, every figure kind: in supply, on the board and on castles."""
    out = [Counter(p.supply) for p in state.players]
    for m in state.board.meeples():
        if m.seat >= 0:
            out[m.seat][m.figure] += 1
    for c in model(state).castles:
        if c.figure:
            out[c.owner][c.figure] += 1
    return out


def tokens(state: GameState) -> list[tuple[int, int]]:
    """Per seat, bridges and castles: left plus on the board."""
    m = model(state)
    out = []
    for seat in range(state.setup.players):
        built = sum(1 for b in m.bridges if b.seat == seat)
        castles = sum(1 for c in m.castles if c.owner == seat)
        out.append((m.bridges_left[seat] + built, m.castles_left[seat] + castles))
    return out


def check_secrets(state: GameState) -> None:
    """Nobody sees another seat's sealed bid, nor the tiles set aside face down."""
    market = model(state).market
    public = view_for(state)
    assert not any(d.private for d in public.decisions)
    if market is None:
        return
    pub = public.ext[BCB].market
    assert pub.bids == (NO_BID,) * len(pub.bids)
    if not market.revealed:
        assert pub.tiles == ("",) * len(pub.tiles)
    for seat in range(state.setup.players):
        seen = view_for(state, seat).ext[BCB].market
        assert all(b == NO_BID for i, b in enumerate(seen.bids) if i != seat)


def check_points(before: GameState, after: GameState, events: tuple[Any, ...]) -> None:
    for e in events:
        if not isinstance(e, PointsScored):
            continue
        if e.item.category == "market":
            assert sum(a.points for a in e.awards) <= 0 and e.awards[0].points < 0
            assert len(e.awards) == 1 or sum(a.points for a in e.awards) == 0
        else:
            assert all(a.points >= 0 for a in e.awards)
    for seat in range(after.setup.players):
        assert after.scores[seat] == sum(a.points for a in after.awards if a.seat == seat)


def play_checked(setup: GameSetup, seed: int, choice_seed: int) -> tuple[GameState, int]:
    state = new_game(setup, seed=seed)
    rng = Rng(choice_seed)
    start_figures, start_tokens = figures(state), tokens(state)
    steps = 0
    while not state.over:
        steps += 1
        assert steps < 20_000
        d = pending(state)[0]
        before = snapshot(state)
        if steps % 5 == 0:
            check_answers_listed(state)
        tr = apply(state, d.seat, choose_answer(d, rng), key=d.key)
        assert snapshot(state) == before, "apply changed its input"
        after = tr.state
        assert figures(after) == start_figures
        assert tokens(after) == start_tokens
        check_points(state, after, tr.events)
        check_secrets(after)
        if steps % 25 == 0:
            check_board_model(after)
        state = after
    return state, steps


def check_end(state: GameState) -> None:
    assert not list(state.board.meeples())
    assert all(not c.figure for c in model(state).castles)
    m = model(state)
    if m.market is None:  # every tile drawn (or set aside) was placed or discarded
        assert len(state.board.cells) - 1 + len(state.discarded) == state.pile_pos
    check_board_model(state)


@given(setup=setups, seed=seeds, choice_seed=seeds)
@RANDOM
def test_random_games_keep_every_invariant(setup: GameSetup, seed: int, choice_seed: int) -> None:
    state, _ = play_checked(setup, seed, choice_seed)
    check_end(state)


@given(players=st.integers(2, 6), others=st.booleans(), seed=seeds)
@settings(max_examples=15, deadline=None)
def test_random_games_replay_from_their_record(players: int, others: bool, seed: int) -> None:
    setup = GameSetup(players=players, expansions=(*(OTHERS if others else ()), BCB))
    game = play_random_game(setup, seed)
    result = replay(game.record)
    assert result.scores == game.scores
    assert snapshot(result.state) == snapshot(game.state)


def test_random_games_use_every_part() -> None:
    """Over a few games every decision of the expansion comes up (the generator is not stuck)."""
    kinds: Counter[str] = Counter()
    for seed in range(12):
        for bidding in ("sealed", "open", "no_auction"):
            setup = GameSetup(
                players=3, expansions=(*OTHERS, BCB), options=(("bcb.bidding", bidding),)
            )
            state = new_game(setup, seed=seed)
            rng = Rng(seed)
            while not state.over:
                d = pending(state)[0]
                kinds[d.kind] += 1
                state = apply(state, d.seat, choose_answer(d, rng), key=d.key).state
            check_end(state)
    for kind in ("bcb.bridge", "bcb.castle", "bcb.offer", "bcb.sealed", "bcb.bid", "bcb.deal"):
        assert kinds[kind] > 0, kinds
    assert kinds["bcb.pick"] > 0, kinds
