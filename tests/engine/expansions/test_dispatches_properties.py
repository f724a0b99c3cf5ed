"""Property tests: random games with Messages, alone and with every other built expansion, keep
every invariant at every step.

Checked after every action: the input state is unchanged; every figure is in a supply, on the
board, in flight, on a castle or a barn; scores are the sum of the awards; each messenger holds
exactly the awards the ledger puts on it, and the main figure the rest (the score is the sum of
both figures); the eight messages are all in the pile but the one in play, never more than one
out; no message is out or owed when a tile is to be placed; a message is only ever offered
to the seat whose scoring it is. At the end the two figures are one (§7.4), and records replay
to the same game.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameSetup, GameState, apply, new_game
from engine.carcassonne import chance, track
from engine.carcassonne.expansions import BUILTIN_IDS
from engine.carcassonne.expansions.dispatches import DECK, MESSENGER, MessageDrawn
from engine.carcassonne.expansions.dispatches.model import STANDING, MessagesModel
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.rules import pending
from engine.core.rng import Rng
from tests.engine.expansions.property_kit import assert_replays, figures, seeds
from tests.engine.test_properties import check_answers_listed, check_board_model, snapshot

MS = "dispatches"
OTHERS = tuple(i for i in BUILTIN_IDS if i != MS)


@st.composite
def setups(draw: st.DrawFn) -> GameSetup:
    others = draw(st.booleans())
    return GameSetup(
        players=draw(st.integers(2, 6)),
        expansions=(*(OTHERS if others else ()), MS),
        tiny_city=draw(st.sampled_from((2, 4))),
        farm_scoring=draw(st.sampled_from(("per_farm", "city_supply_1st_ed"))),
        options=(("dispatches.choice", draw(st.sampled_from(STANDING))),),
    )


RANDOM = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def model(state: GameState) -> MessagesModel:
    m = state.ext[MS]
    assert isinstance(m, MessagesModel)
    return m


def check_track(state: GameState) -> None:
    for seat in range(state.setup.players):
        mine = [a for a in state.awards if a.seat == seat]
        assert state.scores[seat] == sum(a.points for a in mine)
        if state.over:
            assert track.find(state, seat, MESSENGER) is None  # added up (§7.4)
            continue
        on = sum(a.points for a in mine if a.figure == MESSENGER)
        assert track.value(state, seat, MESSENGER) == on == model(state).messengers[seat]
        assert track.value(state, seat) == state.scores[seat] - on


def check_messages(state: GameState, events: tuple[object, ...]) -> None:
    m = model(state)
    if state.over:
        return
    out = 1 if m.card is not None else 0
    assert chance.pile_size(state, DECK) + out == 8
    held = sorted((*state.piles[DECK], *((m.card,) if m.card else ())))
    assert held == ["1", "2", "3", "4", "5", "6", "7", "8"]
    assert sum(1 for e in events if isinstance(e, MessageDrawn)) <= 8
    for d in pending(state):
        if d.kind == "core.place":  # no message is out or owed when a tile is to be placed
            assert m.card is None and not m.landed
        if d.kind == "dispatches.message":
            assert d.seat == m.active and m.card is not None


def play_checked(setup: GameSetup, seed: int, choice_seed: int) -> tuple[GameState, int]:
    state = new_game(setup, seed=seed)
    rng = Rng(choice_seed)
    start = figures(state)
    steps = drawn = 0
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
        check_track(after)
        check_messages(after, tr.events)
        drawn += sum(1 for e in tr.events if isinstance(e, MessageDrawn))
        if steps % 25 == 0:
            check_board_model(after)
        state = after
    assert not list(state.board.meeples())
    check_board_model(state)
    return state, drawn


@given(setup=setups(), seed=seeds, choice_seed=seeds)
@RANDOM
def test_random_games_keep_every_invariant(setup: GameSetup, seed: int, choice_seed: int) -> None:
    play_checked(setup, seed, choice_seed)


@given(players=st.integers(2, 6), others=st.booleans(), seed=seeds)
@settings(max_examples=6, deadline=None)
def test_random_games_replay_from_their_record(players: int, others: bool, seed: int) -> None:
    assert_replays(GameSetup(players=players, expansions=(*(OTHERS if others else ()), MS)), seed)


def test_random_games_draw_messages() -> None:
    """Over a few games messages are drawn (the landing check is not stuck)."""
    drawn = sum(
        play_checked(GameSetup(players=3, expansions=(MS,)), seed, seed + 100)[1]
        for seed in range(8)
    )
    assert drawn > 0
