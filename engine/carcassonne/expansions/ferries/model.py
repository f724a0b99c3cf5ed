"""Ferries: option keys, the model, the events and the words (English and Spanish, with the
rulebook's terms: *transbordador*, *pieza de lago*, *final de camino*).

A ferry is named by its lake tile and the two road ends it joins, each end by the side of the
board it leaves the lake towards (``NS``: the north and south ends; sides in the order N, E,
S, W). The model (``state.ext["ferries"]``) is public: every ferry on the board, the ferries
moved this turn (each moves at most once, RULES.md §8.3.4 and OQ-FER-4), and the segments of
the roads a move re-routed, scored with the placement (OQ-FER-3). It is replaced, never changed
in place (clones share it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine.carcassonne.events import Event
from engine.carcassonne.geometry import Position
from engine.core import messages
from engine.core.decisions import Prompt
from engine.core.seats import Seat

ID = "ferries"
#: the tile symbol: the lake; the roads that end at it say ``ends = "lake"``
SYMBOL = "lake"
#: the steps: the new lake's ferry (a decision), moving ferries (optional decisions), scoring
#: what a move completed, forgetting the turn's moves
PLACE_STEP = "ferries.place"
MOVE_STEP = "ferries.move"
SCORE_STEP = "ferries.score"
TURN_END_STEP = "ferries.turn_end"

#: how long a moved ferry stays put (OQ-FER-4): ``turn`` — the whole turn, the builder's second
#: tile too (proposal, default); ``placement`` — each tile placement may move it again, as
#: JCloisterZone plays
MOVES = "ferries.moves"
MOVES_CHOICES = ("turn", "placement")

SIDES = "NESW"


def pair_name(mask: int) -> str:
    """The name of two road ends by their board sides (a 4-bit mask, N = 1): ``NS``, ``EW``.

    >>> pair_name(0b0101), pair_name(0b1010), pair_name(0b1001)
    ('NS', 'EW', 'NW')
    """
    return "".join(SIDES[i] for i in range(4) if mask >> i & 1)


def pair_mask(text: str) -> int | None:
    """The mask of a pair's name (any order, any case), or ``None`` when it names no two sides.

    >>> pair_mask("sn"), pair_mask("WE"), pair_mask("N"), pair_mask("NX")
    (5, 10, None, None)
    """
    t = text.strip().upper()
    if len(t) != 2 or t[0] == t[1] or not set(t) <= set(SIDES):
        return None
    return 1 << SIDES.index(t[0]) | 1 << SIDES.index(t[1])  # two distinct sides: no genexpr


class Ferry(NamedTuple):
    """A ferry on the lake at ``pos`` joining the tile's road features ``ends`` (indices)."""

    pos: Position
    ends: tuple[int, int]


@dataclass(frozen=True, slots=True)
class FerriesModel:
    """Every ferry (by tile, reading order), the lakes whose ferry moved this turn, and the
    segments of the roads re-routed by this placement's moves (scored in its scoring step)."""

    ferries: tuple[Ferry, ...] = ()
    moved: frozenset[Position] = frozenset()
    rerouted: tuple[int, ...] = ()
    #: the lakes holding a ferry (kept with ``ferries``: the turn's quick test reads it)
    lakes: frozenset[Position] = frozenset()

    def at(self, pos: Position) -> Ferry | None:
        for f in self.ferries:
            if f.pos == pos:
                return f
        return None

    def put(self, ferry: Ferry) -> FerriesModel:
        """This model with ``ferry`` placed or moved (one per lake)."""
        rest = [f for f in self.ferries if f.pos != ferry.pos] + [ferry]
        ferries = tuple(sorted(rest, key=lambda f: (f.pos.y, f.pos.x)))
        return FerriesModel(ferries, self.moved, self.rerouted, self.lakes | {ferry.pos})


def model_of(ext: dict[str, object]) -> FerriesModel:
    m = ext[ID]
    assert isinstance(m, FerriesModel)
    return m


_SIDE_WORDS = {
    "N": ("north", "norte"),
    "E": ("east", "este"),
    "S": ("south", "sur"),
    "W": ("west", "oeste"),
}


def ends_words(pair: str) -> messages.Phrase:
    """Two road ends in words, in the reader's language: ``NS`` -> "north and south"."""
    return messages.Phrase(f"ferries.ends.{pair}")


@dataclass(frozen=True, slots=True)
class FerryPlaced(Event):
    """A seat put the new lake's ferry between the road ends ``pair`` (board sides)."""

    seat: Seat
    pos: Position
    pair: str

    def prompt(self) -> Prompt:
        return Prompt.of(
            "ferries.placed", seat=self.seat, cell=self.pos.notation(), pair=ends_words(self.pair)
        )


@dataclass(frozen=True, slots=True)
class FerryMoved(Event):
    """A seat moved the ferry of the lake at ``pos`` from the ends ``before`` to ``after``."""

    seat: Seat
    pos: Position
    before: str
    after: str

    def prompt(self) -> Prompt:
        return Prompt.of(
            "ferries.moved",
            seat=self.seat,
            cell=self.pos.notation(),
            before=ends_words(self.before),
            after=ends_words(self.after),
        )


messages.register(
    {
        "exp.ferries": ("Ferries", "Transbordadores"),
        "symbol.lake": ("lake", "lago"),
        f"opt.{MOVES}": ("A moved ferry stays put", "Un transbordador movido no se mueve más"),
        f"help.{MOVES}": (
            "for the whole turn (rulebook, builder's second tile included) or only for that "
            "tile placement (JCloisterZone)",
            "durante todo el turno (reglamento, también la segunda pieza del constructor) o "
            "solo en esa colocación de pieza (JCloisterZone)",
        ),
        f"choice.{MOVES}.turn": ("for the whole turn", "durante todo el turno"),
        f"choice.{MOVES}.placement": ("for that placement", "durante esa colocación"),
        # the decisions
        PLACE_STEP: (
            "Put the ferry on the lake at {cell}: choose the two road ends it joins.",
            "Coloca el transbordador en el lago de {cell}: elige los dos finales de camino "
            "que une.",
        ),
        f"open.{PLACE_STEP}": ("Place the ferry", "Coloca el transbordador"),
        MOVE_STEP: (
            "You may move a ferry on a road you extended: choose its lake and the two road "
            "ends it joins now, or pass.",
            "Puedes mover un transbordador de un camino que has ampliado: elige su lago y los "
            "dos finales de camino que une ahora, o pasa.",
        ),
        f"open.{MOVE_STEP}": ("Move a ferry", "Mueve un transbordador"),
        **{
            f"ferries.ends.{a}{b}": (
                f"{_SIDE_WORDS[a][0]} and {_SIDE_WORDS[b][0]}",
                f"{_SIDE_WORDS[a][1]} y {_SIDE_WORDS[b][1]}",
            )
            for a, b in ("NE", "NS", "NW", "ES", "EW", "SW")
        },
        # the pickers' facets (the console table names them)
        "facet.pair": ("pair of road ends", "par de finales de camino"),
        "facet.ferry": ("ferry move", "movimiento de transbordador"),
        # events
        "ferries.placed": (
            "{seat} puts the ferry on the lake at {cell}, joining the road ends {pair}.",
            "{seat} coloca el transbordador en el lago de {cell}, uniendo los finales de "
            "camino {pair}.",
        ),
        "ferries.moved": (
            "{seat} moves the ferry at {cell}: it joined the road ends {before}, now {after}.",
            "{seat} mueve el transbordador de {cell}: unía los finales de camino {before}, "
            "ahora {after}.",
        ),
        # refusals (one line each)
        "ferries.err.bad_pair": (
            "'{pair}' is not two road ends of the lake at {cell}; choose one of {names}.",
            "'{pair}' no son dos finales de camino del lago de {cell}; elige uno de {names}.",
        ),
        "ferries.err.not_movable": (
            "'{value}' is no ferry move you may make now; choose one of {names}, or pass.",
            "'{value}' no es un movimiento de transbordador posible ahora; elige uno de "
            "{names}, o pasa.",
        ),
        "ferries.err.place_first": (
            "Put the ferry on the new lake first.",
            "Primero coloca el transbordador en el nuevo lago.",
        ),
        "ferries.err.move_first": (
            "Move a ferry or pass first.",
            "Primero mueve un transbordador o pasa.",
        ),
    }
)
