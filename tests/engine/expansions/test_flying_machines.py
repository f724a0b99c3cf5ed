"""Flying Machines: RULES.md §6 — every rulebook example as a named test, each rule and each open
question (OQ-FM-1 … OQ-FM-6), and the rule variants.

Boards are built with real tiles from a forced pile and legal moves, except the rulebook's first
picture, whose landing tile (a cloister, a corner city and a curve: Gold Mines' ``GO/LCcRr``, in
the same *Carcassonne-Plus* box) is laid by hand. Seat 0 is "red", seat 1 "blue", seat 2
"yellow" as in the captions. Coordinates: x east, y south; the start tile (0,0) has a city
north and a road west–east. The die is forced (``GameSetup.forced``), as imports and replays
force it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engine import Action, GameSetup, IllegalActionError, Seat, apply, new_game, public_view
from engine.carcassonne.actions import Choose, Deploy, Pass
from engine.carcassonne.board import Feature, Meeple
from engine.carcassonne.events import DieRolled, FigureDeployed
from engine.carcassonne.expansions.flying_machines import (
    AFTER_FAILED,
    DIE,
    FIGURES,
    FlierBoarded,
    FlierFlew,
    FlierLanded,
    FlierModel,
    landing_square,
    turned,
)
from engine.carcassonne.expansions.flying_machines.flight import landing_targets
from engine.carcassonne.geometry import Position
from engine.carcassonne.rules import legal_actions, pending
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind, tile
from engine.core.decisions import FeatureRef
from engine.core.errors import EngineError, NotYourTurnError, StaleStateError
from tests.engine.expansions.scenario import play, points
from tests.engine.test_properties import snapshot

FM = ("flying_machines",)
RED, BLUE, YELLOW = Seat(0), Seat(1), Seat(2)


def model(s: GameState) -> FlierModel:
    m = s.ext["flying_machines"]
    assert isinstance(m, FlierModel)
    return m


def land_options(s: GameState) -> list[str]:
    (d,) = [d for d in pending(s) if d.kind == "flier.land"]
    return [o.id for o in d.options]


def feature(s: GameState, pos: Position, kind: FeatureKind) -> Feature:
    """The (first) feature of ``kind`` on the tile at ``pos``."""
    placed = s.board.cells[pos]
    index = next(f.index for f in placed.rt.tile.features if f.kind is kind)
    return s.board.feature_at(pos, index)[1]


def deploys(s: GameState) -> list[str]:
    return sorted(a.notation() for a in legal_actions(s, s.current) if isinstance(a, Deploy))


def do(s: GameState, move: str, seat: Seat | None = None) -> tuple[GameState, list[object]]:
    who = pending(s)[0].seat if seat is None else seat
    tr = apply(s, who, Action.from_notation(move))
    return tr.state, list(tr.events)


# ------------------------------------------------------------------ the rulebook's first picture
def first_picture(roll: int) -> GameState:
    """Red is to place ``FL/F.o`` (machine heading west) south of the start tile, at (0,1). Two
    tiles west of it, at (-2,1), lies ``GO/LCcRr`` (turned 0: city north and west, a road
    curving east to south, a cloister) with blue's monk in the cloister and yellow's knight in
    the city; the curve runs into two cloister tiles ``BA/LR`` at (-1,1) and (-2,2), which end
    it at both sides: the road is completed. The die is forced to ``roll``."""
    setup = GameSetup(
        players=3,
        expansions=FM,
        draw_order=("FL/F.o", "BA/L", "BA/L"),
        only_forced=True,
        forced=((DIE, (roll,)),),
    )
    s = new_game(setup, seed=1).clone()
    b = s.board
    go = b.place(Position(-2, 1), tile("GO/LCcRr").rotated(0))
    b.place(Position(-1, 1), tile("BA/LR").rotated(1))  # its road to the west
    b.place(Position(-2, 2), tile("BA/LR").rotated(2))  # its road to the north
    kinds = {f.kind: f.index for f in go.rt.tile.features}
    for seat, kind in ((BLUE, FeatureKind.CLOISTER), (YELLOW, FeatureKind.CITY)):
        b.add_meeple(Meeple(seat, "follower", go.segs[kinds[kind]], go.pos))
        s.player(seat).supply["follower"] -= 1
    road = b.feature_of(go.segs[kinds[FeatureKind.ROAD]])
    assert road.open == 0 and len(road.tiles) == 3  # completed by the two cloister tiles
    s, _ = do(s, "place 0,1 r0")
    return s


def test_rulebook_red_rolls_a_3_and_no_tile_is_there_so_the_follower_goes_back() -> None:
    """001: "Saca un 3. No se puede colocar el seguidor, porque en el lugar de aterrizaje no hay
    ninguna pieza." (0,1) − 3 tiles west = (-3,1): an empty square."""
    s = first_picture(3)
    assert "deploy flier:W" in deploys(s)
    s, events = do(s, "deploy flier:W")
    (flew,) = [e for e in events if isinstance(e, FlierFlew)]
    assert (flew.distance, flew.target, flew.reason) == (3, Position(-3, 1), "no_tile")
    assert s.players[RED].supply["follower"] == 7  # back in the supply
    assert not any(m.seat == RED for m in s.board.meeples())
    assert s.step == "place" and s.current == BLUE  # no other follower on that tile
    assert model(s).flight is not None and model(s).flight.status == "home"  # type: ignore[union-attr]


def test_rulebook_with_a_2_red_could_land_in_the_cloister_or_the_city_not_on_the_road() -> None:
    """001: "Con un 2 hubiera podido colocarlo en el claustro (aunque en él está ya el jugador
    azul) o en la ciudad (aunque en ella está ya el jugador amarillo). No lo puede colocar en el
    camino porque ya está completado." (0,1) − 2 tiles west = (-2,1), the Gold Mines tile."""
    s = first_picture(2)
    s, events = do(s, "deploy flier:W")
    (flew,) = [e for e in events if isinstance(e, FlierFlew)]
    assert (flew.distance, flew.target, flew.reason) == (2, Position(-2, 1), "")
    assert sorted(land_options(s)) == ["city:NW", "cloister"]  # not road:ES, not the fields
    assert s.players[RED].supply["follower"] == 6  # on the machine, in the air
    # occupied does not matter: red joins blue in the cloister
    s, events = do(s, "flier.land cloister")
    (landed,) = [e for e in events if isinstance(e, FlierLanded)]
    assert (landed.pos, landed.spot, landed.kind) == (Position(-2, 1), "cloister", "cloister")
    cloister = feature(s, Position(-2, 1), FeatureKind.CLOISTER)
    assert sorted(m.seat for m in cloister.meeples) == [RED, BLUE]
    assert s.players[RED].supply["follower"] == 6 and s.current == BLUE


def test_rulebook_with_a_2_red_may_join_yellow_in_the_city_instead() -> None:
    s, _ = do(first_picture(2), "deploy flier:W")
    s, _ = do(s, "flier.land city:NW")
    city = feature(s, Position(-2, 1), FeatureKind.CITY)
    assert sorted(m.seat for m in city.meeples) == [RED, YELLOW]


#: the rulebook's second picture: blue's knight in the start city (kept open by BA/CFc.1 at
#: (0,-1)), the start road closed at both ends by cloister tiles (completed); red's machine at
#: (2,0) heads west
SECOND_PILE = ["BA/LR", "BA/CFc.1", "BA/LR", "BA/L", "FL/F.o", "BA/C", "BA/L"]
SECOND_MOVES = [
    "place -1,0 r270",  # red: a cloister whose road runs east into the start road
    "pass",
    "place 0,-1 r90",  # blue: a city north-south on the start city
    "deploy city:NS",
    "place 1,0 r90",  # red: the start road ends at a cloister on both sides: completed
    "pass",
    "place 0,1 r0",  # blue: a cloister south of the start
    "pass",
    "place 2,0 r0",  # red: the machine, heading west
]


def test_rulebook_red_rolls_a_2_and_must_land_in_the_city_beside_blue() -> None:
    """001: "Saca un 2. Tiene que colocar su seguidor en la ciudad (junto al azul) porque no
    puede colocarlo en el campo y porque el camino ya está completado." (2,0) − 2 west = (0,0):
    the start tile's city (blue's, still open), its road (completed) and its fields."""
    p = play(SECOND_PILE, SECOND_MOVES, expansions=FM, forced=((DIE, (2,)),))
    assert points(p, "road") == []  # the 3-tile start road scored for nobody
    road = feature(p.state, Position(0, 0), FeatureKind.ROAD)
    assert road.open == 0
    s, _ = do(p.state, "deploy flier:W")
    assert land_options(s) == ["city:N"]  # neither the fields nor the completed road
    s, _ = do(s, "flier.land city:N")
    city = feature(s, Position(0, 0), FeatureKind.CITY)
    assert sorted(m.seat for m in city.meeples) == [RED, BLUE]


def test_a_flown_follower_counts_as_its_seats_follower_when_the_feature_scores() -> None:
    """OQ-FM-6: red's flown knight and blue's knight tie in the start city; blue closes it with
    BA/C at (0,-2): 3 tiles × 2 = 6 points to each (no pennant)."""
    p = play(
        SECOND_PILE,
        [*SECOND_MOVES, "deploy flier:W", "flier.land city:N", "place 0,-2 r180", "pass"],
        expansions=FM,
        forced=((DIE, (2,)),),
    )
    assert sorted(points(p, "city")) == [(RED, 6), (BLUE, 6)]
    assert p.state.players[RED].supply["follower"] == 7
    assert p.state.players[BLUE].supply["follower"] == 7


# ------------------------------------------------------------------------------ §6.2 rules 1-4
#: each flier tile's printed heading (TILES.md: flier→NW / flier→W), turned clockwise
HEADINGS = {
    "FL/F.d": ("NW", "NE", "SE", "SW"),
    "FL/F.o": ("W", "N", "E", "S"),
    "FL/RFr.d": ("NW", "NE", "SE", "SW"),
    "FL/RFr.NS.o": ("W", "N", "E", "S"),
    "FL/RFr.WE.o": ("W", "N", "E", "S"),
    "FL/Rr.d": ("NW", "NE", "SE", "SW"),
    "FL/Rr.NW.o": ("W", "N", "E", "S"),
    "FL/Rr.SW.o": ("W", "N", "E", "S"),
}


@pytest.mark.parametrize("tid", sorted(HEADINGS))
def test_the_machine_points_as_printed_and_turns_with_the_tile(tid: str) -> None:
    """§6.2 rule 3: horizontal, vertical or diagonal, from the artwork and the rotation; every
    rotation is offered (a directed tile keeps its turns distinct)."""
    printed = tile(tid).symbol("flier")
    assert isinstance(printed, str)
    for r, want in enumerate(HEADINGS[tid]):
        assert turned(printed, r) == want


def test_a_flight_of_n_goes_n_tiles_along_both_axes_on_a_diagonal() -> None:
    """OQ-FM-6: NW 3 from (2,-1) is (-1,-4); E 2 is (4,-1); S 1 is (2,0)."""
    origin = Position(2, -1)
    assert landing_square(origin, "NW", 3) == Position(-1, -4)
    assert landing_square(origin, "E", 2) == Position(4, -1)
    assert landing_square(origin, "S", 1) == Position(2, 0)
    assert landing_square(origin, "SE", 2) == Position(4, 1)


def test_the_follower_may_stand_on_the_tile_or_take_the_machine() -> None:
    """§6.2 rule 2: the tile's own features under the usual rules, or the machine."""
    p = play(["FL/RFr.WE.o"], ["place 1,0 r180"], expansions=FM)
    assert deploys(p.state) == [
        "deploy field:Es.Se.Sw.Ws",
        "deploy field:Nw.Ne.En.Wn",
        "deploy flier:E",  # printed west, turned 180°
        "deploy road:EW",
    ]


def test_only_normal_and_large_followers_fly() -> None:
    """OQ-FM-1: the turn summary lists "un seguidor normal o bien un seguidor grande": with
    every built expansion, neither the mayor, the wagon, the builder, the pig nor the barn may
    take the machine."""
    every = ("inns_cathedrals", "traders_builders", "abbey_mayor", "bridges_castles_bazaars", *FM)
    p = play(["FL/RFr.WE.o"], ["place 1,0 r0", "pass"], expansions=every)  # no bridge
    fliers = [d for d in deploys(p.state) if "flier" in d]
    assert fliers == ["deploy flier:W", "deploy large flier:W"]
    with pytest.raises(EngineError) as err:  # one line for the figure, nothing changes
        do(p.state, "deploy mayor flier:W")
    assert str(err.value) == "You cannot put a mayor there."


def test_the_jcloisterzone_variant_lets_every_follower_figure_fly_landing_where_it_may() -> None:
    """``flier.figures=all`` (as JCloisterZone plays): the mayor and the wagon fly too; the
    mayor may land only in a city, so on the start tile (city, completed road) only there."""
    opts = ((FIGURES, "all"),)
    exps = ("abbey_mayor", *FM)
    p = play(
        ["BA/LR", "BA/LR", "FL/F.o"],
        ["place -1,0 r270", "pass", "place 1,0 r90", "pass", "place 2,0 r0"],
        expansions=exps,
        options=opts,
        forced=((DIE, (2,)),),
    )
    assert [d for d in deploys(p.state) if "flier" in d] == [
        "deploy flier:W",
        "deploy mayor flier:W",
        "deploy wagon flier:W",
    ]
    s, _ = do(p.state, "deploy mayor flier:W")
    assert land_options(s) == ["city:N"]  # the mayor: a city only (the road is completed anyway)


def test_flying_needs_a_follower_in_the_supply() -> None:
    """OQ-FM-6: with no follower left there is nothing to put on the machine."""
    p = play(["FL/RFr.WE.o"], ["place 1,0 r0"], expansions=FM)
    s = p.state.clone()
    s.player(RED).supply["follower"] = 0
    assert deploys(s) == []


def test_the_roll_is_public_and_comes_from_the_matchs_hidden_generator() -> None:
    """§6.2 rule 4, OQ-FM-6: one public DieRolled per flight, a face of 1, 1, 2, 2, 3, 3; the
    next roll is in no view; the same seed rolls the same; forced rolls come first."""
    setup = GameSetup(players=2, expansions=FM, draw_order=("FL/F.d",))
    rolled: Counter[int] = Counter()
    for seed in range(60):
        s = new_game(setup, seed=seed)
        s, _ = do(s, "place 0,1 r0")
        view = public_view(s)
        s, events = do(s, "deploy flier:NW")
        (die,) = [e for e in events if isinstance(e, DieRolled)]
        assert (die.seat, die.die) == (RED, DIE) and die.value in (1, 2, 3)
        assert die.prompt() is not None  # worded for every player
        rolled[die.value] += 1
        again, events2 = do(new_game(setup, seed=seed), "place 0,1 r0")
        again, events2 = do(again, "deploy flier:NW")
        assert [e for e in events2 if isinstance(e, DieRolled)] == [die]
        assert "piles" not in repr(view.ext) and view == public_view(
            do(new_game(setup, seed=seed), "place 0,1 r0")[0]
        )
    assert set(rolled) == {1, 2, 3} and min(rolled.values()) >= 10  # about a third each
    forced = replace(setup, forced=((DIE, (3, 1)),))
    s, _ = do(new_game(forced, seed=5), "place 0,1 r0")
    s, events = do(s, "deploy flier:NW")
    assert [e.value for e in events if isinstance(e, DieRolled)] == [3]


def test_boarding_and_flying_are_told_to_everyone_in_words() -> None:
    p = play(SECOND_PILE, SECOND_MOVES, expansions=FM, forced=((DIE, (2,)),))
    s, events = do(p.state, "deploy flier:W")
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["FigureDeployed", "FlierBoarded", "DieRolled", "FlierFlew"]
    deployed = events[0]
    assert isinstance(deployed, FigureDeployed) and deployed.spot == "flier:W"
    from engine.core import messages

    for e in events[1:]:
        prompt = e.prompt()  # type: ignore[attr-defined]
        for lang in ("en", "es"):
            text = messages.text(prompt.key, lang, **dict(prompt.params))
            assert "{" not in text and text, (prompt, lang)
    flew = events[3]
    assert isinstance(flew, FlierFlew)
    assert messages.text(flew.prompt().key, "es", **dict(flew.prompt().params)).startswith("El ")


# ------------------------------------------------------------------------------ the landing
def test_the_landing_is_a_decision_of_the_seat_on_the_landing_tiles_features() -> None:
    """§6.2 rule 5: the active player chooses; the targets are the landing tile's features."""
    s, _ = do(first_picture(2), "deploy flier:W")
    (d,) = pending(s)
    assert (d.kind, d.seat, d.optional) == ("flier.land", RED, False)
    assert {o.target for o in d.options} == {
        FeatureRef(-2, 1, "city:NW"),
        FeatureRef(-2, 1, "cloister"),
    }
    assert [a.notation() for a in d.actions()] == ["flier.land city:NW", "flier.land cloister"]
    assert all(o.facets == (("spot", o.id),) for o in d.options)


def test_the_choice_to_fly_is_binding() -> None:
    """OQ-FM-3: once on the machine there is no going back: pass, another deploy or another
    answer are refused in one line and change nothing."""
    s, _ = do(first_picture(2), "deploy flier:W")
    before = snapshot(s)
    for move in ("pass", "deploy field:Nw.Ne.En.Es.Se.Sw.Ws.Wn", "flier.land road:ES"):
        with pytest.raises(EngineError) as err:
            apply(s, RED, Action.from_notation(move))
        assert "\n" not in str(err.value)
    assert snapshot(s) == before


def test_bad_answers_get_one_line_and_change_nothing() -> None:
    s, _ = do(first_picture(2), "deploy flier:W")
    key = pending(s)[0].key
    before = snapshot(s)
    cases: list[tuple[Seat, Action, str | None, type[EngineError], str]] = [
        (RED, Choose("flier.land", "road:ES"), key, IllegalActionError, "'road:ES' is not"),
        (RED, Choose("flier.land", "field:Es.Se"), key, IllegalActionError, "may land on"),
        (BLUE, Choose("flier.land", "cloister"), None, NotYourTurnError, "not your turn"),
        (BLUE, Choose("flier.land", "cloister"), key, StaleStateError, "out of date"),
        (RED, Choose("flier.land", "cloister"), "flier.land#999", StaleStateError, "out of date"),
        (RED, Pass(), key, IllegalActionError, "in the air"),
    ]
    for seat, action, k, error, words in cases:
        with pytest.raises(error) as err:
            apply(s, seat, action, key=k)
        text = str(err.value)
        assert "\n" not in text and words in text, text
    assert snapshot(s) == before
    landed = apply(s, RED, Choose("flier.land", "cloister"), key=key).state
    with pytest.raises(StaleStateError):  # an answer after the decision closed
        apply(landed, RED, Choose("flier.land", "city:NW"), key=key)


def test_a_landing_tile_with_only_fields_sends_the_follower_home() -> None:
    """§6.2 rules 6-7: a field is no target, even an empty one: 1 tile west of red's machine at
    (1,1) lies FL/F.d at (0,1), all field: the follower goes home."""
    p = play(
        ["FL/F.d", "BA/L", "FL/F.o", "BA/L"],
        ["place 0,1 r0", "pass", "place -1,1 r0", "pass", "place 1,1 r0"],
        expansions=FM,
        forced=((DIE, (1,)),),
    )
    s, events = do(p.state, "deploy flier:W")
    (flew,) = [e for e in events if isinstance(e, FlierFlew)]
    assert (flew.target, flew.reason) == (Position(0, 1), "nowhere")
    assert s.players[RED].supply["follower"] == 7 and s.current == BLUE


def test_a_completed_cloister_is_no_target_but_an_abbey_is_a_cloister() -> None:
    """§6.2 rule 6 and OQ-FM-2: a cloister with its 8 neighbours is completed; the abbey
    (Abbey & Mayor's ``AM/A``) counts as a cloister while it is not."""
    s = first_picture(2)
    s, _ = do(s, "deploy flier:W")
    flight = model(s).flight
    assert flight is not None
    b = s.board
    abbey = b.place(Position(-2, -3), tile("AM/A").rotated(0))
    assert landing_targets(s, replace(flight, target=abbey.pos)) == [(0, "cloister", "cloister")]
    for dx, dy in ((-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)):
        b.place(Position(-2 + dx, -3 + dy), tile("BA/L").rotated(0))
    assert landing_targets(s, replace(flight, target=abbey.pos)) == []


def test_a_feature_the_flier_tile_just_completed_is_no_target() -> None:
    """OQ-FM-4: "sin completar" is judged on the board as the flier tile left it. FL/RFr.WE.o
    at (1,0) closes the start road between the cloister tiles at (-1,0) and (2,0): with a 1
    the follower lands on the start tile, whose road is no target any more — only its city."""
    pile = ["BA/LR", "BA/L", "BA/L", "BA/L", "BA/LR", "FL/RFr.WE.o"]
    moves = [
        "place -1,0 r270",
        "pass",
        "place 0,1 r0",
        "pass",
        "place 1,1 r0",
        "pass",
        "place 2,1 r0",
        "pass",
        "place 2,0 r90",
        "pass",
        "place 1,0 r0",
    ]
    p = play(pile, moves, expansions=FM, forced=((DIE, (1,)),))
    road = feature(p.state, Position(0, 0), FeatureKind.ROAD)
    assert road.open == 0 and not road.done  # completed, scored only after the follower step
    s, _ = do(p.state, "deploy flier:W")
    assert land_options(s) == ["city:N"]
    s, events = do(s, "flier.land city:N")
    assert [a.points for a in s.awards if a.item.category == "road"] == []  # nobody on it


def test_a_failed_flight_ends_only_that_tiles_follower_step() -> None:
    """OQ-FM-5 (default ``flier.after_failed=placement``): with Traders & Builders, red's
    builder brings a second tile in the same turn; the flight from the first tile fails, and
    the second tile's follower step offers followers as usual."""
    s = _builder_turn(())
    assert any(d.startswith("deploy road") or d.startswith("deploy field") for d in deploys(s))


def test_the_variant_after_a_failed_flight_no_follower_all_turn() -> None:
    """``flier.after_failed=turn`` ("durante ese turno"): the second tile of that turn offers no
    follower (builder and pig are no followers); a follower named is refused in one line."""
    s = _builder_turn(((AFTER_FAILED, "turn"),))
    offered = deploys(s)
    assert not any("flier" in d or d.startswith("deploy road") for d in offered), offered
    field = next(x for x in s.board.cells[Position(4, 0)].rt.spots if x.startswith("field"))
    with pytest.raises(IllegalActionError) as err:  # a follower on a free field: refused
        apply(s, RED, Deploy(field))
    assert "flight failed" in str(err.value) and "\n" not in str(err.value)
    # the turn passes; on red's next tile followers are offered again
    s, _ = do(s, "pass")
    s, _ = do(s, next(a.notation() for a in legal_actions(s, BLUE)))
    s, _ = do(s, "pass")
    assert model(s).grounded is None and s.current == RED  # ungrounded when red's turn ended
    s, _ = do(s, next(a.notation() for a in legal_actions(s, RED)))
    assert any(not d.startswith("deploy builder") for d in deploys(s))


def _builder_turn(options: tuple[tuple[str, object], ...]) -> GameState:
    """Red's thief on the road east of the start, red's builder on it; the machine tile
    FL/RFr.WE.o (heading east at 180°) extends that road at (3,0) and brings the builder's
    second tile; the flight (1 east: (4,0), no tile) fails."""
    pile = ["BA/RFr", "BA/L", "BA/RFr", "BA/L", "FL/RFr.WE.o", "BA/RFr", "BA/L", "BA/L"]
    moves = [
        "place 1,0 r0",
        "deploy road:EW",  # red's thief
        "place 0,1 r0",
        "pass",
        "place 2,0 r0",
        "deploy builder road:EW",  # red's builder joins its road
        "place -1,1 r0",
        "pass",
        "place 3,0 r180",  # the machine extends the builder's road: a second tile follows
        "deploy flier:E",
    ]
    p = play(
        pile,
        moves,
        expansions=("traders_builders", *FM),
        forced=((DIE, (1,)),),
        options=options,
    )
    s = p.state
    flew = [e for e in p.events if isinstance(e, FlierFlew)]
    assert flew and flew[-1].reason == "no_tile"
    (d,) = pending(s)
    if d.kind != "core.place":  # take the builder's second tile when asked
        s, _ = do(s, [a.notation() for a in d.actions() if "take" in a.notation()][0])
    s, _ = do(s, "place 4,0 r0")
    return s


def test_boarded_figure_leaves_the_supply_and_the_events_tell_so() -> None:
    s = first_picture(2)
    s, events = do(s, "deploy flier:W")
    (boarded,) = [e for e in events if isinstance(e, FlierBoarded)]
    assert (boarded.seat, boarded.figure, boarded.pos, boarded.heading) == (
        RED,
        "follower",
        Position(0, 1),
        "W",
    )
    assert s.players[RED].supply["follower"] == 6 and model(s).flight is not None


def test_the_last_flight_is_kept_until_the_next_tile_is_placed() -> None:
    """What the turn's pictures draw (the path, the die, the landing square) stays in the public
    model until the next tile is placed."""
    s, _ = do(first_picture(3), "deploy flier:W")
    assert public_view(s).ext["flying_machines"].flight.status == "home"
    s, _ = (
        do(s, "place 1,1 r0")
        if "place 1,1 r0" in [a.notation() for a in legal_actions(s, BLUE)]
        else do(s, next(a.notation() for a in legal_actions(s, BLUE)))
    )
    assert model(s).flight is None


def test_a_castle_is_no_target() -> None:
    """OQ-FM-2: a castle (Bridges, Castles & Bazaars) is not a road, city or cloister: red's
    castle on the 2-tile city (0,-1)+(0,0); red's machine at (1,-1) heads west, a 1 lands on
    (0,-1), which holds only the castle's city and fields: the follower goes home."""
    p = play(
        ["BA/C", "BA/L", "FL/F.o", "BA/L"],
        [
            "place 0,-1 r180",
            "deploy city:S",
            "bcb.castle build",
            "place 0,1 r0",
            "pass",
            "place 1,-1 r0",
            "deploy flier:W",
        ],
        expansions=("bridges_castles_bazaars", *FM),
        options=(("bcb.bridges", False), ("bcb.markets", False)),
        forced=((DIE, (1,)),),
    )
    assert [c.tiles for c in p.state.ext["bridges_castles_bazaars"].castles] == [
        (Position(0, -1), Position(0, 0))
    ]
    (flew,) = [e for e in p.events if isinstance(e, FlierFlew)]
    assert (flew.target, flew.reason) == (Position(0, -1), "nowhere")


def test_a_flown_follower_lets_its_seat_put_a_builder_beside_it() -> None:
    """OQ-FM-6: a flown follower counts as the seat's follower for every later rule: red's
    thief flown from (3,0) one tile west onto the road at (2,0) lets red's builder join that
    road from the tile red lays at (-1,0)."""
    p = play(
        ["BA/RFr", "BA/RFr", "FL/RFr.WE.o", "BA/L", "BA/RFr"],
        [
            "place 1,0 r0",
            "pass",
            "place 2,0 r0",
            "pass",
            "place 3,0 r0",
            "deploy flier:W",
            "flier.land road:EW",
            "place 0,1 r0",
            "pass",
            "place -1,0 r0",
        ],
        expansions=("traders_builders", *FM),
        forced=((DIE, (1,)),),
    )
    assert "deploy builder road:EW" in deploys(p.state)
    p2 = play(
        ["BA/RFr", "BA/RFr", "FL/RFr.WE.o", "BA/L", "BA/RFr"],
        ["place 1,0 r0", "pass", "place 2,0 r0", "pass", "place 3,0 r0", "pass"]
        + ["place 0,1 r0", "pass", "place -1,0 r0"],
        expansions=("traders_builders", *FM),
    )
    assert "deploy builder road:EW" not in deploys(p2.state)  # without the flown thief
