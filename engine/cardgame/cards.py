"""The cards of the card game (RULES.md §17.1, seed 002) and its two scoring tables.

The box holds 140 cards; the 130 playing cards are built here. The 5 scoring cards and the
5 blank cards never enter play, so they are not modelled.

Card *faces* are what players see and name (``blue-2``, ``red-animal``, ``dragon``); card *ids*
(0–129) tell apart identical copies so that every card can be accounted for.

>>> len(DECK)
130
>>> CardFace.parse("city-3").code
'blue-3'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from engine.core import messages
from engine.core.errors import InvalidActionError

messages.register(
    {
        "err.cards.bad_row": (
            "'{text}' is not a row; use yellow (cloister), red (road), green (field) or blue (city)",
            "'{text}' no es una fila; usa amarillo (claustro), rojo (camino), verde (campo) o "
            "azul (ciudad)",
        ),
        "err.cards.bad_card": (
            "'{text}' is not a card; use e.g. blue-2, red-animal, green-building, animal-joker, "
            "building-joker, dragon or fairy",
            "'{text}' no es una carta; usa p. ej. azul-2, rojo-animal, verde-edificio, "
            "comodín-animal, comodín-edificio, dragón o hada",
        ),
    }
)


class Colour(Enum):
    """A card colour, which is also a row (one per scoring board)."""

    YELLOW = "yellow"
    RED = "red"
    GREEN = "green"
    BLUE = "blue"

    @property
    def feature(self) -> str:
        """The landscape the colour stands for: blue city, yellow cloister, red road, green field."""
        return _FEATURE[self]

    @classmethod
    def parse(cls, text: str) -> Colour:
        """Read a row or colour name: ``blue``/``city``, ``yellow``/``cloister``, ``red``/``road``,
        ``green``/``field`` (Spanish names too).

        Raises:
            InvalidActionError: for an unknown name.
        """
        key = text.strip().lower()
        found = _COLOUR_NAMES.get(key)
        if found is None:
            raise InvalidActionError.keyed("err.cards.bad_row", text=text)
        return found


#: The rows top to bottom as the rulebook lays them out: cloisters, roads, fields, cities.
ROWS: tuple[Colour, ...] = (Colour.YELLOW, Colour.RED, Colour.GREEN, Colour.BLUE)
ROW_INDEX: Mapping[Colour, int] = MappingProxyType({c: i for i, c in enumerate(ROWS)})

_FEATURE = {
    Colour.YELLOW: "cloister",
    Colour.RED: "road",
    Colour.GREEN: "field",
    Colour.BLUE: "city",
}
_COLOUR_NAMES: dict[str, Colour] = {}
for _c in Colour:
    _COLOUR_NAMES[_c.value] = _c
    _COLOUR_NAMES[_FEATURE[_c]] = _c
_COLOUR_NAMES.update(
    {
        "amarillo": Colour.YELLOW,
        "claustro": Colour.YELLOW,
        "rojo": Colour.RED,
        "camino": Colour.RED,
        "verde": Colour.GREEN,
        "campo": Colour.GREEN,
        "azul": Colour.BLUE,
        "ciudad": Colour.BLUE,
    }
)


class CardType(Enum):
    """What a card is, which decides how it scores (§17.4)."""

    CHARACTER = "character"
    ANIMAL = "animal"
    BUILDING = "building"
    ANIMAL_JOKER = "animal-joker"
    BUILDING_JOKER = "building-joker"
    DRAGON = "dragon"
    FAIRY = "fairy"


#: Spanish words of colours and card types (seed 002), for Spanish names and codes
_COLOUR_ES = {
    Colour.YELLOW: "amarillo",
    Colour.RED: "rojo",
    Colour.GREEN: "verde",
    Colour.BLUE: "azul",
}
_TYPE_NAME_ES = {
    CardType.CHARACTER: "personaje",
    CardType.ANIMAL: "animal",
    CardType.BUILDING: "edificio",
    CardType.ANIMAL_JOKER: "comodín de animal",
    CardType.BUILDING_JOKER: "comodín de edificio",
    CardType.DRAGON: "dragón",
    CardType.FAIRY: "hada",
}
_TYPE_CODE_ES = {t: name.replace(" de ", "-") for t, name in _TYPE_NAME_ES.items()}


def _plain(text: str) -> str:
    """Lower case without accents (``dragón`` and ``dragon`` read the same)."""
    return text.lower().translate(str.maketrans("áéíóúüäöß", "aeiouuaos"))


JOKER_TYPES = frozenset(
    {CardType.ANIMAL_JOKER, CardType.BUILDING_JOKER, CardType.DRAGON, CardType.FAIRY}
)


@dataclass(frozen=True, slots=True)
class CardFace:
    """What is printed on a card.

    ``colour`` is ``None`` for jokers. ``value`` is 1–3 for characters, else 0. ``kind`` names
    the animal or building (OQ-CARD-1 proposal: kind = colour, kept as data so that it can be
    corrected when the physical cards are checked); jokers and characters have kind ``""``.
    ``code`` is the short name players type: ``blue-2``, ``red-animal``, ``dragon``.
    """

    type: CardType
    colour: Colour | None = None
    value: int = 0
    kind: str = ""
    code: str = field(init=False, compare=False, repr=False, default="")

    def __post_init__(self) -> None:
        # computed once: codes are read in every legal-move listing
        if self.colour is None:
            code = self.type.value
        elif self.type is CardType.CHARACTER:
            code = f"{self.colour.value}-{self.value}"
        else:
            code = f"{self.colour.value}-{self.type.value}"
        object.__setattr__(self, "code", code)

    @property
    def is_joker(self) -> bool:
        """Jokers (animal, building, dragon, fairy) may go in any row and are never wrong-coloured."""
        return self.type in JOKER_TYPES

    def describe(self) -> str:
        """An English name for messages: ``blue character 2``, ``red animal``, ``dragon``."""
        if self.colour is None:
            return self.type.value.replace("-", " ")
        if self.type is CardType.CHARACTER:
            return f"{self.colour.value} character {self.value}"
        return f"{self.colour.value} {self.type.value}"

    def describe_es(self) -> str:
        """The Spanish name: ``personaje azul 2``, ``animal rojo``, ``comodín de animal``."""
        if self.colour is None:
            return _TYPE_NAME_ES[self.type]
        colour = _COLOUR_ES[self.colour]
        if self.type is CardType.CHARACTER:
            return f"personaje {colour} {self.value}"
        return f"{_TYPE_NAME_ES[self.type]} {colour}"

    @property
    def code_es(self) -> str:
        """The code Spanish players read and type: ``azul-2``, ``rojo-animal``, ``dragón``."""
        if self.colour is None:
            return _TYPE_CODE_ES[self.type]
        colour = _COLOUR_ES[self.colour]
        if self.type is CardType.CHARACTER:
            return f"{colour}-{self.value}"
        return f"{colour}-{_TYPE_CODE_ES[self.type]}"

    @staticmethod
    def parse(text: str) -> CardFace:
        """Read a card code (``blue-2``, ``city-2``, ``red-animal``, ``animal-joker``, ``dragon``).

        Raises:
            InvalidActionError: for an unknown card.
        """
        key = text.strip().lower()
        face = (
            FACE_BY_CODE.get(key)
            or _FACE_BY_CODE_ES.get(_plain(key))
            or TYPED_CODES.get(_plain(key))
        )
        if face is not None:
            return face
        head, sep, tail = key.partition("-")
        if sep and head in _COLOUR_NAMES:
            face = FACE_BY_CODE.get(f"{_COLOUR_NAMES[head].value}-{tail}")
            if face is not None:
                return face
        raise InvalidActionError.keyed("err.cards.bad_card", text=text)


def _build_faces() -> tuple[tuple[CardFace, int], ...]:
    """Every distinct face with its number of copies (OQ-CARD-1: characters 8×1, 5×2, 3×3)."""
    out: list[tuple[CardFace, int]] = []
    for colour in ROWS:
        for value, copies in ((1, 8), (2, 5), (3, 3)):
            out.append((CardFace(CardType.CHARACTER, colour, value), copies))
        out.append((CardFace(CardType.BUILDING, colour, kind=colour.value), 5))
        out.append((CardFace(CardType.ANIMAL, colour, kind=colour.value), 9))
    out.append((CardFace(CardType.DRAGON), 1))
    out.append((CardFace(CardType.FAIRY), 1))
    out.append((CardFace(CardType.ANIMAL_JOKER), 4))
    out.append((CardFace(CardType.BUILDING_JOKER), 4))
    return tuple(out)


FACE_COUNTS: tuple[tuple[CardFace, int], ...] = _build_faces()
#: Every distinct face, in a fixed order.
FACES: tuple[CardFace, ...] = tuple(f for f, _ in FACE_COUNTS)
FACE_BY_CODE: Mapping[str, CardFace] = MappingProxyType({f.code: f for f in FACES})
#: Spanish codes (accents optional) -> face
_FACE_BY_CODE_ES: Mapping[str, CardFace] = MappingProxyType({_plain(f.code_es): f for f in FACES})
#: the codes players of another language type (accents optional) -> face; a language's module
#: adds its own (:func:`add_language`)
TYPED_CODES: dict[str, CardFace] = {}


def add_language(lang: str, codes: Mapping[str, str], names: Mapping[str, str]) -> None:
    """Register a language's card codes and names (``{english code: its code}``, ``{english
    code: its name}``): the codes are read by :meth:`CardFace.parse`, both are catalogue
    texts (``cards.code.<code>``, ``cards.name.<code>``, ``facet.card.<code>``)."""
    for code, typed in codes.items():
        TYPED_CODES[_plain(typed)] = FACE_BY_CODE[code]
    messages.register_lang(lang, {f"cards.code.{c}": typed for c, typed in codes.items()})
    messages.register_lang(lang, {f"cards.name.{c}": name for c, name in names.items()})
    messages.register_lang(lang, {f"facet.card.{c}": name for c, name in names.items()})


def add_colour_names(names: Mapping[str, Colour]) -> None:
    """Row or colour names of another language that :meth:`Colour.parse` reads."""
    _COLOUR_NAMES.update(names)


# ``cards.code.<code>``: the code as each language types it; ``cards.name.<code>``: its name
messages.register({f"cards.code.{f.code}": (f.code, f.code_es) for f in FACES})
messages.register({f"cards.name.{f.code}": (f.describe(), f.describe_es()) for f in FACES})
messages.register({f"cards.colour.{c.value}": (c.value, _COLOUR_ES[c]) for c in Colour})
_FEATURE_ES = {"cloister": "claustro", "road": "camino", "field": "campo", "city": "ciudad"}
messages.register(
    {
        f"cards.rowname.{c.value}": (
            f"{c.value} ({c.feature})",
            f"{_COLOUR_ES[c]} ({_FEATURE_ES[c.feature]})",
        )
        for c in Colour
    }
)


def face_name(code: str) -> messages.Phrase:
    """A card's name as a :class:`~engine.core.messages.Phrase` (``blue character 2``)."""
    return messages.Phrase(f"cards.name.{code}")


def face_code(code: str) -> messages.Phrase:
    """A card's code as players of each language type it (``blue-2`` / ``azul-2``)."""
    return messages.Phrase(f"cards.code.{code}")


#: The 130 playing cards: ``DECK[card_id]`` is that card's face.
DECK: tuple[CardFace, ...] = tuple(f for f, n in FACE_COUNTS for _ in range(n))
DECK_SIZE = len(DECK)
#: The animal and building kinds (OQ-CARD-1: one per colour).
ANIMAL_KINDS: tuple[str, ...] = tuple(f.kind for f in FACES if f.type is CardType.ANIMAL)
BUILDING_KINDS: tuple[str, ...] = tuple(f.kind for f in FACES if f.type is CardType.BUILDING)


# ------------------------------------------------------------------------------- deal table
@dataclass(frozen=True, slots=True)
class DealRule:
    """Cards dealt to each player per round, and rounds, for one player count (§17.2)."""

    players: int
    cards: int
    rounds: int


DEAL: Mapping[int, DealRule] = MappingProxyType(
    {
        2: DealRule(2, 6, 10),
        3: DealRule(3, 5, 8),
        4: DealRule(4, 5, 6),
        5: DealRule(5, 4, 6),
    }
)
SETUP_CARDS = 10
MIN_PLAYERS, MAX_PLAYERS = 2, 5


# ------------------------------------------------------------------------------ animal table
@dataclass(frozen=True, slots=True)
class AnimalRow:
    """Points for holding ``cards`` animals of one kind after a reception; ``known`` is True
    when the value comes from the rulebook text, False when it is assumed."""

    cards: int
    points: int
    known: bool


#: ANIMAL TABLE (OQ-CARD-3). The printed table on the scoring card is an image nobody here
#: has found; the rulebook text gives only 2 cards → 6 and 5 cards → 14 (and a lone joker → 3,
#: see LONE_JOKER_POINTS). Every row with ``known=False`` is ASSUMED: a smooth fill through
#: the known values (3 points a card up to 2 cards, 8 and 11 on the way to 14 at 5 cards,
#: then +3 a card). To correct it when the card is found, edit the numbers here: scoring,
#: ``/cardgame rules`` and the tests read this one table.
ANIMAL_TABLE: tuple[AnimalRow, ...] = (
    AnimalRow(1, 3, False),
    AnimalRow(2, 6, True),
    AnimalRow(3, 8, False),
    AnimalRow(4, 11, False),
    AnimalRow(5, 14, True),
    AnimalRow(6, 17, False),
    AnimalRow(7, 20, False),
    AnimalRow(8, 23, False),
    AnimalRow(9, 26, False),
    AnimalRow(10, 29, False),
    AnimalRow(11, 32, False),
    AnimalRow(12, 35, False),
    AnimalRow(13, 38, False),
)
#: An animal joker received while its owner has no animal card in front of them (rulebook).
LONE_JOKER_POINTS = 3


def animal_points(cards: int) -> int:
    """Points for now holding ``cards`` animals of one kind (jokers included).

    >>> animal_points(2), animal_points(5)
    (6, 14)
    """
    if cards <= 0:
        return 0
    if cards > len(ANIMAL_TABLE):
        last = ANIMAL_TABLE[-1]
        prev = ANIMAL_TABLE[-2]
        return last.points + (cards - last.cards) * (last.points - prev.points)
    return ANIMAL_TABLE[cards - 1].points


# ---------------------------------------------------------------------------- building table
#: Points of one set of different buildings by its size (§17.5; 1 card is no set).
BUILDING_SET_POINTS: Mapping[int, int] = MappingProxyType({1: 0, 2: 5, 3: 15, 4: 30})
MAX_SET = 4
#: Points for a dragon or fairy, and for a wrong-coloured card cashed in.
WILD_JOKER_POINTS = 10
WRONG_ROW_POINTS = 10
