"""Crop Circles (not playable yet): the crop circle printed on its tiles (the symbol
``crop_circle``: a shield, a club or a pitchfork), a round of trampled grain on the free grass
nearest the centre; the roads that end at the ``crop circle`` run to it."""

from __future__ import annotations

from types import MappingProxyType

from rendering.geometry import Pt
from rendering.layout import Symbol
from rendering.overlays import Overlay, Place, SymbolArt
from rendering.pen import Pen, rel

#: the glyph trampled into the grain
INK = (88, 70, 20)


def _glyph(pen: Pen, c: Pt, s: float, kind: str) -> None:
    if kind == "shield":
        pts = rel(c, s, [(-0.22, -0.25), (0.22, -0.25), (0.22, 0.02), (0.0, 0.27), (-0.22, 0.02)])
        pen.poly(pts, INK)
    elif kind == "club":
        pen.line(rel(c, s, [(-0.05, 0.28), (0.08, -0.1)]), INK, s * 0.12, True)
        pen.disc(rel(c, s, [(0.1, -0.14)])[0], s * 0.13, INK)
    else:  # pitchfork
        pen.line(rel(c, s, [(0.0, 0.3), (0.0, -0.1)]), INK, s * 0.07, False)
        pen.line(rel(c, s, [(-0.16, -0.1), (0.16, -0.1)]), INK, s * 0.07, False)
        for dx in (-0.16, 0.0, 0.16):
            pen.line(rel(c, s, [(dx, -0.1), (dx, -0.3)]), INK, s * 0.06, False)


def paint_circle(pen: Pen, sym: Symbol) -> None:
    """Rings of pale and trampled grain round the circle's glyph (``sym.arg``)."""
    c, r = sym.at, sym.size / 2
    pen.disc(c, r, (200, 214, 120), (150, 160, 80), 0.01)
    pen.disc(c, r * 0.72, (150, 186, 90))
    pen.disc(c, r * 0.62, (206, 220, 130))
    _glyph(pen, c, r * 1.1, sym.arg)


class CropCirclesOverlay(Overlay):
    id = "crop_circles"
    symbols = MappingProxyType(
        {
            "crop_circle": SymbolArt(
                paint_circle, Place.FREE, 0.34, ground=True, ends=frozenset({"crop circle"})
            )
        }
    )


OVERLAY = CropCirclesOverlay()
