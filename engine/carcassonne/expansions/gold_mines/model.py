"""Gold Mines: the model, the events, the final table and the words (English and Spanish, with
the rulebook's terms: *lingote de oro*, *repartir*).

The model (``state.ext["gold_mines"]``) is public: the bars lying on tiles, the bars each seat
holds, and the bars being shared out this turn (the tiles of the completed features with a
majority, and who is involved). It is replaced, never changed in place (clones share it).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.events import Event
from engine.carcassonne.geometry import Position
from engine.carcassonne.tokens import CellTokens
from engine.core import messages
from engine.core.decisions import Prompt
from engine.core.seats import Seat

ID = "gold_mines"
#: the tile symbol
SYMBOL = "gold"
#: the step placing the second bar (a decision) and the one sharing the bars out
BAR_STEP = "gold.bar"
SHARE_STEP = "gold.share"
#: the score category of the final table's Gold column
CATEGORY = "gold"


def per_bar(bars: int) -> int:
    """Points per bar for a seat holding ``bars`` (RULES.md §9.5: 1–3 → 1, 4–6 → 2, 7–9 → 3,
    10 or more → 4).

    >>> [per_bar(n) for n in (0, 1, 3, 4, 6, 7, 9, 10, 16)]
    [0, 1, 1, 2, 2, 3, 3, 4, 4]
    """
    if bars <= 0:
        return 0
    return min(4, (bars + 2) // 3)


@dataclass(frozen=True, slots=True)
class GoldModel:
    """The bars on tiles, the bars each seat holds, and this turn's pool: the tiles of the
    completed features that have a majority, and the seats sharing it."""

    bars: CellTokens = CellTokens()
    held: tuple[int, ...] = ()
    pool: frozenset[Position] = frozenset()
    involved: frozenset[Seat] = frozenset()

    def holding(self, seat: Seat) -> int:
        return self.held[seat] if 0 <= seat < len(self.held) else 0


def model_of(ext: dict[str, object]) -> GoldModel:
    m = ext[ID]
    assert isinstance(m, GoldModel)
    return m


@dataclass(frozen=True, slots=True)
class GoldPlaced(Event):
    """A seat put a gold bar on ``pos`` (the gold tile it placed, or a tile next to it)."""

    seat: Seat
    pos: Position

    def prompt(self) -> Prompt:
        return Prompt.of("gold.placed", seat=self.seat, cell=self.pos.notation())


@dataclass(frozen=True, slots=True)
class GoldTaken(Event):
    """A seat took ``n`` bars of completed features (one event per seat, in the order they
    took their first bar)."""

    seat: Seat
    n: int

    def prompt(self) -> Prompt:
        return Prompt.of("gold.took", seat=self.seat, n=self.n)


@dataclass(frozen=True, slots=True)
class GoldRemoved(Event):
    """At the end, the bars still on tiles are removed (nobody gets them)."""

    n: int

    def prompt(self) -> Prompt:
        return Prompt.of("gold.removed", n=self.n)


messages.register(
    {
        "exp.gold_mines": ("Gold Mines", "Minas de oro"),
        "symbol.gold": ("gold", "oro"),
        "score.gold": ("gold", "oro"),
        "gold.held": ("{n} {n:gold bar|gold bars}", "{n} {n:lingote de oro|lingotes de oro}"),
        "part.gold.one": (
            "1 gold bar × {k}",
            "1 lingote de oro × {k}",
        ),
        "part.gold.many": (
            "{n} gold bars × {k}",
            "{n} lingotes de oro × {k}",
        ),
        # the decision
        BAR_STEP: (
            "Put the second gold bar on a tile next to {cell} (diagonals too).",
            "Coloca el segundo lingote de oro en una pieza adyacente a {cell} (también en "
            "diagonal).",
        ),
        f"open.{BAR_STEP}": ("Place the gold bar", "Coloca el lingote de oro"),
        # events
        "gold.placed": (
            "{seat} puts a gold bar on {cell}.",
            "{seat} coloca un lingote de oro en {cell}.",
        ),
        "gold.took": (
            "{seat} takes {n} {n:gold bar|gold bars}.",
            "{seat} toma {n} {n:lingote de oro|lingotes de oro}.",
        ),
        "gold.removed": (
            "{n} {n:gold bar|gold bars} left on the tiles {n:is|are} removed.",
            "Se retiran {n} {n:lingote de oro|lingotes de oro} que quedaban sobre las piezas.",
        ),
        # refusals (one line each)
        "gold.err.not_adjacent": (
            "'{cell}' is not a tile next to the gold tile; choose one of {names}.",
            "'{cell}' no es una pieza adyacente a la pieza de oro; elige una de {names}.",
        ),
        "gold.err.place_first": (
            "Put the second gold bar first.",
            "Primero coloca el segundo lingote de oro.",
        ),
    }
)
