"""Which cells a board picture shows: the whole map, or the turn picture's region (issue 14).

The turn picture is :data:`TURN_WIDTH` px wide whatever the board, the board cropped to what
matters this turn (:func:`focus_box`), every figure in it or marked at the edge it lies beyond
(:func:`off_picture`); the whole map and the final board show every tile plus a one-cell
margin, within a pixel budget that grows with the board (:func:`board_frame`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.view import FigureView, PublicView
from rendering.frame import LABEL, MAX_PIXELS, MIN_TILE, Frame, extent, frame_for
from rendering.header import header_layout
from rendering.overlays import overlays_of
from rendering.scored import Scored

#: width of the turn picture: shown ~400 px wide on a phone, so everything is drawn for a
#: 0.42 scale (score figures ~21 px, tiles >= ~30 px)
TURN_WIDTH = 960
#: the turn picture's board part is at most this high
TURN_BOARD_H = 1280
#: tiles of the turn picture are at most this big (few cells: big tiles)
TURN_TILE = 152
#: the smallest region the turn picture shows (cells), when the board is that big
MIN_COLS, MIN_ROWS = 5, 4
#: the whole board's pictures are at least this wide (the header needs room)
MIN_WIDTH = 800
#: the turn picture takes in every tile holding a figure when its tiles stay this big; the
#: figures it leaves out are marked at its edge (:func:`off_picture`)
FIGURES_TILE = 72


def _whole_box(view: PublicView, extra: Iterable[Position]) -> tuple[int, int, int, int]:
    box = extent(tv.pos for tv in view.tiles)
    pts = list(extra)
    if pts:  # legal cells lie in the margin already; grow only if one does not
        box = (
            min([box[0], *(p.x for p in pts)]),
            min([box[1], *(p.y for p in pts)]),
            max([box[2], *(p.x for p in pts)]),
            max([box[3], *(p.y for p in pts)]),
        )
    return box


def focus_box(
    view: PublicView,
    placements: Iterable[Position] = (),
    *,
    highlight: Position | None = None,
    scored: Sequence[Scored] = (),
) -> tuple[int, int, int, int]:
    """The cells the turn picture shows: every player's last tile, the legal cells, the tile
    just placed, the features that just scored and the cells overlays draw on this turn
    (:meth:`~rendering.overlays.Overlay.focus`), one cell round them, at least
    :data:`MIN_COLS` × :data:`MIN_ROWS` (within the whole board); and every tile holding a
    figure too, when the tiles stay :data:`FIGURES_TILE` px or more."""
    legal = [Position(*p) for p in placements]
    whole = _whole_box(view, [*legal, *([highlight] if highlight else [])])
    # tiles that matter, with their neighbours; legal cells lie on the board's edge already
    tiles = [*view.last_placed.values(), *(p for p in (view.placed, highlight) if p is not None)]
    tiles += [pos for sc in scored for pos, _ in sc.cells]
    tiles += [Position(*p) for ov in overlays_of(view) for p in ov.focus(view)]
    xs = [p.x - 1 for p in tiles] + [p.x + 1 for p in tiles] + [p.x for p in legal]
    ys = [p.y - 1 for p in tiles] + [p.y + 1 for p in tiles] + [p.y for p in legal]
    if not xs:
        return whole
    box = _fit(whole, xs, ys)
    held = [f.pos for f in view.figures]
    if held:
        more = _fit(whole, [*xs, *(p.x for p in held)], [*ys, *(p.y for p in held)])
        if more != box and _turn_frame(more, 0).tile >= FIGURES_TILE:
            return more
    return box


def _fit(
    whole: tuple[int, int, int, int], xs: Sequence[int], ys: Sequence[int]
) -> tuple[int, int, int, int]:
    """The cells ``xs`` × ``ys`` span within ``whole``, at least the smallest region."""
    x0, x1 = max(whole[0], min(xs)), min(whole[2], max(xs))
    y0, y1 = max(whole[1], min(ys)), min(whole[3], max(ys))
    x0, x1 = _widen(x0, x1, whole[0], whole[2], MIN_COLS)
    y0, y1 = _widen(y0, y1, whole[1], whole[3], MIN_ROWS)
    return (x0, y0, x1, y1)


def _widen(lo: int, hi: int, lo_max: int, hi_max: int, want: int) -> tuple[int, int]:
    """Grow ``lo..hi`` to ``want`` cells, alternately each way, never past the limits."""
    turn = 0
    while hi - lo + 1 < want and (lo > lo_max or hi < hi_max):
        if (turn % 2 == 0 and hi < hi_max) or lo <= lo_max:
            hi += 1
        else:
            lo -= 1
        turn += 1
    return lo, hi


def _turn_frame(box: tuple[int, int, int, int], header_h: int) -> Frame:
    cols, rows = box[2] - box[0] + 1, box[3] - box[1] + 1
    del header_h  # the board part has its own height budget
    raw = min(TURN_TILE, (TURN_WIDTH - 2 * LABEL) // cols, (TURN_BOARD_H - 2 * LABEL) // rows)
    size = raw // 8 * 8 if raw >= 2 * MIN_TILE else max(4, raw)
    return Frame(box[0], box[1], cols, rows, size)


def board_frame(
    view: PublicView,
    *,
    placements: Mapping[Position, Sequence[Rotation]] | None = None,
    highlight: Position | None = None,
    panel: bool = True,
    whole: bool = True,
    scored: Sequence[Scored] = (),
) -> Frame:
    """The board part of a picture (cells and tile size, board at its own origin): the whole
    board plus a one-cell margin, or with ``whole=False`` the turn picture's region."""
    legal = list(placements or ())
    if not whole and not view.over:
        return _turn_frame(focus_box(view, legal, highlight=highlight, scored=scored), 0)
    box = _whole_box(view, [*legal, *([highlight] if highlight else [])])
    # bigger boards may use more pixels (up to ~4 Mpx at 200 tiles) so tiles stay readable
    budget = min(2 * MAX_PIXELS, MAX_PIXELS + max(0, len(view.tiles) - 72) * 14_000)
    if not panel:
        return frame_for(box, panel=0, max_pixels=budget)
    # the strip on top (and the final breakdown) grow with the picture's width: size the
    # board for a first guess of the width, then again for the width that gives
    fr = frame_for(box, panel=0, strip=_reserve(view, MIN_WIDTH), max_pixels=budget)
    width = max(fr.board_w, MIN_WIDTH)
    return frame_for(box, panel=0, strip=_reserve(view, width), max_pixels=budget)


def _reserve(view: PublicView, width: int) -> int:
    """Height of what goes above and below the board on a picture ``width`` px wide."""
    from rendering.final import breakdown_height

    below = sum(pic.size[1] for pic in overlay_strips(view, width))
    final = breakdown_height(view, width) if view.over else 0
    return header_layout(view, width).height + below + final


def overlay_strips(view: PublicView, width: int, lang: str = "en") -> list[Image.Image]:
    """The overlays' strips shown under the board (a market's revealed tiles), their words in
    ``lang`` (a strip's height does not depend on its language)."""
    return [pic for ov in overlays_of(view) if (pic := ov.strip(view, width, lang)) is not None]


# ---------------------------------------------------------------------------- off the picture
@dataclass(frozen=True, slots=True)
class OffMark:
    """Figures beyond one edge of a cropped picture, marked in its coordinate margin level
    with where they are: ``side`` (``N``, ``E``, ``S``, ``W``), the frame's column (``N``/``S``)
    or row (``W``/``E``) they are level with, the figures, and the mark's box in pixels."""

    side: str
    slot: int
    figures: tuple[FigureView, ...]
    box: tuple[int, int, int, int]


#: figures drawn in one mark; more are counted (``+3``)
MARK_FIGURES = 3


def _side_of(fr: Frame, pos: Position) -> tuple[str, int]:
    """Which edge of ``fr`` the cell ``pos`` (outside it) lies beyond, and the column or row of
    the frame it is level with."""
    x1, y1 = fr.min_x + fr.cols - 1, fr.min_y + fr.rows - 1
    over_x = fr.min_x - pos.x if pos.x < fr.min_x else pos.x - x1 if pos.x > x1 else 0
    over_y = fr.min_y - pos.y if pos.y < fr.min_y else pos.y - y1 if pos.y > y1 else 0
    col = min(max(pos.x, fr.min_x), x1) - fr.min_x
    row = min(max(pos.y, fr.min_y), y1) - fr.min_y
    if over_x >= over_y:
        return ("W" if pos.x < fr.min_x else "E"), row
    return ("N" if pos.y < fr.min_y else "S"), col


def _mark_size(fr: Frame, n: int) -> tuple[int, int, int]:
    """The sprite side, the gap and the length along the edge of a mark of ``n`` figures."""
    side = max(10, fr.label - 12)
    shown = min(n, MARK_FIGURES)
    extra = side if n > MARK_FIGURES else 0
    return side, 2, 4 + shown * (side + 2) + extra + side * 2 // 3 + 4


def off_picture(view: PublicView, fr: Frame) -> list[OffMark]:
    """The marks of the figures on tiles ``fr`` leaves out (a turn picture's crop), in the
    coordinate margin beside the edge they lie beyond; figures level with neighbouring cells
    share a mark when their marks would touch."""
    beyond: dict[tuple[str, int], list[FigureView]] = {}
    for f in view.figures:
        if not fr.contains(f.pos):
            beyond.setdefault(_side_of(fr, f.pos), []).append(f)
    out: list[OffMark] = []
    for side in "NESW":
        slots = sorted(slot for s, slot in beyond if s == side)
        groups: list[tuple[int, list[FigureView]]] = []
        for slot in slots:
            figs = beyond[(side, slot)]
            if groups:
                first, held = groups[-1]
                length = _mark_size(fr, len(held) + len(figs))[2]
                if (slot - first) * fr.tile < length + 4:
                    held.extend(figs)
                    continue
            groups.append((slot, list(figs)))
        for slot, figs in groups:
            length = _mark_size(fr, len(figs))[2]
            depth = fr.label - 4
            cx, cy = fr.cell_xy(
                Position(
                    fr.min_x + (slot if side in "NS" else 0),
                    fr.min_y + (slot if side in "WE" else 0),
                )
            )
            if side in "NS":
                x0 = cx + fr.tile // 2 - length // 2
                x0 = min(max(x0, fr.left + 2), fr.left + fr.board_w - 2 - length)
                y0 = fr.top + 2 if side == "N" else fr.top + fr.board_h - fr.label + 2
                box = (x0, y0, x0 + length, y0 + depth)
            else:
                y0 = cy + fr.tile // 2 - length // 2
                y0 = min(max(y0, fr.top + 2), fr.top + fr.board_h - 2 - length)
                x0 = fr.left + 2 if side == "W" else fr.left + fr.board_w - fr.label + 2
                box = (x0, y0, x0 + depth, y0 + length)
            key = sorted(figs, key=lambda f: (int(f.seat), f.figure, f.pos.y, f.pos.x))
            out.append(OffMark(side, slot, tuple(key), box))
    return out


def draw_off_picture(img: Image.Image, view: PublicView, fr: Frame) -> list[OffMark]:
    """Mark the figures ``fr`` leaves out (:func:`off_picture`): in the margin beside the edge
    they lie beyond, a dark tab with each figure in its seat's colour (``+n`` past
    :data:`MARK_FIGURES`) and an arrow pointing off the picture."""
    from rendering import style as st
    from rendering.figures import figure_sprite
    from rendering.fonts import draw_text

    marks = off_picture(view, fr)
    d = ImageDraw.Draw(img)
    for m in marks:
        x0, y0, x1, y1 = m.box
        d.rounded_rectangle(m.box, radius=6, fill=st.PANEL, outline=st.TEXT_DIM, width=2)
        size = _mark_size(fr, len(m.figures))[0]
        across = m.side in "NS"
        at = (x0 + 4, y0 + 4)
        step = size + 2
        for i, f in enumerate(m.figures[:MARK_FIGURES]):
            pic = figure_sprite(f.figure, int(f.seat), size)
            px = at[0] + (i * step if across else 0) + (size - pic.size[0]) // 2
            py = at[1] + (0 if across else i * step) + (size - pic.size[1]) // 2
            img.paste(pic, (px, py), pic)
        n = min(len(m.figures), MARK_FIGURES)
        if len(m.figures) > MARK_FIGURES:
            cx = at[0] + (n * step + size / 2 if across else size / 2)
            cy = at[1] + (size / 2 if across else n * step + size / 2)
            more = f"+{len(m.figures) - MARK_FIGURES}"
            draw_text(img, (cx, cy), more, max(10, size * 2 // 3), st.TEXT, bold=True, anchor="mm")
            n += 1
        # the arrow, pointing off the picture
        a = size / 3
        pts: list[tuple[float, float]]
        if across:
            ax, ay = at[0] + n * step + a, (y0 + y1) / 2
            tip = -1 if m.side == "N" else 1
            pts = [(ax - a, ay - tip * a / 2), (ax + a, ay - tip * a / 2), (ax, ay + tip * a)]
        else:
            ax, ay = (x0 + x1) / 2, at[1] + n * step + a
            tip = -1 if m.side == "W" else 1
            pts = [(ax - tip * a / 2, ay - a), (ax - tip * a / 2, ay + a), (ax + tip * a, ay)]
        d.polygon(pts, fill=st.TEXT)
    return marks
