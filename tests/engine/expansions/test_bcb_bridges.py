"""Bridges, Castles & Bazaars — wooden bridges (RULES.md §13.2, OQ-BRG-1): every rule and
example of the rulebook as a named test. Coordinates: the start tile BA/RCr at 0,0 has its city
north and its road west–east; y grows southwards."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import (
    EngineError,
    IllegalActionError,
    PlaceTile,
    Position,
    Rotation,
    Seat,
    apply,
    view_for,
)
from engine.carcassonne.expansions.bridges_castles_bazaars.bridges import extra_segments
from engine.carcassonne.rules import legal_deploys, legal_placements
from engine.carcassonne.tiles import FeatureKind
from tests.engine.expansions.bcb_helpers import BCB, NO_CASTLES, NO_MARKETS, Played, play

ONLY = (NO_CASTLES, NO_MARKETS)


def feature(p: Played, pos: tuple[int, int], spot: str) -> int:
    """The board feature (representative segment) of ``spot`` on the tile at ``pos``."""
    cell = p.state.board.cells[Position(*pos)]
    i = cell.rt.spots.index(spot)
    return p.state.board.root[cell.segs[i]]


def bridges(p: Played) -> list[tuple[tuple[int, int], str, int]]:
    return [((b.pos.x, b.pos.y), b.axis, int(b.seat)) for b in p.model.bridges]


def bridge_options(p: Played) -> list[str]:
    (d,) = [d for d in p.decisions() if d.kind == "bcb.bridge"]
    return [o.id for o in d.options]


# ------------------------------------------------------------------------------ rule 7
def test_rule_7_a_road_over_a_bridge_scores_the_bridge_as_one_segment() -> None:
    """Blue completes its road over red's bridge: 3 points (the bridge counts like a tile)."""
    p = play(
        ["BA/RRR", "BA/CFc+", "BA/RRR"],
        [
            "place 1,0 r0",
            "deploy road:E",  # blue: a thief on the junction's east arm
            "place 2,0 r90",  # red: a city tile whose west field meets the road: bridge
            "pass",
            "place 3,0 r0",  # blue closes the road beyond the bridge
            "pass",
        ],
        options=ONLY,
    )
    assert bridges(p) == [((2, 0), "WE", 1)]
    assert p.awards("road") == [(0, 3)]
    assert p.state.scores == (3, 0)


# ------------------------------------------------------------------------------ rule 8
def test_rule_8_red_extends_its_city_and_carries_the_road_over_it_on_a_bridge() -> None:
    """Example 1: the new city tile has no road; the bridge over its city segment continues the
    road coming from the west (rule 3: a field edge may meet a road end so)."""
    p = play(
        ["BA/RRR", "BA/Rr", "BA/L", "BA/CFc+", "BA/L"],
        [
            "place -1,0 r0",
            "pass",
            "place -1,-1 r180",  # a road from the south-west corner heads east, to 0,-1
            "pass",
            "place 0,1 r0",
            "pass",
            "place 0,-1 r90",  # red: city north–south, fields east and west, no road
            "deploy city:NS",  # red's knight extends the city
        ],
        options=ONLY,
        skip_bridges=True,
    )
    assert bridges(p) == [((0, -1), "WE", 1)]
    assert "1 builds a bridge at x 0, y -1 (west–east)." in p.lines()
    # the road runs on over the city; the city is not cut by the bridge
    road = p.state.board.features[feature(p, (-1, -1), "road:NE")]
    assert Position(0, -1) in road.tiles and road.open == 2
    city = p.state.board.features[feature(p, (0, -1), "city:NS")]
    assert city.tiles == {Position(0, 0), Position(0, -1)} and len(city.meeples) == 1
    assert p.model.bridges_left == (3, 2)


def test_rule_8_a_bridge_on_the_adjacent_tile_carries_the_road_across_its_city() -> None:
    """Example 2: red places a road tile and a thief; its road meets the neighbour's field
    edge, so the bridge goes on the neighbour, across that tile's city."""
    p = play(
        ["BA/CFc+", "BA/L", "BA/RFr", "BA/L"],
        [
            "place 0,-1 r90",
            "pass",
            "place 0,1 r0",
            "pass",
            "place 1,-1 r0",  # road west–east: its west end meets 0,-1's field edge
            "deploy road:EW",  # the thief
        ],
        options=ONLY,
        skip_bridges=True,
    )
    assert bridges(p) == [((0, -1), "WE", 0)]
    road = p.state.board.features[feature(p, (1, -1), "road:EW")]
    assert road.tiles == {Position(0, -1), Position(1, -1)} and road.meeples
    city = p.state.board.features[feature(p, (0, -1), "city:NS")]
    assert Position(0, -1) in city.tiles and not city.meeples


def test_rule_8_a_bridge_is_illegal_when_an_end_would_sit_on_a_road() -> None:
    p = play(["BA/LR", "BA/L"], ["place 0,1 r0"], options=ONLY)
    # the cloister tile's south edge is a road: only west–east is offered there, nothing on
    # the start tile (its ends are roads or a city)
    assert bridge_options(p) == ["0,1:WE"]
    for move in ("bcb.bridge 0,1:NS", "bcb.bridge 0,0:WE", "bcb.bridge 0,0:NS"):
        err = pytest.raises(IllegalActionError, p.then, [move]).value
        assert err.key == "bcb.err.no_bridge"
        assert "straight across two field edges" in str(err)
        assert "en línea recta" in err.text("es")


# ------------------------------------------------------------------------------ rules 1–6
def test_rule_1_one_bridge_per_turn_as_well_as_a_tile_and_a_follower() -> None:
    p = play(["BA/L", "BA/L"], ["place 0,1 r0", "bcb.bridge 0,1:WE"], options=ONLY)
    # the bridge is built; the same turn goes on with the follower (no second bridge)
    assert [d.kind for d in p.decisions()] == ["core.deploy"]
    p.then(["deploy cloister"])
    assert p.model.bridges_left == (2, 3)
    # the next seat may build its own
    p.then(["place 0,2 r0"])
    assert [d.kind for d in p.decisions()] == ["bcb.bridge"]


@pytest.mark.parametrize(("players", "each"), [(2, 3), (4, 3), (5, 2), (6, 2)])
def test_bridges_and_castles_per_player_by_player_count(players: int, each: int) -> None:
    p = play(["BA/L"], [], players=players)
    assert p.model.bridges_left == (each,) * players
    assert p.model.castles_left == (each,) * players
    (line,) = view_for(p.state).players[0].counters[BCB]
    assert line.key == "bcb.left" and line.param("bridges") == each


def test_rule_2_only_on_the_tile_just_placed_or_an_orthogonal_neighbour() -> None:
    p = play(["BA/L", "BA/C"], ["place 0,1 r0", "pass", "pass", "place 0,-1 r180"], options=ONLY)
    # 0,1 is two squares away from the tile just placed
    assert bridge_options(p) == ["0,-1:WE"]
    with pytest.raises(IllegalActionError):
        p.then(["bcb.bridge 0,1:WE"])


def test_rule_3_a_field_may_meet_a_road_end_only_with_this_turns_bridge() -> None:
    pile = ["BA/RRR", "BA/L", "BA/CFc+"]
    moves = ["place 1,0 r0", "pass", "place 0,1 r0", "pass", "pass"]
    p = play(pile, moves, options=ONLY)
    # the city tile may go next to the road turned so its west field meets the road end
    assert 1 in legal_placements(p.state)[Position(2, 0)]
    # with no bridge left, the same placement is refused with the edge rule
    broke = p.state.clone()
    broke.ext[BCB] = replace(p.model, bridges_left=(0, 0))
    assert 1 not in legal_placements(broke).get(Position(2, 0), ())
    with pytest.raises(IllegalActionError, match="west edge of the tile is field"):
        apply(broke, Seat(0), PlaceTile(Position(2, 0), Rotation.R90))
    p.then(["place 2,0 r90"])
    assert bridges(p) == [((2, 0), "WE", 0)]


def test_rule_4_a_follower_may_go_on_a_bridge_on_the_current_tile() -> None:
    p = play(["BA/L", "BA/L"], ["place 0,1 r0", "bcb.bridge 0,1:WE"], options=ONLY)
    spots = {d.spot for d in legal_deploys(p.state)}
    assert {"road:EW", "cloister"} <= spots
    p.then(["deploy road:EW"])
    (fig,) = [f for f in view_for(p.state).figures if f.pos == Position(0, 1)]
    assert fig.spot == "road:EW"
    road = p.state.board.features[feature(p, (0, 1), "road:EW")]
    assert road.kind is FeatureKind.ROAD and road.open == 2


def test_rule_4_not_on_a_bridge_built_on_a_neighbour() -> None:
    p = play(["BA/L", "BA/L"], ["place 0,1 r0", "pass", "pass", "place 0,2 r0"], options=ONLY)
    assert "0,1:WE" in bridge_options(p)
    p.then(["bcb.bridge 0,1:WE"])
    assert {d.spot for d in legal_deploys(p.state)} == {"cloister", "field:Nw.Ne.En.Es.Se.Sw.Ws.Wn"}
    with pytest.raises(EngineError):
        p.then(["deploy road:EW"])


def test_rule_5_fields_and_cities_under_a_bridge_are_not_split() -> None:
    p = play(
        ["BA/CFc+", "BA/L", "BA/RFr"],
        ["place 0,-1 r90", "pass", "place 0,1 r0", "pass", "place 1,-1 r0", "pass"],
        options=ONLY,
        skip_bridges=True,
    )
    # the bridge on 0,-1 carries 1,-1's road; the fields north and south of that road meet
    # the one field east of the city on 0,-1, which goes on under the bridge
    north = feature(p, (1, -1), "field:Nw.Ne.En.Wn")
    south = feature(p, (1, -1), "field:Es.Se.Sw.Ws")
    assert north == south
    assert feature(p, (0, -1), "field:En.Es") == north
    city = p.state.board.features[feature(p, (0, -1), "city:NS")]
    assert city.tiles == {Position(0, 0), Position(0, -1)}


def test_rule_6_a_bridge_may_follow_a_bridge_even_across_an_occupied_cloister() -> None:
    p = play(
        ["BA/L", "BA/RFr", "BA/L", "BA/L"],
        [
            "place 0,1 r0",
            "pass",
            "deploy cloister",  # a monk on 0,1
            "place 1,1 r0",  # road west–east: the bridge goes across the monk's cloister
            "pass",
            "place -1,1 r0",  # a cloister whose east field meets that bridge: bridge again
            "pass",
        ],
        options=ONLY,
    )
    assert bridges(p) == [((0, 1), "WE", 1), ((-1, 1), "WE", 0)]
    road = p.state.board.features[feature(p, (1, 1), "road:EW")]
    assert road.tiles == {Position(-1, 1), Position(0, 1), Position(1, 1)}
    monk = p.state.board.features[feature(p, (0, 1), "cloister")]
    assert [m.seat for m in monk.meeples] == [0]


# ------------------------------------------------------------------------------ OQ-BRG-1
def test_oq_brg_1_an_end_facing_a_placed_tile_must_meet_a_road() -> None:
    p = play(
        ["BA/L", "BA/L", "BA/L"], ["place 0,1 r0", "pass", "pass", "place 1,1 r0"], options=ONLY
    )
    # 1,1's west end faces 0,1's field edge: only north–south... which faces nothing placed
    assert bridge_options(p) == ["1,1:NS"]


def test_oq_brg_1_one_bridge_resolves_every_mismatch_or_the_placement_is_refused() -> None:
    # a cloister between two road ends: its one bridge west–east carries both on
    p = play(
        ["BA/RRR", "BA/L", "BA/L", "BA/L", "BA/RRR", "BA/L"],
        [
            "place 1,0 r180",
            "pass",
            "place 1,1 r0",
            "pass",
            "place 2,1 r0",
            "pass",
            "place 3,1 r0",
            "pass",
            "place 3,0 r180",
            "pass",
        ],
        options=ONLY,
        skip_bridges=True,
    )
    assert Position(2, 0) in legal_placements(p.state)
    p.then(["place 2,0 r0", "pass"])
    assert bridges(p) == [((2, 0), "WE", 1)]
    road = p.state.board.features[feature(p, (1, 0), "road:E")]
    assert road.open == 0 and road.tiles == {Position(1, 0), Position(2, 0), Position(3, 0)}
    # roads meeting a field from the north and from the west: no single bridge resolves both
    q = play(
        ["BA/RRR", "BA/RFr", "BA/L"],
        ["place 1,0 r0", "pass", "place 0,1 r0", "pass"],
        options=ONLY,
        skip_bridges=True,
    )
    assert q.state.drawn == "BA/L" and Position(1, 1) not in legal_placements(q.state)


def test_oq_brg_1_a_road_meeting_a_field_needs_both_far_ends_of_the_neighbour_free() -> None:
    """A road pointing north at the start tile's south field would need a bridge across the
    start tile, whose north edge is its city: no such placement is offered."""
    p = play(["BA/LR", "BA/L"], [], options=ONLY)
    assert p.state.drawn == "BA/LR"
    assert 2 not in legal_placements(p.state).get(Position(0, 1), ())  # road north: refused
    assert 0 in legal_placements(p.state)[Position(0, 1)]  # road south: an ordinary placement
    with pytest.raises(IllegalActionError, match="north edge of the tile is road"):
        p.then(["place 0,1 r180"])


def test_oq_brg_1_a_bridge_over_its_own_road_counts_one_more_segment() -> None:
    """The loop: the road runs west–east across 2,0 on the ground, round by 3,0, 3,-1 and
    2,-1, and back north–south across 2,0 on the bridge: 8 tiles, 9 segments."""
    p = play(
        ["BA/RRR", "BA/RFr", "BA/RFr", "BA/Rr", "BA/Rr", "BA/Rr", "BA/RRR"],
        [
            "place -1,0 r0",
            "deploy road:E",  # seat 0's thief
            "place 1,0 r0",
            "pass",
            "place 2,0 r0",
            "pass",
            "place 3,0 r90",  # curve west–north
            "pass",
            "place 3,-1 r0",  # curve south–west
            "pass",
            "place 2,-1 r270",  # curve east–south: its road meets 2,0's field: the bridge
            "pass",
            "place 2,1 r180",  # a junction closes the road under the bridge's south end
            "pass",
        ],
        options=ONLY,
        skip_bridges=True,
    )
    assert [b[:2] for b in bridges(p)] == [((2, 0), "NS")]
    ((seat, points),) = p.awards("road")
    assert (seat, points) == (0, 9)
    road = next(a.item for a in p.state.awards if a.item.category == "road")
    assert road.tiles == 8 and "1 bridge over its own road +1" in road.parts


def test_oq_brg_1_unused_bridges_are_worth_nothing() -> None:
    p = play(["BA/L"], ["place 0,1 r0", "pass", "pass"], options=ONLY)
    assert p.state.over and p.state.scores == (0, 0)
    assert p.model.bridges_left == (3, 3)
    assert extra_segments(p.state, p.state.board.features[feature(p, (0, 0), "road:EW")]) == 0
