"""Gold Mines: the gold printed on its tiles (the symbol ``gold``, a small gold bar in a
corner, drawn upright), the gold bars lying on tiles and the bars each player holds, from the
public model ``view.ext["gold_mines"]``:

* **bars on tiles**: a gold bar token in the tile's lower left quarter, with the number of
  bars beside it when there are several (they read at phone width: the token is a third of a
  tile, the number in bold with a dark rim);
* **the score strip**: each player's bars, a gold bar icon and its count
  (:meth:`GoldMinesOverlay.panel_items`).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from PIL import Image, ImageDraw

from engine.carcassonne.geometry import Position
from engine.carcassonne.view import PublicView
from engine.core.seats import Seat
from rendering.figures import SS
from rendering.fonts import font
from rendering.frame import Frame
from rendering.layout import Symbol
from rendering.overlays import Overlay, PanelItem, Place, SymbolArt
from rendering.pen import Pen, rel

#: the expansion's id (the key of its model in ``view.ext``)
ID = "gold_mines"
#: a gold bar, its rim and its shine
GOLD = (238, 190, 40)
GOLD_RIM = (130, 90, 10)
SHINE = (255, 240, 170)
#: the chip under a bar token lying on a tile
CHIP = (48, 36, 12)
#: a bar token on a tile: its size and where its centre lies, in tile units
TOKEN = 0.34
TOKEN_AT = (0.27, 0.73)


def paint_gold(pen: Pen, sym: Symbol) -> None:
    """A gold bar seen from the side, a shine along its top."""
    c, s = sym.at, sym.size
    pen.poly(
        rel(c, s, [(-0.45, 0.25), (0.45, 0.25), (0.3, -0.15), (-0.3, -0.15)]),
        GOLD,
        GOLD_RIM,
        0.01,
    )
    pen.line(rel(c, s, [(-0.2, -0.05), (0.2, -0.05)]), SHINE, 0.01, False)


def bar_icon(size: int) -> Image.Image:
    """RGBA icon of a gold bar, ``size`` px square, drawn with the printed symbol's art."""
    big = max(1, size) * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    paint_gold(Pen(img), Symbol("gold", (0.5, 0.55), 1.0, ""))
    return img.resize((max(1, size), max(1, size)), Image.Resampling.LANCZOS)


def bars_on_tiles(view: PublicView) -> tuple[tuple[Position, int], ...]:
    """``(cell, bars)`` for every tile holding bars (none without the expansion)."""
    bars = getattr(view.ext.get(ID), "bars", None)
    return tuple(bars) if bars is not None else ()


def bars_held(view: PublicView) -> tuple[int, ...] | None:
    """Bars each seat holds, or ``None`` when the match plays without gold."""
    model: Any = view.ext.get(ID)
    held = getattr(model, "held", None)
    return None if held is None else tuple(int(n) for n in held)


def _inside(frame: Frame, pos: Position) -> bool:
    return (
        frame.min_x <= pos.x < frame.min_x + frame.cols
        and frame.min_y <= pos.y < frame.min_y + frame.rows
    )


def draw_bars(img: Image.Image, x: int, y: int, tile: int, n: int) -> None:
    """``n`` bars on the tile whose top left corner is ``(x, y)``: one token, and the number
    beside it when there are several."""
    size = max(10, int(tile * TOKEN))
    icon = bar_icon(size)
    cx, cy = x + int(tile * TOKEN_AT[0]), y + int(tile * TOKEN_AT[1])
    left, top = cx - size // 2, cy - size // 2
    d = ImageDraw.Draw(img)
    # a dark chip under the token tells a bar lying on the tile from the printed gold symbol
    pad = max(2, size // 8)
    chip_right = left + size + (int(size * 0.75) if n > 1 else 0) + pad
    d.rounded_rectangle(
        (left - pad, top - pad, chip_right, top + size + pad),
        radius=max(2, size // 4),
        fill=CHIP,
        outline=GOLD_RIM,
        width=max(1, size // 14),
    )
    if n > 1:  # a second bar behind the first says "several" even before the number is read
        img.paste(icon, (left + size // 6, top - size // 5), icon)
    img.paste(icon, (left, top), icon)
    if n > 1:
        text_size = max(9, int(size * 0.62))
        d.text(
            (left + size, cy),
            str(n),
            font=font(text_size, bold=True),
            fill=(255, 255, 255),
            anchor="lm",
            stroke_width=max(1, text_size // 6),
            stroke_fill=(40, 28, 0),
        )


class GoldMinesOverlay(Overlay):
    id = ID
    symbols = MappingProxyType({"gold": SymbolArt(paint_gold, Place.CORNER, 0.2, upright=True)})
    words = frozenset({"gold_bar", "gold_mine"})

    def panel_items(self, view: PublicView, seat: Seat, icon: int) -> Sequence[PanelItem] | None:
        """The bars ``seat`` holds: a gold bar icon and the count."""
        held = bars_held(view)
        if held is None:
            return None
        n = held[int(seat)] if 0 <= int(seat) < len(held) else 0
        return [(bar_icon(icon), n)]

    def draw_board(self, img: Image.Image, view: PublicView, frame: Frame) -> None:
        for pos, n in bars_on_tiles(view):
            if n > 0 and _inside(frame, pos):
                x, y = frame.cell_xy(pos)
                draw_bars(img, int(x), int(y), frame.tile, n)


OVERLAY = GoldMinesOverlay()
