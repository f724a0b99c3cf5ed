"""Abbey & Mayor: the mayor, the wagon and the barn in seat colour and shape, each barn on the
corner where its four tiles meet, and the abbey tiles each player still holds in the panel.

The abbey tile is its symbol ``abbey``, which is the whole tile: stone to the edge, with its
church. Silhouettes are chosen to tell apart at phone size: the mayor is a robed figure in a
top hat, the wagon a cart on two big wheels, the barn a wide house with a pitched roof and a
barn door.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from types import MappingProxyType

from PIL import Image, ImageDraw

from engine.carcassonne.geometry import Position
from engine.carcassonne.view import PublicView
from engine.core.seats import Seat
from rendering import style as st
from rendering.board import figure_size
from rendering.figures import SS, draw_mark, figure_sprite, outline_colour, rim, shapes
from rendering.frame import Frame
from rendering.layout import Symbol
from rendering.overlays import FigureArt, Overlay, PanelItem, Place, SymbolArt
from rendering.pen import Pen, building
from rendering.style import SeatStyle
from rendering.tiles import tile_image

#: the expansion's id (the key of its model in ``view.ext``)
ID = "abbey_mayor"
#: the abbey tile (shown in the panel, as many as a player holds)
ABBEY_TILE = "AM/A"

#: sprite sides relative to a follower's: the wagon and the barn are wide and low
MAYOR_SCALE = 1.2
WAGON_SCALE = 1.25
BARN_SCALE = 1.2

WHEEL = (58, 44, 34, 255)
HUB = (214, 200, 170, 255)

Pts = list[tuple[float, float]]


def _canvas(size: int) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img), big


def draw_mayor(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The mayor: a figure in a long robe, arms at its sides, a tall top hat in the seat's ink
    colour, the seat's mark on the chest (never lies down: it only stands in cities)."""
    size = round(size * MAYOR_SCALE)
    img, d, big = _canvas(size)
    fill = (*style.fill, 255)
    edge = outline_colour(style)
    w = max(2, big // 14)

    def sc(pts: Pts) -> Pts:
        return [(x * big, y * big) for x, y in pts]

    robe = sc([(0.38, 0.4), (0.62, 0.4), (0.74, 0.97), (0.26, 0.97)])
    hat = sc([(0.38, 0.0), (0.62, 0.0), (0.62, 0.2), (0.38, 0.2)])
    brim = sc([(0.29, 0.18), (0.71, 0.18), (0.71, 0.24), (0.29, 0.24)])
    shapes(d, [robe, hat, brim], [(0.5 * big, 0.31 * big, 0.1 * big)], fill, edge, w)
    ink = (*style.ink, 255)
    d.polygon(hat, fill=ink)
    d.polygon(brim, fill=ink)
    # the chain of office
    d.line(sc([(0.4, 0.44), (0.5, 0.56), (0.6, 0.44)]), fill=(238, 190, 40, 255), width=w)
    draw_mark(d, style.mark, 0.5 * big, 0.75 * big, 0.12 * big, style.ink)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def draw_wagon(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The wagon: a cart seen from the side, a box in seat colour with the seat's mark, a shaft
    to the left and two big spoked wheels (never lies down)."""
    size = round(size * WAGON_SCALE)
    img, d, big = _canvas(size)
    fill = (*style.fill, 255)
    edge = outline_colour(style)
    w = max(2, big // 16)

    def sc(pts: Pts) -> Pts:
        return [(x * big, y * big) for x, y in pts]

    shaft = sc([(0.0, 0.56), (0.16, 0.56), (0.16, 0.62), (0.0, 0.62)])
    box = sc([(0.12, 0.34), (0.99, 0.34), (0.93, 0.68), (0.18, 0.68)])
    shapes(d, [shaft, box], [], fill, edge, w)
    d.line(sc([(0.16, 0.45), (0.96, 0.45)]), fill=(*style.ink, 255), width=max(1, w // 2))
    for cx in (0.34, 0.78):
        r = 0.15 * big
        x, y = cx * big, 0.76 * big
        d.ellipse((x - r - w, y - r - w, x + r + w, y + r + w), fill=edge)
        d.ellipse((x - r, y - r, x + r, y + r), fill=WHEEL)
        for k in range(3):
            dx, dy = ((r, 0), (0.5 * r, 0.87 * r), (-0.5 * r, 0.87 * r))[k]
            d.line((x - dx, y - dy, x + dx, y + dy), fill=HUB, width=max(1, w // 2))
        d.ellipse((x - r * 0.3, y - r * 0.3, x + r * 0.3, y + r * 0.3), fill=HUB)
    draw_mark(d, style.mark, 0.56 * big, 0.52 * big, 0.09 * big, style.ink)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def draw_barn(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The barn: a wide house with a steep roof in the seat's ink colour and a big barn door
    with the seat's mark above it (stands on a corner between four tiles)."""
    size = round(size * BARN_SCALE)
    img, d, big = _canvas(size)
    fill = (*style.fill, 255)
    edge = outline_colour(style)
    w = max(2, big // 14)

    def sc(pts: Pts) -> Pts:
        return [(x * big, y * big) for x, y in pts]

    house = sc([(0.18, 0.4), (0.5, 0.02), (0.82, 0.4), (0.82, 0.97), (0.18, 0.97)])
    rim(d, house, edge, w)
    d.polygon(house, fill=fill)
    roof = sc([(0.1, 0.44), (0.5, 0.0), (0.9, 0.44), (0.8, 0.48), (0.5, 0.16), (0.2, 0.48)])
    d.polygon(roof, fill=(*style.ink, 255))
    door = sc([(0.34, 0.62), (0.66, 0.62), (0.66, 0.97), (0.34, 0.97)])
    d.polygon(door, fill=edge)
    inner = sc([(0.38, 0.66), (0.62, 0.66), (0.62, 0.97), (0.38, 0.97)])
    d.polygon(inner, fill=(120, 74, 40, 255))
    d.line(sc([(0.38, 0.66), (0.62, 0.97)]), fill=edge, width=max(1, w // 2))
    d.line(sc([(0.62, 0.66), (0.38, 0.97)]), fill=edge, width=max(1, w // 2))
    draw_mark(d, style.mark, 0.5 * big, 0.45 * big, 0.09 * big, style.ink)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def paint_abbey(pen: Pen, sym: Symbol) -> None:
    """The abbey tile: paved stone to the edge inside a wall, its church in the middle."""
    c = sym.at
    pen.rect((0.0, 0.0), (1.0, 1.0), (214, 204, 180))
    pen.rect((0.04, 0.04), (0.96, 0.96), (214, 204, 180), st.WALL, 0.03)
    pen.rect((0.12, 0.12), (0.88, 0.88), (198, 186, 158))
    building(pen, (c[0], c[1] + 0.06), 0.62, (140, 60, 50), cross=True)


@lru_cache(maxsize=16)
def abbey_icon(size: int) -> Image.Image:
    """The abbey tile as a panel icon, with a dark rim so it shows on the panel."""
    img = Image.new("RGBA", (size, size), (20, 20, 20, 255))
    img.paste(tile_image(ABBEY_TILE, 0, size - 2), (1, 1))
    return img


class AbbeyMayorOverlay(Overlay):
    id = ID
    figures = MappingProxyType(
        {
            "mayor": FigureArt(draw_mayor, follower=True, order=50),
            "wagon": FigureArt(draw_wagon, follower=True, order=60),
            "barn": FigureArt(draw_barn, order=70),
        }
    )
    symbols = MappingProxyType({"abbey": SymbolArt(paint_abbey, Place.WHOLE, 0.8, upright=True)})

    def panel_items(self, view: PublicView, seat: Seat, icon: int) -> Sequence[PanelItem] | None:
        """The abbey tiles ``seat`` still holds (when abbeys are in play)."""
        model = view.ext.get(ID)
        abbeys = getattr(model, "abbeys", None)
        if abbeys is None or not view.setup.option("am.abbey", True):
            return None
        held = abbeys[int(seat)] if 0 <= int(seat) < len(abbeys) else 0
        return [(abbey_icon(icon), int(held))]

    def draw_board(self, img: Image.Image, view: PublicView, frame: Frame) -> None:
        """Each barn on the corner where its four tiles meet (the north-west corner of the cell
        its model names), drawn over the tiles so it reads on all four."""
        model = view.ext.get(ID)
        barns = getattr(model, "barns", ())
        size = figure_size(frame.tile)
        for barn in barns:
            cx, cy = barn.corner
            if not (
                frame.min_x < cx < frame.min_x + frame.cols
                and frame.min_y < cy < frame.min_y + frame.rows
            ):
                continue
            sprite = figure_sprite("barn", int(barn.seat), size)
            x, y = frame.cell_xy(Position(cx, cy))
            img.paste(sprite, (x - sprite.size[0] // 2, y - sprite.size[1] // 2), sprite)


OVERLAY = AbbeyMayorOverlay()
