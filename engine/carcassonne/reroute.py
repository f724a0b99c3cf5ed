"""Features re-routed after placement: :meth:`Board.reconnect` (a ferry joining two road ends
of its lake, or moved to two others).

The union-find of :mod:`engine.carcassonne.board` only merges. A reconnection instead rebuilds
the features it touches from their segments: which segments meet across tile edges (exactly as
``Board.place`` and ``Board.extend`` join them) and which ones a tile's links join, with their
open ends, pennants, modifiers and bordering cities summed from the printed tiles. So a board
re-routed any number of times holds the features a board built with its final links would hold
(``tests/engine/test_reroute.py`` checks that property). Figures keep their segments; features
kept whole keep their representative.

Expansions that keep runtime data about a feature key it by segment, never by representative,
never change ``Feature.mods`` or ``pennants`` in place of the printed values (a rebuild reads
those from the tiles), and join features only through the board's methods (a link, not a bare
``union``), so that a rebuild knows every join.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.carcassonne.board import (
    _AROUND,
    _EMPTY,
    _FACING,
    _FIELD,
    _NO_CITIES,
    _SEALED,
    NO_FEATURE,
    Board,
    Feature,
    Meeple,
    PlacedTile,
    _position,
)
from engine.carcassonne.geometry import Position
from engine.carcassonne.tiles import FeatureKind


def reconnect(board: Board, pos: Position, groups: Iterable[Iterable[int]]) -> tuple[int, ...]:
    """:meth:`Board.reconnect` (see there)."""
    placed = board.cells[pos]
    defs = placed.rt.tile.features
    norm: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for group in groups:
        g = tuple(sorted(set(group)))
        if len(g) < 2 or not all(0 <= i < len(placed.segs) for i in g) or seen & set(g):
            raise ValueError(f"bad group {g} for the tile at {pos}")
        kind = defs[g[0]].kind
        if kind is FeatureKind.CLOISTER or any(defs[i].kind is not kind for i in g):
            raise ValueError(f"group {g} at {pos} mixes kinds or holds a cloister")
        seen.update(g)
        norm.append(g)
    touched = seen.union(*board.links.get(pos, ()))
    links = dict(board.links)  # replaced, never changed in place: clones share it
    if norm:
        links[pos] = tuple(sorted(norm))
    else:
        links.pop(pos, None)
    board.links = links
    if not touched:
        return ()
    return _rebuild(board, {board.root[placed.segs[i]] for i in touched})


def _rebuild(board: Board, reps: set[int]) -> tuple[int, ...]:
    """Rebuild the features ``reps`` from their segments, tile edges and links."""
    feats = board._feats()
    root, cells = board._own_root(), board.cells  # only root and features change
    olds = {r: feats[r] for r in sorted(reps)}
    where: dict[int, tuple[PlacedTile, int]] = {}
    for p in frozenset[Position]().union(*(f.tiles for f in olds.values())):
        placed = cells[p]
        for i, sg in enumerate(placed.segs):
            where[sg] = (placed, i)
    mine = [sg for f in olds.values() for sg in f.segs]
    inside = set(mine)
    comp: dict[int, int] = {}  # segment -> index of its new feature
    parts: list[list[int]] = []
    for start in mine:
        if start in comp:
            continue
        comp[start] = len(parts)
        part, todo = [start], [start]
        while todo:
            for nb in _joined(board, *where[todo.pop()]):
                if nb not in comp:
                    assert nb in inside, "a segment joins a feature outside the rebuild"
                    comp[nb] = comp[start]
                    part.append(nb)
                    todo.append(nb)
        parts.append(part)
    out = []
    for k, part in enumerate(parts):
        kept = [r for r in olds if comp[r] == k]
        rep = max(kept, key=lambda r: (len(olds[r].segs), -r)) if kept else min(part)
        out.append(rep)
        meeples = tuple(m for f in olds.values() for m in f.meeples if comp[m.seg] == k)
        done = all(f.done for f in olds.values() if any(comp[sg] == k for sg in f.segs))
        feats[rep] = _feature(board, part, where, meeples, done)
        for sg in part:
            root[sg] = rep
    for r in olds:
        if r not in out:
            feats[r] = NO_FEATURE
    return tuple(sorted(out))


def _joined(board: Board, placed: PlacedTile, i: int) -> Iterator[int]:
    """The segments feature ``i`` of ``placed`` is joined to: across its edges (as
    ``Board.place`` and ``Board.extend`` join them) and by its tile's links."""
    rt = placed.rt
    x, y = placed.pos
    for side, dx, dy, opp in _AROUND:
        other = board.cells.get(_position((x + dx, y + dy)))
        if other is None or rt.edges[side] is _SEALED or other.rt.edges[opp] is _SEALED:
            continue
        ekind = rt.edges[side]
        if rt.side_feature[side] == i and ekind is not _FIELD and ekind is other.rt.edges[opp]:
            yield other.segs[other.rt.side_feature[opp]]
        for h in (2 * side, 2 * side + 1):
            if rt.half_feature[h] == i and other.rt.half_feature[_FACING[h]] >= 0:
                yield other.segs[other.rt.half_feature[_FACING[h]]]
    for group in board.links.get(placed.pos, ()):
        if i in group:
            yield from (placed.segs[j] for j in group if j != i)


def _open_ends(board: Board, placed: PlacedTile, i: int) -> int:
    """Road or city ends of feature ``i`` of ``placed`` left open, as ``Board.place`` leaves
    them: facing an empty cell, or a placed edge of another kind."""
    rt = placed.rt
    x, y = placed.pos
    n = 0
    for side, dx, dy, opp in _AROUND:
        if not rt.sides[i] >> side & 1:
            continue
        other = board.cells.get(_position((x + dx, y + dy)))
        if other is None:
            n += 1
        elif rt.edges[side] is not _SEALED and other.rt.edges[opp] is not _SEALED:
            n += rt.edges[side] is not other.rt.edges[opp]
    return n


def _feature(
    board: Board,
    part: list[int],
    where: dict[int, tuple[PlacedTile, int]],
    meeples: tuple[Meeple, ...],
    done: bool,
) -> Feature:
    """The feature made of the segments ``part``, from what their tiles print."""
    first, fi = where[part[0]]
    kind = first.rt.starts[fi][1]
    open_ = pennants = 0
    mods: dict[str, int] = {}
    cities: set[int] = set()
    for sg in part:
        placed, i = where[sg]
        _, _, _, pen, fmods, fcities = placed.rt.starts[i]
        if kind is FeatureKind.ROAD or kind is FeatureKind.CITY:
            open_ += _open_ends(board, placed, i)
        pennants += pen
        for key, v in fmods.items():
            mods[key] = mods.get(key, 0) + v
        cities.update(placed.segs[c] for c in fcities)
    return Feature(
        kind,
        tuple(part),
        frozenset(where[sg][0].pos for sg in part),
        open_,
        pennants,
        meeples,
        frozenset(cities) if cities else _NO_CITIES,
        mods or _EMPTY,
        done,
    )
