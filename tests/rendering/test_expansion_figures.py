"""Inns & Cathedrals and Traders & Builders pieces, decoded and probed: the large follower, the
builder, the pig, the figures left by kind and the goods tokens in the panel."""

from __future__ import annotations

import dataclasses
import io
import math
from collections import Counter
from collections.abc import Sequence

import pytest
from PIL import Image

from engine import (
    GameSetup,
    Pass,
    PlaceTile,
    Position,
    PublicView,
    Rotation,
    Seat,
    apply,
    legal_deploys,
    legal_placements,
    new_game,
    public_view,
)
from engine.carcassonne.actions import Choose
from engine.carcassonne.tiles import FeatureKind, tile
from engine.carcassonne.view import FigureView, TileView
from engine.core.decisions import FeatureRef
from rendering import render_board, render_spots, spot_anchor, style
from rendering.board import ICON, LINE_H, MAX_SIDE, board_image, board_picture
from rendering.figures import figure_sprite
from rendering.header import CHIP_H, TOP_H
from rendering.marks import SPOT_RADIUS, SPOT_TILE, SUPPLY_STRIP
from rendering.overlays.traders_builders import GOODS_CHIP, HAMMER

BOTH = ("inns_cathedrals", "traders_builders")
ORIGIN = Position(0, 0)
#: the builder's hammer head (no tile art uses this grey)
STEEL = HAMMER
#: the wine symbol's grapes
GRAPE = (120, 40, 130)


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def near(c: Sequence[int], want: Sequence[int], tol: int = 24) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def mask(img: Image.Image, colour: Sequence[int], tol: int = 24) -> set[tuple[int, int]]:
    """Pixels of ``img`` close to ``colour``, as (x, y) in ``img``."""
    w = img.size[0]
    raw = img.convert("RGB").tobytes()
    return {
        (i % w, i // w) for i in range(w * img.size[1]) if near(raw[3 * i : 3 * i + 3], colour, tol)
    }


def start_view(**setup: object) -> PublicView:
    return public_view(new_game(GameSetup(players=2, expansions=BOTH, **setup), seed=5))  # type: ignore[arg-type]


def feature_of(kind: FeatureKind) -> int:
    return next(f.index for f in tile("BA/RCr").features if f.kind is kind)


def with_figures(view: PublicView, *figs: tuple[int, str, FeatureKind]) -> PublicView:
    return dataclasses.replace(
        view,
        figures=tuple(FigureView(Seat(s), k, ORIGIN, "x", feature_of(f)) for s, k, f in figs),
        last_placed={},
    )


def cell(view: PublicView) -> Image.Image:
    img = decode(render_board(view))
    fr = board_picture(view, whole=False).frame
    x, y = fr.cell_xy(ORIGIN)
    return img.crop((x, y, x + fr.tile, y + fr.tile))


def test_start_tile_is_the_base_one() -> None:
    view = start_view()
    assert [t.tile for t in view.tiles] == ["BA/RCr"]
    assert view.tiles[0].rotation == Rotation.R0


@pytest.mark.parametrize("kind", [FeatureKind.CITY, FeatureKind.ROAD, FeatureKind.FIELD])
def test_large_follower_is_bigger_in_the_same_colour_and_shape(kind: FeatureKind) -> None:
    view = start_view()
    red = style.seat_style(0).fill
    small = mask(cell(with_figures(view, (0, "follower", kind))), red)
    large = mask(cell(with_figures(view, (0, "large", kind))), red)
    bare = mask(cell(with_figures(view)), red)
    assert len(small - bare) > 50
    assert len(large - bare) > 1.4 * len(small - bare), (len(large), len(small))
    # the seat's mark (red: a white circle) is on its chest as on the normal follower
    white = mask(cell(with_figures(view, (0, "large", kind))), (255, 255, 255), 30)
    xs = [x for x, _ in large - bare]
    ys = [y for _, y in large - bare]
    inside = [(x, y) for x, y in white if min(xs) < x < max(xs) and min(ys) < y < max(ys)]
    assert len(inside) > 20


def test_builder_and_pig_have_their_own_shapes_in_seat_colour() -> None:
    view = start_view()
    T = board_picture(view, whole=False).frame.tile
    shapes: dict[str, set[tuple[int, int]]] = {}
    for seat in (0, 1):
        colour = style.seat_style(seat).fill
        for kind, feat in (
            ("follower", FeatureKind.ROAD),
            ("builder", FeatureKind.ROAD),
            ("pig", FeatureKind.FIELD),
        ):
            pic = cell(with_figures(view, (seat, kind, feat)))
            got = mask(pic, colour) - mask(cell(with_figures(view)), colour)
            assert len(got) > 60, (seat, kind, len(got))
            # centred on the feature's anchor
            fx, fy = spot_anchor(tile("BA/RCr"), 0, feature_of(feat))
            fx, fy = min(max(fx, 0.18), 0.82), min(max(fy, 0.18), 0.82)
            cx = sum(x for x, _ in got) / len(got)
            cy = sum(y for _, y in got) / len(got)
            assert abs(cx - fx * T) < T * 0.1 and abs(cy - fy * T) < T * 0.12, (kind, cx, cy)
            shapes[f"{kind}{seat}"] = {(x - round(cx), y - round(cy)) for x, y in got}
            if kind == "builder":  # the hammer
                assert len(mask(pic, STEEL, 12)) > 4
    for seat in (0, 1):
        f, b, p = (shapes[f"{k}{seat}"] for k in ("follower", "builder", "pig"))
        for a, c in ((f, b), (f, p), (b, p)):
            assert len(a & c) / len(a | c) < 0.6  # different silhouettes
    # the pig is long and low; the builder tall and narrow
    for seat in (0, 1):
        p = shapes[f"pig{seat}"]
        b = shapes[f"builder{seat}"]
        assert _span(p, 0) > 1.4 * _span(p, 1)
        assert _span(b, 1) > 1.2 * _span(b, 0)


def _span(points: set[tuple[int, int]], axis: int) -> int:
    vals = [p[axis] for p in points]
    return max(vals) - min(vals)


@pytest.mark.parametrize(
    ("other", "feat"),
    [("builder", FeatureKind.ROAD), ("pig", FeatureKind.FIELD), ("builder", FeatureKind.CITY)],
)
def test_a_second_figure_never_hides_the_follower(other: str, feat: FeatureKind) -> None:
    """Follower and builder (or pig) of one seat on one feature: every pixel of the follower
    drawn alone is still there, and the other figure shows beside it."""
    view = start_view()
    red = style.seat_style(0).fill
    alone = cell(with_figures(view, (0, "follower", feat)))
    both = cell(with_figures(view, (0, other, feat), (0, "follower", feat)))
    follower = mask(alone, red)
    kept = mask(both, red)
    assert len(follower & kept) >= 0.98 * len(follower)
    assert len(kept - follower) > 40  # the other figure, clear of the follower
    if other == "builder":
        assert len(mask(both, STEEL, 12)) > 4


def _row_box(view: PublicView, seat: int) -> tuple[int, int, int, int]:
    """Box of ``seat``'s chip in the score strip on top of the picture."""
    header = board_picture(view).header
    assert header is not None
    return header.chip(seat).box


def _with_goods(view: PublicView, goods: tuple[tuple[int, int, int], ...]) -> PublicView:
    model = view.ext["traders_builders"]
    return dataclasses.replace(
        view, ext={**view.ext, "traders_builders": dataclasses.replace(model, goods=goods)}
    )


def test_goods_held_show_in_the_panel() -> None:
    view = start_view()
    none = board_image(_with_goods(view, ((0, 0, 0), (0, 0, 0))))
    some = board_image(_with_goods(view, ((2, 0, 1), (0, 0, 0))))
    assert none.size == some.size
    row0 = _row_box(view, 0)
    row1 = _row_box(view, 1)
    # the three goods icons are in every player's row
    for row in (row0, row1):
        chips = mask(none.crop(row), GOODS_CHIP, 12)
        assert len(chips) > 3 * ICON, row
        assert len(mask(none.crop(row), GRAPE, 30)) > 10  # the wine icon's grapes
    diff = Image.frombytes(
        "L",
        none.size,
        bytes(
            int(a != b) * 255 for a, b in zip(none.tobytes()[::3], some.tobytes()[::3], strict=True)
        ),
    )
    box = diff.getbbox()
    assert box is not None
    # only seat 0's goods line changed: the counts 2 and 1 beside the wine and cloth icons
    assert row0[0] <= box[0] and box[2] <= row0[2]
    assert row0[3] - LINE_H - 8 <= box[1] and box[3] <= row0[3]
    changed = some.crop(box)
    assert len(mask(changed, style.TEXT, 30)) > 10  # counts above zero are drawn bright
    # the change sits in two places (after the wine icon and after the cloth icon), not three
    cols = sorted({x for x, _ in mask(diff.crop(box).convert("RGB"), (255, 255, 255), 0)})
    groups = 1 + sum(1 for a, b in zip(cols, cols[1:], strict=False) if b - a > ICON)
    assert groups == 2, cols


def _figure_icons(view: PublicView, seat: int) -> int:
    """How many seat-coloured icons stand on ``seat``'s figures line (under the chip's top band)."""
    x0, top, x1, _bottom = _row_box(view, seat)
    line = board_image(view).crop((x0 + 4, top + TOP_H + 2, x1, top + CHIP_H - 2))
    cols = sorted({x for x, _ in mask(line, style.seat_style(seat).fill)})
    return 1 + sum(1 for a, b in zip(cols, cols[1:], strict=False) if b - a > 6) if cols else 0


def test_panel_lists_only_the_figure_kinds_of_the_match() -> None:
    base = public_view(new_game(GameSetup(players=2), seed=5))
    assert not mask(board_image(base).crop(_row_box(base, 0)), GOODS_CHIP, 12)
    assert _figure_icons(base, 0) == 1  # followers only
    tb = start_view()
    assert set(tb.players[0].supply) == {"follower", "large", "builder", "pig"}
    assert _figure_icons(tb, 0) == 4
    assert _figure_icons(tb, 1) == 4
    assert len(mask(board_image(tb).crop(_row_box(tb, 0)), STEEL, 12)) > 4  # the hammer
    inns = public_view(new_game(GameSetup(players=2, expansions=("inns_cathedrals",)), seed=5))
    assert _figure_icons(inns, 0) == 2
    assert not mask(board_image(inns).crop(_row_box(inns, 0)), GOODS_CHIP, 12)
    # goods switched off: figures shown, goods not
    off = start_view(options=(("tb.goods", False),))
    assert not mask(board_image(off).crop(_row_box(off, 0)), GOODS_CHIP, 12)


def test_figures_left_counts_follow_the_supply() -> None:
    """Deploying the builder turns its count from 1 to 0 in that player's row, nothing else."""
    view = start_view()
    p0 = view.players[0]
    less = dataclasses.replace(p0, supply={**p0.supply, "builder": 0})
    after = dataclasses.replace(view, players=(less, *view.players[1:]))
    a, b = board_image(view), board_image(after)
    row = _row_box(view, 0)
    diff = [
        (x, y)
        for y in range(row[1], row[3])
        for x in range(row[0], row[2])
        if a.getpixel((x, y)) != b.getpixel((x, y))
    ]
    assert diff
    assert all(row[1] + 20 < y < row[3] - LINE_H for _, y in diff)  # the figures line only


def test_whole_game_with_both_expansions_renders_every_turn() -> None:
    state = new_game(GameSetup(players=2, expansions=BOTH, names=("Ana", "Борис")), seed=21)
    import random

    rnd = random.Random(21)
    kinds: Counter[str] = Counter()
    views: list[PublicView] = []
    turns = 0
    while state.step != "over":
        if state.step == "tb.bonus":  # the builder's second tile is offered: take it
            state = apply(state, state.current, Choose("tb.bonus", "take")).state
            continue
        pl = legal_placements(state)
        pos = sorted(pl)[rnd.randrange(len(pl))]
        state = apply(state, state.current, PlaceTile(pos, pl[pos][0])).state
        if state.step == "deploy":
            ds = legal_deploys(state)
            if ds and rnd.random() < 0.8:
                # prefer the expansion figures so they all reach the board
                special = [d for d in ds if d.figure != "follower"]
                pick = (special or ds)[rnd.randrange(len(special or ds))]
                spots = list(dict.fromkeys(d.spot for d in ds))
                img = decode(render_spots(public_view(state), spots))
                side = SPOT_TILE * 3 // 2
                assert img.size == (side, side + SUPPLY_STRIP)
                state = apply(state, state.current, pick).state
                kinds[pick.figure] += 1
            else:
                state = apply(state, state.current, Pass()).state
        views.append(public_view(state))
        png = render_board(views[-1])
        assert len(png) <= 1_500_000
        assert max(decode(png).size) <= MAX_SIDE
        turns += 1
    assert turns > 60
    assert {"follower", "large", "builder", "pig"} <= set(kinds), kinds
    # the view with the most builders and pigs on the board: each is drawn in its cell
    view = max(views, key=lambda v: sum(f.figure in ("builder", "pig") for f in v.figures))
    img = board_image(view)
    fr = board_picture(view).frame
    on_board = [f for f in view.figures if f.figure in ("builder", "pig")]
    assert on_board
    for fig in on_board:
        x, y = fr.cell_xy(fig.pos)
        box = img.crop((x, y, x + fr.tile, y + fr.tile))
        assert len(mask(box, style.seat_style(int(fig.seat)).fill)) > 30, fig
        if fig.figure == "builder":
            assert mask(box, STEEL, 12), fig


def test_spots_for_any_figure_and_repeated_spots_get_separate_letters() -> None:
    """A spot offered for two figures gets two letters that never overlap each other nor
    cover another offered spot; each shows its figure in the deciding seat's colour."""
    from rendering.targets import targets_picture

    view = start_view()
    # pretend the start tile was just placed: its road offered to two figure kinds
    placed = dataclasses.replace(view, placed=ORIGIN)
    spots = ["road:EW", "road:EW", "city:N"]
    figures = ["follower", "large", "follower"]
    pic = targets_picture(
        placed,
        [FeatureRef(0, 0, s) for s in spots],
        ["A", "B", "C"],
        seat=placed.current,
        figures=figures,
    )
    a, b, c = pic.labels
    assert a.anchor == b.anchor != c.anchor
    assert a.at == a.anchor  # the first letter stands on its spot...
    assert math.dist(b.at, b.anchor) > 2 * SPOT_TILE * SPOT_RADIUS  # ...the second clear of it
    r = SPOT_TILE * SPOT_RADIUS
    for p, q in ((a, b), (a, c), (b, c)):
        assert math.dist(p.at, q.at) > 2 * r, (p, q)
    assert math.dist(b.at, c.anchor) > 1.5 * r  # not on the city's spot
    # each pill shows its figure: seat-coloured pixels inside every label
    colour = style.seat_style(int(placed.current)).fill
    for lab in (a, b, c):
        x, y = lab.at
        box = pic.image.crop((int(x - 3 * r), int(y - r), int(x + 3 * r), int(y + r)))
        assert len(mask(box, colour)) > 20, lab

    # the large follower's icon is bigger than the follower's
    def icon_px(lab: object) -> int:
        x, y = lab.at  # type: ignore[attr-defined]
        return len(
            mask(pic.image.crop((int(x - 3 * r), int(y - r), int(x + 3 * r), int(y + r))), colour)
        )

    assert icon_px(b) > icon_px(a)


def test_header_keeps_every_goods_line_inside_the_picture() -> None:
    """Five players with goods: every chip's goods line fits inside the header."""
    view = public_view(
        new_game(GameSetup(players=5, expansions=BOTH, names=("A", "B", "C", "D", "E")), seed=3)
    )
    row = tuple(TileView(Position(x, 0), "BA/RFr", Rotation.R0) for x in range(-6, 8))
    wide = dataclasses.replace(view, tiles=row)
    pic = board_picture(wide)
    assert pic.header is not None
    strip = pic.image.crop((0, 0, pic.image.size[0], pic.header.height))
    chips = mask(strip, GOODS_CHIP, 12)
    # 5 players × 3 goods icons, each with a green chip
    assert len(chips) > 15 * ICON
    assert max(y for _, y in chips) < strip.size[1] - 4


def test_sprites_keep_their_sizes() -> None:
    f = figure_sprite("follower", 0, 40)
    lg = figure_sprite("large", 0, 40)
    assert lg.size[0] > f.size[0] * 1.25
    for kind in ("builder", "pig"):
        box = figure_sprite(kind, 1, 40).getbbox()
        assert box is not None and box[2] - box[0] > 20


def test_spots_show_the_deploying_players_figures_left() -> None:
    """With expansion figures, a strip under the spots holds one icon per kind in the deploying
    player's colour, and a spent kind's count changes the strip."""
    view = dataclasses.replace(start_view(), placed=ORIGIN)
    seat = int(view.current)
    img = decode(render_spots(view, ["road:EW"]))
    side = SPOT_TILE * 3 // 2
    assert img.size == (side, side + SUPPLY_STRIP)
    strip = img.crop((0, side, side, side + SUPPLY_STRIP))
    cols = sorted({x for x, _ in mask(strip, style.seat_style(seat).fill)})
    icons = 1 + sum(1 for a, b in zip(cols, cols[1:], strict=False) if b - a > 6)
    assert icons == 4
    assert not mask(strip, style.seat_style(1 - seat).fill)
    p = view.players[seat]
    spent = dataclasses.replace(p, supply={**p.supply, "pig": 0})
    players = tuple(spent if q.seat == p.seat else q for q in view.players)
    other = decode(render_spots(dataclasses.replace(view, players=players), ["road:EW"]))
    assert other.crop((0, 0, side, side)).tobytes() == img.crop((0, 0, side, side)).tobytes()
    assert other.crop((0, side, side, side + SUPPLY_STRIP)).tobytes() != strip.tobytes()
    # the base game keeps the plain square picture
    base = public_view(new_game(GameSetup(players=2), seed=5))
    plain = decode(render_spots(dataclasses.replace(base, placed=ORIGIN), ["road:EW"]))
    assert plain.size == (side, side)
