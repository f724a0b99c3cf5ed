"""A whole game as an animated GIF or WebP: one frame per view, on a fixed frame."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from engine.carcassonne.view import PublicView
from rendering.board import board_image
from rendering.frame import extent, frame_for

#: the long side of an animation frame; small enough to post, large enough to read
ANIM_SIDE = 1024
ANIM_TILE = 48


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
    frames = [board_image(v, frame=fr) for v in views]
    size = (max(f.size[0] for f in frames), max(f.size[1] for f in frames))
    frames = [_pad(f, size) for f in frames]
    durations = [frame_ms] * len(frames)
    durations[-1] = max(frame_ms * 5, 3000)
    buf = io.BytesIO()
    if fmt == "gif":
        # one palette for every frame, from the first, a middle and the last frame, so colours
        # that come and go (figures, the current-tile frame) keep their true colour
        picks = [frames[0], frames[len(frames) // 2], frames[-1]]
        sample = Image.new("RGB", (size[0], size[1] * len(picks)))
        for i, f in enumerate(picks):
            sample.paste(f, (0, i * size[1]))
        palette = sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
        pal_frames = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
        pal_frames[0].save(
            buf,
            "GIF",
            save_all=True,
            append_images=pal_frames[1:],
            duration=durations,
            loop=0,
            optimize=False,
            disposal=1,
        )
    else:
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


def _pad(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    if img.size == size:
        return img
    out = Image.new("RGB", size, img.getpixel((0, 0)))
    out.paste(img, (0, 0))
    return out
