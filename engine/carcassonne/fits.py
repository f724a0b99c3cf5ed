"""Which rotations of a tile fit a neighbour constraint, and which of them are distinct.

A cell's neighbours are an 8-bit code (two bits of edge kind per side); for each code a tile's
table lists the rotations that match it (:func:`fits_table`), and of rotations that place the
very same tile only the first is offered to a player (:func:`offered_table`). The tables are
built once per tile and shared by tiles with the same edges, their entries the 16 tuples of
:data:`ROTATIONS_OF_MASK`, so a long game's caches stay small for the garbage collector.
"""

from __future__ import annotations

from typing import Any

from engine.carcassonne.geometry import Rotation
from engine.carcassonne.tiles import RotatedTile, TileDef

#: the rotations of each 4-bit rotation mask, in rotation order
ROTATIONS_OF_MASK: tuple[tuple[Rotation, ...], ...] = tuple(
    tuple(r for r in Rotation if m >> r & 1) for m in range(16)
)

_FITS: dict[str, tuple[tuple[Rotation, ...], ...]] = {}
#: the tables by the tile's four edge codes: tiles with the same edges share one table
_FITS_BY_EDGES: dict[tuple[int, ...], tuple[tuple[Rotation, ...], ...]] = {}


def fits_table(t: TileDef) -> tuple[tuple[Rotation, ...], ...]:
    """For each 8-bit neighbour constraint code, the rotations of ``t`` that match it.

    Cached by tile id (hashing a whole TileDef would cost more than the lookup saves). The
    tables hold shared values: one per set of edges (many tiles have the same), each entry one
    of the 16 tuples of :data:`ROTATIONS_OF_MASK`, so a long game's caches stay a few hundred
    objects the garbage collector walks, not tens of thousands."""
    cached = _FITS.get(t.id)
    if cached is not None:
        return cached
    edges = tuple(rt.edge_code for rt in t.rotations)
    table = _FITS_BY_EDGES.get(edges)
    if table is None:
        masks = []
        for code in range(256):
            mask = 0
            for rt in t.rotations:
                ok = True
                for s in range(4):
                    need = code >> (2 * s) & 3
                    have = rt.edge_code >> (2 * s) & 3
                    if need and have and need != have:
                        ok = False
                        break
                if ok:
                    mask |= 1 << rt.rotation
            masks.append(ROTATIONS_OF_MASK[mask])
        table = _FITS_BY_EDGES[edges] = tuple(masks)
    _FITS[t.id] = table
    return table


_CANON: dict[str, tuple[Rotation, ...]] = {}
_OFFERED: dict[str, tuple[tuple[Rotation, ...], ...]] = {}
#: shared like the fits tables: by fits table (its identity) and canonical rotations
_OFFERED_BY_FITS: dict[tuple[Any, ...], tuple[tuple[Rotation, ...], ...]] = {}


def canonical_rotations(t: TileDef) -> tuple[Rotation, ...]:
    """For each rotation of ``t`` (by index), the first rotation that places the very same
    tile: the same edges, and the same features — kinds, the sides and half-edges they reach,
    their symbols, the cities a field borders — so the same follower spots with the same
    names. A straight road turned 180° is the road at 0°; a crossroads is the same at every
    turn. A tile with a direction of its own (``TileDef.directed``) is never turned into
    another rotation.
    """
    cached = _CANON.get(t.id)
    if cached is not None:
        return cached
    seen: dict[tuple[Any, ...], Rotation] = {}
    out = []
    for rt in t.rotations:
        sig = _signature(rt) if not t.directed else (rt.rotation,)
        out.append(seen.setdefault(sig, Rotation(rt.rotation)))
    _CANON[t.id] = tuple(out)
    return _CANON[t.id]


def _signature(rt: RotatedTile) -> tuple[Any, ...]:
    """What a placed rotation of a tile is, in the board frame, whatever its rotation number."""
    feats = rt.tile.features
    by_name = {f.name: f.index for f in feats}

    def own(i: int) -> tuple[Any, ...]:
        f = feats[i]
        return (
            f.kind.value,
            rt.sides[i],
            rt.halves[i],
            f.inner,
            f.pennants,
            f.symbols,
            f.tunnel,
            f.well,
            f.overpass,
        )

    def whole(i: int) -> tuple[Any, ...]:
        f = feats[i]
        ends = f.ends if f.ends not in by_name else own(by_name[f.ends])
        return (*own(i), ends, tuple(sorted(own(c) for c in f.cities)))

    return (rt.edge_code, tuple(sorted(whole(f.index) for f in feats)))


def offered_table(t: TileDef) -> tuple[tuple[Rotation, ...], ...]:
    """:func:`fits_table` with one rotation of each set of identical ones (the first): what a
    player is offered. Every rotation in :func:`fits_table` stays legal (old records and
    JCloisterZone saves name any of them)."""
    cached = _OFFERED.get(t.id)
    if cached is not None:
        return cached
    canon = canonical_rotations(t)
    key = (fits_table(t), canon)
    table = _OFFERED_BY_FITS.get(key)
    if table is None:
        table = _OFFERED_BY_FITS[key] = tuple(
            ROTATIONS_OF_MASK[sum(1 << r for r in rots if canon[r] == r)] for rots in key[0]
        )
    _OFFERED[t.id] = table
    return table


_MASKS: dict[str, tuple[int, ...]] = {}


def offered_masks(t: TileDef) -> tuple[int, ...]:
    """:func:`offered_table` as 4-bit masks of rotations (bit ``r`` for rotation ``r``)."""
    cached = _MASKS.get(t.id)
    if cached is None:
        cached = _MASKS[t.id] = tuple(sum(1 << r for r in rots) for rots in offered_table(t))
    return cached
