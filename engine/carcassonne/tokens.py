"""Tokens lying on tiles (gold bars): a value an expansion keeps in its model, and how they
follow scoring.

Tokens on tiles need no store in the core state: the expansion's model holds a
:class:`CellTokens` (frozen, so clones share it; replace it to change it), its ``redact`` leaves
it in every view (``view.ext[<id>]``), and its overlay draws it. They follow scoring through
``Expansion.on_completed``, called for every road, city or cloister completed, by the tile just
placed or by a re-routing (``featurescore.score_features``), before it scores and while its
figures still stand on it: :func:`feature_area` says which tiles it covers, the feature's
``winners()`` who shares them, :func:`share_out` how.

>>> from engine.carcassonne.geometry import Position
>>> t = CellTokens().add(Position(0, 0), 2).add(Position(1, 0))
>>> t.at(Position(0, 0)), t.total
(2, 3)
>>> n, rest = t.take({Position(0, 0), Position(5, 5)})
>>> n, rest.total
(2, 1)
>>> share_out(3, (Seat(1), Seat(0)))
{1: 2, 0: 1}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine.carcassonne.board import RING, Board, Feature
from engine.carcassonne.geometry import Position
from engine.carcassonne.tiles import FeatureKind
from engine.core.seats import Seat


@dataclass(frozen=True, slots=True)
class CellTokens:
    """How many tokens lie on each cell, as sorted ``(cell, count)`` pairs (no zeros)."""

    cells: tuple[tuple[Position, int], ...] = ()

    def at(self, pos: Position) -> int:
        for p, n in self.cells:
            if p == pos:
                return n
        return 0

    @property
    def total(self) -> int:
        return sum(n for _, n in self.cells)

    def __iter__(self) -> Iterator[tuple[Position, int]]:
        return iter(self.cells)

    def add(self, pos: Position, n: int = 1) -> CellTokens:
        """These tokens with ``n`` more on ``pos``."""
        counts = dict(self.cells)
        counts[pos] = counts.get(pos, 0) + n
        return CellTokens(tuple(sorted((p, c) for p, c in counts.items() if c)))

    def take(self, area: Iterable[Position]) -> tuple[int, CellTokens]:
        """Take every token lying in ``area``: how many, and what stays."""
        where = set(area)
        taken = sum(n for p, n in self.cells if p in where)
        return taken, CellTokens(tuple((p, n) for p, n in self.cells if p not in where))


def feature_area(board: Board, feature: Feature) -> frozenset[Position]:
    """The tiles a completed feature covers: its own tiles, and for a cloister its tile and
    the eight around it (RULES.md §9.3)."""
    if feature.kind is not FeatureKind.CLOISTER:
        return feature.tiles
    ((x, y),) = feature.tiles
    around = (Position(x + dx, y + dy) for dx, dy in RING)
    return feature.tiles | frozenset(p for p in around if p in board.cells)


def share_out(n: int, seats: tuple[Seat, ...]) -> dict[Seat, int]:
    """Hand ``n`` tokens out one at a time to ``seats`` in that order, round and round (the
    first seat is the active one, or the first after it: RULES.md §9.3, OQ-GOLD-2)."""
    if not seats:
        return {}
    out = {s: 0 for s in seats}
    for i in range(n):
        out[seats[i % len(seats)]] += 1
    return {s: c for s, c in out.items() if c}
