"""Base-game scoring on exact boards: the rulebook's test vectors (RULES.md §2.7, §3).

Every board is built from the start tile at (0,0) (city N, road W–E) with a fixed draw order and
scripted actions (see :func:`tests.engine.helpers.play`). Rotations are clockwise, y grows south.
Farms: test_scoring_farms.py.
"""

from __future__ import annotations

import pytest

from engine import GameSetup, Position, Seat, new_game
from engine.carcassonne.board import Feature, Meeple
from engine.carcassonne.events import FigureDeployed, FiguresReturned, PointsScored
from engine.carcassonne.rules import feature_item
from engine.carcassonne.tiles import FeatureKind
from tests.engine.helpers import SPARE, completed, feature, on_board, play, setup, supply


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
