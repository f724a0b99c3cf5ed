"""The drawing shortcuts of issue 33 give the pixels of the long way: a chip's ground pasted through its mask is the ground drawn, anywhere, at any scale;
:func:`rendering.cache.paste` is ``Image.paste``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from engine.core.seats import Seat
from rendering import header
from rendering.cache import paste


@pytest.mark.parametrize(
    ("dst", "src", "mask"),
    [
        ("RGB", "RGB", None),
        ("RGB", "RGBA", "self"),
        ("RGB", "colour", "L"),
        ("L", "colour", "L"),
        ("RGB", "L", None),  # another mode: Pillow converts it
    ],
)
def test_paste_is_image_paste(dst: str, src: str, mask: str | None) -> None:
    base = Image.new(dst, (40, 30), 90 if dst == "L" else (90, 20, 200))
    ramp = Image.linear_gradient("L").resize((17, 13))
    source: Image.Image | tuple[int, ...]
    if src == "colour":
        source = 200 if dst == "L" else (10, 220, 30)  # type: ignore[assignment]
    else:
        source = Image.merge("RGBA", [ramp, ramp.rotate(90), ramp, ramp.transpose(0)])
        source = source.convert(src) if src != "RGBA" else source
    m = ramp if mask == "L" else (source if mask == "self" else None)
    for xy in ((3, 4), (-5, -2), (30, 25)):  # inside, and cut by the picture's edges
        a, b = base.copy(), base.copy()
        a.paste(source, xy, m)  # type: ignore[arg-type]
        paste(b, source, xy, m)  # type: ignore[arg-type]
        assert a.tobytes() == b.tobytes()


@settings(max_examples=80, deadline=None)
@given(
    k=st.sampled_from([0.5, 0.8, 1.0, 1.25, 2.1]),
    x=st.integers(0, 300),
    y=st.integers(0, 200),
    w=st.integers(150, 480),
    extra=st.integers(0, 60),
    seat=st.integers(0, 5),
    current=st.booleans(),
)
def test_a_chip_ground_pasted_is_the_ground_drawn(
    k: float, x: int, y: int, w: int, extra: int, seat: int, current: bool
) -> None:
    h = round(90 * k) + extra
    bx, by, bs = x + 10 + round(10 * k), y + 10 + round(7 * k), round(44 * k)
    chip = header.Chip(
        Seat(seat),
        (x + 10, y + 10, x + 10 + w, y + 10 + h),
        (x + w - 50, y + 12, x + w, y + 50),
        (bx, by, bx + bs, by + bs),
        current,
    )
    drawn = Image.new("RGB", (x + w + 60, y + h + 60), (40, 44, 52))
    pasted = drawn.copy()
    header._draw_ground(ImageDraw.Draw(drawn), chip, seat, k)
    header._paste_ground(pasted, chip, seat, k)
    assert drawn.tobytes() == pasted.tobytes()
