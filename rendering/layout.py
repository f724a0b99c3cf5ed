"""Where things are on a tile: the geometry of the procedural art, derived from tile data.

Everything here is in unit tile coordinates (``0..1``, x east, y south) in the tile's reference
orientation. :func:`tile_layout` turns a :class:`~engine.carcassonne.tiles.TileDef` into city
outlines, road paths, symbol positions, the partition of the grass into the tile's fields (so the
walls between fields can be drawn) and one anchor point per feature. :func:`spot_anchor` gives that
anchor in the board frame for a rotation; followers and the spot-label overlay both use it, so a
follower stands exactly where its spot letter was.

The layout is computed once per tile type on a small raster (``GRID`` cells a side) and cached.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from engine.carcassonne.tiles import FeatureKind, TileDef, tile
from rendering.cache import track
from rendering.geometry import (
    CENTRE as CENTRE,
)
from rendering.geometry import (
    CORNERS,
    MIDS,
    arc,
    best_point,
    centre_of,
    city_outline,
    clip_into,
    dist,
    lerp,
    quad,
    raster,
    road_end_path,
    seg_dist,
    segments_cross,
    sides,
    tower_outline,
    turn,
)
from rendering.geometry import (
    GRID as GRID,
)
from rendering.geometry import (
    HALF_SEGMENTS as HALF_SEGMENTS,
)
from rendering.geometry import (
    ROAD_W as ROAD_W,
)
from rendering.geometry import (
    Pt as Pt,
)
from rendering.geometry import (
    path_point as path_point,
)

#: sizes (share of a tile) of the symbols players must recognise at phone size
CLOISTER_SIZE = 0.42
CATHEDRAL_SIZE = 0.36
INN_SIZE = 0.24


@dataclass(frozen=True, slots=True)
class CityShape:
    """One city segment: its filled outline, the wall curves to stroke, and how it is layered."""

    feature: int
    polygon: tuple[Pt, ...]
    walls: tuple[tuple[Pt, ...], ...]
    bridge: bool = False


@dataclass(frozen=True, slots=True)
class RoadPath:
    """One road feature as polylines from the tile edge inwards (one per arm)."""

    feature: int
    arms: tuple[tuple[Pt, ...], ...]
    end: str | None = None
    gate: Pt | None = None
    bridge: bool = False
    tunnel: bool = False
    inn: bool = False
    well: bool = False


@dataclass(frozen=True, slots=True)
class Symbol:
    """A printed symbol: ``kind`` (``pennant``, ``cathedral``, ``wine``, ``flier`` ...), where, how big."""

    kind: str
    at: Pt
    size: float
    arg: str = ""


@dataclass(slots=True)
class TileLayout:
    """The derived geometry of one tile type in its reference orientation."""

    tile: TileDef
    cities: list[CityShape] = field(default_factory=list)
    roads: list[RoadPath] = field(default_factory=list)
    stubs: list[tuple[Pt, ...]] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)
    #: stretches of tunnel roads that run under a city (drawn dashed)
    tunnels: list[tuple[Pt, ...]] = field(default_factory=list)
    #: points (unit coords) on the borders between two different fields
    field_walls: list[Pt] = field(default_factory=list)
    #: anchor of each feature, by feature index
    anchors: dict[int, Pt] = field(default_factory=dict)
    #: GRID x GRID field labels (feature index, -1 = not a field), row-major
    labels: list[int] = field(default_factory=list)


@cache
def tile_layout(tile_id: str) -> TileLayout:
    """The geometry of a tile type (reference orientation), computed once."""
    t = tile(tile_id)
    lay = TileLayout(t)
    feats = t.features
    cities = [f for f in feats if f.kind is FeatureKind.CITY]
    roads = [f for f in feats if f.kind is FeatureKind.ROAD]
    fields = [f for f in feats if f.kind is FeatureKind.FIELD]
    cloister = next((f for f in feats if f.kind is FeatureKind.CLOISTER), None)
    if t.symbol("abbey"):
        assert cloister is not None
        lay.anchors[cloister.index] = CENTRE
        lay.symbols.append(Symbol("abbey", CENTRE, 0.8))
        lay.labels = [-1] * (GRID * GRID)
        return lay

    # -- cities
    capped = {s for c in cities for s in sides(c.sides) if bin(c.sides).count("1") == 1}
    bands = [c for c in cities if c.sides in (0b0101, 0b1010)]
    masks: dict[int, list[bool]] = {}
    for c in cities:
        n = bin(c.sides).count("1")
        bridge = False
        if n == 1:
            side = sides(c.sides)[0]
            crossing = [b for b in bands if not b.sides >> side & 1 and b.index != c.index]
            opposite = (side + 2) % 4
            beyond = any(f.halves >> (2 * opposite) & 0b11 and c.index in f.cities for f in fields)
            if crossing and beyond:
                poly, walls = tower_outline(side)
                bridge = True
            else:
                facing_band = any(
                    b.sides >> ((side + 1) % 4) & 1 and b.sides >> ((side + 3) % 4) & 1
                    for b in bands
                )
                poly, walls = city_outline(c.sides, 0.3, 0.17 if facing_band else 0.22)
        else:
            depth = 0.36 if n == 3 else 0.3
            if c.sides in (0b0101, 0b1010):
                # a band next to a cap on its open side is drawn narrower
                if any(s in capped for s in range(4) if not c.sides >> s & 1):
                    depth = 0.37
                if len(bands) == 2:  # AM/CCcc+: the first band bridges over the second
                    depth = 0.36
                    bridge = c.index == min(b.index for b in bands)
            if bridge:
                poly, walls = tower_outline(sides(c.sides)[0], through=True)
            else:
                poly, walls = city_outline(c.sides, depth, 0.22)
        lay.cities.append(CityShape(c.index, tuple(poly), tuple(tuple(w) for w in walls), bridge))
        masks[c.index] = raster(polys=[poly])
    lay.cities.sort(key=lambda cs: cs.bridge)
    city_any = (
        [any(cell) for cell in zip(*masks.values(), strict=True)]
        if masks
        else [False] * (GRID * GRID)
    )

    # -- centre things: lake, market, cloister, junction
    centre_kind: str | None = None
    if t.symbol("lake"):
        centre_kind = "lake"
    elif t.symbol("bazaar"):
        centre_kind = "market"
    through = [r for r in roads if bin(r.sides).count("1") >= 2]
    straight_through = [r for r in through if r.sides in (0b0101, 0b1010) or r.well]

    # -- roads that do not depend on symbol positions
    pending_crop: list[tuple[int, int]] = []
    for r in roads:
        ss = sides(r.sides)
        if len(ss) == 2:
            a, b = ss
            if (a + 2) % 4 == b:
                arms: tuple[tuple[Pt, ...], ...] = ((MIDS[a], MIDS[b]),)
            else:
                # adjacent sides: a quarter circle around the shared corner
                corner_i = b if (a + 1) % 4 == b else a
                corner = CORNERS[corner_i]
                p, q = MIDS[a], MIDS[b]
                a0 = math.atan2(p[1] - corner[1], p[0] - corner[0])
                a1 = math.atan2(q[1] - corner[1], q[0] - corner[0])
                if a1 - a0 > math.pi:
                    a1 -= 2 * math.pi
                elif a0 - a1 > math.pi:
                    a1 += 2 * math.pi
                arms = (tuple(arc(corner, 0.5, a0, a1, 16)),)
            lay.roads.append(
                RoadPath(r.index, arms, None, None, False, r.tunnel, bool(r.symbol("inn")), r.well)
            )
        elif len(ss) >= 3:
            arms = tuple((MIDS[s], CENTRE) for s in ss)
            lay.roads.append(
                RoadPath(
                    r.index,
                    arms,
                    "well" if r.well else "junction",
                    None,
                    False,
                    r.tunnel,
                    bool(r.symbol("inn")),
                    r.well,
                )
            )
        else:
            side = ss[0]
            end = r.ends or "dead end"
            gate: Pt | None = None
            if end in ("junction", "lake", "market", "cloister", "c1/c2"):
                path = [MIDS[side], CENTRE]
                kind = {"c1/c2": "junction"}.get(end, end)
            elif end == "house":
                path = [MIDS[side], lerp(MIDS[side], MIDS[(side + 2) % 4], 0.78)]
                kind = "house"
            elif end == "dead end":
                path = [MIDS[side], lerp(MIDS[side], CENTRE, 0.9)]
                kind = "dead end"
            elif end == "crop circle":
                pending_crop.append((r.index, side))
                continue
            else:
                city = next((c for c in cities if c.name == end), None)
                kind = "gate"
                if city is None:
                    path = [MIDS[side], CENTRE]
                else:
                    target = best_point(masks[city.index]) or CENTRE
                    path, gate = clip_into(road_end_path(side, target), masks[city.index])
            lay.roads.append(
                RoadPath(
                    r.index,
                    (tuple(path),),
                    kind,
                    gate,
                    False,
                    r.tunnel,
                    bool(r.symbol("inn")),
                    r.well,
                )
            )
            if end == "c1/c2":
                for c in cities:
                    target = best_point(masks[c.index]) or CENTRE
                    stub, _g = clip_into(
                        quad(CENTRE, lerp(CENTRE, target, 0.5), target, 8), masks[c.index]
                    )
                    if tuple(stub) not in lay.stubs:
                        lay.stubs.append(tuple(stub))

    # -- bridges: roads crossing roads or cities
    final_roads: list[RoadPath] = []
    for rp in lay.roads:
        bridge = False
        for other in lay.roads:
            if other.feature < rp.feature or other.feature == rp.feature:
                continue
            if any(segments_cross(a, b) for a in rp.arms for b in other.arms) or (
                rp.end is None
                and other.end is None
                and rp.arms[0][0] != other.arms[0][0]
                and dist(path_point(rp.arms, 0.5), path_point(other.arms, 0.5)) < 0.05
            ):
                bridge = True
        if rp.end is None and not rp.tunnel:
            road_mask = raster(lines=[(rp.arms[0], 0.02)])
            if any(m and c for m, c in zip(road_mask, city_any, strict=True)):
                bridge = True
        final_roads.append(
            RoadPath(rp.feature, rp.arms, rp.end, rp.gate, bridge, rp.tunnel, rp.inn, rp.well)
        )
    lay.roads = final_roads

    def occupancy(with_bridges: bool) -> list[bool]:
        polys = [cs.polygon for cs in lay.cities if with_bridges or not cs.bridge]
        lines = [
            (arm, ROAD_W) for rp in lay.roads for arm in rp.arms if with_bridges or not rp.bridge
        ]
        lines += [(s, ROAD_W * 0.8) for s in lay.stubs]
        discs = [(s.at, s.size / 2) for s in lay.symbols if s.kind in ("lake", "crop")]
        return [
            a or b
            for a, b in zip(raster(polys=polys), raster(lines=lines, discs=discs), strict=True)
        ]

    # -- centre symbols
    if centre_kind == "lake":
        lay.symbols.append(Symbol("lake", CENTRE, 0.36))
    if t.symbol("crop_circle"):
        occ = occupancy(True)
        free = [not o for o in occ]
        where = (
            CENTRE
            if _free_disc(free, CENTRE, 0.17)
            else (best_point(free, prefer=CENTRE) or CENTRE)
        )
        lay.symbols.append(Symbol("crop", where, 0.34, str(t.symbol("crop_circle"))))
        for feature, side in pending_crop:
            lay.roads.append(RoadPath(feature, ((MIDS[side], where),), "crop", None))
        lay.roads.sort(key=lambda rp: rp.feature)

    # -- fields: partition the grass by connected area and nearest half-edge
    occ = occupancy(False)
    labels = _partition(t, occ)
    lay.labels = labels
    for y in range(GRID):
        for x in range(GRID):
            lab = labels[y * GRID + x]
            if lab < 0:
                continue
            if x + 1 < GRID and labels[y * GRID + x + 1] >= 0 and labels[y * GRID + x + 1] != lab:
                lay.field_walls.append(((x + 1) / GRID, (y + 0.5) / GRID))
            if (
                y + 1 < GRID
                and labels[(y + 1) * GRID + x] >= 0
                and labels[(y + 1) * GRID + x] != lab
            ):
                lay.field_walls.append(((x + 0.5) / GRID, (y + 1) / GRID))

    # -- anchors (spots): cloister, cities, roads, fields
    taken: list[Pt] = []
    if cloister is not None:
        spot = CENTRE
        if straight_through or any(rp.bridge for rp in lay.roads):
            free = [not o for o in occupancy(True)]
            spot = best_point(free, prefer=(0.5, 0.3)) or CENTRE
        lay.anchors[cloister.index] = spot
        # as big as fits on the tile (the cross reaches 0.62 of the size above the centre)
        cx, cy = spot
        size = min(CLOISTER_SIZE, (cy - 0.05) / 0.62, (0.95 - cy) / 0.45, (cx - 0.05) / 0.48)
        size = min(size, (0.95 - cx) / 0.48)
        lay.symbols.append(Symbol("cloister", spot, size))
        taken.append(spot)
    if centre_kind == "market":
        lay.symbols.append(Symbol("market", CENTRE, 0.26))
    # what a follower must not stand on: printed symbols, wall lines, bridges over its feature
    discs = [(s.at, s.size * 0.6) for s in lay.symbols]
    discs += [(p, 0.035) for p in lay.field_walls]
    discs += [(rp.gate, 0.08) for rp in lay.roads if rp.gate is not None]
    marks_mask = raster(discs=discs)
    bridge_city = raster(polys=[cs.polygon for cs in lay.cities if cs.bridge])
    bridge_road = raster(
        lines=[(a, ROAD_W * 1.5) for rp in lay.roads if rp.bridge or rp.tunnel for a in rp.arms]
    )

    def clear(mask: Sequence[bool], *over: Sequence[bool]) -> list[bool]:
        out = [m and not k for m, k in zip(mask, marks_mask, strict=True)]
        for o in over:
            out = [m and not k for m, k in zip(out, o, strict=True)]
        return out if any(out) else list(mask)

    for cs in sorted(lay.cities, key=lambda cs: not cs.bridge):
        m = clear(masks[cs.feature], bridge_road, *(() if cs.bridge else (bridge_city,)))
        p = best_point(m, taken, prefer=_tower_anchor(cs) if cs.bridge else None) or CENTRE
        lay.anchors[cs.feature] = p
        taken.append(p)
    hidden = [any(ms) for ms in zip(marks_mask, city_any, strict=True)]
    for rp in lay.roads:
        fracs = (0.5, 0.3, 0.7, 0.2, 0.8) if rp.end is None else (0.4, 0.3, 0.55)
        best = path_point(rp.arms, fracs[0])
        for fr in fracs:
            cand = path_point(rp.arms, fr)
            if _in_mask(hidden, cand) and not rp.bridge:
                continue
            if min((dist(cand, a) for a in taken), default=1.0) >= 0.18:
                best = cand
                break
        lay.anchors[rp.feature] = best
        taken.append(best)
    for fd in fields:
        region = clear([lab == fd.index for lab in labels], bridge_city, bridge_road)
        spot = best_point(region, taken, min_gap=0.16) or _fallback_field_point(fd.halves)
        lay.anchors[fd.index] = spot
        taken.append(spot)

    # -- city symbols: pennants, cathedral, goods; road symbols: inn, well; tile symbols
    for c in cities:
        marks = (
            (["pennant"] * c.pennants)
            + (["cathedral"] if c.symbol("cathedral") else [])
            + ([str(c.symbol("goods"))] if c.symbol("goods") else [])
        )
        for kind in marks:
            mark_at = (
                best_point(
                    masks[c.index],
                    taken,
                    min_gap=0.2,
                    prefer=lerp(lay.anchors[c.index], CENTRE, 0.3),
                )
                or CENTRE
            )
            size = CATHEDRAL_SIZE if kind == "cathedral" else 0.17
            lay.symbols.append(Symbol(kind, mark_at, size))
            taken.append(mark_at)
    for rp in lay.roads:
        if rp.inn:
            pa = path_point(rp.arms, 0.62 if rp.end is None else 0.5)
            pb = path_point(rp.arms, 0.66 if rp.end is None else 0.56)
            dx, dy = pb[0] - pa[0], pb[1] - pa[1]
            norm = math.hypot(dx, dy) or 1.0
            side_pt = (pa[0] - dy / norm * 0.15, pa[1] + dx / norm * 0.15)
            if not (0.1 < side_pt[0] < 0.9 and 0.1 < side_pt[1] < 0.9):
                side_pt = (pa[0] + dy / norm * 0.15, pa[1] - dx / norm * 0.15)
            lay.symbols.append(Symbol("inn", side_pt, INN_SIZE))
            taken.append(side_pt)
        if rp.well:
            lay.symbols.append(Symbol("well", CENTRE, 0.16))
        if (
            rp.end == "junction"
            and sum(1 for r in lay.roads if r.end == "junction") >= 2
            and not any(s.kind == "junction" for s in lay.symbols)
        ):
            lay.symbols.append(Symbol("junction", CENTRE, 0.16))
        if rp.end == "house":
            lay.symbols.append(Symbol("house", rp.arms[0][-1], 0.16))
        if rp.end == "dead end":
            lay.symbols.append(Symbol("deadend", rp.arms[0][-1], 0.1))
        if rp.end == "lake":
            lay.symbols.append(Symbol("dock", lerp(rp.arms[0][0], CENTRE, 0.62), 0.1))
        if rp.end == "gate" and rp.gate is not None:
            lay.symbols.append(Symbol("gate", rp.gate, ROAD_W * 1.3, _dir_name(rp.arms[0])))
        if rp.tunnel:
            under = [
                p
                for p in (path_point(rp.arms, i / 48) for i in range(49))
                if any(_in_mask(masks[cs.feature], p) for cs in lay.cities)
            ]
            if len(under) >= 2:
                lay.tunnels.append(tuple(under))
            for cs in lay.cities:
                for pt in _entries(rp.arms[0], masks[cs.feature]):
                    lay.symbols.append(Symbol("tunnel", pt, ROAD_W * 1.4, _dir_name(rp.arms[0])))
    small: list[tuple[str, str]] = []
    if t.symbol("flier"):
        small.append(("flier", str(t.symbol("flier"))))
    if t.symbol("gold"):
        small.append(("gold", ""))
    if t.symbol("mage"):
        small.append(("mage", ""))
    if t.symbol("robber"):
        small.append(("robber", ""))
    if small:
        free = [not o for o in occupancy(True)]
        grass_or_city = [fr or c for fr, c in zip(free, city_any, strict=True)]
        for kind, arg in small:
            p = best_point(grass_or_city, taken, min_gap=0.24, prefer=(0.78, 0.8)) or (0.8, 0.8)
            lay.symbols.append(Symbol(kind, p, 0.26 if kind == "flier" else 0.2, arg))
            taken.append(p)
    return lay


#: one layout per tile type (bounded by the tile data: 134 types, ~42 KB each, 5.5 MiB in all)
track("layout.tile_layout", tile_layout, 42_000)


def _tower_anchor(cs: CityShape) -> Pt:
    xs = [p[0] for p in cs.polygon]
    ys = [p[1] for p in cs.polygon]
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def _dir_name(path: Sequence[Pt]) -> str:
    """Compass heading of a path's last step (for gates and tunnel mouths)."""
    a, b = path[-2], path[-1]
    ang = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
    return str(round(ang))


def _entries(path: Sequence[Pt], mask: Sequence[bool]) -> list[Pt]:
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


def _in_mask(mask: Sequence[bool], p: Pt) -> bool:
    gx, gy = min(GRID - 1, int(p[0] * GRID)), min(GRID - 1, int(p[1] * GRID))
    return mask[gy * GRID + gx]


def _free_disc(free: Sequence[bool], c: Pt, r: float) -> bool:
    return all(f or dist(centre_of(i), c) >= r for i, f in enumerate(free))


def _fallback_field_point(halves: int) -> Pt:
    pts = [lerp(*HALF_SEGMENTS[h], 0.5) for h in range(8) if halves >> h & 1]
    if not pts:
        return CENTRE
    p = (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))
    return lerp(p, CENTRE, 0.4)


def _partition(t: TileDef, occ: Sequence[bool]) -> list[int]:
    """Label each free raster cell with the field feature it belongs to (-1 if none)."""
    fields = [f for f in t.features if f.kind is FeatureKind.FIELD]
    labels = [-1] * (GRID * GRID)
    if not fields:
        return labels
    comp = [-1] * (GRID * GRID)
    comps: list[list[int]] = []
    for s in range(GRID * GRID):
        if occ[s] or comp[s] >= 0:
            continue
        cid = len(comps)
        cells = [s]
        comp[s] = cid
        q = deque([s])
        while q:
            i = q.popleft()
            x, y = i % GRID, i // GRID
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < GRID and 0 <= ny < GRID:
                    j = ny * GRID + nx
                    if not occ[j] and comp[j] < 0:
                        comp[j] = cid
                        cells.append(j)
                        q.append(j)
        comps.append(cells)
    half_owner = {h: f.index for f in fields for h in range(8) if f.halves >> h & 1}
    half_cells: dict[int, list[int]] = {h: [] for h in range(8)}
    g2 = GRID // 2
    for k in range(GRID):
        half_cells[0 if k < g2 else 1].append(k)  # north row
        half_cells[2 if k < g2 else 3].append(k * GRID + GRID - 1)  # east column
        half_cells[5 if k < g2 else 4].append((GRID - 1) * GRID + k)  # south row
        half_cells[7 if k < g2 else 6].append(k * GRID)  # west column
    inner = sorted((f for f in fields if f.halves == 0), key=lambda f: (max(f.inner, 1), f.index))
    orphan: list[list[int]] = []
    for cid, cells in enumerate(comps):
        touching = [h for h in half_owner if any(comp[c] == cid for c in half_cells[h])]
        if not touching:
            orphan.append(cells)
            continue
        owners = {half_owner[h] for h in touching}
        if len(owners) == 1:
            only = owners.pop()
            for c in cells:
                labels[c] = only
            continue
        for c in cells:
            p = centre_of(c)
            h = min(touching, key=lambda h: seg_dist(p, *HALF_SEGMENTS[h]))
            labels[c] = half_owner[h]
    # inner fields take the largest edge-less areas, in reading order
    orphan = [o for o in orphan if len(o) >= 6]
    orphan.sort(key=len, reverse=True)
    chosen = orphan[: len(inner)]
    chosen.sort(
        key=lambda cells: (
            sum(c // GRID for c in cells) / len(cells),
            sum(c % GRID for c in cells) / len(cells),
        )
    )
    for f, cells in zip(inner, chosen, strict=False):
        for c in cells:
            labels[c] = f.index
    return labels


def rotate_point(p: Pt, rotation: int) -> Pt:
    """A unit point of the reference orientation, in the frame of a tile turned clockwise."""
    return turn(p, rotation)


def spot_anchor(tile_def: TileDef, rotation: int, feature_index: int) -> Pt:
    """Where feature ``feature_index`` of ``tile_def`` is drawn, for a tile turned by ``rotation``.

    Returns ``(fx, fy)`` in ``0..1`` tile coordinates of the board frame (x east, y south).
    Followers stand here and the spot overlay puts its letters here.
    """
    lay = tile_layout(tile_def.id)
    return rotate_point(lay.anchors.get(feature_index, CENTRE), int(rotation))
