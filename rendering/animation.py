"""A whole game as an animated GIF or WebP: one frame per view, on a fixed frame.

The GIF is streamed: each frame is drawn, compared with the previous one, and only the part
that changed is quantised to the animation's palette and LZW-encoded at once, so at most two
drawn frames are alive at any time (a 72-turn game at 1024 px no longer holds 72 frames,
about 170 MB, while it is encoded). The GIF header, which names the picture's size, is written
last, when every frame's size is known. WebP's encoder takes every frame at once, so a WebP
animation still holds them all (the bot posts GIFs).
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence

from PIL import GifImagePlugin, Image, ImageChops

from engine.carcassonne.view import PublicView
from rendering.board import board_image
from rendering.frame import Frame, extent, frame_for

#: the long side of an animation frame; small enough to post, large enough to read
ANIM_SIDE = 1024
ANIM_TILE = 48
#: GIF frame disposal "do not dispose": each frame is drawn over the previous one
_KEEP = 1


def render_animation(
    views: Sequence[PublicView], *, fmt: str = "gif", frame_ms: int = 600
) -> bytes:
    """Animate ``views`` (e.g. one per turn) as ``"gif"`` or ``"webp"`` bytes.

    Every frame uses the final board's extent, so tiles do not jump about; the last frame is held
    longer so the final scores can be read.
    """
    if not views:
        raise ValueError("no views to animate")
    fmt = fmt.lower()
    if fmt not in ("gif", "webp"):
        raise ValueError("animation format must be 'gif' or 'webp'")
    cells = [tv.pos for v in views for tv in v.tiles]
    fr = frame_for(extent(cells), max_tile=ANIM_TILE, max_side=ANIM_SIDE)
    durations = [frame_ms] * len(views)
    durations[-1] = max(frame_ms * 5, 3000)
    if fmt == "gif":
        return _gif(views, fr, durations)
    frames = [board_image(v, frame=fr) for v in views]
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


def _gif(views: Sequence[PublicView], fr: Frame, durations: list[int]) -> bytes:
    """The streamed GIF (see the module docstring)."""
    last = len(views) - 1
    mid = len(views) // 2
    # one palette for every frame, from the first, a middle and the last frame, so colours
    # that come and go (figures, the current-tile frame) keep their true colour; those three
    # are kept until their turn comes (at most three drawn frames besides the current one)
    picks = (0, mid, last)
    kept = {i: board_image(views[i], frame=fr) for i in sorted(set(picks))}
    size = (max(f.size[0] for f in kept.values()), max(f.size[1] for f in kept.values()))
    sample = Image.new("RGB", (size[0], size[1] * len(picks)))
    for row, i in enumerate(picks):
        sample.paste(_pad(kept[i], size), (0, row * size[1]))
    palette = sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    del sample
    background = kept[0].getpixel((0, 0))

    body: list[bytes] = []
    pending: tuple[Image.Image, tuple[int, int], int] | None = None  # quantised part, xy, ms
    previous: Image.Image | None = None
    for i, view in enumerate(views):
        held = kept.pop(i, None)
        img = held if held is not None else board_image(view, frame=fr)
        if img.size[0] > size[0] or img.size[1] > size[1]:  # bigger than any sampled frame
            size = (max(size[0], img.size[0]), max(size[1], img.size[1]))
            previous = None  # draw it whole: it covers the grown area
        img = _pad(img, size)
        box = None if previous is None else ImageChops.difference(img, previous).getbbox()
        if previous is not None and box is None:  # the same picture: show the last one longer
            assert pending is not None
            pending = (pending[0], pending[1], pending[2] + durations[i])
            continue
        if box is None:
            box = (0, 0, *img.size)
        part = img.crop(box).quantize(palette=palette, dither=Image.Dither.NONE)
        if pending is not None:
            body.append(_frame_data(*pending))
        pending = (part, (box[0], box[1]), durations[i])
        previous = img
    assert pending is not None
    body.append(_frame_data(*pending))
    return b"".join([_header(size, palette, background), *body, b";"])


def _frame_data(part: Image.Image, xy: tuple[int, int], ms: int) -> bytes:
    """One frame's graphic control block, descriptor and LZW data (global palette)."""
    return b"".join(GifImagePlugin.getdata(part, offset=xy, duration=ms, disposal=_KEEP))


def _header(size: tuple[int, int], palette: Image.Image, background: object) -> bytes:
    """GIF89a header: screen size, the global colour table (256 entries) and loop forever."""
    assert palette.palette is not None
    colours = bytes(palette.palette.palette)[: 256 * 3].ljust(256 * 3, b"\0")
    bg = _index_of(colours, background)
    return (
        b"GIF89a"
        + struct.pack("<HHBBB", size[0], size[1], 0x80 | 0x07, bg, 0)
        + colours
        + b"!\xff\x0bNETSCAPE2.0\x03\x01"
        + struct.pack("<H", 0)
        + b"\0"
    )


def _index_of(colours: bytes, rgb: object) -> int:
    """The palette index nearest to ``rgb`` (the background colour of the screen)."""
    if not isinstance(rgb, tuple) or len(rgb) < 3:
        return 0
    best, best_d = 0, None
    for i in range(len(colours) // 3):
        c = colours[3 * i : 3 * i + 3]
        d = sum((int(a) - int(b)) ** 2 for a, b in zip(c, rgb[:3], strict=True))
        if best_d is None or d < best_d:
            best, best_d = i, d
    return best


def _pad(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    if img.size == size:
        return img
    out = Image.new("RGB", size, img.getpixel((0, 0)))
    out.paste(img, (0, 0))
    return out
