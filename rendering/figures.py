"""Figures and tokens as small anti-aliased sprites.

A follower is the classic meeple silhouette in the seat's colour with the seat's shape on its
chest; it stands for thieves, knights and monks and lies down as a farmer. The large follower
(Inns & Cathedrals) is the same meeple a third bigger; the builder (Traders & Builders) is a
narrow figure in a hard hat raising a hammer and the pig a pig seen from the side, so each kind
keeps its own silhouette at phone size while colour and seat shape still tell the owner. Other
kinds (mayor, wagon, barn, neutral figures) register a drawer in :data:`FIGURE_DRAWERS`; until
they do, they appear as a labelled disc so they are never invisible.
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


def _rim(
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


def _meeple(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    big = size * _SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    outline = (255, 255, 255, 255) if sum(style.fill) < 200 else (20, 20, 20, 255)
    pts = [((0.5 + (x - 0.5) * 0.8) * big, y * big) for x, y in _MEEPLE]
    head = (0.5 * big, 0.19 * big, 0.155 * big)
    w = max(2, big // 14)
    # outline: the shape drawn fat, then the fill on top
    _rim(d, pts, outline, w)
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


#: background of a goods icon: the gold grain, purple wine and blue cloth all show on it
GOODS_CHIP = (120, 150, 90)

#: the builder's hammer head (a blue-grey no tile art and no panel colour uses)
HAMMER = (112, 118, 134)

#: side of the pig's and the builder's sprites relative to a follower's
PIG_SCALE = 1.15
BUILDER_SCALE = 1.12

#: how much bigger than a follower the large follower is drawn (sprite side)
LARGE_SCALE = 1.32


def _outline_colour(style: SeatStyle) -> tuple[int, int, int, int]:
    """Light rim for dark seats, dark rim for light ones, so every figure shows on any tile."""
    return (255, 255, 255, 255) if sum(style.fill) < 200 else (20, 20, 20, 255)


Pts = list[tuple[float, float]]


def _shapes(
    d: ImageDraw.ImageDraw,
    polys: list[Pts],
    discs: list[tuple[float, float, float]],
    fill: tuple[int, int, int, int],
    outline: tuple[int, int, int, int],
    w: int,
) -> None:
    """Polygons and discs (unit coordinates scaled already) drawn fat in ``outline``, then filled."""
    for pts in polys:
        _rim(d, pts, outline, w)
    for x, y, r in discs:
        d.ellipse((x - r - w, y - r - w, x + r + w, y + r + w), fill=outline)
    for pts in polys:
        d.polygon(pts, fill=fill)
    for x, y, r in discs:
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _large(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The large follower: the follower's meeple, a third bigger (it counts as two)."""
    return _meeple(style, max(size + 2, round(size * LARGE_SCALE)), lying)


def _builder(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The builder: a narrow figure in a hard hat raising a hammer (never lies down).

    Drawn :data:`BUILDER_SCALE` times a follower's side: it is slim, so this keeps it visible."""
    size = round(size * BUILDER_SCALE)
    big = size * _SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill = (*style.fill, 255)
    rim = _outline_colour(style)
    w = max(2, big // 14)

    def sc(pts: list[tuple[float, float]]) -> Pts:
        return [(x * big, y * big) for x, y in pts]

    # hammer first, so the body's rim separates it from the figure
    handle = sc([(0.56, 0.62), (0.62, 0.66), (0.9, 0.22), (0.84, 0.18)])
    head = sc([(0.7, 0.14), (0.8, 0.04), (0.99, 0.2), (0.89, 0.3)])
    steel = (*HAMMER, 255)
    wood = (150, 96, 44, 255)
    for pts in (handle, head):
        _rim(d, pts, rim, w)
    d.polygon(handle, fill=wood)
    d.polygon(head, fill=steel)
    body = sc(
        [
            (0.3, 0.4),
            (0.58, 0.4),
            (0.7, 0.56),
            (0.62, 0.6),
            (0.56, 0.54),
            (0.6, 0.97),
            (0.28, 0.97),
            (0.32, 0.54),
            (0.2, 0.62),
            (0.14, 0.56),
        ]
    )
    # hard hat: a dome with a wide brim
    hat = sc([(0.22, 0.2), (0.66, 0.2), (0.66, 0.25), (0.22, 0.25)])
    _shapes(d, [body, hat], [(0.44 * big, 0.27 * big, 0.12 * big)], fill, rim, w)
    d.pieslice((0.3 * big, 0.06 * big, 0.58 * big, 0.34 * big), 180, 360, fill=(*style.ink, 255))
    d.rectangle((0.22 * big, 0.19 * big, 0.66 * big, 0.24 * big), fill=(*style.ink, 255))
    draw_mark(d, style.mark, 0.44 * big, 0.7 * big, 0.12 * big, style.ink)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def _pig(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The pig: a pig seen from the side (snout right, curly tail left), seat mark on its flank.

    Drawn :data:`PIG_SCALE` times a follower's side: it is low, so this keeps its area close."""
    size = round(size * PIG_SCALE)
    big = size * _SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill = (*style.fill, 255)
    rim = _outline_colour(style)
    w = max(2, big // 16)

    def sc(pts: list[tuple[float, float]]) -> Pts:
        return [(x * big, y * big) for x, y in pts]

    legs = [sc([(x, 0.62), (x + 0.1, 0.62), (x + 0.1, 0.86), (x, 0.86)]) for x in (0.18, 0.58)]
    ears = [
        sc([(0.68, 0.36), (0.76, 0.2), (0.86, 0.26), (0.84, 0.4)]),
    ]
    snout = sc([(0.9, 0.44), (0.99, 0.46), (0.99, 0.62), (0.9, 0.64)])
    body = sc(
        [
            (0.1, 0.42),
            (0.2, 0.32),
            (0.6, 0.3),
            (0.72, 0.34),
            (0.92, 0.42),
            (0.92, 0.66),
            (0.72, 0.72),
            (0.2, 0.72),
            (0.08, 0.6),
        ]
    )
    # curly tail behind the body
    d.arc(
        (0.0, 0.3 * big, 0.16 * big, 0.46 * big), 90, 360, fill=rim, width=w * 2 + max(2, big // 24)
    )
    d.arc((0.0, 0.3 * big, 0.16 * big, 0.46 * big), 90, 360, fill=fill, width=max(2, big // 24))
    _shapes(d, [*legs, *ears, body, snout], [], fill, rim, w)
    ink = (*style.ink, 255)
    r = big * 0.022
    for nx in (0.935, 0.965):
        d.ellipse((nx * big - r, 0.54 * big - r, nx * big + r, 0.54 * big + r), fill=rim)
    r = big * 0.03
    d.ellipse((0.8 * big - r, 0.44 * big - r, 0.8 * big + r, 0.44 * big + r), fill=ink)
    draw_mark(d, style.mark, 0.44 * big, 0.52 * big, 0.13 * big, style.ink)
    return img.resize((size, size), Image.Resampling.LANCZOS)


#: figure kind -> drawer(style, size px, lying) for kinds beyond the plain follower
FIGURE_DRAWERS: dict[str, Callable[[SeatStyle, int, bool], Image.Image]] = {
    "large": _large,
    "builder": _builder,
    "pig": _pig,
}

#: figures that lie down when they stand on a field
FOLLOWER_KINDS = frozenset({"follower", "large", "abbot"})


@lru_cache(maxsize=512)
def figure_sprite(kind: str, seat: int, size: int, lying: bool = False) -> Image.Image:
    """RGBA sprite of a figure of ``kind`` belonging to ``seat`` (-1 = neutral), ``size`` px.

    Most sprites are ``size`` square; the large follower's is :data:`LARGE_SCALE` times bigger.
    """
    style = seat_style(seat)
    drawer = FIGURE_DRAWERS.get(kind)
    if drawer is not None:
        return drawer(style, size, lying)
    if kind in FOLLOWER_KINDS:
        return _meeple(style, size, lying)
    return _token(style, size, kind[:1].upper())


@lru_cache(maxsize=64)
def goods_icon(kind: str, size: int) -> Image.Image:
    """RGBA icon of a goods token (``wine``, ``grain`` or ``cloth``) on a light tile-like chip,
    drawn with the same art as the symbol printed in cities."""
    from rendering.layout import Symbol
    from rendering.tiles import draw_symbol

    big = size * _SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0, 0, big - 1, big - 1),
        radius=big // 6,
        fill=(*GOODS_CHIP, 255),
        outline=(20, 20, 20, 255),
        width=max(2, big // 20),
    )
    draw_symbol(img, Symbol(kind, (0.5, 0.52), 0.95))
    return img.resize((size, size), Image.Resampling.LANCZOS)
