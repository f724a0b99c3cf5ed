"""Scored features on the board: outlined in their owner's colour, with the points beside them.

The events of a move (or of final scoring) say what scored: a :class:`PointsScored` names a
score category, the tiles the feature covers and the winners. This module finds that feature
on the board of the public view (the board's feature graph rebuilt from the view's tiles, the
engine's own union of edges), paints it lightly in the first winner's colour with an outline,
and puts the points in a pill beside it (one pill per winner). A category that is no feature
of the board (an expansion's goods ...) has nothing to outline; its points still count in the
final breakdown (:mod:`rendering.final`).

Also here: the figures of the final board (final scoring takes them off; the
:class:`FinalScoringStarted` event lists them) as :class:`FigureView`\\ s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from engine.carcassonne.board import Board
from engine.carcassonne.events import Event, FinalScoringStarted, PointsScored
from engine.carcassonne.geometry import Position
from engine.carcassonne.tiles import FeatureKind, tile
from engine.carcassonne.view import FigureView, PublicView
from engine.core.seats import Seat
from rendering import style as st
from rendering.cache import MiB, memo
from rendering.fonts import draw_text, text_width
from rendering.frame import Frame
from rendering.layout import GRID, spot_anchor, tile_layout
from rendering.tiles import TURNS

#: score categories drawn as a feature of the board (others have nothing to outline)
_KINDS = {"road": FeatureKind.ROAD, "city": FeatureKind.CITY, "cloister": FeatureKind.CLOISTER}
_KINDS["farm"] = FeatureKind.FIELD
#: how strongly a scored feature is tinted in its owner's colour (0-255)
TINT = 90
#: the tint mask of a scored feature from its mask (a table: Image.point calls a function 256 times)
_TINT_LUT = [0] + [TINT] * 255
PILL_SIZE_SHARE = 0.26


@dataclass(frozen=True, slots=True)
class Scored:
    """One scored feature as a picture shows it: the tile features it covers, who won it
    (first colour outlines it) and the points each winner got."""

    cells: tuple[tuple[Position, int], ...]
    winners: tuple[Seat, ...]
    points: tuple[int, ...]
    category: str


def final_figures(view: PublicView, events: Iterable[Event]) -> tuple[FigureView, ...]:
    """The figures of the final board: those on the board when final scoring began (from the
    :class:`FinalScoringStarted` event), else the view's own."""
    for e in events:
        if isinstance(e, FinalScoringStarted):
            rotations = {tv.pos: (tv.tile, int(tv.rotation)) for tv in view.tiles}
            out = []
            for f in e.figures:
                tid, rot = rotations.get(f.pos, (None, 0))
                if tid is None:
                    continue
                spots = tile(tid).rotated(rot).spots
                spot = spots[f.feature] if f.feature < len(spots) else ""
                out.append(FigureView(f.seat, f.figure, f.pos, spot, f.feature))
            return tuple(out)
    return view.figures


def scorings(events: Iterable[Event], *, final: bool | None = None) -> list[PointsScored]:
    """The :class:`PointsScored` events with awards (only final ones, only others, or all)."""
    return [
        e
        for e in events
        if isinstance(e, PointsScored) and e.awards and (final is None or e.item.final == final)
    ]


def _board_of(view: PublicView) -> Board:
    b = Board()
    for tv in view.tiles:
        b.place(tv.pos, tile(tv.tile).rotated(int(tv.rotation)))
    return b


def find_scored(view: PublicView, events: Sequence[PointsScored]) -> list[Scored]:
    """The features of ``view``'s board that ``events`` scored (matched by kind and tiles)."""
    if not events:
        return []
    board = _board_of(view)
    where: dict[int, tuple[Position, int]] = {}
    for placed in board.cells.values():
        for i, seg in enumerate(placed.segs):
            where[seg] = (placed.pos, i)
    out = []
    for e in events:
        kind = _KINDS.get(e.item.category)
        if kind is None:
            try:
                kind = FeatureKind(e.item.category)
            except ValueError:
                kind = None
        tiles = {Position(*p) for p in e.item.where}
        cells: list[tuple[Position, int]] = []
        if kind is not None and tiles:
            for feat in board.live_features():
                if feat.kind is kind and set(feat.tiles) == tiles:
                    cells.extend(where[s] for s in feat.segs if s in where)
        seats = tuple(a.seat for a in e.awards)
        out.append(
            Scored(
                tuple(sorted(set(cells))), seats, tuple(a.points for a in e.awards), e.item.category
            )
        )
    return out


@memo("scored.feature_mask", entries=512, budget=16 * MiB)
def feature_mask(tile_id: str, feature: int, rotation: int, size: int) -> Image.Image:
    """An ``L`` mask (255 = the feature) of feature ``feature`` of a tile, turned, ``size`` px."""
    lay = tile_layout(tile_id)
    img = Image.new("L", (size, size), 0)
    d = ImageDraw.Draw(img)
    s = size

    def p(pt: tuple[float, float]) -> tuple[float, float]:
        return (pt[0] * s, pt[1] * s)

    kind = lay.tile.features[feature].kind if feature < len(lay.tile.features) else None
    if kind is FeatureKind.CITY:
        for cs in lay.cities:
            if cs.feature == feature:
                d.polygon([p(q) for q in cs.polygon], fill=255)
    elif kind is FeatureKind.ROAD:
        w = max(3, round(0.2 * s))
        for rp in lay.roads:
            if rp.feature == feature:
                for arm in rp.arms:
                    pts = [p(q) for q in arm]
                    d.line(pts, fill=255, width=w, joint="curve")
                    for x, y in (pts[0], pts[-1]):
                        d.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=255)
    elif kind is FeatureKind.CLOISTER:
        cx, cy = p(lay.anchors.get(feature, (0.5, 0.5)))
        r = 0.3 * s
        d.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=r * 0.3, fill=255)
    elif kind is FeatureKind.FIELD and lay.labels:
        raw = bytes(255 if lab == feature else 0 for lab in lay.labels)
        small = Image.frombytes("L", (GRID, GRID), raw)
        img = small.resize((size, size), Image.Resampling.BILINEAR).point(
            lambda v: 255 if v >= 128 else 0
        )
    turn = TURNS[rotation % 4]
    return img if turn is None else img.transpose(turn)


def _inside(fr: Frame, pos: Position) -> bool:
    return fr.min_x <= pos.x < fr.min_x + fr.cols and fr.min_y <= pos.y < fr.min_y + fr.rows


def grow(mask: Image.Image, r: int) -> Image.Image:
    """``mask`` dilated: each pixel the largest within ``r`` pixels across and down (Pillow's
    ``MaxFilter(2 * r + 1)``), as a largest over shifted rows, then shifted columns: 10-16
    times faster (a scored farm's mask spans the board: 46 ms for ``r = 2`` on 900 × 1200 px
    against 3). Outside the picture counts as 0 (the masks here keep a margin of 0 wider
    than ``r``, where ``MaxFilter``'s copied edge is 0 too)."""
    w, h = mask.size
    across = mask
    for d in range(1, r + 1):
        across = ImageChops.lighter(across, mask.crop((d, 0, w + d, h)))
        across = ImageChops.lighter(across, mask.crop((-d, 0, w - d, h)))
    out = across
    for d in range(1, r + 1):
        out = ImageChops.lighter(out, across.crop((0, d, w, h + d)))
        out = ImageChops.lighter(out, across.crop((0, -d, w, h - d)))
    return out


def draw_scored(img: Image.Image, view: PublicView, fr: Frame, scored: Sequence[Scored]) -> None:
    """Tint and outline each scored feature in its first winner's colour (under the figures)."""
    T = fr.tile
    rotations = {tv.pos: (tv.tile, int(tv.rotation)) for tv in view.tiles}
    w = max(2, T // 24)
    for sc in scored:
        cells = [(pos, i) for pos, i in sc.cells if _inside(fr, pos) and pos in rotations]
        if not cells or not sc.winners:
            continue
        xs = [fr.cell_xy(pos) for pos, _ in cells]
        x0 = min(x for x, _ in xs) - 2 * w
        y0 = min(y for _, y in xs) - 2 * w
        x1 = max(x for x, _ in xs) + T + 2 * w
        y1 = max(y for _, y in xs) + T + 2 * w
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        for pos, i in cells:
            tid, rot = rotations[pos]
            cx, cy = fr.cell_xy(pos)
            fm = feature_mask(tid, i, rot, T)
            mask.paste(255, (cx - x0, cy - y0), fm)
        fill = st.seat_style(int(sc.winners[0])).fill
        rim = (245, 245, 245) if sum(fill) < 160 else (20, 20, 20)
        grown = grow(mask, w)
        outer = grow(grown, 1)
        ring = ImageChops.subtract(grown, mask)
        edge = ImageChops.subtract(outer, mask)
        if sc.category != "farm":  # a farm is too big to colour: its outline says enough
            img.paste(fill, (x0, y0), mask.point(_TINT_LUT))
        img.paste(rim, (x0, y0), edge)
        img.paste(fill, (x0, y0), ring)


def pill_size(tile_px: int) -> int:
    """Font size (bold) of the points scored, in their pills, on tiles of ``tile_px``."""
    return max(14, int(tile_px * PILL_SIZE_SHARE))


def draw_points(img: Image.Image, view: PublicView, fr: Frame, scored: Sequence[Scored]) -> None:
    """The points of each scored feature in pills of the winners' colours, beside the feature
    (over the figures, so always readable)."""
    T = fr.tile
    rotations = {tv.pos: (tv.tile, int(tv.rotation)) for tv in view.tiles}
    size = pill_size(T)
    taken: list[tuple[float, float, float, float]] = []
    d = ImageDraw.Draw(img)
    for sc in scored:
        cells = [(pos, i) for pos, i in sc.cells if _inside(fr, pos) and pos in rotations]
        if not cells or not sc.winners:
            continue
        # the spot nearest the middle of the feature's tiles
        px = [fr.cell_xy(pos) for pos, _ in cells]
        mx = sum(x for x, _ in px) / len(px) + T / 2
        my = sum(y for _, y in px) / len(px) + T / 2
        best = None
        for pos, i in cells:
            tid, rot = rotations[pos]
            ax, ay = spot_anchor(tile(tid), rot, i)
            cx, cy = fr.cell_xy(pos)
            pt = (cx + ax * T, cy + ay * T)
            dist = (pt[0] - mx) ** 2 + (pt[1] - my) ** 2
            if best is None or dist < best[0]:
                best = (dist, pt)
        assert best is not None
        texts = [f"+{n}" for n in sc.points]
        widths = [text_width(t, size, bold=True) + size * 0.7 for t in texts]
        total = sum(widths) + 4 * (len(texts) - 1)
        h = size * 1.3
        ax, ay = best[1]
        # beside the feature's spot (above it, clear of the figure standing there)
        x = ax - total / 2
        y = ay - T * 0.28 - h
        x = min(max(x, 2.0), img.size[0] - total - 2)
        for _ in range(6):
            box = (x, y, x + total, y + h)
            if not any(_overlap(box, b) for b in taken):
                break
            y += h + 4
        y = min(max(y, 2.0), img.size[1] - h - 2)
        taken.append((x, y, x + total, y + h))
        for seat, text, wd in zip(sc.winners, texts, widths, strict=False):
            style = st.seat_style(int(seat))
            rim = (245, 245, 245) if sum(style.fill) < 160 else (20, 20, 20)
            d.rounded_rectangle((x - 2, y - 2, x + wd + 2, y + h + 2), radius=h / 2 + 2, fill=rim)
            d.rounded_rectangle((x, y, x + wd, y + h), radius=h / 2, fill=style.fill)
            draw_text(img, (x + wd / 2, y + h / 2), text, size, style.ink, bold=True, anchor="mm")
            x += wd + 4


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
