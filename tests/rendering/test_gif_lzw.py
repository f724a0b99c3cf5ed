"""GIF frame data assembled from Pillow's LZW streams and runs of one index
(:mod:`rendering.gif_lzw`): every stream decodes, with a strict decoder written here from the
GIF 89a specification and with Pillow, to exactly the frame's pixels; runs of any length give
the codes a fresh table gives; a stream that is not Pillow's shape is refused, not guessed."""

from __future__ import annotations

import io
import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from rendering import gif_lzw
from rendering.animation import _KEEP, _frame_data


def unblock(data: bytes) -> bytes:
    """The bytes of GIF sub-blocks up to the terminator, which must be there."""
    out, at = [], 0
    while data[at]:
        out.append(data[at + 1 : at + 1 + data[at]])
        at += 1 + data[at]
    assert at == len(data) - 1, "bytes after the terminator"
    return b"".join(out)


def decode(raw: bytes) -> tuple[bytes, list[int]]:
    """Strict LZW decoding (code size 8) of ``raw``: the pixels and the width of every code
    read. Fails on a code the table does not hold, a missing End, or set bits after it."""
    v, at, total = int.from_bytes(raw, "little"), 0, len(raw) * 8
    w, table, prev, running = 9, None, None, 258
    out = bytearray()
    widths = []
    while True:
        assert at + w <= total, "no End code"
        code = (v >> at) & ((1 << w) - 1)
        widths.append(w)
        at += w
        if code == gif_lzw.CLEAR:
            table = [bytes((i,)) for i in range(256)] + [b"", b""]
            w, prev, running = 9, None, 258
            continue
        if code == gif_lzw.END:
            break
        assert table is not None, "data before the first Clear"
        if prev is None:
            assert code < 256
            s = table[code]
        else:
            assert code <= len(table), f"code {code} past the table ({len(table)})"
            s = table[code] if code < len(table) else prev + prev[:1]
            if len(table) < 4096:
                table.append(prev + s[:1])
        out += s
        prev = s
        if running < 4097:
            running += 1
            if running > (1 << w) and w < 12:
                w += 1
    assert v >> at == 0, "set bits after the End code"
    return bytes(out), widths


def frame_pixels(data: bytes) -> bytes:
    assert data[0] == 8
    return decode(unblock(data[1:]))[0]


@pytest.mark.parametrize(
    "length", [1, 2, 3, 4, 5, 6, 7, 255, 32640, 32641, 32895, 300_000, 4_194_304]
)
def test_a_run_decodes_to_its_pixels_and_names_the_next_width(length: int) -> None:
    codes = gif_lzw.run(length, 7)
    bits = gif_lzw.CLEAR | codes.value << 9 | gif_lzw.END << (9 + codes.bits)
    raw = bits.to_bytes((9 + codes.bits + codes.next_width + 7) // 8, "little")
    pixels, widths = decode(raw)
    assert pixels == bytes((7,)) * length
    assert widths[-1] == codes.next_width  # the End was read where the next code would be


def test_a_run_past_one_table_is_refused() -> None:
    with pytest.raises(ValueError):
        gif_lzw.run(3839 * 3840 // 2 + 3840, 0)


def noisy(w: int, h: int, kept: list[tuple[int, int]], seed: int, noise: float) -> Image.Image:
    """An ``L`` picture: flat stripes with ``noise`` random pixels, ``kept`` rows all 255."""
    rnd = random.Random(seed)
    px = bytearray(b"\xff" * (w * h))
    for y in range(h):
        if any(a <= y < b for a, b in kept):
            continue
        for x in range(w):
            px[y * w + x] = rnd.randrange(256) if rnd.random() < noise else (x // 7 + y // 5) % 6
    return Image.frombytes("L", (w, h), bytes(px))


@settings(max_examples=40, deadline=None)
@given(
    w=st.integers(1, 300),
    h=st.integers(1, 200),
    cuts=st.lists(st.integers(0, 200), max_size=8),
    noise=st.sampled_from([0.0, 0.05, 0.5, 1.0]),
    seed=st.integers(0, 1000),
)
def test_frame_data_decodes_to_the_frame(
    w: int, h: int, cuts: list[int], noise: float, seed: int
) -> None:
    edges = sorted({min(c, h) for c in cuts})
    kept = [(a, b) for a, b in zip(edges[::2], edges[1::2], strict=False) if b > a]
    img = noisy(w, h, kept, seed, noise)
    data = gif_lzw.frame_data(img, kept, 255)
    assert data is not None
    assert frame_pixels(data) == img.tobytes()


def test_pillow_streams_over_many_tables_are_read() -> None:
    """Random pixels fill Pillow's table many times over (a Clear every 3,839 codes)."""
    img = noisy(400, 300, [(100, 180)], 3, 1.0)
    whole = gif_lzw.pillow_codes(img, (0, 100))
    assert whole is not None and whole.bits > 3 * 3839 * 9
    data = gif_lzw.frame_data(img, [(100, 180)], 255)
    assert data is not None and frame_pixels(data) == img.tobytes()


def test_a_stream_of_another_shape_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Codes whose End does not fall where Pillow's table schedule puts it: no guess."""
    monkeypatch.setattr(gif_lzw, "CYCLE", 4000)
    monkeypatch.setattr(gif_lzw, "_CYCLE_BITS", gif_lzw._CYCLE_BITS + 1)
    img = noisy(400, 300, [], 3, 1.0)
    assert gif_lzw.pillow_codes(img, (0, 300)) is None


def test_transparent_rows_leave_out_short_bands() -> None:
    rows = gif_lzw.transparent_rows(100, [(10, 20), (15, 30), (31, 40), (90, 95)], 1000)
    assert rows == [(0, 10), (40, 90), (95, 100)]
    assert gif_lzw.transparent_rows(100, [(10, 20)], 100) == [(20, 100)]


def gif_of(frame: bytes, size: tuple[int, int]) -> bytes:
    palette = bytes(c for i in range(256) for c in (i, 255 - i, (7 * i) % 256))
    head = b"GIF89a" + struct.pack("<HHBBB", *size, 0xF7, 0, 0) + palette
    return head + frame + b";"


def test_a_frame_with_kept_rows_decodes_in_pillow_as_the_frame_written_whole() -> None:
    img = noisy(320, 240, [(0, 30), (60, 200)], 9, 0.05)
    for y0, y1 in [(0, 30), (60, 200)]:
        img.paste(_KEEP, (0, y0, 320, y1))
    spliced = _frame_data(img, (3, 4), 500, [(0, 30), (60, 200)])
    plain = _frame_data(img, (3, 4), 500)
    assert spliced[:19] == plain[:19]  # the same control block and descriptor
    decoded = []
    for frame in (spliced, plain):
        gif = Image.open(io.BytesIO(gif_of(frame, (330, 250))))
        gif.load()
        decoded.append(gif.convert("RGBA").tobytes())
    assert decoded[0] == decoded[1]


def test_a_run_too_long_for_one_table_leaves_the_frame_to_pillow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def too_long(length: int, index: int) -> gif_lzw.Codes:
        raise ValueError("a run longer than one LZW table holds")

    monkeypatch.setattr(gif_lzw, "run", too_long)
    assert gif_lzw.frame_data(noisy(50, 40, [(10, 30)], 1, 0.1), [(10, 30)], 255) is None
