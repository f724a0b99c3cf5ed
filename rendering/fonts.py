"""The shipped fonts: Noto Sans first, then a fallback chain for every other script and emoji.

Player names can be in any script; Pillow's built-in font covers almost nothing beyond ASCII, and
a system font path is not portable, so every font comes from a Python package that
``pip install -e .`` installs (pyproject dependencies) and is found through the package's path:

1. Noto Sans (``fontpkg-noto-sans``): Latin, Greek, Cyrillic — most names, every label;
2. ``manimgx-fonts``: Noto Sans Symbols, Noto Emoji (monochrome outlines, so they draw at any
   size and take the text colour) and Noto Sans for Arabic, Hebrew, Devanagari, Thai, Georgian,
   Armenian, Ethiopic and the other scripts Latin faces lack;
3. ``manimgx-fonts-cjk``: Noto Sans CJK (Chinese, Japanese, Korean);
4. ``cvttf-notosanscjk-regular``, if installed (the older optional CJK package).

Text is split into runs, each drawn by the first font of the chain that has its characters
(:func:`runs`); joiners, variation selectors, skin-tone modifiers and combining marks stay in
the run of the character before them, so an emoji sequence or an accented letter is shaped as
one. A package that is missing only shortens the chain: its characters show as boxes.
"""

from __future__ import annotations

import contextlib
import importlib.util
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rendering.cache import MiB, memo, track

FontT = ImageFont.FreeTypeFont


#: packages holding fallback fonts, in the order they are tried, each with the file names (glob
#: patterns, tried in this order) to take from it and the face index for collections
FALLBACK_PACKAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "manimgx_fonts",
        (
            "NotoSansSymbols[[]*.ttf",
            "NotoEmoji[[]*.ttf",
            "NotoSansArabic[[]*.ttf",
            "NotoSansHebrew[[]*.ttf",
            "NotoSansDevanagari[[]*.ttf",
            "NotoSansBengali[[]*.ttf",
            "NotoSansThai[[]*.ttf",
            "NotoSansGeorgian[[]*.ttf",
            "NotoSansArmenian[[]*.ttf",
            "NotoSans[A-Z]*[[]*.ttf",
        ),
    ),
    ("manimgx_fonts_cjk", ("NotoSansCJK*.tt[cf]", "NotoSansCJK*.otf")),
    ("cvttf_NotoSansCJK_Regular", ("*.[ot]tf",)),
)
#: face of a font collection to use (Noto Sans CJK: 0 JP, 1 KR, 2 SC, 3 TC, 4 HK)
CJK_FACE = 2

#: characters that belong to the run of the character before them
_JOINERS = {"\u200d", "\u200c", "\ufe0e", "\ufe0f", "\u20e3"}


def _package_dirs(name: str) -> list[Path]:
    spec = importlib.util.find_spec(name)
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return [Path(loc) for loc in spec.submodule_search_locations]
    return [Path(spec.origin).parent] if spec.origin else []


@cache
def fallback_paths() -> tuple[Path, ...]:
    """Font files of the installed fallback packages, in the order they are tried (found
    without importing the packages)."""
    out: list[Path] = []
    for name, patterns in FALLBACK_PACKAGES:
        for loc in _package_dirs(name):
            for pattern in patterns:
                for p in sorted(loc.glob(pattern)):
                    if p not in out and "Italic" not in p.name:
                        out.append(p)
    return tuple(out)


def _load(path: Path, size: int, bold: bool) -> FontT:
    index = CJK_FACE if path.suffix == ".ttc" else 0
    f = ImageFont.truetype(str(path), max(6, int(size)), index=index)
    # variable fonts: pick the weight; a static font or a FreeType without variations keeps its own
    with contextlib.suppress(OSError, ValueError):
        f.set_variation_by_name("Bold" if bold else "Regular")
    return f


#: memory a font face holds once it has drawn (measured, Pillow 13 / FreeType 2.14 / raqm:
#: FreeType's hinting data and HarfBuzz's copies of the layout tables): Noto Sans ~0.83 MiB,
#: a fallback face ~1 MiB, a CJK face ~2.6 MiB. The first drawing at a new face costs ~10 ms
#: (FreeType's auto-hinter analyses the whole font for each face).
FACE_BYTES = 850 << 10
FALLBACK_FACE_BYTES = 1 << 20
CJK_FACE_BYTES = 2600 << 10
#: faces kept, one per (size, weight) of the main font, and of the fallback fonts
FONT_FACES = 64
FALLBACK_FACES = 16


def _weigh_fallback(f: object) -> int:
    path = str(getattr(f, "path", ""))
    return CJK_FACE_BYTES if path.endswith((".ttc", ".otf")) else FALLBACK_FACE_BYTES


@memo(
    "fonts.fallback_face",
    entries=FALLBACK_FACES,
    budget=FALLBACK_FACES * CJK_FACE_BYTES,
    weigh=_weigh_fallback,
)
def _fallback_font(index: int, size: int, bold: bool = False) -> FontT:
    return _load(fallback_paths()[index], size, bold)


@cache
def _probe_font(index: int) -> FontT:
    """The face that tells which characters fallback font ``index`` has (one per font of the
    chain, ~4 MiB for all of them)."""
    return _load(fallback_paths()[index], 32, False)


@cache
def _fallback_notdef(index: int) -> bytes:
    return _mask_bytes(_probe_font(index), "\U0010fffd")


@lru_cache(maxsize=8192)
def _fallback_has(index: int, ch: str) -> bool:
    return _mask_bytes(_probe_font(index), ch) != _fallback_notdef(index)


@lru_cache(maxsize=8192)
def _chain_index(ch: str) -> int:
    """Which font draws ``ch``: -1 the main font, else the index in :func:`fallback_paths`
    (the main font when no font has it: it draws its box)."""
    if has_glyph(ch) and not _prefers_emoji(ch):
        return -1
    for i in range(len(fallback_paths())):
        if _fallback_has(i, ch):
            return i
    return -1


def _prefers_emoji(ch: str) -> bool:
    """Pictographs the main font may have as text glyphs but players mean as emoji."""
    return 0x1F000 <= ord(ch) <= 0x1FAFF


def _joins(ch: str) -> bool:
    return (
        ch in _JOINERS
        or 0x1F3FB <= ord(ch) <= 0x1F3FF  # skin tones
        or 0xE0020 <= ord(ch) <= 0xE007F  # tag characters (flag sequences)
        or unicodedata.category(ch) in ("Mn", "Me")
    )


def runs(text: str, size: int, bold: bool = False) -> list[tuple[FontT, str]]:
    """``text`` split into runs, each with the font of the chain that draws it."""
    out: list[tuple[int, str]] = []
    for ch in text:
        if out and _joins(ch):
            out[-1] = (out[-1][0], out[-1][1] + ch)
            continue
        idx = _chain_index(ch)
        if out and out[-1][0] == idx:
            out[-1] = (idx, out[-1][1] + ch)
        else:
            out.append((idx, ch))
    return [
        (font(size, bold) if idx < 0 else _fallback_font(idx, size, bold), part)
        for idx, part in out
    ]


_runs = runs


#: text widths and laid-out text masks kept (a board measures ~150 texts, mostly the same
#: from one turn to the next: coordinates, scores, counts, names, words)
TEXT_CACHE = 8192
MASK_CACHE = 4096


@lru_cache(maxsize=TEXT_CACHE)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width of ``text`` in px, fallback fonts included (cached: shaping a text costs
    about 0.1 ms, and a picture measures the same texts every turn)."""
    return sum(f.getlength(part) for f, part in runs(text, size, bold))


@cache
def font_path() -> Path:
    """Path of the Noto Sans variable TTF inside its package."""
    import fontpkg_noto_sans  # type: ignore[import-untyped]

    files = sorted((Path(fontpkg_noto_sans.ROOT) / "files").glob("NotoSans[[]*.ttf"))
    if not files:
        raise FileNotFoundError("fontpkg-noto-sans is installed but ships no NotoSans TTF")
    return files[0]


def font(size: int, bold: bool = False) -> FontT:
    """Noto Sans at ``size`` px, regular or bold (cached, at most :data:`FONT_FACES`)."""
    return _face(max(6, int(size)), bool(bold))


@memo(
    "fonts.face",
    entries=FONT_FACES,
    budget=FONT_FACES * FACE_BYTES,
    weigh=lambda f: FACE_BYTES,
)
def _face(size: int, bold: bool) -> FontT:
    f = ImageFont.truetype(str(font_path()), size)
    # a FreeType build without variation support still draws text, just not bold
    with contextlib.suppress(OSError, ValueError):
        f.set_variation_by_name("Bold" if bold else "Regular")
    return f


def warm_face(size: int, bold: bool = False) -> None:
    """Set up the face of ``size`` ahead of its first text: FreeType's auto-hinter analyses the
    font the first time a face draws (~10 ms)."""
    font(size, bold).getbbox("0")
    metrics(size, bold)


def faces_made() -> int:
    """How many faces of the main font this process has set up (cache misses)."""
    return _face.misses


@lru_cache(maxsize=256)
def metrics(size: int, bold: bool = False) -> tuple[int, int]:
    """Ascent and descent of the main font at ``size`` (kept when its face is dropped)."""
    return font(size, bold).getmetrics()


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


track("fonts.width", text_width, 250)
track("fonts.metrics", metrics, 200)


def _mask_bytes(f: FontT, ch: str) -> bytes:
    from PIL import Image, ImageDraw

    size = int(f.size)
    img = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(img).text((size // 2, size // 2), ch, font=f, fill=255)
    return img.tobytes()


@memo("fonts.text_mask", entries=MASK_CACHE, budget=16 * MiB)
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
    width = text_width(text, size, bold) if anchor[0] != "l" else 0.0
    ascent, descent = metrics(size, bold)
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
