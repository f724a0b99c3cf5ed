"""Pure questions about a card-game position, shared by the steps, the decisions and the views."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cardgame.cards import DECK, CardType
from engine.cardgame.state import HeldAnimal, Receipt, RowFollower, RowItem


def secured_by(row: Sequence[RowItem]) -> int:
    """How many cards a follower stood at the end of ``row`` now would secure."""
    i = len(row)
    while i:
        i -= 1
        if row[i].__class__ is RowFollower:
            return len(row) - 1 - i
    return len(row)


def real_kinds(held: Iterable[HeldAnimal], r: Receipt) -> tuple[str, ...]:
    """Animal kinds the seat holds, or receives (and keeps) in this scoring."""
    kinds = {DECK[a.card].kind for a in held if DECK[a.card].type is CardType.ANIMAL}
    for c, row in r.cards:
        face = DECK[c]
        if face.type is CardType.ANIMAL and (face.colour is row or c in r.kept):
            kinds.add(face.kind)
    return tuple(sorted(kinds))


def joker_options(held: Sequence[HeldAnimal], r: Receipt) -> tuple[str, ...]:
    """Kinds an animal joker may join: one the seat holds or receives in this scoring."""
    return real_kinds(held, r)
