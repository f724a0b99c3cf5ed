"""Inns & Cathedrals: the large follower (the follower's meeple, a third bigger; it counts as
two), and the inns and cathedrals printed on the tiles (the symbols ``inn`` beside its road and
``cathedral`` in its city, drawn upright). Nothing lies on the board, so there is no board
layer."""

from __future__ import annotations

from types import MappingProxyType

from PIL import Image

from rendering import style as st
from rendering.figures import meeple
from rendering.layout import Symbol
from rendering.overlays import FigureArt, Overlay, Place, SymbolArt
from rendering.pen import Pen, rel
from rendering.style import SeatStyle

#: how much bigger than a follower the large follower is drawn (sprite side)
LARGE_SCALE = 1.32
#: sizes (share of a tile) of the buildings players must recognise at phone size
CATHEDRAL_SIZE = 0.36
INN_SIZE = 0.24
#: the inn's lit window
WINDOW = (238, 190, 40)


def draw_large(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The large follower: the follower's meeple, :data:`LARGE_SCALE` times its side."""
    return meeple(style, max(size + 2, round(size * LARGE_SCALE)), lying)


def paint_inn(pen: Pen, sym: Symbol) -> None:
    """An inn: a pale house with a blue roof and a lit window."""
    c, s = sym.at, sym.size
    pen.rect(
        rel(c, s, [(-0.4, -0.05)])[0],
        rel(c, s, [(0.4, 0.42)])[0],
        (250, 236, 200),
        st.DARK,
        0.008,
    )
    pen.poly(rel(c, s, [(-0.5, -0.02), (0.0, -0.42), (0.5, -0.02)]), (70, 90, 170), st.DARK, 0.008)
    pen.rect(rel(c, s, [(0.1, 0.1)])[0], rel(c, s, [(0.32, 0.3)])[0], WINDOW, st.DARK, 0.005)


def paint_cathedral(pen: Pen, sym: Symbol) -> None:
    """A cathedral: a grey nave with a tower and a blue rose window."""
    c, s = sym.at, sym.size
    pen.rect(
        rel(c, s, [(-0.4, -0.1)])[0],
        rel(c, s, [(0.4, 0.42)])[0],
        (200, 200, 210),
        st.DARK,
        0.01,
    )
    pen.poly(
        rel(c, s, [(-0.45, -0.08), (0.0, -0.32), (0.45, -0.08)]),
        (110, 110, 140),
        st.DARK,
        0.01,
    )
    pen.rect(
        rel(c, s, [(-0.1, -0.5)])[0],
        rel(c, s, [(0.1, -0.1)])[0],
        (200, 200, 210),
        st.DARK,
        0.01,
    )
    pen.poly(
        rel(c, s, [(-0.13, -0.48), (0.0, -0.7), (0.13, -0.48)]),
        (110, 110, 140),
        st.DARK,
        0.008,
    )
    pen.disc(rel(c, s, [(0.0, 0.12)])[0], s * 0.12, (120, 160, 230), st.DARK, 0.006)


class InnsCathedralsOverlay(Overlay):
    id = "inns_cathedrals"
    figures = MappingProxyType({"large": FigureArt(draw_large, follower=True, order=10)})
    symbols = MappingProxyType(
        {
            "inn": SymbolArt(paint_inn, Place.FEATURE, INN_SIZE, upright=True),
            "cathedral": SymbolArt(paint_cathedral, Place.FEATURE, CATHEDRAL_SIZE, upright=True),
        }
    )


OVERLAY = InnsCathedralsOverlay()
