"""Tiles and features named for people (words/places.py), in both languages."""

from __future__ import annotations

import re

import pytest

from engine.carcassonne.registry import all_expansions
from engine.carcassonne.tiles import load_tile_set
from words.places import feature_words, spots_of, tile_words

_CODES = re.compile(r"\b(Nw|Ne|En|Es|Se|Sw|Ws|Wn)\b|/|:")


def _tiles() -> list[str]:
    sets = ["base"] + [s for e in all_expansions() for s in e.tile_sets]
    return sorted({td.id for s in sets for td in load_tile_set(s)})


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_feature_of_every_tile_has_its_own_name_without_codes(lang: str) -> None:
    seen = 0
    for tid in _tiles():
        for rotation in range(4):
            spots = spots_of(tid, rotation)
            names = [feature_words(s, lang, spots) for s in spots]
            assert not [n for n in names if _CODES.search(n)], (tid, names)
            # a tile's features never read alike (two separate cloisters aside)
            named = [n for s, n in zip(spots, names, strict=True) if s != "cloister"]
            assert len(set(named)) == len(named), (tid, rotation, names)
            seen += len(spots)
    assert seen > 1000


def test_fields_are_named_by_where_they_lie() -> None:
    spots = spots_of("BA/CcRr", 0)  # city north+west, road east-south
    names = {s: feature_words(s, "en", spots) for s in spots}
    fields = sorted(n for s, n in names.items() if s.startswith("field"))
    assert fields == ["field in the south-east corner", "field north-west of the road"]
    es = sorted(feature_words(s, "es", spots) for s in spots if s.startswith("field"))
    assert es == ["campo al noroeste del camino", "campo de la esquina sureste"]
    straight = spots_of("BA/RFr", 1)  # a road from north to south
    assert sorted(feature_words(s, "es", straight) for s in straight if "field" in s) == [
        "campo al este del camino",
        "campo al oeste del camino",
    ]
    # without the tile, a field is named by the corners it touches
    assert feature_words("field:En.Sw", "en") == "field (north-east, south-west)"


def test_tiles_are_described_by_what_is_printed_on_them() -> None:
    assert tile_words("BA/RCr", "en") == "city on the north side · road from east to west"
    assert tile_words("BA/RCr", "es", 1) == "ciudad en el lado este · camino de norte a sur"
    assert tile_words("BA/Cccc+", "es") == "ciudad en los cuatro lados (1 escudo)"
    assert tile_words("BA/RRRR", "en") == "crossroads (north, east, south, west)"
    assert tile_words("BA/LR", "es") == "claustro · camino hacia el sur"
    # a printed thing's spot names its heading: diagonals in one word, cities by their sides
    assert feature_words("flier:SE", "en") == "flying machine (south-east)"
    assert feature_words("flier:NW", "es") == "máquina voladora (noroeste)"
    assert feature_words("city:NW", "en") == "city (north, west)"
    # what is printed on the tile itself is worded by the expansion that reads it
    assert tile_words("FL/F.d", "en") == "flying machine"
    assert tile_words("FL/RFr.d", "es", 1) == "camino de norte a sur · máquina voladora"
    for tid in _tiles():
        for lang in ("en", "es"):
            words = tile_words(tid, lang)
            assert words and tid not in words and not _CODES.search(words), (tid, words)
