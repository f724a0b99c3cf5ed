"""Robbers (not playable yet): the robber printed on its tiles (the symbol ``robber``), a small
masked face in a corner, drawn upright."""

from __future__ import annotations

from types import MappingProxyType

from rendering import style as st
from rendering.layout import Symbol
from rendering.overlays import Overlay, Place, SymbolArt
from rendering.pen import Pen, rel


def paint_robber(pen: Pen, sym: Symbol) -> None:
    """A dark round face with a white mask and two eyes."""
    c, s = sym.at, sym.size
    pen.disc(c, s * 0.42, (40, 40, 40), (255, 255, 255), 0.006)
    pen.rect(rel(c, s, [(-0.36, -0.12)])[0], rel(c, s, [(0.36, 0.04)])[0], (230, 230, 230))
    pen.disc(rel(c, s, [(-0.15, -0.04)])[0], s * 0.06, st.DARK)
    pen.disc(rel(c, s, [(0.15, -0.04)])[0], s * 0.06, st.DARK)


class RobbersOverlay(Overlay):
    id = "robbers"
    symbols = MappingProxyType({"robber": SymbolArt(paint_robber, Place.CORNER, 0.2, upright=True)})


OVERLAY = RobbersOverlay()
