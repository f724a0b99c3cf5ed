"""Crop Circles' overlay: while a round is under way a strip under the board shows the crop
circle and what it asks, in the picture's language, readable at phone width; no strip
otherwise. The printed circle is drawn by the symbol art (tests/rendering/test_board.py)."""

from __future__ import annotations

import io

from PIL import Image

from engine import public_view
from engine.carcassonne.state import GameState
from rendering import render_board
from rendering.overlays.crop_circles import strip_text
from tests.engine.expansions.test_crop_circles import CHOOSE_STEP, do, shield_example
from tests.rendering.phone import assert_readable_on_a_phone, phone

#: the circle's pale outer ring (rendering/overlays/crop_circles.py: paint_circle)
RING = (200, 214, 120)


def near(c: tuple[int, ...], want: tuple[int, ...], tol: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def count(img: Image.Image, box: tuple[float, ...], colour: tuple[int, ...]) -> int:
    raw = img.crop(tuple(int(v) for v in box)).tobytes()  # type: ignore[arg-type]
    return sum(1 for i in range(0, len(raw), 3) if near(tuple(raw[i : i + 3]), colour))


def at(stage: str) -> GameState:
    """The rulebook's shield example: before red chooses, or once red chose A."""
    s = shield_example()
    s, _ = do(s, "place 0,1 r90")
    s, _ = do(s, "deploy city:W")
    if stage == "a":
        s, _ = do(s, f"{CHOOSE_STEP} a")
    return s


def picture(s: GameState, lang: str = "en") -> Image.Image:
    png = render_board(public_view(s), whole=False, lang=lang)
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_the_strip_says_what_the_round_asks_in_english_and_spanish() -> None:
    view = public_view(at("choose"))
    assert strip_text(view, "en") == (
        "Crop circle (shield): option A (add) or B (take back) for knights?"
    )
    assert strip_text(view, "es") == (
        "Círculo en los cultivos (escudo): ¿opción A (colocar) o B (recuperar) para caballeros?"
    )
    view = public_view(at("a"))
    assert "option A" in strip_text(view, "en") and "beside their knights" in strip_text(view)
    assert "al lado de sus caballeros" in strip_text(view, "es")


def test_the_strip_shows_the_circle_under_the_board_only_during_a_round() -> None:
    s = at("a")
    img = picture(s)
    w, h = img.size
    band = (0, h - 90, 90, h)  # the strip's left end: the circle icon
    assert count(img, band, RING) > 300
    # the round over (green and red decline, blue is skipped): the strip is gone
    s, _ = do(s, "pass")
    s, _ = do(s, "pass")
    after = picture(s)
    assert after.size[1] < h
    w2, h2 = after.size
    assert count(after, (0, h2 - 90, 90, h2), RING) < 50


def test_at_phone_width_the_strip_still_shows() -> None:
    s = at("a")
    png = render_board(public_view(s), whole=False, lang="es")
    assert_readable_on_a_phone(png, public_view(s))
    small = phone(Image.open(io.BytesIO(png)))
    w, h = small.size
    assert count(small, (0, h - 40, 40, h), RING) > 40
