"""Ferries' overlay: each ferry drawn on its lake between the two road ends it joins (a timber
route and a boat), the targets of the ferry decisions numbered on the lake between their ends,
all readable at phone width. Real PNGs, decoded and probed pixel by pixel."""

from __future__ import annotations

import io

from PIL import Image

from engine import public_view
from engine.carcassonne.geometry import Position
from engine.carcassonne.rules import pending
from engine.carcassonne.view import PublicView
from rendering import render_board, render_targets
from rendering.board import board_picture
from rendering.overlays.ferries import HULL, ROUTE_LIGHT, pair_point
from rendering.targets import view_spot_point
from tests.engine.expansions.test_ferries import EXAMPLE, PILE, go
from tests.rendering.phone import assert_readable_on_a_phone, phone

FR = ("ferries",)
LAKE = Position(2, 0)
#: after example 3 (the ferry at 2,0 moved to east–south), a four-way lake at 3,0 whose ferry
#: joins its north and west ends
MOVES = [
    *EXAMPLE,
    "ferries.place SW",
    "place 2,1 r90",
    "pass",
    "ferries.move 2,0:ES",
    "place 3,0 r0",
    "pass",
    "ferries.place NW",
    "pass",
]
TILES = [*PILE, "BA/RFr", "FR/RRRR"]


def near(c: tuple[int, ...], want: tuple[int, ...], tol: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def count(img: Image.Image, box: tuple[float, ...], colour: tuple[int, ...]) -> int:
    raw = img.crop(tuple(int(v) for v in box)).tobytes()  # type: ignore[arg-type]
    return sum(1 for i in range(0, len(raw), 3) if near(tuple(raw[i : i + 3]), colour))


def ferries_view() -> PublicView:
    return public_view(go(TILES, MOVES, expansions=FR).state)


def quadrant(fr_xy: tuple[int, int], T: int, qx: int, qy: int) -> tuple[float, ...]:
    """The quarter of the lake's box (the middle half of the tile) towards ``qx``, ``qy``."""
    x, y = fr_xy
    cx, cy = x + T / 2, y + T / 2
    half = T * 0.25
    return (
        cx + (0 if qx > 0 else -half),
        cy + (0 if qy > 0 else -half),
        cx + (half if qx > 0 else 0),
        cy + (half if qy > 0 else 0),
    )


def test_a_ferry_is_drawn_between_the_two_ends_it_joins_and_nowhere_else() -> None:
    """The four-way lake at 3,0 has its ferry north–west: its route's timber lies in the lake's
    north-west quarter, none in the south-east one."""
    pic = board_picture(ferries_view(), whole=True)
    img, fr = pic.image.convert("RGB"), pic.frame
    T = fr.tile
    xy = fr.cell_xy(Position(3, 0))
    assert count(img, quadrant(xy, T, -1, -1), ROUTE_LIGHT) > T * 0.3
    assert count(img, quadrant(xy, T, -1, -1), HULL) > T * 0.3
    assert count(img, quadrant(xy, T, 1, 1), ROUTE_LIGHT) == 0


def test_a_lake_without_its_ferry_yet_has_no_route() -> None:
    view = public_view(go(PILE, EXAMPLE, expansions=FR).state)  # the lake awaits its ferry
    pic = board_picture(view, whole=True)
    img, fr = pic.image.convert("RGB"), pic.frame
    x, y = fr.cell_xy(LAKE)
    T = fr.tile
    assert count(img, (x + T * 0.25, y + T * 0.25, x + T * 0.75, y + T * 0.75), ROUTE_LIGHT) == 0


def test_the_targets_stand_on_the_lake_between_their_ends() -> None:
    """The six pairs of the four-way lake: each number between its two ends (a corner of the
    lake for ends side by side, off the middle on the route for opposite ends), all distinct."""
    s = go(TILES, MOVES[:-2], expansions=FR).state
    (d,) = pending(s)
    view = public_view(s)
    tv = next(t for t in view.tiles if t.pos == Position(3, 0))
    points = {o.id: view_spot_point(view, tv, o.target.spot) for o in d.options}  # type: ignore[union-attr]
    assert len(set(points.values())) == 6
    assert points["NE"][0] > 0.5 > points["NE"][1]
    assert points["SW"][0] < 0.5 < points["SW"][1]
    assert points["NS"] == pair_point(0b0101) and points["NS"][1] < 0.5
    png = render_targets(
        view, [o.target for o in d.options], [str(i) for i in range(1, 7)], seat=d.seat
    )
    img = Image.open(io.BytesIO(png)).convert("RGB")
    small = phone(img)  # the numbers' white discs still show on the lake at phone width
    assert count(small, (0, 0, *small.size), (255, 255, 255)) > 6 * 40


def test_at_phone_width_the_ferries_still_show() -> None:
    view = ferries_view()
    png = render_board(view, whole=False)
    assert_readable_on_a_phone(png, view)
    small = phone(Image.open(io.BytesIO(png)).convert("RGB"))
    assert small.size[0] <= 400
    assert count(small, (0, 0, *small.size), ROUTE_LIGHT) > 8
    assert count(small, (0, 0, *small.size), HULL) > 8
