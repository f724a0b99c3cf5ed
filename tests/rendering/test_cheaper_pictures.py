"""Issue 33: the cheaper ways of drawing give today's pictures, pixel for pixel.

Each picture of a 2-player base game and of a 2-player game with an expansion mix — turn
pictures (legal cells numbered, the move's scoring outlined), the final board with its
breakdown, and every frame of the replay — is drawn twice: as it is drawn now, and with the
former ways put back (Pillow's ``paste`` and PNG writer, each chip's shapes drawn on the
picture, every replay frame LZW-encoded whole by Pillow). Both are decoded and compared."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from PIL import Image, ImageDraw

from engine import legal_placements, public_view
from rendering import animation, board, cache, fonts, header, render_animation, render_board

from .conftest import play

MIXES = [(), ("abbey_mayor", "bridges_castles_bazaars", "inns_cathedrals")]


def _pillow_paste(
    img: Image.Image, src: object, xy: tuple[int, int], mask: Image.Image | None = None
) -> None:
    img.paste(src, xy, mask)  # type: ignore[arg-type]


def _pillow_png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def _drawn_ground(img: Image.Image, chip: header.Chip, seat: int, k: float) -> None:
    header._draw_ground(ImageDraw.Draw(img), chip, seat, k)


@contextmanager
def former_ways(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The drawing as it was before issue 33."""
    with monkeypatch.context() as m:
        for module in (board, fonts, header):
            m.setattr(module, "paste", _pillow_paste)
        m.setattr(header, "_paste_ground", _drawn_ground)
        m.setattr(board, "encode_png", _pillow_png)
        m.setattr(animation, "frame_data", lambda img, runs, index: None)
        yield


def frames(data: bytes) -> list[tuple[bytes, object]]:
    """Every frame of a GIF as shown (RGBA) with its duration."""
    gif = Image.open(io.BytesIO(data))
    out = []
    for i in range(gif.n_frames):
        gif.seek(i)
        out.append((gif.convert("RGBA").tobytes(), gif.info.get("duration")))
    return out


def pixels(data: bytes) -> tuple[str, tuple[int, int], bytes]:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.mode, img.size, img.tobytes()


@pytest.mark.parametrize("expansions", MIXES, ids=["base", "mix"])
def test_pictures_and_replay_are_today_s(
    expansions: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    state, views = play(200, seed=33, players=2, expansions=expansions)
    final = public_view(state)
    assert final.over
    pictures = [(v, None) for v in views[1::4]]
    for turns in (1, 20, 45):  # turn pictures with their legal cells numbered
        mid, _ = play(turns, seed=33, players=2, expansions=expansions)
        pictures.append((public_view(mid), dict(legal_placements(mid)) or None))

    def draw_all() -> tuple[list[tuple[str, tuple[int, int], bytes]], list[tuple[bytes, object]]]:
        cache.clear()
        pics = [pixels(render_board(v, placements=p)) for v, p in pictures]
        pics.append(pixels(render_board(final, awards=tuple(state.awards))))
        return pics, frames(render_animation(views))

    now = draw_all()
    with former_ways(monkeypatch):
        before = draw_all()
    assert len(now[0]) == len(before[0]) and len(now[1]) == len(before[1]) > 10
    for a, b in zip(now[0], before[0], strict=True):
        assert a == b
    for a, b in zip(now[1], before[1], strict=True):
        assert a == b
