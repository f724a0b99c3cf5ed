"""The box (seed 002 "Componentes"), the deal table and the scoring tables as data."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from engine.cardgame.cards import (
    ANIMAL_TABLE,
    BUILDING_SET_POINTS,
    DEAL,
    DECK,
    FACES,
    LONE_JOKER_POINTS,
    ROWS,
    SETUP_CARDS,
    CardFace,
    CardType,
    Colour,
    animal_points,
)
from engine.cardgame.text import assumed_animal_counts, rules_summary
from engine.core.errors import InvalidActionError


def test_the_playing_deck_has_130_cards() -> None:
    assert len(DECK) == 130
    assert 140 - len(DECK) == 5 + 5  # scoring cards and blanks stay in the box


@pytest.mark.parametrize("colour", list(Colour))
def test_each_colour_has_30_cards(colour: Colour) -> None:
    mine = Counter((f.type, f.value) for f in DECK if f.colour is colour)
    assert mine == {
        (CardType.CHARACTER, 1): 8,
        (CardType.CHARACTER, 2): 5,
        (CardType.CHARACTER, 3): 3,
        (CardType.BUILDING, 0): 5,
        (CardType.ANIMAL, 0): 9,
    }
    assert sum(mine.values()) == 30


def test_the_jokers() -> None:
    jokers = Counter(f.type for f in DECK if f.colour is None)
    assert jokers == {
        CardType.DRAGON: 1,
        CardType.FAIRY: 1,
        CardType.ANIMAL_JOKER: 4,
        CardType.BUILDING_JOKER: 4,
    }
    assert all(f.is_joker for f in DECK if f.colour is None)
    assert not any(f.is_joker for f in DECK if f.colour is not None)


def test_animal_and_building_kinds_are_data_equal_to_the_colour() -> None:
    for f in FACES:
        if f.type in (CardType.ANIMAL, CardType.BUILDING):
            assert f.colour is not None and f.kind == f.colour.value


def test_card_codes_round_trip_and_accept_feature_names() -> None:
    for f in FACES:
        assert CardFace.parse(f.code) is f
    assert CardFace.parse("city-3").code == "blue-3"
    assert CardFace.parse("Road-Animal").code == "red-animal"
    assert CardFace.parse("campo-building").code == "green-building"
    with pytest.raises(InvalidActionError, match="not a card"):
        CardFace.parse("purple-2")


def test_rows_and_their_names() -> None:
    assert [c.feature for c in ROWS] == ["cloister", "road", "field", "city"]
    assert Colour.parse("ciudad") is Colour.BLUE
    assert Colour.parse("cloister") is Colour.YELLOW
    with pytest.raises(InvalidActionError, match="not a row"):
        Colour.parse("castle")


@pytest.mark.parametrize(
    ("players", "cards", "rounds"), [(2, 6, 10), (3, 5, 8), (4, 5, 6), (5, 4, 6)]
)
def test_deal_table_uses_exactly_the_120_cards_left_after_setup(
    players: int, cards: int, rounds: int
) -> None:
    rule = DEAL[players]
    assert (rule.cards, rule.rounds) == (cards, rounds)
    assert players * cards * rounds == len(DECK) - SETUP_CARDS == 120


def test_animal_table_known_values_from_the_rulebook() -> None:
    assert animal_points(2) == 6  # example ①: "2 cartas = 6 puntos"
    assert animal_points(5) == 14  # example ②: "5 cartas = 14 puntos"
    assert LONE_JOKER_POINTS == 3
    known = {r.cards: r.points for r in ANIMAL_TABLE if r.known}
    assert known == {2: 6, 5: 14}


def test_animal_table_is_one_increasing_table_covering_every_possible_pile() -> None:
    assert [r.cards for r in ANIMAL_TABLE] == list(range(1, 14))  # 9 animals + 4 jokers
    points = [r.points for r in ANIMAL_TABLE]
    assert points == sorted(set(points))
    assert animal_points(0) == 0
    assert animal_points(14) > animal_points(13)


def test_rules_text_marks_exactly_the_assumed_animal_values() -> None:
    assumed = assumed_animal_counts()
    assert 2 not in assumed and 5 not in assumed and 1 in assumed
    for lang in ("en", "es"):
        text = rules_summary(lang)
        for r in ANIMAL_TABLE:
            star = "" if r.known else "*"
            pattern = rf"(?<!\d){r.cards}→{r.points}{re.escape(star)}(?![\d*])"
            assert re.search(pattern, text), (lang, r)
    assert "valor supuesto" in rules_summary("es")
    assert "assumed value" in rules_summary("en")


def test_rules_text_states_the_deal_and_building_tables() -> None:
    en, es = rules_summary("en"), rules_summary("es")
    for text in (en, es):
        assert "2: 6×10 · 3: 5×8 · 4: 5×6 · 5: 4×6" in text
        assert "2→5 · 3→15 · 4→30" in text
    assert "face down" in en and "boca abajo" in es
    assert len(es) < 4096 and len(en) < 4096  # fits one Discord embed


def test_building_set_table() -> None:
    assert dict(BUILDING_SET_POINTS) == {1: 0, 2: 5, 3: 15, 4: 30}
