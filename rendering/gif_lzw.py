"""GIF image data for a replay frame whose rows are mostly transparent: those rows nearly free.

A replay frame (:mod:`rendering.animation`) is one rectangle from the score strip at the top to
the tile just placed, and two thirds of its pixels are rows that did not change ("keep" index,
transparent): measured on 2-player base games, 730,000 pixels a frame of which 65 % in rows
wholly unchanged. Pillow's LZW encoder spends ~3.7 ns on every pixel, transparent or not, so
those rows were about 60 % of the encoding time (issue 33, BENCHMARKS.md).

The LZW data of a GIF image may restart at any point with a Clear code (written at the width
the decoder reads its next code at). So the frame's data is assembled: each band of rows with
changes is encoded by Pillow (its own Clear ... End stream, whose codes are kept as they are),
and each band of wholly transparent rows is written here as the codes a fresh LZW table gives a
run of one index (1, 2, 3, ... pixels per code: about 1,000 codes for 500,000 pixels, computed
in closed form), each part after a Clear. The decoded pixels are the frame's own, pixel for
pixel (``tests/rendering/test_gif_lzw.py`` decodes every stream with a strict decoder and with
Pillow); the bytes are about those of one Pillow stream.

What a decoder does (the GIF 89a specification, as giflib and Pillow read it; 8-bit codes): after
a Clear the table holds 258 codes and codes are 9 bits wide; the ``i``-th code after a Clear is
read :func:`width` ``(i)`` bits wide (the width grows as the table does, up to 12 bits). Pillow's
encoder writes a Clear after 3,839 codes, when its table is full; where its stream ends, and so
the width of the next code, is found from the position of its End code (its highest set bit)
and checked against every Clear the stream must then hold. A stream that does not fit this
(another encoder) makes :func:`frame_data` return None: the caller writes the frame whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

CLEAR = 256
END = 257
#: codes Pillow's encoder writes between two Clear codes (its table full: codes 258..4095)
CYCLE = 3839
#: the 12-bit Clear a full table is followed by
_FULL_CLEAR_BITS = 12
#: the widths' ranges: the ``i``-th code after a Clear is this many bits for ``i`` up to here
_RANGES = ((255, 9), (767, 10), (1791, 11), (CYCLE + 1, 12))
#: a band of transparent rows is written apart only from this many pixels (each part costs a
#: Clear and a fresh table for the rows after it)
MIN_RUN = 4096
#: sub-blocks of GIF image data are at most this long
_BLOCK = 255


def width(i: int) -> int:
    """Bits of the ``i``-th code after a Clear (``i`` from 1)."""
    return min(12, (256 + i).bit_length())


def _bits(r: int) -> int:
    """Bits of the first ``r`` codes after a Clear."""
    total, lo = 0, 0
    for hi, w in _RANGES:
        if r <= lo:
            break
        total += (min(r, hi) - lo) * w
        lo = hi
    return total


#: the bits of one full table's codes and the Clear after them
_CYCLE_BITS = _bits(CYCLE) + _FULL_CLEAR_BITS


def _codes_for(bits: int) -> int | None:
    """The ``r`` (0 to :data:`CYCLE`) whose first ``r`` codes take ``bits`` bits, if any."""
    total, lo = 0, 0
    for hi, w in _RANGES:
        span = (min(hi, CYCLE) - lo) * w
        if bits <= total + span:
            q, rest = divmod(bits - total, w)
            return None if rest else lo + q
        total += span
        lo = hi
        if lo >= CYCLE:
            break
    return None


@dataclass(frozen=True, slots=True)
class Codes:
    """Codes that follow a Clear: ``value`` packed least significant bit first (as GIF packs
    them), ``bits`` long, and the width the decoder reads the code after them at."""

    value: int
    bits: int
    next_width: int


def _packed_run(first: int, count: int, w: int) -> int:
    """The codes ``first``, ``first + 1``, ... (``count`` of them), each ``w`` bits, packed:
    sum of ``(first + j) * x**j`` for ``x = 2**w``, in closed form."""
    x = 1 << w
    xn = 1 << (w * count)
    geometric = (xn - 1) // (x - 1)
    # sum of j * x**j for j < count
    weighted = (x - count * xn + (count - 1) * xn * x) // ((x - 1) * (x - 1))
    return first * geometric + weighted


@lru_cache(maxsize=512)
def run(length: int, index: int) -> Codes:
    """The codes of ``length`` pixels of palette ``index`` from a fresh table: 1 pixel, then
    2, 3, ... (each code the entry the previous one made), then one code for what is left.

    Raises:
        ValueError: a run longer than one table holds (7.3 million pixels).
    """
    if length < 1:
        raise ValueError("a run has at least one pixel")
    # m codes cover m (m + 1) / 2 pixels; the largest m that fits
    m = int(((8 * length + 1) ** 0.5 - 1) / 2)
    while m * (m + 1) // 2 > length:
        m -= 1
    while (m + 1) * (m + 2) // 2 <= length:
        m += 1
    rest = length - m * (m + 1) // 2
    if m + (1 if rest else 0) > CYCLE:
        raise ValueError("a run longer than one LZW table holds")
    value = index  # code 1: the index itself (9 bits)
    bits = 9
    # code i (2..m) is 256 + i: the run of i pixels the decoder made from code i - 1
    lo = 2
    for hi, w in _RANGES:
        if lo > m:
            break
        top = min(hi, m)
        if top >= lo:
            count = top - lo + 1
            value |= _packed_run(256 + lo, count, w) << bits
            bits += count * w
            lo = top + 1
    codes = m
    if rest:
        codes += 1
        value |= (index if rest == 1 else 256 + rest) << bits
        bits += width(codes)
    return Codes(value, bits, width(codes + 1))


def _unblock(data: bytes) -> bytes:
    """The LZW bytes of GIF sub-blocks (up to the terminator)."""
    out = []
    at, n = 0, len(data)
    while at < n:
        size = data[at]
        if size == 0:
            break
        out.append(data[at + 1 : at + 1 + size])
        at += 1 + size
    return b"".join(out)


def pillow_codes(img: Image.Image, rows: tuple[int, int]) -> Codes | None:
    """Pillow's LZW codes of ``rows`` (``y0``, ``y1``) of ``img`` (mode ``L``), without the
    first Clear and the End; None if the stream is not shaped as described above."""
    w = img.size[0]
    enc = Image._getencoder("L", "gif", ("L",))
    try:
        enc.setimage(img.im, (0, rows[0], w, rows[1]))
        chunks = []
        while True:
            _n, status, data = enc.encode(65536)
            chunks.append(data)
            if status:
                break
    finally:
        enc.cleanup()
    if status < 0:
        return None
    raw = _unblock(b"".join(chunks))
    v = int.from_bytes(raw, "little")
    end_at = v.bit_length() - 9  # the End code (257) is the last code: its bit 8 is the top
    if end_at < 9 or (v >> end_at) != END or (v & 0x1FF) != CLEAR:
        return None
    body = end_at - 9
    found: Codes | None = None
    for cycles in range(body // _CYCLE_BITS + 1):
        r = _codes_for(body - cycles * _CYCLE_BITS)
        if r is None:
            continue
        clears = all(
            (v >> (9 + j * _CYCLE_BITS - _FULL_CLEAR_BITS)) & 0xFFF == CLEAR
            for j in range(1, cycles + 1)
        )
        if clears:
            if found is not None:
                return None  # two readings: do not guess
            found = Codes((v >> 9) & ((1 << body) - 1), body, width(r + 1))
    return found


def frame_data(img: Image.Image, runs: Sequence[tuple[int, int]], index: int) -> bytes | None:
    """The image data of ``img`` (mode ``L``; code size byte, sub-blocks, terminator) where
    ``runs`` are the bands of rows (``y0``, ``y1``; sorted, apart) holding nothing but
    ``index``; None when Pillow's stream cannot be read (write the frame with Pillow then)."""
    w, h = img.size
    parts: list[Codes] = []
    y = 0
    for y0, y1 in [*runs, (h, h)]:
        if y0 > y:
            codes = pillow_codes(img, (y, y0))
            if codes is None:
                return None
            parts.append(codes)
        if y1 > y0:
            try:
                parts.append(run((y1 - y0) * w, index))
            except ValueError:  # longer than one table holds (no picture is): Pillow's way
                return None
        y = y1
    value, at, next_width = CLEAR, 9, 9
    for i, codes in enumerate(parts):
        if i:
            value |= CLEAR << at
            at += next_width
        value |= codes.value << at
        at += codes.bits
        next_width = codes.next_width
    value |= END << at
    at += next_width
    raw = value.to_bytes((at + 7) // 8, "little")
    blocks = [
        bytes((len(raw[i : i + _BLOCK]),)) + raw[i : i + _BLOCK] for i in range(0, len(raw), _BLOCK)
    ]
    return b"".join([b"\x08", *blocks, b"\0"])


def transparent_rows(
    height: int, changed: Sequence[tuple[int, int]], width_px: int
) -> list[tuple[int, int]]:
    """The bands of rows of a frame ``height`` rows tall that no band of ``changed``
    (``y0``, ``y1``, in any order, may overlap) meets, of at least :data:`MIN_RUN` pixels."""
    out = []
    y = 0
    for y0, y1 in sorted(changed):
        if y0 > y and (y0 - y) * width_px >= MIN_RUN:
            out.append((y, y0))
        y = max(y, y1)
    if height > y and (height - y) * width_px >= MIN_RUN:
        out.append((y, height))
    return out
