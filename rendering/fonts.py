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
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rendering.cache import MiB, memo, paste, track

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


#: text widths, laid-out text masks and fitted texts kept (a board measures ~150 texts, mostly
#: the same from one turn to the next: coordinates, scores, counts, names, words). Every
#: drawing worker draws for every table, so each holds every seated player's name: 2,500
#: two-player tables are 5,000 names beside the few thousand other texts (issue 33: at 4,096
#: masks, tables past ~1,500 evicted names between their turns, and each turn picture shaped
#: its players' names again). A name's mask is ~1.5 KB, its width and fit a few hundred bytes.
TEXT_CACHE = 32768
MASK_CACHE = 16384
FIT_CACHE = 16384


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
    """``text`` shortened with an ellipsis so it fits ``max_width`` px (it may cut a word: a
    picture's words are laid out with :func:`fit_box` instead)."""
    if text_width(text, size, bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold) > max_width:
        text = text[:-1]
    return text + "…"


#: line height of wrapped text, as a share of the font size
SPACING = 1.2
#: how wide a phone shows a picture (Discord on a phone: about 400 px)
PHONE_WIDTH = 400
#: the smallest height (px) of a digit a player must read on a picture shown that wide (cell
#: numbers, labels, counts; the scores are far bigger)
PHONE_DIGIT = 6


@lru_cache(maxsize=64)
def digit_height(size: int, bold: bool = True) -> int:
    """How many pixels high the digits of ``size`` px text are."""
    mask, _ox, _oy = text_mask("0123456789", size, bold)
    box = mask.getbbox()
    return 0 if box is None else box[3] - box[1]


@lru_cache(maxsize=256)
def readable_size(width: int, bold: bool = True) -> int:
    """The smallest font size whose digits stay :data:`PHONE_DIGIT` px high once a picture
    ``width`` px wide is shown :data:`PHONE_WIDTH` px wide (a narrower one is shown as it is)."""
    f = min(1.0, PHONE_WIDTH / max(1, width))
    size = 8
    while digit_height(size, bold) * f < PHONE_DIGIT:
        size += 1
    return size


@dataclass(frozen=True, slots=True)
class Fitted:
    """Text laid out to fit a box (:func:`fit_box`): its lines, each of whole words, at
    ``size`` px, ``SPACING`` × ``size`` apart; ``cut`` when a single word was wider than the
    box even at the smallest size and was cut with an ellipsis (nothing else would do)."""

    lines: tuple[str, ...]
    size: int
    bold: bool = False
    cut: bool = False

    @property
    def height(self) -> float:
        """The height of the lines (``SPACING`` × ``size`` each)."""
        return len(self.lines) * self.size * SPACING

    @property
    def width(self) -> float:
        """The width of the widest line."""
        return max((text_width(t, self.size, self.bold) for t in self.lines), default=0.0)


def _wrap(words: list[str], width: float, size: int, bold: bool, most: int) -> list[str] | None:
    """``words`` on the fewest lines no wider than ``width`` (at most ``most``), or None."""
    lines: list[str] = []
    for w in words:
        if text_width(w, size, bold) > width:
            return None
        if lines and text_width(f"{lines[-1]} {w}", size, bold) <= width:
            lines[-1] = f"{lines[-1]} {w}"
        else:
            lines.append(w)
            if len(lines) > most:
                return None
    return lines


@lru_cache(maxsize=FIT_CACHE)
def fit_box(
    text: str,
    width: float,
    height: float,
    size: int,
    *,
    bold: bool = False,
    min_size: int | None = None,
    max_lines: int = 2,
    floor: int = 8,
) -> Fitted:
    """``text`` laid out to fit ``width`` × ``height`` px without cutting a word, by rule:

    1. on one line at ``size``, or the largest size down to ``min_size`` (default 80 % of
       ``size``) at which it fits;
    2. else wrapped at its spaces on up to ``max_lines`` lines, at the largest size from
       ``size`` down to ``min_size`` at which every line fits;
    3. else scaled below ``min_size`` (one line or wrapped) down to ``floor`` px;
    4. only a word wider than the box at ``floor`` px is cut, with an ellipsis (``cut``).

    Lines are ``SPACING`` × size apart and must all fit ``height``.
    """
    words = text.split() or [""]
    low = max(floor, min(size, min_size if min_size is not None else round(size * 0.8)))

    def lines_at(s: int, most: int) -> list[str] | None:
        got = _wrap(words, width, s, bold, most)
        return got if got is not None and len(got) * s * SPACING <= height + 0.5 else None

    for s in range(size, low - 1, -1):
        one = lines_at(s, 1)
        if one is not None:
            return Fitted(tuple(one), s, bold)
    for s in range(size, low - 1, -1):
        many = lines_at(s, max_lines)
        if many is not None:
            return Fitted(tuple(many), s, bold)
    for s in range(low - 1, floor - 1, -1):
        many = lines_at(s, max_lines)
        if many is not None:
            return Fitted(tuple(many), s, bold)
    s = max(1, min(floor, int(height / SPACING)))
    out: list[str] = []
    for w in words:  # the last resort: each word on its own line, cut to fit
        if len(out) == max_lines:
            out[-1] = fit_text(out[-1] + " …", round(width), s, bold)
            break
        out.append(fit_text(w, round(width), s, bold))
    return Fitted(tuple(out), s, bold, cut=True)


def draw_fitted(
    img: Image.Image,
    xy: tuple[float, float],
    fitted: Fitted,
    fill: tuple[int, int, int],
    *,
    anchor: str = "lm",
    stroke: int = 0,
    stroke_fill: tuple[int, int, int] = (0, 0, 0),
) -> None:
    """Draw the lines of ``fitted`` as a block: ``anchor``'s first letter aligns each line
    (``l``/``m``/``r`` of ``xy``'s x), its second places the block (``a``: its top at ``xy``'s
    y, ``m``: its middle)."""
    step = fitted.size * SPACING
    top = xy[1] if anchor[1] == "a" else xy[1] - fitted.height / 2
    for i, line in enumerate(fitted.lines):
        draw_text(
            img,
            (xy[0], top + step * (i + 0.5)),
            line,
            fitted.size,
            fill,
            bold=fitted.bold,
            anchor=f"{anchor[0]}m",
            stroke=stroke,
            stroke_fill=stroke_fill,
        )


track("fonts.width", text_width, 250)
track("fonts.fit", fit_box, 400)
track("fonts.metrics", metrics, 200)


def _mask_bytes(f: FontT, ch: str) -> bytes:
    from PIL import Image, ImageDraw

    size = int(f.size)
    img = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(img).text((size // 2, size // 2), ch, font=f, fill=255)
    return img.tobytes()


@memo("fonts.text_mask", entries=MASK_CACHE, budget=32 * MiB)
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
        paste(img, stroke_fill, (round(x - sx), round(y - sy)), outer)
    paste(img, fill, (px, py), mask)
