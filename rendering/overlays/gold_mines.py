"""Gold Mines (not playable yet): the gold printed on its tiles (the symbol ``gold``), a small
gold bar in a corner, drawn upright."""

from __future__ import annotations

from types import MappingProxyType

from rendering.layout import Symbol
from rendering.overlays import Overlay, Place, SymbolArt
from rendering.pen import Pen, rel

#: a gold bar, its rim and its shine
GOLD = (238, 190, 40)
GOLD_RIM = (130, 90, 10)
SHINE = (255, 240, 170)


def paint_gold(pen: Pen, sym: Symbol) -> None:
    """A gold bar seen from the side, a shine along its top."""
    c, s = sym.at, sym.size
    pen.poly(
        rel(c, s, [(-0.45, 0.25), (0.45, 0.25), (0.3, -0.15), (-0.3, -0.15)]),
        GOLD,
        GOLD_RIM,
        0.01,
    )
    pen.line(rel(c, s, [(-0.2, -0.05), (0.2, -0.05)]), SHINE, 0.01, False)


class GoldMinesOverlay(Overlay):
    id = "gold_mines"
    symbols = MappingProxyType({"gold": SymbolArt(paint_gold, Place.CORNER, 0.2, upright=True)})
    words = frozenset({"gold_bar", "gold_mine"})


OVERLAY = GoldMinesOverlay()
