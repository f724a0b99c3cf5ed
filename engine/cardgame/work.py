"""The mutable working copy of a :class:`CardState` that one transition builds and freezes.

:func:`engine.cardgame.rules.apply` copies the state into a :class:`Work`, lets the steps
(:mod:`engine.cardgame.flow`, :mod:`engine.cardgame.tally`) change it, and freezes it into a
new state: its input never changes (ARCHITECTURE.md decision 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

from engine.cardgame.events import CardEvent, PointsScored
from engine.cardgame.scoring import Award, CardScoreItem
from engine.cardgame.state import CardState, HeldAnimal, Receipt, RowItem
from engine.core.seats import Seat

_SETTERS = tuple(getattr(CardState, f.name).__set__ for f in fields(CardState))
_new = object.__new__


def make_state(values: tuple[object, ...]) -> CardState:
    """Build a :class:`CardState` from its field values in declaration order.

    Same result as ``CardState(*values)`` at half the cost: the frozen dataclass ``__init__``
    goes through ``object.__setattr__`` per field, the slot descriptors do not. Used once per
    :func:`engine.cardgame.rules.apply`, the hot path of random games (ARCHITECTURE.md decision 3).
    """
    state: CardState = _new(CardState)
    for set_field, value in zip(_SETTERS, values, strict=True):
        set_field(state, value)
    return state


class Work:
    """A mutable copy of a state, used only inside one :func:`engine.cardgame.rules.apply`."""

    __slots__ = (
        "animals",
        "awaiting",
        "awards",
        "chests",
        "current",
        "dealer",
        "follower_row",
        "hands",
        "last_follower",
        "pile",
        "pile_pos",
        "played",
        "receipts",
        "removed",
        "round",
        "rows",
        "scores",
        "seed",
        "setup",
        "step",
        "version",
        "winners",
    )

    def __init__(self, s: CardState) -> None:
        self.setup = s.setup
        self.seed = s.seed
        self.pile = s.pile
        self.pile_pos = s.pile_pos
        # lists of tuples: a row, hand, animal pile or chest becomes a list only when changed
        self.rows: list[Sequence[RowItem]] = list(s.rows)
        self.hands: list[Sequence[int]] = list(s.hands)
        self.animals: list[Sequence[HeldAnimal]] = list(s.animals)
        self.chests: list[Sequence[int]] = list(s.chests)
        self.scores = list(s.scores)
        self.played = list(s.played)
        self.follower_row = list(s.follower_row)
        self.dealer = s.dealer
        self.current = s.current
        self.step = s.step
        self.awaiting = set(s.awaiting)
        self.version = s.version
        self.round = s.round
        self.last_follower = s.last_follower
        self.removed = s.removed
        self.awards = s.awards
        self.receipts: list[Receipt] = list(s.receipts)
        self.winners = s.winners

    def freeze(self) -> CardState:
        return make_state(
            (
                self.setup,
                self.seed,
                self.pile,
                self.pile_pos,
                tuple(map(tuple, self.rows)),
                tuple(map(tuple, self.hands)),
                tuple(map(tuple, self.animals)),
                tuple(map(tuple, self.chests)),
                tuple(self.scores),
                tuple(self.played),
                tuple(self.follower_row),
                self.dealer,
                self.current,
                self.step,
                frozenset(self.awaiting),
                self.version,
                self.round,
                self.last_follower,
                self.removed,
                self.awards,
                tuple(self.receipts),
                self.winners,
            )
        )

    @property
    def n(self) -> int:
        return self.setup.players

    def row(self, i: int) -> list[RowItem]:
        """Row ``i``, made changeable."""
        r = self.rows[i]
        if not isinstance(r, list):
            r = self.rows[i] = list(r)
        return r

    def hand(self, seat: int) -> list[int]:
        """Hand of ``seat``, made changeable."""
        h = self.hands[seat]
        if not isinstance(h, list):
            h = self.hands[seat] = list(h)
        return h

    def award(self, seat: Seat, item: CardScoreItem, events: list[CardEvent]) -> None:
        a = Award(seat, item.points, item)
        self.scores[seat] += item.points
        self.awards = (*self.awards, a)
        events.append(PointsScored(a))
