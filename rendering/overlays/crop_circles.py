"""Crop Circles: the crop circle printed on its tiles (the symbol ``crop_circle``: a shield, a
club or a pitchfork), a round of trampled grain on the free grass nearest the centre; the roads
that end at the ``crop circle`` run to it.

While a crop circle's round is under way (the public model ``view.ext["crop_circles"]`` names
its symbol), a strip under the board shows the circle and says what it asks, in the picture's
language: the active player choosing A or B, or the option chosen and the followers it
concerns. The decision's targets (the followers to add beside or take back) are drawn and
numbered by the generic decision renderer.
"""

from __future__ import annotations

from types import MappingProxyType

from PIL import Image

from engine.carcassonne.view import PublicView
from engine.core import messages
from rendering import style as st
from rendering.figures import SS
from rendering.fonts import SPACING, draw_fitted, fit_box
from rendering.geometry import Pt
from rendering.header import scale_of
from rendering.layout import Symbol
from rendering.overlays import Overlay, Place, SymbolArt
from rendering.pen import Pen, rel

#: the expansion's id (the key of its model in ``view.ext``)
ID = "crop_circles"
#: the glyph trampled into the grain
INK = (88, 70, 20)
#: the strip: padding, text size (px at the score strip's reference width), icon lines
PAD = 12
STRIP_TEXT = 22
LINES = 2


def _glyph(pen: Pen, c: Pt, s: float, kind: str) -> None:
    if kind == "shield":
        pts = rel(c, s, [(-0.22, -0.25), (0.22, -0.25), (0.22, 0.02), (0.0, 0.27), (-0.22, 0.02)])
        pen.poly(pts, INK)
    elif kind == "club":
        pen.line(rel(c, s, [(-0.05, 0.28), (0.08, -0.1)]), INK, s * 0.12, True)
        pen.disc(rel(c, s, [(0.1, -0.14)])[0], s * 0.13, INK)
    else:  # pitchfork
        pen.line(rel(c, s, [(0.0, 0.3), (0.0, -0.1)]), INK, s * 0.07, False)
        pen.line(rel(c, s, [(-0.16, -0.1), (0.16, -0.1)]), INK, s * 0.07, False)
        for dx in (-0.16, 0.0, 0.16):
            pen.line(rel(c, s, [(dx, -0.1), (dx, -0.3)]), INK, s * 0.06, False)


def paint_circle(pen: Pen, sym: Symbol) -> None:
    """Rings of pale and trampled grain round the circle's glyph (``sym.arg``)."""
    c, r = sym.at, sym.size / 2
    pen.disc(c, r, (200, 214, 120), (150, 160, 80), 0.01)
    pen.disc(c, r * 0.72, (150, 186, 90))
    pen.disc(c, r * 0.62, (206, 220, 130))
    _glyph(pen, c, r * 1.1, sym.arg)


def circle_icon(symbol: str, size: int) -> Image.Image:
    """RGBA icon of the crop circle showing ``symbol``, ``size`` px square."""
    big = max(1, size) * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    paint_circle(Pen(img), Symbol("crop_circle", (0.5, 0.5), 0.96, symbol))
    return img.resize((max(1, size), max(1, size)), Image.Resampling.LANCZOS)


def strip_text(view: PublicView, lang: str = "en") -> str:
    """What the round under way asks, in ``lang`` (``""`` when none is)."""
    m = view.ext.get(ID)
    symbol, mode = getattr(m, "symbol", ""), getattr(m, "mode", "")
    if not symbol:
        return ""
    params = {
        "symbol": messages.Phrase(f"symbol.crop_circle.{symbol}"),
        "whos": messages.Phrase(f"cc.whos.{symbol}"),
    }
    return messages.text(f"cc.strip.{mode or 'choose'}", lang, **params)


def crop_strip(view: PublicView, width: int, lang: str = "en") -> Image.Image | None:
    """The circle and its words on a strip of ``width`` px; it scales with the picture's
    width, as the score strip does, so it reads on a phone."""
    text = strip_text(view, lang)
    if not text:
        return None
    k = scale_of(width)

    def sc(v: float) -> int:
        return round(v * k)

    text_h = sc(STRIP_TEXT * SPACING * LINES)
    height = sc(PAD) * 2 + text_h
    img = Image.new("RGB", (width, height), st.PANEL)
    icon = circle_icon(getattr(view.ext.get(ID), "symbol", ""), text_h)
    img.paste(icon, (sc(PAD), sc(PAD)), icon)
    x = sc(PAD) * 2 + text_h
    fitted = fit_box(text, width - x - sc(PAD), text_h, sc(STRIP_TEXT), bold=True, max_lines=LINES)
    draw_fitted(img, (x, sc(PAD) + text_h / 2), fitted, st.TEXT, anchor="lm")
    return img


class CropCirclesOverlay(Overlay):
    id = ID
    symbols = MappingProxyType(
        {
            "crop_circle": SymbolArt(
                paint_circle, Place.FREE, 0.34, ground=True, ends=frozenset({"crop circle"})
            )
        }
    )

    def strip(self, view: PublicView, width: int, lang: str = "en") -> Image.Image | None:
        return crop_strip(view, width, lang)


OVERLAY = CropCirclesOverlay()
