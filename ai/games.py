"""The two games behind one small interface, so that levels and search know neither.

A :class:`Rules` answers what the AI asks of a game: the open decisions, an answer applied, whether
a step revealed anything, the scores, and a determinised copy for a seat (the engine's
``hidden.resample``: the only place an AI meets hidden data, and only to replace it).
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.carcassonne import hidden as tile_hidden
from engine.carcassonne import rules as tile_rules
from engine.carcassonne.state import GameState
from engine.cardgame import decisions as card_decisions
from engine.cardgame import hidden as card_hidden
from engine.cardgame import rules as card_rules
from engine.cardgame.state import CardState
from engine.core.decisions import Decision
from engine.core.rng import Rng
from engine.core.seats import Seat


class Rules(Protocol):
    """What the AI needs of a game (a tile game or a card game)."""

    name: str

    def pending(self, state: Any) -> tuple[Decision, ...]: ...

    def apply(self, state: Any, seat: Seat, action: Any, key: str) -> Any: ...

    def revealed(self, before: Any, after: Any) -> bool: ...

    def over(self, state: Any) -> bool: ...

    def scores(self, state: Any) -> tuple[int, ...]: ...

    def determinise(self, state: Any, seat: Seat, rng: Rng) -> Any: ...


class TileRules:
    """The tile game (:mod:`engine.carcassonne`)."""

    name = "tiles"

    def pending(self, state: GameState) -> tuple[Decision, ...]:
        return () if state.over else tile_rules.pending(state)

    def apply(self, state: GameState, seat: Seat, action: Any, key: str) -> GameState:
        return tile_rules.apply(state, seat, action, key=key).state

    def revealed(self, before: GameState, after: GameState) -> bool:
        return tile_rules.revealed(before, after)

    def over(self, state: GameState) -> bool:
        return state.over

    def scores(self, state: GameState) -> tuple[int, ...]:
        return state.scores

    def determinise(self, state: GameState, seat: Seat, rng: Rng) -> GameState:
        return tile_hidden.resample(state, seat, rng)


class CardRules:
    """The card game (:mod:`engine.cardgame`)."""

    name = "cards"

    def pending(self, state: CardState) -> tuple[Decision, ...]:
        return card_decisions.pending(state)

    def apply(self, state: CardState, seat: Seat, action: Any, key: str) -> CardState:
        return card_rules.apply(state, seat, action).state

    def revealed(self, before: CardState, after: CardState) -> bool:
        return after.pile_pos != before.pile_pos or after.over or after.round != before.round

    def over(self, state: CardState) -> bool:
        return state.over

    def scores(self, state: CardState) -> tuple[int, ...]:
        return state.scores

    def determinise(self, state: CardState, seat: Seat, rng: Rng) -> CardState:
        return card_hidden.resample(state, seat, rng)


TILES = TileRules()
CARDS = CardRules()


def rules_of(state: object) -> Rules:
    """The rules of ``state``'s game.

    Raises:
        TypeError: ``state`` is no game state."""
    if isinstance(state, GameState):
        return TILES
    if isinstance(state, CardState):
        return CARDS
    raise TypeError(f"not a game state: {type(state).__name__}")
