"""Messages' overlay: both scoring figures of each player in the score strip, and the message
in play under the board in both languages, read from real PNGs (also at phone width)."""

from __future__ import annotations

import io

from PIL import Image

from engine import public_view
from engine.carcassonne.view import PublicView
from rendering import render_board
from rendering.overlays import overlay_for
from rendering.overlays.dispatches import WAX, card_lines, message_strip
from tests.engine.expansions.dispatches_helpers import BLUE, RED, east_board, game, prime, trigger
from tests.rendering.phone import assert_readable_on_a_phone, phone


def near(c: tuple[int, ...], want: tuple[int, ...], tol: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def count(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, ...]) -> int:
    raw = img.convert("RGB").crop(box).tobytes()
    return sum(1 for i in range(0, len(raw), 3) if near(tuple(raw[i : i + 3]), colour))


def drawn_view() -> PublicView:
    """Red's main figure 3 + 2 = 5 drew message 4; blue: main 7, messenger 5 (12 in all)."""
    s = game(deck=("4",))
    east_board(s)
    prime(s, BLUE, 7, 5)
    s, _ = trigger(s)
    return public_view(s)


def test_each_player_s_two_figures_are_in_the_score_strip() -> None:
    view = drawn_view()
    ov = overlay_for("dispatches")
    assert ov is not None
    assert [n for _, n in ov.panel_items(view, RED, 20) or ()] == [5, 0]
    assert [n for _, n in ov.panel_items(view, BLUE, 20) or ()] == [7, 5]


def test_the_message_in_play_is_a_strip_under_the_board_in_both_languages() -> None:
    view = drawn_view()
    png = render_board(view, whole=False)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = img.size
    assert count(img, (0, h - 120, 140, h), WAX) > 40  # the wax seal, bottom left
    assert count(img, (0, 200, w, h - 120), WAX) == 0  # not on the board (red is no wax)
    assert card_lines("4", "en") == (
        "Message 4: 2 points per shield",
        "Despacho 4: Por cada escudo 2 puntos",
    )
    assert card_lines("4", "es")[0].startswith("Despacho 4")
    assert_readable_on_a_phone(png, view)
    assert count(phone(img), (0, phone(img).size[1] - 50, 60, phone(img).size[1]), WAX) > 8


def test_no_message_out_no_strip() -> None:
    s = game()
    view = public_view(s)
    assert message_strip(view, 960) is None
    ov = overlay_for("dispatches")
    assert ov is not None and [n for _, n in ov.panel_items(view, RED, 20) or ()] == [0, 0]


def test_message_points_are_a_column_of_the_final_breakdown_in_english_and_spanish() -> None:
    """Red takes the wax seal's 2 points for message 4: a Message column of 2 for red."""
    from rendering.final import breakdown
    from rendering.words import category_word
    from tests.engine.expansions.dispatches_helpers import do

    s = game(deck=("4",), choice="main")
    east_board(s)
    s, _ = trigger(s)
    s, _ = do(s, "dispatches.message seal")
    cats, per = breakdown(public_view(s), s.awards)
    assert "dispatches" in cats and per[0]["dispatches"] == 2
    assert category_word("dispatches", "en") == "Message"
    assert category_word("dispatches", "es") == "Despacho"
