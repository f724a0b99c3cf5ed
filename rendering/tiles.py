"""Procedural tile art, drawn from tile data through :mod:`rendering.layout`.

A tile is painted at twice the wanted size in its reference orientation and halved (cheap,
clean anti-aliasing), then turned losslessly with ``Image.transpose``. Finished images are cached
per ``(tile id, rotation, size)`` so a board render only pastes. The core paints cities, roads and
their marks; the symbols of the tile files are painted by their overlays (``Symbol.paint``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from PIL import Image

from rendering import style as st
from rendering.cache import MiB, memo
from rendering.layout import ROAD_W, CityShape, Pt, RoadPath, Symbol, rotate_point, tile_layout
from rendering.pen import Pen, building, rel

#: transposes that turn an image clockwise by 0-3 quarter turns (Transpose.ROTATE_90 is
#: counter-clockwise: a clockwise quarter turn is ROTATE_270)
TURNS = (
    None,
    Image.Transpose.ROTATE_270,
    Image.Transpose.ROTATE_180,
    Image.Transpose.ROTATE_90,
)


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


def _draw_road(pen: Pen, rp: RoadPath, over: bool = False) -> None:
    for arm in rp.arms:
        pts = _extend(arm)
        if over:
            pen.line(pts, st.DARK, ROAD_W + 0.075, round_ends=False)
            pen.line(pts, st.OVERPASS, ROAD_W + 0.055, round_ends=False)
        pen.line(pts, st.ROAD_EDGE, ROAD_W + 0.022, round_ends=not over)
        pen.line(pts, st.ROAD, ROAD_W, round_ends=not over)


def _draw_city(pen: Pen, cs: CityShape) -> None:
    if cs.overpass:  # a shadow under the overpass
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


def _shield(pen: Pen, c: Pt, s: float) -> None:
    pts = rel(c, s, [(-0.42, -0.45), (0.42, -0.45), (0.42, 0.05), (0.0, 0.5), (-0.42, 0.05)])
    pen.poly(pts, st.PENNANT, (255, 255, 255), 0.014)
    pen.line(rel(c, s, [(0.0, -0.4), (0.0, 0.38)]), (255, 255, 255), 0.018, False)
    pen.line(rel(c, s, [(-0.38, -0.12), (0.38, -0.12)]), (255, 255, 255), 0.018, False)


def draw_symbol(img: Image.Image, sym: Symbol) -> None:
    """Draw ``sym`` on a square ``img`` in unit coordinates (panel icons reuse the tile art)."""
    _draw_symbol(Pen(img), sym)


def _draw_symbol(pen: Pen, sym: Symbol) -> None:
    if sym.paint is not None:  # a symbol of a tile file, drawn by its overlay
        sym.paint(pen, sym)
        return
    c, s, k = sym.at, sym.size, sym.kind
    if k == "pennant":
        _shield(pen, c, s)
    elif k == "cloister":
        building(pen, c, s, st.ROOF, cross=True)
    elif k == "house":
        building(pen, c, s, (120, 90, 70))
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


def draw_tile_art(tile_id: str, size: int, *, upright: bool = True) -> Image.Image:
    """Paint tile ``tile_id`` in its reference orientation at ``size`` px (no anti-aliasing);
    with ``upright=False`` the upright symbols (``Symbol.upright``) are left out (drawn after
    turning)."""
    lay = tile_layout(tile_id)
    img = Image.new("RGB", (size, size), st.GRASS)
    pen = Pen(img)
    if lay.whole:
        for sym in lay.symbols:
            if upright or not sym.upright:
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
    for rp in lay.roads:
        if not rp.overpass:
            _draw_road(pen, rp)
    for sym in lay.symbols:  # on the grass, under the cities
        if sym.ground:
            _draw_symbol(pen, sym)
    for cs in lay.cities:
        if not cs.overpass:
            _draw_city(pen, cs)
    for under in lay.tunnels:  # the road runs on under the city: dashes show its course
        for i in range(0, len(under) - 1, 4):
            pen.line(under[i : i + 2], st.CITY_DARK, 0.03, False)
    for rp in lay.roads:
        if rp.overpass:
            _draw_road(pen, rp, over=True)
    for cs in lay.cities:
        if cs.overpass:
            _draw_city(pen, cs)
    for sym in lay.symbols:
        if not sym.ground and (upright or not sym.upright):
            _draw_symbol(pen, sym)
    return img


@memo("tiles.base", entries=256, budget=24 * MiB)
def _base(tile_id: str, size: int) -> Image.Image:
    """The tile at twice ``size`` without its upright symbols (shared by the four turns)."""
    return draw_tile_art(tile_id, size * 2, upright=False)


@memo("tiles.image", entries=2048, budget=48 * MiB)
def tile_image(tile_id: str, rotation: int, size: int) -> Image.Image:
    """Tile ``tile_id`` turned clockwise by ``rotation`` quarter turns, ``size`` px square (cached).

    The art turns with the tile; buildings, shields and figures (``Symbol.upright``) stand
    upright at their turned places. The returned image is shared: copy it before drawing on it.
    """
    base = _base(tile_id, size)
    turn = TURNS[int(rotation) % 4]
    img = base.copy() if turn is None else base.transpose(turn)
    pen = Pen(img)
    for sym in tile_layout(tile_id).symbols:
        if sym.upright and not sym.ground:
            _draw_symbol(pen, replace(sym, at=rotate_point(sym.at, int(rotation))))
    return img.reduce(2)
