"""Setup and state of the card game.

:class:`CardState` is a frozen dataclass of tuples: :func:`engine.cardgame.rules.apply` builds a
new one and never changes its input. Hidden parts (the pile order, hands, the faces of face-down
cards, the chests) leave the engine only through :func:`engine.cardgame.view.view_for`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cardgame.cards import DEAL, DECK, MAX_PLAYERS, MIN_PLAYERS, Colour, DealRule
from engine.cardgame.scoring import Award
from engine.core import messages
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

messages.register(
    {
        "err.cards.players": (
            "The card game needs {low}–{high} players, not {n}.",
            "El juego de cartas necesita de {low} a {high} jugadores, no {n}.",
        ),
        "err.cards.dealer": (
            "The first dealer must be seat 1–{n}.",
            "El primer repartidor debe ser un asiento del 1 al {n}.",
        ),
    }
)

#: Steps: the dealer lays setup jokers, players play the round, seats answer scoring choices.
STEP_SETUP = "setup"
STEP_PLAY = "play"
STEP_CHOOSE = "choose"
STEP_OVER = "over"


@dataclass(frozen=True, slots=True)
class CardSetup:
    """Everything that fixes a card game before the first move (with the seed).

    ``dealer``: the first dealer, the youngest player by the rulebook; ``None`` draws one from
    the seed (RULES.md §17.2.3). ``stack``: card codes put on top of the shuffled deck in this
    order (tests and imports): the first 10 are the setup cards, then the hands, dealt in
    blocks starting with the dealer's left.
    """

    players: int = 2
    dealer: int | None = None
    names: tuple[str, ...] = ()
    stack: tuple[str, ...] = ()

    @property
    def deal(self) -> DealRule:
        """Cards per hand and rounds for this player count."""
        return DEAL[self.players]

    def validate(self) -> None:
        """Raises:
        IllegalActionError: for an impossible setup, in words a lobby can show.
        """
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise IllegalActionError.keyed(
                "err.cards.players", low=MIN_PLAYERS, high=MAX_PLAYERS, n=self.players
            )
        if self.dealer is not None and not 0 <= self.dealer < self.players:
            raise IllegalActionError.keyed("err.cards.dealer", n=self.players)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players}
        if self.dealer is not None:
            out["dealer"] = self.dealer
        if self.names:
            out["names"] = list(self.names)
        if self.stack:
            out["stack"] = list(self.stack)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CardSetup:
        dealer = data.get("dealer")
        return cls(
            players=int(data.get("players", 2)),
            dealer=None if dealer is None else int(dealer),
            names=tuple(str(n) for n in data.get("names", ())),
            stack=tuple(str(c) for c in data.get("stack", ())),
        )

    def name(self, seat: Seat) -> str:
        return self.names[seat] if seat < len(self.names) else f"Player {seat + 1}"


@dataclass(frozen=True, slots=True)
class RowCard:
    """A card in a row. ``by`` is who played it (``None``: laid by the dealer at setup)."""

    card: int
    face_down: bool = False
    by: Seat | None = None


@dataclass(frozen=True, slots=True)
class RowFollower:
    """A large follower standing at the end of a row: it secures the cards behind it."""

    seat: Seat


RowItem = RowCard | RowFollower


@dataclass(frozen=True, slots=True)
class HeldAnimal:
    """An animal card in front of a player; ``kind`` is ``None`` for an unassigned joker."""

    card: int
    kind: str | None


@dataclass(frozen=True, slots=True)
class Receipt:
    """What one seat secured at the end of a round, and its choices about it (§17.4).

    ``cards`` pairs each card id with the row it came from. ``undecided`` lists wrong-row
    animal and building cards awaiting *keep* or *cash* (10 points); ``kept`` and ``cashed``
    hold the answers. ``jokers`` lists animal jokers awaiting a kind; ``assigned`` holds the
    kinds chosen (or forced) in this scoring.
    """

    seat: Seat
    cards: tuple[tuple[int, Colour], ...] = ()
    undecided: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()
    cashed: tuple[int, ...] = ()
    jokers: tuple[int, ...] = ()
    assigned: tuple[tuple[int, str], ...] = ()

    @property
    def pending(self) -> bool:
        return bool(self.undecided or self.jokers)


@dataclass(frozen=True, slots=True)
class CardState:
    """A whole card game at one moment.

    ``step`` is ``setup`` (the dealer lays a joker turned up during setup), ``play`` (``current``
    plays a card or its large follower), ``choose`` (the seats in ``awaiting`` answer scoring
    choices) or ``over``. ``pile`` is the whole shuffled deck; ``pile[pile_pos:]`` is still
    face down. ``played[s]`` counts the cards seat ``s`` played this round (its first one goes
    face down); ``follower_row[s]`` is where its large follower stands this round.
    """

    setup: CardSetup
    seed: int
    pile: tuple[int, ...]
    pile_pos: int
    rows: tuple[tuple[RowItem, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    animals: tuple[tuple[HeldAnimal, ...], ...]
    chests: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    played: tuple[int, ...]
    follower_row: tuple[Colour | None, ...]
    dealer: Seat
    current: Seat
    step: str = STEP_SETUP
    awaiting: frozenset[Seat] = frozenset()
    version: int = 0
    round: int = 0
    last_follower: Seat | None = None
    removed: tuple[int, ...] = ()
    awards: tuple[Award, ...] = ()
    receipts: tuple[Receipt, ...] = ()
    winners: tuple[Seat, ...] = ()

    @property
    def players(self) -> int:
        return self.setup.players

    @property
    def rounds(self) -> int:
        """How many rounds the game lasts."""
        return self.setup.deal.rounds

    @property
    def over(self) -> bool:
        return self.step == STEP_OVER

    @property
    def pile_left(self) -> int:
        """Cards still in the draw pile."""
        return len(self.pile) - self.pile_pos

    def building_cards(self, seat: Seat) -> int:
        """Cards under ``seat``'s chest (buildings and building jokers): the tie-break."""
        return len(self.chests[seat])

    def all_cards(self) -> list[int]:
        """Every card id wherever it is (pile, rows, hands, in front of players, chests,
        removed, and a round's receipts being scored): each of the 130 exactly once."""
        out = list(self.pile[self.pile_pos :])
        for row in self.rows:
            out.extend(i.card for i in row if isinstance(i, RowCard))
        for hand in self.hands:
            out.extend(hand)
        for held in self.animals:
            out.extend(a.card for a in held)
        for chest in self.chests:
            out.extend(chest)
        out.extend(self.removed)
        for r in self.receipts:
            out.extend(c for c, _ in r.cards)
        return out


def face_of(card: int) -> str:
    """The code of card ``card`` (for messages and tests)."""
    return DECK[card].code
