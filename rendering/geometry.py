"""Unit-tile geometry behind the tile layouts: constants, curves, city outlines and rasters.

Everything is in unit tile coordinates (``0..1``, x east, y south) in a tile's reference
orientation; rasters are ``GRID`` cells a side, row-major lists of booleans.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFilter

Pt = tuple[float, float]

#: raster resolution (cells per tile side) for regions, field partition and anchors
GRID = 64
#: road width (unit tile coordinates)
ROAD_W = 0.12
CENTRE: Pt = (0.5, 0.5)
CORNERS: tuple[Pt, ...] = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
MIDS: tuple[Pt, ...] = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
INWARD: tuple[Pt, ...] = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))
#: the eight half-edges as segments, clockwise from the NW corner (Nw Ne En Es Se Sw Ws Wn)
HALF_SEGMENTS: tuple[tuple[Pt, Pt], ...] = (
    ((0.0, 0.0), (0.5, 0.0)),
    ((0.5, 0.0), (1.0, 0.0)),
    ((1.0, 0.0), (1.0, 0.5)),
    ((1.0, 0.5), (1.0, 1.0)),
    ((1.0, 1.0), (0.5, 1.0)),
    ((0.5, 1.0), (0.0, 1.0)),
    ((0.0, 1.0), (0.0, 0.5)),
    ((0.0, 0.5), (0.0, 0.0)),
)


# ---------------------------------------------------------------------------- curves


def quad(a: Pt, c: Pt, b: Pt, n: int = 16) -> list[Pt]:
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append(
            (
                u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
                u * u * a[1] + 2 * u * t * c[1] + t * t * b[1],
            )
        )
    return out


def arc(centre: Pt, r: float, a0: float, a1: float, n: int = 16) -> list[Pt]:
    return [
        (
            centre[0] + r * math.cos(a0 + (a1 - a0) * i / n),
            centre[1] + r * math.sin(a0 + (a1 - a0) * i / n),
        )
        for i in range(n + 1)
    ]


def lerp(a: Pt, b: Pt, t: float) -> Pt:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def dist(a: Pt, b: Pt) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def seg_dist(p: Pt, a: Pt, b: Pt) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)
    t = min(1.0, max(0.0, t))
    return dist(p, (a[0] + t * dx, a[1] + t * dy))


def segments_cross(p: Sequence[Pt], q: Sequence[Pt]) -> bool:
    """Whether two polylines cross away from their end points."""

    def orient(a: Pt, b: Pt, c: Pt) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    for i in range(len(p) - 1):
        for j in range(len(q) - 1):
            a, b, c, d = p[i], p[i + 1], q[j], q[j + 1]
            if orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0:
                return True
    return False


def path_point(arms: Sequence[Sequence[Pt]], frac: float) -> Pt:
    """The point ``frac`` of the way along the first arm (by length)."""
    pts = arms[0]
    lengths = [dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1)]
    goal = sum(lengths) * frac
    for i, seg in enumerate(lengths):
        if goal <= seg or i == len(lengths) - 1:
            return lerp(pts[i], pts[i + 1], goal / seg if seg else 0.0)
        goal -= seg
    return pts[-1]


# ---------------------------------------------------------------------------- cities


def city_outline(mask: int, depth_band: float, depth_cap: float) -> tuple[list[Pt], list[list[Pt]]]:
    """Polygon and wall curves of a city reaching the sides in ``mask`` (bit 0 = N, clockwise)."""
    if mask == 0b1111:
        return list(CORNERS), []
    start = next(s for s in range(4) if mask >> s & 1 and not mask >> ((s - 1) % 4) & 1)
    poly: list[Pt] = []
    walls: list[list[Pt]] = []
    i = start
    while True:
        while mask >> (i % 4) & 1:
            poly.append(CORNERS[i % 4])
            i += 1
        a = CORNERS[i % 4]
        k = 0
        while not mask >> ((i + k) % 4) & 1:
            k += 1
        b = CORNERS[(i + k) % 4]
        if k == 1:  # a band or three-sided city: the wall bows in from side i
            side = i % 4
            ctrl = (
                MIDS[side][0] + INWARD[side][0] * 2 * depth_band,
                MIDS[side][1] + INWARD[side][1] * 2 * depth_band,
            )
        elif k == 2:  # a corner city: the wall runs across, short of the diagonal
            city_corner = CORNERS[(i + 3) % 4]
            ctrl = lerp(city_corner, CENTRE, 0.6)
        else:  # a cap on one side
            side = (i + 3) % 4
            ctrl = (
                MIDS[side][0] + INWARD[side][0] * 2 * depth_cap,
                MIDS[side][1] + INWARD[side][1] * 2 * depth_cap,
            )
        curve = quad(a, ctrl, b, 20)
        walls.append(curve)
        poly.extend(curve[:-1])
        i += k
        if i % 4 == start:
            break
    return poly, walls


def tower_outline(side: int, through: bool = False) -> tuple[list[Pt], list[list[Pt]]]:
    """A city that leaves ``side`` as a narrow strip bridging over the tile (AM/CCc+), or that
    runs right through to the opposite side (``through``, AM/CCcc+)."""
    # drawn for side N, then turned
    cap = quad((1.0, 0.0), (0.62, 0.06), (0.62, 0.18), 8)
    cap2 = quad((0.38, 0.18), (0.38, 0.06), (0.0, 0.0), 8)
    if through:
        right = quad((0.62, 0.82), (0.62, 0.94), (1.0, 1.0), 8)
        left = quad((0.0, 1.0), (0.38, 0.94), (0.38, 0.82), 8)
        walls = [cap + right, left + cap2]
        poly = [(0.0, 0.0), *cap, *right, *left, *cap2]
    else:
        right = [(0.62, 0.18), (0.62, 0.72)]
        bottom = arc((0.5, 0.72), 0.12, 0.0, math.pi, 10)
        left = [(0.38, 0.72), (0.38, 0.18)]
        wall = cap + right[1:] + bottom[1:] + left[1:] + cap2[1:]
        walls = [wall]
        poly = [(0.0, 0.0), *wall]
    return [turn(p, side) for p in poly], [[turn(p, side) for p in w] for w in walls]


def turn(p: Pt, quarter_turns: int) -> Pt:
    """Rotate a unit point clockwise about the tile centre."""
    x, y = p
    for _ in range(quarter_turns % 4):
        x, y = 1.0 - y, x
    return (x, y)


# ---------------------------------------------------------------------------- raster helpers


def raster(
    polys: Sequence[Sequence[Pt]] = (),
    lines: Sequence[tuple[Sequence[Pt], float]] = (),
    discs: Sequence[tuple[Pt, float]] = (),
) -> list[bool]:
    img = Image.new("L", (GRID, GRID), 0)
    d = ImageDraw.Draw(img)
    for poly in polys:
        d.polygon([(x * GRID, y * GRID) for x, y in poly], fill=1)
    for pts, w in lines:
        scaled = [(x * GRID, y * GRID) for x, y in pts]
        d.line(scaled, fill=1, width=max(1, round(w * GRID)), joint="curve")
        r = w * GRID / 2
        for x, y in (scaled[0], scaled[-1]):
            d.ellipse((x - r, y - r, x + r, y + r), fill=1)
    for (x, y), r in discs:
        d.ellipse(((x - r) * GRID, (y - r) * GRID, (x + r) * GRID, (y + r) * GRID), fill=1)
    return [bool(v) for v in img.tobytes()]


CENTRES: tuple[Pt, ...] = tuple(
    ((i % GRID + 0.5) / GRID, (i // GRID + 0.5) / GRID) for i in range(GRID * GRID)
)


def centre_of(i: int) -> Pt:
    return CENTRES[i]


#: 0/1 bytes to 0/255
_TO_FULL = bytes([0, *([255] * 255)])


def distance_inside(mask: Sequence[bool], cap: int = 10) -> list[int]:
    """Chessboard distance (in cells, at most ``cap``) from each masked cell to the nearest
    unmasked cell or the tile border, by repeated 3x3 erosion."""
    img = Image.new("L", (GRID + 2, GRID + 2), 0)
    img.paste(
        Image.frombytes("L", (GRID, GRID), bytes(map(bool, mask)).translate(_TO_FULL)), (1, 1)
    )
    total = Image.new("L", img.size, 0)
    # the image holds 0 and 255 only: min(image, 1) is 1 where it is set (in C, not point())
    ones = Image.new("L", img.size, 1)
    one = ImageChops.darker(img, ones)
    for _ in range(cap):
        total = ImageChops.add(total, one)
        img = img.filter(ImageFilter.MinFilter(3))
        one = ImageChops.darker(img, ones)
        if not img.getbbox():
            break
    return list(total.crop((1, 1, GRID + 1, GRID + 1)).tobytes())


def best_point(
    mask: Sequence[bool], avoid: Sequence[Pt] = (), prefer: Pt | None = None, min_gap: float = 0.2
) -> Pt | None:
    """A roomy point of ``mask``: deep inside it, near ``prefer``, away from ``avoid``."""
    cells = [i for i, m in enumerate(mask) if m]
    if not cells:
        return None
    inside = distance_inside(mask)
    if prefer is None:
        n = len(cells)
        prefer = (
            (sum(i % GRID for i in cells) / n + 0.5) / GRID,
            (sum(i // GRID for i in cells) / n + 0.5) / GRID,
        )
    best: tuple[float, Pt] | None = None
    # shallow cells (next to a border) never win while deeper ones exist: skip them
    floor = min(3, max(inside[i] for i in cells))
    for i in cells:
        # every other cell is fine enough (1/32 tile) and halves the work
        if inside[i] < floor or (i % GRID + i // GRID) % 2:
            continue
        p = px, py = CENTRES[i]
        depth = min(inside[i], 10) / GRID
        # dist() inlined (the same arithmetic): this loop is most of a tile layout's time
        near = min((math.hypot(px - ax, py - ay) for ax, ay in avoid), default=1.0)
        penalty = 0.0 if near >= min_gap else (min_gap - near) * 4
        score = depth * 2.5 - math.hypot(px - prefer[0], py - prefer[1]) * 0.6 - penalty
        if best is None or score > best[0]:
            best = (score, p)
    if best is None and cells:  # only odd cells were deep enough: take the deepest
        i = max(cells, key=lambda c: inside[c])
        return CENTRES[i]
    return best[1] if best else None


# ---------------------------------------------------------------------------- the layout


def road_end_path(side: int, target: Pt, n: int = 16) -> list[Pt]:
    """A road from the middle of ``side`` to ``target``, leaving the edge square-on."""
    m = MIDS[side]
    ctrl = (m[0] + INWARD[side][0] * 0.25, m[1] + INWARD[side][1] * 0.25)
    if abs((target[0] - m[0]) * INWARD[side][1] - (target[1] - m[1]) * INWARD[side][0]) < 1e-6:
        return [m, target]
    return quad(m, ctrl, target, n)


def clip_into(path: list[Pt], inside: Sequence[bool]) -> tuple[list[Pt], Pt | None]:
    """Cut ``path`` where it first enters the raster region ``inside``; return (path, gate)."""
    for k, p in enumerate(path):
        gx, gy = min(GRID - 1, int(p[0] * GRID)), min(GRID - 1, int(p[1] * GRID))
        if k > 0 and inside[gy * GRID + gx]:
            # step a little into the city so the road meets the wall
            return path[:k] + [p], p
    return path, None


def sides(mask: int) -> list[int]:
    return [s for s in range(4) if mask >> s & 1]


def dir_name(path: Sequence[Pt]) -> str:
    """Heading in degrees of a path's last step (for gates and tunnel mouths)."""
    a, b = path[-2], path[-1]
    ang = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
    return str(round(ang))


def entries(path: Sequence[Pt], mask: Sequence[bool]) -> list[Pt]:
    """Points where a path crosses the border of a raster region."""
    out: list[Pt] = []
    pts = [lerp(path[0], path[-1], i / 64) for i in range(65)] if len(path) == 2 else list(path)
    prev: bool | None = None
    for p in pts:
        gx, gy = min(GRID - 1, int(p[0] * GRID)), min(GRID - 1, int(p[1] * GRID))
        cur = mask[gy * GRID + gx]
        if prev is not None and cur != prev:
            out.append(p)
        prev = cur
    return out


def in_mask(mask: Sequence[bool], p: Pt) -> bool:
    """Whether unit point ``p`` falls in a set cell of the raster ``mask``."""
    gx, gy = min(GRID - 1, int(p[0] * GRID)), min(GRID - 1, int(p[1] * GRID))
    return mask[gy * GRID + gx]


def free_disc(free: Sequence[bool], c: Pt, r: float) -> bool:
    """Whether every cell within ``r`` of ``c`` is free."""
    return all(f or dist(centre_of(i), c) >= r for i, f in enumerate(free))
