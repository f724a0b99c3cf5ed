"""The eight messages (RULES.md §7.3, OQ-MSG-3, -4, -9, -10), each carried out on a board built
by hand (``dispatches_helpers``: ``BA/CRRR`` at (1,0), red's main figure landing on 5 when the
start city completes). Every number is derived in its test."""

from __future__ import annotations

from engine.carcassonne import chance
from engine.carcassonne.board import has_follower
from engine.carcassonne.expansions.dispatches import DECK, MessageUsed
from engine.carcassonne.geometry import Position
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.core.decisions import FeatureRef, FigureRef
from tests.engine.expansions.dispatches_helpers import (
    BLUE,
    EAST,
    RED,
    START,
    decision,
    do,
    east_board,
    figures,
    follower,
    game,
    lay,
    of_type,
    option_ids,
    trigger,
)

MSG = "dispatches.message"


def drawn(card: str, pile: tuple[str, ...] = ("BA/C", "BA/L", "BA/L")) -> GameState:
    """A game with ``card`` on top of the messages and the east board (red on the start city;
    every award on the main figure)."""
    s = game(pile, deck=(card,), choice="main")
    east_board(s)
    return s


def use(s: GameState, option: str) -> tuple[GameState, int]:
    """Carry out ``option`` of the message drawn; return red's points from it."""
    before = s.scores[RED]
    s, events = do(s, f"{MSG} {option}")
    assert of_type(events, MessageUsed)
    return s, s.scores[RED] - before


def on_board(s: GameState, seat: int) -> int:
    return sum(1 for m in s.board.meeples() if m.seat == seat)


# ------------------------------------------------------------------ 1–3: the smallest feature
def test_message_1_scores_the_smallest_road_where_red_is_present_without_the_majority() -> None:
    """Red is on the start road ((0,0)+(1,0), open: 2 tiles × 1 = 2 at the end) and on the
    south road of (1,0) (1 tile × 1 = 1), where blue has two followers (joined roads): red
    needs only presence (§7.3), and the smallest value is the feature's own (OQ-MSG-9): 1."""
    s = drawn("1")
    follower(s, RED, START, FeatureKind.ROAD)
    follower(s, RED, EAST, FeatureKind.ROAD, nth=1)
    follower(s, BLUE, EAST, FeatureKind.ROAD, nth=1)
    follower(s, BLUE, EAST, FeatureKind.ROAD, nth=1)
    s, _ = trigger(s)
    assert option_ids(s, MSG) == ["act.0", "seal"]
    assert decision(s, MSG).options[0].target == FeatureRef(1, 0, "road:S")
    s, got = use(s, "act.0")
    assert got == 1 and s.scores[BLUE] == 0
    assert on_board(s, RED) == 2 and on_board(s, BLUE) == 2  # the followers stay
    assert figures(s, RED) == (6, 0)  # 3 + 2 (the city) + 1


def test_message_1_with_two_smallest_roads_red_picks_either() -> None:
    """The east and south roads of (1,0): 1 tile each, 1 point each: a tie, two options."""
    s = drawn("1")
    follower(s, RED, EAST, FeatureKind.ROAD, nth=0)
    follower(s, RED, EAST, FeatureKind.ROAD, nth=1)
    s, _ = trigger(s)
    d = decision(s, MSG)
    assert [(o.id, o.target) for o in d.options] == [
        ("act.0", FeatureRef(1, 0, "road:E")),
        ("act.1", FeatureRef(1, 0, "road:S")),
        ("seal", None),
    ]
    s, got = use(s, "act.1")
    assert got == 1


def test_message_2_scores_the_smallest_city_at_its_final_value() -> None:
    """Red's knight on the city of (1,0): 1 tile, open: 1 × 1 = 1 at the end (the start city
    completed in this turn, its follower already home: OQ-MSG-4)."""
    s = drawn("2")
    follower(s, RED, EAST, FeatureKind.CITY)
    s, _ = trigger(s)
    assert option_ids(s, MSG) == ["act.0", "seal"]
    s, got = use(s, "act.0")
    assert got == 1


def test_message_3_scores_the_smallest_cloister() -> None:
    """Cloisters at (0,1) and (-1,1), red's monk on each. (0,1) has (0,0), (1,0) and (-1,1)
    around it: 1 + 3 = 4; (-1,1) has (0,0) and (0,1): 1 + 2 = 3, the smaller: 3 points."""
    s = drawn("3")
    lay(s, Position(0, 1), "BA/L")
    lay(s, Position(-1, 1), "BA/L")
    follower(s, RED, Position(0, 1), FeatureKind.CLOISTER)
    follower(s, RED, Position(-1, 1), FeatureKind.CLOISTER)
    s, _ = trigger(s)
    d = decision(s, MSG)
    assert [o.target for o in d.options] == [FeatureRef(-1, 1, "cloister"), None]
    s, got = use(s, "act.0")
    assert got == 3


def test_a_message_with_nothing_to_score_does_nothing_and_points_to_the_seal() -> None:
    """OQ-MSG-3: red has no road follower: "act" does nothing (its label says so)."""
    s = drawn("1")
    s, _ = trigger(s)
    d = decision(s, MSG)
    assert [(o.id, o.label.key if o.label else "") for o in d.options] == [
        ("act", "dispatches.act.nothing"),
        ("seal", "dispatches.seal"),
    ]
    s, got = use(s, "act")
    assert got == 0 and chance.pile_size(s, DECK) == 8


# ------------------------------------------------------------------ 4–6: per shield, knight, farmer
def city_with_shield(s: GameState) -> None:
    """``BA/CFc+`` turned 90° at (1,-1): a city north–south with a shield, joined to the city
    of (1,0): 2 tiles, 1 shield, open north."""
    lay(s, Position(1, -1), "BA/CFc+", 1)


def test_message_4_two_points_per_shield_in_every_city_red_is_in() -> None:
    """Red has 1 follower in the shield city, blue 2 (blue holds the majority): red still
    counts its shield: 1 × 2 = 2."""
    s = drawn("4")
    city_with_shield(s)
    follower(s, RED, EAST, FeatureKind.CITY)
    follower(s, BLUE, Position(1, -1), FeatureKind.CITY)
    follower(s, BLUE, Position(1, -1), FeatureKind.CITY)
    s, _ = trigger(s)
    assert [o.label.params for o in decision(s, MSG).options if o.label][0] == (("n", 2),)
    s, got = use(s, "act")
    assert got == 2 and s.scores[BLUE] == 0


def test_message_5_two_points_per_own_knight() -> None:
    """Red's knights: the city of (1,0) and a city cap at (-1,-1): 2 knights × 2 = 4. Red's
    farmer and blue's knight do not count."""
    s = drawn("5")
    lay(s, Position(-1, -1), "BA/C")
    follower(s, RED, EAST, FeatureKind.CITY)
    follower(s, RED, Position(-1, -1), FeatureKind.CITY)
    follower(s, RED, START, FeatureKind.FIELD, nth=1)
    follower(s, BLUE, Position(-1, -1), FeatureKind.CITY)
    s, _ = trigger(s)
    s, got = use(s, "act")
    assert got == 4
    assert on_board(s, RED) == 3  # the knights stay


def test_message_6_two_points_per_own_farmer_even_in_one_farm() -> None:
    """Red's farmers on the south field of the start tile and on the south-west field of
    (1,0): one farm, two farmers (figures count, OQ-MSG-4): 2 × 2 = 4."""
    s = drawn("6")
    follower(s, RED, START, FeatureKind.FIELD, nth=1)
    follower(s, RED, EAST, FeatureKind.FIELD, nth=1)
    s, _ = trigger(s)
    s, got = use(s, "act")
    assert got == 4


# ------------------------------------------------------------------ 7: one more tile
def test_message_7_is_a_placement_of_its_own_in_red_s_turn() -> None:
    """Red draws the next tile of the pile (BA/L) and places it, with its own follower step;
    the message is under the pile before that tile scores (OQ-MSG-6); then blue plays the
    last tile."""
    s = drawn("7")
    s, _ = trigger(s)
    turn = s.turn
    s, _ = use(s, "act")
    d = pending(s)[0]
    assert d.kind == "core.place" and d.seat == RED and dict(d.prompt.params)["tile"] == "BA/L"
    assert chance.pile_size(s, DECK) == 8 and s.piles[DECK][-1] == "7" and s.turn == turn + 1
    s, _ = do(s, "place 0,1 r0")
    assert pending(s)[0].kind == "core.deploy" and pending(s)[0].seat == RED
    s, _ = do(s, "deploy cloister")
    d = pending(s)[0]
    assert d.kind == "core.place" and d.seat == BLUE


def test_message_7_with_an_empty_pile_does_nothing() -> None:
    s = drawn("7", pile=("BA/C",))
    s, _ = trigger(s)
    assert option_ids(s, MSG) == ["act", "seal"]


# ------------------------------------------------------------------ 8: score and remove
def test_message_8_with_the_majority_scores_the_road_for_red_alone_and_the_follower_goes_home() -> (
    None
):
    """Red alone on the south road of (1,0): 1 tile × 1 = 1 (final-scoring rules)."""
    s = drawn("8")
    follower(s, RED, EAST, FeatureKind.ROAD, nth=1)
    s, _ = trigger(s)
    d = decision(s, MSG)
    assert d.options[0].target == FigureRef(1, 0, "road:S", "follower", RED)
    supply = s.player(RED).supply["follower"]
    s, got = use(s, "act.0")
    assert got == 1 and on_board(s, RED) == 0
    assert s.player(RED).supply["follower"] == supply + 1


def test_message_8_without_the_majority_scores_0_and_the_follower_still_goes_home() -> None:
    """Red 1, blue 2 on the start road: no majority: 0 points; red's follower goes home, blue's
    stay (§7.3: «devuelve el seguidor elegido a su reserva»)."""
    s = drawn("8")
    follower(s, RED, START, FeatureKind.ROAD)
    follower(s, BLUE, EAST, FeatureKind.ROAD, nth=2)
    follower(s, BLUE, EAST, FeatureKind.ROAD, nth=2)
    s, _ = trigger(s)
    s, got = use(s, "act.0")
    assert got == 0 and s.scores[BLUE] == 0
    assert on_board(s, RED) == 0 and on_board(s, BLUE) == 2
    road = s.board.feature_at(START, 1)[1]
    assert not has_follower(road, RED) and has_follower(road, BLUE)


def test_message_8_on_a_tie_counts_as_majority() -> None:
    """Red 1, blue 1 on the start road (2 tiles): a tie counts (OQ-MSG-4): 2 × 1 = 2, for red
    alone."""
    s = drawn("8")
    follower(s, RED, START, FeatureKind.ROAD)
    follower(s, BLUE, EAST, FeatureKind.ROAD, nth=2)
    s, _ = trigger(s)
    s, got = use(s, "act.0")
    assert got == 2 and s.scores[BLUE] == 0


def test_message_8_on_a_farmer_scores_its_farm_for_red_alone() -> None:
    """Red's farmer on the north field of the start tile, joined to (1,0)'s north field: it
    borders the start city (completed this turn) and (1,0)'s city (open): 1 completed city ×
    3 = 3 (OQ-MSG-4: the farm scored for that player alone)."""
    s = drawn("8")
    follower(s, RED, START, FeatureKind.FIELD, nth=0)
    s, _ = trigger(s)
    s, got = use(s, "act.0")
    assert got == 3 and on_board(s, RED) == 0


def test_message_8_without_followers_does_nothing() -> None:
    s = drawn("8")
    s, _ = trigger(s)
    assert option_ids(s, MSG) == ["act", "seal"]
