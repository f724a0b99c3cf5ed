"""Random legal games (2–5 players) to the end, with invariants checked after every action;
the building-set optimiser against an independent brute force; secrecy of the views."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cardgame.actions import CardAction, PlaceFollower, PlayCard
from engine.cardgame.cards import BUILDING_SET_POINTS, DECK, ROWS, Colour
from engine.cardgame.events import GameEnded, PointsScored, RoundEnded, RoundStarted
from engine.cardgame.rules import apply, auto_action, legal_actions, new_game, replay
from engine.cardgame.scoring import best_building_sets
from engine.cardgame.sim import play_random, random_game
from engine.cardgame.state import STEP_OVER, STEP_PLAY, CardSetup, CardState, RowFollower
from engine.cardgame.view import CardSeatView, public_view, view_for
from engine.core.errors import GameOverError, NotYourTurnError
from engine.core.rng import Rng
from engine.core.seats import Seat
from tests.engine.cardgame.helpers import Cards, act, table, up


def _check(state: CardState) -> None:
    assert sorted(state.all_cards()) == list(range(len(DECK)))
    assert all(s >= 0 for s in state.scores)
    assert sum(a.points for a in state.awards) == sum(state.scores)
    assert state.awaiting or state.step == STEP_OVER
    if state.step == "choose":  # exactly the seats that still owe a choice are awaited
        assert state.awaiting == {r.seat for r in state.receipts if r.pending}
    for held in state.animals:  # jokers wait for a kind only while no animal is held
        kinds = [a.kind for a in held]
        assert None not in kinds or all(DECK[a.card].colour is None for a in held)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant_to_the_end(players: int, seed: int) -> None:
    state = new_game(CardSetup(players=players), seed=seed)
    rng = Rng(seed)
    rounds_started = 1 if state.step == STEP_PLAY else 0
    log: list[tuple[Seat, CardAction]] = []
    while state.step != STEP_OVER:
        _check(state)
        seat = sorted(state.awaiting)[rng.below(len(state.awaiting))]
        options = legal_actions(state, seat)
        assert options, "an awaited seat always has something legal to do"
        for other in range(players):
            if other not in state.awaiting:
                assert legal_actions(state, Seat(other)) == ()
        action = options[rng.below(len(options))]
        assert CardAction.from_notation(action.notation()) == action
        before = state.scores
        tr = apply(state, seat, action)
        log.append((seat, action))
        assert tr.state.version == state.version + 1
        assert all(b <= a for b, a in zip(before, tr.state.scores, strict=True))
        for e in tr.events:
            if isinstance(e, PointsScored):
                assert e.award.points >= 0
            if isinstance(e, RoundEnded):
                # followers went back to their owners
                assert not any(isinstance(i, RowFollower) for row in tr.state.rows for i in row)
            if isinstance(e, RoundStarted):
                rounds_started += 1
                assert all(r is None for r in tr.state.follower_row)
                assert [len(h) for h in tr.state.hands] == [CardSetup(players).deal.cards] * players
        state = tr.state
    _check(state)
    assert rounds_started == state.rounds == state.round
    assert state.pile_left == 0 and not any(state.rows) and not any(state.hands)
    assert state.winners and set(state.winners) <= set(range(players))
    assert replay(state.setup, seed, log) == state


def test_random_games_reach_every_kind_of_action() -> None:
    """So the random-game invariants above also cover setup jokers and scoring choices."""
    seen: Counter[str] = Counter()
    for seed in range(40):
        _, log = random_game(2 + seed % 4, seed)
        seen.update(a.kind for _, a in log)
    assert set(seen) == {"lay", "play", "follower", "wrong-row", "assign"}


def test_play_random_is_deterministic_and_replayable() -> None:
    a = play_random(4, 1234)
    assert a == play_random(4, 1234)
    assert a != play_random(4, 1235)
    assert a.rounds == 6 and len(a.scores) == 4
    assert a.winners == tuple(
        s for s in range(4) if a.scores[s] == max(a.scores)
        and a.building_cards[s] == max(a.building_cards[t] for t in range(4) if a.scores[t] == max(a.scores))
    )  # fmt: skip
    log = [(seat, CardAction.from_notation(text)) for seat, text in a.actions]
    final = replay(a.setup, a.seed, log)
    assert final.scores == a.scores and final.winners == a.winners


def test_a_random_game_ends_with_a_game_ended_event() -> None:
    state, log = random_game(3, 5)
    prev = replay(state.setup, 5, log[:-1])
    events = apply(prev, log[-1][0], log[-1][1]).events
    (end,) = [e for e in events if isinstance(e, GameEnded)]
    assert end.scores == state.scores


# --------------------------------------------------------------------------- building sets
def _partitions(items: list[str]) -> Iterator[list[list[str]]]:
    """Every partition of ``items`` into groups (set partitions, by recursion)."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for part in _partitions(rest):
        yield [[head], *part]
        for i in range(len(part)):
            yield [*part[:i], [head, *part[i]], *part[i + 1 :]]


def _brute_force(kinds: list[str], jokers: int) -> int:
    """Try every grouping of the cards; a group is valid when its real cards are all different
    and it holds at most 4 cards."""
    best = 0
    for groups in _partitions(kinds + ["*"] * jokers):
        points = 0
        for members in groups:
            real = [m for m in members if m != "*"]
            if len(real) != len(set(real)) or len(members) > 4:
                break
            points += BUILDING_SET_POINTS[len(members)]
        else:
            best = max(best, points)
    return best


@settings(max_examples=60, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(["blue", "red", "green", "yellow"]), max_size=6),
    jokers=st.integers(0, 2),
)
def test_best_building_sets_matches_a_brute_force(kinds: list[str], jokers: int) -> None:
    points, sets = best_building_sets(kinds, jokers)
    assert points == _brute_force(kinds, jokers)
    assert sum(s.points for s in sets) == points
    assert sorted(k for s in sets for k in s.kinds) == sorted(kinds)
    assert sum(s.jokers for s in sets) == jokers
    assert all(len(set(s.kinds)) == len(s.kinds) and s.size <= 4 for s in sets)


# ------------------------------------------------------------------------------- secrecy
def _mid_game(players: int, seed: int, moves: int) -> CardState:
    state = new_game(CardSetup(players=players), seed=seed)
    rng = Rng(seed)
    for _ in range(moves):
        seat = min(state.awaiting)
        options = legal_actions(state, seat)
        state = apply(state, seat, options[rng.below(len(options))]).state
    return state


def test_the_public_view_does_not_depend_on_hidden_cards() -> None:
    """Swap every hidden card (hands, face-down cards, chests, the pile) for other hidden cards:
    the public view must not change; the owner's view must."""
    state = _mid_game(3, 77, 9)
    assert any(i.face_down for row in state.rows for i in row if not isinstance(i, RowFollower))
    hidden: list[int] = [c for h in state.hands for c in h]
    hidden += [i.card for row in state.rows for i in row if not isinstance(i, RowFollower) and i.face_down]  # fmt: skip
    hidden += [c for ch in state.chests for c in ch]
    hidden += list(state.pile[state.pile_pos :])
    shuffled = Rng(1).shuffled(hidden)
    assert [DECK[c].code for c in shuffled] != [DECK[c].code for c in hidden]
    swap = dict(zip(hidden, shuffled, strict=True))
    other = replace(
        state,
        hands=tuple(tuple(swap[c] for c in h) for h in state.hands),
        rows=tuple(
            tuple(
                replace(i, card=swap[i.card])
                if not isinstance(i, RowFollower) and i.face_down
                else i
                for i in row
            )
            for row in state.rows
        ),
        chests=tuple(tuple(swap[c] for c in ch) for ch in state.chests),
        pile=state.pile[: state.pile_pos] + tuple(swap[c] for c in state.pile[state.pile_pos :]),
    )
    assert public_view(other) == public_view(state)
    mine = view_for(state, Seat(0))
    assert isinstance(mine, CardSeatView)
    assert mine != view_for(other, Seat(0))
    assert [f.code for f in mine.hand] == sorted(
        (DECK[c].code for c in state.hands[0]), key=lambda code: [f.code for f in DECK].index(code)
    )
    assert all(row.colour in ROWS for row in mine.public.rows)


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32), auto_share=st.integers(1, 4))
def test_auto_moves_are_always_legal_and_finish_games(
    players: int, seed: int, auto_share: int
) -> None:
    """Timed-out seats get :func:`auto_action`; mixed with random moves the game still ends."""
    state = new_game(CardSetup(players=players), seed=seed)
    rng = Rng(seed)
    while state.step != STEP_OVER:
        seat = min(state.awaiting)
        options = legal_actions(state, seat)
        if rng.below(auto_share + 1):
            action = auto_action(state, seat)
            assert action in options
        else:
            action = options[rng.below(len(options))]
        state = apply(state, seat, action).state
        _check(state)
    with pytest.raises(GameOverError):
        auto_action(state, Seat(0))


def test_auto_moves_follow_their_stated_policy() -> None:
    c = Cards()
    s = table(
        rows={Colour.RED: [up(c, "red-1"), up(c, "red-2")], Colour.BLUE: [up(c, "blue-1")]},
        hands={0: (), 1: c.many(["dragon", "green-3"])},
    )
    assert auto_action(s, Seat(0)) == PlaceFollower(Colour.RED)  # secures the most cards
    with pytest.raises(NotYourTurnError):
        auto_action(s, Seat(1))
    s, _ = act(s, 0, "follower red")
    assert auto_action(s, Seat(1)) == PlayCard("green-3", Colour.GREEN)
