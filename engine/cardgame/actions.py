"""Card-game actions, with a short text notation that round-trips.

>>> CardAction.from_notation("play blue-2 blue")
PlayCard(card='blue-2', row=<Colour.BLUE: 'blue'>)
>>> CardAction.from_notation("play city-2").notation()
'play blue-2 blue'
>>> CardAction.from_notation("follower road").notation()
'follower red'
>>> CardAction.from_notation("cash green-animal")
ChooseWrongRow(card='green-animal', keep=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.cardgame.cards import CardFace, Colour, face_name
from engine.core import messages
from engine.core.errors import InvalidActionError

messages.register(
    {
        "err.cards.empty_action": (
            "empty action; use 'play CARD ROW', 'follower ROW', 'keep CARD', 'cash CARD', "
            "'assign KIND' or 'lay ROW'",
            "acción vacía; usa 'play CARTA FILA', 'follower FILA', 'keep CARTA', 'cash CARTA', "
            "'assign TIPO' o 'lay FILA'",
        ),
        "err.cards.not_an_action": (
            "'{text}' is not an action; use 'play CARD ROW', 'follower ROW', 'keep CARD', "
            "'cash CARD', 'assign KIND' or 'lay ROW'",
            "'{text}' no es una acción; usa 'play CARTA FILA', 'follower FILA', 'keep CARTA', "
            "'cash CARTA', 'assign TIPO' o 'lay FILA'",
        ),
        "err.cards.which_row": (
            "say which row the {card} goes in",
            "di en qué fila va: {card}",
        ),
    }
)


class CardAction:
    """Base class of card-game actions. ``kind`` names the action for front ends."""

    kind: ClassVar[str] = ""

    def notation(self) -> str:
        raise NotImplementedError

    @staticmethod
    def from_notation(text: str) -> CardAction:
        """Parse an action (see the module examples).

        ``play CARD`` without a row plays a coloured card into its own colour's row.

        Raises:
            InvalidActionError: when the text is not an action.
        """
        parts = text.split()
        if not parts:
            raise InvalidActionError.keyed("err.cards.empty_action")
        head, args = parts[0].lower(), parts[1:]
        if head == "play" and len(args) in (1, 2):
            face = CardFace.parse(args[0])
            if len(args) == 2:
                return PlayCard(face.code, Colour.parse(args[1]))
            if face.colour is None:
                raise InvalidActionError.keyed("err.cards.which_row", card=face_name(face.code))
            return PlayCard(face.code, face.colour)
        if head == "follower" and len(args) == 1:
            return PlaceFollower(Colour.parse(args[0]))
        if head in ("keep", "cash") and len(args) == 1:
            return ChooseWrongRow(CardFace.parse(args[0]).code, keep=head == "keep")
        if head == "assign" and len(args) == 1:
            return AssignJoker(_parse_kind(args[0]))
        if head == "lay" and len(args) == 1:
            return LayJoker(Colour.parse(args[0]))
        raise InvalidActionError.keyed("err.cards.not_an_action", text=text)


def _parse_kind(text: str) -> str:
    """Animal kinds are named like their colour (OQ-CARD-1)."""
    return Colour.parse(text).value


@dataclass(frozen=True, slots=True)
class PlayCard(CardAction):
    """Lay a card from hand at the end of ``row``.

    Whether it goes face down is not chosen: a seat's first card of a round always does
    (RULES.md §17.3 A.2).
    """

    card: str
    row: Colour
    kind: ClassVar[str] = "play"

    def notation(self) -> str:
        return f"play {self.card} {self.row.value}"


@dataclass(frozen=True, slots=True)
class PlaceFollower(CardAction):
    """Stand the large follower at the end of ``row``, securing the cards behind it."""

    row: Colour
    kind: ClassVar[str] = "follower"

    def notation(self) -> str:
        return f"follower {self.row.value}"


@dataclass(frozen=True, slots=True)
class ChooseWrongRow(CardAction):
    """For a secured wrong-row animal or building card: ``keep`` it (score it normally) or
    cash it for 10 points (the card leaves the game)."""

    card: str
    keep: bool
    kind: ClassVar[str] = "wrong-row"

    def notation(self) -> str:
        return f"{'keep' if self.keep else 'cash'} {self.card}"


@dataclass(frozen=True, slots=True)
class AssignJoker(CardAction):
    """Give an animal joker waiting for a kind to the animal kind ``animal`` (a colour)."""

    animal: str
    kind: ClassVar[str] = "assign"

    def notation(self) -> str:
        return f"assign {self.animal}"


@dataclass(frozen=True, slots=True)
class LayJoker(CardAction):
    """Setup: the dealer lays the joker just turned up into ``row`` (§17.2.5)."""

    row: Colour
    kind: ClassVar[str] = "lay"

    def notation(self) -> str:
        return f"lay {self.row.value}"
