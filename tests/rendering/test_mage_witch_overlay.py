"""Mage & Witch's overlay: the mage (violet, a star on a pointed hat) and the witch (orange, a
black wide-brimmed hat, a broom) on the board, told apart at phone width; the magic decision's
targets drawn and numbered by the generic targets picture."""

from __future__ import annotations

import io
import os

from PIL import Image

from engine import public_view
from engine.carcassonne.geometry import Position
from engine.carcassonne.rules import pending
from engine.carcassonne.view import PublicView
from rendering import render_board, render_targets
from rendering.board import board_picture
from rendering.figures import figure_sprite
from rendering.overlays.mage_witch import MAGE_ROBE, WITCH_ROBE
from rendering.targets import targets_picture
from tests.engine.expansions.test_mage_witch import CITY, do, game, stand
from tests.rendering.phone import assert_readable_on_a_phone, phone


def near(c: tuple[int, ...], want: tuple[int, ...], tol: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def count(img: Image.Image, box: tuple[float, ...], colour: tuple[int, ...]) -> int:
    raw = img.convert("RGB").crop(tuple(int(v) for v in box)).tobytes()  # type: ignore[arg-type]
    return sum(1 for i in range(0, len(raw), 3) if near(tuple(raw[i : i + 3]), colour))


def save(name: str, data: bytes) -> None:
    """Keep a picture to look at (``MW_PICS=dir``)."""
    where = os.environ.get("MW_PICS")
    if where:
        with open(os.path.join(where, name), "wb") as f:
            f.write(data)


def figures_view() -> PublicView:
    """Red's MW/CRRR.3 east of the start tile; the mage on the start tile's road, the witch
    on the new tile's city."""
    s = game(("MW/CRRR.3", "BA/L"))
    s, _ = do(s, "place 1,0 r0")
    s, _ = do(s, "mw.move mage@0,0@road:EW")
    s, _ = do(s, "pass")
    stand(s, "witch", Position(1, 0), CITY)
    return public_view(s)


def test_the_sprites_differ_in_colour_and_shape() -> None:
    mage, witch = figure_sprite("mage", -1, 40), figure_sprite("witch", -1, 40)
    assert mage.size == witch.size and mage.size[0] >= 40
    box = (0, 0, *mage.size)
    assert count(mage, box, MAGE_ROBE) > 100 and count(mage, box, WITCH_ROBE) == 0
    assert count(witch, box, WITCH_ROBE) > 100 and count(witch, box, MAGE_ROBE) == 0


def test_each_figure_stands_on_its_tile() -> None:
    view = figures_view()
    pic = board_picture(view, whole=True)
    img, fr = pic.image.convert("RGB"), pic.frame
    T = fr.tile

    def on(pos: Position, colour: tuple[int, int, int]) -> int:
        x, y = fr.cell_xy(pos)
        return count(img, (x, y, x + T, y + T), colour)

    assert on(Position(0, 0), MAGE_ROBE) > T and on(Position(1, 0), MAGE_ROBE) == 0
    assert on(Position(1, 0), WITCH_ROBE) > T and on(Position(0, 0), WITCH_ROBE) == 0
    buf = io.BytesIO()
    pic.image.save(buf, "PNG")
    save("mw_board.png", buf.getvalue())


def test_at_phone_width_both_figures_still_show_apart() -> None:
    view = figures_view()
    png = render_board(view, whole=False)
    save("mw_turn.png", png)
    assert_readable_on_a_phone(png, view)
    small = phone(Image.open(io.BytesIO(png)))
    whole = (0, 0, *small.size)
    assert count(small, whole, MAGE_ROBE) > 15 and count(small, whole, WITCH_ROBE) > 15


def test_the_magic_decision_draws_its_targets_numbered() -> None:
    s = game(("MW/CRRR.3", "BA/L"))
    s, _ = do(s, "place 1,0 r0")
    (d,) = pending(s)
    mine = [o for o in d.options if o.facet("figure") == "mage"]
    labels = [str(i + 1) for i in range(len(mine))]
    view = public_view(s)
    pic = targets_picture(view, [o.target for o in mine], labels)
    assert sorted(lab.label for lab in pic.labels) == sorted(labels)
    assert len({lab.anchor for lab in pic.labels}) == len(mine)  # 6 spots, 6 places
    png = render_targets(view, [o.target for o in mine], labels)
    save("mw_targets.png", png)
    assert Image.open(io.BytesIO(png)).size[0] > 0
