"""Reading one tile file (``data/tiles/<set>.toml``): its header, its declared symbols and its
tiles, validated; any defect raises :class:`~engine.core.errors.TileDataError` naming the file,
the tile id and the reason. The types it builds live in :mod:`engine.carcassonne.tiles`.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from typing import Any

from engine.carcassonne.geometry import HALF_NAMES, SIDE_NAMES
from engine.carcassonne.tiles import (
    EdgeKind,
    FeatureDef,
    FeatureKind,
    SymbolDef,
    Symbols,
    SymbolValue,
    TileDef,
    TileSetInfo,
    build_rotations,
)
from engine.core.errors import TileDataError


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
    object.__setattr__(tile, "rotations", build_rotations(tile))
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
