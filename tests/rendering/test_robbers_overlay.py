"""Robbers' overlay: each player's robber in the score strip (1 in front of them, 0 on the
track) and every robber standing beside a player's scoring figure drawn next to that victim's
score, in its owner's colour inside a red ring, with its space; readable at phone width."""

from __future__ import annotations

import io

from PIL import Image

from engine import public_view
from engine.carcassonne.view import PublicView
from rendering import render_board
from rendering.overlays import overlay_for
from rendering.overlays.robbers import THREAT
from rendering.style import seat_style
from tests.engine.expansions.robbers_helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    game,
    robber,
    scores,
)
from tests.rendering.phone import assert_readable_on_a_phone, phone


def near(c: tuple[int, ...], want: tuple[int, ...], tol: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def count(img: Image.Image, box: tuple[float, ...], colour: tuple[int, ...]) -> int:
    raw = img.crop(tuple(int(v) for v in box)).tobytes()  # type: ignore[arg-type]
    return sum(1 for i in range(0, len(raw), 3) if near(tuple(raw[i : i + 3]), colour))


def robbers_view() -> PublicView:
    """Four players: blue 12, red 10, yellow 3, green 10; blue's robber beside red and green
    (10), yellow's beside blue (12); red's and green's robbers in front of them."""
    s = game(("RB/RFr", "BA/L"), players=4)
    scores(s, 12, 10, 3, 10)
    robber(s, BLUE, 10)
    robber(s, YELLOW, 12)
    return public_view(s)


def test_each_players_robber_and_the_robbers_beside_them_are_in_the_score_strip() -> None:
    view = robbers_view()
    ov = overlay_for("robbers")
    assert ov is not None

    def line(seat: int) -> list[int]:
        return [n for _, n in ov.panel_items(view, seat, 20) or ()]  # type: ignore[arg-type]

    assert line(BLUE) == [0, 12]  # its robber on the track; yellow's beside it on 12
    assert line(RED) == [1, 10]  # in front of red; blue's beside it on 10
    assert line(YELLOW) == [0]  # on the track, nobody beside yellow
    assert line(GREEN) == [1, 10]  # blue's robber beside green too
    (own, _), (beside, _) = ov.panel_items(view, RED, 20)  # type: ignore[arg-type, misc]
    assert count(own.convert("RGB"), (0, 0, 20, 20), seat_style(RED).fill) > 20
    assert count(beside.convert("RGB"), (0, 0, 20, 20), seat_style(BLUE).fill) > 20
    assert count(beside.convert("RGB"), (0, 0, 20, 20), THREAT) > 10


def test_a_match_without_robbers_shows_no_line() -> None:
    from engine import GameSetup, new_game

    ov = overlay_for("robbers")
    assert ov is not None
    assert ov.panel_items(public_view(new_game(GameSetup(players=2), seed=1)), RED, 20) is None


def test_at_phone_width_the_robbers_still_show() -> None:
    view = robbers_view()
    png = render_board(view, whole=False)
    assert_readable_on_a_phone(png, view)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    Image.open(io.BytesIO(png)).save("/tmp/robbers_board.png")
    small = phone(img)
    small.save("/tmp/robbers_phone.png")
    assert count(small, (0, 0, small.size[0], small.size[1] // 3), THREAT) > 15


def test_the_final_breakdown_has_a_robber_column_in_english_and_spanish() -> None:
    """Blue's robber took 3 of red's 5 (the rulebook's first picture): the Robber column."""
    from rendering.final import breakdown
    from rendering.words import category_word
    from tests.engine.expansions.robbers_helpers import do, five_tile_road

    s = game(("BA/LR", "BA/L"), players=4)
    five_tile_road(s, RED)
    robber(s, BLUE, 0)
    s, _ = do(s, "place -1,0 r270")
    s, _ = do(s, "pass")
    cats, per = breakdown(public_view(s), s.awards)
    assert "robber" in cats and per[BLUE]["robber"] == 3 and per[RED]["road"] == 5
    assert category_word("robber", "en") == "Robber"
    assert category_word("robber", "es") == "Ladrón"
