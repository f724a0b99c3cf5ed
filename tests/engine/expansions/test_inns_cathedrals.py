"""Inns & Cathedrals: RULES.md §4 vectors (inn roads, cathedral cities, the large follower)."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.carcassonne.rules import legal_deploys
from tests.engine.expansions.scenario import play, points

IC = ("inns_cathedrals",)
INN_ROAD = ["IC/RFr.i", "BA/RRR", "BA/RRR"]
INN_MOVES = ["place 1,0 r0", "deploy road:EW", "place 2,0 r0", "pass", "place -1,0 r0", "pass"]


def test_completed_inn_road_scores_two_per_tile() -> None:
    # crossing (-1,0) – start – inn (1,0) – crossing (2,0): 4 tiles, inn -> 8
    p = play(INN_ROAD, INN_MOVES, expansions=IC)
    assert points(p, "road") == [(0, 8)]
    assert p.state.scores == (8, 0)


def test_rulebook_three_tile_inn_road_scores_six() -> None:
    # crossing (1,0) E arm – inn (2,0) – crossing (3,0) W arm: 3 tiles with an inn -> 6
    p = play(
        ["BA/RRR", "IC/RFr.i", "BA/RRR"],
        ["place 1,0 r0", "pass", "place 2,0 r0", "deploy road:EW", "place 3,0 r0", "pass"],
        expansions=IC,
    )
    assert points(p, "road") == [(1, 6)]


def test_unfinished_inn_road_scores_zero_at_the_end() -> None:
    p = play(INN_ROAD[:2], INN_MOVES[:4], expansions=IC)
    assert p.state.over
    assert points(p, "road") == [(0, 0)]  # shown with its reason: "unfinished road with an inn"
    assert p.state.scores == (0, 0)


def test_inns_option_off_scores_the_road_normally() -> None:
    p = play(INN_ROAD[:2], INN_MOVES[:4], expansions=IC, options=(("ic.inns", False),))
    assert points(p, "road") == [(0, 3)]


CATHEDRAL = ["IC/Cccc.c", "BA/C", "BA/C", "BA/C"]
CATHEDRAL_MOVES = [
    "place 0,-1 r0",
    "deploy city:NESW",
    "place 0,-2 r180",
    "pass",
    "place 1,-1 r270",
    "pass",
    "place -1,-1 r90",
    "pass",
]


def test_completed_cathedral_city_scores_three_per_tile() -> None:
    p = play(CATHEDRAL, CATHEDRAL_MOVES, expansions=IC)
    assert points(p, "city") == [(0, 15)]  # 5 tiles × 3, as JCloisterZone's cathedralsScoring


def test_unfinished_cathedral_city_scores_zero() -> None:
    p = play(CATHEDRAL[:3], CATHEDRAL_MOVES[:6], expansions=IC)
    assert p.state.over and p.state.scores == (0, 0)
    # without the cathedral rule the same city scores 1 per tile
    q = play(CATHEDRAL[:3], CATHEDRAL_MOVES[:6], expansions=IC, options=(("ic.cathedrals", False),))
    assert q.state.scores == (4, 0)


LARGE_PILE = ["BA/RFr", "BA/Rr", "BA/Rr", "BA/Rr"]
LARGE_MOVES = [
    "place 1,0 r0",
    "deploy large road:EW",
    "place 0,1 r0",
    "deploy road:SW",
    "place -1,0 r270",
    "pass",
    "place -1,1 r180",
    "pass",
]


def test_large_follower_wins_a_road_against_one_follower() -> None:
    # the two roads join through (-1,0) and (-1,1): blue's large (2) beats red's follower (1)
    p = play(LARGE_PILE, LARGE_MOVES, expansions=IC)
    assert points(p, "road") == [(0, 5)]
    assert p.state.scores == (5, 0)


def test_large_follower_is_offered_once_and_returns() -> None:
    p = play(LARGE_PILE[:1], ["place 1,0 r0"], expansions=IC)
    figures = {d.figure for d in legal_deploys(p.state)}
    assert figures == {"follower", "large"}
    q = play(
        LARGE_PILE[:2], ["place 1,0 r0", "deploy large road:EW", "place 0,1 r0"], expansions=IC
    )
    assert q.state.players[0].supply["large"] == 0
    with pytest.raises(IllegalActionError):
        play(
            LARGE_PILE,
            LARGE_MOVES[:4] + ["place -1,0 r270", "deploy large field:Nw.Ne.En.Sw.Ws.Wn"],
            expansions=IC,
        )


def test_without_the_expansion_there_is_no_large_follower() -> None:
    p = play(["BA/RFr"], ["place 1,0 r0"])
    assert {d.figure for d in legal_deploys(p.state)} == {"follower"}
