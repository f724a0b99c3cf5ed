"""Procedural tile art, drawn from tile data through :mod:`rendering.layout`.

A tile is painted at twice the wanted size in its reference orientation and halved (cheap,
clean anti-aliasing), then turned losslessly with ``Image.transpose``. Finished images are cached
per ``(tile id, rotation, size)`` so a board render only pastes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering import style as st
from rendering.cache import MiB, memo
from rendering.layout import ROAD_W, CityShape, Pt, RoadPath, Symbol, rotate_point, tile_layout

#: transposes that turn an image clockwise by 0-3 quarter turns (Transpose.ROTATE_90 is
#: counter-clockwise: a clockwise quarter turn is ROTATE_270)
TURNS = (
    None,
    Image.Transpose.ROTATE_270,
    Image.Transpose.ROTATE_180,
    Image.Transpose.ROTATE_90,
)


class _Pen:
    """Unit-coordinate drawing on a square image."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.s = img.size[0]
        self.d = ImageDraw.Draw(img)

    def p(self, pt: Pt) -> tuple[float, float]:
        return (pt[0] * self.s, pt[1] * self.s)

    def w(self, width: float) -> int:
        return max(1, round(width * self.s))

    def poly(
        self, pts: Sequence[Pt], fill: st.RGB, outline: st.RGB | None = None, width: float = 0.0
    ) -> None:
        self.d.polygon([self.p(q) for q in pts], fill=fill)
        if outline is not None:
            self.line([*pts, pts[0]], outline, width)

    def line(
        self, pts: Sequence[Pt], colour: st.RGB, width: float, round_ends: bool = True
    ) -> None:
        scaled = [self.p(q) for q in pts]
        w = self.w(width)
        self.d.line(scaled, fill=colour, width=w, joint="curve")
        if round_ends and w > 2:
            r = w / 2
            for x, y in (scaled[0], scaled[-1]):
                self.d.ellipse((x - r, y - r, x + r, y + r), fill=colour)

    def disc(
        self, c: Pt, r: float, fill: st.RGB, outline: st.RGB | None = None, width: float = 0.0
    ) -> None:
        x, y = self.p(c)
        rr = r * self.s
        self.d.ellipse(
            (x - rr, y - rr, x + rr, y + rr),
            fill=fill,
            outline=outline,
            width=self.w(width) if outline else 0,
        )

    def rect(
        self, a: Pt, b: Pt, fill: st.RGB, outline: st.RGB | None = None, width: float = 0.0
    ) -> None:
        self.d.rectangle(
            (*self.p(a), *self.p(b)),
            fill=fill,
            outline=outline,
            width=self.w(width) if outline else 0,
        )


def _rel(c: Pt, size: float, pts: Sequence[Pt]) -> list[Pt]:
    """Points given in a -0.5..0.5 box around ``c``, scaled to ``size``."""
    return [(c[0] + x * size, c[1] + y * size) for x, y in pts]


def _extend(arm: Sequence[Pt]) -> list[Pt]:
    """Push a path's ends that lie on the tile border slightly outside, so roads reach the edge."""
    pts = list(arm)
    for idx, nxt in ((0, 1), (-1, -2)):
        x, y = pts[idx]
        if x in (0.0, 1.0) or y in (0.0, 1.0):
            nx, ny = pts[nxt]
            dx, dy = x - nx, y - ny
            n = math.hypot(dx, dy) or 1.0
            pts[idx] = (x + dx / n * 0.04, y + dy / n * 0.04)
    return pts


def _draw_road(pen: _Pen, rp: RoadPath, bridge: bool = False) -> None:
    for arm in rp.arms:
        pts = _extend(arm)
        if bridge:
            pen.line(pts, st.DARK, ROAD_W + 0.075, round_ends=False)
            pen.line(pts, st.BRIDGE, ROAD_W + 0.055, round_ends=False)
        pen.line(pts, st.ROAD_EDGE, ROAD_W + 0.022, round_ends=not bridge)
        pen.line(pts, st.ROAD, ROAD_W, round_ends=not bridge)


def _draw_city(pen: _Pen, cs: CityShape) -> None:
    if cs.bridge:  # a shadow under the bridge
        shadow = [(x + 0.015, y + 0.02) for x, y in cs.polygon]
        pen.poly(shadow, (60, 60, 50))
    pen.poly(cs.polygon, st.CITY)
    for wall in cs.walls:
        pen.line(wall, st.CITY_DARK, 0.075, round_ends=False)
    for wall in cs.walls:
        pen.line(wall, st.WALL, 0.04, round_ends=False)
        pen.line(wall, st.STONE, 0.012, round_ends=False)
        # crenellations
        for i in range(1, len(wall) - 1, 3):
            pen.disc(wall[i], 0.018, st.WALL)


def _shield(pen: _Pen, c: Pt, s: float) -> None:
    pts = _rel(c, s, [(-0.42, -0.45), (0.42, -0.45), (0.42, 0.05), (0.0, 0.5), (-0.42, 0.05)])
    pen.poly(pts, st.PENNANT, (255, 255, 255), 0.014)
    pen.line(_rel(c, s, [(0.0, -0.4), (0.0, 0.38)]), (255, 255, 255), 0.018, False)
    pen.line(_rel(c, s, [(-0.38, -0.12), (0.38, -0.12)]), (255, 255, 255), 0.018, False)


def _building(
    pen: _Pen, c: Pt, s: float, roof: st.RGB, walls: st.RGB = st.STONE, cross: bool = False
) -> None:
    pen.rect(_rel(c, s, [(-0.38, -0.05)])[0], _rel(c, s, [(0.38, 0.45)])[0], walls, st.DARK, 0.01)
    pen.poly(_rel(c, s, [(-0.48, -0.02), (0.0, -0.42), (0.48, -0.02)]), roof, st.DARK, 0.01)
    pen.rect(_rel(c, s, [(-0.09, 0.16)])[0], _rel(c, s, [(0.09, 0.45)])[0], st.DARK)
    if cross:
        pen.line(_rel(c, s, [(0.0, -0.42), (0.0, -0.62)]), st.DARK, 0.014, False)
        pen.line(_rel(c, s, [(-0.08, -0.54), (0.08, -0.54)]), st.DARK, 0.014, False)


def _crop_glyph(pen: _Pen, c: Pt, s: float, kind: str) -> None:
    ink = (88, 70, 20)
    if kind == "shield":
        pts = _rel(c, s, [(-0.22, -0.25), (0.22, -0.25), (0.22, 0.02), (0.0, 0.27), (-0.22, 0.02)])
        pen.poly(pts, ink)
    elif kind == "club":
        pen.line(_rel(c, s, [(-0.05, 0.28), (0.08, -0.1)]), ink, s * 0.12, True)
        pen.disc(_rel(c, s, [(0.1, -0.14)])[0], s * 0.13, ink)
    else:  # pitchfork
        pen.line(_rel(c, s, [(0.0, 0.3), (0.0, -0.1)]), ink, s * 0.07, False)
        pen.line(_rel(c, s, [(-0.16, -0.1), (0.16, -0.1)]), ink, s * 0.07, False)
        for dx in (-0.16, 0.0, 0.16):
            pen.line(_rel(c, s, [(dx, -0.1), (dx, -0.3)]), ink, s * 0.06, False)


_DIRS = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}


def draw_symbol(img: Image.Image, sym: Symbol) -> None:
    """Draw ``sym`` on a square ``img`` in unit coordinates (panel icons reuse the tile art)."""
    _draw_symbol(_Pen(img), sym)


def _draw_symbol(pen: _Pen, sym: Symbol) -> None:
    c, s, k = sym.at, sym.size, sym.kind
    if k == "pennant":
        _shield(pen, c, s)
    elif k == "cathedral":
        pen.rect(
            _rel(c, s, [(-0.4, -0.1)])[0],
            _rel(c, s, [(0.4, 0.42)])[0],
            (200, 200, 210),
            st.DARK,
            0.01,
        )
        pen.poly(
            _rel(c, s, [(-0.45, -0.08), (0.0, -0.32), (0.45, -0.08)]),
            (110, 110, 140),
            st.DARK,
            0.01,
        )
        pen.rect(
            _rel(c, s, [(-0.1, -0.5)])[0],
            _rel(c, s, [(0.1, -0.1)])[0],
            (200, 200, 210),
            st.DARK,
            0.01,
        )
        pen.poly(
            _rel(c, s, [(-0.13, -0.48), (0.0, -0.7), (0.13, -0.48)]),
            (110, 110, 140),
            st.DARK,
            0.008,
        )
        pen.disc(_rel(c, s, [(0.0, 0.12)])[0], s * 0.12, (120, 160, 230), st.DARK, 0.006)
    elif k == "wine":
        for dx, dy in (
            (-0.2, -0.15),
            (0.0, -0.15),
            (0.2, -0.15),
            (-0.1, 0.05),
            (0.1, 0.05),
            (0.0, 0.25),
        ):
            pen.disc(_rel(c, s, [(dx, dy)])[0], s * 0.13, (120, 40, 130), st.DARK, 0.005)
        pen.poly(_rel(c, s, [(0.0, -0.3), (0.3, -0.5), (0.15, -0.28)]), (60, 140, 60))
    elif k == "grain":
        for dx in (-0.18, 0.0, 0.18):
            pen.line(_rel(c, s, [(dx * 0.4, 0.45), (dx, -0.1)]), (150, 110, 30), 0.012, False)
            for dy in (-0.38, -0.22, -0.06):
                pen.disc(
                    _rel(c, s, [(dx * (1 + dy), dy)])[0], s * 0.08, st.GOLD, (150, 110, 30), 0.004
                )
    elif k == "cloth":
        pen.rect(
            _rel(c, s, [(-0.42, -0.3)])[0],
            _rel(c, s, [(0.42, 0.3)])[0],
            (60, 120, 200),
            st.DARK,
            0.008,
        )
        for dy in (-0.15, 0.0, 0.15):
            pen.line(_rel(c, s, [(-0.4, dy), (0.4, dy)]), (230, 230, 250), 0.006, False)
    elif k == "cloister":
        _building(pen, c, s, st.ROOF, cross=True)
    elif k == "abbey":
        pen.rect((0.0, 0.0), (1.0, 1.0), (214, 204, 180))
        pen.rect((0.04, 0.04), (0.96, 0.96), (214, 204, 180), st.WALL, 0.03)
        pen.rect((0.12, 0.12), (0.88, 0.88), (198, 186, 158))
        _building(pen, (c[0], c[1] + 0.06), 0.62, (140, 60, 50), cross=True)
    elif k == "lake":
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
                (200, 230, 250),
                0.01,
                False,
            )
    elif k == "dock":
        pen.disc(c, s * 0.55, (120, 84, 50), st.DARK, 0.008)
    elif k == "market":
        pen.rect(
            _rel(c, s, [(-0.42, -0.05)])[0],
            _rel(c, s, [(0.42, 0.42)])[0],
            (150, 100, 60),
            st.DARK,
            0.01,
        )
        for i in range(4):
            x0 = -0.5 + i * 0.25
            colour = (220, 40, 40) if i % 2 == 0 else (255, 255, 255)
            pen.poly(
                _rel(
                    c, s, [(x0, -0.05), (x0 + 0.25, -0.05), (x0 + 0.2, -0.42), (x0 + 0.05, -0.42)]
                ),
                colour,
                st.DARK,
                0.006,
            )
        pen.disc(_rel(c, s, [(-0.18, 0.15)])[0], s * 0.09, (240, 160, 40))
        pen.disc(_rel(c, s, [(0.15, 0.15)])[0], s * 0.09, (120, 180, 60))
    elif k == "crop":
        r = s / 2
        pen.disc(c, r, (200, 214, 120), (150, 160, 80), 0.01)
        pen.disc(c, r * 0.72, (150, 186, 90))
        pen.disc(c, r * 0.62, (206, 220, 130))
        _crop_glyph(pen, c, r * 1.1, sym.arg)
    elif k == "inn":
        pen.rect(
            _rel(c, s, [(-0.4, -0.05)])[0],
            _rel(c, s, [(0.4, 0.42)])[0],
            (250, 236, 200),
            st.DARK,
            0.008,
        )
        pen.poly(
            _rel(c, s, [(-0.5, -0.02), (0.0, -0.42), (0.5, -0.02)]), (70, 90, 170), st.DARK, 0.008
        )
        pen.rect(_rel(c, s, [(0.1, 0.1)])[0], _rel(c, s, [(0.32, 0.3)])[0], st.GOLD, st.DARK, 0.005)
    elif k == "house":
        _building(pen, c, s, (120, 90, 70))
    elif k == "well":
        pen.disc(c, s / 2, (150, 150, 150), st.DARK, 0.01)
        pen.disc(c, s * 0.3, st.WATER)
    elif k == "junction":
        pen.disc(c, s / 2, st.ROAD, st.ROAD_EDGE, 0.012)
        pen.disc(c, s * 0.18, st.ROAD_EDGE)
    elif k == "deadend":
        pen.disc(c, ROAD_W * 0.5, st.ROAD_EDGE)
        pen.disc((c[0] + 0.05, c[1] - 0.04), 0.05, (60, 120, 50), st.DARK, 0.006)
        pen.disc((c[0] - 0.05, c[1] - 0.05), 0.045, (76, 140, 60), st.DARK, 0.006)
    elif k in ("gate", "tunnel"):
        pen.disc(c, s * 0.42, st.WALL)
        pen.disc(c, s * 0.3, (24, 18, 14))
    elif k == "flier":
        dx, dy = _DIRS.get(sym.arg, (0, -1))
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
    elif k == "gold":
        pen.poly(
            _rel(c, s, [(-0.45, 0.25), (0.45, 0.25), (0.3, -0.15), (-0.3, -0.15)]),
            st.GOLD,
            (130, 90, 10),
            0.01,
        )
        pen.line(_rel(c, s, [(-0.2, -0.05), (0.2, -0.05)]), (255, 240, 170), 0.01, False)
    elif k == "mage":
        pen.poly(
            _rel(c, s, [(-0.4, 0.35), (0.4, 0.35), (0.05, -0.5)]), (110, 50, 170), st.DARK, 0.008
        )
        pen.disc(_rel(c, s, [(0.0, 0.05)])[0], s * 0.09, st.GOLD)
        pen.line(_rel(c, s, [(-0.5, 0.35), (0.5, 0.35)]), (80, 30, 130), 0.02, True)
    elif k == "robber":
        pen.disc(c, s * 0.42, (40, 40, 40), (255, 255, 255), 0.006)
        pen.rect(_rel(c, s, [(-0.36, -0.12)])[0], _rel(c, s, [(0.36, 0.04)])[0], (230, 230, 230))
        pen.disc(_rel(c, s, [(-0.15, -0.04)])[0], s * 0.06, st.DARK)
        pen.disc(_rel(c, s, [(0.15, -0.04)])[0], s * 0.06, st.DARK)


#: symbols drawn upright whatever the tile's rotation (buildings, shields, goods, figures);
#: the others (roads' gates and tunnel mouths, the flier's arrow, lakes) turn with the tile
UPRIGHT = frozenset(
    {
        "pennant",
        "cathedral",
        "wine",
        "grain",
        "cloth",
        "cloister",
        "abbey",
        "market",
        "inn",
        "house",
        "well",
        "gold",
        "mage",
        "robber",
    }
)


def draw_tile_art(tile_id: str, size: int, *, upright: bool = True) -> Image.Image:
    """Paint tile ``tile_id`` in its reference orientation at ``size`` px (no anti-aliasing);
    with ``upright=False`` the :data:`UPRIGHT` symbols are left out (drawn after turning)."""
    lay = tile_layout(tile_id)
    img = Image.new("RGB", (size, size), st.GRASS)
    pen = _Pen(img)
    if lay.tile.symbol("abbey"):
        for sym in lay.symbols:
            if upright or sym.kind not in UPRIGHT:
                _draw_symbol(pen, sym)
        return img
    # field borders (hedges/walls between different fields)
    for p in lay.field_walls:
        pen.disc(p, 0.026, st.HEDGE)
    for p in lay.field_walls:
        pen.disc(p, 0.01, st.HEDGE_LIGHT)
    for stub in lay.stubs:
        pen.line(stub, st.ROAD_EDGE, ROAD_W * 0.7 + 0.02)
        pen.line(stub, st.ROAD, ROAD_W * 0.7)
    base = [s for s in lay.symbols if s.kind in ("lake", "crop", "junction")]
    for rp in lay.roads:
        if not rp.bridge:
            _draw_road(pen, rp)
    for sym in base:
        _draw_symbol(pen, sym)
    for cs in lay.cities:
        if not cs.bridge:
            _draw_city(pen, cs)
    for under in lay.tunnels:  # the road runs on under the city: dashes show its course
        for i in range(0, len(under) - 1, 4):
            pen.line(under[i : i + 2], st.CITY_DARK, 0.03, False)
    for rp in lay.roads:
        if rp.bridge:
            _draw_road(pen, rp, bridge=True)
    for cs in lay.cities:
        if cs.bridge:
            _draw_city(pen, cs)
    for sym in lay.symbols:
        if sym not in base and (upright or sym.kind not in UPRIGHT):
            _draw_symbol(pen, sym)
    return img


@memo("tiles.base", entries=256, budget=24 * MiB)
def _base(tile_id: str, size: int) -> Image.Image:
    """The tile at twice ``size`` without its upright symbols (shared by the four turns)."""
    return draw_tile_art(tile_id, size * 2, upright=False)


@memo("tiles.image", entries=2048, budget=48 * MiB)
def tile_image(tile_id: str, rotation: int, size: int) -> Image.Image:
    """Tile ``tile_id`` turned clockwise by ``rotation`` quarter turns, ``size`` px square (cached).

    The art turns with the tile; buildings, shields and goods (:data:`UPRIGHT`) stand upright
    at their turned places. The returned image is shared: copy it before drawing on it.
    """
    base = _base(tile_id, size)
    turn = TURNS[int(rotation) % 4]
    img = base.copy() if turn is None else base.transpose(turn)
    pen = _Pen(img)
    for sym in tile_layout(tile_id).symbols:
        if sym.kind in UPRIGHT:
            at = rotate_point(sym.at, int(rotation))
            _draw_symbol(pen, Symbol(sym.kind, at, sym.size, sym.arg))
    return img.reduce(2)
