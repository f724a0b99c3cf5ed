"""Tile types as data: loading, validation and pre-rotated forms.

Every land tile of every expansion lives in ``data/tiles/<set>.toml`` (one file per expansion, two
for the two Crop Circle sets). :func:`load_tile_set` parses and validates a file; any defect raises
:class:`~engine.core.errors.TileDataError` naming the file, the tile id and the reason.

The core knows roads, cities, fields, cloisters, pennants and the printed road and city art
(ends, tunnels, wells, overpasses). Everything else printed on a tile is a *symbol*: an open set
that each tile file declares in its ``[symbols.<key>]`` tables (where it may stand, its values,
whether it counts on its feature) and that the expansion owning it interprets
(``TileDef.symbol(key)``, ``FeatureDef.symbol(key)``). The sets themselves are the files present
(:func:`tile_sets`): deleting an expansion's file deletes its tiles.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

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

    @property
    def has_cloister(self) -> bool:
        return any(f.kind is FeatureKind.CLOISTER for f in self.features)

    @property
    def sealed(self) -> bool:
        """Whether an edge of the tile is :attr:`EdgeKind.SEALED`."""
        return EdgeKind.SEALED in self.edges

    def symbol(self, key: str) -> SymbolValue | None:
        """The value of tile symbol ``key``, or ``None``."""
        return _symbol(self.symbols, key)

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


def _mask_from_names(text: str, names: tuple[str, ...], what: str) -> int:
    mask = 0
    for part in text.replace("+", " ").replace("-", " ").split():
        if part not in names:
            raise ValueError(f"unknown {what} '{part}'")
        bit = 1 << names.index(part)
        if mask & bit:
            raise ValueError(f"{what} '{part}' listed twice")
        mask |= bit
    return mask


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


def _build_rotations(tile: TileDef) -> tuple[RotatedTile, ...]:
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


_TILE_KEYS = {
    "id",
    "jcz",
    "count",
    "edges",
    "start",
    "cities",
    "roads",
    "fields",
    "cloister",
    "notes",
    "in_pile",
}
_CITY_KEYS = {"name", "sides", "pennants", "overpass"}
_ROAD_KEYS = {"name", "sides", "ends", "tunnel", "well", "overpass"}
_FIELD_KEYS = {"name", "halves", "cities", "inner"}
_SYMBOL_KEYS = {"on", "values", "counts", "directed"}
_PLACES = {"tile", "city", "road", "field", "cloister"}


def _symbol_defs(raw: Any) -> dict[str, SymbolDef]:
    """The ``[symbols.<key>]`` tables of a tile file."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ValueError("'symbols' must be a table of tables")
    out = {}
    for key, spec in raw.items():
        if not isinstance(spec, dict) or set(spec) - _SYMBOL_KEYS:
            raise ValueError(f"symbol '{key}': expected a table with keys {sorted(_SYMBOL_KEYS)}")
        on = frozenset(spec.get("on", ["tile"]))
        if not on or on - _PLACES or ("tile" in on and len(on) > 1):
            raise ValueError(f"symbol '{key}': 'on' is 'tile' or feature kinds, got {sorted(on)}")
        values = tuple(str(v) for v in spec.get("values", ()))
        if key in _TILE_KEYS | _CITY_KEYS | _ROAD_KEYS | _FIELD_KEYS:
            raise ValueError(f"symbol '{key}' has the name of a tile key")
        out[key] = SymbolDef(
            key,
            on,
            values,
            bool(spec.get("counts", False)),
            bool(spec.get("directed", False)),
        )
    return out


def _read_symbols(
    raw: dict[str, Any], known: set[str], declared: dict[str, SymbolDef], place: str, what: str
) -> Symbols:
    """The symbols in ``raw`` (a tile or feature table); other keys outside ``known`` are errors."""
    out: list[tuple[str, SymbolValue]] = []
    for key in raw:
        if key in known:
            continue
        sym = declared.get(key)
        if sym is None:
            raise ValueError(f"{what}: unknown keys {sorted(set(raw) - known - set(declared))}")
        if place not in sym.on:
            raise ValueError(f"{what}: symbol '{key}' cannot stand on a {place}")
        value = raw[key]
        if sym.values:
            if value not in sym.values:
                raise ValueError(f"{what}: unknown {key} '{value}'")
            out.append((key, str(value)))
        elif value is True:
            out.append((key, True))
        elif value is not False:
            raise ValueError(f"{what}: symbol '{key}' is true or false")
    return tuple(out)


def _mods(symbols: Symbols, declared: dict[str, SymbolDef]) -> dict[str, int]:
    mods: dict[str, int] = {}
    for key, value in symbols:
        if declared[key].counts:
            name = key if value is True else str(value)
            mods[name] = mods.get(name, 0) + 1
    return mods


def _parse_tile(raw: dict[str, Any], set_id: str, declared: dict[str, SymbolDef]) -> TileDef:
    tile_symbols = _read_symbols(raw, _TILE_KEYS, declared, "tile", "tile")
    edge_text = str(raw["edges"])
    if len(edge_text) != 4 or any(c not in "CRFA" for c in edge_text):
        raise ValueError(f"edges must be 4 letters of C/R/F/A, got '{edge_text}'")
    edges = tuple(EdgeKind(c) for c in edge_text)
    feats: list[FeatureDef] = []
    names: dict[str, int] = {}

    def add(name: str, raw_feature: dict[str, Any], known: set[str], **kw: Any) -> None:
        if name in names:
            raise ValueError(f"feature name '{name}' used twice")
        kind: FeatureKind = kw["kind"]
        symbols = _read_symbols(raw_feature, known, declared, kind.value, f"{kind.value} {name}")
        names[name] = len(feats)
        feats.append(
            FeatureDef(
                index=len(feats),
                name=name,
                symbols=symbols,
                mods=_mods(symbols, declared),
                **kw,
            )
        )

    for c in raw.get("cities", []):
        add(
            c["name"],
            c,
            _CITY_KEYS,
            kind=FeatureKind.CITY,
            sides=_mask_from_names(c["sides"], SIDE_NAMES, "side"),
            pennants=int(c.get("pennants", 0)),
            overpass=bool(c.get("overpass", False)),
        )
    for r in raw.get("roads", []):
        add(
            r["name"],
            r,
            _ROAD_KEYS,
            kind=FeatureKind.ROAD,
            sides=_mask_from_names(r["sides"], SIDE_NAMES, "side"),
            ends=r.get("ends"),
            tunnel=bool(r.get("tunnel", False)),
            well=bool(r.get("well", False)),
            overpass=bool(r.get("overpass", False)),
        )
    pending_fields = []
    for f in raw.get("fields", []):
        pending_fields.append(f)
        add(
            f["name"],
            f,
            _FIELD_KEYS,
            kind=FeatureKind.FIELD,
            halves=_mask_from_names(f["halves"], HALF_NAMES, "half-edge"),
            inner=int(f.get("inner", 0)),
        )
    # resolve field -> city adjacency now that every city has an index
    for f in pending_fields:
        idx = names[f["name"]]
        cities = []
        for cname in f.get("cities", []):
            if cname not in names or feats[names[cname]].kind is not FeatureKind.CITY:
                raise ValueError(
                    f"field {f['name']} borders '{cname}', which is not a city on this tile"
                )
            cities.append(names[cname])
        feats[idx] = replace(feats[idx], cities=tuple(cities))
    if raw.get("cloister"):
        add("m1", {}, set(), kind=FeatureKind.CLOISTER)

    # edges agree with features
    for s, kind in enumerate(edges):
        on_cities = [f for f in feats if f.kind is FeatureKind.CITY and f.sides >> s & 1]
        roads = [f for f in feats if f.kind is FeatureKind.ROAD and f.sides >> s & 1]
        halves_here = [
            f for f in feats if f.kind is FeatureKind.FIELD and f.halves & (0b11 << 2 * s)
        ]
        sname = SIDE_NAMES[s]
        if kind is EdgeKind.CITY:
            if len(on_cities) != 1 or roads:
                raise ValueError(f"city edge {sname} must belong to exactly one city and no road")
            if halves_here:
                raise ValueError(f"city edge {sname} must not carry field half-edges")
        elif kind is EdgeKind.SEALED:
            if on_cities or roads or halves_here:
                raise ValueError(f"sealed edge {sname} carries features")
        else:
            if on_cities:
                raise ValueError(
                    f"{sname} is not a city edge but city {on_cities[0].name} reaches it"
                )
            if kind is EdgeKind.ROAD and len(roads) != 1:
                raise ValueError(f"road edge {sname} must belong to exactly one road")
            if kind is EdgeKind.FIELD and roads:
                raise ValueError(f"field edge {sname} has road {roads[0].name} on it")
            for h in (2 * s, 2 * s + 1):
                owners = [f for f in feats if f.kind is FeatureKind.FIELD and f.halves >> h & 1]
                if len(owners) != 1:
                    raise ValueError(
                        f"half-edge {HALF_NAMES[h]} must belong to exactly one field, "
                        f"found {len(owners)}"
                    )
    for f in feats:
        if f.kind in (FeatureKind.CITY, FeatureKind.ROAD) and f.sides == 0:
            raise ValueError(f"{f.kind.value} {f.name} reaches no edge")
    count = int(raw["count"])
    if count < 1:
        raise ValueError("count must be at least 1")
    tile = TileDef(
        id=str(raw["id"]),
        set_id=set_id,
        count=count,
        edges=edges,  # type: ignore[arg-type]
        features=tuple(feats),
        jcz=raw.get("jcz"),
        start=bool(raw.get("start", False)),
        in_pile=bool(raw.get("in_pile", True)),
        symbols=tile_symbols,
        directed=any(declared[k].directed for k, _ in tile_symbols),
        notes=str(raw.get("notes", "")),
    )
    object.__setattr__(tile, "rotations", _build_rotations(tile))
    return tile


def parse_tile_file(
    text: str, *, source: str, expected: int | None = None, expected_held: int | None = None
) -> tuple[TileSetInfo, tuple[TileDef, ...]]:
    """Parse and validate one tile file's text: its header and its tiles, whose pile and held
    counts must be the header's ``count`` and ``held`` (or ``expected`` and ``expected_held``
    when given).

    Raises:
        TileDataError: naming ``source``, the tile id and the reason.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise TileDataError(f"{source}: not valid TOML: {e}") from None
    set_id = data.get("set")
    if not isinstance(set_id, str):
        raise TileDataError(f"{source}: missing 'set' name")
    try:
        declared = _symbol_defs(data.get("symbols"))
        jcz = data.get("jcz_names", [])
        if not isinstance(jcz, list) or not all(isinstance(n, str) for n in jcz):
            raise ValueError("'jcz_names' must be a list of names")
        info = TileSetInfo(
            id=set_id,
            name=str(data.get("name", set_id)),
            count=int(data.get("count", -1)),
            held=int(data.get("held", 0)),
            order=int(data.get("order", 0)),
            jcz=tuple(jcz),
            symbols=tuple(declared.values()),
        )
    except (ValueError, TypeError) as e:
        raise TileDataError(f"{source}: {e}") from None
    tiles: list[TileDef] = []
    seen: set[str] = set()
    for raw in data.get("tile", []):
        tid = raw.get("id", "?")
        try:
            tile = _parse_tile(raw, set_id, declared)
        except (KeyError, ValueError, TypeError) as e:
            reason = f"missing key {e}" if isinstance(e, KeyError) else str(e)
            raise TileDataError(f"{source}: tile {tid}: {reason}") from None
        if tile.id in seen:
            raise TileDataError(f"{source}: tile {tid}: id used twice")
        seen.add(tile.id)
        tiles.append(tile)
    in_pile = sum(t.count for t in tiles if t.in_pile)
    held = sum(t.count for t in tiles if not t.in_pile)
    want = info.count if expected is None else expected
    want_held = info.held if expected_held is None else expected_held
    if want >= 0 and in_pile != want:
        raise TileDataError(f"{source}: {in_pile} tiles in the pile, expected {want}")
    if held != want_held:
        raise TileDataError(f"{source}: {held} held tiles, expected {want_held}")
    return replace(info, count=in_pile, held=held), tuple(tiles)


def parse_tile_set(
    text: str, *, source: str, expected: int | None = None, expected_held: int | None = None
) -> tuple[TileDef, ...]:
    """:func:`parse_tile_file`'s tiles.

    Raises:
        TileDataError: naming ``source``, the tile id and the reason.
    """
    return parse_tile_file(text, source=source, expected=expected, expected_held=expected_held)[1]


_DATA = resources.files("engine.carcassonne") / "data" / "tiles"


@cache
def _load(set_id: str) -> tuple[TileSetInfo, tuple[TileDef, ...]]:
    path = _DATA / f"{set_id}.toml"
    if not path.is_file():
        raise TileDataError(f"unknown tile set '{set_id}'")
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
    object.__setattr__(derived, "rotations", _build_rotations(derived))
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
