"""Bridges, Castles & Bazaars: wooden bridges across their tiles (under the figures, so a
follower on a bridge shows), castle tokens on the edge between their two tiles with the follower
standing on top, each player's bridges and castles left in the panel, and the market's tiles in
a strip under the board, lettered as every picker letters them (the tiles still on offer A, B,
…; taken ones dimmed with their owner's colour; the tile on offer framed and named by its
letter over them, with its bid to beat, in the picture's language),
and the market stall printed in the centre of a bazaar tile (the symbol ``bazaar``; the roads
that end at the ``market`` run to it).

Everything comes from the public view: face-down market tiles show as backs, and no sealed bid
is in it (``Expansion.redact``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from PIL import Image, ImageDraw

from engine.carcassonne.geometry import Position
from engine.carcassonne.tiles import FeatureKind, tile
from engine.carcassonne.view import PublicView, TileView
from engine.core import messages
from engine.core.seats import Seat
from rendering import style as st
from rendering.figures import SS, draw_mark, figure_sprite, outline_colour
from rendering.fonts import SPACING, draw_fitted, draw_text, fit_box
from rendering.frame import Frame
from rendering.geometry import CENTRES, GRID, best_point, path_point, turn
from rendering.header import scale_of
from rendering.labels import LabelPlacer, draw_labels
from rendering.layout import Symbol, tile_layout
from rendering.overlays import Overlay, PanelItem, Place, Point, SymbolArt, UnitBox
from rendering.pen import Pen, rel
from rendering.style import seat_style
from rendering.tiles import draw_symbol, tile_image

#: the expansion's id (the key of its model in ``view.ext``)
ID = "bridges_castles_bazaars"

#: planks of a wooden bridge, their dark rims and the railings
PLANK = (176, 128, 74)
PLANK_DARK = (96, 62, 30)
RAIL = (120, 80, 40)
#: a castle token's stone and its shadowed side
KEEP = (196, 196, 204)
KEEP_DARK = (120, 120, 132)
#: side of a market tile in the strip, the gap between two, the strip's padding
MARKET_TILE = 96
MARKET_GAP = 22
PAD = 12
#: radius of a tile's letter (a phone reads it once the picture is shown 400 px wide)
LABEL_R = 16
#: size of the strip's words
STRIP_TEXT = 22


def model_of(view: PublicView) -> Any | None:
    return view.ext.get(ID)


def _letter(i: int) -> str:
    from rendering.marks import spot_letter  # the letters every picker uses

    return spot_letter(i)


# ------------------------------------------------------------------------------ bridges
#: half the width of a bridge (deck and railings), as a share of the tile
DECK = 0.2
#: how far from a bridge's axis a spot's label must stand to keep off the deck
CLEAR = 0.29
#: a figure on a bridge over a building (a cloister, drawn over the deck) stands this far along
#: the deck from its first end, clear of the building
ON_DECK = 0.16


def draw_bridge(
    img: Image.Image,
    x: int,
    y: int,
    size: int,
    axis: str,
    over: Sequence[Symbol] = (),
) -> None:
    """A wooden bridge across the tile at pixel ``(x, y)`` (side ``size``): planks from edge to
    edge along ``axis`` (``NS`` or ``WE``) between two railings. The buildings in ``over``
    (printed on the tile where the bridge crosses it: a cloister) are drawn again on top, so
    the bridge runs on behind them and they stay in sight."""
    big = size * SS
    layer = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    half = big * 0.13
    w = max(2, big // 40)
    # deck from edge to edge, drawn for NS then turned for WE
    d.rectangle((big / 2 - half, 0, big / 2 + half, big), fill=(*PLANK, 255))
    step = big / 9
    for k in range(1, 9):
        d.line(
            (big / 2 - half, k * step, big / 2 + half, k * step), fill=(*PLANK_DARK, 255), width=w
        )
    for side in (-1, 1):
        rx = big / 2 + side * (half + w)
        d.line((rx, 0, rx, big), fill=(*RAIL, 255), width=2 * w)
        d.line((rx + side * w * 1.5, 0, rx + side * w * 1.5, big), fill=(*PLANK_DARK, 255), width=w)
    if axis == "WE":
        layer = layer.rotate(90)
    for sym in over:
        draw_symbol(layer, sym)
    sprite = layer.resize((size, size), Image.Resampling.LANCZOS)
    img.paste(sprite, (x, y), sprite)


def bridges_of(view: PublicView) -> dict[Position, str]:
    """Each bridged tile's position and the bridge's axis."""
    return {b.pos: b.axis for b in getattr(model_of(view), "bridges", ())}


@lru_cache(maxsize=512)
def under_deck(tile_id: str, rotation: int, axis: str) -> tuple[Symbol, ...]:
    """The buildings printed on a tile (turned by ``rotation``) that a bridge along ``axis``
    crosses (a cloister), where they stand on the turned tile: drawn again over the bridge."""
    out = []
    for sym in tile_layout(tile_id).symbols:
        if not sym.upright:  # buildings and figures stand upright; the rest lies flat
            continue
        at = turn(sym.at, rotation)
        if _across(at, axis) < DECK + sym.size / 2:
            out.append(replace(sym, at=at))
    return tuple(out)


def _across(p: Point, axis: str) -> float:
    """How far ``p`` lies from the axis of a bridge (share of the tile)."""
    return abs((p[0] if axis == "NS" else p[1]) - 0.5)


@lru_cache(maxsize=1024)
def off_deck(tile_id: str, rotation: int, feature: int, axis: str, at: Point) -> Point:
    """Where the printed feature ``feature`` of a tile (turned by ``rotation``) shows its
    figure and label when a bridge along ``axis`` covers ``at``: the nearest roomy point of the
    feature clear of the deck (a field's grass beside it, a road's stretch past it), else
    ``at``."""
    if _across(at, axis) >= CLEAR:
        return at
    td = tile(tile_id)
    fd = td.features[feature]
    lay = tile_layout(tile_id)
    if fd.kind is FeatureKind.FIELD:
        mask = [False] * (GRID * GRID)
        for i, lab in enumerate(lay.labels):
            if lab != feature:
                continue
            p = turn(CENTRES[i], rotation)
            if _across(p, axis) >= CLEAR:
                mask[min(GRID - 1, int(p[1] * GRID)) * GRID + min(GRID - 1, int(p[0] * GRID))] = (
                    True
                )
        others = [turn(a, rotation) for k, a in lay.anchors.items() if k != feature]
        return best_point(mask, others, prefer=at, min_gap=0.16) or at
    if fd.kind is FeatureKind.ROAD:
        road = next((r for r in lay.roads if r.feature == feature), None)
        if road is not None:
            for frac in (0.25, 0.75, 0.15, 0.85, 0.1, 0.9):
                p = turn(path_point(road.arms, frac), rotation)
                if _across(p, axis) >= CLEAR:
                    return p
    return at


# ------------------------------------------------------------------------------ bazaar tiles
def paint_market(pen: Pen, sym: Symbol) -> None:
    """A market stall: a wooden counter under a red and white awning, fruit on it."""
    c, s = sym.at, sym.size
    pen.rect(
        rel(c, s, [(-0.42, -0.05)])[0],
        rel(c, s, [(0.42, 0.42)])[0],
        (150, 100, 60),
        st.DARK,
        0.01,
    )
    for i in range(4):
        x0 = -0.5 + i * 0.25
        colour = (220, 40, 40) if i % 2 == 0 else (255, 255, 255)
        pen.poly(
            rel(c, s, [(x0, -0.05), (x0 + 0.25, -0.05), (x0 + 0.2, -0.42), (x0 + 0.05, -0.42)]),
            colour,
            st.DARK,
            0.006,
        )
    pen.disc(rel(c, s, [(-0.18, 0.15)])[0], s * 0.09, (240, 160, 40))
    pen.disc(rel(c, s, [(0.15, 0.15)])[0], s * 0.09, (120, 180, 60))


# ------------------------------------------------------------------------------ castles
@lru_cache(maxsize=64)
def castle_token(size: int, seat: int) -> Image.Image:
    """A castle token: a stone keep with battlements and a banner in its owner's colour."""
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    style = seat_style(seat)
    edge = outline_colour(style)
    w = max(2, big // 22)
    body = (big * 0.14, big * 0.32, big * 0.86, big * 0.94)
    d.rectangle((body[0] - w, body[1] - w, body[2] + w, body[3] + w), fill=edge)
    d.rectangle(body, fill=(*KEEP, 255))
    d.rectangle((big * 0.6, body[1], body[2], body[3]), fill=(*KEEP_DARK, 255))
    merlon = (body[2] - body[0]) / 5
    for k in (0, 2, 4):
        x0 = body[0] + k * merlon
        d.rectangle((x0 - w, big * 0.18 - w, x0 + merlon + w, body[1]), fill=edge)
        d.rectangle((x0, big * 0.18, x0 + merlon, body[1] + w), fill=(*KEEP, 255))
    # gate
    d.pieslice((big * 0.38, big * 0.62, big * 0.62, big * 0.86), 180, 360, fill=(*st.DARK, 255))
    d.rectangle((big * 0.38, big * 0.74, big * 0.62, body[3]), fill=(*st.DARK, 255))
    # banner in the owner's colour with its mark
    d.line((big * 0.5, big * 0.02, big * 0.5, big * 0.2), fill=edge, width=w)
    flag = [(big * 0.5, big * 0.02), (big * 0.82, big * 0.07), (big * 0.5, big * 0.13)]
    d.polygon(flag, fill=(*style.fill, 255), outline=edge)
    draw_mark(d, style.mark, big * 0.3, big * 0.5, big * 0.07, style.fill)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def castle_centre(frame: Frame, tiles: Sequence[Position]) -> tuple[float, float]:
    """The middle of the edge the castle's two tiles share, in pixels."""
    (ax, ay), (bx, by) = (frame.cell_xy(Position(*t)) for t in tiles)
    half = frame.tile / 2
    return ((ax + bx) / 2 + half, (ay + by) / 2 + half)


def _inside(frame: Frame, pos: Position) -> bool:
    return (
        frame.min_x <= pos.x < frame.min_x + frame.cols
        and frame.min_y <= pos.y < frame.min_y + frame.rows
    )


# ------------------------------------------------------------------------------ the strip
def market_strip(view: PublicView, width: int, lang: str = "en") -> Image.Image | None:
    """The market's tiles in a row under the board (see the module docstring), its words in
    ``lang``: the tile on offer is named by the letter drawn under it. Everything scales with
    the picture's width, as the score strip does, so it reads on a phone; the strip's height
    is the same in every language (its words fit one line, smaller if they must)."""
    model = model_of(view)
    market = getattr(model, "market", None)
    if market is None:
        return None
    k = scale_of(width)

    def sc(v: float) -> int:
        return round(v * k)

    n = len(market.tiles)
    side, r = sc(MARKET_TILE), sc(LABEL_R)
    cell = side + sc(MARKET_GAP)
    text_h = sc(STRIP_TEXT * SPACING)
    height = sc(PAD) * 2 + text_h + sc(8) + side + 2 * r + sc(14)
    img = Image.new("RGB", (width, height), st.PANEL)
    d = ImageDraw.Draw(img)
    free = [i for i, o in enumerate(market.owners) if o < 0]
    title = strip_title(view, lang)
    fitted = fit_box(title, width - 2 * sc(PAD), text_h, sc(STRIP_TEXT), bold=True, max_lines=1)
    draw_fitted(img, (sc(PAD), sc(PAD) + text_h / 2), fitted, st.TEXT, anchor="lm")
    y = sc(PAD) + text_h + sc(8)
    x0 = max(sc(PAD), (width - (n * cell - sc(MARKET_GAP))) // 2)
    placer = LabelPlacer((0, 0, width, height))
    for i in range(n):
        x = x0 + i * cell
        if not market.revealed:
            _tile_back(img, x, y, side)
            continue
        pic = tile_image(market.tiles[i], 0, side).convert("RGB")
        owner = market.owners[i]
        if owner >= 0:
            pic = Image.blend(pic, Image.new("RGB", pic.size, st.PANEL), 0.55)
        img.paste(pic, (x, y))
        frame_colour = (250, 220, 90) if i == market.lot else st.TABLE_GRID
        d.rectangle(
            (x - 3, y - 3, x + side + 2, y + side + 2),
            outline=frame_colour,
            width=sc(4) if i == market.lot else 2,
        )
        below = (x + side / 2, y + side + sc(8) + r)
        if owner >= 0:
            style = seat_style(owner)
            cx, cy = below
            d.ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), fill=outline_colour(style))
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=style.fill)
            draw_mark(d, style.mark, cx, cy, r * 0.55, style.ink)
            if market.placed and market.placed[i]:
                d.line(
                    (x + 6, y + 6, x + side - 6, y + side - 6),
                    fill=st.TEXT_DIM,
                    width=3,
                )
        elif i in free:
            placer.place(_letter(free.index(i)), below, r)
    draw_labels(img, placer.placed)
    return img


def strip_title(view: PublicView, lang: str = "en") -> str:
    """The words over the market's tiles in ``lang``: how many lie face down, or the tile on
    offer by the letter under it, the bid to beat and who made it."""
    market = getattr(model_of(view), "market", None)
    if market is None:
        return ""
    n = len(market.tiles)
    if not market.revealed:
        return messages.text("bcb.strip_hidden", lang, n=n)
    title = messages.text("bcb.strip", lang)
    if market.lot >= 0 and market.leader >= 0 and market.owners[market.lot] < 0:
        free = [i for i, o in enumerate(market.owners) if o < 0]
        names = {int(p.seat): p.name for p in view.players}
        lot = messages.text(
            "bcb.strip_lot",
            lang,
            letter=_letter(free.index(market.lot)),
            price=market.price,
            name=names.get(int(market.leader), "?"),
        )
        title = f"{title} — {lot}"
    return title


def _tile_back(img: Image.Image, x: int, y: int, side: int = MARKET_TILE) -> None:
    """A face-down tile: the dark back every tile has."""
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (x, y, x + side, y + side),
        radius=8,
        fill=(70, 60, 52),
        outline=(20, 18, 16),
        width=3,
    )
    draw_text(
        img,
        (x + side / 2, y + side / 2),
        "?",
        round(side * 0.42),
        (150, 140, 128),
        bold=True,
        anchor="mm",
    )


# ------------------------------------------------------------------------------ panel icons
@lru_cache(maxsize=16)
def bridge_icon(size: int) -> Image.Image:
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw_bridge(img, 0, 0, size, "WE")
    return img


class BridgesCastlesBazaarsOverlay(Overlay):
    id = ID
    symbols = MappingProxyType(
        {
            "bazaar": SymbolArt(
                paint_market, Place.CENTRE, 0.26, upright=True, ends=frozenset({"market"})
            )
        }
    )
    words = frozenset({"bridge", "castle", "bazaar", "market"})

    def panel_items(self, view: PublicView, seat: Seat, icon: int) -> Sequence[PanelItem] | None:
        """The bridges and castles ``seat`` has left."""
        model = model_of(view)
        if model is None:
            return None
        items: list[PanelItem] = []
        if view.setup.option("bcb.bridges", True):
            items.append((bridge_icon(icon), int(model.bridges_left[seat])))
        if view.setup.option("bcb.castles", True):
            items.append((castle_token(icon, int(seat)), int(model.castles_left[seat])))
        return items or None

    def draw_under(self, img: Image.Image, view: PublicView, frame: Frame) -> None:
        bridges = bridges_of(view)
        if not bridges:
            return
        for tv in view.tiles:
            axis = bridges.get(tv.pos)
            if axis is not None and _inside(frame, tv.pos):
                x, y = frame.cell_xy(tv.pos)
                over = under_deck(tv.tile, int(tv.rotation), axis)
                draw_bridge(img, x, y, frame.tile, axis, over)

    def anchor(self, view: PublicView, tv: TileView, feature: int, spot: str, at: Point) -> Point:
        """A bridge's own road stands on its deck (off a cloister under its open middle);
        what is printed under the deck (a field, a road) stands beside it."""
        axis = bridges_of(view).get(tv.pos)
        if axis is None:
            return at
        printed = len(tile(tv.tile).features)
        if feature < 0 or feature >= printed:  # the bridge's road
            if not under_deck(tv.tile, int(tv.rotation), axis):
                return at
            return (0.5, ON_DECK) if axis == "NS" else (ON_DECK, 0.5)
        return off_deck(tv.tile, int(tv.rotation), feature, axis, at)

    def covers(self, view: PublicView, tv: TileView) -> Sequence[UnitBox]:
        """The bridge's deck."""
        axis = bridges_of(view).get(tv.pos)
        if axis is None:
            return ()
        lo, hi = 0.5 - DECK, 0.5 + DECK
        return ((lo, 0.0, hi, 1.0),) if axis == "NS" else ((0.0, lo, 1.0, hi),)

    def draw_board(self, img: Image.Image, view: PublicView, frame: Frame) -> None:
        model = model_of(view)
        size = max(12, int(frame.tile * 0.5))
        for c in getattr(model, "castles", ()):
            if not all(_inside(frame, Position(*t)) for t in c.tiles):
                continue
            cx, cy = castle_centre(frame, c.tiles)
            token = castle_token(size, int(c.owner))
            img.paste(token, (int(cx - size / 2), int(cy - size / 2)), token)
            if c.figure:
                fig = figure_sprite(c.figure, int(c.owner), max(10, int(frame.tile * 0.34)))
                img.paste(
                    fig, (int(cx - fig.size[0] / 2), int(cy - size / 2 - fig.size[1] * 0.7)), fig
                )

    def strip(self, view: PublicView, width: int, lang: str = "en") -> Image.Image | None:
        return market_strip(view, width, lang)


OVERLAY = BridgesCastlesBazaarsOverlay()
