"""Abbey & Mayor pieces, decoded and probed: the mayor, the wagon and the barn in their own
shapes, the barn on its corner, the abbey tiles held in the panel, and the pictures of the
expansion's decisions (a barn's corner, a wagon's moves, the abbey's holes)."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence

from PIL import Image

from engine import GameSetup, Position, PublicView, Seat, new_game, public_view
from engine.carcassonne.rules import pending
from engine.carcassonne.view import FigureView
from rendering import render_board, render_targets, style
from rendering.board import MAX_SIDE, board_frame, board_image, board_picture
from rendering.figures import figure_sprite
from rendering.overlays.abbey_mayor import WHEEL, abbey_icon
from rendering.targets import targets_picture
from tests.engine.expansions.scenario import play
from tests.engine.expansions.test_abbey_mayor import (
    ABBEY_MOVES,
    ABBEY_PILE,
    BARN_MOVES,
    BARN_PILE,
)
from tests.engine.expansions.test_abbey_mayor_wagon import WAGON1_MOVES, WAGON1_PILE

AM = ("abbey_mayor",)


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def near(c: Sequence[int], want: Sequence[int], tol: int = 24) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def mask(img: Image.Image, colour: Sequence[int], tol: int = 24) -> set[tuple[int, int]]:
    w = img.size[0]
    raw = img.convert("RGB").tobytes()
    return {
        (i % w, i // w) for i in range(w * img.size[1]) if near(raw[3 * i : 3 * i + 3], colour, tol)
    }


def silhouette(kind: str, seat: int = 0, size: int = 48) -> set[tuple[int, int]]:
    """The opaque pixels of a sprite, centred on their middle."""
    sprite = figure_sprite(kind, seat, size)
    alpha = sprite.getchannel("A")
    pts = {
        (x, y)
        for y in range(sprite.size[1])
        for x in range(sprite.size[0])
        if alpha.getpixel((x, y)) > 128
    }  # type: ignore[operator]
    cx = sum(x for x, _ in pts) // len(pts)
    cy = sum(y for _, y in pts) // len(pts)
    return {(x - cx, y - cy) for x, y in pts}


def span(points: set[tuple[int, int]], axis: int) -> int:
    vals = [p[axis] for p in points]
    return max(vals) - min(vals)


def test_mayor_wagon_and_barn_have_their_own_shapes_in_seat_colour() -> None:
    kinds = ("follower", "mayor", "wagon", "barn")
    for seat in range(6):
        shapes = {k: silhouette(k, seat) for k in kinds}
        for i, a in enumerate(kinds):
            for b in kinds[i + 1 :]:
                overlap = len(shapes[a] & shapes[b]) / len(shapes[a] | shapes[b])
                assert overlap < 0.7, (seat, a, b, overlap)
        colour = style.seat_style(seat).fill
        for k in kinds[1:]:
            sprite = figure_sprite(k, seat, 48).convert("RGB")
            assert len(mask(sprite, colour, 30)) > 150, (seat, k)
        # the wagon is wide and low with dark wheels; the mayor tall and narrow
        assert span(shapes["wagon"], 0) > 1.2 * span(shapes["wagon"], 1)
        assert span(shapes["mayor"], 1) > 1.1 * span(shapes["mayor"], 0)
        assert len(mask(figure_sprite("wagon", seat, 48).convert("RGB"), WHEEL[:3], 20)) > 40


def test_phone_sized_sprites_stay_apart() -> None:
    """At the size a phone shows a large board (sprites of about 16 px) the silhouettes still
    differ: the wagon is the widest, the mayor the tallest."""
    small = {k: silhouette(k, 1, 16) for k in ("follower", "mayor", "wagon", "barn")}
    assert max(small, key=lambda k: span(small[k], 0)) == "wagon"
    assert span(small["mayor"], 1) >= span(small["follower"], 1)
    assert len(small["wagon"] & small["barn"]) / len(small["wagon"] | small["barn"]) < 0.75


def barn_view() -> PublicView:
    p = play(BARN_PILE, [*BARN_MOVES, "deploy barn corner:NW"], expansions=AM)
    return public_view(p.state)


def test_barn_stands_on_its_corner() -> None:
    view = barn_view()
    (barn,) = view.ext["abbey_mayor"].barns
    assert barn.corner == (1, 1)
    blue = style.seat_style(0).fill
    with_barn = board_image(view, panel=False)
    without = board_image(
        dataclasses.replace(
            view, ext={"abbey_mayor": dataclasses.replace(view.ext["abbey_mayor"], barns=())}
        ),
        panel=False,
    )
    got = mask(with_barn, blue) - mask(without, blue)
    assert len(got) > 100
    fr = board_frame(view, panel=False)
    x, y = fr.cell_xy(Position(*barn.corner))
    cx = sum(p[0] for p in got) / len(got)
    cy = sum(p[1] for p in got) / len(got)
    # centred on the corner point, overlapping the four tiles round it
    assert abs(cx - x) < fr.tile * 0.12 and abs(cy - y) < fr.tile * 0.15
    assert {(px < x, py < y) for px, py in got} == {
        (True, True),
        (True, False),
        (False, True),
        (False, False),
    }


def test_abbey_tiles_held_show_in_the_chip_and_figures_left_by_kind() -> None:
    """Each player's chip in the score strip shows the abbey tile still held (its stone) and
    the mayor, wagon and barn icons in the seat's colour; without abbeys the stone is gone."""
    stone = abbey_icon(24).convert("RGB").getpixel((4, 4))

    def chips(options: tuple[tuple[str, object], ...]) -> list[Image.Image]:
        view = public_view(
            new_game(GameSetup(players=2, expansions=AM, options=options), seed=3)  # type: ignore[arg-type]
        )
        pic = board_picture(view)
        assert pic.header is not None
        return [pic.image.crop(pic.header.chip(seat).box) for seat in (0, 1)]

    for seat, chip in enumerate(chips(())):
        assert len(mask(chip, stone, 12)) > 10, seat  # the abbey tile's stone
        assert len(mask(chip, style.seat_style(seat).fill)) > 4 * 60
    for chip in chips((("am.abbey", False),)):
        assert len(mask(chip, stone, 12)) <= 10  # no abbey shown when abbeys are not played


def test_decision_pictures_corner_holes_and_wagon_moves() -> None:
    # the barn's corner: a diamond on the north-west corner point of cell (1,1)
    p = play(BARN_PILE, BARN_MOVES, expansions=AM)
    (d,) = pending(p.state)
    barn = [o for o in d.options if o.action.figure == "barn"]
    pic = targets_picture(public_view(p.state), [o.target for o in barn], ["A"])
    (label,) = pic.labels
    assert label.label == "A"
    # the abbey's hole: a framed empty cell
    q = play([*ABBEY_PILE, "BA/Rr"], ABBEY_MOVES, expansions=AM)
    (d,) = pending(q.state)
    img = decode(render_targets(public_view(q.state), [o.target for o in d.options], ["1"]))
    assert max(img.size) <= 1536 + 200
    # the wagon's moves: labels on the cloister and on the road down, on other tiles
    r = play(WAGON1_PILE, WAGON1_MOVES, expansions=AM)
    (d,) = pending(r.state)
    pic = targets_picture(public_view(r.state), [o.target for o in d.options], ["A", "B"])
    assert sorted(lab.label for lab in pic.labels) == ["A", "B"]
    assert len({lab.anchor for lab in pic.labels}) == 2


def test_whole_game_with_abbey_mayor_renders() -> None:
    from engine import apply
    from engine.carcassonne.randomplay import choose_answer
    from engine.core.rng import Rng

    s = new_game(GameSetup(players=3, expansions=AM), seed=11)
    rng = Rng(11)
    n = 0
    while not s.over:
        d = pending(s)[0]
        s = apply(s, d.seat, choose_answer(d, rng), key=d.key).state
        n += 1
        if n % 60 == 0:
            img = decode(render_board(public_view(s)))
            assert max(img.size) <= MAX_SIDE
    img = decode(render_board(public_view(s)))
    assert max(img.size) <= MAX_SIDE


def test_figure_view_of_a_wagon_is_drawn_as_a_wagon() -> None:
    view = public_view(new_game(GameSetup(players=2, expansions=AM), seed=1))
    fig = FigureView(Seat(0), "wagon", view.tiles[0].pos, "road:EW", 1)
    with_wagon = dataclasses.replace(view, figures=(fig,), last_placed={})
    img = board_image(with_wagon, panel=False)
    assert len(mask(img, WHEEL[:3], 20)) > 20
