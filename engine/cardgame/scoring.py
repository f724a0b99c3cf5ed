"""Itemised card-game scoring: every point carries a reason players can read (§17.4, §17.5).

The arithmetic lives here as small pure functions; :mod:`engine.cardgame.tally` decides when
they apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from engine.cardgame.cards import BUILDING_SET_POINTS, MAX_SET, Colour
from engine.core import messages
from engine.core.messages import Phrase
from engine.core.seats import Seat

#: Score item categories.
CHARACTERS = "characters"
ANIMALS = "animals"
LONE_JOKER = "animal-joker"
WILD_JOKER = "wild-joker"
WRONG_ROW = "wrong-row"
BUILDINGS = "buildings"

messages.register(
    {
        f"cards.score.{CHARACTERS}": ("characters", "personajes"),
        f"cards.score.{ANIMALS}": ("animals", "animales"),
        f"cards.score.{LONE_JOKER}": ("animal joker", "comodín de animal"),
        f"cards.score.{WILD_JOKER}": ("wild joker", "dragón y hada"),
        f"cards.score.{WRONG_ROW}": ("wrong row", "fila equivocada"),
        f"cards.score.{BUILDINGS}": ("buildings", "edificios"),
        "cards.part.sum": ("{expr} = {total}", "{expr} = {total}"),
        "cards.part.count": ("× {n} {n:card|cards}", "× {n} {n:carta|cartas}"),
        "cards.part.wrong_row": (
            "{card} in the {row} row {points}",
            "{card} en la fila de color {row}: {points}",
        ),
        "cards.part.wild": ("{card} {points}", "{card}: {points}"),
        # the animal table's values the rulebook does not print are said once, in the rules
        # text (engine/cardgame/text.py) and docs/decisions.md, not in every score line
        "cards.part.animals": (
            "now {total} {kind} {total:animal|animals} → {points}",
            "ahora {total} {total:animal|animales} de color {kind} → {points}",
        ),
        "cards.part.lone_joker": (
            "animal joker with no animal in front {points}",
            "comodín de animal sin animales delante: {points}",
        ),
        "cards.part.set": (
            "set of {size} ({names}) {points}",
            "serie de {size} ({names}): {points}",
        ),
        "cards.joker": ("joker", "comodín"),
    }
)
_COLOURS = frozenset(c.value for c in Colour)


def kind_word(kind: str) -> str:
    """An animal or building kind in the reader's words (kinds are colours, OQ-CARD-1)."""
    return Phrase(f"cards.colour.{kind}") if kind in _COLOURS else kind


@dataclass(frozen=True, slots=True)
class CardScoreItem:
    """Why points were given.

    ``category`` is one of ``characters``, ``animals``, ``animal-joker`` (a lone joker),
    ``wild-joker`` (dragon or fairy), ``wrong-row`` (a face-down card in the wrong row cashed
    for 10) or ``buildings`` (final scoring). ``parts`` spells the arithmetic, ``cards`` lists the
    card codes involved, ``round`` is the round scored (0 for the final scoring).
    """

    category: str
    points: int
    parts: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    round: int = 0
    final: bool = False

    def describe(self) -> str:
        return self.text("en")

    def text(self, lang: str = "en") -> str:
        """``characters: 1 + 2 = 3; × 2 cards = 6`` in ``lang`` (parts are Phrases)."""
        detail = "; ".join(str(messages.localize(p, lang)) for p in self.parts)
        key = f"cards.score.{self.category}"
        head = messages.text(key, lang) if messages.has(key) else self.category.replace("-", " ")
        return f"{head}: {detail} = {self.points}" if detail else f"{head}: {self.points}"


@dataclass(frozen=True, slots=True)
class Award:
    """Points given to one seat for one :class:`CardScoreItem`."""

    seat: Seat
    points: int
    item: CardScoreItem


def character_points(values: Sequence[int]) -> int:
    """(sum of the values) × (number of character cards), §17.4.

    >>> character_points([3, 1, 1])
    15
    """
    return sum(values) * len(values)


@dataclass(frozen=True, slots=True)
class BuildingSet:
    """One group of different buildings; ``kinds`` are the real cards, ``jokers`` fill in."""

    kinds: tuple[str, ...]
    jokers: int

    @property
    def size(self) -> int:
        return len(self.kinds) + self.jokers

    @property
    def points(self) -> int:
        return BUILDING_SET_POINTS.get(self.size, 0)

    def describe(self) -> str:
        return self.phrase()[len("set of ") :]

    def phrase(self) -> Phrase:
        """``set of 3 (blue, red, joker) 10`` as a Phrase."""
        names = tuple(kind_word(k) for k in self.kinds) + (Phrase("cards.joker"),) * self.jokers
        return Phrase("cards.part.set", size=self.size, names=names, points=self.points)


def best_building_sets(kinds: Sequence[str], jokers: int) -> tuple[int, tuple[BuildingSet, ...]]:
    """The grouping of building cards into sets of 2–4 *different* buildings that scores the
    most (OQ-CARD-4: the host finds it; jokers stand in for any building).

    ``kinds`` lists one entry per building card. Returns the points and the sets, best first;
    cards left over appear as sets of 1 (0 points).

    >>> best_building_sets(["a", "a", "b", "b", "c", "c", "d", "d", "a", "b", "a"], 0)[0]
    65
    """
    names = sorted(set(kinds))
    counts = tuple(sum(1 for k in kinds if k == n) for n in names)
    points, plan = _best(counts, jokers)
    sets: list[BuildingSet] = []
    for members, used in plan:
        sets.append(BuildingSet(tuple(names[i] for i in members), used))
    sets.sort(key=lambda s: (-s.points, -s.size, s.kinds))
    return points, tuple(sets)


_Plan = tuple[tuple[tuple[int, ...], int], ...]


@cache
def _best(counts: tuple[int, ...], jokers: int) -> tuple[int, _Plan]:
    """Exhaustive search over the next set to form; memoised on what is left."""
    present = tuple(i for i, c in enumerate(counts) if c > 0)
    if not present and jokers == 0:
        return 0, ()
    best_points = -1
    best_plan: _Plan = ()
    # Every set either holds the first remaining kind, or is made only of jokers (formed once
    # no real card is left); fixing the first kind loses no grouping and keeps the search small.
    options: list[tuple[int, ...]] = [()]
    if present:
        first, others = present[0], present[1:]
        options = [
            (first, *chosen)
            for extra in range(min(MAX_SET, len(others) + 1))
            for chosen in combinations(others, extra)
        ]
    for members in options:
        for used in range(min(jokers, MAX_SET - len(members)) + 1):
            if not members and used == 0:
                continue
            left = list(counts)
            for i in members:
                left[i] -= 1
            sub_points, sub_plan = _best(tuple(left), jokers - used)
            points = BUILDING_SET_POINTS.get(len(members) + used, 0) + sub_points
            if points > best_points:
                best_points = points
                best_plan = ((members, used), *sub_plan)
    return best_points, best_plan
