"""Ferries: the lake printed in the centre of its tiles (the symbol ``lake``, on the grass,
turning with the tile), the roads that end at the ``lake`` running to it, each with a small dock
where it meets the water, and the ferries from the public model ``view.ext["ferries"]``:

* **a ferry**: a timber route across the water between the two docks it joins (straight
  through the middle for opposite ends, bent for ends side by side), as wide as a road so the
  joined roads read as one, and a small boat on it; drawn under the figures so a follower on a
  lake road end stays in sight. Both read at phone width (400 px).

The decisions' targets are the roads a ferry would lay across the lake (``road:ES``: the
east and south ends); :meth:`FerriesOverlay.anchor` puts each one's number on the lake, between
its two ends (on the route, off the middle, for opposite ends), and the core draws it.
"""

from __future__ import annotations

import math
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from PIL import Image

from engine.carcassonne.tiles import tile
from engine.carcassonne.view import PublicView, TileView
from rendering import style as st
from rendering.figures import SS
from rendering.frame import Frame
from rendering.layout import Symbol
from rendering.overlays import Overlay, Place, Point, RoadEnd, SymbolArt
from rendering.pen import Pen

#: the expansion's id (the key of its model in ``view.ext``)
ID = "ferries"
#: the tile symbol of a lake
ID_SYMBOL = "lake"
#: the ripples on the water, the timber of a dock
RIPPLE = (200, 230, 250)
DOCK = (120, 84, 50)
#: a ferry's route (a timber guide rope) and its boat
ROUTE = (92, 58, 28)
ROUTE_LIGHT = (196, 150, 92)
HULL = (150, 96, 44)
DECK = (222, 178, 112)
#: the lake's size on the tile (its diameter) and where a dock stands from the centre
LAKE = 0.36
DOCK_R = LAKE / 2 + 0.03
#: unit steps towards each side, N E S W
DIRS = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))


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


def route_points(a: int, b: int, n: int = 12) -> list[tuple[float, float]]:
    """The route between the docks of sides ``a`` and ``b`` (0 = N … 3 = W), in unit tile
    coordinates: a straight line through the centre, or an arc bent towards it."""
    (ax, ay), (bx, by) = DIRS[a], DIRS[b]
    p0 = (0.5 + ax * DOCK_R, 0.5 + ay * DOCK_R)
    p2 = (0.5 + bx * DOCK_R, 0.5 + by * DOCK_R)
    p1 = (0.5, 0.5)
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append(
            (
                u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0],
                u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1],
            )
        )
    return out


def paint_ferry(pen: Pen, a: int, b: int) -> None:
    """The ferry joining the road ends of sides ``a`` and ``b``: its route and its boat."""
    pts = route_points(a, b)
    pen.line(pts, ROUTE, 0.085)
    pen.line(pts, ROUTE_LIGHT, 0.05)
    mid = len(pts) // 2
    (x0, y0), (x1, y1) = pts[mid - 1], pts[mid + 1]
    cx, cy = pts[mid]
    ang = math.atan2(y1 - y0, x1 - x0)
    ux, uy = math.cos(ang), math.sin(ang)
    vx, vy = -uy, ux

    def at(along: float, across: float) -> tuple[float, float]:
        return (cx + ux * along + vx * across, cy + uy * along + vy * across)

    half, beam = 0.075, 0.045
    hull = [
        at(-half, -beam),
        at(half * 0.7, -beam),
        at(half, 0.0),
        at(half * 0.7, beam),
        at(-half, beam),
        at(-half * 1.08, 0.0),
    ]
    pen.poly(hull, HULL, st.DARK, 0.012)
    deck = [at(-half * 0.7, -beam * 0.5), at(half * 0.55, -beam * 0.5)]
    deck += [at(half * 0.55, beam * 0.5), at(-half * 0.7, beam * 0.5)]
    pen.poly(deck, DECK)
    for k in (-0.35, 0.0, 0.35):  # planks across the deck
        pen.line([at(half * k, -beam * 0.5), at(half * k, beam * 0.5)], HULL, 0.008, False)


@lru_cache(maxsize=64)
def ferry_layer(size: int, mask: int) -> Image.Image:
    """An RGBA tile of ``size`` px holding the ferry of the two sides in ``mask`` (N = 1)."""
    a, b = (i for i in range(4) if mask >> i & 1)
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    paint_ferry(Pen(big), a, b)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def ferries_on_board(view: PublicView) -> tuple[tuple[Any, int], ...]:
    """``(cell, sides mask)`` of every ferry (none without the expansion): the mask of the
    two road ends it joins, on the board, from the tiles as placed."""
    model: Any = view.ext.get(ID)
    ferries = getattr(model, "ferries", None)
    if not ferries:
        return ()
    tiles = {tv.pos: tv for tv in view.tiles}
    out = []
    for f in ferries:
        tv = tiles.get(f.pos)
        if tv is None:
            continue
        sides = tile(tv.tile).rotated(int(tv.rotation)).sides
        out.append((f.pos, sides[f.ends[0]] | sides[f.ends[1]]))
    return tuple(out)


def pair_point(mask: int) -> tuple[float, float]:
    """Where the target of the ferry joining the sides in ``mask`` goes, in unit tile
    coordinates: between two ends side by side, on the lake's shore; on the route, a little
    off the middle (north–south to the north, east–west to the east), for opposite ends."""
    a, b = (i for i in range(4) if mask >> i & 1)
    if (a - b) % 2 == 0:
        dx, dy = DIRS[a]  # N for north–south, E for east–west
        return (0.5 + dx * 0.1, 0.5 + dy * 0.1)
    (ax, ay), (bx, by) = DIRS[a], DIRS[b]
    return (0.5 + (ax + bx) * 0.17, 0.5 + (ay + by) * 0.17)


class FerriesOverlay(Overlay):
    id = ID
    symbols = MappingProxyType(
        {
            "lake": SymbolArt(
                paint_lake,
                Place.CENTRE,
                LAKE,
                ground=True,
                ends=frozenset({"lake"}),
                road_end=RoadEnd(0.62, 0.1, paint_dock),
            )
        }
    )
    words = frozenset({"ferry", "dock"})

    def anchor(self, view: PublicView, tv: TileView, feature: int, spot: str, at: Point) -> Point:
        """A ferry's target (``road:<two sides>`` on a lake tile, a road no tile prints) stands
        on the lake between its two ends."""
        kind, _, sides = spot.partition(":")
        if feature >= 0 or kind != "road" or len(sides) != 2 or not tile(tv.tile).symbol(ID_SYMBOL):
            return at
        mask = sum(1 << "NESW".index(c) for c in sides if c in "NESW")
        if bin(mask).count("1") != 2:
            return at
        return pair_point(mask)

    def draw_under(self, img: Image.Image, view: PublicView, frame: Frame) -> None:
        for pos, mask in ferries_on_board(view):
            if frame.contains(pos):
                x, y = frame.cell_xy(pos)
                layer = ferry_layer(frame.tile, mask)
                img.paste(layer, (int(x), int(y)), layer)


OVERLAY = FerriesOverlay()
