"""Drawing in unit tile coordinates: the pen the tile art and every overlay's printed symbols
share, so a symbol drawn by an overlay scales and anti-aliases exactly like the core's art."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering import style as st
from rendering.geometry import Pt


class Pen:
    """Unit-coordinate drawing on a square image (``(0, 0)`` north-west, ``(1, 1)`` south-east)."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.s = img.size[0]
        self.d = ImageDraw.Draw(img)

    def p(self, pt: Pt) -> tuple[float, float]:
        return (pt[0] * self.s, pt[1] * self.s)

    def w(self, width: float) -> int:
        return max(1, round(width * self.s))

    def poly(
        self, pts: Sequence[Pt], fill: st.RGB, outline: st.RGB | None = None, width: float = 0.0
    ) -> None:
        self.d.polygon([self.p(q) for q in pts], fill=fill)
        if outline is not None:
            self.line([*pts, pts[0]], outline, width)

    def line(
        self, pts: Sequence[Pt], colour: st.RGB, width: float, round_ends: bool = True
    ) -> None:
        scaled = [self.p(q) for q in pts]
        w = self.w(width)
        self.d.line(scaled, fill=colour, width=w, joint="curve")
        if round_ends and w > 2:
            r = w / 2
            for x, y in (scaled[0], scaled[-1]):
                self.d.ellipse((x - r, y - r, x + r, y + r), fill=colour)

    def disc(
        self, c: Pt, r: float, fill: st.RGB, outline: st.RGB | None = None, width: float = 0.0
    ) -> None:
        x, y = self.p(c)
        rr = r * self.s
        self.d.ellipse(
            (x - rr, y - rr, x + rr, y + rr),
            fill=fill,
            outline=outline,
            width=self.w(width) if outline else 0,
        )

    def rect(
        self, a: Pt, b: Pt, fill: st.RGB, outline: st.RGB | None = None, width: float = 0.0
    ) -> None:
        self.d.rectangle(
            (*self.p(a), *self.p(b)),
            fill=fill,
            outline=outline,
            width=self.w(width) if outline else 0,
        )


def rel(c: Pt, size: float, pts: Sequence[Pt]) -> list[Pt]:
    """Points given in a -0.5..0.5 box around ``c``, scaled to ``size``."""
    return [(c[0] + x * size, c[1] + y * size) for x, y in pts]


def building(
    pen: Pen, c: Pt, s: float, roof: st.RGB, walls: st.RGB = st.STONE, cross: bool = False
) -> None:
    """A house of side ``s`` centred on ``c`` (a cloister's church with ``cross``)."""
    pen.rect(rel(c, s, [(-0.38, -0.05)])[0], rel(c, s, [(0.38, 0.45)])[0], walls, st.DARK, 0.01)
    pen.poly(rel(c, s, [(-0.48, -0.02), (0.0, -0.42), (0.48, -0.02)]), roof, st.DARK, 0.01)
    pen.rect(rel(c, s, [(-0.09, 0.16)])[0], rel(c, s, [(0.09, 0.45)])[0], st.DARK)
    if cross:
        pen.line(rel(c, s, [(0.0, -0.42), (0.0, -0.62)]), st.DARK, 0.014, False)
        pen.line(rel(c, s, [(-0.08, -0.54), (0.08, -0.54)]), st.DARK, 0.014, False)
