"""Mage & Witch (RULES.md §10): the rulebook's examples, the magic tile's decision (§10.2), a
tile joining the two figures (rule 6), nowhere to go (rule 5, OQ-MW-3), completion (OQ-MW-1)
and final scoring (§10.4). Numbers are derived by hand in each test."""

from __future__ import annotations

import pytest

from engine import Action, GameSetup, IllegalActionError, Seat, apply, new_game
from engine.carcassonne.actions import Choose, Pass
from engine.carcassonne.board import Meeple
from engine.carcassonne.events import PointsScored
from engine.carcassonne.expansions.mage_witch import (
    JOIN_STEP,
    MOVE_STEP,
    FigurePlaced,
    FigureSetAside,
    MageWitchModel,
    model_of,
)
from engine.carcassonne.geometry import Position
from engine.carcassonne.record import replay
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind, tile
from engine.core import messages
from engine.core.decisions import FeatureRef, FigureRef
from engine.core.errors import EngineError, NotYourTurnError, StaleStateError
from engine.core.seats import NEUTRAL
from tests.engine.test_properties import snapshot

MW = ("mage_witch",)
RED, BLUE = Seat(0), Seat(1)
ROAD, CITY = FeatureKind.ROAD, FeatureKind.CITY


def game(pile: tuple[str, ...], expansions: tuple[str, ...] = MW, **setup: object) -> GameState:
    s = new_game(
        GameSetup(players=2, expansions=expansions, draw_order=pile, only_forced=True, **setup),  # type: ignore[arg-type]
        seed=1,
    )
    return s.clone()


def do(s: GameState, move: str) -> tuple[GameState, list[object]]:
    tr = apply(s, pending(s)[0].seat, Action.from_notation(move))
    return tr.state, list(tr.events)


def index_of(s: GameState, pos: Position, kind: FeatureKind, nth: int = 0) -> int:
    return [f.index for f in s.board.cells[pos].rt.tile.features if f.kind is kind][nth]


def follower(s: GameState, seat: Seat, pos: Position, kind: FeatureKind) -> None:
    """Put ``seat``'s follower on the first feature of ``kind`` of the tile at ``pos``."""
    s.board.add_meeple(
        Meeple(seat, "follower", s.board.cells[pos].segs[index_of(s, pos, kind)], pos)
    )
    s.player(seat).supply["follower"] -= 1


def stand(s: GameState, figure: str, pos: Position, kind: FeatureKind) -> None:
    """Put the mage or the witch on the first feature of ``kind`` of the tile at ``pos``."""
    m = Meeple(NEUTRAL, figure, s.board.cells[pos].segs[index_of(s, pos, kind)], pos)
    s.board.add_meeple(m)
    s.ext["mage_witch"] = model_of(s.ext).put(figure, m)


def options(s: GameState) -> list[str]:
    (d,) = pending(s)
    return [o.id for o in d.options]


def scored(s: GameState, category: str) -> list[tuple[int, int, list[str]]]:
    return [
        (int(a.seat), a.points, [str(p) for p in a.item.parts])
        for a in s.awards
        if a.item.category == category
    ]


# ---------------------------------------------------------------- §10.2 the magic tile
def test_a_magic_tile_asks_for_the_mage_or_the_witch_on_any_unfinished_road_or_city() -> None:
    """Red puts MW/CRRR.3 (city north, three roads to a crossing) east of the start tile: the
    unfinished parts are the start tile's city and road and the new tile's city and 3 roads
    (its west road is the start tile's road). Each figure may go on any of the 6, in reading
    order; the follower comes after."""
    s = game(("MW/CRRR.3", "BA/L"))
    s, _ = do(s, "place 1,0 r0")
    (d,) = pending(s)
    assert d.kind == MOVE_STEP and d.seat == RED and not d.optional
    spots = ["0,0@city:N", "0,0@road:EW", "1,0@city:N", "1,0@road:E", "1,0@road:S", "1,0@road:W"]
    assert options(s) == [f"mage@{x}" for x in spots] + [f"witch@{x}" for x in spots]
    assert d.options[1].target == FeatureRef(0, 0, "road:EW")
    assert d.options[1].facets == (("figure", "mage"), ("feature", "0,0@road:EW"))
    s, events = do(s, f"{MOVE_STEP} mage@0,0@road:EW")
    placed = FigurePlaced(RED, "mage", Position(0, 0), "road:EW", "road", False)
    assert placed in events
    assert model_of(s.ext).mage == Meeple(
        NEUTRAL, "mage", s.board.cells[Position(0, 0)].segs[1], Position(0, 0)
    )
    (d,) = pending(s)
    assert d.seat == RED and d.kind not in (MOVE_STEP, JOIN_STEP)  # then the follower, as usual
    s, _ = do(s, "deploy road:W")  # a follower may join the mage: it never occupies


def test_a_tile_without_the_portal_asks_nothing() -> None:
    s = game(("BA/RFr", "BA/L"))
    s, _ = do(s, "place 1,0 r0")
    assert pending(s)[0].kind != MOVE_STEP


def test_a_figure_on_the_board_moves_to_another_tile_and_feature_never_onto_the_other() -> None:
    """Rules 3 and 4, OQ-MW-3: the mage stands on the start tile's road, the witch on its city.
    The mage may go to no part of the start tile (its own tile) and no part of its road; the
    witch, set aside... stands on the city: it may not go on the mage's road, nor anywhere on
    its own tile."""
    s = game(("MW/CRRR.3", "BA/L"))
    stand(s, "mage", Position(0, 0), ROAD)
    stand(s, "witch", Position(0, 0), CITY)
    s, _ = do(s, "place 1,0 r0")
    # the new tile's west road is the mage's road: nobody goes there
    assert options(s) == [
        "mage@1,0@city:N",
        "mage@1,0@road:E",
        "mage@1,0@road:S",
        "witch@1,0@city:N",
        "witch@1,0@road:E",
        "witch@1,0@road:S",
    ]
    s, events = do(s, f"{MOVE_STEP} witch@1,0@road:S")
    assert FigurePlaced(RED, "witch", Position(1, 0), "road:S", "road", True) in events
    witch = model_of(s.ext).witch
    assert witch is not None and witch.pos == Position(1, 0)
    start_city = s.board.feature_at(Position(0, 0), 0)[1]
    assert start_city.neutrals() == ()  # it left the city it stood on


def test_bad_answers_get_one_line_and_change_nothing() -> None:
    s = game(("MW/CRRR.3", "BA/L"))
    stand(s, "mage", Position(0, 0), ROAD)
    s, _ = do(s, "place 1,0 r0")
    key = pending(s)[0].key
    before = snapshot(s)
    cases: list[tuple[Seat, Action, str | None, type[EngineError], str]] = [
        (RED, Choose(MOVE_STEP, "mage@0,0@city:N"), key, IllegalActionError, "another tile"),
        (RED, Choose(MOVE_STEP, "witch@1,0@road:W"), key, IllegalActionError, "The witch"),
        (RED, Choose(MOVE_STEP, "witch@1,0@field:En.Wn"), key, IllegalActionError, "road or"),
        (RED, Choose(MOVE_STEP, "dragon@1,0@road:E"), key, IllegalActionError, "mage@2,-1"),
        (RED, Choose(MOVE_STEP, "mage@9,9@road:E"), key, IllegalActionError, "mage@2,-1"),
        (RED, Choose(MOVE_STEP, "mage@off"), key, IllegalActionError, "neither can go"),
        (BLUE, Choose(MOVE_STEP, "mage@1,0@road:E"), None, NotYourTurnError, "not your turn"),
        (RED, Pass(), key, IllegalActionError, "mage or the witch first"),
    ]
    for seat, action, k, error, words in cases:
        with pytest.raises(error) as err:
            apply(s, seat, action, key=k)
        text = str(err.value)
        assert "\n" not in text and words in text, text
    assert snapshot(s) == before
    done = apply(s, RED, Choose(MOVE_STEP, "mage@1,0@road:E"), key=key).state
    with pytest.raises(StaleStateError):  # an answer after the decision closed
        apply(done, RED, Choose(MOVE_STEP, "mage@1,0@road:S"), key=key)


def test_the_refusals_read_in_spanish() -> None:
    s = game(("MW/CRRR.3", "BA/L"))
    s, _ = do(s, "place 1,0 r0")
    with pytest.raises(IllegalActionError) as err:
        apply(s, RED, Choose(MOVE_STEP, "witch@1,0@field:En.Wn"))
    assert err.value.text("es").startswith("La bruja no puede ir a")


# ---------------------------------------------------------------- rule 5: nowhere to go
def closed_hole() -> GameState:
    """A hole at (1,0) where MW/CcRr.1 turned 1 (city north and east, road south and west)
    closes everything: the start tile's road (its west end at a cloister BA/LR) runs into the
    hole and on south to another cloister; the city caps north and east of the hole meet in
    it; the start tile's own city is closed by a cap. Before the tile, the mage stands on the
    start tile's road and the witch on the cap north of the hole."""
    s = game(("MW/CcRr.1", "BA/L"))
    for pos, name, r in (
        ((0, -1), "BA/C", 2),
        ((1, -1), "BA/C", 2),
        ((2, 0), "BA/C", 3),
        ((-1, 0), "BA/LR", 3),
        ((1, 1), "BA/LR", 2),
    ):
        s.board.place(Position(*pos), tile(name).rotated(r))
    return s


def test_with_nowhere_to_go_the_seat_takes_one_figure_off_the_board() -> None:
    """Rule 5: after MW/CcRr.1 fills the hole every road and city is finished, so neither
    figure may go anywhere: red takes one off (the witch). Then the road and the city, both
    completed, send the mage and ... nobody else off (OQ-MW-1)."""
    s = closed_hole()
    stand(s, "mage", Position(0, 0), ROAD)
    stand(s, "witch", Position(1, -1), CITY)
    s, _ = do(s, "place 1,0 r90")
    (d,) = pending(s)
    assert d.kind == MOVE_STEP and options(s) == ["mage@off", "witch@off"]
    assert d.options[0].target == FigureRef(0, 0, "road:EW", "mage")
    s, events = do(s, f"{MOVE_STEP} witch@off")
    assert FigureSetAside("witch", False, RED) in events
    s, events = do(s, "pass")
    assert FigureSetAside("mage", True) in events  # its road was completed, nobody scored it
    assert model_of(s.ext) == MageWitchModel()
    assert not [e for e in events if isinstance(e, PointsScored)]


def test_with_nowhere_to_go_and_one_figure_on_the_board_it_is_taken_off_unasked() -> None:
    s = closed_hole()
    stand(s, "witch", Position(1, -1), CITY)
    s, events = do(s, "place 1,0 r90")
    assert FigureSetAside("witch", False, RED) in events
    assert pending(s)[0].kind != MOVE_STEP and model_of(s.ext).witch is None


# ---------------------------------------------------------------- rule 6: a tile joins them
def joining_road() -> GameState:
    """The start tile's road (the mage, blue's follower) and a road BA/RFr at (-2,0) (the
    witch), closed by cloisters at (-3,0) and (1,0). Red's BA/RFr at (-1,0) joins them into
    one finished road of 5 tiles."""
    s = game(("BA/RFr", "BA/L"))
    s.board.place(Position(-2, 0), tile("BA/RFr").rotated(0))
    s.board.place(Position(-3, 0), tile("BA/LR").rotated(3))
    s.board.place(Position(1, 0), tile("BA/LR").rotated(1))
    stand(s, "mage", Position(0, 0), ROAD)
    stand(s, "witch", Position(-2, 0), ROAD)
    follower(s, BLUE, Position(0, 0), ROAD)
    return s


def test_rule_6_a_tile_joining_them_makes_the_active_seat_move_one_before_scoring() -> None:
    """Red joins the two roads. Before anything scores red must move one figure away: the mage
    may not stay on its own tile, whose other part (the city) is all that is unfinished, so
    only the witch can go, to the start tile's city. Then the road scores for blue with the
    mage alone: 5 tiles + 5 = 10 (with both it would have been (5 + 5) / 2 = 5)."""
    s = joining_road()
    s, _ = do(s, "place -1,0 r0")
    s, _ = do(s, "pass")  # red's follower step comes first
    (d,) = pending(s)
    assert d.kind == JOIN_STEP and d.seat == RED
    assert options(s) == ["witch@0,0@city:N"]
    s, events = do(s, f"{JOIN_STEP} witch@0,0@city:N")
    assert FigurePlaced(RED, "witch", Position(0, 0), "city:N", "city", True) in events
    assert scored(s, "road") == [(1, 10, ["5 tiles × 1", "+5 mage"])]
    assert FigureSetAside("mage", True) in events
    assert model_of(s.ext).witch is not None and model_of(s.ext).mage is None


# ---------------------------------------------------------------- §10.3 scoring
def test_rulebook_red_three_tile_road_with_the_mage_scores_six() -> None:
    """«Rojo: camino de 3 piezas con el mago = 6.» Red puts MW/CRRR.3 east of the start tile,
    the mage on the start tile's road and a follower on the road into the crossing; blue's
    crossing BA/RRR west of the start tile closes it: 3 tiles × 1 + 3 (mage) = 6. The mage
    then leaves the board."""
    s = game(("MW/CRRR.3", "BA/RRR", "BA/L"))
    s, _ = do(s, "place 1,0 r0")
    s, _ = do(s, f"{MOVE_STEP} mage@0,0@road:EW")
    s, _ = do(s, "deploy road:W")
    s, events = do(s, "place -1,0 r0")
    s, events2 = do(s, "pass")
    assert scored(s, "road") == [(0, 6, ["3 tiles × 1", "+3 mage"])]
    assert FigureSetAside("mage", True) in events + events2
    assert model_of(s.ext).mage is None


def test_rulebook_blue_five_tile_road_with_the_witch_scores_three() -> None:
    """«Azul: camino de 5 piezas con la bruja = 3.» The witch on the start tile's road; blue's
    follower on it; closed at a crossing on each end: 5 tiles, 5 / 2 rounded up = 3."""
    s = game(("MW/CRRR.3", "BA/RFr", "BA/RFr", "BA/RRR", "BA/L"))
    for move in (
        "place 1,0 r0",
        f"{MOVE_STEP} witch@0,0@road:EW",
        "pass",
        "place -1,0 r0",
        "deploy road:EW",
        "place -2,0 r0",
        "pass",
        "place -3,0 r0",
        "pass",
    ):
        s, _ = do(s, move)
    assert scored(s, "road") == [(1, 3, ["5 tiles × 1", "½ witch"])]


def eight_tile_city(figure: str) -> GameState:
    """A city of 8 tiles running north from the start tile: 6 city pieces (2 with a shield)
    and a cap to close it, red's and blue's knights in it, ``figure`` too."""
    s = game(("BA/C", "BA/L"))
    names = ("BA/CFc+", "BA/CFc.1", "BA/CFc+", "BA/CFc.1", "BA/CFc.1", "BA/CFc.1")
    for y, name in enumerate(names, start=1):
        s.board.place(Position(0, -y), tile(name).rotated(1))
    follower(s, RED, Position(0, 0), CITY)
    follower(s, BLUE, Position(0, -3), CITY)
    stand(s, figure, Position(0, -1), CITY)
    return s


def test_rulebook_an_eight_tile_city_with_two_shields_and_the_mage_gives_28_to_each() -> None:
    """«Una ciudad de 8 piezas con 2 escudos vale 20; el mago suma 8: rojo y azul 28 cada
    uno.» (8 + 2) × 2 = 20, + 8 = 28 to both tied knights."""
    s = eight_tile_city("mage")
    s, _ = do(s, "place 0,-7 r180")
    s, _ = do(s, "pass")
    assert scored(s, "city") == [
        (0, 28, ["8 tiles × 2", "2 shields × 2", "+8 mage"]),
        (1, 28, ["8 tiles × 2", "2 shields × 2", "+8 mage"]),
    ]


def test_the_same_city_with_the_witch_gives_half_to_each() -> None:
    s = eight_tile_city("witch")
    s, _ = do(s, "place 0,-7 r180")
    s, _ = do(s, "pass")
    assert [(seat, pts) for seat, pts, _ in scored(s, "city")] == [(0, 10), (1, 10)]  # 20 / 2


@pytest.mark.parametrize(
    ("figure", "tiny", "points"),
    [("mage", 2, 2 + 2), ("mage", 4, 4 + 2), ("witch", 2, 1), ("witch", 4, 2)],
)
def test_a_two_tile_city_with_the_mage_or_the_witch(figure: str, tiny: int, points: int) -> None:
    """§10.3: a completed 2-tile city without a shield scores 2 (``tiny_city = 2``) or 4:
    with the mage 2 + 2 = 4 or 4 + 2 = 6; with the witch 2 → 1 or 4 → 2."""
    s = game(("BA/C", "BA/L"), tiny_city=tiny)
    follower(s, RED, Position(0, 0), CITY)
    stand(s, figure, Position(0, 0), CITY)
    s, _ = do(s, "place 0,-1 r180")
    s, _ = do(s, "pass")
    assert [pts for _, pts, _ in scored(s, "city")] == [points]


def test_the_witch_halves_an_inn_road_after_the_inn() -> None:
    """§10.3: 4 tiles with an inn score 2 × 4 = 8, then halved: 4."""
    s = game(("IC/RFr.i", "BA/RRR", "BA/RRR", "BA/L"), ("inns_cathedrals", *MW))
    s, _ = do(s, "place 1,0 r0")
    s, _ = do(s, "deploy road:EW")
    stand(s, "witch", Position(1, 0), ROAD)
    for move in ("place 2,0 r0", "pass", "place -1,0 r0", "pass"):
        s, _ = do(s, move)
    assert [pts for _, pts, _ in scored(s, "road")] == [4]


# ---------------------------------------------------------------- §10.4 final scoring
def test_final_an_unfinished_inn_road_with_the_mage_scores_one_per_tile() -> None:
    """§10.4: an unfinished inn road scores 0; with the mage, 1 per tile: 3 tiles → 3."""
    s = game(("IC/RFr.i", "BA/RRR"), ("inns_cathedrals", *MW))
    s, _ = do(s, "place 1,0 r0")
    s, _ = do(s, "deploy road:EW")
    stand(s, "mage", Position(0, 0), ROAD)
    s, _ = do(s, "place 2,0 r0")
    s, _ = do(s, "pass")
    assert s.over and [pts for _, pts, _ in scored(s, "road")] == [0 + 3]


def test_final_the_witch_halves_an_unfinished_city() -> None:
    """The start tile's city and a city piece north of it, open: 2 tiles × 1 = 2 → 1; the
    witch stays on the board until the end (nothing completed it)."""
    s = game(("BA/CFc.1",))
    follower(s, RED, Position(0, 0), CITY)
    stand(s, "witch", Position(0, 0), CITY)
    s, _ = do(s, "place 0,-1 r90")
    s, _ = do(s, "pass")
    assert s.over and scored(s, "city") == [(0, 1, ["2 tiles × 1", "½ witch"])]


# ---------------------------------------------------------------- words and records
def test_words_in_english_and_spanish() -> None:
    assert messages.text("exp.mage_witch", "es") == "Mago y Bruja"
    assert messages.text("fig.mage", "es") == "mago" and messages.text("fig.witch", "es") == "bruja"
    assert messages.text("part.mage", "en", n=5) == "+5 mage"
    assert messages.text("part.mage", "es", n=5) == "+5 mago"
    assert messages.text("part.witch", "en") == "½ witch"
    assert messages.text("part.witch", "es") == "½ bruja"
    placed = FigurePlaced(RED, "witch", Position(1, 0), "road:S", "road", True).prompt()
    params = {k: messages.text(v.key, "es") if hasattr(v, "key") else v for k, v in placed.params}
    params["seat"] = "Ana"
    assert (
        messages.text(placed.key, "es", **params) == "Ana mueve a la bruja hasta el camino en 1,0."
    )


def test_a_random_record_replays_to_the_same_scores() -> None:
    from engine import play_random_game

    g = play_random_game(GameSetup(players=3, expansions=MW), 1)
    assert replay(g.record).scores == g.state.scores
