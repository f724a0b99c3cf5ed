"""Abbey & Mayor: RULES.md §14 — every rulebook example as a named test, and each open question.

Boards are built with real tiles from a forced pile and legal moves (seat 0 is "blue", seat 1
"red" or "yellow" as in the rulebook's captions). Coordinates: x east, y south; the start tile
(0,0) has a city north and a road west–east.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Action, IllegalActionError, Seat, apply
from engine.carcassonne.actions import Pass
from engine.carcassonne.events import FiguresReturned, TilePlaced
from engine.carcassonne.expansions.abbey_mayor import (
    AbbeyMayorModel,
    AbbeyPlayed,
    holes,
)
from engine.carcassonne.expansions.traders_builders import BuilderBonus
from engine.carcassonne.rules import legal_deploys, pending
from engine.carcassonne.tiles import FeatureKind
from engine.core.decisions import Cell, Corner
from engine.core.errors import EngineError
from tests.engine.expansions.scenario import Played, play, points

AM = ("abbey_mayor",)


def model(p: Played) -> AbbeyMayorModel:
    m = p.state.ext["abbey_mayor"]
    assert isinstance(m, AbbeyMayorModel)
    return m


def options(p: Played, kind: str) -> list[str]:
    (d,) = [d for d in pending(p.state) if d.kind == kind]
    return [o.id for o in d.options]


def refused(pile: list[str], moves: list[str], **kw: object) -> EngineError:
    with pytest.raises(IllegalActionError) as err:
        play(pile, moves, **kw)  # type: ignore[arg-type]
    return err.value


# ------------------------------------------------------------------------------------ abbey
#: §14.1.5: a hole at (1,-2) between a road closed on its far side (red's thief) on the left,
#: a city open elsewhere below, a road open elsewhere on the right and a cloister above
ABBEY_PILE = ["BA/CFC.2", "BA/RCr", "BA/LR", "BA/CFc.1", "BA/L", "BA/RFr", "BA/L", "BA/L"]
ABBEY_MOVES = [
    "place 0,-1 r0",
    "pass",
    "place 0,-2 r180",
    "deploy road:EW",  # red: thief on the road running east into the future hole
    "place -1,-2 r270",
    "pass",  # its west end runs into a cloister
    "place 1,-1 r90",
    "pass",  # the city below the hole, open to the south
    "place 2,-1 r0",
    "pass",
    "place 2,-2 r0",
    "pass",  # the road right of the hole, open to the east
    "place 0,-3 r0",
    "pass",
    "place 1,-3 r0",
    "pass",  # the hole is closed on all four sides
]


def test_abbey_example_closes_the_road_on_its_left_and_leaves_the_others_open() -> None:
    """§14.1.5: blue plays the abbey and completes the road on the left (red's follower): it
    scores; the city below and the road on the right stay incomplete (other open ends)."""
    p = play([*ABBEY_PILE, "BA/Rr"], ABBEY_MOVES, expansions=AM)
    assert p.state.step == "am.abbey" and p.state.drawn is None  # asked before drawing
    assert options(p, "am.abbey") == ["1,-2"]
    (d,) = pending(p.state)
    assert d.optional and d.options[0].target == Cell(1, -2)
    q = play([*ABBEY_PILE, "BA/Rr"], [*ABBEY_MOVES, "am.abbey 1,-2", "pass"], expansions=AM)
    assert points(q, "road") == [(1, 2)]  # 2 tiles: the abbey is no part of the road
    assert q.state.players[1].supply["follower"] == 7
    board = q.state.board
    city = board.feature_at(board.cells[(1, -1)].pos, 0)[1]  # type: ignore[index]
    assert city.kind is FeatureKind.CITY and city.open == 1 and not city.done
    road = board.feature_at(board.cells[(2, -2)].pos, 0)[1]  # type: ignore[index]
    assert road.kind is FeatureKind.ROAD and road.open == 1
    placed = [e for e in q.events if isinstance(e, TilePlaced) and e.tile == "AM/A"]
    assert [(e.seat, e.pos) for e in placed] == [(0, (1, -2))]
    assert AbbeyPlayed(0, (1, -2)) in q.events  # type: ignore[arg-type]
    assert model(q).abbeys == (0, 1)
    # the abbey took the place of the draw: the next tile in the pile goes to red
    assert q.state.current == 1 and q.state.drawn == "BA/Rr"


def test_abbey_takes_a_monk_and_is_scored_as_a_cloister() -> None:
    """§14.1.3: a follower on the abbey is a monk, scored as in a cloister: unfinished at the
    end, 1 + the tiles around it (7 here); surrounded by 8 tiles, 9 at once."""
    pile = [*ABBEY_PILE, "BA/Rr"]
    moves = [*ABBEY_MOVES, "am.abbey 1,-2", "deploy cloister"]
    p = play(pile, [*moves, "place 3,-2 r0", "pass"], expansions=AM)
    assert p.state.over
    assert points(p, "cloister") == [(0, 1 + 7)]
    q = play(pile, [*moves, "place 2,-3 r180", "pass"], expansions=AM)  # the 8th tile round it
    assert points(q, "cloister") == [(0, 9)]
    assert [a.item.complete for a in q.state.awards if a.item.category == "cloister"] == [True]


def test_abbey_only_into_a_hole_and_only_by_a_seat_that_holds_one() -> None:
    pile = [*ABBEY_PILE, "BA/Rr", "BA/Rr"]
    err = refused(pile, [*ABBEY_MOVES, "am.abbey 3,-2"], expansions=AM)
    assert err.key == "am.err.not_a_hole"
    assert "3,-2" in err.text("es") and err.text("es") != err.text("en")
    assert refused(pile, [*ABBEY_MOVES, "am.abbey north"], expansions=AM).key == (
        "am.err.abbey_answer"
    )
    # placing a tile while the abbey question is open is refused in the player's language
    err = refused(pile, [*ABBEY_MOVES, "place 3,-2 r0"], expansions=AM)
    assert err.key == "am.err.wait_abbey"
    # blue plays its abbey; later blue is never asked again (one abbey each)
    p = play(pile, [*ABBEY_MOVES, "am.abbey 1,-2", "pass"], expansions=AM)
    assert not holes(p.state.board)
    assert model(p).abbeys == (0, 1)


def test_abbey_declined_draws_as_usual_and_is_offered_again() -> None:
    pile = [*ABBEY_PILE, "BA/Rr", "BA/Rr", "BA/Rr"]
    p = play(pile, [*ABBEY_MOVES, "pass"], expansions=AM)
    assert p.state.step == "place" and p.state.drawn == "BA/Rr" and model(p).abbeys == (1, 1)
    q = play(pile, [*ABBEY_MOVES, "pass", "place 3,-2 r0", "pass"], expansions=AM)
    assert q.state.step == "am.abbey" and q.state.current == 1


def test_unplayed_abbeys_are_worth_nothing_and_the_game_ends_with_the_pile() -> None:
    """OQ-ABB-2: abbeys do not count towards the end; unplayed ones score nothing."""
    p = play(ABBEY_PILE, ABBEY_MOVES, expansions=AM)
    assert p.state.over and model(p).abbeys == (1, 1) and holes(p.state.board)
    assert {a.item.category for a in p.state.awards} <= {"road"}  # red's open road only
    assert points(p, "road") == [(1, 2)]


#: RULES.md §14.1 rule 6: the match option of JCloisterZone's end-of-game abbey round
FINAL = (("am.final_abbeys", True),)


def test_rule_6_off_by_default_there_is_no_abbey_round() -> None:
    """§14.1 rule 6 ``off`` (the default): the game ends with the last tile's turn."""
    assert dict(play(ABBEY_PILE, [], expansions=AM).state.setup.options) == {}
    p = play(ABBEY_PILE, ABBEY_MOVES, expansions=AM, options=(("am.final_abbeys", False),))
    assert p.state.over and model(p).abbeys == (1, 1)


def test_rule_6_each_seat_from_the_next_one_may_play_its_abbey_then_final_scoring() -> None:
    """§14.1 rule 6 ``on``: red (seat 1) placed the last tile, so blue is asked first; her abbey
    is an ordinary abbey turn (rules 1-5: it closes red's road, a monk may go on it), and red,
    asked next, has no hole left: final scoring."""
    p = play(ABBEY_PILE, ABBEY_MOVES, expansions=AM, options=FINAL)
    assert not p.state.over and p.state.tiles_left == 0
    (d,) = pending(p.state)
    assert (d.kind, d.seat, d.optional, d.prompt.key) == ("am.abbey", 0, True, "am.abbey.final")
    assert [o.id for o in d.options] == ["1,-2"]
    q = play(
        ABBEY_PILE, [*ABBEY_MOVES, "am.abbey 1,-2", "deploy cloister"], expansions=AM, options=FINAL
    )
    assert q.state.over and model(q).abbeys == (0, 1)
    assert points(q, "road") == [(1, 2)]  # scored when the abbey closed it
    assert points(q, "cloister") == [(0, 8)]  # final scoring: the abbey and 7 neighbours
    assert any(isinstance(e, AbbeyPlayed) and e.seat == 0 for e in q.events)


def test_rule_6_a_pass_asks_the_next_seat_who_plays_it_as_the_active_player() -> None:
    p = play(ABBEY_PILE, [*ABBEY_MOVES, "pass"], expansions=AM, options=FINAL)
    (d,) = pending(p.state)
    assert (d.kind, d.seat, p.state.current) == ("am.abbey", 1, 1)
    q = play(
        ABBEY_PILE,
        [*ABBEY_MOVES, "pass", "am.abbey 1,-2", "deploy cloister"],
        expansions=AM,
        options=FINAL,
    )
    assert q.movers[-2:] == [1, 1] and q.state.over
    assert points(q, "road") == [(1, 2)] and points(q, "cloister") == [(1, 8)]


def test_rule_6_the_round_ends_with_the_last_tiles_player_and_passes_change_nothing() -> None:
    """Red (the last tile's player) passes last: nobody is asked twice; declined abbeys score
    nothing, as without the round (OQ-ABB-2)."""
    p = play(ABBEY_PILE, [*ABBEY_MOVES, "pass", "pass"], expansions=AM, options=FINAL)
    plain = play(ABBEY_PILE, ABBEY_MOVES, expansions=AM)
    assert p.state.over and model(p).abbeys == (1, 1)
    assert p.state.scores == plain.state.scores


def test_rule_6_a_seat_without_its_abbey_is_skipped() -> None:
    """Blue no longer holds her abbey (as if played earlier): the round asks red at once."""
    p = play(ABBEY_PILE, ABBEY_MOVES[:-2], expansions=AM, options=FINAL)
    p.state.ext["abbey_mayor"] = replace(model(p), abbeys=(0, 1))
    for move in ABBEY_MOVES[-2:]:  # red places the last tile
        seat = pending(p.state)[0].seat
        p.state = apply(p.state, seat, Action.from_notation(move)).state
    (d,) = pending(p.state)
    assert (d.kind, d.seat) == ("am.abbey", 1)
    p.state = apply(p.state, Seat(1), Pass()).state
    assert p.state.over and model(p).abbeys == (0, 1)


def test_abbey_has_no_field_so_fields_end_against_it() -> None:
    """OQ-ABB-1: the abbey joins no field: the fields touching it stay apart."""
    p = play([*ABBEY_PILE, "BA/Rr"], [*ABBEY_MOVES, "am.abbey 1,-2", "pass"], expansions=AM)
    board = p.state.board
    for _, f in board.iter_features():
        if f.kind is FeatureKind.FIELD:
            assert (1, -2) not in f.tiles
    above = board.feature_at((1, -3), 0)[0]  # type: ignore[arg-type]  # the cloister tile's field
    below = board.feature_at((1, -1), 1)[0]  # type: ignore[arg-type]  # the city tile's north field
    assert board.features[above].kind is board.features[below].kind is FeatureKind.FIELD
    assert above != below


def test_abbey_replaces_the_builders_second_tile_and_never_triggers_a_builder() -> None:
    """OQ-ABB-2: the builder's second tile is a draw of the player's own turn, so the abbey may
    replace it; the abbey adds no road or city, so it never triggers a builder."""
    exps = ("traders_builders", "abbey_mayor")
    pile = [*ABBEY_PILE, "BA/RFr", "BA/Rr", "BA/RFr", "BA/Rr", "BA/RFr", "BA/Rr"]
    moves = [
        *ABBEY_MOVES,
        "pass",
        "place 3,-2 r0",
        "deploy road:EW",  # blue: thief on the road right of the hole
        "pass",
        "place -1,-3 r90",
        "pass",
        "pass",
        "place 4,-2 r0",
        "deploy builder road:EW",
        "pass",
        "place -2,-2 r0",
        "pass",
    ]
    # the abbey closes the road holding blue's builder: no second tile
    p = play(pile, [*moves, "am.abbey 1,-2", "pass"], expansions=exps)
    assert not [e for e in p.events if isinstance(e, BuilderBonus)]
    assert p.state.current == 1
    # a tile extending the road earns the second tile; its draw may be the abbey
    q = play(pile, [*moves, "pass", "place 5,-2 r0", "pass", "tb.bonus take"], expansions=exps)
    assert q.state.step == "am.abbey" and q.state.current == 0 and q.state.drawn is None
    r = play(
        pile,
        [*moves, "pass", "place 5,-2 r0", "pass", "tb.bonus take", "am.abbey 1,-2", "pass"],
        expansions=exps,
    )
    assert AbbeyPlayed(0, (1, -2)) in r.events  # type: ignore[arg-type]
    assert r.state.current == 1 and r.state.step == "place"  # red holds one, but no hole is left


def test_abbey_can_be_switched_off() -> None:
    p = play([*ABBEY_PILE, "BA/Rr"], ABBEY_MOVES, expansions=AM, options=(("am.abbey", False),))
    assert p.state.step == "place" and model(p).abbeys == (0, 0)


# ------------------------------------------------------------------------------------ mayor
#: a six-tile city with three pennants built from three parts: blue's mayor in the first, a
#: red knight in each of the others; blue's last tile joins the three and completes it
MAYOR_PILE = ["BA/Cc+", "BA/RrC", "BA/C", "BA/Cc+", "BA/Ccc+", "BA/L"]
MAYOR_MOVES = [
    "place 0,-1 r180",
    "deploy mayor city:ES",
    "place 1,0 r0",
    "deploy city:N",
    "place 2,0 r0",
    "pass",
    "place 2,-1 r270",
    "deploy city:SW",
    "place 1,-1 r180",
    "pass",
]


def test_mayor_counts_the_pennants_blue_scores_18() -> None:
    """§14.2.6: a mayor in a city with 3 pennants counts as 3 followers: blue scores 18."""
    p = play(MAYOR_PILE, MAYOR_MOVES, expansions=AM)
    assert points(p, "city") == [(0, 18)]  # 6 tiles + 3 pennants, × 2; red's 2 knights lose
    # the mayor does not change the city's value (§14.2.3)
    (award,) = p.state.awards
    assert (award.item.tiles, award.item.pennants, award.item.winners) == (6, 3, (0,))
    assert p.state.players[0].supply["mayor"] == 1  # the mayor returns after scoring
    assert p.state.players[1].supply["follower"] == 7


def test_mayor_without_pennants_counts_zero_and_scores_nothing() -> None:
    """§14.2.2 and OQ-MAY-1: no pennants, strength 0: the mayor's owner scores nothing and takes
    no share of the majority; a lone mayor's line says why (0 points, as JCloisterZone logs)."""
    p = play(["BA/C", "BA/L"], ["place 0,-1 r180", "deploy mayor city:S"], expansions=AM)
    (award,) = p.state.awards
    assert (award.seat, award.points, award.item.category) == (0, 0, "city")
    assert award.item.parts == ("a mayor in a city without pennants counts 0: 0",)
    assert p.state.players[0].supply["mayor"] == 1  # back after the scoring (§14.2.4)
    # blue's mayor and red's knight meet in a city without pennants: red alone scores
    q = play(
        ["BA/Cc.1", "BA/RFr", "BA/RFr", "BA/C", "BA/CFc.1", "BA/L"],
        [
            "place 0,-1 r180",
            "deploy mayor city:ES",
            "place 1,0 r0",
            "pass",
            "place 2,0 r0",
            "pass",
            "place 2,-1 r270",
            "deploy city:W",
            "place 1,-1 r0",
            "pass",
        ],
        expansions=AM,
    )
    assert [(a.seat, a.points, a.item.category) for a in q.state.awards] == [(1, 8, "city")]


def test_mayor_only_in_a_city_without_followers() -> None:
    p = play(["BA/RCr", "BA/L"], ["place 1,0 r0"], expansions=AM)
    mayors = {d.spot for d in legal_deploys(p.state) if d.figure == "mayor"}
    assert mayors == {"city:N"}  # never on a road or a field
    err = refused(["BA/RCr", "BA/L"], ["place 1,0 r0", "deploy mayor road:EW"], expansions=AM)
    assert err.key == "am.err.mayor_city" and err.text("es") == "El alcalde solo va en una ciudad."
    # a city with a knight takes no mayor
    r = play(
        ["BA/CFc+", "BA/CFc+", "BA/L"],
        ["place 0,-1 r90", "deploy city:NS", "place 0,-2 r90"],
        expansions=AM,
    )
    assert not [d for d in legal_deploys(r.state) if d.figure == "mayor"]


# ------------------------------------------------------------------------------------- barn
#: §14.3: yellow's farmer in the farm south of the start road; two 2-tile cities border it.
#: Blue's tile at (1,1) closes the second city and makes a corner of four fields north-west of
#: it (cells (0,0), (1,0), (0,1), (1,1)).
BARN_PILE = ["BA/C", "BA/RFr", "BA/C", "BA/C", "BA/C", "BA/RFr", "BA/LR"]
BARN_MOVES = [
    "place 0,1 r180",
    "pass",
    "place 1,0 r0",
    "deploy field:Es.Se.Sw.Ws",  # yellow: a farmer south of the road
    "place 0,2 r0",
    "pass",
    "place 1,2 r0",
    "pass",
    "place 1,1 r180",
]


def test_barn_example_yellow_scores_6_and_takes_the_farmer_back() -> None:
    """§14.3 "Scoring when a barn is placed": blue places the barn; yellow scores 6 for the two
    completed cities and takes the farmer back; the barn stays."""
    p = play(BARN_PILE, [*BARN_MOVES, "deploy barn corner:NW"], expansions=AM)
    scored = [a for a in p.state.awards if not a.item.final]
    assert [(a.seat, a.points, a.item.category) for a in scored] == [(1, 6, "farm")]
    assert scored[0].item.parts == ("barn placed: 2 completed cities × 3",)
    assert FiguresReturned(1, "follower", 1) in p.events
    (barn,) = model(p).barns
    assert (barn.seat, barn.corner) == (0, (1, 1))
    assert p.state.players[0].supply["barn"] == 0


def test_barn_goes_on_a_corner_of_the_new_tile_where_four_fields_meet() -> None:
    """§14.3 rule 4 and OQ-BARN-1: the corner south-west of the new tile has city segments
    on its upper tiles: no barn there; the corners with an empty cell neither."""
    p = play(BARN_PILE, BARN_MOVES, expansions=AM)
    barns = [d for d in legal_deploys(p.state) if d.figure == "barn"]
    assert [d.spot for d in barns] == ["corner:NW"]
    (d,) = [d for d in pending(p.state) if d.kind == "core.deploy"]
    (option,) = [o for o in d.options if o.action.figure == "barn"]
    assert option.target == Corner(1, 1)
    assert option.facets == (("spot", "corner:NW"), ("figure", "barn"))
    err = refused(BARN_PILE, [*BARN_MOVES, "deploy barn corner:SW"], expansions=AM)
    assert err.key == "am.err.barn_corner"
    err = refused(BARN_PILE, [*BARN_MOVES, "deploy barn city:S"], expansions=AM)
    assert err.key == "am.err.barn_corner"
    # blue passes: the corner still qualifies, but red's next tile is elsewhere: no barn, as
    # the corner must be one of the tile just placed (OQ-BARN-1)
    q = play(BARN_PILE, [*BARN_MOVES, "pass", "place -1,0 r0"], expansions=AM)
    assert not [d for d in legal_deploys(q.state) if d.figure == "barn"]


def test_barn_at_the_end_pays_its_owner_4_per_completed_city() -> None:
    """§14.3 "End of game": blue's barn scores 4 × 2 completed cities."""
    p = play(BARN_PILE[:5], [*BARN_MOVES, "deploy barn corner:NW"], expansions=AM)
    assert p.state.over
    final = [(a.seat, a.points) for a in p.state.awards if a.item.final]
    assert final == [(0, 8)]
    assert p.state.scores == (8, 6)
    assert p.state.players[0].supply["barn"] == 1  # home at the very end, like every figure


def test_farm_joined_to_a_barn_farm_scores_1_per_city() -> None:
    """§14.3 "Scoring when farms are joined": red's farmer is joined to blue's barn farm; red
    has the most farmers and scores 2 (two completed cities) and takes the farmer back."""
    moves = [
        *BARN_MOVES,
        "deploy barn corner:NW",
        "place -1,0 r0",
        "deploy field:Nw.Ne.En.Wn",  # red (yellow): a farmer north of the road
        "place 2,0 r90",
        "pass",  # blue: the road ends at a cloister, the fields north and south join
    ]
    p = play(BARN_PILE, moves, expansions=AM)
    joined = [a for a in p.state.awards if "joined" in a.item.parts[0]]
    assert [(a.seat, a.points) for a in joined] == [(1, 2)]
    assert p.state.players[1].supply["follower"] == 7
    assert p.state.over and p.state.scores == (8, 8)  # blue's barn: 4 × 2 at the end


def test_no_figure_and_no_second_barn_in_a_farm_with_a_barn() -> None:
    """§14.3 rule 5: no follower may go into a farm with a barn, however far away; no second
    barn into it. Rule 6: joining barn farms is legal and scores nothing."""
    moves = [*BARN_MOVES, "deploy barn corner:NW", "place -1,0 r0"]
    p = play(BARN_PILE, moves, expansions=AM)
    fields = {d.spot for d in legal_deploys(p.state) if d.spot.startswith("field")}
    assert fields == {"field:Nw.Ne.En.Wn"}  # the south field joins the barn's farm
    err = refused(BARN_PILE, [*moves, "deploy field:Es.Se.Sw.Ws"], expansions=AM)
    assert err.key == "am.err.barn_farm"
    # nor a second barn into it: red's corner north-east of the start is in the barn's farm
    r = play([*BARN_PILE, "BA/L"], [*moves, "pass", "place 2,1 r0"], expansions=AM)
    assert not [d for d in legal_deploys(r.state) if d.figure == "barn"]


def test_barn_tie_both_score_and_first_edition_farms_do_not_change_barns() -> None:
    """OQ-BARN-1: a tie in the barn's farm pays every tied player; barn scoring is per farm
    under either farm-scoring edition."""
    # yellow's farmer north of the two cities, blue's south of them; the barn tile joins them
    pile = ["BA/C", "BA/RFr", "BA/C", "BA/C", "BA/L", "BA/L", "BA/C"]
    moves = [
        "place 0,1 r180",
        "pass",
        "place 1,0 r0",
        "deploy field:Es.Se.Sw.Ws",
        "place 0,2 r0",
        "deploy field:En.Es.Se.Sw.Ws.Wn",
        "place 1,2 r0",
        "pass",
        "place 2,2 r0",
        "pass",
        "place 2,1 r0",
        "pass",
        "pass",  # (1,1) is now a hole: blue keeps its abbey and draws
        "place 1,1 r180",
        "deploy barn corner:NW",
    ]
    for edition in ("per_farm", "city_supply_1st_ed"):
        p = play(pile, moves, expansions=AM, farm_scoring=edition)
        placed = [(a.seat, a.points) for a in p.state.awards if "barn placed" in a.item.parts[0]]
        assert placed == [(0, 6), (1, 6)]
        assert p.state.over and p.state.scores == (6 + 8, 6)


def test_barn_with_the_pig_scores_4_per_city() -> None:
    """§14.3 "Scoring when a barn is placed" rule 4: a pig in the farm: 4 per city for its
    owner, and the pig goes home too."""
    pile = ["BA/C", "BA/RFr", "BA/C", "BA/RFr", "BA/C", "BA/RFr", "BA/C"]
    moves = [
        "place 0,1 r180",
        "pass",
        "place 1,0 r0",
        "deploy field:Es.Se.Sw.Ws",
        "place 0,2 r0",
        "pass",
        "place -1,0 r0",
        "deploy pig field:Es.Se.Sw.Ws",  # yellow's pig joins its farmer's farm
        "place 1,2 r0",
        "pass",
        "place -2,0 r0",
        "pass",
        "place 1,1 r180",
        "deploy barn corner:NW",
    ]
    p = play(pile, moves, expansions=("traders_builders", "abbey_mayor"))
    (award,) = [a for a in p.state.awards if "barn placed" in a.item.parts[0]]
    assert (award.seat, award.points, award.bonus) == (1, 8, ("pig +2",))
    assert p.state.players[1].supply["pig"] == 1 and p.state.players[1].supply["follower"] == 7
