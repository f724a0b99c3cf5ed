"""The score strip on top of every board picture, made to be read at phone width (~400 px).

One chip per player: the seat's colour block with its shape, the name, the score in big
figures, the figures left by kind (icon + count) and one line per expansion overlay that adds
one (goods held ...). The current player's chip is filled with the seat's colour and framed, so
whose turn it is survives any downscaling; at the end the winners get a star. Left of the chips,
the drawn tile, framed in the current player's colour; above them the turn and the tiles left.

:func:`header_layout` says where everything goes (tests probe those boxes);
:func:`draw_header` draws it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from engine.carcassonne.view import PlayerView, PublicView
from engine.core.seats import Seat
from rendering import style as st
from rendering.cache import MiB, memo, paste, store
from rendering.figures import draw_mark, figure_sprite, kind_order
from rendering.fonts import Fitted, draw_fitted, draw_text, fit_box, fit_text, text_width
from rendering.overlays import PanelItem, overlays_of
from rendering.tiles import tile_image
from rendering.words import word

#: side of the small figure and goods icons in a player's chip
ICON = 24
#: height of each extra line an overlay adds to a chip (goods ...)
LINE_H = 30
PAD = 12
GAP = 8
#: the turn line above the chips
INFO_H = 40
INFO_SIZE = 26
NAME_SIZE = 22
#: score figures: about 18 px high once the picture is shown 400 px wide
SCORE_SIZE = 50
COUNT_SIZE = 18
#: the chips' own height without overlay lines: the top band (colour block, name, score) and
#: the line of figures left under it
TOP_H = 58
CHIP_H = 90
BLOCK = 44
#: the largest side of the drawn tile's thumbnail
THUMB_MAX = 150
CHIP_BG: st.RGB = (58, 63, 74)
#: frame of the current player's chip (and the winners' stars)
CURRENT_FRAME: st.RGB = (255, 255, 255)
STAR: st.RGB = (250, 200, 40)
#: the picture width the sizes above are for; a wider picture scales the header up
REF_WIDTH = 960


def text_sizes(k: float = 1.0) -> list[tuple[int, bool]]:
    """The (font size, bold) of the texts of a header scaled by ``k``: the turn line, the
    names, the scores and the counts of figures left."""
    return [
        (round(INFO_SIZE * k), True),
        (round(NAME_SIZE * k), False),
        (round(SCORE_SIZE * k), True),
        (round(COUNT_SIZE * k), True),
    ]


def scale_of(width: int) -> float:
    """How much a header on a picture ``width`` px wide is scaled (never below 1)."""
    return max(1.0, width / REF_WIDTH)


@dataclass(frozen=True, slots=True)
class Chip:
    """Where one player's chip is: its box, its score's box and its colour block."""

    seat: Seat
    box: tuple[int, int, int, int]
    score_box: tuple[int, int, int, int]
    block: tuple[int, int, int, int]
    current: bool


@dataclass(frozen=True, slots=True)
class HeaderLayout:
    """The header's height, each player's chip and the drawn tile's box (if shown); ``k`` is
    its scale (everything grows with a picture wider than :data:`REF_WIDTH`, so the scores
    read the same once any picture is shown 400 px wide)."""

    width: int
    height: int
    chips: tuple[Chip, ...]
    thumb: tuple[int, int, int, int] | None
    k: float = 1.0

    def chip(self, seat: int) -> Chip:
        return next(c for c in self.chips if int(c.seat) == int(seat))


def figure_kinds(supply: Mapping[str, int]) -> list[str]:
    """The kinds in a player's supply in the order pictures list them."""
    return kind_order(supply)


def panel_lines(view: PublicView, seat: Seat, icon: int) -> list[Sequence[PanelItem]]:
    """The extra lines of ``seat``'s chip: one per expansion overlay that shows one in ``view``."""
    out = []
    for ov in overlays_of(view):
        items = ov.panel_items(view, seat, icon)
        if items is not None:
            out.append(items)
    return out


def chip_height(view: PublicView, k: float = 1.0) -> int:
    """Height of one player's chip: name, score and figures left, plus the overlays' lines."""
    lines = len(panel_lines(view, view.players[0].seat, ICON)) if view.players else 0
    return round((CHIP_H + LINE_H * lines) * k)


def per_row(n: int) -> int:
    """Chips in a row: all of them up to three players, two a row for four (a chip a quarter
    of the picture wide has no room for a name beside a three-figure score), else three."""
    return n if n <= 3 else 2 if n == 4 else 3


def _shows_thumb(view: PublicView) -> bool:
    return view.drawn is not None and not view.over


def header_layout(view: PublicView, width: int) -> HeaderLayout:
    """Where the header of ``view`` puts everything on a picture ``width`` px wide."""
    k = scale_of(width)

    def sc(v: float) -> int:
        return round(v * k)

    n = max(1, len(view.players))
    cols = per_row(n)
    rows = -(-n // cols)
    ch = chip_height(view, k)
    body = rows * ch + (rows - 1) * sc(GAP)
    thumb_side = min(sc(THUMB_MAX), sc(INFO_H) + body) if _shows_thumb(view) else 0
    left = sc(PAD) + (thumb_side + sc(PAD) if thumb_side else 0)
    cw = (width - left - sc(PAD) - (cols - 1) * sc(GAP)) // cols
    chips = []
    for i, p in enumerate(view.players):
        r, c = divmod(i, cols)
        x0 = left + c * (cw + sc(GAP))
        y0 = sc(PAD) + sc(INFO_H) + r * (ch + sc(GAP))
        block = (x0 + sc(8), y0 + sc(7), x0 + sc(8 + BLOCK), y0 + sc(7 + BLOCK))
        sw = int(text_width(str(p.score), sc(SCORE_SIZE), bold=True)) + sc(4)
        right = x0 + cw - sc(10)
        score_box = (right - sw, y0 + sc(2), right, y0 + sc(TOP_H - 2))
        current = not view.over and p.seat == view.current
        chips.append(Chip(p.seat, (x0, y0, x0 + cw, y0 + ch), score_box, block, current))
    pad = sc(PAD)
    thumb = (pad, pad, pad + thumb_side, pad + thumb_side) if thumb_side else None
    height = pad + max(sc(INFO_H) + body, thumb_side) + pad
    return HeaderLayout(width, height, tuple(chips), thumb, k)


def draw_counts(
    img: Image.Image,
    items: Sequence[tuple[Image.Image, int]],
    x: int,
    y: int,
    right: int,
    *,
    icon: int = ICON,
    text: int = COUNT_SIZE,
    colour: st.RGB = st.TEXT,
    dim: st.RGB = st.TEXT_DIM,
    k: float = 1.0,
) -> int:
    """Icons each followed by its count, left to right from ``x`` with their bottoms at ``y``
    (counts centred on an ``icon``-high line); stops before ``right``. Returns the x after the
    last item drawn."""
    icon, text = round(icon * k), round(text * k)
    for pic, n in items:
        w = pic.size[0] + 3 + int(text_width(str(n), text, bold=True))
        if x + w > right:
            break
        img.paste(pic, (x, y - pic.size[1]), pic)
        draw_text(
            img,
            (x + pic.size[0] + 3, y - icon // 2),
            str(n),
            text,
            colour if n else dim,
            bold=True,
            anchor="lm",
        )
        x += w + round(8 * k)
    return x


def name_box(chip: Chip, k: float) -> tuple[float, float, float, float]:
    """The box a player's name may fill in ``chip``: between the colour block and the score,
    as high as the chip's top band allows."""
    bx0, by0, bx1, by1 = chip.block
    tx = bx1 + round(8 * k)
    right = max(tx + round(10 * k), chip.score_box[0] - round(4 * k))
    mid = (by0 + by1) / 2
    half = (TOP_H - 8) * k / 2
    return (tx, mid - half, right, mid + half)


def name_fit(name: str, chip: Chip, k: float) -> Fitted:
    """A player's name laid out in its chip (:func:`name_box`): one line at the name size, or
    smaller, or on two lines, never cut mid-word (:func:`rendering.fonts.fit_box`)."""
    x0, y0, x1, y1 = name_box(chip, k)
    return fit_box(name, x1 - x0, y1 - y0, round(NAME_SIZE * k), min_size=round(18 * k))


def _contrast(fill: st.RGB) -> st.RGB:
    """A rim that shows ``fill`` against the dark panel and against light tiles."""
    return (235, 235, 235) if sum(fill) < 160 else (20, 20, 20)


def _chip(
    img: Image.Image,
    view: PublicView,
    p: PlayerView,
    chip: Chip,
    k: float,
    lines: Sequence[Sequence[PanelItem]] | None = None,
    *,
    kept_ground: bool = False,
) -> None:
    """One player's chip: the top band (filled with the seat's colour for the current player)
    with the colour block, name and score; the figures left and the overlays' lines under it
    (``lines``: :func:`panel_lines` of the player, if known). With ``kept_ground`` its shapes
    come from :func:`chip_ground`."""

    def sc(v: float) -> int:
        return round(v * k)

    d = ImageDraw.Draw(img)
    style = st.seat_style(int(p.seat))
    x0, y0, x1, y1 = chip.box
    if kept_ground:
        _paste_ground(img, chip, int(p.seat), k)
    else:
        _draw_ground(d, chip, int(p.seat), k)
    ink = style.ink if chip.current else st.TEXT
    bx0, by0, bx1, by1 = chip.block
    g = sc(2)
    sx0, sy0, sx1, sy1 = chip.score_box
    size = sc(SCORE_SIZE)
    draw_text(img, (sx1, (sy0 + sy1) / 2), str(p.score), size, ink, bold=True, anchor="rm")
    tx = bx1 + sc(8)
    name = name_fit(p.name, chip, k)
    draw_fitted(img, (tx, (by0 + by1) / 2), name, ink, anchor="lm")
    if p.seat in set(view.winners):
        draw_mark(d, st.Mark.STAR, bx1 - g, by0 + g, sc(13), (20, 20, 20))
        draw_mark(d, st.Mark.STAR, bx1 - g, by0 + g, sc(10), STAR)
    base = y0 + sc(CHIP_H - 6)
    icon = sc(ICON)
    figures = [(figure_sprite(q, int(p.seat), icon), p.supply[q]) for q in figure_kinds(p.supply)]
    right = x1 - sc(6)
    fitted, f = fit_counts(figures, right - x0 - sc(10), k)
    draw_counts(img, fitted, x0 + sc(10), base, right, k=k * f)
    if lines is None:
        lines = panel_lines(view, p.seat, icon)
    for i, items in enumerate(lines, start=1):
        draw_counts(img, items, x0 + sc(10), base + i * sc(LINE_H), right, k=k)


def _draw_ground(d: ImageDraw.ImageDraw, chip: Chip, seat: int, k: float) -> None:
    """A chip's shapes under its words: the current player's frame, the chip, its top band
    (the current player's) and the colour block with the seat's mark; every one opaque."""

    def sc(v: float) -> int:
        return round(v * k)

    style = st.seat_style(seat)
    x0, y0, x1, y1 = chip.box
    r = sc(10)
    if chip.current:
        d.rounded_rectangle((x0 - sc(5), y0 - sc(5), x1 + sc(5), y1 + sc(5)), r + 3, CURRENT_FRAME)
        d.rounded_rectangle((x0 - sc(2), y0 - sc(2), x1 + sc(2), y1 + sc(2)), r + 1, (20, 20, 20))
    d.rounded_rectangle(chip.box, radius=r, fill=CHIP_BG)
    if chip.current:
        d.rounded_rectangle((x0, y0, x1, y0 + sc(TOP_H)), radius=r, fill=style.fill)
        d.rectangle((x0, y0 + sc(TOP_H) - r, x1, y0 + sc(TOP_H)), fill=style.fill)
    bx0, by0, bx1, by1 = chip.block
    g = sc(2)
    d.rounded_rectangle((bx0 - g, by0 - g, bx1 + g, by1 + g), sc(8), _contrast(style.fill))
    d.rounded_rectangle(chip.block, radius=sc(7), fill=style.fill)
    draw_mark(d, style.mark, (bx0 + bx1) / 2, (by0 + by1) / 2, (bx1 - bx0) * 0.3, style.ink)


def _moved(box: tuple[int, int, int, int], dx: int, dy: int) -> tuple[int, int, int, int]:
    return (box[0] - dx, box[1] - dy, box[2] - dx, box[3] - dy)


def _paste_ground(img: Image.Image, chip: Chip, seat: int, k: float) -> None:
    """:func:`_draw_ground` on ``img``, pasted from :func:`chip_ground` (issue 33: the same
    pixels, a third of a turn picture's header), or drawn when it could not be kept. Only for
    pictures whose chips come back: turn pictures (all at one scale, so a handful of grounds
    serve every table) and a replay's frames; a final board's scale is its own."""
    e = round(5 * k) + 1  # the current player's frame reaches this far round the chip
    x0, y0 = chip.box[0] - e, chip.box[1] - e
    dx, dy = x0 - (x0 & 1), y0 - (y0 & 1)  # an even shift keeps the parity of every pixel
    at = Chip(
        chip.seat,
        _moved(chip.box, dx, dy),
        _moved(chip.score_box, dx, dy),
        _moved(chip.block, dx, dy),
        chip.current,
    )
    got = chip_ground(at, seat, k, e)
    if got is None:
        _draw_ground(ImageDraw.Draw(img), chip, seat, k)
        return
    for piece, (x, y) in got:  # unmasked pastes: copies of rows (a masked paste blends)
        paste(img, piece, (x + dx, y + dy))


#: a chip's ground as pieces to paste: rectangles of its pixels and where they go
Pieces = tuple[tuple[Image.Image, tuple[int, int]], ...]


@memo("header.chip_ground", entries=64, budget=8 * MiB)
def chip_ground(chip: Chip, seat: int, k: float, e: int) -> Pieces | None:
    """The shapes :func:`_draw_ground` draws for ``chip`` (placed near the origin: a picture
    pastes them shifted by an even number of pixels), as rectangles that cover exactly the
    pixels they draw: rows with the same span joined (a rounded chip is a few rows per
    corner and one rectangle between). Found by drawing them on two grounds; None if a pixel
    is not the same on both (a shape that is not opaque) or a row's pixels are not one span."""
    size = (chip.box[2] + e + 1, chip.box[3] + e + 1)
    drawn = []
    for ground in ((0, 0, 0), (255, 255, 255)):
        layer = Image.new("RGB", size, ground)
        _draw_ground(ImageDraw.Draw(layer), chip, seat, k)
        drawn.append(layer)
    black, white = (Image.new("RGB", size, g) for g in ((0, 0, 0), (255, 255, 255)))
    touched = ImageChops.lighter(_nonzero(drawn[0], black), _nonzero(drawn[1], white))
    # opaque: where a shape is, both layers agree
    if Image.composite(_nonzero(drawn[0], drawn[1]), Image.new("L", size, 0), touched).getbbox():
        return None
    return _pieces(drawn[0], touched)


def _pieces(img: Image.Image, mask: Image.Image) -> Pieces | None:
    """``img`` where ``mask`` is 255, as rectangles (see :func:`chip_ground`); None if a
    row of the mask is not one span of 255 between zeros."""
    w, h = mask.size
    data = mask.tobytes()
    spans: list[tuple[int, int] | None] = []
    for y in range(h):
        row = data[y * w : (y + 1) * w]
        first = row.find(255)
        if first < 0:
            if row.count(0) != w:
                return None
            spans.append(None)
            continue
        last = row.rfind(255) + 1
        if row.count(255, first, last) != last - first or row.count(0) != w - (last - first):
            return None
        spans.append((first, last))
    out = []
    y = 0
    while y < h:
        span = spans[y]
        y1 = y + 1
        while y1 < h and spans[y1] == span:
            y1 += 1
        if span is not None:
            out.append((img.crop((span[0], y, span[1], y1)), (span[0], y)))
        y = y1
    return tuple(out)


#: a difference to "touched" (anything but 0)
_TOUCHED = [0] + [255] * 255


def _nonzero(a: Image.Image, b: Image.Image) -> Image.Image:
    """An ``L`` mask: 255 where RGB pictures ``a`` and ``b`` differ in any channel."""
    return ImageChops.difference(a, b).convert("L", (1, 1, 1, 0)).point(_TOUCHED)


#: pictures of players' chips (not the current player's), by what they show and the pixels
#: under them: from one frame of a replay to the next most chips are the same (issue 15).
#: Turn pictures do not use it: a drawing worker serves hundreds of tables, so a chip would
#: rarely be asked for again before it is dropped.
CHIPS = store("header.chips", entries=256, budget=16 * MiB)


def _kept_chip(img: Image.Image, view: PublicView, p: PlayerView, chip: Chip, k: float) -> None:
    """:func:`_chip` from :data:`CHIPS` when a chip with the same contents was drawn on the
    same pixels before; else drawn, and kept if drawing it changed no pixel round its box."""
    icon = round(ICON * k)
    lines = panel_lines(view, p.seat, icon)
    x0, y0, x1, y1 = chip.box
    box = (x0, y0, x1 + 1, y1 + 1)  # Pillow's rectangles include their last row and column
    key = (
        box,
        k,
        chip.score_box,
        chip.block,
        int(p.seat),
        p.name,
        p.score,
        tuple(sorted(p.supply.items())),
        # the icons are kept with the picture, so their ids stay theirs
        tuple(tuple((id(pic), n) for pic, n in line) for line in lines),
        img.crop(box).tobytes(),
    )
    got = CHIPS.lookup(key)
    if got is not None:
        img.paste(got[0], box[:2])
        return
    m = round(8 * k)
    ring = (max(0, x0 - m), max(0, y0 - m), min(img.width, box[2] + m), min(img.height, box[3] + m))
    before = img.crop(ring)
    _chip(img, view, p, chip, k, lines, kept_ground=True)
    diff = ImageChops.difference(before, img.crop(ring))
    diff.paste((0, 0, 0), (box[0] - ring[0], box[1] - ring[1], box[2] - ring[0], box[3] - ring[1]))
    if diff.getbbox() is None:
        CHIPS.keep(key, (img.crop(box), tuple(pic for line in lines for pic, _n in line)))


def counts_width(items: Sequence[tuple[Image.Image, int]], k: float) -> float:
    """The width :func:`draw_counts` takes for ``items`` at scale ``k`` (icons as they are)."""
    text = round(COUNT_SIZE * k)
    return sum(
        pic.size[0] + 3 + int(text_width(str(n), text, bold=True)) + round(8 * k)
        for pic, n in items
    )


def fit_counts(
    items: Sequence[tuple[Image.Image, int]], room: int, k: float
) -> tuple[Sequence[tuple[Image.Image, int]], float]:
    """A line of icons and counts that would not fit ``room`` px (many figure kinds), its icons,
    counts and gaps shrunk alike so every item shows: the items and the factor for
    :func:`draw_counts`'s scale (1 when they fit as they are)."""
    if not items or counts_width(items, k) <= room:
        return items, 1.0
    f = 1.0
    while f > 0.3:
        f -= 0.02
        shrunk = [
            (pic.resize((max(6, round(pic.size[0] * f)), max(6, round(pic.size[1] * f)))), n)
            for pic, n in items
        ]
        if counts_width(shrunk, k * f) <= room:
            return shrunk, f
    return shrunk, f


def draw_header(
    img: Image.Image,
    view: PublicView,
    lay: HeaderLayout,
    lang: str = "en",
    *,
    keep_chips: bool = False,
) -> None:
    """Draw the header ``lay`` of ``view`` at the top of ``img``; with ``keep_chips`` (the
    replay, which draws one game's header again and again) players' chips come from
    :data:`CHIPS` when they were drawn so before. In the replay and in pictures at scale 1
    (every turn picture) each chip's shapes are pasted from :func:`chip_ground`."""
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, lay.width, lay.height - 1), fill=st.PANEL)
    k = lay.k
    pad, info_h, size = round(PAD * k), round(INFO_H * k), round(INFO_SIZE * k)
    left = lay.chips[0].box[0] if lay.chips else pad
    if view.over:
        info = word("pic.game_over", lang)
    else:
        info = f"{word('pic.turn', lang, n=view.turn + 1)} · " + word(
            "pic.tiles_left", lang, n=view.tiles_left
        )
    draw_text(
        img,
        (left, pad + info_h / 2 - 2 * k),
        fit_text(info, lay.width - left - pad, size, bold=True),
        size,
        st.TEXT,
        bold=True,
        anchor="lm",
    )
    by_seat = {int(p.seat): p for p in view.players}
    winners = set(view.winners)
    for chip in lay.chips:
        p = by_seat[int(chip.seat)]
        if not keep_chips or chip.current or p.seat in winners:  # a frame, a star: past its box
            _chip(img, view, p, chip, k, kept_ground=keep_chips or k == 1.0)
        else:
            _kept_chip(img, view, p, chip, k)
    if lay.thumb is not None and view.drawn is not None:
        x0, y0, x1, y1 = lay.thumb
        fill = st.seat_style(int(view.current)).fill
        a, b = round(6 * k), round(4 * k)
        d.rectangle((x0 - a, y0 - a, x1 + a - 1, y1 + a - 1), fill=_contrast(fill))
        d.rectangle((x0 - b, y0 - b, x1 + b - 1, y1 + b - 1), fill=fill)
        img.paste(tile_image(view.drawn, 0, x1 - x0), (x0, y0))
