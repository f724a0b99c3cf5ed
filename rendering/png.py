"""PNG files written directly with zlib: rows unfiltered, the fastest way to a PNG of our art.

Pillow's PNG writer picks one of the five PNG filters for every row by trying them all, which
costs about three quarters of its time at zlib level 1 (``benchmarks/render.py``). Our pictures
are flat colour areas, text and thin lines: unfiltered rows compress about as well (runs of one
colour are repeated strings either way), so the file is about the same size in a third of the
time. What is left is the zlib pass itself.

The pixels are exactly the image's (tests decode both encoders' files and compare them). Modes
other than ``RGB``, ``RGBA``, ``L`` and ``LA`` are written by Pillow.

Deflate itself is done by ISA-L (the ``isal`` package, Intel's deflate for x86 and Arm) when it
is installed: at its level 1 it writes files the size of zlib's level-2 files (0–7 % smaller)
in a fifth of the time, e.g. a turn picture in 1.8 ms instead of 8.5 (issue 15,
BENCHMARKS.md). Without it the standard library's zlib does the same at level :data:`LEVEL`.

A palette image would be smaller still, but the pictures have thousands of colours (tiles are
drawn at twice their size and halved, which anti-aliases every edge): 1,950 on the 72-tile
final board, 4,168 on the 200-tile map, 3,642 on a turn picture, against PNG's 256.
"""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

from PIL import Image

_isal: Any
try:  # ISA-L's deflate: the same zlib stream format, five times faster at its fast levels
    from isal import isal_zlib as _isal  # type: ignore[import-not-found, no-redef, unused-ignore]
except ImportError:  # pragma: no cover - isal is a dependency; zlib is the fallback
    _isal = None

#: zlib level: 1 to 3 are zlib's fast matcher (level 4 takes twice the time for ~20 % fewer
#: bytes); 2 keeps the files as small as Pillow's level-1 files (measured: BENCHMARKS.md)
LEVEL = 2
#: ISA-L's level (0-3): 1 and 2 are its fast matchers (2 writes files 0-2 % smaller at the
#: same speed), 3 is as slow as zlib's level 2
ISAL_LEVEL = 2
#: whether :func:`encode` uses ISA-L when no zlib level is asked for
FAST = _isal is not None
#: rows converted to bytes and compressed at a time (a band stays in the CPU's cache)
BAND = 64
#: ISA-L's bands: it is fast enough that fewer, larger calls pay (measured on turn pictures,
#: rows packed without a crop: 64 rows 1.30 ms, 256 rows 1.18 ms, 512 rows 1.14 ms; 512 rows
#: of the widest picture, 2048 px, are 3 MiB at a time)
ISAL_BAND = 512

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: mode -> (PNG colour type, bytes per pixel) of the modes written here
COLOUR_TYPES: dict[str, tuple[int, int]] = {
    "L": (0, 1),
    "RGB": (2, 3),
    "LA": (4, 2),
    "RGBA": (6, 4),
}


#: CRC-32 (ISA-L's when installed: ~10 times zlib's speed, the same values)
_crc32: Any = _isal.crc32 if _isal is not None else zlib.crc32


def chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC of type and data."""
    crc = _crc32(data, _crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _rows(img: Image.Image, mode: str, stride: int, y0: int, y1: int) -> bytes:
    """Rows ``y0`` to ``y1`` of ``img`` packed ``stride`` bytes apart (each row padded with
    zeros at its end), in one call of Pillow's raw encoder on that band of the image: no copy
    of the band (``Image.crop``) and no 64 KiB chunks joined (``Image.tobytes``), a third of
    ``tobytes``' time on a turn picture (BENCHMARKS.md, issue 33)."""
    try:
        enc = Image._getencoder(mode, "raw", (mode, stride))
        enc.setimage(img.im, (0, y0, img.width, y1))
        _n, status, data = enc.encode(stride * (y1 - y0))
    except (AttributeError, TypeError, ValueError):  # pragma: no cover - another Pillow
        status = -1
    if status != 1:  # pragma: no cover - not all at once: Pillow's own way
        return img.crop((0, y0, img.width, y1)).tobytes("raw", (mode, stride))
    return bytes(data)


def encode(img: Image.Image, level: int | None = None) -> bytes:
    """PNG bytes of ``img``: 8-bit samples, rows unfiltered, one IDAT chunk, no metadata.

    ``level`` asks for zlib at that level; by default ISA-L (when installed) at
    :data:`ISAL_LEVEL`, else zlib at :data:`LEVEL`."""
    kind = COLOUR_TYPES.get(img.mode)
    if kind is None or img.width == 0 or img.height == 0:
        buf = io.BytesIO()
        img.save(buf, "PNG", compress_level=LEVEL if level is None else level)
        return buf.getvalue()
    colour, channels = kind
    w, h = img.size
    # each row gets a leading filter byte 0 ("none"): Pillow's raw packer pads rows to a stride
    # with zeros at their end, so one zero before the first row and the last pad dropped give
    # exactly <0, row 0, 0, row 1, ...>
    stride = w * channels + 1
    z: Any
    if level is None and FAST and _isal is not None:
        z, rows = _isal.compressobj(ISAL_LEVEL), ISAL_BAND
    else:
        z, rows = zlib.compressobj(LEVEL if level is None else level), BAND
    parts = [z.compress(b"\0")]
    for y in range(0, h, rows):
        raw = memoryview(_rows(img, img.mode, stride, y, min(h, y + rows)))
        parts.append(z.compress(raw[:-1]))
        if y + rows < h:  # the filter byte of the band's next row
            parts.append(z.compress(b"\0"))
    parts.append(z.flush())
    header = struct.pack(">IIBBBBB", w, h, 8, colour, 0, 0, 0)
    return b"".join(
        (SIGNATURE, chunk(b"IHDR", header), chunk(b"IDAT", b"".join(parts)), chunk(b"IEND", b""))
    )
