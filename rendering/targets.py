"""The picture of a decision's targets, for any decision of any expansion (ARCHITECTURE.md §5.8).

``render_targets(view, targets, labels)`` draws each option's renderer target with the short
text its button carries, so a player matches the picture to the buttons:

* :class:`Cell` — an empty cell becomes a numbered slate box (as in the numbered-cells board);
  an occupied one gets a yellow frame and the label at its centre;
* :class:`FeatureRef` — a letter disc on the feature's spot of any tile on the board (the
  anchor followers stand on);
* :class:`Corner` — a yellow diamond holding the label on the point where four cells meet
  (the north-west corner of cell (x, y));
* :class:`FigureRef` — a yellow ring round that figure, the label on the ring;
* :class:`TrackSpace` — a score-track strip (0–49) under the board with those spaces lit;
* :class:`TileChoice` — a row of the tiles with their labels under them.

Board targets are drawn on the part of the board that holds them (plus a quarter tile of the
neighbours, dimmed), with tiles as large as fit, so a big board is cropped to where the choice
is. Labels never cover each other: a label whose spot is taken moves aside with a leader line.
Card targets (:class:`CardRef`) belong to the card game's pictures and options without a target
are not drawn. Nothing here knows an expansion: figures come from the overlays.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.carcassonne.geometry import Position
from engine.carcassonne.view import FigureView, PublicView
from engine.core.decisions import (
    Cell,
    Corner,
    FeatureRef,
    FigureRef,
    Target,
    TileChoice,
    TrackSpace,
)
from engine.core.seats import NEUTRAL, Seat
from rendering import style as st
from rendering.board import (
    PlacedSprite,
    board_image,
    draw_cell_number,
    draw_tiles_and_figures,
)
from rendering.figures import figure_sprite
from rendering.fonts import Fitted, draw_fitted, draw_text, fit_box, readable_size
from rendering.frame import LABEL, MAX_PIXELS, Frame, encode_png
from rendering.labels import (
    ACCENT,
    LABEL_TEXT,
    MIN_RADIUS,
    RIM,
    LabelPlacer,
    Placed,
    draw_labels,
    label_extent,
)
from rendering.overlays import overlays_of
from rendering.spots import view_spot_point
from rendering.strips import choices_width, supply_strip, tile_choices, track_strip, track_width

BoardTarget = Cell | FeatureRef | Corner | FigureRef

#: tile side (px) when every target lies on one tile; regions of more cells get smaller tiles
TARGET_TILE = 320
#: the long side of the board part of a target picture
TARGET_SIDE = 1536
#: radius of a spot label, as a share of the tile (spots are >= 0.16 apart)
SPOT_RADIUS = 0.065
#: how far apart (share of a tile) two labels on one spot stand
CROWD = 2.4 * SPOT_RADIUS
#: darkness laid over the neighbours outside the targets' region (0-255)
DIM = 110
TITLE_H = 40
#: the title's font size (bigger on a picture too wide for it to be read on a phone)
TITLE_SIZE = 20


@dataclass(frozen=True, slots=True)
class TargetLabel:
    """Where a target's label was drawn: its text, the label's centre and the target's point,
    in the picture's pixels."""

    label: str
    target: Target
    at: tuple[float, float]
    anchor: tuple[float, float]
    #: the radius of its pill (0: a number drawn in its cell or corner marker)
    radius: float = 0.0


@dataclass(frozen=True, slots=True)
class Grid:
    """Where the board's cells are in a target picture: cell ``(min_x, min_y)`` has its
    top-left pixel at ``(ox, oy)``; cells are ``tile`` px."""

    min_x: int
    min_y: int
    cols: int
    rows: int
    tile: int
    ox: int
    oy: int

    def cell_xy(self, x: int, y: int) -> tuple[int, int]:
        return self.ox + (x - self.min_x) * self.tile, self.oy + (y - self.min_y) * self.tile


@dataclass(frozen=True, slots=True)
class TargetsPicture:
    """A target picture, the labels drawn on it and where the board's cells are (if shown)."""

    image: Image.Image
    labels: tuple[TargetLabel, ...]
    grid: Grid | None


def render_targets(
    view: PublicView,
    targets: Sequence[Target | None],
    labels: Sequence[str],
    *,
    title: str | None = None,
    seat: Seat | None = None,
    figures: Sequence[str | None] | None = None,
    lang: str = "en",
) -> bytes:
    """PNG of ``targets`` labelled with ``labels`` (one each, the texts the buttons show).

    ``title`` (already translated) goes on a bar above; with ``seat`` a strip below shows that
    player's figures left when the match has more than one kind. ``figures`` names, per
    target, the figure kind it is offered for (a spot offered for a follower and for a large
    follower): its label then shows that figure in ``seat``'s colour, and every label of a spot
    stands clear of the other spots. ``lang`` is the words' language (the plain board's).

    Raises:
        ValueError: when ``targets`` and ``labels`` differ in length, or a spot names a cell
            without a tile.
        InvalidActionError: when a spot names no feature of its tile.
    """
    return encode_png(
        targets_picture(
            view, targets, labels, title=title, seat=seat, figures=figures, lang=lang
        ).image
    )


def targets_picture(
    view: PublicView,
    targets: Sequence[Target | None],
    labels: Sequence[str],
    *,
    title: str | None = None,
    seat: Seat | None = None,
    figures: Sequence[str | None] | None = None,
    lang: str = "en",
) -> TargetsPicture:
    """The picture :func:`render_targets` encodes, with where every label went."""
    if len(targets) != len(labels):
        raise ValueError(f"{len(targets)} targets but {len(labels)} labels")
    if figures is not None and len(figures) != len(targets):
        raise ValueError(f"{len(targets)} targets but {len(figures)} figures")
    kinds = list(figures) if figures is not None else [None] * len(targets)
    board: list[tuple[BoardTarget, str, str | None]] = []
    track: list[tuple[int, str]] = []
    tiles: list[tuple[str, str]] = []
    track_t: list[TrackSpace] = []
    tile_t: list[TileChoice] = []
    for t, text, kind in zip(targets, labels, kinds, strict=True):
        if isinstance(t, Cell | FeatureRef | Corner | FigureRef):
            board.append((t, text, kind))
        elif isinstance(t, TrackSpace):
            track.append((t.n, text))
            track_t.append(t)
        elif isinstance(t, TileChoice):
            tiles.append((t.tile, text))
            tile_t.append(t)
    sections: list[tuple[Image.Image, list[TargetLabel]]] = []
    grid: Grid | None = None
    if board:
        img, found, grid = board_section(view, board, seat=seat)
        sections.append((img, found))
    width = max(
        [s[0].size[0] for s in sections]
        + ([track_width()] if track else [])
        + ([choices_width(len(tiles))] if tiles else [])
        + [0]
    )
    if track:
        img, placed = track_strip(view, track, width)
        sections.append((img, _labelled(placed, track_t)))
    if tiles:
        img, placed = tile_choices(tiles, width)
        sections.append((img, _labelled(placed, tile_t)))
    if not sections:  # nothing to point at: the board as it is
        sections.append((board_image(view, panel=False, lang=lang), []))
        width = sections[0][0].size[0]
    strip = supply_strip(view, seat, width)
    if strip is not None:
        sections.append((strip, []))
    heading = title_fit(title, width) if title else None
    top = title_height(heading) if heading is not None else 0
    height = top + sum(s[0].size[1] for s in sections)
    if len(sections) == 1 and not top:
        out = sections[0][0]
    else:
        out = Image.new("RGB", (width, height), st.PANEL)
    if heading is not None:
        draw_fitted(out, (12, top / 2), heading, st.TEXT, anchor="lm")
    y = top
    every: list[TargetLabel] = []
    for img, found in sections:
        if out is not img:
            out.paste(img, (0, y))
        every.extend(_shift(found, y))
        y += img.size[1]
    if grid is not None and top:
        grid = Grid(grid.min_x, grid.min_y, grid.cols, grid.rows, grid.tile, grid.ox, grid.oy + top)
    return TargetsPicture(out, tuple(every), grid)


def title_fit(title: str, width: int) -> Fitted:
    """The title of a picture ``width`` px wide laid out on up to three lines (whole words;
    as big as a phone reads once the picture is shown 400 px wide)."""
    size = max(TITLE_SIZE, readable_size(width))
    return fit_box(title, width - 24, 3 * size * 1.2, size, bold=True, max_lines=3)


def title_height(heading: Fitted) -> int:
    """The height of the bar holding ``heading`` (:data:`TITLE_H` for one line)."""
    return max(TITLE_H, round(heading.height + 16))


def _labelled(placed: Sequence[Placed], targets: Sequence[Target]) -> list[TargetLabel]:
    return [
        TargetLabel(p.text, t, p.at, p.anchor, p.r) for p, t in zip(placed, targets, strict=True)
    ]


def _shift(found: Sequence[TargetLabel], dy: int) -> list[TargetLabel]:
    if not dy:
        return list(found)
    return [
        TargetLabel(
            f.label,
            f.target,
            (f.at[0], f.at[1] + dy),
            (f.anchor[0], f.anchor[1] + dy),
            f.radius,
        )
        for f in found
    ]


# ---------------------------------------------------------------------------- the board part
def _cells_of(t: BoardTarget) -> list[tuple[int, int]]:
    if isinstance(t, Corner):  # the four cells round the corner
        return [(t.x - 1, t.y - 1), (t.x, t.y)]
    return [(t.x, t.y)]


def region_tile(cols: int, rows: int, margin: int) -> int:
    """Tile side for a region of ``cols`` × ``rows`` cells (plus a quarter tile each side)."""
    avail = TARGET_SIDE - 2 * margin
    raw = int(min(TARGET_TILE, avail / (cols + 0.5), avail / (rows + 0.5)))
    size = raw // 8 * 8 if raw >= 16 else max(8, raw)
    while size > 16 and (cols + 0.5) * size * (rows + 0.5) * size > MAX_PIXELS:
        size -= 8
    return size


def board_section(
    view: PublicView,
    board: Sequence[tuple[BoardTarget, str, str | None]],
    *,
    seat: Seat | None = None,
) -> tuple[Image.Image, list[TargetLabel], Grid]:
    """The region of the board holding ``board`` targets (target, label, figure kind or None),
    each drawn with its label."""
    cells = [c for t, _, _ in board for c in _cells_of(t)]
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    cols = max(x for x, _ in cells) - min_x + 1
    rows = max(y for _, y in cells) - min_y + 1
    margin = LABEL if cols * rows > 1 else 0
    T = region_tile(cols, rows, margin)
    edge = T // 4
    fr = Frame(min_x - 1, min_y - 1, cols + 2, rows + 2, T, label=0)
    canvas = Image.new("RGB", (fr.cols * T, fr.rows * T), st.TABLE)
    cd = ImageDraw.Draw(canvas)
    for i in range(fr.cols + 1):
        cd.line((i * T, 0, i * T, canvas.size[1]), fill=st.TABLE_GRID)
    for j in range(fr.rows + 1):
        cd.line((0, j * T, canvas.size[0], j * T), fill=st.TABLE_GRID)
    sprites = draw_tiles_and_figures(canvas, view, fr)
    for ov in overlays_of(view):
        ov.draw_board(canvas, view, fr)
    crop = canvas.crop((T - edge, T - edge, T + cols * T + edge, T + rows * T + edge))
    # dim the neighbours so the region in play stands out
    inner = (edge, edge, edge + cols * T - 1, edge + rows * T - 1)
    mask = Image.new("L", crop.size, DIM)
    ImageDraw.Draw(mask).rectangle(inner, fill=0)
    crop.paste(Image.new("RGB", crop.size, (0, 0, 0)), (0, 0), mask)
    ImageDraw.Draw(crop).rectangle(
        (inner[0] - 2, inner[1] - 2, inner[2] + 2, inner[3] + 2), outline=ACCENT, width=3
    )
    if margin:
        img = Image.new("RGB", (crop.size[0] + margin, crop.size[1] + margin), st.TABLE)
        img.paste(crop, (margin, margin))
    else:
        img = crop
    grid = Grid(min_x, min_y, cols, rows, T, margin + edge, margin + edge)
    if margin:
        _coordinates(img, grid, margin)
    shift = (margin + edge - T, margin + edge - T)  # canvas pixels -> picture pixels
    found = _draw_board_targets(img, view, board, grid, sprites, shift, seat)
    return img, found, grid


def _coordinates(img: Image.Image, g: Grid, margin: int) -> None:
    """Column numbers above the region and row numbers left of it."""
    size = max(10, min(18, int(g.tile * 0.3)))
    step = max(1, -(-int(2.2 * size) // g.tile))
    for i in range(0, g.cols, step):
        x, _ = g.cell_xy(g.min_x + i, g.min_y)
        draw_text(
            img,
            (x + g.tile / 2, margin / 2),
            str(g.min_x + i),
            size,
            st.TEXT_DIM,
            bold=True,
            anchor="mm",
        )
    for j in range(0, g.rows, step):
        _, y = g.cell_xy(g.min_x, g.min_y + j)
        draw_text(
            img,
            (margin / 2, y + g.tile / 2),
            str(g.min_y + j),
            size,
            st.TEXT_DIM,
            bold=True,
            anchor="mm",
        )


def _figure_of(t: FigureRef, sprites: Sequence[PlacedSprite]) -> PlacedSprite | None:
    """The drawn figure ``t`` names: by tile, spot, owner and kind, then ever more loosely."""
    seat = NEUTRAL if t.seat is None else t.seat
    pos = Position(t.x, t.y)

    def same(f: FigureView, spot: bool = True, owner: bool = True, kind: bool = True) -> bool:
        return (
            f.pos == pos
            and (not spot or f.spot == t.spot)
            and (not owner or int(f.seat) == int(seat))
            and (not kind or f.figure == t.figure)
        )

    for loose in ({}, {"spot": False}, {"owner": False}, {"kind": False, "owner": False}):
        for ps in sprites:
            if same(ps.figure, **loose):
                return ps
    return None


class _Board:
    """Draws board targets on a region picture, placing their labels clear of each other."""

    def __init__(
        self,
        img: Image.Image,
        view: PublicView,
        g: Grid,
        sprites: Sequence[PlacedSprite],
        shift: tuple[int, int],
        seat: Seat | None = None,
    ) -> None:
        self.seat = seat
        self.img = img
        self.d = ImageDraw.Draw(img)
        self.view = view
        self.g = g
        self.T = g.tile
        # a label a phone reads once the picture is shown 400 px wide, whatever the tiles
        least = math.ceil(readable_size(img.size[0]) / LABEL_TEXT)
        self.r = max(MIN_RADIUS, int(g.tile * SPOT_RADIUS), least)
        self.sprites = sprites
        self.shift = shift
        self.tiles = {tv.pos: tv for tv in view.tiles}
        self.placer = LabelPlacer((0, 0, img.size[0], img.size[1]))
        self.crowd: dict[tuple[int, int, float, float], int] = {}
        #: what overlays lay on the tiles shown (a bridge deck), in pixels, with its tag
        self.covers: list[tuple[tuple[float, float, float, float], object]] = []
        overlays = overlays_of(view)
        for tv in view.tiles if overlays else ():
            if not (0 <= tv.pos.x - g.min_x < g.cols and 0 <= tv.pos.y - g.min_y < g.rows):
                continue
            px, py = g.cell_xy(tv.pos.x, tv.pos.y)
            for ov in overlays:
                for k, (x0, y0, x1, y1) in enumerate(ov.covers(view, tv)):
                    box = (px + x0 * g.tile, py + y0 * g.tile, px + x1 * g.tile, py + y1 * g.tile)
                    tag = ("cover", ov.id, tv.pos, k)
                    self.covers.append((box, tag))
                    self.placer.block(box, tag)

    def owns(self, point: tuple[float, float]) -> frozenset[object]:
        """The covers ``point`` lies on: a label of a spot there may sit on them."""
        x, y = point
        return frozenset(
            tag for (x0, y0, x1, y1), tag in self.covers if x0 <= x <= x1 and y0 <= y <= y1
        )

    def cell(self, x: int, y: int, text: str) -> tuple[float, float]:
        """An empty cell: a numbered slate box; an occupied one: a yellow frame and a label."""
        T = self.T
        px, py = self.g.cell_xy(x, y)
        if Position(x, y) not in self.tiles:
            draw_cell_number(self.img, (px, py), T, text)
            self.placer.block((px, py, px + T, py + T))
            return (px + T / 2, py + T / 2)
        w = max(3, T // 24)
        self.d.rectangle((px + 1, py + 1, px + T - 2, py + T - 2), outline=RIM, width=w + 2)
        self.d.rectangle((px + 2, py + 2, px + T - 3, py + T - 3), outline=ACCENT, width=w)
        return self.placer.place(text, (px + T / 2, py + T / 2), self.r).at

    def corner(self, x: int, y: int, text: str) -> tuple[float, float]:
        """A yellow diamond holding ``text`` on the north-west corner of cell (x, y)."""
        cx, cy = self.g.cell_xy(x, y)
        hw, _ = label_extent(text, self.r)
        k = hw * 1.45 + 2
        o = k + 3
        self.d.polygon([(cx, cy - o), (cx + o, cy), (cx, cy + o), (cx - o, cy)], fill=RIM)
        self.d.polygon([(cx, cy - k), (cx + k, cy), (cx, cy + k), (cx - k, cy)], fill=ACCENT)
        size = max(12, int(self.r * 1.5))
        draw_text(self.img, (cx, cy), text, size, RIM, bold=True, anchor="mm")
        self.placer.block((cx - k, cy - k, cx + k, cy + k))
        return (float(cx), float(cy))

    def figure(self, t: FigureRef, text: str) -> TargetLabel:
        """A yellow ring round the figure (or its spot, if it is not drawn), labelled on the ring."""
        ps = _figure_of(t, self.sprites)
        if ps is not None:
            box = ps.sprite.getbbox() or (0, 0, *ps.sprite.size)
            cx = ps.at[0] + (box[0] + box[2]) / 2 + self.shift[0]
            cy = ps.at[1] + (box[1] + box[3]) / 2 + self.shift[1]
            rr = max(box[2] - box[0], box[3] - box[1]) * 0.6 + 3
        else:
            px, py = self.g.cell_xy(t.x, t.y)
            fx, fy = view_spot_point(self.view, self.tiles.get(Position(t.x, t.y)), t.spot)
            cx, cy, rr = px + fx * self.T, py + fy * self.T, self.T * 0.2
        w = max(3, self.T // 40)
        outer = (cx - rr - 2, cy - rr - 2, cx + rr + 2, cy + rr + 2)
        self.d.ellipse(outer, outline=RIM, width=w + 4)
        self.d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), outline=ACCENT, width=w)
        edge = (cx + rr * 0.74, cy - rr * 0.74)
        want = (edge[0] + self.r * 0.6, edge[1] - self.r * 0.6)
        p = self.placer.place(text, want, self.r, anchor=edge, owns=self.owns((cx, cy)))
        return TargetLabel(text, t, p.at, (cx, cy), p.r)

    def spot_anchor(self, t: FeatureRef) -> tuple[float, float]:
        """Where spot ``t`` is, in the picture's pixels."""
        fx, fy = view_spot_point(self.view, self.tiles.get(Position(t.x, t.y)), t.spot)
        px, py = self.g.cell_xy(t.x, t.y)
        return (px + fx * self.T, py + fy * self.T)

    def feature(self, t: FeatureRef, text: str, kind: str | None = None) -> TargetLabel:
        """A label on the feature's spot (with the figure ``kind`` it is offered for, in the
        deciding seat's colour). A spot offered again (another figure) gets its next label
        clear of the first and of every other spot, joined to the spot by a leader line."""
        anchor = self.spot_anchor(t)
        key = (t.x, t.y, round(anchor[0], 1), round(anchor[1], 1))
        n = self.crowd.get(key, 0)
        self.crowd[key] = n + 1
        icon = None
        if kind is not None:
            seat = int(self.seat) if self.seat is not None else int(NEUTRAL)
            icon = figure_sprite(kind, seat, max(12, int(self.r * 1.45)))
        owns = self.owns(anchor)
        if n == 0:
            p = self.placer.place(
                text, anchor, self.r, anchor=anchor, icon=icon, own=key, owns=owns
            )
        else:  # must move off the spot: the leader line shows where it belongs
            p = self.placer.place(
                text, anchor, self.r, anchor=anchor, icon=icon, own=None, owns=owns
            )
        return TargetLabel(text, t, p.at, anchor, p.r)


def _draw_board_targets(
    img: Image.Image,
    view: PublicView,
    board: Sequence[tuple[BoardTarget, str, str | None]],
    g: Grid,
    sprites: Sequence[PlacedSprite],
    shift: tuple[int, int],
    seat: Seat | None = None,
) -> list[TargetLabel]:
    """Cells and corners first (fixed marks that labels keep off), then figures and spots in
    the given order (every spot's first label before any second one); labels drawn last, on
    top of everything."""
    b = _Board(img, view, g, sprites, shift, seat)
    found: list[TargetLabel | None] = [None] * len(board)
    fixed: dict[tuple[type, int, int], list[int]] = {}
    for i, (t, _, _) in enumerate(board):
        if isinstance(t, Cell | Corner):
            fixed.setdefault((type(t), t.x, t.y), []).append(i)
    for (kind, x, y), idx in fixed.items():
        text = " ".join(board[i][1] for i in idx)
        at = b.cell(x, y, text) if kind is Cell else b.corner(x, y, text)
        point = g.cell_xy(x, y)
        if kind is Cell:
            point = (point[0] + g.tile // 2, point[1] + g.tile // 2)
        for i in idx:
            found[i] = TargetLabel(board[i][1], board[i][0], at, (float(point[0]), float(point[1])))
    # every offered spot's point is kept clear of the other spots' labels
    spots: dict[tuple[int, int, float, float], tuple[float, float]] = {}
    for t, _, _ in board:
        if isinstance(t, FeatureRef):
            ax, ay = b.spot_anchor(t)
            spots[(t.x, t.y, round(ax, 1), round(ay, 1))] = (ax, ay)
    if len(spots) > 1:
        k = b.r * 0.8
        for key, (ax, ay) in spots.items():
            b.placer.block((ax - k, ay - k, ax + k, ay + k), key)
    seen: set[tuple[int, int, str]] = set()
    later: list[int] = []
    for i, (t, text, fkind) in enumerate(board):
        if isinstance(t, FigureRef):
            found[i] = b.figure(t, text)
        elif isinstance(t, FeatureRef):
            if (t.x, t.y, t.spot) in seen:
                later.append(i)
                continue
            seen.add((t.x, t.y, t.spot))
            found[i] = b.feature(t, text, fkind)
    for i in later:
        t, text, fkind = board[i]
        assert isinstance(t, FeatureRef)
        found[i] = b.feature(t, text, fkind)
    draw_labels(img, b.placer.placed)
    return [f for f in found if f is not None]
