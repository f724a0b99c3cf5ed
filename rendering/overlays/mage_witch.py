"""Mage & Witch: the magic portal printed on its tiles (the symbol ``mage``, a small purple
wizard's hat with a golden star in a corner, drawn upright), and the two neutral figures, told
apart at phone width by colour and outline: the mage a violet robe under a tall pointed hat
with a golden star, the witch an orange robe under a black hat with a wide brim, a broom at her
side."""

from __future__ import annotations

from types import MappingProxyType

from PIL import Image, ImageDraw

from rendering import style as st
from rendering.figures import SS, rim, shapes
from rendering.layout import Symbol
from rendering.overlays import FigureArt, Overlay, Place, SymbolArt
from rendering.pen import Pen, rel
from rendering.style import SeatStyle

#: the hat, its brim and its star
HAT = (110, 50, 170)
BRIM = (80, 30, 130)
STAR = (238, 190, 40)
#: the figures' colours (the box's violet mage and orange witch) and outline
MAGE_ROBE = (128, 60, 200)
WITCH_ROBE = (240, 128, 20)
WITCH_HAT = (30, 24, 30)
BROOM = (150, 96, 44)
EDGE = (255, 255, 255, 255)
#: side of the figures' sprites relative to a follower's: they stand out from the followers
SCALE = 1.2

Pts = list[tuple[float, float]]


def paint_mage(pen: Pen, sym: Symbol) -> None:
    """A pointed purple hat with a golden star and a brim."""
    c, s = sym.at, sym.size
    pen.poly(rel(c, s, [(-0.4, 0.35), (0.4, 0.35), (0.05, -0.5)]), HAT, st.DARK, 0.008)
    pen.disc(rel(c, s, [(0.0, 0.05)])[0], s * 0.09, STAR)
    pen.line(rel(c, s, [(-0.5, 0.35), (0.5, 0.35)]), BRIM, 0.02, True)


def _canvas(size: int) -> tuple[Image.Image, ImageDraw.ImageDraw, int, int]:
    size = round(size * SCALE)
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img), big, size


def _star(cx: float, cy: float, r: float) -> Pts:
    """A five-pointed star around (cx, cy)."""
    import math

    out = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def draw_mage(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The mage: a violet robe and a tall pointed hat with a golden star (never lies down)."""
    img, d, big, size = _canvas(size)
    w = max(2, big // 14)

    def sc(pts: list[tuple[float, float]]) -> Pts:
        return [(x * big, y * big) for x, y in pts]

    robe = sc([(0.5, 0.44), (0.84, 0.98), (0.16, 0.98)])
    hat = sc([(0.5, 0.0), (0.72, 0.36), (0.28, 0.36)])
    face = (0.5 * big, 0.44 * big, 0.12 * big)
    shapes(d, [robe, hat], [face], EDGE, EDGE, w)
    d.polygon(robe, fill=(*MAGE_ROBE, 255))
    x, y, r = face
    d.ellipse((x - r, y - r, x + r, y + r), fill=(236, 214, 190, 255))
    d.polygon(sc([(0.39, 0.48), (0.61, 0.48), (0.5, 0.72)]), fill=(235, 235, 235, 255))  # beard
    d.polygon(hat, fill=(*MAGE_ROBE, 255))
    d.polygon(_star(0.5 * big, 0.24 * big, 0.08 * big), fill=(*STAR, 255))
    d.polygon(_star(0.5 * big, 0.8 * big, 0.1 * big), fill=(*STAR, 255))
    return img.resize((size, size), Image.Resampling.LANCZOS)


def draw_witch(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The witch: an orange robe, a black hat with a wide brim and a broom (never lies down)."""
    img, d, big, size = _canvas(size)
    w = max(2, big // 14)

    def sc(pts: list[tuple[float, float]]) -> Pts:
        return [(x * big, y * big) for x, y in pts]

    stick = sc([(0.8, 0.12), (0.86, 0.12), (0.86, 0.8), (0.8, 0.8)])
    bristles = sc([(0.78, 0.72), (0.88, 0.72), (0.97, 0.98), (0.69, 0.98)])
    robe = sc([(0.42, 0.42), (0.58, 0.42), (0.78, 0.97), (0.12, 0.97)])
    brim = sc([(0.12, 0.36), (0.88, 0.36), (0.88, 0.44), (0.12, 0.44)])
    hat = sc([(0.56, 0.02), (0.66, 0.38), (0.34, 0.38)])
    for pts in (stick, bristles):
        rim(d, pts, EDGE, w)
    d.polygon(stick, fill=(*BROOM, 255))
    d.polygon(bristles, fill=(*STAR, 255))
    shapes(d, [robe, brim, hat], [(0.5 * big, 0.5 * big, 0.11 * big)], EDGE, EDGE, w)
    d.polygon(robe, fill=(*WITCH_ROBE, 255))
    d.ellipse((0.39 * big, 0.39 * big, 0.61 * big, 0.61 * big), fill=(150, 200, 120, 255))
    d.polygon(brim, fill=(*WITCH_HAT, 255))
    d.polygon(hat, fill=(*WITCH_HAT, 255))
    d.rectangle((0.36 * big, 0.3 * big, 0.64 * big, 0.35 * big), fill=(*WITCH_ROBE, 255))
    return img.resize((size, size), Image.Resampling.LANCZOS)


class MageWitchOverlay(Overlay):
    id = "mage_witch"
    figures = MappingProxyType(
        {
            "mage": FigureArt(draw_mage, order=80),
            "witch": FigureArt(draw_witch, order=81),
        }
    )
    symbols = MappingProxyType({"mage": SymbolArt(paint_mage, Place.CORNER, 0.2, upright=True)})
    words = frozenset({"witch"})


OVERLAY = MageWitchOverlay()
