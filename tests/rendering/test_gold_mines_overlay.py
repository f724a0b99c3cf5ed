"""Gold Mines' overlay: bars lying on tiles (a token on a dark chip, the number beside it when
several) and each player's bars in the score strip, readable at phone width."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from engine import public_view
from engine.carcassonne.expansions.gold_mines import GoldMines
from engine.carcassonne.geometry import Position
from engine.carcassonne.view import PublicView
from rendering import render_board
from rendering.board import board_picture
from rendering.final import breakdown
from rendering.overlays import overlay_for
from rendering.overlays.gold_mines import CHIP, GOLD
from rendering.words import category_word
from tests.engine.expansions.test_gold_mines import BLUE, RED, do, model, two_neighbours, with_bars
from tests.rendering.phone import assert_readable_on_a_phone, phone


def near(c: tuple[int, ...], want: tuple[int, ...], tol: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def count(img: Image.Image, box: tuple[float, ...], colour: tuple[int, ...]) -> int:
    raw = img.crop(tuple(int(v) for v in box)).tobytes()  # type: ignore[arg-type]
    return sum(1 for i in range(0, len(raw), 3) if near(tuple(raw[i : i + 3]), colour))


def gold_view() -> PublicView:
    """Red's gold tile at (1,0) with its bar, the second on the cap at (0,-1); 2 bars lying on
    the start tile; red holds 3 bars, blue 1."""
    s = two_neighbours()
    with_bars(s, (Position(0, 0), 2))
    s, _ = do(s, "place 1,0 r0")
    s, _ = do(s, "gold.bar 0,-1")
    s.ext["gold_mines"] = replace(model(s), held=(3, 1))
    return public_view(s)


def test_bars_lie_on_their_tiles_and_none_elsewhere() -> None:
    view = gold_view()
    pic = board_picture(view, whole=True)
    img, fr = pic.image.convert("RGB"), pic.frame
    T = fr.tile

    def lower_left(pos: Position) -> int:
        x, y = fr.cell_xy(pos)
        return count(img, (x, y + T * 0.5, x + T * 0.5, y + T), GOLD)

    for pos in (Position(0, 0), Position(0, -1), Position(1, 0)):
        x, y = fr.cell_xy(pos)
        assert count(img, (x, y + T * 0.5, x + T * 0.7, y + T), CHIP) > T * 0.5, pos
        assert lower_left(pos) > T * 0.5
    # two bars: the number beside the token; one bar: none
    x, y = fr.cell_xy(Position(0, 0))
    assert count(img, (x + T * 0.45, y + T * 0.55, x + T * 0.7, y + T * 0.9), (255,) * 3) > 5


def test_each_players_bars_are_in_the_score_strip() -> None:
    view = gold_view()
    ov = overlay_for("gold_mines")
    assert ov is not None
    items = ov.panel_items(view, RED, 20)
    assert items is not None and [n for _, n in items] == [3]
    assert [n for _, n in ov.panel_items(view, BLUE, 20) or ()] == [1]


def test_at_phone_width_the_bars_still_show() -> None:
    view = gold_view()
    png = render_board(view, whole=False)
    assert_readable_on_a_phone(png, view)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    small = phone(img)
    assert count(small, (0, 0, *small.size), GOLD) > 60


def test_the_final_breakdown_has_a_gold_column_in_english_and_spanish() -> None:
    """§9.5: red's 7 bars × 3 = 21 and blue's 2 × 1 = 2 are the Gold column."""
    s = two_neighbours()
    s.ext["gold_mines"] = replace(model(s), held=(7, 2))
    GoldMines(s.setup).final_scoring(s)
    cats, per = breakdown(public_view(s), s.awards)
    assert "gold" in cats and per[0]["gold"] == 7 * 3 and per[1]["gold"] == 2 * 1
    assert category_word("gold", "en") == "Gold" and category_word("gold", "es") == "Oro"
