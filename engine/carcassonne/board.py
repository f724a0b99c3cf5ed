"""The board: placed tiles, the frontier of open cells, and features kept by union-find.

The board is the hot path of random play and AI search, so it is built for speed: plain dicts and
lists copied shallowly by :meth:`Board.clone`, and :class:`Feature` records that are never changed
in place (a change builds a new record), so a clone shares them safely with its parent.

Every printed feature of a placed tile gets a global *segment* id, numbered from 0 in the order
tiles are placed. ``root[seg]`` (a list indexed by segment) maps each segment to its feature's
representative segment, and ``features[rep]`` holds the merged feature. Merging relabels the
smaller feature's segments, so ``root`` is always one lookup. ``root`` and ``features`` are
lists indexed by segment rather than dicts because a placement copies them (copy on write): a
list copies a third of the bytes. ``features`` holds :data:`NO_FEATURE` at every segment that
is not a representative; :meth:`Board.iter_features` and :meth:`Board.live_features` skip it.
"""

from __future__ import annotations

import functools
from bisect import bisect_left, insort
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from engine.carcassonne.figures import FIGURES, is_follower
from engine.carcassonne.geometry import Position, facing_half
from engine.carcassonne.tiles import EdgeKind, FeatureKind, RotatedTile, TileDef
from engine.core.seats import Seat

_EMPTY: dict[str, int] = {}

#: Offsets of the eight cells around a cloister.
RING = ((-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


class Meeple(NamedTuple):
    """A figure standing on a feature: its owner, figure kind, segment and tile."""

    seat: Seat
    figure: str
    seg: int
    pos: Position


class PlacedTile(NamedTuple):
    """A tile on the board: where, which rotated form, and the segment id of each feature."""

    pos: Position
    rt: RotatedTile
    segs: tuple[int, ...]

    @property
    def tile(self) -> TileDef:
        return self.rt.tile


class Feature:
    """A merged road, city, field or cloister. Treated as immutable once stored in a board.

    ``open`` counts the road/city ends that still face an empty cell; a road or city is
    complete when it reaches 0. ``cities`` (fields only) holds the segments of the cities the
    field borders; resolve them through the board's ``root``. ``mods`` counts modifiers that
    expansions read (inn, cathedral, goods ...).
    """

    __slots__ = (
        "kind",
        "segs",
        "tiles",
        "open",
        "pennants",
        "meeples",
        "cities",
        "mods",
        "done",
        "_won",
    )

    def __init__(
        self,
        kind: FeatureKind,
        segs: tuple[int, ...],
        tiles: frozenset[Position],
        open_: int,
        pennants: int = 0,
        meeples: tuple[Meeple, ...] = (),
        cities: frozenset[int] = frozenset(),
        mods: dict[str, int] = _EMPTY,
        done: bool = False,
    ) -> None:
        self.kind = kind
        self.segs = segs
        self.tiles = tiles
        self.open = open_
        self.pennants = pennants
        self.meeples = meeples
        self.cities = cities
        self.mods = mods
        self.done = done
        #: :meth:`winners` memoised with what it was read from (its figures and shields)
        self._won: tuple[tuple[Meeple, ...], int, tuple[Seat, ...]] | None = None

    def copy(self) -> Feature:
        return Feature(
            self.kind,
            self.segs,
            self.tiles,
            self.open,
            self.pennants,
            self.meeples,
            self.cities,
            self.mods,
            self.done,
        )

    @property
    def complete(self) -> bool:
        """Roads and cities are complete with no open end; cloisters are set by the board."""
        return self.open == 0 and self.kind is not FeatureKind.FIELD

    def mod(self, key: str) -> int:
        return self.mods.get(key, 0)

    def neutrals(self) -> tuple[Meeple, ...]:
        """The neutral figures here (seat ``NEUTRAL``: a mage, a witch), for scoring hooks."""
        return tuple(m for m in self.meeples if m.seat < 0)

    def strength(self) -> dict[Seat, int]:
        """Majority strength per seat (figures that count, by their weight)."""
        out: dict[Seat, int] = {}
        for m in self.meeples:
            spec = FIGURES.get(m.figure)
            if spec is None:
                continue
            w = spec.strength if spec.strength_on is None else spec.strength_on(self)
            if w:
                out[m.seat] = out.get(m.seat, 0) + w
        return out

    def winners(self) -> tuple[Seat, ...]:
        """Seats with the most strength here (all tied seats), in seat order.

        Memoised: a feature is shared by many positions of a search and asked every time one
        is scored or evaluated. The memo holds while the figures (the same tuple) and shields
        it was read from stand (a figure's strength may depend on the shields: a mayor)."""
        won = self._won
        meeples = self.meeples
        if won is not None and won[0] is meeples and won[1] == self.pennants:
            return won[2]
        s = self.strength()
        if not s:
            out: tuple[Seat, ...] = ()
        else:
            best = max(s.values())
            out = tuple(sorted(seat for seat, v in s.items() if v == best))
        self._won = (meeples, self.pennants, out)
        return out


def has_follower(feature: Feature, seat: Seat) -> bool:
    """Whether ``seat`` has a follower (a figure that counts as one) on ``feature``."""
    for m in feature.meeples:  # noqa: SIM110 - a loop, not any(genexpr): asked per spot
        if m.seat == seat and is_follower(m.figure):
            return True
    return False


#: what :attr:`Board.features` holds at a segment that is not a representative (merged into
#: another feature): a feature with no segment, tile or figure, never read by rule code
NO_FEATURE = Feature(FeatureKind.FIELD, (), frozenset(), 0)


class _NorthFirst(dict[Position, int]):
    """The order cells are offered in, north first, then west first, as an int per cell
    (sorting by ints is twice as fast as by ``(y, x)`` tuples; a row holds 2**16 cells, far
    more than a board)."""

    def __missing__(self, pos: Position) -> int:
        if len(self) > 50_000:
            self.clear()
        key = self[pos] = (pos[1] << 16) + pos[0]
        return key


#: the sort key of a cell in :attr:`Board.order`
north_first = _NorthFirst().__getitem__


class _WestFirst(dict[Position, int]):
    """``(x, y)`` order (a Position's own) as an int per cell: sorts twice as fast."""

    def __missing__(self, pos: Position) -> int:
        if len(self) > 50_000:
            self.clear()
        key = self[pos] = (pos[0] << 16) + pos[1]
        return key


_west_first = _WestFirst().__getitem__


def sorted_cells(cells: Iterable[Position]) -> tuple[Position, ...]:
    """``tuple(sorted(cells))``, faster (where a scored feature lies, every scoring)."""
    return tuple(sorted(cells, key=_west_first))


#: ``Position((x, y))`` without NamedTuple's Python-level ``__new__`` (the placement hot path)
_position = functools.partial(tuple.__new__, Position)


class Board:
    """Placed tiles, open cells and features. See the module docstring for the model."""

    __slots__ = (
        "cells",
        "frontier",
        "order",
        "root",
        "features",
        "next_seg",
        "links",
        "_shared",
        "_rshared",
        "_fshared",
    )

    def __init__(self) -> None:
        self.cells: dict[Position, PlacedTile] = {}
        #: empty cell -> constraint code (2 bits per side: the edge kind it must match, 0 = any)
        self.frontier: dict[Position, int] = {}
        #: the frontier's cells north first, then west first (the order a player is offered
        #: them in), kept as tiles are placed rather than sorted on every turn
        self.order: list[Position] = []
        #: segment -> its feature's representative segment, for every segment given so far
        self.root: list[int] = []
        #: representative segment -> its feature; :data:`NO_FEATURE` at any other segment
        self.features: list[Feature] = []
        self.next_seg = 0
        #: features of one tile connected to each other after it was placed (a ferry joining
        #: two road ends), as groups of feature indices per tile (:meth:`reconnect`); replaced,
        #: never changed in place, so clones share it
        self.links: dict[Position, tuple[tuple[int, ...], ...]] = {}
        #: ``cells``, ``frontier`` and ``order`` may be shared with a clone (copy on write), and
        #: so may ``root`` and ``features``, each on its own: a feature change copies only
        #: ``features``, and re-routing a feature (a ferry) only ``root`` and ``features``
        self._shared = False
        self._rshared = False
        self._fshared = False

    def clone(self) -> Board:
        """An independent copy. Its dicts and lists are shared and copied by whichever board
        changes them first: ``cells``, ``frontier``, ``order`` and ``root`` together, when a
        tile is placed or extended (:meth:`place`, :meth:`extend`); ``root`` alone when
        features are merged or re-routed without a tile (:meth:`union`,
        :meth:`reconnect`); ``features`` on its own,
        by any change to a feature (a move that changes none, a pass or a bid, copies
        nothing). Code outside the board changes features only through its methods, and
        never keeps ``features`` in a local across a change."""
        b = Board.__new__(Board)
        b.cells = self.cells
        b.frontier = self.frontier
        b.order = self.order
        b.root = self.root
        b.features = self.features
        b._fshared = self._fshared = True
        b.next_seg = self.next_seg
        b.links = self.links
        b._shared = self._shared = True
        b._rshared = self._rshared = True
        return b

    def _own(self) -> None:
        """Copy the dictionaries shared with a clone before changing them."""
        self.cells = self.cells.copy()
        self.frontier = self.frontier.copy()
        self.order = self.order.copy()
        self._shared = False
        if self._rshared:
            self.root = self.root.copy()
            self._rshared = False

    def _own_root(self) -> list[int]:
        """``root``, copied first if a clone shares it (before any change to it)."""
        if self._rshared:
            self.root = self.root.copy()
            self._rshared = False
        return self.root

    def _feats(self) -> list[Feature]:
        """``features``, copied first if a clone shares it (before any change to it)."""
        if self._fshared:
            self.features = self.features.copy()
            self._fshared = False
        return self.features

    # ------------------------------------------------------------------ queries
    def feature_of(self, seg: int) -> Feature:
        return self.features[self.root[seg]]

    def feature_at(self, pos: Position, index: int) -> tuple[int, Feature]:
        """The representative segment and feature of feature ``index`` of the tile at ``pos``."""
        r = self.root[self.cells[pos].segs[index]]
        return r, self.features[r]

    def neighbours_count(self, pos: Position) -> int:
        """How many of the 8 cells around ``pos`` hold a tile."""
        x, y = pos
        cells = self.cells
        return sum(1 for dx, dy in RING if (x + dx, y + dy) in cells)

    def iter_features(self) -> Iterator[tuple[int, Feature]]:
        """Every feature with its representative segment, by representative."""
        return ((r, f) for r, f in enumerate(self.features) if f is not NO_FEATURE)

    def live_features(self) -> Iterator[Feature]:
        """Every feature on the board, by representative segment."""
        return (f for f in self.features if f is not NO_FEATURE)

    def meeples(self) -> Iterator[Meeple]:
        for f in self.features:
            if f.meeples:
                yield from f.meeples

    # ------------------------------------------------------------------ changes
    def _store(self, rep: int, feat: Feature) -> None:
        self._feats()[rep] = feat

    def union(self, a: int, b: int, closed: int = 0) -> int:
        """Merge the features of segments ``a`` and ``b``; return the surviving representative.
        ``closed``: road or city ends the join closes (2 where two tiles meet), taken off the
        merged feature's open ends in the same step (also when both are already one)."""
        root = self.root
        ra, rb = root[a], root[b]
        if ra == rb:
            if closed:
                features = self._feats()
                f = features[ra].copy()
                f.open -= closed
                features[ra] = f
            return ra
        if self._rshared:  # a merge changes only root and features
            root = self._own_root()
        features = self.features if not self._fshared else self._feats()
        fa, fb = features[ra], features[rb]
        if len(fa.segs) < len(fb.segs):
            ra, rb, fa, fb = rb, ra, fb, fa
        for s in fb.segs:
            root[s] = ra
        if fa.mods or fb.mods:
            mods = dict(fa.mods)
            for k, v in fb.mods.items():
                mods[k] = mods.get(k, 0) + v
        else:
            mods = _EMPTY
        features[ra] = Feature(
            fa.kind,
            fa.segs + fb.segs,
            fa.tiles | fb.tiles,
            fa.open + fb.open - closed,
            fa.pennants + fb.pennants,
            fa.meeples + fb.meeples,
            fa.cities | fb.cities if fb.cities else fa.cities,
            mods,
            fa.done or fb.done,
        )
        features[rb] = NO_FEATURE
        return ra

    def place(self, pos: Position, rt: RotatedTile) -> PlacedTile:
        """Put a tile on the board (legality is the caller's business) and merge features."""
        if self._shared:
            self._own()
        base = self.next_seg
        starts = rt.starts
        self.next_seg = base + len(starts)
        segs = tuple(range(base, self.next_seg))
        tiles = frozenset((pos,))
        feats = self._feats()
        self.root.extend(segs)  # each new segment its own representative
        # ``starts`` is in feature order, so each new feature is appended at its own segment
        for index, kind, open_, pennants, mods, cities in starts:
            seg = base + index
            feats.append(
                Feature(
                    kind,
                    (seg,),
                    tiles,
                    open_,
                    pennants,
                    (),
                    frozenset([base + c for c in cities]) if cities else _NO_CITIES,
                    mods,
                    False,
                )
            )
        placed = _placed((pos, rt, segs))
        cells = self.cells
        frontier = self.frontier
        cells[pos] = placed
        if frontier.pop(pos, None) is not None:
            order = self.order
            del order[bisect_left(order, north_first(pos), key=north_first)]
        x, y = pos
        edges = rt.edges
        for side, dx, dy, opp in _AROUND:
            npos = _position((x + dx, y + dy))
            other = cells.get(npos)
            ekind = edges[side]
            if other is None:
                code = frontier.get(npos)
                if code is None:
                    code = 0
                    insort(self.order, npos, key=north_first)
                frontier[npos] = code | (_EDGE_CODE[ekind] << (2 * opp))
                continue
            okind = other.rt.edges[opp]
            if ekind is _SEALED or okind is _SEALED:
                self._close_against_seal(placed, other, side)
                continue
            if ekind is not _FIELD and ekind is okind:
                self.union(segs[rt.side_feature[side]], other.segs[other.rt.side_feature[opp]], 2)
            for h in (2 * side, 2 * side + 1):
                fi = rt.half_feature[h]
                if fi >= 0:
                    oi = other.rt.half_feature[_FACING[h]]
                    if oi >= 0:
                        self.union(segs[fi], other.segs[oi])
        return placed

    def extend(self, pos: Position, rt: RotatedTile) -> PlacedTile:
        """Lay features on the tile at ``pos`` after it was placed (a wooden bridge): ``rt`` is
        its rotated tile with the new roads or cities appended (``tiles.with_features``). The
        new features get segments and join what they meet across their edges; the frontier
        follows the new edges. Legality (what the new edges meet) is the caller's business.
        """
        if self._shared:
            self._own()
        old = self.cells[pos]
        first = len(old.segs)
        base = self.next_seg
        added = rt.tile.features[first:]
        self.next_seg = base + len(added)
        segs = old.segs + tuple(range(base, base + len(added)))
        placed = PlacedTile(pos, rt, segs)
        self.cells[pos] = placed
        tiles = frozenset((pos,))
        self.root.extend(range(base, base + len(added)))
        feats = self._feats()
        feats.extend([NO_FEATURE] * len(added))
        for f in added:
            seg = segs[f.index]
            feats[seg] = Feature(
                f.kind, (seg,), tiles, rt.sides[f.index].bit_count(), f.pennants, mods=f.mods
            )
        x, y = pos
        for side, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            ekind = rt.edges[side]
            if ekind is old.rt.edges[side]:
                continue
            npos = Position(x + dx, y + dy)
            other = self.cells.get(npos)
            opp = (side + 2) % 4
            if other is None:
                if npos not in self.frontier:
                    insort(self.order, npos, key=north_first)
                code = self.frontier.get(npos, 0) & ~(3 << (2 * opp))
                self.frontier[npos] = code | (_EDGE_CODE[ekind] << (2 * opp))
            elif other.rt.edges[opp] is ekind:
                self.union(segs[rt.side_feature[side]], other.segs[other.rt.side_feature[opp]], 2)
        return placed

    def _close_against_seal(self, placed: PlacedTile, other: PlacedTile, side: int) -> None:
        """A sealed edge closes the road or city end that touches it."""
        for pt, s in ((placed, side), (other, (side + 2) % 4)):
            fi = pt.rt.side_feature[s]
            if fi >= 0:
                r = self.root[pt.segs[fi]]
                f = self.features[r].copy()
                f.open -= 1
                self._feats()[r] = f

    def set_feature(self, rep: int, feat: Feature) -> None:
        self._feats()[rep] = feat

    def move_meeple(self, meeple: Meeple, seg: int, pos: Position) -> Meeple:
        """Move a figure to segment ``seg`` of the tile at ``pos`` (a neutral figure going to
        another feature); return it as it now stands."""
        self.remove_meeples(self.root[meeple.seg], (meeple,))
        moved = Meeple(meeple.seat, meeple.figure, seg, pos)
        self.add_meeple(moved)
        return moved

    def neutral_figures(self) -> tuple[tuple[int, Meeple], ...]:
        """Every neutral figure on the board with its feature's representative segment."""
        return tuple((rep, m) for rep, f in self.iter_features() for m in f.meeples if m.seat < 0)

    def add_meeple(self, meeple: Meeple) -> None:
        r = self.root[meeple.seg]
        f = self.features[r].copy()
        f.meeples = f.meeples + (meeple,)
        self._feats()[r] = f

    def remove_meeples(self, rep: int, which: Iterable[Meeple] | None = None) -> tuple[Meeple, ...]:
        """Take figures off a feature (all owned ones by default: neutral figures stay until
        their expansion moves them); return those removed. ``which`` counts: of two equal
        figures side by side (a seat's two followers on one spot), listing one takes one."""
        f = self.features[rep].copy()
        if which is None:
            removed = tuple(m for m in f.meeples if m.seat >= 0)
            f.meeples = tuple(m for m in f.meeples if m.seat < 0)
        else:
            left = list(which)
            kept: list[Meeple] = []
            taken: list[Meeple] = []
            for m in f.meeples:
                if m in left:
                    left.remove(m)
                    taken.append(m)
                else:
                    kept.append(m)
            removed, f.meeples = tuple(taken), tuple(kept)
        self._feats()[rep] = f
        return removed

    # ------------------------------------------------------------------ re-routing
    def reconnect(self, pos: Position, groups: Iterable[Iterable[int]]) -> tuple[int, ...]:
        """Connect features of the tile at ``pos`` to each other after it was placed: each of
        ``groups`` (feature indices of that tile, of one kind: road, city or field) becomes
        one feature with whatever each member meets, and the tile's earlier groups are undone
        (``()`` undoes them all). A ferry joining two road ends of its lake, or moved to two
        others, is one call. The features touched are rebuilt from their segments; figures
        keep their segments; return the representatives of the rebuilt features.

        A rebuilt feature is ``done`` (scored) only when every part of it was: a scored road
        joined onto one that is not may complete and score again (RULES.md OQ-FER-3).

        Raises:
            ValueError: a group of fewer than two features, of mixed kinds, a cloister, an
                index the tile does not have, or a feature in two groups.
        """
        from engine.carcassonne.reroute import reconnect

        return reconnect(self, pos, groups)


_EDGE_CODE = {EdgeKind.CITY: 1, EdgeKind.ROAD: 2, EdgeKind.FIELD: 3, EdgeKind.SEALED: 0}
_FACING = tuple(facing_half(h) for h in range(8))
_SEALED = EdgeKind.SEALED
_FIELD = EdgeKind.FIELD
_NO_CITIES: frozenset[int] = frozenset()
#: each side with its step to the neighbour and the neighbour's facing side
_AROUND = ((0, 0, -1, 2), (1, 1, 0, 3), (2, 0, 1, 0), (3, -1, 0, 1))
#: ``PlacedTile((pos, rt, segs))`` without NamedTuple's Python-level ``__new__``
_placed = functools.partial(tuple.__new__, PlacedTile)
