"""A whole game as an animated GIF or WebP: one frame per view, on a fixed frame.

Made to be posted in Discord (ECOSYSTEM.md §1.6: 10 MiB for every file of a message together)
and read on a phone: each frame is the whole final board (so tiles do not jump about) with the
score strip on top, tiles of :data:`ANIM_TILE` px at most; the GIF stores only what changed
since the previous frame (unchanged pixels are transparent and do not dispose), which is what
keeps a long game small. When the result is over :data:`ANIM_BUDGET` the tiles shrink until it
fits. The last frame is the final board with every figure put back and the scored features
outlined, held longer so the final scores can be read.

The GIF is streamed (issue 15): each frame is drawn, compared with the previous one, and only
the part that changed is quantised to the animation's palette and LZW-encoded at once, so a
handful of drawn frames are alive at any time instead of every frame three times over (RGB,
quantised, delta: about 0.5 GB for a 72-turn game at 1280 px). The GIF header, which names the
picture's size, is written last, when every frame's size is known. WebP's encoder takes every
frame at once, so a WebP animation still holds them all (the bot posts GIFs).
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
from rendering.frame import Frame, extent, frame_for
from rendering.header import header_layout

#: the long side of an animation frame; small enough to post, large enough to read
ANIM_SIDE = 1280
ANIM_TILE = 56
#: the most bytes an animation may take (the final message also carries the board and record)
ANIM_BUDGET = 6 * 1024 * 1024
#: palette index of "unchanged since the previous frame"
_KEEP = 255
#: GIF frame disposal "do not dispose": each frame is drawn over the previous one
_NO_DISPOSE = 1


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

    def draw(i: int) -> Image.Image:
        last = i == len(views) - 1
        pic = board_picture(
            views[i], frame=fr, lang=lang, events=events if last else (), breakdown=False
        )
        return pic.image

    if fmt == "gif":
        return _gif(len(views), draw, durations)
    frames = [draw(i) for i in range(len(views))]
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


def _gif(count: int, draw: object, durations: list[int]) -> bytes:
    """The streamed GIF of ``count`` frames drawn by ``draw(i)`` (see the module docstring)."""
    assert callable(draw)
    picks = (0, count // 2, count - 1)
    # one palette for every frame, from the first, a middle and the last frame, so colours
    # that come and go (figures, the current player's chip) keep their true colour; those
    # three are kept until their turn comes
    kept: dict[int, Image.Image] = {i: draw(i) for i in sorted(set(picks))}
    size = (max(f.size[0] for f in kept.values()), max(f.size[1] for f in kept.values()))
    sample = Image.new("RGB", (size[0], size[1] * len(picks)))
    for row, i in enumerate(picks):
        sample.paste(_pad(kept[i], size), (0, row * size[1]))
    palette = sample.quantize(colors=_KEEP, method=Image.Quantize.MEDIANCUT)
    del sample

    body: list[bytes] = []
    pending: tuple[Image.Image, tuple[int, int], int] | None = None  # part, where, ms
    previous: Image.Image | None = None  # the last frame drawn (RGB)
    shown: Image.Image | None = None  # the picture on screen so far (palette indices)
    for i in range(count):
        held = kept.pop(i, None)
        img = held if held is not None else draw(i)
        if img.size[0] > size[0] or img.size[1] > size[1]:  # bigger than any sampled frame
            size = (max(size[0], img.size[0]), max(size[1], img.size[1]))
            previous = shown = None  # drawn whole: it covers the grown screen
        img = _pad(img, size)
        part, where = _changed(img, previous, shown, palette)
        previous = img
        if part is None:  # the same picture: show the last one longer
            assert pending is not None
            pending = (pending[0], pending[1], pending[2] + durations[i])
            continue
        if pending is not None:
            body.append(_frame_data(*pending))
        pending = (part, where, durations[i])
        if shown is None:
            shown = part.copy()
        else:
            shown.paste(part, where, _changed_mask(part))
    assert pending is not None
    body.append(_frame_data(*pending))
    return b"".join([_header(size, palette), *body, b";"])


def _changed(
    img: Image.Image,
    previous: Image.Image | None,
    shown: Image.Image | None,
    palette: Image.Image,
) -> tuple[Image.Image | None, tuple[int, int]]:
    """What of ``img`` to write over the screen: the whole frame first, then the smallest
    box around the pixels whose palette index changed, unchanged ones in it made
    transparent (:data:`_KEEP`); ``None`` when nothing changed."""
    if previous is None or shown is None:
        return img.quantize(palette=palette, dither=Image.Dither.NONE), (0, 0)
    box = ImageChops.difference(img, previous).getbbox()
    if box is None:
        return None, (0, 0)
    part = img.crop(box).quantize(palette=palette, dither=Image.Dither.NONE)
    old = shown.crop(box)
    diff = ImageChops.difference(_indices(part), _indices(old))
    inner = diff.getbbox()
    if inner is None:  # other colours, the same palette entries
        return None, (0, 0)
    same = diff.point(lambda v: 255 if v == 0 else 0)
    part.paste(_KEEP, (0, 0, *part.size), same)
    part = part.crop(inner)
    return part, (box[0] + inner[0], box[1] + inner[1])


def _indices(img: Image.Image) -> Image.Image:
    """A palette image's indices as a greyscale image (to compare indices, not colours)."""
    return Image.frombytes("L", img.size, img.tobytes())


def _changed_mask(part: Image.Image) -> Image.Image:
    """Where ``part`` is not transparent (what it changes on the screen)."""
    return _indices(part).point(lambda v: 0 if v == _KEEP else 255)


def _frame_data(part: Image.Image, xy: tuple[int, int], ms: int) -> bytes:
    """One frame's graphic control block, descriptor and LZW data (the global palette)."""
    return b"".join(
        GifImagePlugin.getdata(
            part, offset=xy, duration=ms, disposal=_NO_DISPOSE, transparency=_KEEP
        )
    )


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
