"""The shipped Unicode font (Noto Sans from the ``fontpkg-noto-sans`` package).

Player names can be in any script; Pillow's built-in font covers almost nothing beyond ASCII, and
a system font path is not portable, so the TTF comes from a Python package and is found through
its path API. Noto Sans covers Latin, Greek and Cyrillic. When an optional CJK font package (see
:data:`FALLBACK_PACKAGES`, e.g. ``pip install cvttf-notosanscjk-regular``, 27 MB) is installed too,
characters Noto Sans lacks are drawn from it, run by run; without it they show as boxes.
"""

from __future__ import annotations

import contextlib
import importlib.util
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FontT = ImageFont.FreeTypeFont


#: optional packages holding extra fonts, tried in order for characters Noto Sans lacks
FALLBACK_PACKAGES = ("cvttf_NotoSansCJK_Regular",)


@cache
def fallback_paths() -> tuple[Path, ...]:
    """Font files of the installed :data:`FALLBACK_PACKAGES` (found without importing them)."""
    out: list[Path] = []
    for name in FALLBACK_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        for loc in spec.submodule_search_locations:
            out.extend(sorted(Path(loc).glob("*.[ot]tf")))
    return tuple(out)


@cache
def _fallback_font(index: int, size: int) -> FontT:
    return ImageFont.truetype(str(fallback_paths()[index]), max(6, int(size)))


@cache
def _fallback_has(index: int, ch: str) -> bool:
    f = _fallback_font(index, 32)
    return _mask_bytes(f, ch) != _mask_bytes(f, "\U0010fffd")


def _runs(text: str, size: int, bold: bool) -> list[tuple[FontT, str]]:
    """Split ``text`` into runs drawn by the main font or a fallback font that has the glyphs."""
    runs: list[tuple[FontT, str]] = []
    for ch in text:
        f = font(size, bold)
        if not has_glyph(ch):
            for i in range(len(fallback_paths())):
                if _fallback_has(i, ch):
                    f = _fallback_font(i, size)
                    break
        if runs and runs[-1][0] is f:
            runs[-1] = (f, runs[-1][1] + ch)
        else:
            runs.append((f, ch))
    return runs


def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width of ``text`` in px, fallback fonts included."""
    return sum(f.getlength(part) for f, part in _runs(text, size, bold))


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


@lru_cache(maxsize=8192)
def has_glyph(ch: str, size: int = 32) -> bool:
    """Whether the shipped font draws ``ch`` (rather than its missing-glyph box)."""
    if ch.isspace():
        return True
    return _mask_bytes(font(size), ch) != _notdef_signature(size)


def fit_text(text: str, max_width: int, size: int, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so it fits ``max_width`` px."""
    if text_width(text, size, bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold) > max_width:
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
    runs = _runs(text, size, bold)
    if len(runs) > 1 or (runs and runs[0][0] is not f):
        # mixed fonts: draw each run on a common baseline; the origin sits at (pad, pad)
        ascent, descent = f.getmetrics()
        pad = size // 2 + stroke
        width = int(sum(rf.getlength(part) for rf, part in runs)) + 2 * pad
        img = Image.new("L", (width, ascent + descent + 2 * pad), 0)
        d = ImageDraw.Draw(img)
        x = float(pad)
        for rf, part in runs:
            d.text(
                (x, pad + ascent),
                part,
                font=rf,
                fill=255,
                anchor="ls",
                stroke_width=stroke,
                stroke_fill=255,
            )
            x += rf.getlength(part)
        return img, pad, pad
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
    width = text_width(text, size, bold) if anchor[0] != "l" else 0.0
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
