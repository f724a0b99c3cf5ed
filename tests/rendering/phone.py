"""What a phone shows: a picture downscaled to 400 px wide, probed for the scores and for the
current player's colour (issue 14: the pictures are read in a Discord channel on a phone).

:func:`assert_readable_on_a_phone` takes a posted board PNG and the public view it shows. The
score strip's layout depends only on the view and the picture's width
(:func:`rendering.header.header_layout`), so the probes know where each score is without being
told. A score "survives" when, in the 400 px picture, its figures are at least
:data:`MIN_DIGIT_PX` high and the number drawn there matches its own figures better than any
other number's (each candidate is drawn in the same place at full size and downscaled the
same way). The current player's colour survives when most of its chip's top band is still
that colour.
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageStat

from engine.carcassonne.view import PublicView
from rendering import style as st
from rendering.fonts import draw_text, text_mask
from rendering.header import CHIP_BG, SCORE_SIZE, TOP_H, header_layout

PHONE_WIDTH = 400
#: the smallest height (px) of score figures on the phone
MIN_DIGIT_PX = 12


def phone(img: Image.Image) -> Image.Image:
    """``img`` as a phone shows it: 400 px wide, aspect kept."""
    h = max(1, round(img.size[1] * PHONE_WIDTH / img.size[0]))
    return img.convert("RGB").resize((PHONE_WIDTH, h), Image.Resampling.LANCZOS)


def _small(img: Image.Image, box: tuple[int, int, int, int], f: float) -> Image.Image:
    """The part ``box`` of a full-size picture, downscaled by ``f`` as the whole would be."""
    x0, y0, x1, y1 = box
    return img.crop(box).resize(
        (max(1, round((x1 - x0) * f)), max(1, round((y1 - y0) * f))), Image.Resampling.LANCZOS
    )


def _with_number(
    size: tuple[int, int],
    at: tuple[float, float],
    number: str,
    bg: st.RGB,
    ink: st.RGB,
    k: float,
) -> Image.Image:
    """A patch of ``size`` with ``number`` drawn at ``at`` as the header draws a score."""
    out = Image.new("RGB", size, bg)
    draw_text(out, at, number, round(SCORE_SIZE * k), ink, bold=True, anchor="rm")
    return out


def assert_readable_on_a_phone(png: bytes, view: PublicView) -> None:
    """Downscale ``png`` (a board picture of ``view``) to 400 px wide and check that every
    player's score and the current player's colour survive (see the module docstring)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    lay = header_layout(view, img.size[0])
    f = PHONE_WIDTH / img.size[0]
    small = phone(img)
    assert small.size[0] == PHONE_WIDTH
    by_seat = {int(p.seat): p for p in view.players}
    for chip in lay.chips:
        p = by_seat[int(chip.seat)]
        style = st.seat_style(int(p.seat))
        bg = style.fill if chip.current else CHIP_BG
        ink = style.ink if chip.current else st.TEXT
        # a box wide enough for any candidate: from the block to the chip's right edge
        x1 = chip.box[2] - 2
        box = (chip.block[2] + 2, chip.box[1] + 2, x1, chip.box[1] + round(TOP_H * lay.k) - 2)
        text = str(p.score)
        mask, _ox, _oy = text_mask(text, round(SCORE_SIZE * lay.k), True)
        digit_px = (mask.getbbox() or (0, 0, 0, 0))[3] * f
        assert digit_px >= MIN_DIGIT_PX, (p.name, text, digit_px)
        # the number as the phone shows it, against every other number drawn the same way
        area = (max(box[0], chip.score_box[0] - round(30 * lay.k)), box[1], box[2], box[3])
        seen = _small(img, area, f)
        size = (area[2] - area[0], area[3] - area[1])
        sx0, sy0, sx1, sy1 = chip.score_box
        at = (sx1 - area[0], (sy0 + sy1) / 2 - area[1])

        def distance(
            number: str, chip_args: tuple[object, ...] = (seen, size, at, bg, ink)
        ) -> float:
            seen_, size_, at_, bg_, ink_ = chip_args
            drawn = _with_number(size_, at_, number, bg_, ink_, lay.k)  # type: ignore[arg-type]
            want = _small(drawn, (0, 0, *size_), f)  # type: ignore[misc]
            return sum(ImageStat.Stat(ImageChops.difference(seen_, want)).mean)  # type: ignore[arg-type]

        mine = distance(text)
        others = {str(n) for n in range(0, 100)} | {str(p.score + d) for d in (1, 10, 100)}
        others.discard(text)
        nearest = min(others, key=distance)
        assert mine < distance(nearest), (p.name, text, nearest, mine, distance(nearest))
    current = [c for c in lay.chips if c.current]
    if view.over:
        assert not current
        return
    assert len(current) == 1
    chip = current[0]
    fill = st.seat_style(int(chip.seat)).fill
    band = (chip.box[0], chip.box[1], chip.box[2], chip.box[1] + round(TOP_H * lay.k))
    x0, y0, x1, y1 = (round(v * f) for v in band)
    raw = small.crop((x0, y0, x1, y1)).tobytes()
    n = len(raw) // 3
    hits = sum(1 for i in range(n) if sum(abs(raw[3 * i + j] - fill[j]) for j in range(3)) <= 30)
    assert n and hits / n > 0.45, ("current player's colour", fill, hits / max(n, 1))
    assert hits >= 150, hits  # a patch a thumb can see, not a stray pixel
