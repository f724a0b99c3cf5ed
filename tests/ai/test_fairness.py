"""ARCHITECTURE.md decision 16: an AI sees what its seat sees. Two games identical in all that a
seat sees but with different secrets (pile order, hidden generator, hidden piles, the others'
hands and face-down cards) make the AI answer the same way with the same seed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ai import choose
from engine.carcassonne import hidden, rules
from engine.carcassonne.randomplay import choose_move
from engine.carcassonne.registry import all_expansions
from engine.carcassonne.state import GameSetup, GameState
from engine.carcassonne.view import view_for
from engine.cardgame import hidden as card_hidden
from engine.cardgame import rules as card_rules
from engine.cardgame.decisions import pending as card_pending
from engine.cardgame.state import CardSetup, CardState, RowCard
from engine.core.rng import Rng

ALL = tuple(c.id for c in all_expansions())


def _played(setup: GameSetup, seed: int, moves: int) -> GameState:
    s = rules.new_game(setup, seed=seed)
    rng = Rng(seed + 99)
    for _ in range(moves):
        if s.over:
            break
        seat, action = choose_move(s, rng)
        s = rules.apply(s, seat, action).state
    return s


def _other_secrets(s: GameState) -> GameState:
    """``s`` with every secret changed: the pile's unseen order, the generator, hidden piles."""
    t = s.clone()
    pos = s.pile_pos
    t.pile = (*s.pile[:pos], *reversed(s.pile[pos:]))
    t.rng = s.rng ^ 0x5A5A_5A5A
    t.seed = s.seed + 1
    t.piles = {k: tuple(reversed(v)) for k, v in s.piles.items()}
    return t


@pytest.mark.parametrize(
    ("expansions", "seed", "moves"), [((), 3, 0), ((), 4, 30), (ALL, 5, 25), (ALL, 6, 60)]
)
@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_tile_game_answers_do_not_depend_on_secrets(
    expansions: tuple[str, ...], seed: int, moves: int, level: str
) -> None:
    a = _played(GameSetup(expansions=expansions), seed, moves)
    b = _other_secrets(a)
    seat = rules.pending(a)[0].seat
    assert view_for(a, seat) == view_for(b, seat)
    assert a.pile != b.pile or a.tiles_left < 2
    assert choose(a, seat, level=level, nodes=150, seed=2) == choose(
        b, seat, level=level, nodes=150, seed=2
    )


def test_resampling_keeps_what_the_seat_sees_and_only_that() -> None:
    a = _played(GameSetup(expansions=ALL), 7, 40)
    b = _other_secrets(a)
    for seat in range(2):
        x, y = hidden.resample(a, seat, Rng(1)), hidden.resample(b, seat, Rng(1))
        assert x.pile == y.pile and x.rng == y.rng and x.piles == y.piles
        assert view_for(x, seat) == view_for(a, seat)
        assert sorted(x.pile[x.pile_pos :]) == sorted(a.pile[a.pile_pos :])


def _card_other_secrets(s: CardState, seat: int) -> CardState:
    """``s`` with the unseen cards dealt otherwise: another seat's hand swapped with pile cards,
    the pile reversed, the others' face-down cards swapped with pile cards."""
    pile = list(s.pile[s.pile_pos :])
    hands = list(s.hands)
    for other in range(s.players):
        if other != seat and hands[other] and len(pile) >= len(hands[other]):
            k = len(hands[other])
            hands[other], pile[:k] = tuple(sorted(pile[:k])), list(hands[other])
    rows = []
    for row in s.rows:
        items = []
        for item in row:
            if isinstance(item, RowCard) and item.face_down and item.by != seat and pile:
                item, pile[-1] = replace(item, card=pile[-1]), item.card
            items.append(item)
        rows.append(tuple(items))
    return replace(
        s,
        pile=(*s.pile[: s.pile_pos], *reversed(pile)),
        hands=tuple(hands),
        rows=tuple(rows),
        seed=s.seed + 1,
    )


@pytest.mark.parametrize(("players", "seed", "moves"), [(2, 1, 0), (2, 2, 9), (3, 3, 14)])
@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_card_game_answers_do_not_depend_on_secrets(
    players: int, seed: int, moves: int, level: str
) -> None:
    s = card_rules.new_game(CardSetup(players=players), seed=seed)
    rng = Rng(seed)
    for _ in range(moves):
        d = card_pending(s)[0]
        s = card_rules.apply(s, d.seat, d.options[rng.below(len(d.options))].action).state
    seat = card_pending(s)[0].seat
    t = _card_other_secrets(s, seat)
    assert t.hands[seat] == s.hands[seat]
    assert t != s
    assert sorted(t.all_cards()) == sorted(s.all_cards())
    x, y = card_hidden.resample(s, seat, Rng(4)), card_hidden.resample(t, seat, Rng(4))
    assert x == y
    assert choose(s, seat, level=level, nodes=300, seed=3) == choose(
        t, seat, level=level, nodes=300, seed=3
    )


def test_card_resample_deals_the_unseen_cards_again() -> None:
    s = card_rules.new_game(CardSetup(players=3), seed=5)
    while not all(s.hands):  # a joker turned up in setup: the dealer lays it first
        d = card_pending(s)[0]
        s = card_rules.apply(s, d.seat, d.options[0].action).state
    x = card_hidden.resample(s, 0, Rng(1))
    assert x.hands[0] == s.hands[0]
    assert x.hands[1:] != s.hands[1:]
    assert sorted(x.all_cards()) == sorted(s.all_cards())


def test_another_seats_sealed_bid_is_not_read() -> None:
    from engine.carcassonne.expansions.bridges_castles_bazaars.model import model
    from engine.carcassonne.expansions.bridges_castles_bazaars.texts import ID

    setup = GameSetup(players=3, expansions=("bridges_castles_bazaars",))
    a = _played(setup, 1, 0)
    rng = Rng(1)
    while not (
        (m := model(a).market) is not None and m.answered and any(d.group for d in rules.pending(a))
    ):
        seat, action = choose_move(a, rng)
        a = rules.apply(a, seat, action).state
    market = model(a).market
    assert market is not None
    bidder = rules.pending(a)[0].seat
    other = market.answered[0]
    b = a.clone()
    bids = list(market.bids)
    bids[other] = market.price + 7 if bids[other] < 0 else -1
    b.ext[ID] = replace(model(a), market=replace(market, bids=tuple(bids)))
    assert view_for(a, bidder) == view_for(b, bidder)
    x, y = hidden.resample(a, bidder, Rng(2)), hidden.resample(b, bidder, Rng(2))
    assert x.ext[ID] == y.ext[ID]
    for level in ("greedy", "strong"):
        assert choose(a, bidder, level=level, nodes=100) == choose(
            b, bidder, level=level, nodes=100
        )
