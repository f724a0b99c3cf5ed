"""Figures and tokens as small anti-aliased sprites.

A follower is the classic meeple silhouette in the seat's colour with the seat's shape on its
chest; it stands for thieves, knights and monks and lies down as a farmer. Other figure kinds
(large follower, builder, pig, mayor, wagon, barn, neutral figures) and tokens (gold, ferries,
bridges, castles) register a drawer in :data:`FIGURE_DRAWERS`; until they do, they appear as a
labelled disc so they are never invisible.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from rendering.fonts import font
from rendering.style import Mark, SeatStyle, seat_style

_SS = 4  # supersampling factor

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


def _meeple(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    big = size * _SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    outline = (255, 255, 255, 255) if sum(style.fill) < 200 else (20, 20, 20, 255)
    pts = [((0.5 + (x - 0.5) * 0.8) * big, y * big) for x, y in _MEEPLE]
    head = (0.5 * big, 0.19 * big, 0.155 * big)
    w = max(2, big // 14)
    # outline: the shape drawn fat, then the fill on top
    d.polygon(pts, fill=outline, outline=outline, width=w * 2)
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
    big = size * _SS
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


#: figure kind -> drawer(style, size px, lying) for kinds beyond the plain follower
FIGURE_DRAWERS: dict[str, Callable[[SeatStyle, int, bool], Image.Image]] = {}

#: figures that lie down when they stand on a field
FOLLOWER_KINDS = frozenset({"follower", "large", "abbot"})


@lru_cache(maxsize=512)
def figure_sprite(kind: str, seat: int, size: int, lying: bool = False) -> Image.Image:
    """RGBA sprite of a figure of ``kind`` belonging to ``seat`` (-1 = neutral), ``size`` px."""
    style = seat_style(seat)
    drawer = FIGURE_DRAWERS.get(kind)
    if drawer is not None:
        return drawer(style, size, lying)
    if kind in FOLLOWER_KINDS:
        scale = 1.25 if kind == "large" else 1.0
        return _meeple(style, int(size * scale), lying)
    return _token(style, size, kind[:1].upper())
