"""Ferries (RULES.md §8): the rulebook's three examples, placing the new lake's ferry (a
decision whose targets are the pairs of road ends on the lake), moving the first ferry met in
each direction once a turn (§8.3, OQ-FER-4), re-routed roads scoring at once (OQ-FER-3) and the
refusals. The board of every test starts from the start tile at 0,0 (city north, road west–east);
y grows to the south. Numbers are derived by hand in each test."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Action, Seat, apply
from engine.carcassonne.actions import Choose, Pass
from engine.carcassonne.board import Feature
from engine.carcassonne.expansions.ferries import (
    MOVE_STEP,
    MOVES,
    PLACE_STEP,
    Ferry,
    FerryMoved,
    FerryPlaced,
    model_of,
    move_choices,
    nearest_ferries,
    pair_mask,
    pair_name,
)
from engine.carcassonne.geometry import Position
from engine.carcassonne.record import replay
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.core import messages
from engine.core.decisions import FeatureRef
from engine.core.errors import EngineError, IllegalActionError, NotYourTurnError
from tests.engine.expansions.scenario import Played, play

FR = ("ferries",)
RED, BLUE = Seat(0), Seat(1)
LAKE = Position(2, 0)

#: Example 1's board: red lays a straight road east of the start tile; blue closes the west end
#: with a crossing and puts a follower on its east arm (the road (-1,0)…(1,0), open to the east);
#: red puts a lake at 2,0 (road ends west, south and east) and a follower on its south end
EXAMPLE = [
    "place 1,0 r0",
    "pass",
    "place -1,0 r0",
    "deploy road:E",
    "place 2,0 r0",
    "deploy road:S",
]
PILE = ["BA/RFr", "BA/RRR", "FR/RRR"]


def go(pile: list[str], moves: list[str], **kw: object) -> Played:
    """:func:`play` with two cloisters left in the pile, so the game is not over."""
    return play([*pile, "BA/L", "BA/L"], moves, **kw)  # type: ignore[arg-type]


def road_at(s: GameState, pos: Position, side: str) -> Feature:
    """The road leaving the tile at ``pos`` by ``side``."""
    placed = s.board.cells[pos]
    i = placed.rt.side_feature["NESW".index(side)]
    return s.board.features[s.board.root[placed.segs[i]]]


def asked(s: GameState) -> tuple[str, list[str]]:
    (d,) = pending(s)
    return d.kind, [o.id for o in d.options]


def road_points(p: Played) -> list[tuple[int, int]]:
    return [(int(a.seat), a.points) for a in p.state.awards if a.item.category == "road"]


# ---------------------------------------------------------------- §8.2 the rulebook's examples
def test_rulebook_example_1_a_lake_end_without_ferry_completes_blues_road_for_4() -> None:
    """«El jugador rojo coloca la pieza de lago. Coloca un seguidor ① y coloca un
    transbordador ②. El camino del jugador azul se completa. El jugador azul recibe 4 puntos.»
    Red joins the east and south ends: blue's road (-1,0), (0,0), (1,0) and the lake's west end
    has no ferry, so it is closed: 4 tiles × 1 = 4 for blue; red's follower stays."""
    p = go(PILE, [*EXAMPLE, "ferries.place ES"], expansions=FR)
    assert road_points(p) == [(BLUE, 4)]
    assert p.state.scores == (0, 4)
    assert any(isinstance(e, FerryPlaced) and e.pair == "ES" for e in p.events)
    red_road = road_at(p.state, LAKE, "S")
    assert road_at(p.state, LAKE, "E") is red_road
    assert [m.seat for m in red_road.meeples] == [RED] and red_road.open == 2


def test_rulebook_example_2_the_ferry_puts_red_and_blue_on_the_same_road() -> None:
    """«Coloca el transbordador de otra forma. Ahora el jugador rojo y el jugador azul están en
    el mismo camino.» Red joins the west and south ends: one road of 4 tiles, open at the
    south, with blue's and red's followers; nothing scores (OQ-FER-2: red's follower went on
    the south end while it was a road of its own)."""
    p = go(PILE, [*EXAMPLE, "ferries.place SW"], expansions=FR)
    road = road_at(p.state, LAKE, "W")
    assert road is road_at(p.state, LAKE, "S")
    assert sorted(m.seat for m in road.meeples) == [RED, BLUE]
    assert len(road.tiles) == 4 and road.open == 1
    assert p.state.scores == (0, 0)
    assert road_at(p.state, LAKE, "E").open == 1  # the east end alone, closed at the lake


def test_rulebook_example_3_moving_the_first_ferry_parts_two_players_and_scores_at_once() -> None:
    """«Puede cambiar el primer transbordador del camino y moverlo de la posición ① a la
    posición ②. El jugador verde y el jugador amarillo ya no están en el mismo camino.» After
    example 2, blue extends the south end with a straight road at 2,1 and moves the ferry to
    east–south: blue's old road (-1,0)…(2,0) is closed at the lake again, 4 tiles × 1 = 4 for
    blue at once; red's follower stays on its part, the south end, now joined to the east end
    and the new tile (2 tiles, open twice)."""
    p = go(
        [*PILE, "BA/RFr"],
        [*EXAMPLE, "ferries.place SW", "place 2,1 r90", "pass"],
        expansions=FR,
    )
    kind, options = asked(p.state)
    assert kind == MOVE_STEP and options == ["2,0:ES", "2,0:EW"]
    p2 = go(
        [*PILE, "BA/RFr"],
        [*EXAMPLE, "ferries.place SW", "place 2,1 r90", "pass", "ferries.move 2,0:ES"],
        expansions=FR,
    )
    s = p2.state
    assert road_points(p2) == [(BLUE, 4)]
    red_road = road_at(s, LAKE, "S")
    assert [m.seat for m in red_road.meeples] == [RED]
    assert red_road is road_at(s, LAKE, "E") and red_road.tiles == {LAKE, Position(2, 1)}
    assert model_of(s.ext).ferries == (Ferry(LAKE, model_of(s.ext).ferries[0].ends),)
    assert any(isinstance(e, FerryMoved) and (e.before, e.after) == ("SW", "ES") for e in p2.events)


def test_a_builder_left_without_its_owners_follower_by_a_move_goes_home() -> None:
    """§5.3 effect 5 (Traders & Builders in play): after example 2 blue extends the lake's
    south end (2,1) and puts its builder there (blue's follower is on the road); moving the
    ferry to east–south leaves blue's follower on the west part, which completes (4 for blue),
    and the builder on the south part beside red's follower only: it goes home."""
    p = go(
        [*PILE, "BA/RFr"],
        [*EXAMPLE, "ferries.place SW", "place 2,1 r90", "deploy builder road:NS"],
        expansions=(*FR, "traders_builders"),
    )
    assert [m.figure for m in road_at(p.state, LAKE, "S").meeples].count("builder") == 1
    s = apply(p.state, BLUE, Action.from_notation("ferries.move 2,0:ES")).state
    assert [m.seat for m in road_at(s, LAKE, "S").meeples] == [RED]
    assert s.players[BLUE].supply["builder"] == 1 and s.scores == (0, 4)


def test_a_lake_counts_once_for_a_road_through_its_ferry_and_scores_one_a_tile() -> None:
    """OQ-FER-1 and §8.4 (Inns & Cathedrals in play: the ferry lake is no inn lake): a road
    from the crossing at -1,0 through the start tile, a straight road at 1,0 and the lake at
    2,0 (ferry west–east) to a crossing at 3,0: 5 tiles × 1 = 5 for blue."""
    p = go(
        [*PILE, "BA/RRR"],
        [*EXAMPLE[:5], "pass", "ferries.place EW", "place 3,0 r180", "pass", "pass"],
        expansions=(*FR, "inns_cathedrals"),
    )
    assert road_points(p) == [(BLUE, 5)]


# ---------------------------------------------------------------- placing the ferry
def test_the_new_ferry_is_a_decision_whose_targets_are_the_pairs_drawn_on_the_lake() -> None:
    p = go(PILE, EXAMPLE, expansions=FR)
    (d,) = pending(p.state)
    assert d.kind == PLACE_STEP and d.seat == RED and not d.optional
    assert [o.target for o in d.options] == [
        FeatureRef(2, 0, "road:ES"),
        FeatureRef(2, 0, "road:EW"),
        FeatureRef(2, 0, "road:SW"),
    ]
    assert [o.facets for o in d.options][0] == (("pair", "ES"),)


def test_the_four_way_lake_offers_six_pairs() -> None:
    p = go(["FR/RRRR"], ["place 1,0 r0", "pass"], expansions=FR)
    assert asked(p.state) == (PLACE_STEP, ["ES", "EW", "NE", "NS", "NW", "SW"])


def test_pair_names_and_masks() -> None:
    assert pair_name(0b0101) == "NS" and pair_mask("we") == 0b1010
    assert pair_mask("NN") is None and pair_mask("NSW") is None


@pytest.mark.parametrize("bad", ["NS", "EE", "xyz", "N"])
def test_a_pair_the_lake_lacks_is_refused_in_one_line_and_changes_nothing(bad: str) -> None:
    s = go(PILE, EXAMPLE, expansions=FR).state
    with pytest.raises(IllegalActionError) as err:
        apply(s, RED, Choose(PLACE_STEP, bad))
    text = str(err.value)
    assert "\n" not in text and "'ES', 'EW', 'SW'" in text
    assert err.value.text("es").startswith(f"'{bad}' no son dos finales de camino")
    assert asked(s)[0] == PLACE_STEP and not model_of(s.ext).ferries


def test_the_other_seat_and_other_answers_are_refused() -> None:
    s = go(PILE, EXAMPLE, expansions=FR).state
    with pytest.raises(NotYourTurnError):
        apply(s, BLUE, Choose(PLACE_STEP, "ES"))
    with pytest.raises(EngineError):
        apply(s, RED, Pass())  # the ferry must be placed
    with pytest.raises(EngineError) as err:
        apply(s, RED, Choose(MOVE_STEP, "2,0:ES"))
    assert "ferry" in str(err.value).lower()


def test_an_answer_after_the_decision_closed_is_refused() -> None:
    s = go(PILE, [*EXAMPLE, "ferries.place ES"], expansions=FR).state
    with pytest.raises(EngineError):
        apply(s, RED, Choose(PLACE_STEP, "SW"))


# ---------------------------------------------------------------- §8.3 moving ferries
def _two_lakes() -> Played:
    """A road from the start tile east through lake A at 2,0 (ferry west–east) and lake B at
    3,0 (ferry west–east), open to the east of B; then blue extends the start tile's west end
    with a straight road at -1,0."""
    return go(
        ["BA/RFr", "FR/RRR", "FR/RRR", "BA/RFr"],
        [
            "place 1,0 r0",
            "pass",
            "place 2,0 r0",
            "pass",
            "ferries.place EW",
            "place 3,0 r0",
            "pass",
            "ferries.place EW",
            "pass",  # B's road meets A: A may move (§8.3.5); it stays
            "place -1,0 r0",
            "pass",
        ],
        expansions=FR,
    )


def test_only_the_first_ferry_along_the_road_may_move() -> None:
    """§8.3.3: from the tile at -1,0 the road meets lake A first; B, further on, may not move."""
    p = _two_lakes()
    assert nearest_ferries(p.state, Position(-1, 0)) == (LAKE,)
    assert asked(p.state) == (MOVE_STEP, ["2,0:ES", "2,0:SW"])


def test_a_road_leaving_the_new_tile_both_ways_offers_the_first_ferry_each_way() -> None:
    """§8.3.3, the exception: lakes west (ferry east–south) and east (ferry south–west) of the
    start tile, curves under them at -1,1 (north–east) and 1,1 (north–west); a straight road at
    0,1 joins the curves, so its road leaves westwards to the lake at -1,0 and eastwards to
    the lake at 1,0: the first ferry each way may move."""
    p = go(
        ["FR/RRR", "FR/RRR", "BA/Rr", "BA/Rr", "BA/RFr"],
        [
            "place -1,0 r0",
            "pass",
            "ferries.place ES",
            "place 1,0 r0",
            "pass",
            "ferries.place SW",
            "pass",  # the new lake's road meets the lake at -1,0
            "place -1,1 r180",
            "pass",
            "pass",
            "place 1,1 r90",
            "pass",
            "pass",
            "place 0,1 r0",
            "pass",
        ],
        expansions=FR,
    )
    kind, options = asked(p.state)
    assert kind == MOVE_STEP
    assert sorted({o.split(":")[0] for o in options}) == ["-1,0", "1,0"]


def test_each_ferry_moves_once_a_turn_and_the_roads_are_followed_again_after_a_move() -> None:
    """Moving A to south–west opens A's west end onto its south end: the road from -1,0 now
    ends at A's south end (open), and no ferry is met any more, so the step ends. A moved
    ferry is never offered again that turn (§8.3.4)."""
    p = _two_lakes()
    s = apply(p.state, BLUE, Action.from_notation("ferries.move 2,0:SW")).state
    # the road from -1,0 still meets A (its west end is on the ferry), but A moved: no ask
    assert nearest_ferries(s, Position(-1, 0)) == (LAKE,)
    assert pending(s)[0].kind == "core.place"  # next turn: the moves are forgotten
    assert model_of(s.ext).moved == frozenset()
    t = p.state.clone()
    t.ext["ferries"] = replace(model_of(t.ext), moved=frozenset({LAKE}))
    assert list(move_choices(t)) == []


def test_moving_a_ferry_away_from_the_new_road_then_the_next_first_ferry_is_offered() -> None:
    """Moving A to east–south: the road from -1,0 ends at A's west end; B is no longer on it.
    Moving A to south–west… the road runs into A's south end (open). Either way the step ends;
    but when the move puts the new road onto B's road again through another route, B is
    offered; here we check that A is never offered twice."""
    p = _two_lakes()
    tr = apply(p.state, BLUE, Action.from_notation("ferries.move 2,0:ES"))
    assert not any(d.kind == MOVE_STEP for d in pending(tr.state))


def test_the_new_lake_is_ferried_first_then_the_ferries_on_its_roads_may_move() -> None:
    """§8.3.5: a lake placed on a road with a ferry: lake A at 2,0 (ferry west–east), then a
    lake at 3,0 whose west end meets A's east end: first its own ferry (never movable this
    turn), then A may move (the road leaves the new lake westwards to A)."""
    p = go(
        ["BA/RFr", "FR/RRR", "FR/RRR"],
        [
            "place 1,0 r0",
            "pass",
            "place 2,0 r0",
            "pass",
            "ferries.place EW",
            "place 3,0 r0",
            "pass",
        ],
        expansions=FR,
    )
    assert asked(p.state)[0] == PLACE_STEP
    s = apply(p.state, RED, Choose(PLACE_STEP, "EW")).state
    kind, options = asked(s)
    assert kind == MOVE_STEP and options == ["2,0:ES", "2,0:SW"]


def test_passing_keeps_the_ferries_and_a_move_not_offered_is_refused() -> None:
    p = _two_lakes()
    with pytest.raises(IllegalActionError) as err:
        apply(p.state, BLUE, Action.from_notation("ferries.move 3,0:SW"))
    assert "\n" not in str(err.value) and "'2,0:ES', '2,0:SW'" in str(err.value)
    with pytest.raises(NotYourTurnError):
        apply(p.state, RED, Pass())
    s = apply(p.state, BLUE, Pass()).state
    assert [f.pos for f in model_of(s.ext).ferries] == [LAKE, Position(3, 0)]
    assert pending(s)[0].kind == "core.place"


def test_a_scored_road_joined_again_scores_again_when_the_whole_completes() -> None:
    """OQ-FER-3: after example 1 blue's road (4 tiles) is scored. Blue extends the lake's south
    end (2,1, straight north–south) and moves the ferry to south–west: the scored road joins
    the unscored one, so the whole is not scored; red's follower on the south end holds it.
    A crossing at 2,2 closes it: (-1,0), (0,0), (1,0), (2,0), (2,1), (2,2) = 6 for red."""
    p = go(
        [*PILE, "BA/RFr", "BA/RRR"],
        [*EXAMPLE, "ferries.place ES", "place 2,1 r90", "pass", "ferries.move 2,0:SW"],
        expansions=FR,
    )
    road = road_at(p.state, LAKE, "W")
    assert road is road_at(p.state, LAKE, "S") and not road.done and road.open == 1
    assert road_at(p.state, LAKE, "E").open == 1
    p2 = go(
        [*PILE, "BA/RFr", "BA/RRR"],
        [
            *EXAMPLE,
            "ferries.place ES",
            "place 2,1 r90",
            "pass",
            "ferries.move 2,0:SW",
            "place 2,2 r180",
            "pass",
            "pass",  # the crossing meets the ferry at 2,0 again (a new turn): it stays
        ],
        expansions=FR,
    )
    assert road_points(p2) == [(BLUE, 4), (RED, 6)]


def test_the_placement_variant_lets_a_ferry_move_again_on_the_next_placement() -> None:
    """``ferries.moves = placement`` (JCloisterZone): the moves are forgotten after every
    placement; ``turn`` (default) keeps them to the end of the turn."""
    p = _two_lakes()
    assert p.state.setup.option(MOVES, "turn") == "turn"
    q = go(
        ["BA/RFr", "FR/RRR", "FR/RRR", "BA/RFr"],
        [
            "place 1,0 r0",
            "pass",
            "place 2,0 r0",
            "pass",
            "ferries.place EW",
            "place 3,0 r0",
            "pass",
            "ferries.place EW",
            "pass",
            "place -1,0 r0",
            "pass",
            "ferries.move 2,0:SW",
        ],
        expansions=FR,
        options=((MOVES, "placement"),),
    )
    assert model_of(q.state.ext).moved == frozenset()


def test_a_random_record_replays_to_the_same_scores() -> None:
    from engine import GameSetup, play_random_game

    g = play_random_game(GameSetup(players=3, expansions=FR), 3)
    assert model_of(g.state.ext).ferries  # lakes came up and got their ferries
    assert replay(g.record).scores == g.state.scores


def test_words_in_english_and_spanish() -> None:
    assert messages.text("exp.ferries", "es") == "Transbordadores"
    p = go(PILE, [*EXAMPLE, "ferries.place ES"], expansions=FR)
    (e,) = [e for e in p.events if isinstance(e, FerryPlaced)]
    pr = e.prompt()
    assert messages.text(pr.key, "es", **dict(pr.params)).startswith("0 coloca el transbordador")
    assert messages.text(MOVE_STEP, "es").startswith("Puedes mover un transbordador")


def test_jcloisterzone_5x_ferry_saves_are_refused_in_one_line() -> None:
    """Our import reads 4.x ferry messages only (``ferries-3p-02``); a 5.x save naming the
    ferry element is refused, naming the box."""
    from engine.carcassonne.jcz5 import import_jcz5
    from engine.core.errors import RecordError
    from tests.engine.jcz5saves import load_save

    data = load_save("basic/field-scoring.jcz")
    data["setup"]["elements"]["ferry"] = True
    with pytest.raises(RecordError) as err:
        import_jcz5(data)
    assert str(err.value) == "JCloisterZone element 'ferry' (Ferries) is not supported yet"
