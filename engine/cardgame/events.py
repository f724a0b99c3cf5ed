"""Card-game events: what happened in one transition, for announcements.

Events are public: they never name a card that is face down or in a hand. Secrets reach their
owner only through :func:`engine.cardgame.view.view_for`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cardgame.cards import Colour
from engine.cardgame.scoring import Award
from engine.core.seats import Seat


class CardEvent:
    """Base class of card-game events."""


@dataclass(frozen=True, slots=True)
class SetupCardLaid(CardEvent):
    """The dealer turned up ``card`` during setup and laid it in ``row``."""

    card: str
    row: Colour


@dataclass(frozen=True, slots=True)
class JokerTurnedUp(CardEvent):
    """Setup: a joker came up; the dealer chooses its row."""

    dealer: Seat
    card: str


@dataclass(frozen=True, slots=True)
class RoundStarted(CardEvent):
    """``dealer`` dealt ``cards`` to each player; ``first`` (the dealer's left) plays first."""

    round: int
    dealer: Seat
    first: Seat
    cards: int


@dataclass(frozen=True, slots=True)
class CardPlayed(CardEvent):
    """``seat`` laid a card in ``row``; ``card`` is ``None`` when it went face down."""

    seat: Seat
    row: Colour
    card: str | None
    face_down: bool


@dataclass(frozen=True, slots=True)
class FollowerPlaced(CardEvent):
    """``seat`` stood its large follower in ``row``, securing ``secured`` cards; ``last`` when it
    was the round's last follower (that seat deals next)."""

    seat: Seat
    row: Colour
    secured: int
    last: bool


@dataclass(frozen=True, slots=True)
class CardsCollected(CardEvent):
    """At round end ``seat`` took the cards it secured in ``row`` (all now face up)."""

    seat: Seat
    row: Colour
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChoiceNeeded(CardEvent):
    """``seat`` must decide: ``what`` is ``wrong-row`` (keep or cash ``card``) or ``joker``
    (assign an animal joker to one of ``options``)."""

    seat: Seat
    what: str
    card: str
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChoiceMade(CardEvent):
    """``seat`` kept or cashed ``card``, or assigned an animal joker (``card`` = the kind)."""

    seat: Seat
    what: str
    card: str
    choice: str


@dataclass(frozen=True, slots=True)
class PointsScored(CardEvent):
    award: Award


@dataclass(frozen=True, slots=True)
class CardsToChest(CardEvent):
    """``seat`` put ``count`` building cards face down under its chest."""

    seat: Seat
    count: int


@dataclass(frozen=True, slots=True)
class RoundEnded(CardEvent):
    """Round ``round`` was scored; ``next_dealer`` placed the last follower and deals next."""

    round: int
    next_dealer: Seat
    left_in_rows: int


@dataclass(frozen=True, slots=True)
class GameEnded(CardEvent):
    """Final scores; ``building_cards`` is the tie-break count of each seat."""

    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    building_cards: tuple[int, ...]
