"""Crop Circles (RULES.md §12): the rulebook's two examples, option A optional and B not,
the round in turn order from the active player's left with idle seats skipped and announced
(OQ-CC-3), the figures option A may add (OQ-CC-1), crop fields cutting roads, the two tile
sets as lobby options and bad answers refused without a change. Numbers are derived by hand
in each test."""

from __future__ import annotations

import pytest

from engine import Action, GameSetup, IllegalActionError, Seat, apply, new_game
from engine.carcassonne.actions import Choose, Pass
from engine.carcassonne.board import Meeple
from engine.carcassonne.events import FigureDeployed, FiguresReturned, PointsScored
from engine.carcassonne.expansions.crop_circles import (
    CHOOSE_STEP,
    ROUND_STEP,
    SET_I,
    SET_II,
    CropModel,
    FollowerTakenBack,
    OptionChosen,
    SeatPassed,
    SeatSkipped,
)
from engine.carcassonne.geometry import Position
from engine.carcassonne.rules import pending, tile_sets_of
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind, tile
from engine.core import messages
from engine.core.decisions import FeatureRef, Prompt
from engine.core.errors import EngineError, NotYourTurnError
from tests.engine.test_properties import snapshot

CC = ("crop_circles",)
RED, GREEN, BLUE = Seat(0), Seat(1), Seat(2)


def game(pile: tuple[str, ...], players: int = 3, **setup: object) -> GameState:
    s = new_game(
        GameSetup(
            players=players,
            expansions=CC,
            draw_order=pile,
            only_forced=True,
            **setup,  # type: ignore[arg-type]
        ),
        seed=1,
    )
    return s.clone()


def do(s: GameState, move: str, seat: Seat | None = None) -> tuple[GameState, list[object]]:
    who = pending(s)[0].seat if seat is None else seat
    tr = apply(s, who, Action.from_notation(move))
    return tr.state, list(tr.events)


def put(s: GameState, seat: Seat, pos: Position, kind: FeatureKind, nth: int = 0) -> None:
    """Put ``seat``'s follower on the ``nth`` feature of ``kind`` of the tile at ``pos``."""
    placed = s.board.cells[pos]
    index = [f.index for f in placed.rt.tile.features if f.kind is kind][nth]
    s.board.add_meeple(Meeple(seat, "follower", placed.segs[index], pos))
    s.player(seat).supply["follower"] -= 1


def on(s: GameState, seat: Seat, pos: Position) -> list[str]:
    """The figures of ``seat`` on the tile at ``pos``, by feature kind."""
    return sorted(
        f.kind.value
        for f in s.board.live_features()
        for m in f.meeples
        if m.seat == seat and m.pos == pos
    )


def asked(s: GameState) -> tuple[str, Seat, list[str]]:
    (d,) = pending(s)
    return d.kind, d.seat, [o.id for o in d.options]


def say(prompt: Prompt, lang: str) -> str:
    """A prompt in words, its prompt parameters too (as the front ends word it)."""
    params = {k: say(v, lang) if isinstance(v, Prompt) else v for k, v in prompt.params}
    return messages.text(prompt.key, lang, **params)


def model(s: GameState) -> CropModel:
    m = s.ext["crop_circles"]
    assert isinstance(m, CropModel)
    return m


# ------------------------------------------------------------------ the rulebook's examples
def shield_example() -> GameState:
    """Red (0), green (1), blue (2). Green has a knight in the start tile's city; red has one
    in a city cap far away (the rulebook's "upper left" tile). Red is to place CC.2/CFC
    (two separate cities, N and S) turned r90: cities E and W, fields N and S."""
    s = game(("CC.2/CFC", "BA/L"))
    put(s, GREEN, Position(0, 0), FeatureKind.CITY)
    s.board.place(Position(4, 4), tile("BA/C").rotated(0))
    put(s, RED, Position(4, 4), FeatureKind.CITY)
    return s


def test_rulebook_shield_with_option_a_green_adds_blue_is_skipped_red_adds_last() -> None:
    """«El jugador rojo coloca la pieza que tiene un escudo … elige la opción A. 2 El jugador
    verde coloca un caballero al lado del que ya tiene. 3 El jugador azul no tiene ningún
    caballero … 4 El jugador rojo coloca otro caballero al lado del caballero que ya tiene en
    la pieza que acaba de colocar. No puede colocarlo en el segmento de ciudad superior…»"""
    s = shield_example()
    s, _ = do(s, "place 0,1 r90")
    s, _ = do(s, "deploy city:W")
    kind, seat, ids = asked(s)
    assert (kind, seat, ids) == (CHOOSE_STEP, RED, ["a", "b"])
    s, events = do(s, f"{CHOOSE_STEP} a")
    assert OptionChosen(RED, "shield", "a") in events
    # from red's left: green first, with its one knight
    assert asked(s) == (ROUND_STEP, GREEN, ["0,0/city:N/follower"])
    s, events = do(s, f"{ROUND_STEP} 0,0/city:N/follower")
    assert FigureDeployed(GREEN, "follower", Position(0, 0), "city:N") in events
    assert on(s, GREEN, Position(0, 0)) == ["city", "city"]
    assert s.players[GREEN].supply["follower"] == 7 - 2
    # blue has no knight: skipped, and the turn says so; red last: beside the knight on the
    # new tile or the one far away, never in the east city of the new tile (no knight there)
    assert SeatSkipped(BLUE, "shield", "a") in events
    assert asked(s) == (
        ROUND_STEP,
        RED,
        ["0,1/city:W/follower", "4,4/city:N/follower"],
    )
    s, events = do(s, f"{ROUND_STEP} 0,1/city:W/follower")
    assert on(s, RED, Position(0, 1)) == ["city", "city"]
    assert s.players[RED].supply["follower"] == 7 - 3
    assert model(s) == CropModel()
    # the turn is over: green draws and places next
    assert pending(s)[0].seat == GREEN and pending(s)[0].kind == "core.place"


def test_rulebook_pitchfork_with_option_b_blue_and_red_remove_green_has_none() -> None:
    """«El jugador verde coloca la pieza que tiene una horca … Se puntúa la ciudad, el jugador
    verde recibe 4 puntos y retira su caballero. A continuación, elige la opción B. 2 El
    jugador azul retira su granjero. 3 El jugador rojo retira su granjero. 4 El jugador verde
    no tiene ningún granjero.» The 4 is a 2-tile city at ``tiny_city = 4`` (RULES.md §12.2):
    CC.2/CFR turned r180 (city S) north of the start tile closes its city: 2 tiles × 2 = 4."""
    s = game(("BA/L", "CC.2/CFR", "BA/L"), tiny_city=4)
    put(s, BLUE, Position(0, 0), FeatureKind.FIELD, 1)  # the start tile's south field
    s, _ = do(s, "place 0,1 r0")  # red: a cloister south of the start tile
    s, _ = do(s, "pass")
    put(s, RED, Position(0, 0), FeatureKind.FIELD, 0)  # the strip between city and road
    s, _ = do(s, "place 0,-1 r180")
    s, events = do(s, "deploy city:S")
    scored = [e for e in events if isinstance(e, PointsScored)]
    assert [(a.seat, a.points) for e in scored for a in e.awards] == [(GREEN, 4)]
    assert on(s, GREEN, Position(0, -1)) == []  # the knight went home
    s, events = do(s, f"{CHOOSE_STEP} b")
    assert OptionChosen(GREEN, "pitchfork", "b") in events
    (d,) = pending(s)
    assert d.seat == BLUE and not d.optional  # B is a must
    s, events = do(s, f"{ROUND_STEP} {d.options[0].id}")
    assert [e for e in events if isinstance(e, FollowerTakenBack)] == [
        FollowerTakenBack(BLUE, "follower", Position(0, 0), d.options[0].id.split("/")[1])
    ]
    (d,) = pending(s)
    assert d.seat == RED
    s, events = do(s, f"{ROUND_STEP} {d.options[0].id}")
    assert SeatSkipped(GREEN, "pitchfork", "b") in events
    assert not list(s.board.meeples())
    assert [p.supply["follower"] for p in s.players] == [7, 7, 7]
    assert s.scores == (0, 4, 0)  # removed followers score nothing
    assert pending(s)[0].seat == BLUE and pending(s)[0].kind == "core.place"


# ------------------------------------------------------------------ the round's rules
def test_option_a_may_be_declined_and_the_turn_says_so() -> None:
    s = shield_example()
    s, _ = do(s, "place 0,1 r90")
    s, _ = do(s, "pass")
    s, _ = do(s, f"{CHOOSE_STEP} a")
    (d,) = pending(s)
    assert d.seat == GREEN and d.optional
    s, events = do(s, "pass")
    assert SeatPassed(GREEN) in events
    assert SeatSkipped(BLUE, "shield", "a") in events
    s, _ = do(s, "pass")  # red declines too
    assert on(s, GREEN, Position(0, 0)) == ["city"]


def test_option_b_cannot_be_declined_and_a_refusal_changes_nothing() -> None:
    s = shield_example()
    s, _ = do(s, "place 0,1 r90")
    s, _ = do(s, "pass")
    s, _ = do(s, f"{CHOOSE_STEP} b")
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as err:
        apply(s, GREEN, Pass())
    assert err.value.text("en") == "Option B is not optional: take one of your knights back."
    assert err.value.text("es") == "La opción B es obligatoria: recupera uno de tus caballeros."
    with pytest.raises(IllegalActionError) as err:
        apply(s, GREEN, Choose(ROUND_STEP, "4,4/city:N/follower"))  # red's knight, not green's
    assert "'0,0/city:N/follower'" in err.value.text("en")
    assert "\n" not in err.value.text("es")
    with pytest.raises(NotYourTurnError):
        apply(s, RED, Choose(ROUND_STEP, "4,4/city:N/follower"))  # red's turn comes last
    with pytest.raises(EngineError):
        apply(s, GREEN, Choose(CHOOSE_STEP, "a"))  # the choice is closed
    assert snapshot(s) == before


def test_the_active_player_chooses_a_or_b_and_nothing_else() -> None:
    s = shield_example()
    s, _ = do(s, "place 0,1 r90")
    s, _ = do(s, "pass")
    with pytest.raises(EngineError):
        do(s, f"{CHOOSE_STEP} c")
    with pytest.raises(IllegalActionError) as err:
        apply(s, RED, Pass())
    assert "A or B" in err.value.text("en")
    (d,) = pending(s)
    labels = [say(o.label, "es") for o in d.options if o.label is not None]
    assert labels == ["A: colocar un caballero", "B: recuperar un caballero"]
    assert "(escudo)" in say(d.prompt, "es") and "uno de sus caballeros" in say(d.prompt, "es")
    assert "(shield)" in say(d.prompt, "en") and "knights back" in say(d.prompt, "en")


def test_option_a_skips_a_seat_with_an_empty_supply() -> None:
    """OQ-CC-2: with option A a player with no follower left is skipped."""
    s = shield_example()
    s.player(GREEN).supply["follower"] = 0
    s, _ = do(s, "place 0,1 r90")
    s, _ = do(s, "pass")
    s, events = do(s, f"{CHOOSE_STEP} a")
    assert (
        SeatSkipped(GREEN, "shield", "a") in events and SeatSkipped(BLUE, "shield", "a") in events
    )
    assert asked(s)[1] == RED


def test_nobody_with_anything_to_do_ends_the_round_at_once() -> None:
    s = game(("CC.2/RRr", "BA/L"))
    s, _ = do(s, "place 1,0 r0")
    s, _ = do(s, "pass")
    s, events = do(s, f"{CHOOSE_STEP} b")
    assert [e.seat for e in events if isinstance(e, SeatSkipped)] == [GREEN, BLUE, RED]
    assert pending(s)[0].kind == "core.place" and pending(s)[0].seat == GREEN


def test_a_completed_feature_is_no_longer_a_feature_of_the_kind() -> None:
    """Figures leave completed features when they score; the round offers only unfinished ones
    (a castle's follower stands on no feature: the JCloisterZone castle fixture)."""
    s = shield_example()
    s, _ = do(s, "place 0,1 r90")
    s, _ = do(s, "pass")
    s, _ = do(s, f"{CHOOSE_STEP} b")
    assert asked(s) == (ROUND_STEP, GREEN, ["0,0/city:N/follower"])


def test_the_targets_are_the_features_of_the_followers() -> None:
    s = shield_example()
    s, _ = do(s, "place 0,1 r90")
    s, _ = do(s, "pass")
    s, _ = do(s, f"{CHOOSE_STEP} a")
    (d,) = pending(s)
    assert [o.target for o in d.options] == [FeatureRef(0, 0, "city:N")]
    assert [o.facets for o in d.options] == [(("at", "0,0/city:N"), ("figure", "follower"))]


def test_option_a_adds_a_large_follower_too_oq_cc_1() -> None:
    s = new_game(
        GameSetup(
            players=2,
            expansions=("inns_cathedrals", *CC),
            draw_order=("CC.2/CFC", "BA/L"),
            only_forced=True,
        ),
        seed=1,
    ).clone()
    put(s, GREEN, Position(0, 0), FeatureKind.CITY)
    s, _ = do(s, "place 0,1 r90")
    s, _ = do(s, "pass")
    s, _ = do(s, f"{CHOOSE_STEP} a")
    assert asked(s) == (
        ROUND_STEP,
        GREEN,
        ["0,0/city:N/follower", "0,0/city:N/large"],
    )
    s, _ = do(s, f"{ROUND_STEP} 0,0/city:N/large")
    assert s.players[GREEN].supply["large"] == 0


def test_option_b_takes_back_only_one_of_two_equal_followers() -> None:
    s = shield_example()
    put(s, GREEN, Position(0, 0), FeatureKind.CITY)  # green: two knights side by side
    s, _ = do(s, "place 0,1 r90")
    s, _ = do(s, "pass")
    s, _ = do(s, f"{CHOOSE_STEP} b")
    s, _ = do(s, f"{ROUND_STEP} 0,0/city:N/follower")
    assert on(s, GREEN, Position(0, 0)) == ["city"]
    assert s.players[GREEN].supply["follower"] == 6


# ------------------------------------------------------------------ crop fields, tile sets
def test_crop_fields_cut_roads_a_road_between_two_circles_completes() -> None:
    """The start tile's road (W–E) between CC.2/RCR's west road (east of it, r0) and CC.2/CFR's
    road turned to the east (west of it, r270): both end at a crop circle, so the 3-tile road
    is complete and red's thief scores 3 (1 per tile)."""
    s = game(("CC.2/RCR", "CC.2/CFR", "BA/L"), players=2)
    s, _ = do(s, "place 1,0 r0")
    s, _ = do(s, "deploy road:W")
    s, events = do(s, f"{CHOOSE_STEP} a")  # a pitchfork: nobody has a farmer
    assert [e.seat for e in events if isinstance(e, SeatSkipped)] == [GREEN, RED]
    s, _ = do(s, "place -1,0 r270")
    s, events = do(s, "pass")
    scored = [(a.seat, a.points) for e in events if isinstance(e, PointsScored) for a in e.awards]
    assert scored == [(RED, 3)]
    t = tile("CC.2/RCR")
    roads = [f for f in t.features if f.kind is FeatureKind.ROAD]
    fields = [f for f in t.features if f.kind is FeatureKind.FIELD]
    assert len(roads) == 2 and len(fields) == 2  # the circle cuts the road and the field


def test_the_two_sets_are_lobby_options() -> None:
    def sets(**options: bool) -> tuple[str, ...]:
        setup = GameSetup(expansions=CC, options=tuple(sorted(options.items())))
        return tile_sets_of(setup)[1:]

    assert sets() == ("crop_circles_2",)
    assert sets(**{SET_I: True}) == ("crop_circles_1", "crop_circles_2")
    assert sets(**{SET_I: True, SET_II: False}) == ("crop_circles_1",)
    assert sets(**{SET_II: False}) == ("crop_circles_2",)  # neither: the minis' set
    s = new_game(GameSetup(expansions=CC, options=((SET_I, True),)), seed=3)
    assert len(s.pile) == 71 + 12
    assert messages.text(f"opt.{SET_I}", "es").startswith("Piezas de Círculos")


def test_option_b_sends_the_pig_home_with_its_owners_last_farmer_oq_tb_2() -> None:
    """RULES.md OQ-CC-1: builders and pigs follow their own removal rules; the pig goes back
    when its owner has no farmer left in that farm (OQ-TB-2)."""
    s = new_game(
        GameSetup(
            players=2,
            expansions=("traders_builders", *CC),
            draw_order=("CC.2/CFR", "BA/L"),
            only_forced=True,
        ),
        seed=1,
    ).clone()
    put(s, GREEN, Position(0, 0), FeatureKind.FIELD, 1)  # the start tile's south field
    placed = s.board.cells[Position(0, 0)]
    south = [f.index for f in placed.rt.tile.features if f.kind is FeatureKind.FIELD][1]
    s.board.add_meeple(Meeple(GREEN, "pig", placed.segs[south], Position(0, 0)))
    s.player(GREEN).supply["pig"] -= 1
    s, _ = do(s, "place 0,-1 r180")  # red: the pitchfork tile north of the start tile
    s, _ = do(s, "pass")
    s, _ = do(s, f"{CHOOSE_STEP} b")
    (d,) = pending(s)
    assert d.seat == GREEN and [o.facet("figure") for o in d.options] == ["follower"]
    s, events = do(s, f"{ROUND_STEP} {d.options[0].id}")
    assert FiguresReturned(GREEN, "pig", 1) in events
    assert not list(s.board.meeples())
    assert s.players[GREEN].supply["pig"] == 1 and s.players[GREEN].supply["follower"] == 7


@pytest.mark.parametrize(
    ("pile", "place", "kind", "figures"),
    [
        # a shield: the mayor (a city figure) and the wagon join a knight
        (("CC.2/CFC", "BA/L"), "place 0,1 r90", FeatureKind.CITY, ["follower", "mayor", "wagon"]),
        # a club: the wagon joins a thief, the mayor never
        (("CC.2/RRr", "BA/L"), "place 1,0 r0", FeatureKind.ROAD, ["follower", "wagon"]),
        # a pitchfork: neither joins a farmer
        (("CC.2/CFR", "BA/L"), "place 0,-1 r180", FeatureKind.FIELD, ["follower"]),
    ],
)
def test_option_a_adds_the_follower_figures_that_may_stand_there_oq_cc_1(
    pile: tuple[str, ...], place: str, kind: FeatureKind, figures: list[str]
) -> None:
    """OQ-CC-1: a normal follower, the mayor (cities only) or the wagon (never in a field)."""
    s = new_game(
        GameSetup(players=2, expansions=("abbey_mayor", *CC), draw_order=pile, only_forced=True),
        seed=1,
    ).clone()
    put(s, GREEN, Position(0, 0), kind, 1 if kind is FeatureKind.FIELD else 0)
    s, _ = do(s, place)
    s, _ = do(s, "pass")
    s, _ = do(s, f"{CHOOSE_STEP} a")
    (d,) = pending(s)
    assert d.seat == GREEN
    assert [o.facet("figure") for o in d.options] == figures
