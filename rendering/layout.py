"""Where things are on a tile: the geometry of the procedural art, derived from tile data.

Everything here is in unit tile coordinates (``0..1``, x east, y south) in the tile's reference
orientation. :func:`tile_layout` turns a :class:`~engine.carcassonne.tiles.TileDef` into city
outlines, road paths, symbol positions, the partition of the grass into the tile's fields (so the
walls between fields can be drawn) and one anchor point per feature. :func:`spot_anchor` gives that
anchor in the board frame for a rotation; followers and the spot-label overlay both use it, so a
follower stands exactly where its spot letter was.

The core places what every tile may show (cities, walls, shields, roads and their ends, tunnels,
wells, overpasses, cloisters). A tile file's symbols are placed as the overlay that draws them
says (:class:`rendering.overlays.SymbolArt`): the layout asks for each symbol key and places what
an overlay draws, nothing else; a road whose end is no city and nothing the core knows runs to
the symbol that claims that end, or to the tile's centre.

The layout is computed once per tile type on a small raster (``GRID`` cells a side) and cached.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from engine.carcassonne.tiles import FeatureDef, FeatureKind, SymbolValue, TileDef, tile
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
    dir_name,
    dist,
    entries,
    free_disc,
    in_mask,
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
from rendering.overlays import Painter, Place, SymbolArt, symbol_art

#: size (share of a tile) of a cloister, which players must recognise at phone size
CLOISTER_SIZE = 0.42
#: size of a shield (pennant) in a city
PENNANT_SIZE = 0.17


@dataclass(frozen=True, slots=True)
class CityShape:
    """One city segment: its filled outline, the wall curves to stroke, and how it is layered
    (``overpass``: it passes over another city, drawn last with a shadow)."""

    feature: int
    polygon: tuple[Pt, ...]
    walls: tuple[tuple[Pt, ...], ...]
    overpass: bool = False


@dataclass(frozen=True, slots=True)
class RoadPath:
    """One road feature as polylines from the tile edge inwards (one per arm); ``end`` is what
    a road that stops on the tile ends at (``junction``, ``gate``, ``house`` ... or the end a
    symbol claims), ``overpass`` a road that passes over a road or a city."""

    feature: int
    arms: tuple[tuple[Pt, ...], ...]
    end: str | None = None
    gate: Pt | None = None
    overpass: bool = False
    tunnel: bool = False
    well: bool = False


@dataclass(frozen=True, slots=True)
class Symbol:
    """A mark printed on a tile: where, how big, and how it is drawn.

    ``kind`` is a core mark (``pennant``, ``cloister``, ``gate`` ...) or the key of a tile
    file's symbol; ``arg`` its value (a good, a heading) or a gate's angle. ``paint`` is the
    overlay's painter of a symbol (None: a core mark). ``ground``: drawn on the grass under the
    cities; ``upright``: drawn upright at its turned place whatever the tile's rotation.
    """

    kind: str
    at: Pt
    size: float
    arg: str = ""
    paint: Painter | None = None
    ground: bool = False
    upright: bool = False


def _mark(key: str, value: SymbolValue, art: SymbolArt, at: Pt, size: float = 0.0) -> Symbol:
    """The symbol ``key`` with ``value`` as ``art`` draws it at ``at``."""
    arg = "" if value is True else str(value)
    return Symbol(key, at, size or art.size, arg, art.paint, art.ground, art.upright)


def _arts(
    symbols: Sequence[tuple[str, SymbolValue]], place: Place | None = None
) -> list[tuple[str, SymbolValue, SymbolArt]]:
    """The symbols an overlay draws, in the tile file's order (only those at ``place``)."""
    out = []
    for key, value in symbols:
        art = symbol_art(key)
        if art is not None and (place is None or art.place is place):
            out.append((key, value, art))
    return out


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
    #: a symbol is the whole tile (:attr:`rendering.overlays.Place.WHOLE`): only it is drawn
    whole: bool = False


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
    arts = _arts(t.symbols)
    for key, value, art in arts:
        if art.place is Place.WHOLE:
            lay.anchors.update((f.index, CENTRE) for f in feats)
            lay.symbols.append(_mark(key, value, art, CENTRE))
            lay.labels = [-1] * (GRID * GRID)
            lay.whole = True
            return lay

    # -- cities
    capped = {s for c in cities for s in sides(c.sides) if bin(c.sides).count("1") == 1}
    bands = [c for c in cities if c.sides in (0b0101, 0b1010)]
    masks: dict[int, list[bool]] = {}
    for c in cities:
        n = bin(c.sides).count("1")
        over = False
        if n == 1:
            side = sides(c.sides)[0]
            crossing = [b for b in bands if not b.sides >> side & 1 and b.index != c.index]
            opposite = (side + 2) % 4
            beyond = any(f.halves >> (2 * opposite) & 0b11 and c.index in f.cities for f in fields)
            if crossing and beyond:
                poly, walls = tower_outline(side)
                over = True
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
                if len(bands) == 2:  # AM/CCcc+: the first band passes over the second
                    depth = 0.36
                    over = c.index == min(b.index for b in bands)
            if over:
                poly, walls = tower_outline(sides(c.sides)[0], through=True)
            else:
                poly, walls = city_outline(c.sides, depth, 0.22)
        lay.cities.append(CityShape(c.index, tuple(poly), tuple(tuple(w) for w in walls), over))
        masks[c.index] = raster(polys=[poly])
    lay.cities.sort(key=lambda cs: cs.overpass)
    city_any = (
        [any(cell) for cell in zip(*masks.values(), strict=True)]
        if masks
        else [False] * (GRID * GRID)
    )

    # -- centre things: symbols in the centre or on free ground, cloister, junction
    through = [r for r in roads if bin(r.sides).count("1") >= 2]
    straight_through = [r for r in through if r.sides in (0b0101, 0b1010) or r.well]
    #: road ends that run to a symbol placed on free ground (placed once the roads are)
    later = {end for _k, _v, art in arts if art.place is Place.FREE for end in art.ends}
    #: road end -> the key and art of the symbol of this tile it runs to
    end_arts = {end: (key, art) for key, _v, art in arts for end in art.ends}

    # -- roads that do not depend on symbol positions
    pending: list[tuple[int, int, str]] = []
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
            lay.roads.append(RoadPath(r.index, arms, None, None, False, r.tunnel, r.well))
        elif len(ss) >= 3:
            arms = tuple((MIDS[s], CENTRE) for s in ss)
            end = "well" if r.well else "junction"
            lay.roads.append(RoadPath(r.index, arms, end, None, False, r.tunnel, r.well))
        else:
            side = ss[0]
            end = r.ends or "dead end"
            gate: Pt | None = None
            city = next((c for c in cities if c.name == end), None)
            if end in ("junction", "cloister", "c1/c2"):
                path = [MIDS[side], CENTRE]
                kind = {"c1/c2": "junction"}.get(end, end)
            elif end == "house":
                path = [MIDS[side], lerp(MIDS[side], MIDS[(side + 2) % 4], 0.78)]
                kind = "house"
            elif end == "dead end":
                path = [MIDS[side], lerp(MIDS[side], CENTRE, 0.9)]
                kind = "dead end"
            elif city is not None:
                kind = "gate"
                target = best_point(masks[city.index]) or CENTRE
                path, gate = clip_into(road_end_path(side, target), masks[city.index])
            elif end in later:
                pending.append((r.index, side, end))
                continue
            else:  # a symbol in the centre (or nothing that draws it): the road runs there
                path = [MIDS[side], CENTRE]
                kind = end
            lay.roads.append(RoadPath(r.index, (tuple(path),), kind, gate, False, r.tunnel, r.well))
            if end == "c1/c2":
                for c in cities:
                    target = best_point(masks[c.index]) or CENTRE
                    stub, _g = clip_into(
                        quad(CENTRE, lerp(CENTRE, target, 0.5), target, 8), masks[c.index]
                    )
                    if tuple(stub) not in lay.stubs:
                        lay.stubs.append(tuple(stub))

    # -- overpasses: roads crossing roads or cities
    final_roads: list[RoadPath] = []
    for rp in lay.roads:
        over = False
        for other in lay.roads:
            if other.feature < rp.feature or other.feature == rp.feature:
                continue
            if any(segments_cross(a, b) for a in rp.arms for b in other.arms) or (
                rp.end is None
                and other.end is None
                and rp.arms[0][0] != other.arms[0][0]
                and dist(path_point(rp.arms, 0.5), path_point(other.arms, 0.5)) < 0.05
            ):
                over = True
        if rp.end is None and not rp.tunnel:
            road_mask = raster(lines=[(rp.arms[0], 0.02)])
            if any(m and c for m, c in zip(road_mask, city_any, strict=True)):
                over = True
        final_roads.append(RoadPath(rp.feature, rp.arms, rp.end, rp.gate, over, rp.tunnel, rp.well))
    lay.roads = final_roads
    #: discs of the symbols on the ground: no field covers them
    ground: list[tuple[Pt, float]] = []

    def occupancy(with_overpasses: bool) -> list[bool]:
        polys = [cs.polygon for cs in lay.cities if with_overpasses or not cs.overpass]
        lines = [
            (arm, ROAD_W)
            for rp in lay.roads
            for arm in rp.arms
            if with_overpasses or not rp.overpass
        ]
        lines += [(s, ROAD_W * 0.8) for s in lay.stubs]
        return [
            a or b
            for a, b in zip(raster(polys=polys), raster(lines=lines, discs=ground), strict=True)
        ]

    # -- symbols on the ground: in the centre, then on the free grass nearest it
    for key, value, art in arts:
        if art.place is Place.CENTRE and art.ground:
            lay.symbols.append(_mark(key, value, art, CENTRE))
            ground.append((CENTRE, art.size / 2))
    for key, value, art in arts:
        if art.place is not Place.FREE:
            continue
        free = [not o for o in occupancy(True)]
        where = (
            CENTRE
            if free_disc(free, CENTRE, art.size / 2)
            else (best_point(free, prefer=CENTRE) or CENTRE)
        )
        lay.symbols.append(_mark(key, value, art, where))
        if art.ground:
            ground.append((where, art.size / 2))
        for feature, side, end in pending:
            if end in art.ends:
                lay.roads.append(RoadPath(feature, ((MIDS[side], where),), end, None))
    if pending:
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
        if straight_through or any(rp.overpass for rp in lay.roads):
            free = [not o for o in occupancy(True)]
            spot = best_point(free, prefer=(0.5, 0.3)) or CENTRE
        lay.anchors[cloister.index] = spot
        # as big as fits on the tile (the cross reaches 0.62 of the size above the centre)
        cx, cy = spot
        size = min(CLOISTER_SIZE, (cy - 0.05) / 0.62, (0.95 - cy) / 0.45, (cx - 0.05) / 0.48)
        size = min(size, (0.95 - cx) / 0.48)
        lay.symbols.append(Symbol("cloister", spot, size, upright=True))
        taken.append(spot)
    for key, value, art in arts:  # standing in the centre
        if art.place is Place.CENTRE and not art.ground:
            lay.symbols.append(_mark(key, value, art, CENTRE))
    # what a follower must not stand on: printed symbols, wall lines, overpasses over its feature
    discs = [(s.at, s.size * 0.6) for s in lay.symbols]
    discs += [(p, 0.035) for p in lay.field_walls]
    discs += [(rp.gate, 0.08) for rp in lay.roads if rp.gate is not None]
    marks_mask = raster(discs=discs)
    over_city = raster(polys=[cs.polygon for cs in lay.cities if cs.overpass])
    over_road = raster(
        lines=[(a, ROAD_W * 1.5) for rp in lay.roads if rp.overpass or rp.tunnel for a in rp.arms]
    )

    def clear(mask: Sequence[bool], *over: Sequence[bool]) -> list[bool]:
        out = [m and not k for m, k in zip(mask, marks_mask, strict=True)]
        for o in over:
            out = [m and not k for m, k in zip(out, o, strict=True)]
        return out if any(out) else list(mask)

    for cs in sorted(lay.cities, key=lambda cs: not cs.overpass):
        m = clear(masks[cs.feature], over_road, *(() if cs.overpass else (over_city,)))
        p = best_point(m, taken, prefer=_tower_anchor(cs) if cs.overpass else None) or CENTRE
        lay.anchors[cs.feature] = p
        taken.append(p)
    hidden = [any(ms) for ms in zip(marks_mask, city_any, strict=True)]
    for rp in lay.roads:
        fracs = (0.5, 0.3, 0.7, 0.2, 0.8) if rp.end is None else (0.4, 0.3, 0.55)
        best = path_point(rp.arms, fracs[0])
        for fr in fracs:
            cand = path_point(rp.arms, fr)
            if in_mask(hidden, cand) and not rp.overpass:
                continue
            if min((dist(cand, a) for a in taken), default=1.0) >= 0.18:
                best = cand
                break
        lay.anchors[rp.feature] = best
        taken.append(best)
    for fd in fields:
        region = clear([lab == fd.index for lab in labels], over_city, over_road)
        spot = best_point(region, taken, min_gap=0.16) or _fallback_field_point(fd.halves)
        lay.anchors[fd.index] = spot
        taken.append(spot)

    # -- city marks: shields, then the city's symbols; road marks: its symbols beside it, well,
    # junction, what it ends at, tunnel mouths; then the tile's small corner symbols
    by_index: dict[int, FeatureDef] = {f.index: f for f in feats}
    for c in cities:
        shields = [Symbol("pennant", CENTRE, PENNANT_SIZE, upright=True)] * c.pennants
        for mark in [*shields, *(_mark(*a, CENTRE) for a in _arts(c.symbols, Place.FEATURE))]:
            mark_at = (
                best_point(
                    masks[c.index],
                    taken,
                    min_gap=0.2,
                    prefer=lerp(lay.anchors[c.index], CENTRE, 0.3),
                )
                or CENTRE
            )
            lay.symbols.append(replace(mark, at=mark_at))
            taken.append(mark_at)
    for rp in lay.roads:
        for key, value, art in _arts(by_index[rp.feature].symbols, Place.FEATURE):
            pa = path_point(rp.arms, 0.62 if rp.end is None else 0.5)
            pb = path_point(rp.arms, 0.66 if rp.end is None else 0.56)
            dx, dy = pb[0] - pa[0], pb[1] - pa[1]
            norm = math.hypot(dx, dy) or 1.0
            side_pt = (pa[0] - dy / norm * 0.15, pa[1] + dx / norm * 0.15)
            if not (0.1 < side_pt[0] < 0.9 and 0.1 < side_pt[1] < 0.9):
                side_pt = (pa[0] + dy / norm * 0.15, pa[1] - dx / norm * 0.15)
            lay.symbols.append(_mark(key, value, art, side_pt))
            taken.append(side_pt)
        if rp.well:
            lay.symbols.append(Symbol("well", CENTRE, 0.16, upright=True))
        if (
            rp.end == "junction"
            and sum(1 for r in lay.roads if r.end == "junction") >= 2
            and not any(s.kind == "junction" for s in lay.symbols)
        ):
            lay.symbols.append(Symbol("junction", CENTRE, 0.16, ground=True))
        if rp.end == "house":
            lay.symbols.append(Symbol("house", rp.arms[0][-1], 0.16, upright=True))
        if rp.end == "dead end":
            lay.symbols.append(Symbol("deadend", rp.arms[0][-1], 0.1))
        key, end_art = end_arts.get(rp.end or "", ("", None))
        if end_art is not None and end_art.road_end is not None:
            arm, meets = rp.arms[0], end_art.road_end
            at = lerp(arm[0], arm[-1], meets.at)
            lay.symbols.append(Symbol(key, at, meets.size, paint=meets.paint))
        if rp.end == "gate" and rp.gate is not None:
            lay.symbols.append(Symbol("gate", rp.gate, ROAD_W * 1.3, dir_name(rp.arms[0])))
        if rp.tunnel:
            under = [
                p
                for p in (path_point(rp.arms, i / 48) for i in range(49))
                if any(in_mask(masks[cs.feature], p) for cs in lay.cities)
            ]
            if len(under) >= 2:
                lay.tunnels.append(tuple(under))
            for cs in lay.cities:
                for pt in entries(rp.arms[0], masks[cs.feature]):
                    lay.symbols.append(Symbol("tunnel", pt, ROAD_W * 1.4, dir_name(rp.arms[0])))
    small = _arts(t.symbols, Place.CORNER)
    if small:
        free = [not o for o in occupancy(True)]
        grass_or_city = [fr or c for fr, c in zip(free, city_any, strict=True)]
        for key, value, art in small:
            p = best_point(grass_or_city, taken, min_gap=0.24, prefer=(0.78, 0.8)) or (0.8, 0.8)
            lay.symbols.append(_mark(key, value, art, p))
            taken.append(p)
    return lay


#: one layout per tile type (bounded by the tile data: 134 types, ~42 KB each, 5.5 MiB in all)
track("layout.tile_layout", tile_layout, 42_000)


def _tower_anchor(cs: CityShape) -> Pt:
    xs = [p[0] for p in cs.polygon]
    ys = [p[1] for p in cs.polygon]
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


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
