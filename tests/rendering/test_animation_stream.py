"""The streamed GIF replay: the same frames as Pillow's all-at-once writer, and never more than
a few drawn frames alive while it is encoded."""

from __future__ import annotations

import io
import weakref

import pytest
from PIL import Image, ImageChops, ImageSequence

from rendering import animation
from rendering.animation import animation_frame, render_animation
from rendering.board import board_picture

from .conftest import play


def _reference(views: list, frame_ms: int = 500) -> bytes:  # type: ignore[type-arg]
    """The replay as it was written before streaming: every frame drawn whole and kept, one
    palette from the first, middle and last frames (the animation's own), unchanged pixels
    transparent, Pillow's ``save_all``."""
    fr = animation_frame(views)
    frames = [
        board_picture(v, frame=fr, breakdown=False).image
        for v in views  # (the last frame's events are none here)
    ]
    size = (max(f.size[0] for f in frames), max(f.size[1] for f in frames))
    padded = []
    for f in frames:
        out = Image.new("RGB", size, f.getpixel((0, 0)))
        out.paste(f, (0, 0))
        padded.append(out)
    picks = [padded[0], padded[len(padded) // 2], padded[-1]]
    palette = animation._palette(picks, size)  # median cut of a ninth of their pixels
    pal = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in padded]
    out_frames = [pal[0]]
    for prev, cur in zip(pal, pal[1:], strict=False):
        a = Image.frombytes("L", size, prev.tobytes())
        b = Image.frombytes("L", size, cur.tobytes())
        same = ImageChops.difference(a, b).point(lambda v: 255 if v == 0 else 0)
        delta = cur.copy()
        delta.paste(255, (0, 0, *size), same)
        out_frames.append(delta)
    durations = [frame_ms] * len(pal)
    durations[-1] = max(frame_ms * 8, 4000)
    buf = io.BytesIO()
    out_frames[0].save(
        buf,
        "GIF",
        save_all=True,
        append_images=out_frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
        transparency=255,
    )
    return buf.getvalue()


def _frames(data: bytes) -> list[tuple[Image.Image, int]]:
    img = Image.open(io.BytesIO(data))
    assert img.format == "GIF" and img.info.get("loop") == 0
    return [(f.convert("RGB"), f.info.get("duration", 0)) for f in ImageSequence.Iterator(img)]


@pytest.mark.parametrize("turns", [1, 2, 17])
def test_streamed_frames_are_the_frames_written_all_at_once(turns: int) -> None:
    _state, views = play(turns, seed=5, players=3)
    streamed = _frames(render_animation(views))
    reference = _frames(_reference(views))
    assert len(streamed) == len(reference) == len(views)
    for i, ((a, ms_a), (b, ms_b)) in enumerate(zip(streamed, reference, strict=True)):
        assert a.size == b.size
        assert ImageChops.difference(a, b).getbbox() is None, f"frame {i} differs"
        assert ms_a == ms_b


def test_a_repeated_view_is_shown_longer_not_twice() -> None:
    _state, views = play(4, seed=3)
    frames = _frames(render_animation([*views[:3], views[2], *views[3:]]))
    assert len(frames) == len(views)
    assert [ms for _, ms in frames][2] == 1000


def test_at_most_four_drawn_frames_are_alive_while_encoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """First, middle and last (the palette's samples, kept until their turn) and the current
    one; a frame is dropped once the next is encoded. Before, all 25 were held."""
    _state, views = play(24, seed=8)
    drawn: list[weakref.ref[Image.Image]] = []
    most = 0

    def drawing(view: object, **kw: object) -> object:
        nonlocal most
        pic = board_picture(view, **kw)  # type: ignore[arg-type]
        drawn.append(weakref.ref(pic.image))
        most = max(most, sum(r() is not None for r in drawn))
        return pic

    monkeypatch.setattr(animation, "board_picture", drawing)
    data = render_animation(views)
    assert len(_frames(data)) == len(views)
    assert most <= 4, most
