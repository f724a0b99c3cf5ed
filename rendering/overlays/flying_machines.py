"""Flying Machines: the flier printed on its tiles (the symbol ``flier``, an arrow in a corner
pointing the way the flying machine flies; it turns with the tile), and the flight of the tile
being played (or the last one, until the next tile is placed), from the public model
``view.ext["flying_machines"].flight``:

* the **path** from the machine's tile to the landing square, a dashed line in the flier's
  colour with a dot on every tile it passes and an arrowhead on the landing square;
* the **special die** on the machine's tile, showing the roll (1 to 3 pips);
* the **landing square**: framed in the flier's colour while it lands and once it has landed;
  crossed out in red when the follower went home (no tile there, or only completed features
  and fields); a square beyond the picture is marked where the path leaves it;
* the **flying figure** near the landing square while its seat chooses where it lands.

The landing square is kept in the turn picture's crop (:meth:`Overlay.focus`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from PIL import Image, ImageDraw

from engine.carcassonne.geometry import Position
from engine.carcassonne.view import PublicView
from rendering import style as st
from rendering.figures import SS, figure_sprite
from rendering.frame import Frame
from rendering.layout import Symbol
from rendering.overlays import Overlay, Place, SymbolArt
from rendering.pen import Pen

#: the expansion's id (the key of its model in ``view.ext``)
ID = "flying_machines"
#: the flier's headings (its values in the tile file) as unit steps, y south
HEADINGS = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}
#: a flight's states (the engine's ``model`` names)
LANDING, LANDED, HOME = "landing", "landed", "home"
#: the cross on a landing square the follower could not land on
MISS: tuple[int, int, int] = (220, 36, 36)
#: pips of the special die (1 to 3) in unit coordinates of its face
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
}


def paint_flier(pen: Pen, sym: Symbol) -> None:
    """A white arrow with a dark rim pointing the flier's heading (``sym.arg``; north if none)."""
    c, s = sym.at, sym.size
    dx, dy = HEADINGS.get(sym.arg, (0, -1))
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    px, py = -uy, ux
    tip = (c[0] + ux * s * 0.6, c[1] + uy * s * 0.6)
    tail = (c[0] - ux * s * 0.5, c[1] - uy * s * 0.5)
    head_l = (tip[0] - ux * s * 0.45 + px * s * 0.35, tip[1] - uy * s * 0.45 + py * s * 0.35)
    head_r = (tip[0] - ux * s * 0.45 - px * s * 0.35, tip[1] - uy * s * 0.45 - py * s * 0.35)
    pen.line([tail, tip], st.DARK, 0.05, True)
    pen.poly([tip, head_l, head_r], st.DARK)
    pen.line([tail, tip], (255, 255, 255), 0.025, True)
    inner = (tip[0] - ux * 0.02, tip[1] - uy * 0.02)
    pen.poly(
        [
            inner,
            (head_l[0] + ux * 0.01, head_l[1] + uy * 0.01),
            (head_r[0] + ux * 0.01, head_r[1] + uy * 0.01),
        ],
        (255, 255, 255),
    )


def die_face(value: int, size: int) -> Image.Image:
    """The special die showing ``value`` (1–3 pips): a white rounded cube face, dark rim."""
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    rim = max(2, big // 12)
    d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 5, fill=(*st.DARK, 255))
    d.rounded_rectangle(
        (rim, rim, big - 1 - rim, big - 1 - rim), radius=big // 6, fill=(255, 255, 255, 255)
    )
    r = big * 0.1
    for x, y in PIPS.get(value, ()):
        d.ellipse((x * big - r, y * big - r, x * big + r, y * big + r), fill=(*st.DARK, 255))
    return img.resize((size, size), Image.Resampling.LANCZOS)


def _clip(
    a: tuple[float, float], b: tuple[float, float], box: tuple[float, float, float, float]
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The part of the segment ``a``→``b`` inside ``box`` (Liang–Barsky), or ``None``."""
    x0, y0, x1, y1 = box
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    if t0 > t1:
        return None
    return (a[0] + dx * t0, a[1] + dy * t0), (a[0] + dx * t1, a[1] + dy * t1)


def draw_flight(img: Image.Image, flight: Any, frame: Frame) -> None:
    """The flight's path, die, landing square and flying figure (see the module docstring);
    what lies outside the picture's cells is left out (the path is cut at its edge)."""
    target: Position | None = flight.target
    if not flight.roll or target is None:
        return
    T = frame.tile
    seat = int(flight.seat)
    colour = st.seat_style(seat).fill
    home = flight.status == HOME

    def centre(p: Position) -> tuple[float, float]:
        x, y = frame.cell_xy(p)
        return (x + T / 2, y + T / 2)

    bx0, by0 = frame.cell_xy(Position(frame.min_x, frame.min_y))
    board = (bx0 + 2, by0 + 2, bx0 + frame.cols * T - 2, by0 + frame.rows * T - 2)
    start, end = centre(flight.origin), centre(target)
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    # where the path meets the landing square (its edge, or its corner on a diagonal)
    edge = T / 2 / max(abs(ux), abs(uy))
    entry = end if home else (end[0] - ux * edge, end[1] - uy * edge)
    origin_in, target_in = frame.contains(flight.origin), frame.contains(target)
    head = T * 0.2
    a = (start[0] + ux * T * 0.2, start[1] + uy * T * 0.2)
    b = entry if home else (entry[0] - ux * head * 0.6, entry[1] - uy * head * 0.6)
    # a cross beyond the picture stands inside it, clear of the coordinates
    keep = T * 0.2 if home and not target_in else 0.0
    shown = _clip(a, b, (board[0] + keep, board[1] + keep, board[2] - keep, board[3] - keep))
    layer_box = (
        int(max(0, min(start[0], end[0]) - T)),
        int(max(0, min(start[1], end[1]) - T)),
        int(min(img.size[0], max(start[0], end[0]) + T)),
        int(min(img.size[1], max(start[1], end[1]) + T)),
    )
    left, top, right, bottom = layer_box
    if right <= left or bottom <= top:
        return
    layer = Image.new("RGBA", ((right - left) * SS, (bottom - top) * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)

    def up(p: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] - left) * SS, (p[1] - top) * SS)

    w = max(3, min(T // 15, 7)) * SS
    rim = w + 2 * SS * max(1, min(T // 48, 2))
    if shown is not None:  # the path: dashes with a dark rim
        p, q = shown
        seg = math.hypot(q[0] - p[0], q[1] - p[1])
        n = max(1, int(seg / (T * 0.16)))
        for fill, width in (((*st.DARK, 255), rim), ((*colour, 255), w)):
            for k in range(0, n, 2):
                t0, t1 = k / n, min(1.0, (k + 1) / n)
                p0 = (p[0] + (q[0] - p[0]) * t0, p[1] + (q[1] - p[1]) * t0)
                p1 = (p[0] + (q[0] - p[0]) * t1, p[1] + (q[1] - p[1]) * t1)
                d.line([up(p0), up(p1)], fill=fill, width=int(width))
    step = HEADINGS.get(flight.heading, (0, 0))
    for k in range(1, flight.roll):  # a dot on each tile flown over
        cell = Position(flight.origin.x + step[0] * k, flight.origin.y + step[1] * k)
        if frame.contains(cell):
            cx, cy = up(centre(cell))
            r = w * 1.1
            o = r + SS * 2
            d.ellipse((cx - o, cy - o, cx + o, cy + o), fill=(*st.DARK, 255))
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255, 255))
    if target_in and not home:  # the landing square, framed in the flier's colour
        x, y = frame.cell_xy(target)
        inset = T * 0.05
        box = [up((x + inset, y + inset)), up((x + T - inset, y + T - inset))]
        radius = T * 0.08 * SS
        d.rounded_rectangle(box, radius=radius, outline=(255, 255, 255, 255), width=int(w * 1.6))
        d.rounded_rectangle(box, radius=radius, outline=(*colour, 255), width=int(w))
    tip_in = target_in or (shown is not None and math.dist(shown[1], b) < 1)
    if not home and tip_in:  # the arrowhead, on the square's edge
        px, py = -uy, ux
        tip = (entry[0] + ux * head * 0.25, entry[1] + uy * head * 0.25)
        base = (tip[0] - ux * head, tip[1] - uy * head)
        tri = [
            tip,
            (base[0] + px * head * 0.6, base[1] + py * head * 0.6),
            (base[0] - px * head * 0.6, base[1] - py * head * 0.6),
        ]
        mid = (sum(t[0] for t in tri) / 3, sum(t[1] for t in tri) / 3)
        d.polygon([up(t) for t in tri], fill=(*st.DARK, 255))
        inner = [(t[0] * 0.7 + mid[0] * 0.3, t[1] * 0.7 + mid[1] * 0.3) for t in tri]
        d.polygon([up(t) for t in inner], fill=(*colour, 255))
    if home and shown is not None:  # crossed out: no landing (at the picture's edge if beyond)
        r = T * (0.28 if target_in else 0.16) * SS
        cx, cy = up(shown[1])
        for cross, thick in (((255, 255, 255, 255), w * 2.2), ((*MISS, 255), w * 1.4)):
            for sx in (-1, 1):
                d.line([(cx - r, cy - sx * r), (cx + r, cy + sx * r)], fill=cross, width=int(thick))
    small = layer.resize((right - left, bottom - top), Image.Resampling.LANCZOS)
    img.paste(small, (left, top), small)
    if origin_in:  # the die on the machine's tile, behind the machine's heading
        size = max(26, int(T * 0.4))
        face = die_face(int(flight.roll), size)
        norm = math.hypot(*step) or 1.0
        dc = (start[0] - step[0] / norm * T * 0.22, start[1] - step[1] / norm * T * 0.22)
        img.paste(face, (int(dc[0] - size / 2), int(dc[1] - size / 2)), face)
    if flight.status == LANDING and target_in:  # the figure in the air, short of the square
        fig = figure_sprite(flight.figure, seat, max(16, int(T * 0.34)))
        fx, fy = entry[0] - ux * T * 0.42, entry[1] - uy * T * 0.42
        img.paste(fig, (int(fx - fig.size[0] / 2), int(fy - fig.size[1] / 2)), fig)


class FlyingMachinesOverlay(Overlay):
    id = ID
    symbols = MappingProxyType({"flier": SymbolArt(paint_flier, Place.CORNER, 0.26)})
    words = frozenset({"flying_machine"})

    def focus(self, view: PublicView) -> Sequence[Position]:
        flight = getattr(view.ext.get(ID), "flight", None)
        if flight is None or flight.target is None:
            return ()
        return (flight.origin, flight.target)

    def draw_board(self, img: Image.Image, view: PublicView, frame: Frame) -> None:
        flight = getattr(view.ext.get(ID), "flight", None)
        if flight is not None:
            draw_flight(img, flight, frame)


OVERLAY = FlyingMachinesOverlay()
