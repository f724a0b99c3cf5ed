"""Tile data: every set's counts, the loader's validation, rotations, and TILES.md agreement."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.carcassonne.geometry import HALF_NAMES, SIDE_NAMES, Side
from engine.carcassonne.tilefile import parse_tile_set
from engine.carcassonne.tiles import (
    EdgeKind,
    FeatureKind,
    TileDef,
    all_tiles,
    load_tile_set,
    tile,
    tile_set,
    tile_sets,
)
from engine.core.errors import TileDataError

# ---------------------------------------------------------------------------- counts
#: RULES.md §16 and TILES.md "Counts and verification".
EXPECTED_COUNTS = {
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
EXPECTED_TYPES = {
    "base": 24,
    "inns_cathedrals": 17,
    "traders_builders": 24,
    "flying_machines": 8,
    "ferries": 3,
    "gold_mines": 8,
    "mage_witch": 8,
    "robbers": 6,
    "crop_circles_1": 6,
    "crop_circles_2": 6,
    "bridges_castles_bazaars": 11,
    "abbey_mayor": 12,
}


@pytest.mark.parametrize("set_id", sorted(EXPECTED_COUNTS))
def test_every_set_loads_with_its_rulebook_count(set_id: str) -> None:
    tiles = load_tile_set(set_id)
    in_pile = [t for t in tiles if t.in_pile]
    assert sum(t.count for t in in_pile) == EXPECTED_COUNTS[set_id]
    assert len(in_pile) == EXPECTED_TYPES[set_id]
    assert all(t.set_id == set_id for t in tiles)
    assert tile_set(set_id).count == EXPECTED_COUNTS[set_id]


def test_the_sets_are_the_tile_files_in_their_order() -> None:
    assert [s.id for s in tile_sets()] == list(EXPECTED_COUNTS)


def test_all_modules_hold_184_pile_tiles_with_one_crop_circle_set() -> None:
    total = sum(n for s, n in EXPECTED_COUNTS.items() if s != "crop_circles_2")
    assert total == 184


def test_abbey_mayor_holds_six_abbeys_out_of_the_pile() -> None:
    held = [t for t in load_tile_set("abbey_mayor") if not t.in_pile]
    assert [(t.id, t.count, t.symbol("abbey")) for t in held] == [("AM/A", 6, True)]
    assert {s.id: s.held for s in tile_sets() if s.held} == {"abbey_mayor": 6}
    (abbey,) = held
    assert abbey.edges == (EdgeKind.SEALED,) * 4 and abbey.sealed
    assert abbey.has_cloister and [f.kind for f in abbey.features] == [FeatureKind.CLOISTER]


def test_base_set_has_one_start_tile_type_and_ten_pennants() -> None:
    base = load_tile_set("base")
    assert [t.id for t in base if t.start] == ["BA/RCr"]
    pennants = sum(t.count * sum(f.pennants for f in t.features) for t in base)
    assert pennants == 10


def test_inns_cathedrals_has_six_inns_and_two_cathedrals() -> None:
    ic = load_tile_set("inns_cathedrals")
    inns = sum(t.count for t in ic for f in t.features if f.symbol("inn"))
    cathedrals = sum(t.count for t in ic for f in t.features if f.symbol("cathedral"))
    assert (inns, cathedrals) == (6, 2)


def test_traders_builders_goods_match_the_tokens() -> None:
    tiles = load_tile_set("traders_builders")
    goods = Counter(f.symbol("goods") for t in tiles for f in t.features)
    assert (goods["wine"], goods["grain"], goods["cloth"]) == (9, 6, 5)


def test_bazaars_on_eight_tiles() -> None:
    assert sum(t.count for t in load_tile_set("bridges_castles_bazaars") if t.symbol("bazaar")) == 8


def test_tile_lookup_by_jcz_alias_and_unknown_ids() -> None:
    assert tile("BA.RCr") is tile("BA/RCr")
    with pytest.raises(TileDataError, match="unknown tile 'BA/Nope'"):
        tile("BA/Nope")
    with pytest.raises(TileDataError, match="unknown tile set"):
        load_tile_set("nope")


# ---------------------------------------------------------------------------- validation
GOOD = """
set = "test"
[[tile]]
id = "T/Good"
count = 1
edges = "CRRF"
cities = [{ name = "c1", sides = "N" }]
roads = [{ name = "r1", sides = "E S" }]
fields = [
  { name = "f1", halves = "En Sw Ws Wn", cities = ["c1"] },
  { name = "f2", halves = "Es Se" },
]
"""


def test_a_good_snippet_parses() -> None:
    (t,) = parse_tile_set(GOOD, source="good.toml", expected=1)
    assert t.id == "T/Good" and t.set_id == "test"
    assert [f.kind for f in t.features] == [
        FeatureKind.CITY,
        FeatureKind.ROAD,
        FeatureKind.FIELD,
        FeatureKind.FIELD,
    ]
    assert t.features[2].cities == (0,)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # half-edge Sw in two fields
        (
            GOOD.replace('halves = "Es Se"', 'halves = "Es Se Sw"'),
            "half-edge Sw must belong to exactly one field, found 2",
        ),
        # half-edge Wn in no field
        (
            GOOD.replace('halves = "En Sw Ws Wn"', 'halves = "En Sw Ws"'),
            "half-edge Wn must belong to exactly one field, found 0",
        ),
        # a city edge with no city on it
        (GOOD.replace('edges = "CRRF"', 'edges = "CRRC"'), "city edge W must belong"),
        # a road on a field edge
        (GOOD.replace('sides = "E S"', 'sides = "E S W"'), "field edge W has road r1"),
        # a field bordering a city that does not exist
        (GOOD.replace('cities = ["c1"]', 'cities = ["c9"]'), "borders 'c9', which is not a city"),
        # a city reaching a non-city edge
        (GOOD.replace('sides = "N" }', 'sides = "N E" }'), "E is not a city edge"),
        # a bad edge letter
        (GOOD.replace('edges = "CRRF"', 'edges = "CRRX"'), "edges must be 4 letters"),
        # a bad half-edge name
        (GOOD.replace('"Es Se"', '"Es Xx"'), "unknown half-edge 'Xx'"),
        # a missing key
        (GOOD.replace("count = 1\n", ""), "missing key 'count'"),
        # a zero count
        (GOOD.replace("count = 1", "count = 0"), "count must be at least 1"),
        # an unknown key
        (GOOD.replace("count = 1", "count = 1\ncolour = 3"), "unknown keys ['colour']"),
    ],
)
def test_loader_rejects_broken_tiles_naming_file_tile_and_reason(text: str, reason: str) -> None:
    assert text != GOOD
    with pytest.raises(TileDataError) as err:
        parse_tile_set(text, source="broken.toml", expected=1)
    message = str(err.value)
    assert message.startswith("broken.toml: tile T/Good: "), message
    assert reason in message, message


def test_loader_rejects_a_wrong_count() -> None:
    with pytest.raises(TileDataError, match=r"^broken\.toml: 1 tiles in the pile, expected 2$"):
        parse_tile_set(GOOD, source="broken.toml", expected=2)


def test_loader_rejects_a_duplicate_id() -> None:
    with pytest.raises(TileDataError, match=r"^dup\.toml: tile T/Good: id used twice$"):
        parse_tile_set(GOOD + GOOD.replace('set = "test"', ""), source="dup.toml")


def test_loader_rejects_bad_toml_and_a_missing_set_name() -> None:
    with pytest.raises(TileDataError, match=r"^bad\.toml: not valid TOML"):
        parse_tile_set("[[tile]\n", source="bad.toml")
    with pytest.raises(TileDataError, match=r"^noset\.toml: missing 'set' name"):
        parse_tile_set(GOOD.replace('set = "test"', ""), source="noset.toml")


def test_symbols_are_what_the_file_declares() -> None:
    declared = GOOD.replace(
        "[[tile]]",
        '[symbols.inn]\non = ["road"]\ncounts = true\n\n'
        '[symbols.flier]\nvalues = ["N", "S"]\ndirected = true\n\n[[tile]]',
        1,
    )
    with_inn = declared.replace('sides = "E S" }', 'sides = "E S", inn = true }')
    (t,) = parse_tile_set(with_inn.replace("count = 1", 'count = 1\nflier = "S"'), source="s")
    road = next(f for f in t.features if f.kind is FeatureKind.ROAD)
    assert road.symbols == (("inn", True),) and road.mods == {"inn": 1}
    assert t.symbol("flier") == "S" and t.directed and t.symbol("gold") is None
    for text, reason in [
        (with_inn.replace('halves = "Es Se"', 'halves = "Es Se", inn = true'), "on a field"),
        (declared.replace("count = 1", 'count = 1\nflier = "E"'), "unknown flier 'E'"),
        (GOOD.replace('sides = "E S" }', 'sides = "E S", inn = true }'), "unknown keys ['inn']"),
    ]:
        with pytest.raises(TileDataError, match=re.escape(reason)):
            parse_tile_set(text, source="s")


def test_loader_checks_held_tiles() -> None:
    held = GOOD.replace("count = 1", "count = 1\nin_pile = false")
    with pytest.raises(TileDataError, match="1 held tiles, expected 0"):
        parse_tile_set(held, source="held.toml")
    assert parse_tile_set(held, source="held.toml", expected=0, expected_held=1)


# ---------------------------------------------------------------------------- rotation
def _half(name: str) -> int:
    return HALF_NAMES.index(name)


def _side_names(mask: int) -> set[str]:
    return {SIDE_NAMES[s] for s in range(4) if mask >> s & 1}


def _half_names(mask: int) -> set[str]:
    return {HALF_NAMES[h] for h in range(8) if mask >> h & 1}


#: TILES.md: turning 90° clockwise moves each half-edge two places along Nw Ne En Es Se Sw Ws Wn.
CW = {h: HALF_NAMES[(i + 2) % 8] for i, h in enumerate(HALF_NAMES)}
CW_SIDE = {"N": "E", "E": "S", "S": "W", "W": "N"}


def _turn_halves(names: set[str], quarter_turns: int) -> set[str]:
    for _ in range(quarter_turns):
        names = {CW[n] for n in names}
    return names


def _turn_sides(names: set[str], quarter_turns: int) -> set[str]:
    for _ in range(quarter_turns):
        names = {CW_SIDE[n] for n in names}
    return names


# Each tile's features in the reference orientation as TILES.md prints them.
ASYMMETRIC = {
    "BA/CRr": (
        "CRRF",
        [("city", {"N"}), ("road", {"E", "S"})],
        [({"En", "Sw", "Ws", "Wn"}, True), ({"Es", "Se"}, False)],
    ),
    "BA/RrC": (
        "CFRR",
        [("city", {"N"}), ("road", {"S", "W"})],
        [({"En", "Es", "Se", "Wn"}, True), ({"Sw", "Ws"}, False)],
    ),
    "IC/CcR": (
        "CRFC",
        [("city", {"N", "W"}), ("road", {"E"})],
        [({"En"}, True), ({"Es", "Se", "Sw"}, True)],
    ),
    "TB/RRC": (
        "CFRR",
        [("city", {"N"}), ("road", {"W"}), ("road", {"S"})],
        [({"Wn"}, True), ({"Sw", "Ws"}, False), ({"En", "Es", "Se"}, True)],
    ),
}


@pytest.mark.parametrize("tile_id", sorted(ASYMMETRIC))
@pytest.mark.parametrize("r", [0, 1, 2, 3])
def test_rotation_moves_sides_and_half_edges_clockwise(tile_id: str, r: int) -> None:
    edges, cities_roads, fields = ASYMMETRIC[tile_id]
    rt = tile(tile_id).rotated(r)
    # edges: the edge shown on side s came from side s - r
    want_edges = "".join(edges[(s - r) % 4] for s in range(4))
    assert "".join(e.value for e in rt.edges) == want_edges
    feats = rt.tile.features
    got_cr = sorted(
        (f.kind.value, sorted(_side_names(rt.sides[f.index])))
        for f in feats
        if f.kind in (FeatureKind.CITY, FeatureKind.ROAD)
    )
    want_cr = sorted((k, sorted(_turn_sides(s, r))) for k, s in cities_roads)
    assert got_cr == want_cr
    got_fields = sorted(
        (sorted(_half_names(rt.halves[f.index])), bool(f.cities))
        for f in feats
        if f.kind is FeatureKind.FIELD
    )
    want_fields = sorted((sorted(_turn_halves(h, r)), c) for h, c in fields)
    assert got_fields == want_fields
    # lookup tables agree with the masks
    for f in feats:
        for s in range(4):
            if rt.sides[f.index] >> s & 1:
                assert rt.side_feature[s] == f.index
        for h in range(8):
            if rt.halves[f.index] >> h & 1:
                assert rt.half_feature[h] == f.index


def test_named_half_edges_land_where_the_rotation_rule_says() -> None:
    # BA/CRr's small field Es+Se fills the SE corner inside the curve; each quarter turn moves
    # it to the next corner clockwise: SW (Sw+Ws), NW (Wn+Nw), NE (Ne+En)
    t = tile("BA/CRr")
    small = next(f for f in t.features if f.kind is FeatureKind.FIELD and f.halves.bit_count() == 2)
    got = [_half_names(t.rotated(r).halves[small.index]) for r in range(4)]
    assert got == [{"Es", "Se"}, {"Sw", "Ws"}, {"Wn", "Nw"}, {"Ne", "En"}]
    # IC/CcR's road leaves E; at r90 it leaves S, its lone En field becomes Se
    ic = tile("IC/CcR").rotated(1)
    road = next(f for f in ic.tile.features if f.kind is FeatureKind.ROAD)
    assert ic.side_feature[Side.S] == road.index
    assert ic.half_feature[_half("Se")] == ic.tile.features[2].index  # f1 = [En]


def test_every_rotation_of_every_tile_keeps_its_partition() -> None:
    # rotating never loses or duplicates an edge or half-edge
    for t in all_tiles().values():
        for r in range(4):
            rt = t.rotated(r)
            assert rt.rotation == r
            halves = 0
            for f in t.features:
                assert halves & rt.halves[f.index] == 0
                halves |= rt.halves[f.index]
                assert rt.halves[f.index].bit_count() == f.halves.bit_count()
                assert rt.sides[f.index].bit_count() == f.sides.bit_count()
            non_city = sum(2 for e in rt.edges if e in (EdgeKind.ROAD, EdgeKind.FIELD))
            assert halves.bit_count() == non_city, t.id


# ---------------------------------------------------------------------------- TILES.md
#: a byte copy of the shared TILES.md, kept in the repository so that these checks run on every
#: clone (copy it again when TILES.md changes)
TILES_MD = Path(__file__).resolve().parents[1] / "fixtures" / "TILES.md"


_ROW = re.compile(r"^\|\s*([A-Z]{2}(?:\.\d)?/[^|\s]+)\s*\|\s*(\d+)\s*\|\s*([CRF ]{7})\s*\|")
_CITY = re.compile(r"(c\d+)=C\[([NESW+]+)\]\s*(\(([^)]*)\))?")
_ROAD = re.compile(r"(r\d+)=R\[([NESW-]+)\]\s*(\(([^)]*)\))?")
_FIELD = re.compile(r"(f\d+)=\[([^\]]*)\](?:→([c\d,]+))?")


def _md_rows() -> list[list[str]]:
    rows = []
    for line in TILES_MD.read_text(encoding="utf-8").splitlines():
        if _ROW.match(line):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def _mask(names: list[str], table: tuple[str, ...]) -> int:
    m = 0
    for n in names:
        m |= 1 << table.index(n)
    return m


def _md_structure(
    row: list[str],
) -> tuple[Counter[tuple[int, int]], Counter[int], Counter[tuple[int, frozenset[int]]], bool]:
    """(cities: (sides, pennants), roads: sides, fields: (halves, bordered city sides), cloister)."""
    _, _, _, features, fields, symbols, _ = row
    cities: dict[str, tuple[int, int]] = {}
    for m in _CITY.finditer(features):
        pennants = re.search(r"(\d+) pennants?", m.group(4) or "")
        cities[m.group(1)] = (
            _mask(m.group(2).split("+"), SIDE_NAMES),
            int(pennants.group(1)) if pennants else 0,
        )
    roads = Counter(_mask(m.group(2).split("-"), SIDE_NAMES) for m in _ROAD.finditer(features))
    field_out: Counter[tuple[int, frozenset[int]]] = Counter()
    for m in _FIELD.finditer(fields):
        halves = m.group(2)
        mask = 0 if halves.startswith("inner") else _mask(halves.split(), HALF_NAMES)
        near = frozenset(cities[c][0] for c in (m.group(3) or "").split(",") if c)
        field_out[(mask, near)] += 1
    cloister = "cloister" in symbols
    return Counter(cities.values()), roads, field_out, cloister


def _data_structure(
    t: TileDef,
) -> tuple[Counter[tuple[int, int]], Counter[int], Counter[tuple[int, frozenset[int]]], bool]:
    f = t.features
    cities = Counter((x.sides, x.pennants) for x in f if x.kind is FeatureKind.CITY)
    roads = Counter(x.sides for x in f if x.kind is FeatureKind.ROAD)
    fields = Counter(
        (x.halves, frozenset(f[c].sides for c in x.cities))
        for x in f
        if x.kind is FeatureKind.FIELD
    )
    return cities, roads, fields, t.has_cloister


def test_tiles_md_tables_parse() -> None:
    rows = _md_rows()
    # every table row of TILES.md (the abbey is described in prose, not a row)
    assert len(rows) == sum(EXPECTED_TYPES.values())
    assert len({r[0] for r in rows}) == len(rows)


def test_every_tiles_md_tile_is_in_the_data_with_its_count_and_edges() -> None:
    data = all_tiles()
    problems = []
    for row in _md_rows():
        tid, n, edges = row[0], int(row[1]), row[2].replace(" ", "")
        t = data.get(tid)
        if t is None:
            problems.append(f"{tid}: missing from the data")
            continue
        if t.count != n:
            problems.append(f"{tid}: count {t.count}, TILES.md {n}")
        if "".join(e.value for e in t.edges) != edges:
            problems.append(f"{tid}: edges {''.join(e.value for e in t.edges)}, TILES.md {edges}")
    assert problems == []


def test_every_tiles_md_tile_has_the_same_features_in_the_data() -> None:
    data = all_tiles()
    problems = []
    for row in _md_rows():
        t = data[row[0]]
        want = _md_structure(row)
        got = _data_structure(t)
        for what, w, g in zip(("cities", "roads", "fields", "cloister"), want, got, strict=True):
            if w != g:
                problems.append(f"{t.id} {what}: data {g}, TILES.md {w}")
    assert problems == []


def _md_annotations(
    row: list[str],
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], set[str]]:
    """(city annotations, road annotations, symbols) of a TILES.md row, sorted."""
    features, symbols = row[3], row[5]
    cities = []
    for m in _CITY.finditer(features):
        note = m.group(4) or ""
        goods = next((g for g in ("wine", "grain", "cloth") if g in note), None)
        cities.append(
            (
                _mask(m.group(2).split("+"), SIDE_NAMES),
                "CATHEDRAL" in note,
                goods,
                "no castle" in note,
            )
        )
    roads = []
    for m in _ROAD.finditer(features):
        note = m.group(4) or ""
        sides = _mask(m.group(2).split("-"), SIDE_NAMES)
        roads.append((sides, "INN" in note, "tunnel" in note, "well" in note))
    syms = {x.strip() for x in symbols.split(",") if x.strip()}
    return sorted(cities, key=repr), sorted(roads), syms


def _data_annotations(t: TileDef) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], set[str]]:
    cities = sorted(
        (
            (
                f.sides,
                f.symbol("cathedral") is True,
                f.symbol("goods"),
                f.symbol("no_castle") is True,
            )
            for f in t.features
            if f.kind is FeatureKind.CITY
        ),
        key=repr,
    )
    roads = sorted(
        (f.sides, f.symbol("inn") is True, f.tunnel, f.well)
        for f in t.features
        if f.kind is FeatureKind.ROAD
    )
    syms = set()
    for flag in ("gold", "mage", "robber", "bazaar"):
        if t.symbol(flag):
            syms.add(flag)
    if t.has_cloister:
        syms.add("cloister")
    if t.symbol("lake"):
        syms.add("lake(ferry)")
    if t.symbol("flier"):
        syms.add(f"flier→{t.symbol('flier')}")
    if t.symbol("crop_circle"):
        syms.add(f"crop-circle:{t.symbol('crop_circle')}")
    return cities, roads, syms


def test_every_tiles_md_tile_has_the_same_symbols_and_annotations() -> None:
    # inns, cathedrals, goods, tunnels, wells, "no castle" flags and the symbols column
    data = all_tiles()
    problems = []
    for row in _md_rows():
        t = data[row[0]]
        want, got = _md_annotations(row), _data_annotations(t)
        for what, w, g in zip(("cities", "roads", "symbols"), want, got, strict=True):
            if w != g:
                problems.append(f"{t.id} {what}: data {g}, TILES.md {w}")
    assert problems == []


def test_no_data_tile_is_missing_from_tiles_md() -> None:
    listed = {r[0] for r in _md_rows()}
    extra = {tid for tid, t in all_tiles().items() if t.in_pile} - listed
    assert extra == set()
