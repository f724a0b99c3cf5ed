"""``rendering.scored.grow``: the dilation of scored features' masks, as Pillow's MaxFilter."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from rendering.scored import grow


@settings(max_examples=40, deadline=None)
@given(
    w=st.integers(1, 70),
    h=st.integers(1, 70),
    r=st.integers(1, 4),
    seed=st.integers(0, 2**16),
)
def test_grow_is_max_filter_on_masks_with_a_clear_margin(w: int, h: int, r: int, seed: int) -> None:
    """Masks as ``draw_scored`` makes them: shapes of any grey, a margin of 0 at least ``r``
    wide round them (the filter's copied edge is then 0 as well)."""
    rnd = random.Random(seed)
    mask = Image.new("L", (w + 4 * r, h + 4 * r), 0)
    d = ImageDraw.Draw(mask)
    for _ in range(rnd.randrange(1, 6)):
        x0, y0 = 2 * r + rnd.randrange(w), 2 * r + rnd.randrange(h)
        x1, y1 = x0 + rnd.randrange(w), y0 + rnd.randrange(h)
        box = (x0, y0, min(x1, 2 * r + w - 1), min(y1, 2 * r + h - 1))
        d.ellipse(box, fill=rnd.randrange(1, 256))
        mask.putpixel((box[0], box[1]), rnd.randrange(256))
    want = mask.filter(ImageFilter.MaxFilter(2 * r + 1))
    assert ImageChops.difference(grow(mask, r), want).getbbox() is None
