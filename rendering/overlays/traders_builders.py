"""Traders & Builders: the builder and the pig in seat colour and shape, the goods printed in
cities (the symbol ``goods``: wine, grain or cloth, drawn upright), and the goods tokens each
player holds, on a line of its own in the player's row, with the same art."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from PIL import Image, ImageDraw

from engine.carcassonne.expansions.traders_builders import GOODS
from engine.carcassonne.view import PublicView
from engine.core.seats import Seat
from rendering import style as st
from rendering.cache import MiB, memo
from rendering.figures import SS, draw_mark, outline_colour, rim, shapes
from rendering.layout import Symbol
from rendering.overlays import FigureArt, Overlay, PanelItem, Place, SymbolArt
from rendering.pen import Pen, rel
from rendering.style import SeatStyle

#: the expansion's id (the key of its model in ``view.ext``)
ID = "traders_builders"

#: background of a goods icon: the gold grain, purple wine and blue cloth all show on it
GOODS_CHIP = (120, 150, 90)

#: the builder's hammer head (a blue-grey no tile art and no panel colour uses)
HAMMER = (112, 118, 134)

#: the ears of grain and their stalks
GRAIN = (238, 190, 40)
STALK = (150, 110, 30)
#: size (share of a tile) of a good printed in a city (as big as a shield)
GOODS_SIZE = 0.17

#: side of the pig's and the builder's sprites relative to a follower's
PIG_SCALE = 1.15
BUILDER_SCALE = 1.12

Pts = list[tuple[float, float]]


def draw_builder(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The builder: a narrow figure in a hard hat raising a hammer (never lies down).

    Drawn :data:`BUILDER_SCALE` times a follower's side: it is slim, so this keeps it visible."""
    size = round(size * BUILDER_SCALE)
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill = (*style.fill, 255)
    edge = outline_colour(style)
    w = max(2, big // 14)

    def sc(pts: list[tuple[float, float]]) -> Pts:
        return [(x * big, y * big) for x, y in pts]

    # hammer first, so the body's rim separates it from the figure
    handle = sc([(0.56, 0.62), (0.62, 0.66), (0.9, 0.22), (0.84, 0.18)])
    head = sc([(0.7, 0.14), (0.8, 0.04), (0.99, 0.2), (0.89, 0.3)])
    steel = (*HAMMER, 255)
    wood = (150, 96, 44, 255)
    for pts in (handle, head):
        rim(d, pts, edge, w)
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
    shapes(d, [body, hat], [(0.44 * big, 0.27 * big, 0.12 * big)], fill, edge, w)
    d.pieslice((0.3 * big, 0.06 * big, 0.58 * big, 0.34 * big), 180, 360, fill=(*style.ink, 255))
    d.rectangle((0.22 * big, 0.19 * big, 0.66 * big, 0.24 * big), fill=(*style.ink, 255))
    draw_mark(d, style.mark, 0.44 * big, 0.7 * big, 0.12 * big, style.ink)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def draw_pig(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The pig: a pig seen from the side (snout right, curly tail left), seat mark on its flank.

    Drawn :data:`PIG_SCALE` times a follower's side: it is low, so this keeps its area close."""
    size = round(size * PIG_SCALE)
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill = (*style.fill, 255)
    edge = outline_colour(style)
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
        (0.0, 0.3 * big, 0.16 * big, 0.46 * big),
        90,
        360,
        fill=edge,
        width=w * 2 + max(2, big // 24),
    )
    d.arc((0.0, 0.3 * big, 0.16 * big, 0.46 * big), 90, 360, fill=fill, width=max(2, big // 24))
    shapes(d, [*legs, *ears, body, snout], [], fill, edge, w)
    ink = (*style.ink, 255)
    r = big * 0.022
    for nx in (0.935, 0.965):
        d.ellipse((nx * big - r, 0.54 * big - r, nx * big + r, 0.54 * big + r), fill=edge)
    r = big * 0.03
    d.ellipse((0.8 * big - r, 0.44 * big - r, 0.8 * big + r, 0.44 * big + r), fill=ink)
    draw_mark(d, style.mark, 0.44 * big, 0.52 * big, 0.13 * big, style.ink)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def paint_goods(pen: Pen, sym: Symbol) -> None:
    """A good (``sym.arg``): a bunch of grapes, three ears of grain or a bolt of blue cloth."""
    c, s, k = sym.at, sym.size, sym.arg
    if k == "wine":
        for dx, dy in (
            (-0.2, -0.15),
            (0.0, -0.15),
            (0.2, -0.15),
            (-0.1, 0.05),
            (0.1, 0.05),
            (0.0, 0.25),
        ):
            pen.disc(rel(c, s, [(dx, dy)])[0], s * 0.13, (120, 40, 130), st.DARK, 0.005)
        pen.poly(rel(c, s, [(0.0, -0.3), (0.3, -0.5), (0.15, -0.28)]), (60, 140, 60))
    elif k == "grain":
        for dx in (-0.18, 0.0, 0.18):
            pen.line(rel(c, s, [(dx * 0.4, 0.45), (dx, -0.1)]), STALK, 0.012, False)
            for dy in (-0.38, -0.22, -0.06):
                pen.disc(rel(c, s, [(dx * (1 + dy), dy)])[0], s * 0.08, GRAIN, STALK, 0.004)
    elif k == "cloth":
        pen.rect(
            rel(c, s, [(-0.42, -0.3)])[0],
            rel(c, s, [(0.42, 0.3)])[0],
            (60, 120, 200),
            st.DARK,
            0.008,
        )
        for dy in (-0.15, 0.0, 0.15):
            pen.line(rel(c, s, [(-0.4, dy), (0.4, dy)]), (230, 230, 250), 0.006, False)


@memo("overlay.goods_icon", entries=64, budget=2 * MiB)
def goods_icon(kind: str, size: int) -> Image.Image:
    """RGBA icon of a goods token (``wine``, ``grain`` or ``cloth``) on a light tile-like chip,
    drawn with the same art as the symbol printed in cities."""
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0, 0, big - 1, big - 1),
        radius=big // 6,
        fill=(*GOODS_CHIP, 255),
        outline=(20, 20, 20, 255),
        width=max(2, big // 20),
    )
    paint_goods(Pen(img), Symbol("goods", (0.5, 0.52), 0.95, kind))
    return img.resize((size, size), Image.Resampling.LANCZOS)


def goods_held(view: PublicView) -> tuple[tuple[int, int, int], ...] | None:
    """Goods tokens per seat (wine, grain, cloth) when the match deals goods, else None."""
    model = view.ext.get(ID)
    goods = getattr(model, "goods", None)
    if goods is None or not view.setup.option("tb.goods", True):
        return None
    return tuple((int(g[0]), int(g[1]), int(g[2])) for g in goods)


class TradersBuildersOverlay(Overlay):
    id = ID
    figures = MappingProxyType(
        {
            "builder": FigureArt(draw_builder, order=30),
            "pig": FigureArt(draw_pig, order=40),
        }
    )
    symbols = MappingProxyType(
        {"goods": SymbolArt(paint_goods, Place.FEATURE, GOODS_SIZE, upright=True)}
    )
    words = frozenset({"trader", *GOODS})

    def panel_items(self, view: PublicView, seat: Seat, icon: int) -> Sequence[PanelItem] | None:
        """The goods ``seat`` holds: one icon per kind with its count."""
        goods = goods_held(view)
        if goods is None:
            return None
        held = goods[int(seat)] if 0 <= int(seat) < len(goods) else (0, 0, 0)
        return [(goods_icon(k, icon), held[i]) for i, k in enumerate(GOODS)]


OVERLAY = TradersBuildersOverlay()
