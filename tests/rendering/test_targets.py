"""Pictures of decision targets, decoded and probed: a label by every target, kept clear of the
others; corner markers on corners, rings round figures, lit track spaces, tiles in a row."""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Sequence

import pytest
from PIL import Image

from engine import GameSetup, Position, PublicView, legal_placements, new_game, public_view
from engine.carcassonne.tiles import tile
from engine.core.decisions import (
    CardRef,
    Cell,
    Corner,
    FeatureRef,
    FigureRef,
    Target,
    TileChoice,
    TrackSpace,
)
from engine.core.seats import NEUTRAL
from rendering import render_targets, spot_anchor, targets_picture
from rendering.board import CELL_FILL, CELL_FRAME, board_image
from rendering.labels import ACCENT, DISC, RIM, label_extent
from rendering.strips import TRACK_SPACE
from rendering.style import seat_style
from rendering.targets import TARGET_TILE, TITLE_H, TargetLabel, TargetsPicture
from rendering.tiles import tile_image

from .conftest import play

BOTH = ("inns_cathedrals", "traders_builders")


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def near(c: Sequence[int], want: Sequence[int], tol: int = 30) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def px(img: Image.Image, xy: tuple[float, float]) -> tuple[int, ...]:
    """The pixel at ``xy`` (clamped into the picture)."""
    x = min(max(int(xy[0]), 0), img.size[0] - 1)
    y = min(max(int(xy[1]), 0), img.size[1] - 1)
    p = img.getpixel((x, y))
    assert isinstance(p, tuple)
    return p


def count(img: Image.Image, box: tuple[float, float, float, float], colour: Sequence[int]) -> int:
    crop = img.crop(tuple(int(v) for v in box))  # type: ignore[arg-type]
    raw = crop.tobytes()
    return sum(1 for i in range(0, len(raw), 3) if near(raw[i : i + 3], colour, 24))


def picture(
    view: PublicView, targets: Sequence[Target], labels: Sequence[str]
) -> tuple[Image.Image, TargetsPicture]:
    """The decoded PNG and the layout that drew it (the layout is deterministic)."""
    png = decode(render_targets(view, targets, labels))
    pic = targets_picture(view, targets, labels)
    assert pic.image.tobytes() == png.tobytes()
    return png, pic


def assert_labels_readable(img: Image.Image, labels: Sequence[TargetLabel], r: float) -> None:
    """Every label is a white disc with its dark rim at its place, and no two labels touch
    (``r``: the smallest radius expected; a label drawn bigger, to read on a phone, says so)."""
    for lab in labels:
        x, y = lab.at
        rr = max(r, lab.radius)
        assert near(px(img, (x, y - rr + 3)), DISC), lab
        assert count(img, (x - rr, y - rr, x + rr, y + rr), RIM) > 4, lab  # text and rim
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            assert math.dist(a.at, b.at) >= max(r, a.radius) + max(r, b.radius), (a.at, b.at)


@pytest.fixture(scope="module")
def game() -> PublicView:
    """A mid-game view with both expansions: figures of every kind, many tiles."""
    return play(40, seed=3, players=3, expansions=BOTH)[1][-1]


def features(view: PublicView, n_tiles: int) -> list[FeatureRef]:
    out = []
    for tv in view.tiles[:n_tiles]:
        rt = tile(tv.tile).rotated(int(tv.rotation))
        out += [FeatureRef(tv.pos.x, tv.pos.y, s) for s in rt.spots]
    return out


def test_spots_on_any_tile_get_their_labels_at_their_anchors(game: PublicView) -> None:
    targets = features(game, 6)
    assert len({(t.x, t.y) for t in targets}) == 6
    labels = [str(i + 1) for i in range(len(targets))]
    img, pic = picture(game, targets, labels)
    assert pic.grid is not None
    T = pic.grid.tile
    r = max(11, int(T * 0.065))
    assert [lab.label for lab in pic.labels] == labels
    for lab in pic.labels:
        t = lab.target
        assert isinstance(t, FeatureRef)
        tv = next(v for v in game.tiles if v.pos == Position(t.x, t.y))
        rt = tile(tv.tile).rotated(int(tv.rotation))
        fx, fy = spot_anchor(rt.tile, int(tv.rotation), rt.spots.index(t.spot))
        x, y = pic.grid.cell_xy(t.x, t.y)
        assert lab.anchor == pytest.approx((x + fx * T, y + fy * T))
        # by its spot, or moved aside (with a leader line) no further than one tile
        assert math.dist(lab.at, lab.anchor) < T
    assert_labels_readable(img, pic.labels, r)


def test_the_picture_is_cropped_to_the_targets_on_a_large_board() -> None:
    view = play(70, seed=8, players=2)[1][-1]
    xs = [t.pos.x for t in view.tiles]
    ys = [t.pos.y for t in view.tiles]
    assert max(xs) - min(xs) >= 5 or max(ys) - min(ys) >= 5
    one = view.tiles[-1]
    rt = tile(one.tile).rotated(int(one.rotation))
    targets = [FeatureRef(one.pos.x, one.pos.y, s) for s in rt.spots]
    img, pic = picture(view, targets, [chr(65 + i) for i in range(len(targets))])
    assert pic.grid is not None
    assert (pic.grid.cols, pic.grid.rows, pic.grid.tile) == (1, 1, TARGET_TILE)
    # one tile and a quarter of each neighbour: the tile in play at full size
    assert img.size == (TARGET_TILE * 3 // 2, TARGET_TILE * 3 // 2)
    x, y = pic.grid.cell_xy(one.pos.x, one.pos.y)
    want = tile_image(one.tile, int(one.rotation), TARGET_TILE)
    # away from labels and figures, the tile is drawn where the grid says
    corner = img.crop((x + 2, y + 2, x + 20, y + 20))
    assert corner.tobytes() == want.crop((2, 2, 20, 20)).tobytes()
    # the neighbours are dimmed: darker than the same tile art
    board = board_image(view, panel=False)
    assert sum(px(img, (4, 4))) <= sum(px(board, (0, 0))) + 300
    # two tiles far apart: a region spanning both, smaller tiles, still within the side limit
    far = max(view.tiles, key=lambda t: abs(t.pos.x - one.pos.x) + abs(t.pos.y - one.pos.y))
    rt2 = tile(far.tile).rotated(int(far.rotation))
    both = [*targets, FeatureRef(far.pos.x, far.pos.y, rt2.spots[0])]
    img2, pic2 = picture(view, both, [str(i) for i in range(len(both))])
    assert pic2.grid is not None
    assert pic2.grid.cols == abs(far.pos.x - one.pos.x) + 1
    assert pic2.grid.rows == abs(far.pos.y - one.pos.y) + 1
    assert pic2.grid.tile < TARGET_TILE and max(img2.size) <= 1536


def test_corner_marker_on_the_corner_point(game: PublicView) -> None:
    tv = game.tiles[len(game.tiles) // 2]
    targets: list[Target] = [Corner(tv.pos.x, tv.pos.y), Corner(tv.pos.x + 1, tv.pos.y + 1)]
    img, pic = picture(game, targets, ["1", "2"])
    assert pic.grid is not None
    T = pic.grid.tile
    for lab, t in zip(pic.labels, targets, strict=True):
        assert isinstance(t, Corner)
        # the north-west corner of cell (x, y) is the top-left pixel of that cell
        cx, cy = pic.grid.cell_xy(t.x, t.y)
        assert lab.anchor == (cx, cy) and lab.at == (cx, cy)
        # a yellow diamond centred there: yellow above, below, left and right of the point
        k = 14
        for dx, dy in ((0, -k), (0, k), (-k, 0), (k, 0)):
            assert near(px(img, (cx + dx, cy + dy)), ACCENT), (t, dx, dy)
        # ... and not in the middle of the cell, where nothing was asked
        assert not near(px(img, (cx + T / 2, cy + T / 2)), ACCENT)
        # the label's dark figures on it
        assert count(img, (cx - 8, cy - 10, cx + 8, cy + 10), RIM) > 8


def test_figures_get_a_ring_and_a_label(game: PublicView) -> None:
    figs = [f for f in game.figures][:8]
    assert figs and {f.figure for f in game.figures} & {"builder", "pig", "large"}
    targets = [FigureRef(f.pos.x, f.pos.y, f.spot, f.figure, f.seat) for f in figs]
    img, pic = picture(game, targets, [str(i + 1) for i in range(len(figs))])
    assert pic.grid is not None
    for lab, f in zip(pic.labels, figs, strict=True):
        cx, cy = lab.anchor
        x, y = pic.grid.cell_xy(f.pos.x, f.pos.y)
        assert x <= cx <= x + pic.grid.tile and y <= cy <= y + pic.grid.tile
        # the figure in its colour inside the ring; the ring yellow around it
        fill = seat_style(int(f.seat)).fill
        assert count(img, (cx - 8, cy - 8, cx + 8, cy + 8), fill) > 10, f
        ring = [
            px(img, (cx + math.cos(a) * rr, cy + math.sin(a) * rr))
            for a in (i * math.pi / 8 for i in range(16))
            for rr in range(10, int(pic.grid.tile * 0.45))
        ]
        assert sum(near(p, ACCENT) for p in ring) > 16, f
        assert math.dist(lab.at, lab.anchor) < pic.grid.tile * 0.6
    assert_labels_readable(img, pic.labels, 11)


def test_neutral_and_unknown_figures_draw() -> None:
    """A neutral figure (seat -1) is light grey with a dark rim; a kind no overlay draws is a
    disc with its initial in the seat's colour."""
    from engine.carcassonne.view import FigureView
    from rendering.style import NEUTRAL as GREY

    view = public_view(new_game(GameSetup(players=2), seed=5))
    rt = tile("BA/RCr").rotated(0)
    city = next(f.index for f in rt.tile.features if f.kind.value == "city")
    road = next(f.index for f in rt.tile.features if f.kind.value == "road")
    figs = (
        FigureView(NEUTRAL, "gnome", Position(0, 0), rt.spots[city], city),  # no overlay's
        FigureView(NEUTRAL, "follower", Position(0, 0), rt.spots[road], road),
    )
    v = dataclasses.replace(view, figures=figs, last_placed={})
    targets = [FigureRef(0, 0, f.spot, f.figure, None) for f in figs]
    img, pic = picture(v, targets, ["1", "2"])
    for lab in pic.labels:
        cx, cy = lab.anchor
        box = (cx - 10, cy - 10, cx + 10, cy + 10)
        assert count(img, box, GREY.fill) > 30, lab
        assert count(img, (cx - 45, cy - 45, cx + 45, cy + 45), (20, 20, 20)) > 40  # dark rim
        for seat in (0, 1, 2, 3, 5):  # every colour but black (the rim is dark)
            assert count(img, box, seat_style(seat).fill) == 0
    # an owned kind nobody draws: a disc in the seat's colour with its initial, on the board
    wagon = (FigureView(view.current, "wagon", Position(0, 0), rt.spots[road], road),)
    board = board_image(dataclasses.replace(view, figures=wagon, last_placed={}))
    bare = board_image(dataclasses.replace(view, figures=(), last_placed={}))
    fill = seat_style(int(view.current)).fill
    full = (0, 0, *board.size)
    assert count(board, full, fill) > count(bare, full, fill) + 100


def test_track_spaces_are_lit_and_labelled(game: PublicView) -> None:
    spaces = [0, 7, 24, 25, 49, 57]  # 57 goes round: space 7
    targets = [TrackSpace(n) for n in spaces]
    labels = ["A", "B", "C", "D", "E", "F"]
    img, pic = picture(game, targets, labels)
    assert pic.grid is None  # no board targets: the strip alone
    assert [lab.label for lab in pic.labels] == labels
    lit = {n % 50 for n in spaces}
    # the spaces: 25 a row, two rows; probe each space's lit colour at its top-left inside
    row0 = [lab for lab in pic.labels if lab.at[1] < lab.anchor[1]]
    assert {lab.label for lab in row0} == {"A", "B", "C", "F"}
    xs = sorted({lab.anchor[0] for lab in pic.labels})
    sq = xs[1] - xs[0] if len(xs) > 1 else TRACK_SPACE
    assert sq > 0
    for lab in pic.labels:
        ax, ay = lab.anchor
        inside = (ax - 8, ay + 4) if lab.at[1] < ay else (ax - 8, ay - 6)
        assert near(px(img, inside), ACCENT), lab
    y_row0 = next(lab.anchor[1] for lab in row0) + 4
    unlit = [n for n in range(25) if n not in lit]
    x_of = {n: lab.anchor[0] for lab, n in zip(pic.labels, spaces, strict=True) if n < 25}
    step = (x_of[24] - x_of[0]) / 24
    for n in unlit:
        assert not near(px(img, (x_of[0] + n * step - 8, y_row0)), ACCENT), n
    # the two labels of space 7 (B and F) stand side by side, clear of each other
    b, f = pic.labels[1], pic.labels[5]
    assert b.anchor == f.anchor and math.dist(b.at, f.at) >= 24
    assert_labels_readable(img, pic.labels, 12)


def test_tile_choices_show_the_tiles_with_labels_under_them() -> None:
    view = public_view(new_game(GameSetup(players=2), seed=5))
    ids = ["BA/C", "BA/RCr", "BA/L"]
    img, pic = picture(view, [TileChoice(t) for t in ids], ["1", "2", "3"])
    for lab, tid in zip(pic.labels, ids, strict=True):
        x, y = lab.at
        want = tile_image(tid, 0, 112)
        # the tile right above its label
        top = (int(x - 56), int(y - 14 - 8 - 112))
        got = img.crop((top[0] + 4, top[1] + 4, top[0] + 108, top[1] + 108))
        assert got.tobytes() == want.crop((4, 4, 108, 108)).tobytes(), tid
    assert_labels_readable(img, pic.labels, 14)


def test_cells_are_numbered_and_mixed_targets_stack() -> None:
    state, views = play(12, seed=6, players=2, expansions=BOTH)
    view = views[-1]
    cells = sorted(legal_placements(state), key=lambda p: (p.y, p.x))[:5]
    tv = view.tiles[0]
    targets: list[Target | None] = [
        *(Cell(p.x, p.y) for p in cells),
        Cell(tv.pos.x, tv.pos.y),  # an occupied cell: framed, labelled, tile still visible
        TrackSpace(3),
        TileChoice("BA/C"),
        CardRef("x"),  # card targets belong to the card game: not drawn
        None,  # options without a target: not drawn
    ]
    labels = [str(i + 1) for i in range(len(targets))]
    png = decode(render_targets(view, targets, labels, title="Choose"))
    pic = targets_picture(view, targets, labels, title="Choose")
    assert png.tobytes() == pic.image.tobytes()
    assert [lab.label for lab in pic.labels] == labels[:8]
    assert pic.grid is not None and pic.grid.oy > TITLE_H
    T = pic.grid.tile
    for p in cells:
        x, y = pic.grid.cell_xy(p.x, p.y)
        assert near(px(png, (x + T / 6, y + T / 6)), CELL_FILL), p
        assert near(px(png, (x + 3, y + T / 2)), CELL_FRAME), p
    x, y = pic.grid.cell_xy(tv.pos.x, tv.pos.y)
    assert near(px(png, (x + 3, y + T / 2)), ACCENT)
    assert not near(px(png, (x + T / 4, y + T / 4)), CELL_FILL)
    # the strips come under the board, in the order track, tiles
    track, choice = pic.labels[6], pic.labels[7]
    assert pic.grid.oy + pic.grid.rows * T < track.at[1] < choice.at[1] < png.size[1]
    with pytest.raises(ValueError, match="labels"):
        render_targets(view, targets, labels[:-1])


def test_no_targets_gives_the_plain_board() -> None:
    view = play(5, seed=2)[1][-1]
    img = decode(render_targets(view, [None], ["1"]))
    assert img.tobytes() == board_image(view, panel=False).tobytes()


def test_crowded_labels_on_a_big_board_never_overlap() -> None:
    """Every city of a long game offered at once: tiles get small, labels move aside."""
    view = play(200, seed=4, players=4)[1][-1]
    targets = []
    for tv in view.tiles:
        rt = tile(tv.tile).rotated(int(tv.rotation))
        targets += [FeatureRef(tv.pos.x, tv.pos.y, s) for s in rt.spots if s.startswith("city")]
    assert len(targets) > 40
    img, pic = picture(view, targets, [str(i + 1) for i in range(len(targets))])
    assert max(img.size) <= 1536
    assert len(pic.labels) == len(targets)
    boxes = []
    r = max(lab.radius for lab in pic.labels)
    assert r >= 11
    for lab in pic.labels:
        hw, hh = label_extent(lab.label, r)
        boxes.append((lab.at[0] - hw, lab.at[1] - hh, lab.at[0] + hw, lab.at[1] + hh))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap_x = min(a[2], b[2]) - max(a[0], b[0])
            overlap_y = min(a[3], b[3]) - max(a[1], b[1])
            # pills may share a corner of their boxes, never their bodies
            assert overlap_x < 2 * r or overlap_y < r, (a, b)
    assert_labels_readable(img, pic.labels, 11)
