"""Tile types as data: loading, validation and pre-rotated forms.

Every land tile of every expansion lives in ``data/tiles/<set>.toml`` (one file per expansion, two
for the two Crop Circle sets). :func:`load_tile_set` parses and validates a file; any defect raises
:class:`~engine.core.errors.TileDataError` naming the file, the tile id and the reason.

The core knows roads, cities, fields, cloisters, pennants and the printed road and city art
(ends, tunnels, wells, overpasses). Everything else printed on a tile is a *symbol*: an open set
that each tile file declares in its ``[symbols.<key>]`` tables (where it may stand, its values,
whether it counts on its feature) and that the expansion owning it interprets
(``TileDef.symbol(key)``, ``FeatureDef.symbol(key)``). The sets themselves are the files present
(:func:`tile_sets`): deleting an expansion's file deletes its tiles. Reading a file's TOML into
these types is :mod:`engine.carcassonne.tilefile`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from importlib import resources

from engine.carcassonne.geometry import (
    HALF_NAMES,
    SIDE_NAMES,
    rotate_half_mask,
    rotate_side_mask,
)
from engine.core.errors import TileDataError


class FeatureKind(StrEnum):
    """What a part of a tile is; the value is what players and records read."""

    CITY = "city"
    ROAD = "road"
    FIELD = "field"
    CLOISTER = "cloister"


class EdgeKind(StrEnum):
    """What crosses a tile edge. ``SEALED`` (the letter ``A`` in tile files) matches anything,
    joins nothing and closes the road or city end it meets (RULES §14.1.4)."""

    CITY = "C"
    ROAD = "R"
    FIELD = "F"
    SEALED = "A"


#: a symbol's value: ``True`` for a flag (an inn), else one of its declared values (a good)
SymbolValue = str | bool
Symbols = tuple[tuple[str, SymbolValue], ...]


def _symbol(symbols: Symbols, key: str) -> SymbolValue | None:
    for k, v in symbols:
        if k == key:
            return v
    return None


@dataclass(frozen=True, slots=True)
class SymbolDef:
    """A symbol a tile file declares: where it stands (``tile`` or feature kinds), its values
    (none: a flag), whether it counts on its feature (a modifier named after the flag or the
    value, summed when features join: inns, goods), and whether it gives the tile a direction of
    its own (no rotation of the tile is another)."""

    key: str
    on: frozenset[str] = frozenset({"tile"})
    values: tuple[str, ...] = ()
    counts: bool = False
    directed: bool = False


@dataclass(frozen=True, slots=True)
class TileSetInfo:
    """A tile file's header: set id, box name, tiles in the pile and held out of it, its place
    among the sets, the names JCloisterZone gives its parts, and the symbols it declares."""

    id: str
    name: str
    count: int
    held: int = 0
    order: int = 0
    jcz: tuple[str, ...] = ()
    symbols: tuple[SymbolDef, ...] = ()


@dataclass(frozen=True, slots=True)
class FeatureDef:
    """One feature printed on a tile, in the tile's reference orientation.

    ``sides`` is a 4-bit mask (bit 0 = N, clockwise) of the edges a city or road reaches;
    ``halves`` an 8-bit mask of the half-edges a field touches; ``cities`` the indices (into the
    tile's feature tuple) of the cities a field borders.
    """

    index: int
    name: str
    kind: FeatureKind
    sides: int = 0
    halves: int = 0
    cities: tuple[int, ...] = ()
    pennants: int = 0
    tunnel: bool = False
    well: bool = False
    #: this road/city passes over another feature of the tile (printed)
    overpass: bool = False
    ends: str | None = None
    inner: int = 0
    #: the symbols printed on this feature, as declared by its tile file
    symbols: Symbols = ()

    #: counted modifiers this feature brings to its merged feature (from counting symbols)
    mods: dict[str, int] = field(default_factory=dict, compare=False)

    def symbol(self, key: str) -> SymbolValue | None:
        """The value of symbol ``key`` on this feature, or ``None``."""
        return _symbol(self.symbols, key)


@dataclass(frozen=True, slots=True)
class TileDef:
    """A tile type: its id, JCloisterZone alias, count, edges, features and symbols."""

    id: str
    set_id: str
    count: int
    edges: tuple[EdgeKind, EdgeKind, EdgeKind, EdgeKind]
    features: tuple[FeatureDef, ...]
    jcz: str | None = None
    start: bool = False
    in_pile: bool = True
    #: the symbols printed on the tile itself, as declared by its tile file
    symbols: Symbols = ()
    #: a symbol gives the tile a direction of its own: no rotation of it is another
    directed: bool = False
    notes: str = ""
    rotations: tuple[RotatedTile, ...] = field(default=(), compare=False, repr=False)
    #: :attr:`symbols` as a mapping (the first value of a key): a step asking whether the tile
    #: just placed carries its symbol reads it without a call
    symbol_map: dict[str, SymbolValue] = field(
        init=False, default_factory=dict, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        by_key: dict[str, SymbolValue] = {}
        for k, v in self.symbols:
            by_key.setdefault(k, v)
        object.__setattr__(self, "symbol_map", by_key)

    @property
    def has_cloister(self) -> bool:
        return any(f.kind is FeatureKind.CLOISTER for f in self.features)

    @property
    def sealed(self) -> bool:
        """Whether an edge of the tile is :attr:`EdgeKind.SEALED`."""
        return EdgeKind.SEALED in self.edges

    def symbol(self, key: str) -> SymbolValue | None:
        """The value of tile symbol ``key``, or ``None``."""
        return self.symbol_map.get(key)

    def rotated(self, rotation: int) -> RotatedTile:
        return self.rotations[rotation]


@dataclass(frozen=True, slots=True)
class RotatedTile:
    """A tile type turned by a rotation, with lookup tables in the board frame.

    ``edge_code`` packs the four edge kinds (2 bits each, N lowest) for fast matching:
    city 1, road 2, field 3, sealed 0 (matches anything).
    ``side_feature[s]`` is the feature index of the city/road on side ``s`` (or -1);
    ``half_feature[h]`` the field index on half-edge ``h`` (or -1).
    ``sides[i]`` / ``halves[i]`` are feature ``i``'s masks in the board frame.
    """

    tile: TileDef = field(repr=False)
    rotation: int
    edges: tuple[EdgeKind, EdgeKind, EdgeKind, EdgeKind]
    edge_code: int
    side_feature: tuple[int, int, int, int]
    half_feature: tuple[int, int, int, int, int, int, int, int]
    sides: tuple[int, ...]
    halves: tuple[int, ...]
    #: each feature's spot name in the board frame (``city:NW``, ``field:En.Wn``, ``cloister``)
    spots: tuple[str, ...] = ()
    #: what each feature starts as when the tile is placed, for the board's hot path:
    #: ``(index, kind, open ends, pennants, mods, bordered city indices)``
    starts: tuple[FeatureStart, ...] = ()
    #: the indices of its roads and cities (what a placement may complete), and of its
    #: cloisters (completed by the tiles around)
    closables: tuple[int, ...] = ()
    cloisters: tuple[int, ...] = ()


EDGE_CODES = {EdgeKind.CITY: 1, EdgeKind.ROAD: 2, EdgeKind.FIELD: 3, EdgeKind.SEALED: 0}


def _spot(f: FeatureDef, sides: int, halves: int) -> str:
    if f.kind is FeatureKind.CLOISTER:
        return "cloister"
    if f.kind is FeatureKind.FIELD:
        if halves == 0:
            return "field:inner" if f.inner <= 1 else f"field:inner{f.inner}"
        return "field:" + ".".join(HALF_NAMES[i] for i in range(8) if halves >> i & 1)
    return f"{f.kind.value}:" + "".join(SIDE_NAMES[i] for i in range(4) if sides >> i & 1)


FeatureStart = tuple[int, FeatureKind, int, int, dict[str, int], tuple[int, ...]]
_NO_MODS: dict[str, int] = {}


def _start(f: FeatureDef, sides: int) -> FeatureStart:
    if f.kind is FeatureKind.FIELD:
        return (f.index, f.kind, 0, 0, _NO_MODS, tuple(f.cities))
    if f.kind is FeatureKind.CLOISTER:
        return (f.index, f.kind, 0, 0, _NO_MODS, ())
    return (f.index, f.kind, sides.bit_count(), f.pennants, f.mods, ())


def build_rotations(tile: TileDef) -> tuple[RotatedTile, ...]:
    out = []
    for r in range(4):
        edges = tuple(tile.edges[(s - r) % 4] for s in range(4))
        code = 0
        for s in range(4):
            code |= EDGE_CODES[edges[s]] << (2 * s)
        sides = tuple(rotate_side_mask(f.sides, r) for f in tile.features)
        halves = tuple(rotate_half_mask(f.halves, r) for f in tile.features)
        side_feature = [-1, -1, -1, -1]
        half_feature = [-1] * 8
        for f in tile.features:
            for s in range(4):
                if sides[f.index] >> s & 1:
                    side_feature[s] = f.index
            for h in range(8):
                if halves[f.index] >> h & 1:
                    half_feature[h] = f.index
        out.append(
            RotatedTile(
                tile=tile,
                rotation=r,
                edges=edges,  # type: ignore[arg-type]
                edge_code=code,
                side_feature=tuple(side_feature),  # type: ignore[arg-type]
                half_feature=tuple(half_feature),  # type: ignore[arg-type]
                sides=sides,
                halves=halves,
                spots=tuple(_spot(f, sides[f.index], halves[f.index]) for f in tile.features),
                starts=tuple(_start(f, sides[f.index]) for f in tile.features),
                closables=tuple(
                    f.index
                    for f in tile.features
                    if f.kind is FeatureKind.ROAD or f.kind is FeatureKind.CITY
                ),
                cloisters=tuple(f.index for f in tile.features if f.kind is FeatureKind.CLOISTER),
            )
        )
    return tuple(out)


_DATA = resources.files("engine.carcassonne") / "data" / "tiles"


@cache
def _load(set_id: str) -> tuple[TileSetInfo, tuple[TileDef, ...]]:
    path = _DATA / f"{set_id}.toml"
    if not path.is_file():
        raise TileDataError(f"unknown tile set '{set_id}'")
    from engine.carcassonne.tilefile import parse_tile_file

    return parse_tile_file(path.read_text(encoding="utf-8"), source=f"{set_id}.toml")


@cache
def tile_sets() -> tuple[TileSetInfo, ...]:
    """Every tile file present, in their ``order``: the base game and each expansion's sets."""
    ids = [p.name[: -len(".toml")] for p in _DATA.iterdir() if p.name.endswith(".toml")]
    return tuple(sorted((_load(i)[0] for i in ids), key=lambda s: (s.order, s.id)))


def tile_set(set_id: str) -> TileSetInfo:
    """The header of ``data/tiles/<set_id>.toml``.

    Raises:
        TileDataError: for a set that has no file.
    """
    return _load(set_id)[0]


def load_tile_set(set_id: str) -> tuple[TileDef, ...]:
    """The tiles of ``data/tiles/<set_id>.toml``, validated against its header's counts.

    Raises:
        TileDataError: for a set that has no file, or a defect in it.
    """
    return _load(set_id)[1]


_LAID: dict[tuple[str, tuple[FeatureDef, ...]], TileDef] = {}


def with_features(t: TileDef, extra: tuple[FeatureDef, ...]) -> TileDef:
    """``t`` with roads or cities laid on it after printing (a wooden bridge): the same tile id,
    the printed features unchanged and ``extra`` appended (indexed after them), and the edges
    they reach turned into their kind. Fields keep their half-edges: they go on underneath.

    Front ends draw the printed tile (its id); the expansion that laid the features draws them.
    Cached, so a board holds one object per laid variant.
    """
    key = (t.id, extra)
    got = _LAID.get(key)
    if got is not None and got.features[: len(t.features)] == t.features:
        return got
    edges = list(t.edges)
    feats = list(t.features)
    for i, f in enumerate(extra):
        if f.kind not in (FeatureKind.ROAD, FeatureKind.CITY):
            raise TileDataError(f"tile {t.id}: only roads and cities can be laid on a tile")
        feats.append(replace(f, index=len(t.features) + i))
        kind = EdgeKind.ROAD if f.kind is FeatureKind.ROAD else EdgeKind.CITY
        for s in range(4):
            if f.sides >> s & 1:
                edges[s] = kind
    derived = replace(t, features=tuple(feats), edges=tuple(edges))  # type: ignore[arg-type]
    object.__setattr__(derived, "rotations", build_rotations(derived))
    if len(_LAID) > 4096:
        _LAID.clear()
    _LAID[key] = derived
    return derived


@cache
def all_tiles() -> dict[str, TileDef]:
    """Every tile type of every set, by id."""
    out: dict[str, TileDef] = {}
    for info in tile_sets():
        for t in load_tile_set(info.id):
            out[t.id] = t
    return out


@cache
def jcz_aliases() -> dict[str, TileDef]:
    """Tile types by JCloisterZone id, in both the 4.x (``BA.C``) and 5.x (``BA/C``) forms."""
    out: dict[str, TileDef] = {}
    for t in all_tiles().values():
        if t.jcz:
            out[t.jcz] = t
            out[t.jcz.replace(".", "/", 1)] = t
    return out


def tile(tile_id: str) -> TileDef:
    """Look a tile type up by our id or a JCloisterZone alias.

    Raises:
        TileDataError: for an unknown id.
    """
    t = all_tiles().get(tile_id) or jcz_aliases().get(tile_id)
    if t is None:
        raise TileDataError(f"unknown tile '{tile_id}'")
    return t
