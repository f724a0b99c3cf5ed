"""The board picture: the score strip on top, then tiles, figures, last moves and overlays.

Everything is drawn from a :class:`~engine.carcassonne.view.PublicView` (never the game state),
so nothing hidden can leak into a channel image.

Made for a phone (a Discord picture is shown about 400 px wide): the turn picture is
:data:`TURN_WIDTH` px wide whatever the board, with the players' scores in big figures in a
compact header (:mod:`rendering.header`) and the board cropped to the region that matters this
turn — every player's last tile, the legal cells, the tile just placed and what just scored
(:func:`focus_box`). ``whole=True`` draws the whole map (``/carcassonne board``); the final
board is always whole, keeps the figures final scoring took off, outlines each scored feature
in its owner's colour and adds the per-player breakdown (:mod:`rendering.final`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.carcassonne.events import Event
from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.scoring import Award
from engine.carcassonne.tiles import FeatureKind, tile
from engine.carcassonne.view import FigureView, PublicView, TileView
from rendering import style as st
from rendering.cache import paste
from rendering.figures import draw_mark, figure_sprite, is_follower
from rendering.fonts import draw_text, readable_size, text_width
from rendering.frame import (
    LABEL,
    MAX_PIXELS,
    MAX_SIDE,
    MAX_TILE,
    Frame,
    encode_png,
    extent,
    frame_for,
)

# re-exported: the frame API of board pictures, and the header's helpers
from rendering.frame import MIN_TILE as MIN_TILE
from rendering.frame import PANEL_W as PANEL_W
from rendering.frame import PNG_LEVEL as PNG_LEVEL
from rendering.header import ICON as ICON
from rendering.header import LINE_H as LINE_H
from rendering.header import HeaderLayout, draw_header, header_layout
from rendering.header import draw_counts as draw_counts
from rendering.header import figure_kinds as figure_kinds
from rendering.header import panel_lines as panel_lines
from rendering.layout import spot_anchor
from rendering.overlays import overlays_of

# re-exported: which cells a picture shows
from rendering.region import MIN_COLS as MIN_COLS
from rendering.region import MIN_ROWS as MIN_ROWS
from rendering.region import MIN_WIDTH as MIN_WIDTH
from rendering.region import TURN_BOARD_H as TURN_BOARD_H
from rendering.region import TURN_TILE as TURN_TILE
from rendering.region import TURN_WIDTH as TURN_WIDTH
from rendering.region import OffMark, draw_off_picture
from rendering.region import board_frame as board_frame
from rendering.region import focus_box as focus_box
from rendering.region import overlay_strips as overlay_strips
from rendering.scored import Scored, draw_points, draw_scored, final_figures, find_scored, scorings
from rendering.tiles import tile_image

__all__ = [
    "LABEL",
    "MAX_PIXELS",
    "MAX_SIDE",
    "MAX_TILE",
    "BoardPicture",
    "Frame",
    "board_frame",
    "board_image",
    "board_picture",
    "encode_png",
    "extent",
    "frame_for",
    "placement_order",
    "render_board",
]


def placement_order(
    placements: Mapping[Position, Sequence[Rotation]] | Iterable[Position],
) -> list[Position]:
    """Legal cells in the order they are numbered (1, 2, ...): top to bottom, then left to right.

    The bot numbers its cell choices with this same order, so "cell 3" is the cell labelled 3.
    """
    return sorted((Position(*p) for p in placements), key=lambda p: (p.y, p.x))


# ---------------------------------------------------------------------------- board layers
def coord_size(tile_px: int) -> int:
    """Font size (bold) of the coordinates round a board of ``tile_px`` tiles."""
    return max(10, min(20, int(tile_px * 0.3)))


def corner_size(label: int) -> int:
    """Font size (bold) of the "x" and "y" in the corner of a coordinate margin ``label`` wide."""
    return max(10, min(16, label // 2))


def cell_number_size(tile_px: int) -> int:
    """Font size (bold) of an offered cell's number, before it shrinks to fit its cell."""
    return max(10, int(tile_px * 0.42))


def _coords(img: Image.Image, fr: Frame) -> None:
    size = coord_size(fr.tile)
    step = max(1, -(-int(2.2 * size) // fr.tile))  # label every cell, or every n-th if tiny
    x0, y0 = fr.left, fr.top
    for i in range(0, fr.cols, step):
        cx = x0 + fr.label + i * fr.tile + fr.tile / 2
        for cy in (y0 + fr.label / 2, y0 + fr.board_h - fr.label / 2):
            draw_text(img, (cx, cy), str(fr.min_x + i), size, st.TEXT_DIM, bold=True, anchor="mm")
    for j in range(0, fr.rows, step):
        cy = y0 + fr.label + j * fr.tile + fr.tile / 2
        for cx in (x0 + fr.label / 2, x0 + fr.board_w - fr.label / 2):
            draw_text(img, (cx, cy), str(fr.min_y + j), size, st.TEXT_DIM, bold=True, anchor="mm")
    # "x" over the column numbers and "y" beside the row numbers, in the corner
    s = corner_size(fr.label)
    draw_text(
        img, (x0 + fr.label * 0.72, y0 + fr.label * 0.3), "x", s, st.TEXT, bold=True, anchor="mm"
    )
    draw_text(
        img, (x0 + fr.label * 0.3, y0 + fr.label * 0.72), "y", s, st.TEXT, bold=True, anchor="mm"
    )


def _grid(d: ImageDraw.ImageDraw, fr: Frame) -> None:
    x0, y0 = fr.cell_xy(Position(fr.min_x, fr.min_y))
    x1, y1 = x0 + fr.cols * fr.tile, y0 + fr.rows * fr.tile
    for i in range(fr.cols + 1):
        d.line((x0 + i * fr.tile, y0, x0 + i * fr.tile, y1), fill=st.TABLE_GRID, width=1)
    for j in range(fr.rows + 1):
        d.line((x0, y0 + j * fr.tile, x1, y0 + j * fr.tile), fill=st.TABLE_GRID, width=1)


def figure_size(tile_px: int) -> int:
    """Side of a follower sprite on tiles of ``tile_px`` (other kinds scale from it)."""
    return max(10, int(tile_px * 0.36))


#: how far (share of a tile) a second figure on one feature stands from the first
CROWD_STEP = 0.3


def anchor_on(view: PublicView, tv: TileView, feature: int, spot: str) -> tuple[float, float]:
    """Where a figure on ``spot`` (feature ``feature``; ``-1`` or past the printed features for
    one an expansion laid on the tile) of the tile ``tv`` stands and that spot's label goes, in
    unit tile coordinates: the layout's anchor (the tile's middle for a laid feature), moved by
    any overlay that lays something there (:meth:`rendering.overlays.Overlay.anchor`)."""
    at = spot_anchor(tile(tv.tile), int(tv.rotation), feature)
    for ov in overlays_of(view):
        at = ov.anchor(view, tv, feature, spot, at)
    return at


@dataclass(frozen=True, slots=True)
class PlacedSprite:
    """A figure as a picture draws it: its sprite and the sprite's top-left pixel."""

    figure: FigureView
    sprite: Image.Image
    at: tuple[int, int]

    @property
    def centre(self) -> tuple[float, float]:
        return (self.at[0] + self.sprite.size[0] / 2, self.at[1] + self.sprite.size[1] / 2)


#: a box of pixels ``(x0, y0, x1, y1)``, ``x1`` and ``y1`` excluded (Pillow's crop boxes)
Box = tuple[int, int, int, int]


def meets(box: Box | None, x: int, y: int, w: int, h: int) -> bool:
    """Whether the ``w`` × ``h`` rectangle at (``x``, ``y``) meets ``box`` (any, when None)."""
    return box is None or (x < box[2] and y < box[3] and x + w > box[0] and y + h > box[1])


def draw_tiles(
    img: Image.Image,
    view: PublicView,
    fr: Frame,
    *,
    skip: Position | None = None,
    within: Box | None = None,
) -> dict[Position, tuple[str, Rotation]]:
    """Paste every tile of ``view`` inside ``fr`` (only those that meet ``within``, if given);
    returns every tile inside ``fr``."""
    rotations: dict[Position, tuple[str, Rotation]] = {}
    T = fr.tile
    for tv in view.tiles:
        if not fr.contains(tv.pos) or tv.pos == skip:
            continue
        rotations[tv.pos] = (tv.tile, tv.rotation)
        x, y = fr.cell_xy(tv.pos)
        if meets(within, x, y, T, T):
            paste(img, tile_image(tv.tile, int(tv.rotation), T), (x, y))
    for ov in overlays_of(view):  # what lies on the tiles, under the figures (a bridge)
        ov.draw_under(img, view, fr)
    return rotations


def draw_figures(
    img: Image.Image,
    view: PublicView,
    fr: Frame,
    rotations: Mapping[Position, tuple[str, Rotation]],
    *,
    placed: Sequence[PlacedSprite] | None = None,
    within: Box | None = None,
) -> list[PlacedSprite]:
    """Paste the figures on the tiles of ``rotations`` (or those ``placed`` already), followers
    last (never hidden); with ``within``, only the sprites that meet that box."""
    if placed is None:
        placed = place_figures(view, fr, rotations)
    for ps in sorted(placed, key=lambda ps: is_follower(ps.figure.figure)):
        if meets(within, *ps.at, *ps.sprite.size):
            paste(img, ps.sprite, ps.at, ps.sprite)
    return list(placed)


def draw_tiles_and_figures(
    img: Image.Image, view: PublicView, fr: Frame, *, skip: Position | None = None
) -> list[PlacedSprite]:
    """Paste every tile of ``view`` inside ``fr`` and its figures on top; returns where each
    figure was drawn (pictures of figure targets ring them there)."""
    return draw_figures(img, view, fr, draw_tiles(img, view, fr, skip=skip))


def place_figures(
    view: PublicView, fr: Frame, rotations: Mapping[Position, tuple[str, Rotation]]
) -> list[PlacedSprite]:
    """Where each figure on the tiles of ``rotations`` stands: a follower on its feature's
    anchor, a second figure on the same feature :data:`CROWD_STEP` aside; always wholly on its
    tile (never cut by a tile edge or a frame)."""
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
        ax, ay = anchor_on(view, TileView(pos, tid, rot), feature, figs[0].spot)
        kind = tdef.features[feature].kind if feature < len(tdef.features) else None
        x, y = fr.cell_xy(pos)
        # followers keep the anchor; other figures on the same feature stand beside them
        for n, fig in enumerate(sorted(figs, key=lambda f: not is_follower(f.figure))):
            fx, fy = ax, ay
            if n:
                fx += CROWD_STEP * (1 if ax < 0.6 else -1) * ((n + 1) // 2) * (1 if n % 2 else -1)
            lying = kind is FeatureKind.FIELD and is_follower(fig.figure)
            sprite = figure_sprite(fig.figure, int(fig.seat), fsize, lying)
            # keep the whole figure on its own tile, clear of the frames on the tile's border
            margin = max(3, T // 16)
            lo_x = (sprite.size[0] / 2 + margin) / T
            lo_y = (sprite.size[1] / 2 + margin) / T
            fx = min(max(fx, lo_x), 1 - lo_x) if lo_x < 0.5 else 0.5
            fy = min(max(fy, lo_y), 1 - lo_y) if lo_y < 0.5 else 0.5
            at = (int(x + fx * T - sprite.size[0] / 2), int(y + fy * T - sprite.size[1] / 2))
            out.append(PlacedSprite(fig, sprite, at))
    return out


def last_placed_width(tile_px: int) -> int:
    """Width of the seat-coloured band round a player's last tile."""
    return max(3, tile_px // 18)


def draw_last_placed(
    d: ImageDraw.ImageDraw, view: PublicView, fr: Frame, *, within: Box | None = None
) -> None:
    """Outline the last tile each player placed: a band of the player's colour between a light
    and a dark rim (so black shows on the dark table and yellow on the tiles), and a corner
    flag with the seat's shape — nothing like the plain frame of an offered cell. Everything
    stays on the tile's cell; with ``within``, only the cells that meet that box."""
    w = last_placed_width(fr.tile)
    T = fr.tile
    for seat, pos in sorted(view.last_placed.items()):
        if not fr.contains(pos):
            continue
        style = st.seat_style(int(seat))
        x, y = fr.cell_xy(pos)
        if not meets(within, x, y, T, T):
            continue
        box = (x, y, x + T - 1, y + T - 1)
        d.rectangle(box, outline=(245, 245, 245), width=w + 2)
        d.rectangle((x + 1, y + 1, x + T - 2, y + T - 2), outline=style.fill, width=w)
        d.rectangle(
            (x + w + 1, y + w + 1, x + T - w - 2, y + T - w - 2), outline=(20, 20, 20), width=1
        )
        flag = max(12, T // 4)
        d.polygon([(x, y), (x + flag + 2, y), (x, y + flag + 2)], fill=(20, 20, 20))
        d.polygon([(x, y), (x + flag, y), (x, y + flag)], fill=style.fill)
        draw_mark(d, style.mark, x + flag * 0.3, y + flag * 0.3, flag * 0.17, style.ink)


#: an offered empty cell: its fill and its frame (light blue: no seat colour is like it, so a
#: player's last tile never looks like a cell on offer)
CELL_FILL = (86, 96, 112)
CELL_FRAME = (120, 214, 250)


def draw_cell_number(
    img: Image.Image, xy: tuple[int, int], tile_px: int, text: str, dots: int = 0
) -> None:
    """An empty cell offered as a choice: a slate box in a light blue frame with ``text`` in
    big white figures, and ``dots`` dots under it (e.g. its count of legal rotations). The
    figures are never smaller than a phone can read once the picture (``img``) is shown 400 px
    wide (:func:`rendering.fonts.readable_size`): on small cells they fill the cell, and the
    dots go when they would cover them."""
    d = ImageDraw.Draw(img)
    T = tile_px
    x, y = xy
    d.rectangle(
        (x + 2, y + 2, x + T - 3, y + T - 3),
        fill=CELL_FILL,
        outline=CELL_FRAME,
        width=max(2, T // 32),
    )
    least = readable_size(img.size[0])
    size = max(cell_number_size(T), least)
    room = T * 0.84 if size <= cell_number_size(T) else T * 0.92
    while size > 10 and size > least and text_width(text, size, bold=True) > room:
        size -= 1
    if size > T * 0.5:  # the figures fill the cell: no room left for the dots
        dots = 0
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
    cy = y + T * 0.82
    for i in range(dots):
        cx = cx0 + i * gap
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CELL_FRAME)


def draw_placements(
    img: Image.Image,
    fr: Frame,
    placements: Mapping[Position, Sequence[Rotation]],
    *,
    within: Box | None = None,
) -> None:
    """Number every legal cell (in :func:`placement_order`) and show its count of rotations
    (each drawn on its own cell; with ``within``, only the cells that meet that box)."""
    for n, pos in enumerate(placement_order(placements), start=1):
        if fr.contains(pos):
            x, y = fr.cell_xy(pos)
            if meets(within, x, y, fr.tile, fr.tile):
                draw_cell_number(img, (x, y), fr.tile, str(n), len(placements[pos]))


# ---------------------------------------------------------------------------- the board part
def board_background(size: tuple[int, int], fr: Frame) -> Image.Image:
    """A picture of ``size`` with the table, the cell grid and the coordinates of ``fr``:
    what every board picture is drawn on."""
    img = Image.new("RGB", size, st.TABLE)
    _grid(ImageDraw.Draw(img), fr)
    _coords(img, fr)
    return img


def draw_board_part(
    img: Image.Image,
    view: PublicView,
    shown: PublicView,
    fr: Frame,
    *,
    scored: Sequence[Scored] = (),
    highlight: Position | None = None,
    placements: Mapping[Position, Sequence[Rotation]] | None = None,
    placed: Sequence[PlacedSprite] | None = None,
    within: Box | None = None,
) -> None:
    """Everything a board picture draws on its background, in order: tiles, what overlays lay
    under the figures, scored features, last tiles, the highlight, figures (``placed``, if
    known), overlays' tokens, numbered cells and points. ``shown`` is ``view`` with the figures
    to draw. With ``within`` the tiles, last tiles, figures and numbered cells that do not
    meet that box are left out; the rest is drawn whole, so only the pixels in the box are
    those of the whole picture (:class:`rendering.canvas.BoardCanvas` redraws boxes so)."""
    d = ImageDraw.Draw(img)
    rotations = draw_tiles(img, shown, fr, within=within)
    draw_scored(img, shown, fr, scored)
    draw_last_placed(d, view, fr, within=within)
    if highlight is not None and fr.contains(highlight):
        x, y = fr.cell_xy(highlight)
        inset = max(2, fr.tile // 14)
        d.rectangle(
            (x + inset, y + inset, x + fr.tile - 1 - inset, y + fr.tile - 1 - inset),
            outline=(255, 255, 255),
            width=max(2, fr.tile // 20),
        )
    draw_figures(img, shown, fr, rotations, placed=placed, within=within)
    for ov in overlays_of(view):
        ov.draw_board(img, shown, fr)
    if placements:
        draw_placements(img, fr, placements, within=within)
    draw_points(img, shown, fr, scored)


# ---------------------------------------------------------------------------- the picture
@dataclass(frozen=True, slots=True)
class BoardPicture:
    """A board picture with where things are: the board's frame, the header (players' chips,
    score boxes) and the final breakdown's box (if any)."""

    image: Image.Image
    frame: Frame
    header: HeaderLayout | None
    breakdown: tuple[int, int, int, int] | None = None
    #: the marks of figures a turn picture's crop leaves out (:func:`region.off_picture`)
    off: tuple[OffMark, ...] = ()


def board_picture(
    view: PublicView,
    *,
    placements: Mapping[Position, Sequence[Rotation]] | None = None,
    highlight: Position | None = None,
    frame: Frame | None = None,
    panel: bool = True,
    lang: str = "en",
    events: Sequence[Event] = (),
    awards: Sequence[Award] | None = None,
    whole: bool = True,
    breakdown: bool = True,
) -> BoardPicture:
    """The board picture and its layout (see :func:`render_board`); ``breakdown=False`` leaves
    the final breakdown out (the replay's last frame)."""
    over = view.over
    if over:
        shown = dataclasses.replace(view, figures=final_figures(view, events))
        scored = find_scored(view, scorings(events, final=True))
    else:
        shown = view
        scored = find_scored(view, scorings(events, final=False))
    if frame is None:
        frame = board_frame(
            view,
            placements=placements,
            highlight=highlight,
            panel=panel,
            whole=whole or over,
            scored=scored,
        )
    turn_picture = not (whole or over) and panel
    width = max(frame.board_w, TURN_WIDTH if turn_picture else (MIN_WIDTH if panel else 0))
    header = header_layout(view, width) if panel else None
    top = header.height if header else 0
    breakdown_h = 0
    if panel and over and breakdown:
        from rendering.final import breakdown_height

        breakdown_h = breakdown_height(view, width)
    fr = frame.at((width - frame.board_w) // 2, top)
    strips = overlay_strips(view, width, lang) if panel else []
    below = sum(pic.size[1] for pic in strips)
    height = top + fr.board_h + below + breakdown_h
    img = board_background((width, height), fr)
    draw_board_part(img, view, shown, fr, scored=scored, highlight=highlight, placements=placements)
    off = draw_off_picture(img, shown, fr) if not (whole or over) else []
    if header is not None:
        draw_header(img, view, header, lang)
    y = top + fr.board_h
    for pic in strips:  # under the board, before any final breakdown
        img.paste(pic, ((width - pic.size[0]) // 2, y))
        y += pic.size[1]
    box = None
    if breakdown_h:
        from rendering.final import draw_breakdown

        box = (0, y, width, height)
        draw_breakdown(img, view, box, awards, events, lang)
    return BoardPicture(img, fr, header, box, tuple(off))


def board_image(
    view: PublicView,
    *,
    placements: Mapping[Position, Sequence[Rotation]] | None = None,
    highlight: Position | None = None,
    frame: Frame | None = None,
    panel: bool = True,
    lang: str = "en",
    events: Sequence[Event] = (),
    awards: Sequence[Award] | None = None,
    whole: bool = True,
) -> Image.Image:
    """The board picture as an RGB image (see :func:`render_board`)."""
    return board_picture(
        view,
        placements=placements,
        highlight=highlight,
        frame=frame,
        panel=panel,
        lang=lang,
        events=events,
        awards=awards,
        whole=whole,
    ).image


def render_board(
    view: PublicView,
    *,
    placements: Mapping[Position, Sequence[Rotation]] | None = None,
    highlight: Position | None = None,
    lang: str = "en",
    events: Sequence[Event] = (),
    awards: Sequence[Award] | None = None,
    whole: bool = False,
) -> bytes:
    """PNG of the board with the players' scores in a strip on top.

    By default the turn picture: :data:`TURN_WIDTH` px wide, the board cropped to what
    matters this turn (:func:`focus_box`); ``whole=True`` shows the whole map. With
    ``placements`` (legal cell -> legal rotations) every legal cell is numbered in
    :func:`placement_order` with one dot per legal rotation; ``highlight`` outlines one cell.
    ``events`` (the last move's) outline the features that just scored in their owner's colour
    with the points beside them. A finished game's picture is the whole board with the
    figures final scoring took off (from ``events``), each scored feature outlined and the
    per-player breakdown (from ``awards``, every award of the game; else from ``events``).
    Words are in ``lang`` (``"en"``/``"es"``/``"de"``).
    """
    return encode_png(
        board_image(
            view,
            placements=placements,
            highlight=highlight,
            lang=lang,
            events=events,
            awards=awards,
            whole=whole,
        )
    )
