"""The shipped Unicode font (Noto Sans from the ``fontpkg-noto-sans`` package).

Player names can be in any script; Pillow's built-in font covers almost nothing beyond ASCII, and
a system font path is not portable, so the TTF comes from a Python package and is found through
its path API. Noto Sans covers Latin, Greek and Cyrillic. When a CJK-capable Noto font package is
installed as well, names fall back to it glyph by glyph (see :func:`text_segments`).
"""

from __future__ import annotations

import contextlib
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FontT = ImageFont.FreeTypeFont


@cache
def font_path() -> Path:
    """Path of the Noto Sans variable TTF inside its package."""
    import fontpkg_noto_sans  # type: ignore[import-untyped]

    files = sorted((Path(fontpkg_noto_sans.ROOT) / "files").glob("NotoSans[[]*.ttf"))
    if not files:
        raise FileNotFoundError("fontpkg-noto-sans is installed but ships no NotoSans TTF")
    return files[0]


@cache
def font(size: int, bold: bool = False) -> FontT:
    """Noto Sans at ``size`` px, regular or bold (cached)."""
    f = ImageFont.truetype(str(font_path()), max(6, int(size)))
    # a FreeType build without variation support still draws text, just not bold
    with contextlib.suppress(OSError, ValueError):
        f.set_variation_by_name("Bold" if bold else "Regular")
    return f


@cache
def _notdef_signature(size: int) -> bytes:
    f = font(size)
    return _mask_bytes(f, "\U0010fffd")


def has_glyph(ch: str, size: int = 32) -> bool:
    """Whether the shipped font draws ``ch`` (rather than its missing-glyph box)."""
    if ch.isspace():
        return True
    return _mask_bytes(font(size), ch) != _notdef_signature(size)


def fit_text(text: str, max_width: int, size: int, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so it fits ``max_width`` px."""
    f = font(size, bold)
    if f.getlength(text) <= max_width:
        return text
    while text and f.getlength(text + "…") > max_width:
        text = text[:-1]
    return text + "…"


def _mask_bytes(f: FontT, ch: str) -> bytes:
    from PIL import Image, ImageDraw

    size = int(f.size)
    img = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(img).text((size // 2, size // 2), ch, font=f, fill=255)
    return img.tobytes()


@lru_cache(maxsize=4096)
def text_mask(
    text: str, size: int, bold: bool = False, stroke: int = 0
) -> tuple[Image.Image, int, int]:
    """An ``L`` mask of ``text`` (white on black, with an outer stroke of ``stroke`` px) and the
    offset of its anchor point; cached, because a board repeats the same labels every turn."""
    f = font(size, bold)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, stroke_width=stroke))
    img = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(img).text(
        (-left, -top), text, font=f, fill=255, stroke_width=stroke, stroke_fill=255
    )
    return img, -left, -top


def draw_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    *,
    bold: bool = False,
    anchor: str = "la",
    stroke: int = 0,
    stroke_fill: tuple[int, int, int] = (0, 0, 0),
) -> None:
    """Draw ``text`` like ``ImageDraw.text`` (anchors ``l/m/r`` + ``a/m``) from cached masks."""
    mask, ox, oy = text_mask(text, size, bold, 0)
    f = font(size, bold)
    width = f.getlength(text) if anchor[0] != "l" else 0.0
    ascent, descent = f.getmetrics()
    x, y = xy
    if anchor[0] == "m":
        x -= width / 2
    elif anchor[0] == "r":
        x -= width
    if anchor[1] == "m":
        y -= (ascent + descent) / 2
    elif anchor[1] == "s":
        y -= ascent
    # the mask's origin is the text origin (top of the ascent) shifted by the bbox offset
    px, py = round(x - ox), round(y - oy)
    if stroke:
        outer, sx, sy = text_mask(text, size, bold, stroke)
        img.paste(stroke_fill, (round(x - sx), round(y - sy)), outer)
    img.paste(fill, (px, py), mask)
