"""Flying Machines drawn: the turn picture of a flight shows the special die on the machine's tile,
the dashed path in the flier's colour, the landing square framed (or crossed out when the
follower went home), and keeps the landing square in its crop; the boarding's target label
stands on the printed machine and the landing's on the landing tile's features; at phone width
(400 px) the die's pips and the path still show. Boards from the engine tests' rulebook
pictures (tests/engine/expansions/test_flying_machines.py)."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from PIL import Image

from engine import public_view
from engine.carcassonne.geometry import Position
from engine.carcassonne.rules import pending
from engine.carcassonne.view import PublicView
from engine.core.decisions import FeatureRef
from rendering import render_board
from rendering.board import board_picture
from rendering.layout import tile_layout
from rendering.overlays import overlay_for
from rendering.overlays.flying_machines import MISS, die_face
from rendering.spots import symbol_point
from rendering.style import seat_style
from rendering.targets import targets_picture
from tests.engine.expansions.test_flying_machines import do, first_picture
from tests.rendering.phone import assert_readable_on_a_phone, phone

RED = seat_style(0).fill


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(c: Sequence[int], want: Sequence[int], tol: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def count(img: Image.Image, box: tuple[float, float, float, float], colour: Sequence[int]) -> int:
    crop = img.crop(tuple(int(v) for v in box))  # type: ignore[arg-type]
    raw = crop.tobytes()
    return sum(1 for i in range(0, len(raw), 3) if near(raw[i : i + 3], colour))


def flight_view(roll: int) -> PublicView:
    """Red's follower flown from (0,1) west by ``roll`` (2: it waits to land on (-2,1); 3: no
    tile at (-3,1), it went home)."""
    s, _ = do(first_picture(roll), "deploy flier:W")
    return public_view(s)


@pytest.mark.parametrize("roll", [2, 3])
def test_the_turn_picture_shows_the_die_the_path_and_the_landing_square(roll: int) -> None:
    view = flight_view(roll)
    pic = board_picture(view, whole=False)
    img, fr = pic.image.convert("RGB"), pic.frame
    T = fr.tile
    target = Position(-roll, 1)
    assert fr.contains(Position(0, 1)) and fr.contains(Position(-2, 1))  # the crop keeps them
    ox, oy = fr.cell_xy(Position(0, 1))
    # the die, behind the westward machine: east of the tile's centre, white with dark pips
    die = (ox + T * 0.55, oy + T * 0.35, ox + T * 0.95, oy + T * 0.65)
    assert count(img, die, (255, 255, 255)) > (T * 0.4) ** 2 * 0.3
    # the dashed path in red's colour between the machine and the landing square
    mx, my = fr.cell_xy(Position(-1, 1))
    assert count(img, (mx, my + T * 0.4, mx + T, my + T * 0.6), RED) > T * 0.3
    if roll == 2:  # framed in red's colour, the flying follower short of it
        tx, ty = fr.cell_xy(target)
        assert count(img, (tx, ty, tx + T, ty + T * 0.12), RED) > T * 0.5
    else:  # crossed out in red (in the picture, or at its edge)
        assert count(img, (fr.cell_xy(target)[0], oy, ox, oy + T), MISS) > T * 0.3


def test_the_die_shows_the_roll_in_pips() -> None:
    """Inside its rim the die is white but for its pips: 1, 2 or 3 of the same size."""

    def pips(value: int) -> int:
        face = die_face(value, 60).convert("RGB").crop((7, 7, 53, 53))
        raw = face.tobytes()
        return sum(1 for i in range(0, len(raw), 3) if sum(raw[i : i + 3]) < 200)

    one = pips(1)
    assert one > 20
    assert pips(2) == pytest.approx(2 * one, rel=0.2)
    assert pips(3) == pytest.approx(3 * one, rel=0.2)


def test_at_phone_width_the_flight_still_shows() -> None:
    view = flight_view(2)
    png = render_board(view, whole=False)
    assert_readable_on_a_phone(png, view)
    img = decode(png)
    pic = board_picture(view, whole=False)
    f = 400 / img.size[0]
    small = phone(img)
    fr, T = pic.frame, pic.frame.tile
    ox, oy = fr.cell_xy(Position(0, 1))
    die = [v * f for v in (ox + T * 0.55, oy + T * 0.35, ox + T * 0.95, oy + T * 0.65)]
    assert count(small, die, (255, 255, 255)) > 20  # the die, at least ~5 px across
    mx, my = fr.cell_xy(Position(-1, 1))
    path = [v * f for v in (mx, my + T * 0.4, mx + T, my + T * 0.6)]
    assert count(small, path, RED) > 5


def test_the_overlay_keeps_the_landing_square_in_the_turn_picture() -> None:
    view = flight_view(3)
    ov = overlay_for("flying_machines")
    assert ov is not None and list(ov.focus(view)) == [Position(0, 1), Position(-3, 1)]
    assert list(ov.focus(public_view(first_picture(2)))) == []  # no flight yet


def test_the_boarding_label_stands_on_the_printed_machine() -> None:
    s = first_picture(2)
    view = public_view(s)
    (d,) = pending(s)
    fly = next(o for o in d.options if o.id.endswith("flier:W"))
    assert fly.target == FeatureRef(0, 1, "flier:W")
    targets = [o.target for o in d.options]
    pic = targets_picture(view, targets, [str(i + 1) for i in range(len(targets))])
    assert pic.grid is not None
    (label,) = [lab for lab in pic.labels if lab.target == fly.target]
    x, y = pic.grid.cell_xy(0, 1)
    fx, fy = symbol_point("FL/F.o", 0, "flier")
    assert label.anchor == pytest.approx((x + fx * pic.grid.tile, y + fy * pic.grid.tile))
    assert any(s.kind == "flier" for s in tile_layout("FL/F.o").symbols)


def test_the_landing_labels_stand_on_the_landing_tiles_features() -> None:
    s, _ = do(first_picture(2), "deploy flier:W")
    view = public_view(s)
    (d,) = pending(s)
    targets = [o.target for o in d.options]
    pic = targets_picture(view, targets, ["A", "B"])
    assert [lab.label for lab in pic.labels] == ["A", "B"]
    assert all(isinstance(t, FeatureRef) and (t.x, t.y) == (-2, 1) for t in targets)
    img = pic.image.convert("RGB")
    assert pic.grid is not None
    tx, ty = pic.grid.cell_xy(-2, 1)
    T = pic.grid.tile
    assert count(img, (tx, ty, tx + T, ty + T * 0.12), RED) > T * 0.5  # the square, framed
