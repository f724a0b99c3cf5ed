"""Bridges, Castles & Bazaars — castles (RULES.md §13.3, OQ-CAS-1 … 4, OQ-FARM-2): every rule,
example and proposal as a named test. The start tile BA/RCr at 0,0 has its city north: a BA/C
turned south at 0,-1 closes a 2-tile city there, the castle these scenarios usually build."""

from __future__ import annotations

import pytest

from engine import IllegalActionError, Position, view_for
from engine.carcassonne.expansions.bridges_castles_bazaars.model import Castle
from engine.carcassonne.figures import is_follower
from engine.carcassonne.tiles import all_tiles
from engine.core.decisions import FeatureRef
from tests.engine.expansions.bcb_helpers import BCB, NO_BRIDGES, NO_MARKETS, Played, play

ONLY = (NO_BRIDGES, NO_MARKETS)
#: seat 0 closes the start tile's city with its knight and builds a castle on it
CASTLE_A = ["place 0,-1 r180", "deploy city:S", "bcb.castle build"]


def supply(p: Played, seat: int, figure: str = "follower") -> int:
    return p.state.players[seat].supply.get(figure, 0)


def followers_everywhere(p: Played) -> list[int]:
    """Per seat: followers in supply + on the board + on castles (always the starting 7)."""
    out = []
    for seat, player in enumerate(p.state.players):
        on_board = sum(
            1 for m in p.state.board.meeples() if m.seat == seat and is_follower(m.figure)
        )
        on_castles = sum(1 for c in p.model.castles if c.owner == seat and c.figure)
        out.append(player.supply["follower"] + on_board + on_castles)
    return out


# ------------------------------------------------------------------------------ building
def test_rules_1_to_3_a_completed_small_city_of_ones_own_may_become_a_castle() -> None:
    p = play(["BA/C", "BA/L"], CASTLE_A[:2], options=ONLY)
    (d,) = p.decisions()
    assert (d.kind, d.seat, d.optional) == ("bcb.castle", 0, True)
    (build,) = d.options
    assert (
        build.target == FeatureRef(0, -1, "city:S")
        and build.action.notation() == "bcb.castle build"
    )
    p.then(["bcb.castle build"])
    # no points; the follower stands on the token (neither on the board nor at home)
    assert p.state.scores == (0, 0) and p.awards("city") == []
    ((owner, tiles, figure),) = [(c.owner, c.tiles, c.figure) for c in p.model.castles]
    assert (owner, tiles, figure) == (0, (Position(0, -1), Position(0, 0)), "follower")
    assert supply(p, 0) == 6 and not list(p.state.board.meeples())
    assert "0 builds a castle at x 0, y -1; the follower stands on it." in p.lines()
    assert p.model.castles_left == (2, 3)
    assert followers_everywhere(p) == [7, 7]
    # the city does not count as completed: it is not scored at the end either
    p.then(["place 0,1 r0", "pass"])
    assert p.state.over and p.awards("city") == []


def test_rule_1_or_score_it_normally() -> None:
    p = play(["BA/C", "BA/L"], [*CASTLE_A[:2], "pass"], options=ONLY)
    assert p.awards("city") == [(0, 2)] and p.model.castles == ()
    assert supply(p, 0) == 7


def test_rule_4_the_knight_may_have_come_on_the_first_half_earlier() -> None:
    p = play(
        ["BA/C", "BA/L", "BA/C", "BA/L"],
        ["place 0,1 r180", "deploy city:S", "place 1,1 r0", "pass", "place 0,2 r0", "pass"],
        options=ONLY,
    )
    assert [d.kind for d in p.decisions()] == ["bcb.castle"]
    p.then(["bcb.castle build"])
    assert p.model.castles[0].tiles == (Position(0, 1), Position(0, 2))


# ------------------------------------------------------------------------------ surroundings
@pytest.mark.parametrize(
    ("tiles", "around"),
    [
        (((0, -1), (0, 0)), {(-1, -1), (1, -1), (-1, 0), (1, 0)}),  # one above the other
        (((0, 0), (1, 0)), {(0, -1), (1, -1), (0, 1), (1, 1)}),  # side by side
    ],
)
def test_surroundings_are_the_3_by_2_block_at_right_angles_to_the_castle(
    tiles: tuple[tuple[int, int], tuple[int, int]], around: set[tuple[int, int]]
) -> None:
    a, b = (Position(*t) for t in tiles)
    castle = Castle(0, (a, b), 0, "follower")
    assert castle.vicinity == {a, b} | {Position(*t) for t in around}
    assert len(castle.vicinity) == 6


# ------------------------------------------------------------------------------ scoring
UNOCCUPIED_ROAD = [*CASTLE_A, "place -1,0 r0", "pass", "place 1,0 r0", "pass"]


def test_scoring_rules_1_3_6_an_unoccupied_feature_on_a_tile_placed_later_scores_the_castle() -> (
    None
):
    """JCloisterZone's castle-unoccupied-trigger: nobody owns the 3-tile road completed on
    surrounding tiles that were still empty when the castle was built; the castle scores 3."""
    p = play(["BA/C", "BA/RRR", "BA/RRR", "BA/L"], UNOCCUPIED_ROAD, options=ONLY)
    assert p.awards("castle") == [(0, 3)] and p.awards("road") == []
    assert p.state.scores == (3, 0)
    assert supply(p, 0) == 7 and p.model.castles[0].figure == "" and p.model.castles[0].points == 3
    (item,) = [a.item for a in p.state.awards]
    assert item.parts == ("first feature completed around it, a road: 3",)


def test_scoring_rule_2_the_feature_owner_and_the_castle_owner_both_get_the_full_points() -> None:
    p = play(
        ["BA/C", "BA/RRR", "BA/RRR", "BA/L"],
        [*CASTLE_A, "place -1,0 r0", "deploy road:E", "place 1,0 r0", "pass"],
        options=ONLY,
    )
    assert p.awards("road") == [(1, 3)] and p.awards("castle") == [(0, 3)]
    assert p.state.scores == (3, 3)
    assert followers_everywhere(p) == [7, 7]


CLOISTER_MOVES = [
    *CASTLE_A,  # castle A on 0,-1 / 0,0 (seat 0)
    "place 1,0 r0",
    "pass",
    "place 2,0 r0",
    "pass",
    "place 3,0 r0",
    "pass",
    "place 1,1 r180",
    "deploy city:S",  # seat 0's knight on a half city at 1,1
    "place 2,1 r0",
    "deploy cloister",  # seat 1's monk in the middle of the 3 × 3 block
    "place 1,2 r0",
    "pass",
    "bcb.castle build",  # seat 0 closes its small city 1,1 / 1,2: castle B
    "place 3,1 r0",
    "pass",
    "place 2,2 r0",
    "pass",
    "place 3,2 r0",
    "pass",  # seat 1 completes the cloister
]
CLOISTER_PILE = [
    "BA/C",
    "BA/RFr",
    "BA/RFr",
    "BA/RFr",
    "BA/C",
    "BA/L",
    "BA/C",
    "BA/L",
    "BA/L",
    "BA/L",
    "BA/RFr",
]


def test_scoring_rule_4_a_cloister_counts_only_when_its_own_tile_is_one_of_the_six() -> None:
    """Rule 10's cloister too: the completed cloister at 2,1 stands in castle B's surroundings
    (it scores 9) and only touches castle A's with its neighbour 1,0 (A waits)."""
    p = play(CLOISTER_PILE, CLOISTER_MOVES, options=ONLY)
    assert p.awards("cloister") == [(1, 9)]
    assert p.awards("castle") == [(0, 9)]
    a, b = p.model.castles
    assert a.points is None and a.figure == "follower"
    assert b.points == 9 and b.figure == ""


PICK_MOVES = [
    *CASTLE_A,
    "place -1,0 r0",
    "pass",  # a junction closes the start road's west end
    "place 1,-1 r180",
    "pass",  # half a city at 1,-1 (nobody's)
    "place 1,0 r0",
    "pass",  # closes the road (3) and that small city (2) at once, both around castle A
]
PICK_PILE = ["BA/C", "BA/RRR", "BA/C", "BA/CRRR", "BA/L"]


def test_scoring_rule_7_several_at_once_the_castle_owner_chooses_one() -> None:
    p = play(PICK_PILE, PICK_MOVES, options=ONLY)
    (d,) = p.decisions()
    assert (d.kind, d.seat) == ("bcb.castle_pick", 0)  # the owner, though seat 1 placed
    labels = sorted((o.label.param("kind").key, o.label.param("points")) for o in d.options)
    assert labels == [("bcb.kind.city", 2), ("bcb.kind.road", 3)]
    city = next(o for o in d.options if o.label.param("kind").key == "bcb.kind.city")
    assert isinstance(city.target, FeatureRef) and (city.target.x, city.target.y) in {
        (1, -1),
        (1, 0),
    }
    p.then([f"@0 {city.action.notation()}"])
    assert p.awards("castle") == [(0, 2)]  # one feature only, the owner's choice
    with pytest.raises(IllegalActionError):
        play(PICK_PILE, PICK_MOVES + ["@0 bcb.castle_pick 7"], options=ONLY)


def test_rule_10_figure_a_road_and_a_city_on_a_surrounding_tile_may_score_the_castle() -> None:
    p = play(PICK_PILE, PICK_MOVES, options=ONLY)
    (d,) = p.decisions()
    kinds = {o.label.param("kind").key for o in d.options}
    assert kinds == {"bcb.kind.road", "bcb.kind.city"}


def test_scoring_rule_5_the_first_feature_it_cannot_wait_for_a_bigger_one() -> None:
    p = play(["BA/C", "BA/RRR", "BA/RRR", "BA/L"], UNOCCUPIED_ROAD, options=ONLY)
    assert not p.decisions() or p.decisions()[0].kind == "core.place"  # nothing to decline
    assert p.model.castles[0].points == 3


SIDE_BY_SIDE = [
    *CASTLE_A,  # seat 0: castle A on 0,-1 / 0,0
    "place 1,-1 r0",
    "deploy city:N",  # seat 1: half a city next to castle A
    "place 0,1 r0",
    "pass",
    "place 1,-2 r180",
    "pass",
    "bcb.castle build",  # seat 1: castle B on 1,-1 / 1,-2, in castle A's surroundings
]
SIDE_PILE = ["BA/C", "BA/C", "BA/L", "BA/C", "BA/RRR", "BA/RRR", "BA/L"]


def test_scoring_rule_8_two_castles_side_by_side_building_the_second_triggers_nothing() -> None:
    p = play(SIDE_PILE, SIDE_BY_SIDE, options=ONLY)
    a, b = p.model.castles
    assert (a.owner, b.owner) == (0, 1) and a.points is None and b.points is None
    assert p.awards("castle") == [] and p.model.candidates == ()


def test_scoring_rule_9_and_oq_cas_2_a_castle_that_scores_scores_the_castle_next_to_it() -> None:
    p = play(
        SIDE_PILE,
        [*SIDE_BY_SIDE, "place 2,-1 r270", "pass", "place 2,-2 r270", "pass"],
        options=ONLY,
    )
    # the 2-tile road at 2,-1 / 2,-2 is around castle B only; B scores it, then A scores B
    assert p.awards("castle") == [(1, 2), (0, 2)]
    assert [c.points for c in p.model.castles] == [2, 2]
    assert followers_everywhere(p) == [7, 7]


BLOCK = [
    "place 1,-1 r90",
    "deploy city:NE",  # seat 1's knight: the 2 × 4 city east of castle A begins
    "place 2,-1 r0",
    "pass",
    "place 3,-1 r0",
    "pass",
    "place 4,-1 r0",
    "pass",
    "place 1,-2 r180",
    "pass",
    "place 2,-2 r180",
    "pass",
    "place 3,-2 r180",
    "pass",
    "place 4,-2 r270",
    "pass",
]


def test_scoring_rule_11_test_vector_a_20_point_city_gives_the_castle_20() -> None:
    pile = ["BA/C", "BA/Cc.1", "BA/Ccc", "BA/Ccc+", "BA/Cc.1", "BA/Cc+", "BA/Ccc", "BA/Ccc"]
    p = play([*pile, "BA/Cc.1", "BA/L"], [*CASTLE_A, *BLOCK], options=ONLY)
    assert p.awards("city") == [(1, 20)]
    assert p.awards("castle") == [(0, 20)]
    assert supply(p, 0) == 7 and supply(p, 1) == 7  # both followers go home


def test_scoring_rule_11_a_small_city_scored_before_the_castle_gives_it_nothing() -> None:
    p = play(
        ["BA/C", "BA/C", "BA/C", "BA/L", "BA/C", "BA/L"],
        [
            "place 0,1 r180",
            "deploy city:S",  # seat 0's knight in half a city
            "place 1,1 r180",
            "pass",
            "place 1,2 r0",
            "pass",  # the small city 1,1 / 1,2 completes (nobody's) before any castle
            "place -1,1 r0",
            "pass",
            "place 0,2 r0",
            "pass",
            "bcb.castle build",  # its surroundings hold 1,1 and 1,2: already completed
        ],
        options=ONLY,
    )
    (castle,) = p.model.castles
    assert Position(1, 1) in castle.vicinity
    assert castle.points is None and p.model.candidates == () and p.awards("castle") == []


# ------------------------------------------------------------------------------ end, farms
def test_rule_12_at_the_end_a_castle_follower_scores_nothing() -> None:
    p = play(["BA/C", "BA/L"], [*CASTLE_A, "place 0,1 r0", "pass"], options=ONLY)
    assert p.state.over
    assert p.awards("castle") == [(0, 0)]  # JCloisterZone's castle.incomplete line
    (item,) = [a.item for a in p.state.awards]
    assert item.final and item.parts == ("never completed: 0",)
    assert supply(p, 0) == 7


FARM = [
    "place 0,-1 r270",
    "deploy field:Nw.Ne.En.Es",  # a farmer beside two little cities (JCZ field-castle-scoring)
    "place -1,-1 r90",
    "deploy city:E",
    "bcb.castle build",
    "place 0,-2 r0",
    "deploy city:N",
    "place 0,-3 r180",
    "pass",
    "bcb.castle build",
]
FARM_PILE = ["BA/CC.2", "BA/C", "BA/C", "BA/C"]
SOLO = (*ONLY, ("core.solo", True))


def test_farm_table_a_castle_in_a_farm_is_worth_4() -> None:
    p = play(FARM_PILE, FARM, players=1, options=SOLO)
    assert p.state.over
    assert p.awards("farm") == [(0, 11)]  # 1 city × 3 + 2 castles × 4
    (item,) = [a.item for a in p.state.awards if a.item.category == "farm"]
    assert "2 castles +1 each" in item.parts


def test_rule_12_a_castle_never_scores_for_a_farm_itself() -> None:
    # the castles' owner has its farmer there: the farm pays 11; the castles themselves 0
    p = play(FARM_PILE, FARM, players=1, options=SOLO)
    assert p.awards("castle") == [(0, 0), (0, 0)]
    assert p.state.scores == (11,)


def test_farm_table_with_a_pig_a_castle_is_worth_5() -> None:
    p = play(
        [*FARM_PILE, "BA/L"],
        [*FARM, "place 1,-1 r0", "deploy pig field:Nw.Ne.En.Es.Se.Sw.Ws.Wn"],
        players=1,
        expansions=(BCB, "traders_builders"),
        options=SOLO,
    )
    assert p.state.over
    ((seat, points),) = p.awards("farm")
    assert (seat, points) == (0, 14)  # the city 3 + 1, each castle 4 + 1


def test_oq_cas_3_first_edition_farms_a_castle_counts_4() -> None:
    p = play(FARM_PILE, FARM, players=1, options=SOLO, farm_scoring="city_supply_1st_ed")
    assert sorted(pts for _, pts in p.awards("farm")) == [3, 4, 4]


def test_oq_cas_3_first_edition_with_a_pig_a_castle_counts_5() -> None:
    p = play(
        [*FARM_PILE, "BA/L"],
        [*FARM, "place 1,-1 r0", "deploy pig field:Nw.Ne.En.Es.Se.Sw.Ws.Wn"],
        players=1,
        expansions=(BCB, "traders_builders"),
        options=SOLO,
        farm_scoring="city_supply_1st_ed",
    )
    assert sorted(pts for _, pts in p.awards("farm")) == [4, 5, 5]


def test_rule_13_fields_are_split_by_a_castle_as_by_its_small_city() -> None:
    p = play(
        ["BA/C", "BA/RFr"],
        [*CASTLE_A, "place 1,0 r0", "deploy field:Nw.Ne.En.Wn"],
        options=ONLY,
    )
    board = p.state.board
    castle = board.root[p.model.castles[0].seg]
    inside = board.features[board.root[board.cells[Position(0, 0)].segs[2]]]  # field:En.Wn
    outside = board.features[board.root[board.cells[Position(0, -1)].segs[1]]]
    assert inside is not outside
    for farm in (inside, outside):
        assert castle in {board.root[c] for c in farm.cities}
    # the farmer between the castle and the start road: 4 for the castle at the end
    assert p.awards("farm") == [(1, 4)]


# ------------------------------------------------------------------------------ OQ-CAS
def test_oq_cas_1_only_the_active_player_and_never_over_another_players_knight() -> None:
    # seat 0's knight waits in half a city; seat 1 completes it: no castle, it scores
    q = play(
        ["BA/C", "BA/C", "BA/L"],
        ["place 0,1 r180", "deploy city:S", "place 0,2 r0", "pass"],
        options=ONLY,
    )
    assert q.awards("city") == [(0, 2)] and q.model.castles == ()


def test_oq_cas_1_other_figures_of_the_builder_go_home() -> None:
    p = play(
        ["BA/C", "BA/L", "BA/C", "BA/L"],
        [
            "place 0,1 r180",
            "deploy city:S",
            "place 1,1 r0",
            "pass",
            "place 0,2 r0",
            "deploy builder city:N",
        ],
        expansions=(BCB, "traders_builders"),
        options=(*ONLY, ("tb.builder_bonus", "auto")),
    )
    assert p.kinds() == [("bcb.castle", 0)]
    p.then(["bcb.castle build"])
    assert supply(p, 0, "builder") == 1 and supply(p, 0) == 6
    assert p.model.castles[0].figure == "follower"


def test_oq_cas_2_a_scored_castle_stays_and_keeps_counting_for_farms() -> None:
    p = play(
        ["BA/C", "BA/RRR", "BA/RRR", "BA/L"],
        [*UNOCCUPIED_ROAD, "place 1,-1 r0", "deploy field:Nw.Ne.En.Es.Se.Sw.Ws.Wn"],
        options=ONLY,
    )
    assert p.model.castles[0].points == 3
    assert p.awards("farm") == [(1, 4)]


def test_oq_cas_4_no_two_tile_city_can_hold_a_cathedral() -> None:
    cathedrals = [t for t in all_tiles().values() if any(f.symbol("cathedral") for f in t.features)]
    assert cathedrals
    for t in cathedrals:
        (city,) = [f for f in t.features if f.symbol("cathedral")]
        assert bin(city.sides).count("1") == 4  # so any city with it has at least 5 tiles


def test_castles_are_public_in_every_view() -> None:
    p = play(["BA/C", "BA/L"], CASTLE_A, options=ONLY)
    for viewer in (None, 0, 1):
        view = view_for(p.state, viewer)
        ext = view.ext if viewer is not None else view.ext
        assert ext[BCB].castles == p.model.castles
