"""Flying Machines (not playable yet): the flier printed on its tiles (the symbol ``flier``), an
arrow in a corner pointing the way the flying machine flies; it turns with the tile."""

from __future__ import annotations

import math
from types import MappingProxyType

from rendering import style as st
from rendering.layout import Symbol
from rendering.overlays import Overlay, Place, SymbolArt
from rendering.pen import Pen

#: the flier's headings (its values in the tile file) as unit steps, y south
HEADINGS = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}


def paint_flier(pen: Pen, sym: Symbol) -> None:
    """A white arrow with a dark rim pointing the flier's heading (``sym.arg``; north if none)."""
    c, s = sym.at, sym.size
    dx, dy = HEADINGS.get(sym.arg, (0, -1))
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    px, py = -uy, ux
    tip = (c[0] + ux * s * 0.6, c[1] + uy * s * 0.6)
    tail = (c[0] - ux * s * 0.5, c[1] - uy * s * 0.5)
    head_l = (tip[0] - ux * s * 0.45 + px * s * 0.35, tip[1] - uy * s * 0.45 + py * s * 0.35)
    head_r = (tip[0] - ux * s * 0.45 - px * s * 0.35, tip[1] - uy * s * 0.45 - py * s * 0.35)
    pen.line([tail, tip], st.DARK, 0.05, True)
    pen.poly([tip, head_l, head_r], st.DARK)
    pen.line([tail, tip], (255, 255, 255), 0.025, True)
    inner = (tip[0] - ux * 0.02, tip[1] - uy * 0.02)
    pen.poly(
        [
            inner,
            (head_l[0] + ux * 0.01, head_l[1] + uy * 0.01),
            (head_r[0] + ux * 0.01, head_r[1] + uy * 0.01),
        ],
        (255, 255, 255),
    )


class FlyingMachinesOverlay(Overlay):
    id = "flying_machines"
    symbols = MappingProxyType({"flier": SymbolArt(paint_flier, Place.CORNER, 0.26)})
    words = frozenset({"flying_machine"})


OVERLAY = FlyingMachinesOverlay()
