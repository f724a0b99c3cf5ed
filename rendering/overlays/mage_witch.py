"""Mage & Witch (not playable yet): the magic portal printed on its tiles (the symbol ``mage``),
a small purple wizard's hat with a golden star in a corner, drawn upright."""

from __future__ import annotations

from types import MappingProxyType

from rendering import style as st
from rendering.layout import Symbol
from rendering.overlays import Overlay, Place, SymbolArt
from rendering.pen import Pen, rel

#: the hat, its brim and its star
HAT = (110, 50, 170)
BRIM = (80, 30, 130)
STAR = (238, 190, 40)


def paint_mage(pen: Pen, sym: Symbol) -> None:
    """A pointed purple hat with a golden star and a brim."""
    c, s = sym.at, sym.size
    pen.poly(rel(c, s, [(-0.4, 0.35), (0.4, 0.35), (0.05, -0.5)]), HAT, st.DARK, 0.008)
    pen.disc(rel(c, s, [(0.0, 0.05)])[0], s * 0.09, STAR)
    pen.line(rel(c, s, [(-0.5, 0.35), (0.5, 0.35)]), BRIM, 0.02, True)


class MageWitchOverlay(Overlay):
    id = "mage_witch"
    symbols = MappingProxyType({"mage": SymbolArt(paint_mage, Place.CORNER, 0.2, upright=True)})
    words = frozenset({"witch"})


OVERLAY = MageWitchOverlay()
