"""Ferries (not playable yet): the lake printed in the centre of its tiles (the symbol
``lake``, on the grass, turning with the tile), the roads that end at the ``lake`` running to
it, each with a small dock where it meets the water."""

from __future__ import annotations

from types import MappingProxyType

from rendering import style as st
from rendering.layout import Symbol
from rendering.overlays import Overlay, Place, RoadEnd, SymbolArt
from rendering.pen import Pen

#: the ripples on the water, the timber of a dock
RIPPLE = (200, 230, 250)
DOCK = (120, 84, 50)


def paint_lake(pen: Pen, sym: Symbol) -> None:
    """A round lake with a dark shore and two ripples."""
    c, s = sym.at, sym.size
    pen.disc(c, s / 2 + 0.015, st.WATER_DARK)
    pen.disc(c, s / 2, st.WATER)
    for dy in (-0.06, 0.04):
        pen.line(
            [
                (c[0] - 0.07, c[1] + dy),
                (c[0] - 0.02, c[1] + dy - 0.02),
                (c[0] + 0.03, c[1] + dy),
                (c[0] + 0.08, c[1] + dy - 0.02),
            ],
            RIPPLE,
            0.01,
            False,
        )


def paint_dock(pen: Pen, sym: Symbol) -> None:
    """A dock: a round timber landing where a road meets the lake."""
    pen.disc(sym.at, sym.size * 0.55, DOCK, st.DARK, 0.008)


class FerriesOverlay(Overlay):
    id = "ferries"
    symbols = MappingProxyType(
        {
            "lake": SymbolArt(
                paint_lake,
                Place.CENTRE,
                0.36,
                ground=True,
                ends=frozenset({"lake"}),
                road_end=RoadEnd(0.62, 0.1, paint_dock),
            )
        }
    )
    words = frozenset({"ferry", "dock"})


OVERLAY = FerriesOverlay()
