"""Base-game scoring on exact boards: the rulebook's test vectors (RULES.md §2.7, §3).

Every board is built from the start tile at (0,0) (city N, road W–E) with a fixed draw order and
scripted actions (see :func:`tests.engine.helpers.play`). Rotations are clockwise, y grows south.
"""

from __future__ import annotations

import pytest

from engine import GameSetup, Position, Seat, new_game
from engine.carcassonne.board import Feature, Meeple
from engine.carcassonne.events import FigureDeployed, FiguresReturned, PointsScored
from engine.carcassonne.rules import feature_item
from engine.carcassonne.tiles import FeatureKind
from tests.engine.helpers import Played, feature, on_board, play, setup, supply

# A spare tile at the end of a draw order keeps the game running, so in-play scores are not
# mixed with final scoring. BA/L (a cloister) fits south of the start tile on every board below.
SPARE = "BA/L"


def completed(game: Played) -> list[PointsScored]:
    """In-play scoring events (not final scoring)."""
    return [e for e in game.scored() if not e.item.final]


# ---------------------------------------------------------------------------- §2.7 vectors
def test_completed_road_of_four_tiles_scores_four() -> None:
    # crossing (-1,0) — start (0,0) — straight (1,0) — crossing (2,0)
    game = play(
        setup(["BA/RFr", "BA/RRR", "BA/RRR", SPARE]),
        [
            "place 1,0 r0",
            "deploy road:EW",
            "place -1,0 r0",
            "pass",
            "place 2,0 r0",
            "pass",
        ],
    )
    (ev,) = completed(game)
    assert ev.item.category == "road" and ev.item.complete
    assert ev.item.tiles == 4 and ev.item.points == 4
    assert [(a.seat, a.points) for a in ev.awards] == [(0, 4)]
    assert game.scores == (4, 0)
    assert not game.state.over


def test_completed_road_of_three_tiles_scores_three() -> None:
    # the thief stands on the west arm of the crossing at (1,0); crossing (-1,0) closes it
    game = play(
        setup(["BA/RRR", "BA/RRR", SPARE]),
        ["place 1,0 r0", "deploy road:W", "place -1,0 r0", "pass"],
    )
    (ev,) = completed(game)
    assert (ev.item.category, ev.item.tiles, ev.item.points) == ("road", 3, 3)
    assert game.scores == (3, 0)


def test_completed_city_of_three_tiles_with_a_shield_scores_eight() -> None:
    # start city N — BA/CFc+ turned N–S (shield) — BA/C turned to close from the north
    game = play(
        setup(["BA/CFc+", "BA/C", SPARE]),
        ["place 0,-1 r90", "deploy city:NS", "place 0,-2 r180", "pass"],
    )
    (ev,) = completed(game)
    assert ev.item.category == "city"
    assert (ev.item.tiles, ev.item.pennants, ev.item.points) == (3, 1, 8)
    assert game.scores == (8, 0)


def test_city_of_four_tiles_with_two_segments_on_one_tile_scores_eight() -> None:
    # A 2x2 ring south of the start: three corner cities and BA/CC.2 (two separate caps N and
    # W) at (1,2); both of its caps end up in the same city, and the tile counts once.
    game = play(
        setup(["BA/Cc.1", "BA/Cc.1", "BA/Cc.1", "BA/CC.2", SPARE]),
        [
            "place 0,1 r180",  # city E+S
            "deploy city:ES",
            "place 1,1 r270",  # city S+W
            "pass",
            "place 0,2 r90",  # city N+E
            "pass",
            "place 1,2 r0",  # cap N and cap W
            "pass",
        ],
    )
    (ev,) = completed(game)
    assert ev.item.category == "city"
    assert ev.item.tiles == 4 and ev.item.pennants == 0 and ev.item.points == 8
    assert set(ev.item.where) == {(0, 1), (1, 1), (0, 2), (1, 2)}
    assert game.scores == (8, 0)


def test_two_knights_tie_on_a_city_closed_by_joining_both_score_ten() -> None:
    game = play(
        setup(["BA/CFc.1", "BA/C", "BA/Cc.1", "BA/Cc.1", SPARE]),
        [
            "place 0,-1 r90",  # seat 0: city N–S over the start city, knight
            "deploy city:NS",
            "place 1,-1 r0",  # seat 1: its own city cap, knight
            "deploy city:N",
            "place 1,-2 r270",  # seat 0: corner S+W extends seat 1's city
            "pass",
            "place 0,-2 r180",  # seat 1: corner E+S joins and closes both
            "pass",
        ],
    )
    (ev,) = completed(game)
    assert ev.item.tiles == 5 and ev.item.points == 10
    assert sorted((a.seat, a.points) for a in ev.awards) == [(0, 10), (1, 10)]
    assert game.scores == (10, 10)
    # both knights went home
    assert supply(game.state, 0) == 7 and supply(game.state, 1) == 7


CLOISTER_RING = [
    "place 0,1 r0",  # the cloister, south of the start
    "deploy cloister",
    "place -1,0 r0",
    "pass",
    "place 1,0 r0",
    "pass",
    "place -1,1 r0",
    "pass",
    "place 1,1 r0",
    "pass",
    "place -1,2 r0",
    "pass",
    "place 0,2 r0",
    "pass",
    "place 1,2 r0",
    "pass",
]
CLOISTER_DRAW = ["BA/L", "BA/RFr", "BA/RFr", "BA/L", "BA/L", "BA/RFr", "BA/RFr", "BA/RFr"]


def test_completed_cloister_scores_nine() -> None:
    game = play(setup([*CLOISTER_DRAW, "BA/L"]), CLOISTER_RING)
    (ev,) = completed(game)
    assert (ev.item.category, ev.item.points, ev.item.tiles) == ("cloister", 9, 9)
    assert ev.item.where == ((0, 1),)
    assert game.scores == (9, 0)
    assert supply(game.state, 0) == 7


def test_cloister_not_scored_before_its_eighth_neighbour() -> None:
    game = play(setup([*CLOISTER_DRAW, "BA/L"]), CLOISTER_RING[:-2])
    assert completed(game) == []
    assert on_board(game.state, 0) == 1


# ---------------------------------------------------------------------------- §3.1.1 final
def test_incomplete_road_of_three_scores_three_at_the_end() -> None:
    game = play(
        setup(["BA/RFr", "BA/RFr"]),
        ["place 1,0 r0", "deploy road:EW", "place -1,0 r0", "pass"],
    )
    assert game.state.over
    (ev,) = [e for e in game.scored() if e.item.final]
    assert (ev.item.category, ev.item.complete, ev.item.points) == ("road", False, 3)
    assert game.scores == (3, 0)


def test_incomplete_cloister_with_four_neighbours_scores_five() -> None:
    # cloister (0,1); neighbours: start (0,0), (-1,0), (1,0) and (0,2)
    game = play(
        setup(["BA/L", "BA/RFr", "BA/RFr", "BA/L"]),
        [
            "place 0,1 r0",
            "deploy cloister",
            "place -1,0 r0",
            "pass",
            "place 1,0 r0",
            "pass",
            "place 0,2 r0",
            "pass",
        ],
    )
    assert game.state.over
    assert game.points(final=True) == {0: 5}
    (item,) = [a.item for a in game.awards(final=True)]
    assert item.category == "cloister" and not item.complete


@pytest.mark.parametrize(("tile", "points"), [("BA/CFc.1", 2), ("BA/CFc+", 3)])
def test_incomplete_city_scores_one_per_tile_and_one_per_shield(tile: str, points: int) -> None:
    game = play(setup([tile]), ["place 0,-1 r90", "deploy city:NS"])
    assert game.state.over
    assert game.points(final=True) == {0: points}
    assert supply(game.state, 0) == 7


def test_incomplete_city_majority_the_minority_scores_nothing() -> None:
    # seat 0 ("green") has two knights, seat 1 ("black") one, in a 7-tile city still open north
    game = play(
        setup(["BA/CFc.1", "BA/C", "BA/C", "BA/Cc.1", "BA/Cc.1", "BA/Cccc+"]),
        [
            "place 0,-1 r90",
            "deploy city:NS",
            "place 1,-1 r0",
            "deploy city:N",
            "place -1,-1 r0",
            "deploy city:N",
            "place 1,-2 r270",
            "pass",
            "place -1,-2 r180",
            "pass",
            "place 0,-2 r0",  # joins the three cities; its north edge stays open
            "pass",
        ],
    )
    assert game.state.over
    (ev,) = [e for e in game.scored() if e.item.final]
    assert (ev.item.tiles, ev.item.pennants, ev.item.points) == (7, 1, 8)
    assert ev.item.winners == (Seat(0),)
    assert game.scores == (8, 0)
    # every knight went home, the loser's too
    assert supply(game.state, 0) == 7 and supply(game.state, 1) == 7


# ---------------------------------------------------------------------------- tiny city
@pytest.mark.parametrize(("tiny", "points"), [(2, 2), (4, 4)])
def test_completed_two_tile_city(tiny: int, points: int) -> None:
    game = play(
        setup(["BA/C", SPARE], tiny_city=tiny),
        ["place 0,-1 r180", "deploy city:S"],
    )
    (ev,) = completed(game)
    assert (ev.item.tiles, ev.item.points) == (2, points)
    assert game.scores == (points, 0)


@pytest.mark.parametrize(("tiny", "points"), [(2, 3), (4, 6)])
def test_two_tile_city_with_a_shield(tiny: int, points: int) -> None:
    # No two base tiles make a closed 2-tile city with a shield, so score the feature directly.
    state = new_game(GameSetup(tiny_city=tiny), seed=1)
    feat = Feature(
        FeatureKind.CITY,
        (0, 1),
        frozenset({Position(0, 0), Position(0, -1)}),
        0,
        pennants=1,
        meeples=(Meeple(Seat(0), "follower", 1, Position(0, -1)),),
    )
    item = feature_item(state, feat, complete=True, final=False)
    assert item.points == points and item.winners == (Seat(0),)


def test_two_tile_city_exception_does_not_apply_to_incomplete_cities() -> None:
    # incomplete cities score 1 per tile whatever tiny_city says
    for tiny in (2, 4):
        game = play(setup(["BA/Cc.1"], tiny_city=tiny), ["place 0,-1 r180", "deploy city:ES"])
        assert game.points(final=True) == {0: 2}


def test_three_tile_city_is_not_tiny() -> None:
    game = play(
        setup(["BA/CFc.1", "BA/C", SPARE]),
        ["place 0,-1 r90", "deploy city:NS", "place 0,-2 r180", "pass"],
    )
    assert game.scores == (6, 0)


# ---------------------------------------------------------------------------- farms
# City K = start city + BA/CFc.1 (N–S, fields on both sides) + BA/C closing from the north: a
# completed 3-tile city bordered by four separate farms.
#   X = west field of (0,-1)          seat 0's farmer
#   Y = the field of (0,-2)           seat 1's farmer
#   A = start's north field + (1,0)'s north field (+ (-1,0)'s)   seat 1's farmer
THREE_FARMS = [
    "place 0,-1 r90",
    "deploy field:Ws.Wn",
    "place 0,-2 r180",  # completes K (no knight)
    "deploy field:Nw.Ne.En.Es.Ws.Wn",
    "place -1,0 r0",
    "pass",
    "place 1,0 r0",
    "deploy field:Nw.Ne.En.Wn",
]
THREE_FARMS_DRAW = ["BA/CFc.1", "BA/C", "BA/RFr", "BA/RFr"]


def test_farms_per_farm_pays_each_owner_of_each_bordering_farm() -> None:
    game = play(setup(THREE_FARMS_DRAW, farm_scoring="per_farm"), THREE_FARMS)
    assert game.state.over
    assert game.points(final=True, category="farm") == {0: 3, 1: 6}
    assert game.scores == (3, 6)
    # farmers stood on three different farms
    farms = {id(feature(game.states[-2], *xy, spot)) for xy, spot in _farm_spots()}
    assert len(farms) == 3


def _farm_spots() -> list[tuple[tuple[int, int], str]]:
    return [
        ((0, -1), "field:Ws.Wn"),
        ((0, -2), "field:Nw.Ne.En.Es.Ws.Wn"),
        ((1, 0), "field:Nw.Ne.En.Wn"),
    ]


def test_farms_first_edition_pays_each_city_once_to_the_supply_majority() -> None:
    game = play(setup(THREE_FARMS_DRAW, farm_scoring="city_supply_1st_ed"), THREE_FARMS)
    assert game.state.over
    # seat 1 supplies K with 2 farmers (two farms), seat 0 with 1: only seat 1 scores, once
    assert game.points(final=True, category="farm") == {1: 3}
    assert game.scores == (0, 3)


def test_farmers_stay_on_the_board_until_the_end() -> None:
    game = play(setup([*THREE_FARMS_DRAW, SPARE]), THREE_FARMS)
    assert not game.state.over
    assert on_board(game.state, 0) == 1 and on_board(game.state, 1) == 2
    assert supply(game.state, 0) == 6 and supply(game.state, 1) == 5
    # K was completed during play, yet no farmer was returned and no farm scored
    assert game.returned() == []
    assert game.awards(category="farm") == []


# Tie: seat 0's farmer on the field of (0,-1) (wrapped round K2 = start city + BA/C), seat 1's on
# the start's north field through (1,0); the cloister at (1,-1) joins the two farms.
FARM_TIE = [
    "place 0,-1 r180",
    "deploy field:Nw.Ne.En.Es.Ws.Wn",
    "place 1,0 r0",
    "deploy field:Nw.Ne.En.Wn",
    "place 1,-1 r0",
    "pass",
]


@pytest.mark.parametrize("edition", ["per_farm", "city_supply_1st_ed"])
def test_farm_tie_both_owners_score(edition: str) -> None:
    game = play(setup(["BA/C", "BA/RFr", "BA/L"], farm_scoring=edition), FARM_TIE)
    assert game.state.over
    # the two farms became one: it borders K2 from several tiles but K2 counts once
    assert game.points(final=True, category="farm") == {0: 3, 1: 3}
    (ev,) = [e for e in game.scored() if e.item.category == "farm"]
    assert ev.item.winners == (Seat(0), Seat(1))


@pytest.mark.parametrize("edition", ["per_farm", "city_supply_1st_ed"])
def test_farm_majority_two_farmers_beat_one(edition: str) -> None:
    # Three separate farms, then the cloister at (1,-1) joins them: seat 0 ends with two
    # farmers (Y round K2, Z round K3), seat 1 with one (A, the start's north field).
    game = play(
        setup(["BA/C", "BA/RFr", "BA/L", "BA/RCr", "BA/C", "BA/L"], farm_scoring=edition),
        [
            "place 0,-1 r180",  # seat 0: closes K2 = start city + this cap; farmer Y
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place 1,0 r0",  # seat 1: farmer A
            "deploy field:Nw.Ne.En.Wn",
            "place 0,1 r0",  # seat 0: filler south of the road
            "pass",
            "place 2,0 r0",  # seat 1: city cap facing north, road on
            "pass",
            "place 2,-1 r180",  # seat 0: closes K3; farmer Z (walled off from A by K3)
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place 1,-1 r0",  # seat 1: cloister joins Y, A and Z
            "pass",
        ],
    )
    farm = feature(game.state, 1, -1, "field:Nw.Ne.En.Es.Se.Sw.Ws.Wn")
    assert farm is feature(game.state, 0, -1, "field:Nw.Ne.En.Es.Ws.Wn")
    assert farm is feature(game.state, 2, -1, "field:Nw.Ne.En.Es.Ws.Wn")
    merged = feature(game.states[-2], 1, -1, "field:Nw.Ne.En.Es.Se.Sw.Ws.Wn")
    assert merged.strength() == {Seat(0): 2, Seat(1): 1}
    assert game.points(final=True, category="farm") == {0: 6}
    assert game.scores == (6, 0)


def test_incomplete_city_never_scores_for_farmers() -> None:
    # seat 0 farms the start's north field: it borders only the (open) start city
    for edition in ("per_farm", "city_supply_1st_ed"):
        game = play(
            setup(["BA/RFr", "BA/RFr"], farm_scoring=edition),
            ["place 1,0 r0", "deploy field:Nw.Ne.En.Wn", "place -1,0 r0", "pass"],
        )
        assert game.state.over
        assert game.points(category="farm") == {}
        assert game.scores == (0, 0)
        # the farmer still went home at the end
        assert supply(game.state, 0) == 7


def test_city_inside_a_farm_scores_for_it() -> None:
    # K2 (start city + BA/C) ends up wholly inside one farm that wraps round it
    game = play(
        setup(["BA/C", "BA/RFr", "BA/L", "BA/RFr", "BA/L"]),
        [
            "place 0,-1 r180",
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place 1,0 r0",
            "pass",
            "place 1,-1 r0",
            "pass",
            "place -1,0 r0",
            "pass",
            "place -1,-1 r0",
            "pass",
        ],
    )
    farm = feature(game.state, 0, -1, "field:Nw.Ne.En.Es.Ws.Wn")
    assert farm is feature(game.state, 1, 0, "field:Nw.Ne.En.Wn")
    assert farm is feature(game.state, -1, 0, "field:Nw.Ne.En.Wn")
    assert game.points(final=True, category="farm") == {0: 3}


def test_farm_scores_every_bordering_completed_city() -> None:
    # a farm bordering two completed cities scores 6: start city closed by BA/C at (0,-1), and
    # a second 2-tile city: BA/C at (1,-1) facing north, closed by BA/C at (1,-2)
    game = play(
        setup(["BA/C", "BA/C", "BA/C", "BA/RFr"]),
        [
            "place 0,-1 r180",
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place 1,-1 r0",  # city N; its field touches (0,-1)'s field on the W edge
            "pass",
            "place 1,-2 r180",
            "pass",
            "place 1,0 r0",
            "pass",
        ],
    )
    assert game.points(final=True, category="farm") == {0: 6}


# ---------------------------------------------------------------------------- follower flow
def test_deploy_on_a_feature_the_tile_completes_scores_and_returns_at_once() -> None:
    game = play(
        setup(["BA/RRR", "BA/RRR", SPARE]),
        ["place 1,0 r0", "pass", "place -1,0 r0", "deploy road:E"],
    )
    events = game.last_events
    kinds = [type(e) for e in events]
    i_dep = kinds.index(FigureDeployed)
    i_pts = kinds.index(PointsScored)
    i_ret = kinds.index(FiguresReturned)
    assert i_dep < i_pts < i_ret
    assert game.scores == (0, 3)
    assert supply(game.state, 1) == 7 and on_board(game.state, 1) == 0


def test_followers_return_after_scoring_and_not_before() -> None:
    game = play(
        setup(["BA/CFc+", "BA/C", SPARE]),
        ["place 0,-1 r90", "deploy city:NS", "place 0,-2 r180", "pass"],
    )
    before = game.states[-2]
    assert supply(before, 0) == 6 and on_board(before, 0) == 1
    assert supply(game.state, 0) == 7 and on_board(game.state, 0) == 0
    (ret,) = game.returned()
    assert (ret.seat, ret.figure, ret.count) == (0, "follower", 1)


def test_completed_feature_without_followers_scores_nobody() -> None:
    game = play(setup(["BA/C", SPARE]), ["place 0,-1 r180", "pass"])
    assert game.scored() == []
    assert feature(game.state, 0, -1, "city:S").complete


# ---------------------------------------------------------------------------- roads
def test_road_loop_completes() -> None:
    # four curves in a 2x2 square south of the start close on themselves
    game = play(
        setup(["BA/Rr", "BA/Rr", "BA/Rr", "BA/Rr", SPARE]),
        [
            "place 0,1 r270",
            "deploy road:ES",
            "place 1,1 r0",
            "pass",
            "place 0,2 r180",
            "pass",
            "place 1,2 r90",
            "pass",
        ],
    )
    (ev,) = completed(game)
    assert (ev.item.category, ev.item.tiles, ev.item.points) == ("road", 4, 4)
    assert feature(game.state, 0, 1, "road:ES").open == 0


def test_road_ends_at_a_city_gate_and_at_a_cloister() -> None:
    # the start road runs west into BA/LR's cloister and east into BA/CccR's city gate
    game = play(
        setup(["BA/CccR", "BA/LR", SPARE]),
        ["place 1,0 r90", "deploy road:W", "place -1,0 r270", "pass"],
    )
    (ev,) = completed(game)
    assert (ev.item.category, ev.item.tiles, ev.item.points) == ("road", 3, 3)


def test_crossing_splits_roads() -> None:
    # the four arms of BA/RRRR are separate roads: completing the W arm leaves the others open
    game = play(
        setup(["BA/RRRR", "BA/RRR", SPARE]),
        ["place 1,0 r0", "deploy road:W", "place -1,0 r0", "pass"],
    )
    assert game.scores == (3, 0)
    for arm in ("road:N", "road:E", "road:S"):
        assert feature(game.state, 1, 0, arm).open == 1


def test_one_tile_completes_a_city_and_a_road_for_different_owners() -> None:
    # BA/CRRR turned 270 at (1,-1): its west cap closes seat 0's city, its south arm ends the
    # start road (which turns north at (1,0) and starts at the crossing at (-1,0)).
    game = play(
        setup(["BA/Cc.1", "BA/Rr", "BA/RRR", "BA/CRRR", SPARE]),
        [
            "place 0,-1 r180",
            "deploy city:ES",
            "place 1,0 r90",
            "deploy road:NW",
            "place -1,0 r0",
            "pass",
            "place 1,-1 r270",
            "pass",
        ],
    )
    got = sorted(
        (e.item.category, e.item.tiles, e.item.points, e.item.winners) for e in completed(game)
    )
    assert got == [("city", 3, 6, (Seat(0),)), ("road", 4, 4, (Seat(1),))]
    # both in the same transition: the last action's events
    assert sum(isinstance(e, PointsScored) for e in game.last_events) == 2
    assert game.scores == (6, 4)


def test_score_items_spell_out_the_arithmetic() -> None:
    game = play(
        setup(["BA/CFc+", "BA/C", SPARE]),
        ["place 0,-1 r90", "deploy city:NS", "place 0,-2 r180", "pass"],
    )
    (ev,) = completed(game)
    assert ev.item.describe() == "city completed: 3 tiles × 2 + 1 shield × 2 = 8"


def test_cloister_placed_into_a_full_ring_scores_nine_at_once() -> None:
    # the eight neighbours first, then the cloister into the hole with a monk on it
    ring = [
        "place -1,0 r0",
        "pass",
        "place 1,0 r0",
        "pass",
        "place -1,1 r0",
        "pass",
        "place 1,1 r0",
        "pass",
        "place -1,2 r0",
        "pass",
        "place 0,2 r0",
        "pass",
        "place 1,2 r0",
        "pass",
        "place 0,1 r0",
        "deploy cloister",
    ]
    draw = ["BA/RFr", "BA/RFr", "BA/L", "BA/L", "BA/RFr", "BA/RFr", "BA/RFr", "BA/L", SPARE]
    game = play(setup(draw), ring)
    (ev,) = completed(game)
    assert (ev.item.category, ev.item.points) == ("cloister", 9)
    assert ev.item.winners == (Seat(1),)
    assert supply(game.state, 1) == 7


@pytest.mark.parametrize("edition", ["per_farm", "city_supply_1st_ed"])
def test_rulebook_two_farms_vector(edition: str) -> None:
    # RULES.md §3.3: red owns the large farm bordering cities A and B -> 6; blue owns the small
    # farm bordering A only -> 3. A = start city + cap (0,-1); B = caps (1,-1) + (1,-2).
    # Edition A gives the same here: A is tied 1-1 across its two farms, B is red's alone.
    game = play(
        setup(["BA/C", "BA/RFr", "BA/C", "BA/C"], farm_scoring=edition),
        [
            "place 0,-1 r180",  # red (seat 0): closes A, farmer in the large farm
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place -1,0 r0",  # blue (seat 1): farmer in the start's north field
            "deploy field:Nw.Ne.En.Wn",
            "place 1,-1 r0",  # the large farm reaches B's southern cap
            "pass",
            "place 1,-2 r180",  # closes B
            "pass",
        ],
    )
    large = feature(game.states[-2], 0, -1, "field:Nw.Ne.En.Es.Ws.Wn")
    small = feature(game.states[-2], -1, 0, "field:Nw.Ne.En.Wn")
    assert large is not small
    assert game.points(final=True, category="farm") == {0: 6, 1: 3}


@pytest.mark.parametrize("edition", ["per_farm", "city_supply_1st_ed"])
def test_rulebook_two_farms_tie_variant(edition: str) -> None:
    # RULES.md §3.3 tie variant: red (seat 0) and yellow (seat 1) tie in the large farm, which
    # borders cities A and B -> 6 each; blue (seat 2) owns the small farm bordering A -> 3.
    # A = start city + cap (0,-1); B = caps (2,-1) + (2,-2). Red farms round A's cap, yellow
    # the far side of the road at (1,-1); the cloister at (1,-2), where that road ends, joins
    # the two sides into the large farm.
    game = play(
        setup(
            ["BA/C", "BA/RFr", "BA/RFr", "BA/C", "BA/C", "BA/LR"], players=3, farm_scoring=edition
        ),
        [
            "place 0,-1 r180",  # red: closes A, farmer round it
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place 1,-1 r90",  # yellow: road N-S; its west field joins red's, east one is free
            "deploy field:Ne.En.Es.Se",
            "place -1,0 r0",  # blue: the start's north field, bordering A only
            "deploy field:Nw.Ne.En.Wn",
            "place 2,-1 r0",  # red: B's southern cap, its field joins yellow's
            "pass",
            "place 2,-2 r180",  # yellow: closes B
            "pass",
            "place 1,-2 r0",  # blue: the road ends at this cloister; the farms join round it
            "pass",
        ],
    )
    before_end = game.states[-2]
    large = feature(before_end, 1, -2, "field:Nw.Ne.En.Es.Se.Sw.Ws.Wn")
    assert large is feature(before_end, 0, -1, "field:Nw.Ne.En.Es.Ws.Wn")
    assert large.strength() == {Seat(0): 1, Seat(1): 1}
    assert feature(before_end, -1, 0, "field:Nw.Ne.En.Wn").strength() == {Seat(2): 1}
    assert game.points(final=True, category="farm") == {0: 6, 1: 6, 2: 3}
