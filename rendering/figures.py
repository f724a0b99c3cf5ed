"""Figures as small anti-aliased sprites, and the art every expansion's figures build on.

A follower is the classic meeple silhouette in the seat's colour with the seat's shape on its
chest; it stands for thieves, knights and monks and lies down as a farmer. Kinds an expansion
adds are drawn by its overlay (``rendering/overlays/<id>.py``, :class:`FigureArt`), which may
use the helpers here (:func:`meeple`, :func:`rim`, :func:`shapes`, :func:`outline_colour`,
:func:`draw_mark`). A kind nobody draws appears as a disc with its initial in the seat's
colour, so it is never invisible. Neutral figures (seat ``-1``) are light grey with a dark rim.
"""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image, ImageDraw

from rendering import overlays
from rendering.cache import MiB, memo
from rendering.fonts import font
from rendering.overlays import FigureArt
from rendering.style import Mark, SeatStyle, seat_style

#: supersampling factor: sprites are drawn this many times bigger, then scaled down
SS = 4

_MEEPLE = (
    (0.36, 0.30),
    (0.12, 0.37),
    (0.03, 0.47),
    (0.08, 0.56),
    (0.30, 0.55),
    (0.20, 0.82),
    (0.10, 0.97),
    (0.41, 0.97),
    (0.50, 0.80),
    (0.59, 0.97),
    (0.90, 0.97),
    (0.80, 0.82),
    (0.70, 0.55),
    (0.92, 0.56),
    (0.97, 0.47),
    (0.88, 0.37),
    (0.64, 0.30),
)


def draw_mark(
    d: ImageDraw.ImageDraw, mark: Mark, cx: float, cy: float, r: float, fill: tuple[int, int, int]
) -> None:
    """Draw a seat's shape centred at ``(cx, cy)`` with radius ``r``."""
    if mark is Mark.CIRCLE:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif mark is Mark.SQUARE:
        k = r * 0.85
        d.rectangle((cx - k, cy - k, cx + k, cy + k), fill=fill)
    elif mark is Mark.TRIANGLE:
        d.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=fill)
    elif mark is Mark.DIAMOND:
        d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill)
    elif mark is Mark.STAR:
        import math

        pts = []
        for i in range(10):
            rr = r if i % 2 == 0 else r * 0.45
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        d.polygon(pts, fill=fill)
    else:  # cross
        k = r * 0.36
        d.rectangle((cx - r, cy - k, cx + r, cy + k), fill=fill)
        d.rectangle((cx - k, cy - r, cx + k, cy + r), fill=fill)


def rim(
    d: ImageDraw.ImageDraw,
    pts: list[tuple[float, float]],
    colour: tuple[int, int, int, int],
    w: int,
) -> None:
    """The polygon grown by ``w`` on every side (Pillow draws a polygon's outline inside it, so
    a plain outline would vanish under the fill)."""
    d.polygon(pts, fill=colour)
    d.line([*pts, pts[0]], fill=colour, width=w * 2, joint="curve")
    for x, y in pts:
        d.ellipse((x - w, y - w, x + w, y + w), fill=colour)


def meeple(style: SeatStyle, size: int, lying: bool = False) -> Image.Image:
    """The follower: a meeple ``size`` px square in the seat's colour with its mark on the chest
    (turned on its side when ``lying``)."""
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    outline = outline_colour(style)
    pts = [((0.5 + (x - 0.5) * 0.8) * big, y * big) for x, y in _MEEPLE]
    head = (0.5 * big, 0.19 * big, 0.155 * big)
    w = max(2, big // 14)
    # outline: the shape drawn fat, then the fill on top
    rim(d, pts, outline, w)
    d.ellipse(
        (
            head[0] - head[2] - w,
            head[1] - head[2] - w,
            head[0] + head[2] + w,
            head[1] + head[2] + w,
        ),
        fill=outline,
    )
    d.polygon(pts, fill=(*style.fill, 255))
    d.ellipse(
        (head[0] - head[2], head[1] - head[2], head[0] + head[2], head[1] + head[2]),
        fill=(*style.fill, 255),
    )
    draw_mark(d, style.mark, 0.5 * big, 0.6 * big, 0.14 * big, style.ink)
    if lying:
        img = img.rotate(90, expand=False)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def _token(style: SeatStyle, size: int, label: str) -> Image.Image:
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    m = big * 0.12
    d.ellipse(
        (m, m, big - m, big - m),
        fill=(*style.fill, 255),
        outline=(20, 20, 20, 255),
        width=max(2, big // 16),
    )
    f = font(int(big * 0.42), bold=True)
    d.text((big / 2, big / 2), label[:2], font=f, fill=style.ink, anchor="mm")
    return img.resize((size, size), Image.Resampling.LANCZOS)


def outline_colour(style: SeatStyle) -> tuple[int, int, int, int]:
    """Light rim for dark seats, dark rim for light ones, so every figure shows on any tile."""
    return (255, 255, 255, 255) if sum(style.fill) < 200 else (20, 20, 20, 255)


Pts = list[tuple[float, float]]


def shapes(
    d: ImageDraw.ImageDraw,
    polys: list[Pts],
    discs: list[tuple[float, float, float]],
    fill: tuple[int, int, int, int],
    outline: tuple[int, int, int, int],
    w: int,
) -> None:
    """Polygons and discs (unit coordinates scaled already) drawn fat in ``outline``, then filled."""
    for pts in polys:
        rim(d, pts, outline, w)
    for x, y, r in discs:
        d.ellipse((x - r - w, y - r - w, x + r + w, y + r + w), fill=outline)
    for pts in polys:
        d.polygon(pts, fill=fill)
    for x, y, r in discs:
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill)


#: the base game's figure; every other kind comes from an overlay (or the lettered disc)
BASE_FIGURES: dict[str, FigureArt] = {"follower": FigureArt(meeple, follower=True, order=0)}


def figure_art(kind: str) -> FigureArt | None:
    """How ``kind`` is drawn: the base follower, or the art an expansion's overlay gives."""
    return BASE_FIGURES.get(kind) or overlays.figure_art(kind)


def is_follower(kind: str) -> bool:
    """Whether ``kind`` is a follower (lies on fields; drawn in front of other figures)."""
    art = figure_art(kind)
    return art is not None and art.follower


def figure_sprite(kind: str, seat: int, size: int, lying: bool = False) -> Image.Image:
    """RGBA sprite of a figure of ``kind`` belonging to ``seat`` (-1 = neutral), about ``size``
    px (the follower's side; some kinds are drawn a little bigger)."""
    art = figure_art(kind)
    if art is None:
        return _token_sprite(kind[:1].upper(), seat, size)
    return _sprite(art.draw, seat, size, lying)


@memo("figures.sprite", entries=512, budget=8 * MiB)
def _sprite(draw: overlays.Drawer, seat: int, size: int, lying: bool) -> Image.Image:
    return draw(seat_style(seat), size, lying)


@memo("figures.meeple", entries=64, budget=2 * MiB)
def meeple_sprite(seat: int, size: int) -> Image.Image:
    """A standing follower of ``seat``, ``size`` px, whatever kinds the match has."""
    return meeple(seat_style(seat), size)


@memo("figures.token", entries=128, budget=2 * MiB)
def _token_sprite(label: str, seat: int, size: int) -> Image.Image:
    return _token(seat_style(seat), size, label)


def kind_order(kinds: Iterable[str]) -> list[str]:
    """``kinds`` in the order pictures list them: by their art's ``order``, unknown kinds last
    (by name)."""

    def key(k: str) -> tuple[int, str]:
        art = figure_art(k)
        return (art.order if art is not None else 1_000_000, k)

    return sorted(kinds, key=key)
