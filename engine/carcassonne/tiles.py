"""Tile types as data: loading, validation and pre-rotated forms.

Every land tile of every expansion lives in ``data/tiles/<set>.toml`` (one file per expansion, two
for the two Crop Circle sets). :func:`load_tile_set` parses and validates a file; any defect raises
:class:`~engine.core.errors.TileDataError` naming the file, the tile id and the reason.
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
    """What crosses a tile edge; ``ABBEY`` matches anything and joins nothing."""

    CITY = "C"
    ROAD = "R"
    FIELD = "F"
    ABBEY = "A"


#: Expected number of land tiles per set (counts in TILES.md and RULES.md §16).
SET_COUNTS: dict[str, int] = {
    "base": 72,
    "inns_cathedrals": 18,
    "traders_builders": 24,
    "flying_machines": 8,
    "ferries": 8,
    "gold_mines": 8,
    "mage_witch": 8,
    "robbers": 8,
    "crop_circles_1": 6,
    "crop_circles_2": 6,
    "bridges_castles_bazaars": 12,
    "abbey_mayor": 12,
}
#: Abbey tiles are held by players, not shuffled into the pile.
HELD_COUNTS: dict[str, int] = {"abbey_mayor": 6}

GOODS = ("wine", "grain", "cloth")
FLIER_DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
CROP_CIRCLE_KINDS = ("shield", "club", "pitchfork")


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
    cathedral: bool = False
    goods: str | None = None
    inn: bool = False
    tunnel: bool = False
    well: bool = False
    #: this road/city passes over another feature of the tile on a printed bridge
    bridge: bool = False
    no_castle: bool = False
    ends: str | None = None
    inner: int = 0

    #: counted modifiers this feature brings to its merged feature (inn, cathedral, goods)
    mods: dict[str, int] = field(default_factory=dict, compare=False)


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
    abbey: bool = False
    flier: str | None = None
    gold: bool = False
    mage: bool = False
    robber: bool = False
    crop_circle: str | None = None
    lake: bool = False
    bazaar: bool = False
    notes: str = ""
    rotations: tuple[RotatedTile, ...] = field(default=(), compare=False, repr=False)

    @property
    def has_cloister(self) -> bool:
        return any(f.kind is FeatureKind.CLOISTER for f in self.features)

    def rotated(self, rotation: int) -> RotatedTile:
        return self.rotations[rotation]


@dataclass(frozen=True, slots=True)
class RotatedTile:
    """A tile type turned by a rotation, with lookup tables in the board frame.

    ``edge_code`` packs the four edge kinds (2 bits each, N lowest) for fast matching:
    city 1, road 2, field 3, abbey 0 (matches anything).
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


EDGE_CODES = {EdgeKind.CITY: 1, EdgeKind.ROAD: 2, EdgeKind.FIELD: 3, EdgeKind.ABBEY: 0}


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
    "flier",
    "gold",
    "mage",
    "robber",
    "crop_circle",
    "lake",
    "bazaar",
    "notes",
    "abbey",
    "in_pile",
}
_CITY_KEYS = {"name", "sides", "pennants", "cathedral", "goods", "no_castle", "bridge"}
_ROAD_KEYS = {"name", "sides", "ends", "inn", "tunnel", "well", "bridge"}
_FIELD_KEYS = {"name", "halves", "cities", "inner"}


def _parse_tile(raw: dict[str, Any], set_id: str) -> TileDef:
    unknown = set(raw) - _TILE_KEYS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}")
    edge_text = str(raw["edges"])
    if len(edge_text) != 4 or any(c not in "CRFA" for c in edge_text):
        raise ValueError(f"edges must be 4 letters of C/R/F/A, got '{edge_text}'")
    edges = tuple(EdgeKind(c) for c in edge_text)
    feats: list[FeatureDef] = []
    names: dict[str, int] = {}

    def add(name: str, **kw: Any) -> None:
        if name in names:
            raise ValueError(f"feature name '{name}' used twice")
        names[name] = len(feats)
        mods = {}
        if kw.get("inn"):
            mods["inn"] = 1
        if kw.get("cathedral"):
            mods["cathedral"] = 1
        if kw.get("goods"):
            mods[kw["goods"]] = 1
        feats.append(FeatureDef(index=len(feats), name=name, mods=mods, **kw))

    for c in raw.get("cities", []):
        if set(c) - _CITY_KEYS:
            raise ValueError(f"city {c.get('name')}: unknown keys {sorted(set(c) - _CITY_KEYS)}")
        goods = c.get("goods")
        if goods is not None and goods not in GOODS:
            raise ValueError(f"city {c['name']}: unknown goods '{goods}'")
        add(
            c["name"],
            kind=FeatureKind.CITY,
            sides=_mask_from_names(c["sides"], SIDE_NAMES, "side"),
            pennants=int(c.get("pennants", 0)),
            cathedral=bool(c.get("cathedral", False)),
            goods=goods,
            no_castle=bool(c.get("no_castle", False)),
            bridge=bool(c.get("bridge", False)),
        )
    for r in raw.get("roads", []):
        if set(r) - _ROAD_KEYS:
            raise ValueError(f"road {r.get('name')}: unknown keys {sorted(set(r) - _ROAD_KEYS)}")
        add(
            r["name"],
            kind=FeatureKind.ROAD,
            sides=_mask_from_names(r["sides"], SIDE_NAMES, "side"),
            ends=r.get("ends"),
            inn=bool(r.get("inn", False)),
            tunnel=bool(r.get("tunnel", False)),
            well=bool(r.get("well", False)),
            bridge=bool(r.get("bridge", False)),
        )
    pending_fields = []
    for f in raw.get("fields", []):
        if set(f) - _FIELD_KEYS:
            raise ValueError(f"field {f.get('name')}: unknown keys {sorted(set(f) - _FIELD_KEYS)}")
        pending_fields.append(f)
        add(
            f["name"],
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
        old = feats[idx]
        feats[idx] = FeatureDef(
            index=idx,
            name=old.name,
            kind=old.kind,
            halves=old.halves,
            cities=tuple(cities),
            inner=old.inner,
        )
    if raw.get("cloister"):
        add("m1", kind=FeatureKind.CLOISTER)

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
        elif kind is EdgeKind.ABBEY:
            if on_cities or roads or halves_here:
                raise ValueError(f"abbey edge {sname} carries features")
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
    flier = raw.get("flier")
    if flier is not None and flier not in FLIER_DIRECTIONS:
        raise ValueError(f"unknown flier direction '{flier}'")
    crop = raw.get("crop_circle")
    if crop is not None and crop not in CROP_CIRCLE_KINDS:
        raise ValueError(f"unknown crop circle '{crop}'")
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
        abbey=bool(raw.get("abbey", False)),
        flier=flier,
        gold=bool(raw.get("gold", False)),
        mage=bool(raw.get("mage", False)),
        robber=bool(raw.get("robber", False)),
        crop_circle=crop,
        lake=bool(raw.get("lake", False)),
        bazaar=bool(raw.get("bazaar", False)),
        notes=str(raw.get("notes", "")),
    )
    object.__setattr__(tile, "rotations", _build_rotations(tile))
    return tile


def parse_tile_set(
    text: str, *, source: str, expected: int | None = None, expected_held: int = 0
) -> tuple[TileDef, ...]:
    """Parse and validate one tile-set file's text.

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
    tiles: list[TileDef] = []
    seen: set[str] = set()
    for raw in data.get("tile", []):
        tid = raw.get("id", "?")
        try:
            tile = _parse_tile(raw, set_id)
        except (KeyError, ValueError, TypeError) as e:
            reason = f"missing key {e}" if isinstance(e, KeyError) else str(e)
            raise TileDataError(f"{source}: tile {tid}: {reason}") from None
        if tile.id in seen:
            raise TileDataError(f"{source}: tile {tid}: id used twice")
        seen.add(tile.id)
        tiles.append(tile)
    in_pile = sum(t.count for t in tiles if t.in_pile)
    held = sum(t.count for t in tiles if not t.in_pile)
    if expected is not None and in_pile != expected:
        raise TileDataError(f"{source}: {in_pile} tiles in the pile, expected {expected}")
    if held != expected_held:
        raise TileDataError(f"{source}: {held} held tiles, expected {expected_held}")
    return tuple(tiles)


@cache
def load_tile_set(set_id: str) -> tuple[TileDef, ...]:
    """Load ``data/tiles/<set_id>.toml``, validated against :data:`SET_COUNTS`."""
    if set_id not in SET_COUNTS:
        raise TileDataError(f"unknown tile set '{set_id}'")
    path = resources.files("engine.carcassonne") / "data" / "tiles" / f"{set_id}.toml"
    return parse_tile_set(
        path.read_text(encoding="utf-8"),
        source=f"{set_id}.toml",
        expected=SET_COUNTS[set_id],
        expected_held=HELD_COUNTS.get(set_id, 0),
    )


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
    for set_id in SET_COUNTS:
        for t in load_tile_set(set_id):
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
