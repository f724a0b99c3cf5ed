"""The board picture: tiles, figures, coordinates, last moves, overlays and the side panel.

Everything is drawn from a :class:`~engine.carcassonne.view.PublicView` (never the game state),
so nothing hidden can leak into a channel image.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.tiles import FeatureKind, tile
from engine.carcassonne.view import FigureView, PlayerView, PublicView
from engine.core.seats import Seat
from rendering import style as st
from rendering.figures import draw_mark, figure_sprite, is_follower, kind_order
from rendering.fonts import draw_text, fit_text, text_width

# re-exported: the frame API of board pictures
from rendering.frame import (
    LABEL as LABEL,
)
from rendering.frame import (
    MAX_PIXELS as MAX_PIXELS,
)
from rendering.frame import (
    MAX_SIDE as MAX_SIDE,
)
from rendering.frame import (
    MAX_TILE as MAX_TILE,
)
from rendering.frame import (
    MIN_TILE as MIN_TILE,
)
from rendering.frame import (
    PANEL_W as PANEL_W,
)
from rendering.frame import (
    PNG_LEVEL as PNG_LEVEL,
)
from rendering.frame import (
    Frame as Frame,
)
from rendering.frame import (
    encode_png as encode_png,
)
from rendering.frame import (
    extent as extent,
)
from rendering.frame import (
    frame_for as frame_for,
)
from rendering.layout import spot_anchor
from rendering.overlays import PanelItem, overlays_of
from rendering.tiles import tile_image


def placement_order(
    placements: Mapping[Position, Sequence[Rotation]] | Iterable[Position],
) -> list[Position]:
    """Legal cells in the order they are numbered (1, 2, ...): top to bottom, then left to right.

    The bot numbers its cell choices with this same order, so "cell 3" is the cell labelled 3.
    """
    return sorted((Position(*p) for p in placements), key=lambda p: (p.y, p.x))


def _coords(img: Image.Image, fr: Frame) -> None:
    size = max(10, min(20, int(fr.tile * 0.32)))
    step = max(1, -(-int(2.2 * size) // fr.tile))  # label every cell, or every n-th if tiny
    for i in range(fr.cols):
        x = fr.min_x + i
        if (x - fr.min_x) % step:
            continue
        cx = fr.label + i * fr.tile + fr.tile / 2
        for cy in (fr.label / 2, fr.board_h - fr.label / 2):
            draw_text(img, (cx, cy), str(x), size, st.TEXT_DIM, bold=True, anchor="mm")
    for j in range(fr.rows):
        y = fr.min_y + j
        if (y - fr.min_y) % step:
            continue
        cy = fr.label + j * fr.tile + fr.tile / 2
        for cx in (fr.label / 2, fr.board_w - fr.label / 2):
            draw_text(img, (cx, cy), str(y), size, st.TEXT_DIM, bold=True, anchor="mm")


def _axes(img: Image.Image, fr: Frame) -> None:
    """``x`` over the column numbers and ``y`` beside the row numbers, in the corner."""
    size = max(10, min(16, fr.label // 2))
    draw_text(img, (fr.label * 0.72, fr.label * 0.3), "x", size, st.TEXT, bold=True, anchor="mm")
    draw_text(img, (fr.label * 0.3, fr.label * 0.72), "y", size, st.TEXT, bold=True, anchor="mm")


def _grid(d: ImageDraw.ImageDraw, fr: Frame) -> None:
    x0, y0 = fr.label, fr.label
    x1, y1 = fr.label + fr.cols * fr.tile, fr.label + fr.rows * fr.tile
    for i in range(fr.cols + 1):
        x = x0 + i * fr.tile
        d.line((x, y0, x, y1), fill=st.TABLE_GRID, width=1)
    for j in range(fr.rows + 1):
        y = y0 + j * fr.tile
        d.line((x0, y, x1, y), fill=st.TABLE_GRID, width=1)


def figure_size(tile_px: int) -> int:
    """Side of a follower sprite on tiles of ``tile_px`` (other kinds scale from it)."""
    return max(10, int(tile_px * 0.34))


#: how far (share of a tile) a second figure on one feature stands from the first
CROWD_STEP = 0.3


@dataclass(frozen=True, slots=True)
class PlacedSprite:
    """A figure as a picture draws it: its sprite and the sprite's top-left pixel."""

    figure: FigureView
    sprite: Image.Image
    at: tuple[int, int]

    @property
    def centre(self) -> tuple[float, float]:
        return (self.at[0] + self.sprite.size[0] / 2, self.at[1] + self.sprite.size[1] / 2)


def draw_tiles_and_figures(
    img: Image.Image, view: PublicView, fr: Frame, *, skip: Position | None = None
) -> list[PlacedSprite]:
    """Paste every tile of ``view`` inside ``fr`` and its figures on top; returns where each
    figure was drawn (pictures of figure targets ring them there)."""
    T = fr.tile
    inside = range(fr.min_x, fr.min_x + fr.cols), range(fr.min_y, fr.min_y + fr.rows)
    rotations: dict[Position, tuple[str, Rotation]] = {}
    for tv in view.tiles:
        if tv.pos.x not in inside[0] or tv.pos.y not in inside[1] or tv.pos == skip:
            continue
        rotations[tv.pos] = (tv.tile, tv.rotation)
        img.paste(tile_image(tv.tile, int(tv.rotation), T), fr.cell_xy(tv.pos))
    for ov in overlays_of(view):
        ov.draw_under(img, view, fr)
    placed = place_figures(view, fr, rotations)
    # followers last, so no other figure ever hides one
    for ps in sorted(placed, key=lambda ps: is_follower(ps.figure.figure)):
        img.paste(ps.sprite, ps.at, ps.sprite)
    return placed


def place_figures(
    view: PublicView, fr: Frame, rotations: Mapping[Position, tuple[str, Rotation]]
) -> list[PlacedSprite]:
    """Where each figure on the tiles of ``rotations`` stands: a follower on its feature's
    anchor, a second figure on the same feature :data:`CROWD_STEP` aside; always on its tile."""
    T = fr.tile
    fsize = figure_size(T)
    groups: dict[tuple[Position, int], list[FigureView]] = {}
    for fig in view.figures:
        if fig.pos in rotations:
            groups.setdefault((fig.pos, fig.feature), []).append(fig)
    out: list[PlacedSprite] = []
    for (pos, feature), figs in groups.items():
        tid, rot = rotations[pos]
        tdef = tile(tid)
        ax, ay = spot_anchor(tdef, int(rot), feature)
        kind = tdef.features[feature].kind if feature < len(tdef.features) else None
        x, y = fr.cell_xy(pos)
        # followers keep the anchor; other figures on the same feature stand beside them
        for n, fig in enumerate(sorted(figs, key=lambda f: not is_follower(f.figure))):
            fx, fy = ax, ay
            if n:
                fx += CROWD_STEP * (1 if ax < 0.6 else -1) * ((n + 1) // 2) * (1 if n % 2 else -1)
            lying = kind is FeatureKind.FIELD and is_follower(fig.figure)
            sprite = figure_sprite(fig.figure, int(fig.seat), fsize, lying)
            # keep the whole figure on its own tile
            lo = max(0.18, sprite.size[0] / 2 / T)
            fx, fy = min(max(fx, lo), 1 - lo), min(max(fy, lo), 1 - lo)
            at = (int(x + fx * T - sprite.size[0] / 2), int(y + fy * T - sprite.size[1] / 2))
            out.append(PlacedSprite(fig, sprite, at))
    return out


def _outline(
    d: ImageDraw.ImageDraw, fr: Frame, pos: Position, colour: st.RGB, width: int, inset: int = 0
) -> None:
    x, y = fr.cell_xy(pos)
    T = fr.tile
    d.rectangle(
        (x + inset, y + inset, x + T - 1 - inset, y + T - 1 - inset), outline=colour, width=width
    )


def draw_last_placed(d: ImageDraw.ImageDraw, view: PublicView, fr: Frame) -> None:
    """Outline the last tile each player placed in that player's colour."""
    w = max(2, fr.tile // 22)
    for seat, pos in sorted(view.last_placed.items()):
        if fr.min_x <= pos.x < fr.min_x + fr.cols and fr.min_y <= pos.y < fr.min_y + fr.rows:
            fill = st.seat_style(int(seat)).fill
            # a contrasting rim so dark colours show on the dark table and light ones on tiles
            rim = (235, 235, 235) if sum(fill) < 160 else (20, 20, 20)
            _outline(d, fr, pos, rim, w + 2)
            _outline(d, fr, pos, fill, w, inset=1)


def draw_cell_number(
    img: Image.Image, xy: tuple[int, int], tile_px: int, text: str, dots: int = 0
) -> None:
    """An empty cell offered as a choice: a slate box in a yellow frame with ``text`` in big
    white figures, and ``dots`` yellow dots under it (e.g. its count of legal rotations)."""
    d = ImageDraw.Draw(img)
    T = tile_px
    x, y = xy
    d.rectangle(
        (x + 2, y + 2, x + T - 3, y + T - 3),
        fill=CELL_FILL,
        outline=CELL_FRAME,
        width=max(2, T // 32),
    )
    size = max(10, int(T * 0.36))
    while size > 10 and text_width(text, size, bold=True) > T * 0.84:
        size -= 1
    draw_text(
        img,
        (x + T / 2, y + T * (0.44 if dots else 0.5)),
        text,
        size,
        (255, 255, 255),
        bold=True,
        anchor="mm",
        stroke=max(1, T // 40),
        stroke_fill=(20, 20, 20),
    )
    r = max(2, T // 22)
    gap = r * 3
    cx0 = x + T / 2 - (dots - 1) * gap / 2
    cy = y + T * 0.8
    for i in range(dots):
        cx = cx0 + i * gap
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CELL_FRAME)


#: an offered empty cell: its fill and its frame
CELL_FILL = (86, 96, 112)
CELL_FRAME = (250, 220, 90)


def draw_placements(
    img: Image.Image, fr: Frame, placements: Mapping[Position, Sequence[Rotation]]
) -> None:
    """Number every legal cell (in :func:`placement_order`) and show its count of rotations."""
    for n, pos in enumerate(placement_order(placements), start=1):
        draw_cell_number(img, fr.cell_xy(pos), fr.tile, str(n), len(placements[pos]))


#: height of one player's row in the panel, and of each extra line an overlay adds (goods ...)
ROW_H = 60
LINE_H = 28


def panel_lines(view: PublicView, seat: Seat, icon: int) -> list[Sequence[PanelItem]]:
    """The extra lines of ``seat``'s row: one per expansion overlay that shows one in ``view``."""
    out = []
    for ov in overlays_of(view):
        items = ov.panel_items(view, seat, icon)
        if items is not None:
            out.append(items)
    return out


def row_height(view: PublicView) -> int:
    """Height of one player's row: name and figures left, plus the overlays' extra lines."""
    if not view.players:
        return ROW_H
    return ROW_H + LINE_H * len(panel_lines(view, view.players[0].seat, ICON))


def panel_height(view: PublicView) -> int:
    return 70 + row_height(view) * len(view.players) + 60 + (190 if view.drawn else 0)


def draw_panel(img: Image.Image, view: PublicView, x0: int, width: int = PANEL_W) -> None:
    """Players (colour, shape, name, score, followers left), tiles left, turn and current tile."""
    d = ImageDraw.Draw(img)
    d.rectangle((x0, 0, x0 + width, img.size[1]), fill=st.PANEL)
    pad = 14
    y = pad
    title = "Game over" if view.over else f"Turn {view.turn + 1}"
    draw_text(img, (x0 + pad, y), title, 24, st.TEXT, bold=True)
    y += 40
    for p in view.players:
        _player_row(img, view, p, x0, y, width)
        y += row_height(view)
    y += 8
    draw_text(img, (x0 + pad, y), f"Tiles left: {view.tiles_left}", 18, st.TEXT)
    y += 34
    if view.drawn and not view.over:
        who = next((p.name for p in view.players if p.seat == view.current), "")
        label = fit_text(f"Current tile ({who})", width - 2 * pad, 16)
        draw_text(img, (x0 + pad, y), label, 16, st.TEXT_DIM)
        y += 24
        size = 128
        d.rectangle(
            (x0 + pad - 3, y - 3, x0 + pad + size + 2, y + size + 2),
            outline=(250, 220, 90),
            width=3,
        )
        img.paste(tile_image(view.drawn, 0, size), (x0 + pad, y))
        draw_text(img, (x0 + pad + size + 12, y + 4), view.drawn, 16, st.TEXT, bold=True)


#: height reserved for the strip when sizing tiles (the real one may differ a little)
STRIP_EST = 180
_STRIP_LEFT = 250
_STRIP_COL = 270


def strip_height(view: PublicView, width: int) -> int:
    per_row = max(1, (width - _STRIP_LEFT) // _STRIP_COL)
    rows = -(-len(view.players) // per_row)
    return max(STRIP_EST, 24 + rows * row_height(view))


def figure_kinds(supply: Mapping[str, int]) -> list[str]:
    """The kinds in a player's supply in the order pictures list them."""
    return kind_order(supply)


#: side of the small figure and goods icons in a player's row
ICON = 24


def draw_counts(
    img: Image.Image,
    items: Sequence[tuple[Image.Image, int]],
    x: int,
    y: int,
    right: int,
    *,
    icon: int = ICON,
    text: int = 16,
) -> int:
    """Icons each followed by its count, left to right from ``x`` with their bottoms at ``y``
    (counts centred on an ``icon``-high line); stops before ``right``. Returns the x after the
    last item drawn."""
    for pic, n in items:
        w = pic.size[0] + 3 + int(text_width(str(n), text, bold=True))
        if x + w > right:
            break
        img.paste(pic, (x, y - pic.size[1]), pic)
        colour = st.TEXT if n else st.TEXT_DIM
        draw_text(
            img, (x + pic.size[0] + 3, y - icon // 2), str(n), text, colour, bold=True, anchor="lm"
        )
        x += w + 10
    return x


def _player_row(
    img: Image.Image, view: PublicView, p: PlayerView, x0: int, y: int, width: int
) -> None:
    """One player: figure in colour and shape, name, score; the figures left by kind (icon and
    count); then a line per expansion overlay that adds one (e.g. goods held)."""
    d = ImageDraw.Draw(img)
    style = st.seat_style(int(p.seat))
    lines = panel_lines(view, p.seat, ICON)
    h = ROW_H + LINE_H * len(lines)
    if not view.over and p.seat == view.current:
        d.rounded_rectangle((x0 + 4, y - 2, x0 + width - 4, y + h - 8), radius=8, fill=(64, 70, 82))
        d.polygon([(x0 + 6, y + 12), (x0 + 14, y + 21), (x0 + 6, y + 30)], fill=(250, 220, 90))
    sprite = figure_sprite("follower", int(p.seat), 38)
    img.paste(sprite, (x0 + 16, y + 2), sprite)
    draw_text(img, (x0 + 60, y + 2), fit_text(p.name, width - 130, 19), 19, st.TEXT)
    draw_text(img, (x0 + width - 14, y + 8), str(p.score), 22, st.TEXT, bold=True, anchor="ra")
    if p.seat in set(view.winners):
        draw_mark(d, st.Mark.STAR, x0 + width - 64, y + 22, 10, (250, 200, 40))
    # figures left: the colour's name (for colour-blind players), then one icon per kind
    base = y + 54
    right = x0 + width - 8
    figures = [(figure_sprite(k, int(p.seat), ICON), p.supply[k]) for k in figure_kinds(p.supply)]
    need = sum(i.size[0] + 13 + int(text_width(str(n), 16, bold=True)) for i, n in figures)
    x = x0 + 60
    name_w = int(text_width(style.colour_name, 14)) + 10
    if x + name_w + need <= right:
        draw_text(img, (x, base - ICON // 2), style.colour_name, 14, st.TEXT_DIM, anchor="lm")
        x += name_w
    draw_counts(img, figures, x, base, right)
    for i, items in enumerate(lines, start=1):
        draw_counts(img, items, x0 + 60, base + i * LINE_H, right)


def draw_strip(img: Image.Image, view: PublicView, y0: int) -> None:
    """The panel as a strip under a wide board: turn, tiles left, current tile, then players."""
    d = ImageDraw.Draw(img)
    width = img.size[0]
    d.rectangle((0, y0, width, img.size[1]), fill=st.PANEL)
    pad = 14
    title = "Game over" if view.over else f"Turn {view.turn + 1}"
    draw_text(img, (pad, y0 + pad), title, 22, st.TEXT, bold=True)
    draw_text(img, (pad, y0 + pad + 32), f"Tiles left: {view.tiles_left}", 16, st.TEXT)
    if view.drawn and not view.over:
        size = 96
        ty = y0 + pad + 60
        if ty + size <= img.size[1]:
            d.rectangle(
                (pad - 3, ty - 3, pad + size + 2, ty + size + 2), outline=(250, 220, 90), width=3
            )
            img.paste(tile_image(view.drawn, 0, size), (pad, ty))
            draw_text(img, (pad + size + 8, ty + 2), view.drawn, 14, st.TEXT, bold=True)
    per_row = max(1, (width - _STRIP_LEFT) // _STRIP_COL)
    for i, p in enumerate(view.players):
        x = _STRIP_LEFT + (i % per_row) * _STRIP_COL
        y = y0 + pad + (i // per_row) * row_height(view)
        _player_row(img, view, p, x, y, _STRIP_COL - 6)


def board_frame(
    view: PublicView,
    *,
    placements: Mapping[Position, Sequence[Rotation]] | None = None,
    highlight: Position | None = None,
    panel: bool = True,
) -> Frame:
    """The frame :func:`render_board` uses: occupied cells plus a one-cell margin."""
    box = extent(tv.pos for tv in view.tiles)
    extra = [Position(*p) for p in placements or ()]
    if highlight is not None:
        extra.append(highlight)
    if extra:  # legal cells lie in the margin already; grow only if one does not
        box = (
            min([box[0], *(p.x for p in extra)]),
            min([box[1], *(p.y for p in extra)]),
            max([box[2], *(p.x for p in extra)]),
            max([box[3], *(p.y for p in extra)]),
        )
    # bigger boards may use more pixels (up to ~4 Mpx at 200 tiles) so tiles stay readable
    budget = min(2 * MAX_PIXELS, MAX_PIXELS + max(0, len(view.tiles) - 72) * 14_000)
    cols, rows = box[2] - box[0] + 1, box[3] - box[1] + 1
    # room for the overlays' strips under the board (a market's tiles)
    side = MAX_SIDE - sum(
        pic.size[1] for ov in overlays_of(view) if (pic := ov.strip(view, MAX_SIDE)) is not None
    )
    if panel and cols >= 9 and cols >= 1.6 * rows:  # wide board: the panel becomes a strip
        return frame_for(box, panel=0, strip=STRIP_EST, max_pixels=budget, max_side=side)
    return frame_for(box, panel=PANEL_W if panel else 0, max_pixels=budget, max_side=side)


def board_image(
    view: PublicView,
    *,
    placements: Mapping[Position, Sequence[Rotation]] | None = None,
    highlight: Position | None = None,
    frame: Frame | None = None,
    panel: bool = True,
) -> Image.Image:
    """The board picture as an RGB image (see :func:`render_board`)."""
    if frame is None:
        frame = board_frame(view, placements=placements, highlight=highlight, panel=panel)
    fr = frame
    if panel and fr.strip:
        width = fr.board_w
        height = fr.board_h + strip_height(view, width)
    else:
        width = fr.board_w + (PANEL_W if panel else 0)
        height = max(fr.board_h, panel_height(view) if panel else 0)
    strips = [pic for ov in overlays_of(view) if (pic := ov.strip(view, width)) is not None]
    below = sum(pic.size[1] for pic in strips)
    img = Image.new("RGB", (width, height + below), st.TABLE)
    d = ImageDraw.Draw(img)
    _grid(d, fr)
    _coords(img, fr)
    _axes(img, fr)
    draw_tiles_and_figures(img, view, fr)
    for ov in overlays_of(view):
        ov.draw_board(img, view, fr)
    draw_last_placed(d, view, fr)
    if highlight is not None:
        _outline(
            d, fr, highlight, (255, 255, 255), max(2, fr.tile // 20), inset=max(2, fr.tile // 14)
        )
    if placements:
        draw_placements(img, fr, placements)
    if panel and fr.strip:
        draw_strip(img, view, fr.board_h)
    elif panel:
        draw_panel(img, view, fr.board_w)
    y = height
    for pic in strips:  # overlays' strips under everything (a market's tiles)
        img.paste(pic, (0, y))
        y += pic.size[1]
    return img


def render_board(
    view: PublicView,
    *,
    placements: Mapping[Position, Sequence[Rotation]] | None = None,
    highlight: Position | None = None,
) -> bytes:
    """PNG of the board: the occupied area plus a one-cell margin, coordinates on every edge,
    each player's last tile outlined in their colour, figures, and the side panel.

    With ``placements`` (legal cell -> legal rotations) every legal cell is numbered in
    :func:`placement_order` with one dot per legal rotation. ``highlight`` outlines one cell.
    """
    return encode_png(board_image(view, placements=placements, highlight=highlight))
