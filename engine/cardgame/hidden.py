"""Determinisation of the card game: a copy in which what a seat may not see is dealt afresh
(ARCHITECTURE.md decision 16; an AI searches such copies, never the real secrets).

What ``viewer`` may not see: the draw pile, the other seats' hands and the faces of the cards
the others played face down. :func:`resample` gathers those cards, puts them in a canonical
order, shuffles them with the given generator and deals them back to the same places (each
hand keeps its size and stays sorted); the card turned up during setup stays. Chests stay: their cards were shown when collected.

>>> from engine.cardgame.rules import new_game
>>> from engine.cardgame.state import CardSetup
>>> s = new_game(CardSetup(players=3), seed=4)
>>> t = resample(s, 0, Rng(9))
>>> t.hands[0] == s.hands[0], [len(h) for h in t.hands] == [len(h) for h in s.hands]
(True, True)
"""

from __future__ import annotations

from dataclasses import replace

from engine.cardgame.state import STEP_SETUP, CardState, RowCard, RowItem
from engine.core.rng import Rng


def resample(state: CardState, viewer: int, rng: Rng) -> CardState:
    """A copy of ``state`` with the hidden cards dealt afresh from ``rng`` (see the module doc).

    ``state`` is never changed; ``rng`` advances."""
    pos = state.pile_pos
    # the card turned up during setup (a joker the dealer lays) is seen by everyone
    top = 1 if state.step == STEP_SETUP and pos < len(state.pile) else 0
    pool: list[int] = list(state.pile[pos + top :])
    for s, hand in enumerate(state.hands):
        if s != viewer:
            pool.extend(hand)
    for row in state.rows:
        for item in row:
            if isinstance(item, RowCard) and item.face_down and item.by != viewer:
                pool.append(item.card)
    cards = iter(rng.shuffled(sorted(pool)))
    hands = tuple(
        hand if s == viewer else tuple(sorted(next(cards) for _ in hand))
        for s, hand in enumerate(state.hands)
    )
    rows: list[tuple[RowItem, ...]] = []
    for row in state.rows:
        items: list[RowItem] = []
        for item in row:
            if isinstance(item, RowCard) and item.face_down and item.by != viewer:
                item = replace(item, card=next(cards))
            items.append(item)
        rows.append(tuple(items))
    # the cards already drawn are not kept (nothing reads them): zeros hold their places
    pile = (*(0,) * pos, *state.pile[pos : pos + top], *cards)
    return replace(state, seed=0, pile=pile, hands=hands, rows=tuple(rows))
