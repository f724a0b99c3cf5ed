"""Labels on pictures of choices: white discs with dark text, kept clear of each other.

A :class:`LabelPlacer` puts each label as close as it can to the point it labels; when that
spot is taken it tries rings of positions around it, and the picture then draws a thin leader
line from the point to the label, so two labels never cover each other.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.fonts import draw_text, text_width

RGB = tuple[int, int, int]

#: label disc colours: the disc, its rim and the text
DISC: RGB = (255, 255, 255)
RIM: RGB = (20, 20, 20)
INK: RGB = (20, 20, 20)
#: the colour of choices on pictures (cell frames, corner markers, rings, track spaces)
ACCENT: RGB = (250, 220, 90)
#: smallest label disc radius (px): readable on a phone whatever the tile size
MIN_RADIUS = 11
#: width of a label disc's dark rim
RIM_W = 3
#: space kept between two labels (px)
GAP = 2


#: a label's font size as a share of its disc's radius
LABEL_TEXT = 1.55


def text_size(r: float) -> int:
    """Font size of a label on a disc of radius ``r``."""
    return max(12, int(r * LABEL_TEXT))


@dataclass(frozen=True, slots=True)
class Placed:
    """A label as drawn: its text, centre, the point it labels, where it wanted to be, and its
    half width and half height (rim included) and radius."""

    text: str
    at: tuple[float, float]
    anchor: tuple[float, float]
    want: tuple[float, float]
    hw: float
    hh: float
    r: float
    #: a picture shown after the text inside the pill (the figure a spot is offered for)
    icon: Image.Image | None = None

    @property
    def moved(self) -> bool:
        """Whether the label had to move from where it wanted to be (then a leader line joins
        it to its point)."""
        return math.dist(self.at, self.want) > 0.5


def label_extent(text: str, r: float, icon: Image.Image | None = None) -> tuple[float, float]:
    """Half width and half height of the pill that holds ``text`` (and ``icon`` after it) on
    radius ``r`` (rim included)."""
    w = text_width(text, text_size(r), bold=True)
    if icon is not None:
        w += icon.size[0] + r * 0.3
    return max(r, w / 2 + r * 0.45) + RIM_W, r + RIM_W


class LabelPlacer:
    """Places labels inside ``bounds`` (x0, y0, x1, y1) so none overlaps another or an obstacle."""

    def __init__(self, bounds: tuple[float, float, float, float]) -> None:
        self.bounds = bounds
        self.placed: list[Placed] = []
        self._blocks: list[tuple[tuple[float, float, float, float], object]] = []

    def block(self, box: tuple[float, float, float, float], tag: object = None) -> None:
        """Keep labels off ``box`` (x0, y0, x1, y1), e.g. a corner marker or a cell's number;
        a label placed with ``own=tag`` may cover it (a spot's own point)."""
        self._blocks.append((box, tag))

    def _free(
        self,
        x: float,
        y: float,
        hw: float,
        hh: float,
        own: object = None,
        owns: Collection[object] = (),
    ) -> bool:
        x0, y0, x1, y1 = self.bounds
        if x - hw < x0 or x + hw > x1 or y - hh < y0 or y + hh > y1:
            return False
        for p in self.placed:
            # pills: the distance between their centre lines against the sum of their radii
            dx = max(0.0, abs(p.at[0] - x) - (p.hw - p.hh) - (hw - hh))
            if math.hypot(dx, p.at[1] - y) < p.hh + hh + GAP:
                return False
        for (bx0, by0, bx1, by1), tag in self._blocks:
            if tag is not None and (tag == own or tag in owns):
                continue
            if x + hw > bx0 and x - hw < bx1 and y + hh > by0 and y - hh < by1:
                return False
        return True

    def place(
        self,
        text: str,
        want: tuple[float, float],
        r: float,
        *,
        anchor: tuple[float, float] | None = None,
        icon: Image.Image | None = None,
        own: object = None,
        owns: Collection[object] = (),
    ) -> Placed:
        """Put ``text`` (and ``icon``) at ``want`` or the nearest free position around it
        (rings of twelve); ``anchor`` is the point it labels (``want`` by default). It may
        cover the boxes blocked with the tag ``own`` or any tag in ``owns``."""
        hw, hh = label_extent(text, r, icon)
        x0, y0, x1, y1 = self.bounds
        # keep it inside the picture to start with
        cx = min(max(want[0], x0 + hw), x1 - hw) if x1 - x0 > 2 * hw else want[0]
        cy = min(max(want[1], y0 + hh), y1 - hh) if y1 - y0 > 2 * hh else want[1]
        at = (cx, cy)
        if not self._free(cx, cy, hw, hh, own, owns):
            step = hh * 1.1
            found = None
            for ring in range(1, 12):
                n = 12 + 4 * (ring - 1)
                for k in range(n):
                    a = -math.pi / 2 + 2 * math.pi * k / n
                    x = cx + math.cos(a) * step * ring
                    y = cy + math.sin(a) * step * ring
                    if self._free(x, y, hw, hh, own, owns):
                        found = (x, y)
                        break
                if found is not None:
                    break
            at = found if found is not None else (cx, cy)
        p = Placed(text, at, anchor if anchor is not None else want, want, hw, hh, r, icon)
        self.placed.append(p)
        return p


def draw_labels(img: Image.Image, labels: list[Placed]) -> None:
    """Every label as a white pill with a dark rim and its text in dark bold; first a leader
    line and a dot for each label that had to move away from its point, so no line crosses a
    label."""
    d = ImageDraw.Draw(img)
    for p in labels:
        if p.moved:
            (ax, ay), (x, y), r = p.anchor, p.at, p.r
            w = max(2, int(r / 6))
            d.line((ax, ay, x, y), fill=RIM, width=w + 2)
            d.line((ax, ay, x, y), fill=DISC, width=max(1, w - 1))
            k = max(3.0, r / 3)
            d.ellipse((ax - k - 1, ay - k - 1, ax + k + 1, ay + k + 1), fill=RIM)
            d.ellipse((ax - k + 1, ay - k + 1, ax + k - 1, ay + k - 1), fill=DISC)
    for p in labels:
        (x, y), r = p.at, p.r
        hw = p.hw - RIM_W
        d.rounded_rectangle(
            (x - hw - RIM_W, y - r - RIM_W, x + hw + RIM_W, y + r + RIM_W),
            radius=int(r + RIM_W),
            fill=RIM,
        )
        d.rounded_rectangle((x - hw, y - r, x + hw, y + r), radius=int(r), fill=DISC)
        if p.icon is None:
            draw_text(img, (x, y), p.text, text_size(r), INK, bold=True, anchor="mm")
            continue
        iw, ih = p.icon.size
        tw = text_width(p.text, text_size(r), bold=True)
        left = x - (tw + r * 0.3 + iw) / 2
        draw_text(img, (left, y), p.text, text_size(r), INK, bold=True, anchor="lm")
        img.paste(p.icon, (round(left + tw + r * 0.3), round(y - ih / 2)), p.icon)
