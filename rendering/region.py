"""Which cells a board picture shows: the whole map, or the turn picture's region (issue 14).

The turn picture is :data:`TURN_WIDTH` px wide whatever the board, the board cropped to what
matters this turn (:func:`focus_box`); the whole map and the final board show every tile plus a
one-cell margin, within a pixel budget that grows with the board (:func:`board_frame`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from PIL import Image

from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.view import PublicView
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
    just placed and the features that just scored, one cell round them, at least
    :data:`MIN_COLS` × :data:`MIN_ROWS` (within the whole board)."""
    legal = [Position(*p) for p in placements]
    whole = _whole_box(view, [*legal, *([highlight] if highlight else [])])
    # tiles that matter, with their neighbours; legal cells lie on the board's edge already
    tiles = [*view.last_placed.values(), *(p for p in (view.placed, highlight) if p is not None)]
    tiles += [pos for sc in scored for pos, _ in sc.cells]
    xs = [p.x - 1 for p in tiles] + [p.x + 1 for p in tiles] + [p.x for p in legal]
    ys = [p.y - 1 for p in tiles] + [p.y + 1 for p in tiles] + [p.y for p in legal]
    if not xs:
        return whole
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
