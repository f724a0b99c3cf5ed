"""A whole game as an animated GIF or WebP: one frame per view, on a fixed frame.

Made to be posted in Discord (ECOSYSTEM.md §1.6: 10 MiB for every file of a message together)
and read on a phone: each frame is the whole final board (so tiles do not jump about) with the
score strip on top, tiles of :data:`ANIM_TILE` px at most; the GIF stores only what changed
since the previous frame (unchanged pixels are transparent and do not dispose), which is what
keeps a long game small. When the result is over :data:`ANIM_BUDGET` the tiles shrink until it
fits. The last frame is the final board with every figure put back and the scored features
outlined, held longer so the final scores can be read.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageChops

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
#: 255 where two frames agree (a table: Image.point calls a function 256 times)
_SAME_LUT = [255] + [0] * 255


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
    frames = []
    for i, v in enumerate(views):
        last = i == len(views) - 1
        pic = board_picture(v, frame=fr, lang=lang, events=events if last else (), breakdown=False)
        frames.append(pic.image)
    size = (max(f.size[0] for f in frames), max(f.size[1] for f in frames))
    frames = [_pad(f, size) for f in frames]
    durations = [frame_ms] * len(frames)
    durations[-1] = max(frame_ms * 8, 4000)
    buf = io.BytesIO()
    if fmt == "webp":
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
    # one palette for every frame, from the first, a middle and the last frame, so colours
    # that come and go (figures, the current player's chip) keep their true colour
    picks = [frames[0], frames[len(frames) // 2], frames[-1]]
    sample = Image.new("RGB", (size[0], size[1] * len(picks)))
    for i, f in enumerate(picks):
        sample.paste(f, (0, i * size[1]))
    palette = sample.quantize(colors=_KEEP, method=Image.Quantize.MEDIANCUT)
    quantized = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    out = [quantized[0]]
    for prev, cur in zip(quantized, quantized[1:], strict=False):
        # unchanged pixels become the transparent index: the previous frame shows through
        a = Image.frombytes("L", size, prev.tobytes())
        b = Image.frombytes("L", size, cur.tobytes())
        same = ImageChops.difference(a, b).point(_SAME_LUT)
        delta = cur.copy()
        delta.paste(_KEEP, (0, 0, *size), same)
        out.append(delta)
    out[0].save(
        buf,
        "GIF",
        save_all=True,
        append_images=out[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
        transparency=_KEEP,
    )
    return buf.getvalue()


def _pad(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    if img.size == size:
        return img
    out = Image.new("RGB", size, img.getpixel((0, 0)))
    out.paste(img, (0, 0))
    return out
