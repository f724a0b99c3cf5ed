"""A whole game as an animated GIF or WebP: one frame per view, on a fixed frame.

Made to be posted in Discord (ECOSYSTEM.md §1.6: 10 MiB for every file of a message together)
and read on a phone: each frame is the whole final board (so tiles do not jump about) with the
score strip on top, tiles of :data:`ANIM_TILE` px at most; the GIF stores only what changed
since the previous frame (unchanged pixels are transparent and do not dispose), which is what
keeps a long game small. When the result is over :data:`ANIM_BUDGET` the tiles shrink until it
fits. The last frame is the final board with every figure put back and the scored features
outlined, held longer so the final scores can be read.

The GIF is streamed (issue 15): each frame is drawn on the previous one
(:class:`rendering.canvas.BoardCanvas`: the score strip and the boxes of the board the turn
changed), only those boxes are quantised to the animation's palette and compared with what is
on screen, and the part that changed is LZW-encoded at once, so a handful of pictures are alive
at any time instead of every frame three times over (RGB, quantised, delta: about 0.5 GB for a
72-turn game at 1280 px). The decoded frames are those of frames drawn whole
(``tests/rendering/test_canvas.py``). The palette is a median cut of every third pixel of every
third row of the first, middle and last frames (:data:`PALETTE_STEP`). The GIF header, which
names the picture's size, is written last, when every frame's size is known. WebP's encoder
takes every frame at once, so a WebP animation still holds them all (the bot posts GIFs).
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence

from PIL import GifImagePlugin, Image, ImageChops

from engine.carcassonne.events import Event
from engine.carcassonne.scoring import Award
from engine.carcassonne.view import PublicView
from rendering.board import board_picture
from rendering.canvas import BoardCanvas
from rendering.frame import Frame, extent, frame_for
from rendering.gif_lzw import frame_data, transparent_rows
from rendering.header import header_layout

#: the long side of an animation frame; small enough to post, large enough to read
ANIM_SIDE = 1280
ANIM_TILE = 56
#: the most bytes an animation may take (the final message also carries the board and record)
ANIM_BUDGET = 6 * 1024 * 1024
#: the palette is made from every third pixel of every third row of its sample frames: a ninth
#: of the work, the same seat colours, and as close to the true colours on average
#: (BENCHMARKS.md, issue 15)
PALETTE_STEP = 3
#: palette index of "unchanged since the previous frame"
_KEEP = 255
#: GIF frame disposal "do not dispose": each frame is drawn over the previous one
_NO_DISPOSE = 1
#: an index difference to a mask of "unchanged" (255 where it is 0)
_UNCHANGED = [255] + [0] * 255


def animation_frame(views: Sequence[PublicView], tile: int = ANIM_TILE) -> Frame:
    """The frame every picture of ``views`` uses: the final board's extent, tiles ≤ ``tile``."""
    cells = [tv.pos for v in views for tv in v.tiles]
    head = max(header_layout(v, 800).height for v in (views[0], views[-1]))
    return frame_for(extent(cells), panel=0, strip=head, max_tile=tile, max_side=ANIM_SIDE)


def render_animation(
    views: Sequence[PublicView],
    *,
    fmt: str = "gif",
    frame_ms: int = 500,
    lang: str = "en",
    events: Sequence[Event] = (),
    awards: Sequence[Award] | None = None,
) -> bytes:
    """Animate ``views`` (e.g. one per turn) as ``"gif"`` or ``"webp"`` bytes.

    ``events`` are the last move's (the final frame puts back the figures final scoring took
    off and outlines what it scored); ``awards`` are unused by the frames and accepted so
    callers can pass what they pass to :func:`rendering.render_board`.
    """
    if not views:
        raise ValueError("no views to animate")
    fmt = fmt.lower()
    if fmt not in ("gif", "webp"):
        raise ValueError("animation format must be 'gif' or 'webp'")
    del awards
    tile = ANIM_TILE
    while True:
        data = _encode(views, animation_frame(views, tile), fmt, frame_ms, lang, events)
        if len(data) <= ANIM_BUDGET or tile <= 16:
            return data
        tile -= 8


def _encode(
    views: Sequence[PublicView],
    fr: Frame,
    fmt: str,
    frame_ms: int,
    lang: str,
    events: Sequence[Event],
) -> bytes:
    durations = [frame_ms] * len(views)
    durations[-1] = max(frame_ms * 8, 4000)
    if fmt == "gif":
        return _gif(views, fr, lang, events, durations)
    canvas = BoardCanvas(fr, lang=lang)
    last = len(views) - 1
    frames = [canvas.draw(v, events if i == last else ())[0].copy() for i, v in enumerate(views)]
    size = (max(f.size[0] for f in frames), max(f.size[1] for f in frames))
    frames = [_pad(f, size) for f in frames]
    buf = io.BytesIO()
    frames[0].save(
        buf,
        "WEBP",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        quality=80,
        method=4,
    )
    return buf.getvalue()


def _gif(
    views: Sequence[PublicView],
    fr: Frame,
    lang: str,
    events: Sequence[Event],
    durations: list[int],
) -> bytes:
    """The streamed GIF of ``views`` (see the module docstring)."""
    count = len(views)
    last = count - 1

    def whole(i: int) -> Image.Image:
        view_events = events if i == last else ()
        return board_picture(
            views[i], frame=fr, lang=lang, events=view_events, breakdown=False
        ).image

    picks = (0, count // 2, last)
    # one palette for every frame, from the first, a middle and the last frame, so colours
    # that come and go (figures, the current player's chip) keep their true colour; the
    # first and the last are kept for their turn (both are drawn whole then)
    kept: dict[int, Image.Image] = {i: whole(i) for i in sorted(set(picks))}
    size = (max(f.size[0] for f in kept.values()), max(f.size[1] for f in kept.values()))
    palette = _palette([kept[i] for i in picks], size)
    kept = {i: kept[i] for i in (0, last)}

    canvas = BoardCanvas(fr, lang=lang)
    body: list[bytes] = []
    # part, where, ms, its bands of rows left as they were
    pending: tuple[Image.Image, tuple[int, int], int, Rows] | None = None
    previous: Image.Image | None = None  # the last frame (RGB; changed in place by the canvas)
    shown: Image.Image | None = None  # the picture on screen so far (palette indices, "L")
    for i in range(count):
        img, boxes = canvas.draw(views[i], events if i == last else (), drawn=kept.pop(i, None))
        if img.size[0] > size[0] or img.size[1] > size[1]:  # bigger than any sampled frame
            size = (max(size[0], img.size[0]), max(size[1], img.size[1]))
            previous = shown = None  # drawn whole: it covers the grown screen
        if boxes is None or shown is None:
            part, where, kept_rows = _changed(_pad(img, size), previous, shown, palette)
        else:
            part, where, kept_rows = _changed_in(img, boxes, shown, palette)
        previous = img
        if part is None:  # the same picture: show the last one longer
            assert pending is not None
            pending = (pending[0], pending[1], pending[2] + durations[i], pending[3])
            continue
        if pending is not None:
            body.append(_frame_data(*pending))
        pending = (part, where, durations[i], kept_rows)
        if shown is None:
            shown = part.copy()
    assert pending is not None
    body.append(_frame_data(*pending))
    return b"".join([_header(size, palette), *body, b";"])


def _palette(frames: Sequence[Image.Image], size: tuple[int, int]) -> Image.Image:
    """The animation's palette (:data:`_KEEP` colours, median cut) from every
    :data:`PALETTE_STEP`-th pixel of every :data:`PALETTE_STEP`-th row of ``frames``."""
    step = PALETTE_STEP
    sample = Image.new("RGB", (size[0], size[1] * len(frames)))
    for row, f in enumerate(frames):
        sample.paste(_pad(f, size), (0, row * size[1]))
    if step > 1:
        small = (sample.width // step, sample.height // step)
        sample = sample.resize(small, Image.Resampling.NEAREST)
    return sample.quantize(colors=_KEEP, method=Image.Quantize.MEDIANCUT)


def _quantize(img: Image.Image, palette: Image.Image) -> Image.Image:
    """``img``'s palette indices (nearest colour, no dithering) as an ``L`` image."""
    q = img.quantize(palette=palette, dither=Image.Dither.NONE)
    return Image.frombytes("L", q.size, q.tobytes())


#: bands of rows (``y0``, ``y1``) of a frame's part that hold nothing but :data:`_KEEP`
Rows = list[tuple[int, int]]


def _changed(
    img: Image.Image,
    previous: Image.Image | None,
    shown: Image.Image | None,
    palette: Image.Image,
) -> tuple[Image.Image | None, tuple[int, int], Rows]:
    """What of ``img`` (drawn whole) to write over the screen: the whole frame first, then the
    smallest box around the pixels whose palette index changed, unchanged ones in it made
    transparent (:data:`_KEEP`); ``None`` when nothing changed. ``shown`` is brought up to
    date (the caller keeps the first frame's indices)."""
    if previous is None or shown is None:
        return _quantize(img, palette), (0, 0), []
    box = ImageChops.difference(img, _pad(previous, img.size)).getbbox()
    if box is None:
        return None, (0, 0), []
    return _changed_in(img, [box], shown, palette)


def _changed_in(
    img: Image.Image,
    boxes: Sequence[tuple[int, int, int, int]],
    shown: Image.Image,
    palette: Image.Image,
) -> tuple[Image.Image | None, tuple[int, int], Rows]:
    """What of ``img`` to write over the screen when only ``boxes`` (not overlapping) may
    have changed: the smallest box around the pixels whose palette index changed, the others
    in it transparent, and the bands of its rows that are wholly transparent; ``None`` when
    nothing changed. ``shown`` is brought up to date."""
    # on Pillow's image cores: the same operations as ``quantize``, ``ImageChops.difference``,
    # ``point`` and ``paste`` without their per-call checks and copies (the palette copied
    # with every quantised box, the look-up table rounded again with every mask)
    pieces = []
    pal = palette.im
    for box in boxes:
        new = img.im.crop(box).convert("P", Image.Dither.NONE, pal)  # nearest palette index
        diff = shown.im.crop(box).chop_difference(new)
        inner = diff.getbbox(False)
        if inner is not None:
            pieces.append((box, new, diff, inner))
    if not pieces:  # other colours, the same palette entries
        return None, (0, 0), []
    x0 = min(b[0] + i[0] for b, _n, _d, i in pieces)
    y0 = min(b[1] + i[1] for b, _n, _d, i in pieces)
    x1 = max(b[0] + i[2] for b, _n, _d, i in pieces)
    y1 = max(b[1] + i[3] for b, _n, _d, i in pieces)
    part = Image.new("L", (x1 - x0, y1 - y0), _KEEP)
    for box, new, diff, _inner in pieces:
        # unmasked pastes (a masked one blends every pixel): the box's new indices where they
        # changed, _KEEP where not (the lighter of the index and 255 - "changed")
        piece = new.chop_lighter(diff.point(_UNCHANGED, None))
        w, h = box[2] - box[0], box[3] - box[1]
        part.im.paste(piece, (box[0] - x0, box[1] - y0, box[0] - x0 + w, box[1] - y0 + h))
        shown.im.paste(new, box)  # where nothing changed the new index is the one shown
    rows = [(b[1] + i[1] - y0, b[1] + i[3] - y0) for b, _n, _d, i in pieces]
    return part, (x0, y0), transparent_rows(part.size[1], rows, part.size[0])


def _frame_data(
    part: Image.Image, xy: tuple[int, int], ms: int, kept: Sequence[tuple[int, int]] = ()
) -> bytes:
    """One frame's graphic control block, descriptor and LZW data (the global palette); the
    bands of rows ``kept`` (wholly :data:`_KEEP`) cost next to nothing to encode
    (:mod:`rendering.gif_lzw`)."""
    data = frame_data(part, kept, _KEEP) if kept else None
    if data is None:
        return b"".join(
            GifImagePlugin.getdata(
                part, offset=xy, duration=ms, disposal=_NO_DISPOSE, transparency=_KEEP
            )
        )
    control = struct.pack("<3sBHBB", b"!\xf9\x04", 1 | _NO_DISPOSE << 2, ms // 10, _KEEP, 0)
    where = struct.pack("<BHHHHB", 0x2C, xy[0], xy[1], part.size[0], part.size[1], 0)
    return control + where + data


def _header(size: tuple[int, int], palette: Image.Image) -> bytes:
    """GIF89a header: screen size, the global colour table (256 entries), loop forever."""
    assert palette.palette is not None
    colours = bytes(palette.palette.palette)[: 256 * 3].ljust(256 * 3, b"\0")
    return (
        b"GIF89a"
        + struct.pack("<HHBBB", size[0], size[1], 0x80 | 0x07, 0, 0)
        + colours
        + b"!\xff\x0bNETSCAPE2.0\x03\x01"
        + struct.pack("<H", 0)
        + b"\0"
    )


def _pad(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    if img.size == size:
        return img
    out = Image.new("RGB", size, img.getpixel((0, 0)))
    out.paste(img, (0, 0))
    return out
