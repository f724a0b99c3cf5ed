"""Which cells a picture shows and how big a tile is: frames, their sizing, PNG encoding."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image

from engine.carcassonne.geometry import Position
from rendering import png

#: the long side of a board picture never exceeds this (Discord shows it whole when clicked)
MAX_SIDE = 2048
MAX_TILE = 128
#: pixel budget of a board picture (see benchmarks/render.py: encoding time grows with area)
MAX_PIXELS = 2_200_000
#: below twice this, tile sizes stop snapping to multiples of 8 (tiny tiles for huge boards)
MIN_TILE = 8
#: width of the coordinate margin around the board
LABEL = 34
PANEL_W = 340
#: zlib level for PNGs; chosen by measurement (benchmarks/render.py): flat art compresses well
#: at zlib's fast levels already, and higher levels cost far more time than they save bytes
PNG_LEVEL = png.LEVEL


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes of ``img``, rows unfiltered, by ISA-L's deflate if installed, else zlib at
    :data:`PNG_LEVEL` (:mod:`rendering.png`: the same pixels as Pillow's writer in a tenth of
    its time, a third without ISA-L)."""
    return png.encode(img)


@dataclass(frozen=True, slots=True)
class Frame:
    """Which cells a picture shows and how big a tile is."""

    min_x: int
    min_y: int
    cols: int
    rows: int
    tile: int
    label: int = LABEL
    #: kept for callers of the former layout (the players' panel is now a header on top)
    strip: bool = False
    #: where the board part starts in the picture (the header is above it)
    left: int = 0
    top: int = 0

    def cell_xy(self, pos: Position) -> tuple[int, int]:
        """Top-left pixel of cell ``pos``."""
        return (
            self.left + self.label + (pos.x - self.min_x) * self.tile,
            self.top + self.label + (pos.y - self.min_y) * self.tile,
        )

    def contains(self, pos: Position) -> bool:
        """Whether cell ``pos`` is in the frame."""
        return (
            self.min_x <= pos.x < self.min_x + self.cols
            and self.min_y <= pos.y < self.min_y + self.rows
        )

    def at(self, left: int, top: int) -> Frame:
        """The same frame with its board part starting at (``left``, ``top``)."""
        return Frame(
            self.min_x,
            self.min_y,
            self.cols,
            self.rows,
            self.tile,
            self.label,
            self.strip,
            left,
            top,
        )

    @property
    def board_w(self) -> int:
        return 2 * self.label + self.cols * self.tile

    @property
    def board_h(self) -> int:
        return 2 * self.label + self.rows * self.tile


def extent(positions: Iterable[Position]) -> tuple[int, int, int, int]:
    """``(min_x, min_y, max_x, max_y)`` of ``positions`` grown by a one-cell margin."""
    ps = list(positions) or [Position(0, 0)]
    return (
        min(p.x for p in ps) - 1,
        min(p.y for p in ps) - 1,
        max(p.x for p in ps) + 1,
        max(p.y for p in ps) + 1,
    )


def frame_for(
    box: tuple[int, int, int, int],
    *,
    panel: int = PANEL_W,
    max_tile: int = MAX_TILE,
    max_side: int = MAX_SIDE,
    max_pixels: int = MAX_PIXELS,
    strip: int = 0,
) -> Frame:
    """The largest tile size that keeps the whole picture's long side within ``max_side``.

    ``panel`` is the width of a side panel, ``strip`` the height of a strip below the board.
    """
    min_x, min_y, max_x, max_y = box
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    by_w = (max_side - panel - 2 * LABEL) // cols
    by_h = (max_side - strip - 2 * LABEL) // rows
    # multiples of 8 only: fewer distinct sizes as a board grows means fewer cache misses
    raw = min(max_tile, by_w, by_h)
    size = raw // 8 * 8 if raw >= 2 * MIN_TILE else max(4, raw)
    # a pixel budget keeps PNG encoding (the slow part) fast on big boards
    while (
        size > MIN_TILE
        and (cols * size + 2 * LABEL + panel) * (rows * size + 2 * LABEL + strip) > max_pixels
    ):
        size -= 8
    return Frame(min_x, min_y, cols, rows, size, strip=strip > 0)
