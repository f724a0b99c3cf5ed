"""Robbers (RULES.md §11.3, OQ-ROB-2, OQ-ROB-4, OQ-ROB-6): the rulebook's examples and every
corner of stealing, played through the real turn. No program has this expansion: every number
is derived by hand in the test. Seats: blue 0, red 1, yellow 2, green 3 (the rulebook's order).
"""

from __future__ import annotations

from engine.carcassonne.events import PointsScored
from engine.carcassonne.expansions.robbers import (
    CATEGORY,
    STEAL_STEP,
    RobberFollowed,
    RobbersRemoved,
    RobberStole,
    half,
    victim_spaces,
)
from engine.carcassonne.expansions.robbers.steals import note
from engine.carcassonne.rules import pending
from engine.carcassonne.scoring import Award, ScoreItem, give
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.carcassonne.track import TrackFigure, TrackMove, put, transfer, value
from engine.core import messages
from engine.core.decisions import TrackSpace
from tests.engine.expansions.robbers_helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    city_and_road,
    do,
    five_tile_road,
    follower,
    game,
    model,
    of,
    robber,
    robber_at,
    scores,
)


def test_half_rounds_up() -> None:
    assert [half(p) for p in (1, 2, 3, 4, 5, 6)] == [1, 1, 2, 2, 3, 3]


# ------------------------------------------------------------ the rulebook's examples
def test_rulebook_red_scores_5_blue_robber_takes_3_and_yellow_robber_moves_along_with_blue() -> (
    None
):
    """«El jugador rojo recibe 5 puntos. El ladrón azul roba 3 puntos ... Como el ladrón
    amarillo ahora sólo recibiría puntos de ladrón se mueve con el azul.» Red on 10, blue on
    12; blue's robber beside red (10), yellow's beside blue (12). Blue closes red's road of 5
    tiles: red 10 + 5 = 15; blue steals ceil(5 / 2) = 3: 12 + 3 = 15, its robber goes home.
    Blue left 12 by robber points only: yellow's robber moves along with it to 15, where it
    stands beside red and blue (it will rob whichever scores next)."""
    s = game(("BA/LR", "BA/L"), players=4)
    five_tile_road(s, RED)
    scores(s, 12, 10, 0, 0)
    robber(s, BLUE, 10)
    robber(s, YELLOW, 12)
    s, _ = do(s, "place -1,0 r270")
    s, events = do(s, "pass")
    assert s.scores == (12 + 3, 10 + 5, 0, 0)
    assert of(events, RobberStole) == [RobberStole(BLUE, RED, 3, 5)]
    assert robber_at(s, BLUE) is None
    assert of(events, RobberFollowed) == [RobberFollowed(YELLOW, BLUE, 15)]
    assert robber_at(s, YELLOW) == 15
    loot = [a for a in s.awards if a.item.category == CATEGORY]
    assert [(a.seat, a.points) for a in loot] == [(BLUE, 3)]
    assert not model(s).notes and model(s).noting == 0
    # the steal comes after the road's score, as its own named line
    kinds = [type(e) for e in events if isinstance(e, PointsScored | RobberStole)]
    assert kinds == [PointsScored, RobberStole, PointsScored]
    assert messages.text("robbers.stole", "en", seat="Ana", victim_seat="Bo", n=3, of=6) == (
        "Ana's robber takes 3 of Bo's 6."
    )
    assert messages.text("robbers.stole", "es", seat="Ana", victim_seat="Bo", n=3, of=6) == (
        "El ladrón de Ana roba 3 de los 6 de Bo."
    )


def test_rulebook_blue_scores_4_red_and_green_robbers_take_2_each() -> None:
    """«El jugador azul recibe 4 puntos. Los jugadores rojo y verde reciben 2 puntos por sus
    ladrones.» Blue's knight holds the start tile's city; blue on 20, red on 3, green on 7,
    red's and green's robbers beside blue (20), yellow's beside red (3). Blue closes the city
    with a cap: 2 tiles × 2 = 4 (the rulebook's picture counts a 2-tile city as 4:
    ``tiny_city = 4``), blue 24. Several robbers on one space each take half:
    ceil(4 / 2) = 2 to red (3 + 2 = 5) and to green (7 + 2 = 9); both go home. Red left 3 by
    robber points, nobody else stands on 3: yellow's robber moves along with red to 5."""
    s = game(("BA/C", "BA/L"), players=4, tiny_city=4)
    follower(s, BLUE, 0, 0, FeatureKind.CITY)
    scores(s, 20, 3, 0, 7)
    robber(s, RED, 20)
    robber(s, GREEN, 20)
    robber(s, YELLOW, 3)
    s, _ = do(s, "place 0,-1 r180")
    s, events = do(s, "pass")
    assert s.scores == (20 + 4, 3 + 2, 0, 7 + 2)
    assert of(events, RobberStole) == [RobberStole(RED, BLUE, 2, 4), RobberStole(GREEN, BLUE, 2, 4)]
    assert robber_at(s, RED) is None and robber_at(s, GREEN) is None
    assert of(events, RobberFollowed) == [RobberFollowed(YELLOW, RED, 5)]


# ------------------------------------------------------------ corners of §11.3
def test_a_robber_never_robs_its_own_owner() -> None:
    """Rule 7: blue's robber beside blue's own marker and red's (both on 0); blue scores 4 for
    the 2-tile city (2 points, 001's rule): no steal (red did not move), the robber stays."""
    s = game(("BA/C", "BA/L"))
    follower(s, BLUE, 0, 0, FeatureKind.CITY)
    robber(s, BLUE, 0)
    s, _ = do(s, "place 0,-1 r180")
    s, events = do(s, "pass")
    assert s.scores == (2, 0) and not of(events, RobberStole) and robber_at(s, BLUE) == 0


def test_a_robber_with_two_victims_steals_once_and_its_owner_picks_which() -> None:
    """Rule 5 and OQ-ROB-6 step 2: red and yellow both on 10 with blue's robber. One tile
    closes red's 2-tile city (2) and yellow's road (3 tiles × 1 = 3): blue steals once, half
    of the award it picks: of red's 2 → 1, or of yellow's 3 → 2. Blue picks yellow's: 0 + 2."""
    s = game(("BA/CRr", "BA/L"), players=3)
    city_and_road(s, RED, YELLOW)
    scores(s, 0, 10, 10)
    robber(s, BLUE, 10)
    s, _ = do(s, "place 0,-1 r180")
    s, _ = do(s, "pass")
    (d,) = pending(s)
    assert d.kind == STEAL_STEP and d.seat == BLUE
    texts = [messages.text(o.label.key, "en", **o.label.kwargs) for o in d.options]  # type: ignore[union-attr]
    assert sorted(texts) == sorted(["half of 1's 2: 1", "half of 2's 3: 2"])
    assert all(o.target == TrackSpace(10) for o in d.options)  # where the victims left from
    yellow = next(o for o in d.options if o.label.kwargs["victim_seat"] == YELLOW)  # type: ignore[union-attr]
    s, events = do(s, yellow.action.notation())
    assert s.scores == (0 + 2, 10 + 2, 10 + 3)
    assert of(events, RobberStole) == [RobberStole(BLUE, YELLOW, 2, 3)]
    assert robber_at(s, BLUE) is None


def test_a_zero_point_score_moves_nothing_and_the_robber_stays() -> None:
    """OQ-ROB-6 step 1: an award of 0 points moves no figure: nothing is noted."""
    s = game(("BA/L",))
    robber(s, BLUE, 0)
    s.ext["robbers"] = model(s).__class__(noting=1)
    item = ScoreItem("city", 0, True, False, winners=(RED,))
    give(s, (Award(RED, 0, item),), item, [])
    assert not model(s).notes and robber_at(s, BLUE) == 0


def test_negative_scores_stand_on_floor_mod_spaces_and_a_debt_is_no_theft() -> None:
    """OQ-ROB-4: red owes 3 (a market debt): its marker stands on space 47, where blue's
    robber may stand. A payment moving red back is no scoring: nothing noted (OQ-ROB-2). Then
    red's 2-tile city scores 2: −3 + 2 = −1 (space 49), red left 47, blue steals
    ceil(2 / 2) = 1."""
    s = game(("BA/C", "BA/L"))
    follower(s, RED, 0, 0, FeatureKind.CITY)
    scores(s, 0, -3)
    assert victim_spaces(s, BLUE) == (47,)
    robber(s, BLUE, 47)
    s.ext["robbers"] = model(s).__class__(noting=1)
    pay = ScoreItem("market", -2, False, False, winners=(RED,))
    give(s, (Award(RED, -2, pay),), pay, [])
    assert not model(s).notes and s.scores == (0, -5)
    s.player(RED).score = -3
    s.ext["robbers"] = model(s).__class__()
    s, _ = do(s, "place 0,-1 r180")
    s, events = do(s, "pass")
    assert s.scores == (1, -3 + 2)
    assert of(events, RobberStole) == [RobberStole(BLUE, RED, 1, 2)]


def test_a_robber_stays_while_another_victim_stands_on_its_space() -> None:
    """OQ-ROB-6 step 3: yellow's robber beside blue and green (both on 12). Blue's robber
    steals 3 of red's 5 (red 10 → 15), blue leaves 12 by robber points; green still stands on
    12: yellow's robber stays there."""
    s = game(("BA/LR", "BA/L"), players=4)
    five_tile_road(s, RED)
    scores(s, 12, 10, 0, 12)
    robber(s, BLUE, 10)
    robber(s, YELLOW, 12)
    s, _ = do(s, "place -1,0 r270")
    s, events = do(s, "pass")
    assert s.scores == (12 + 3, 10 + 5, 0, 12)
    assert robber_at(s, YELLOW) == 12 and not of(events, RobberFollowed)


def test_a_robber_placed_beside_a_figure_about_to_score_steals_at_once() -> None:
    """OQ-ROB-4: blue places the robber tile RB/C closing red's city, puts its robber beside
    red (0) and passes the follower; red scores 2 (a 2-tile city), blue steals 1 in the
    same turn."""
    s = game(("RB/C", "BA/L"))
    follower(s, RED, 0, 0, FeatureKind.CITY)
    s, _ = do(s, "place 0,-1 r180")
    s, _ = do(s, "robbers.place 0")
    (d,) = pending(s)
    assert d.seat == RED  # the next player is offered a robber (it passes)
    s, _ = do(s, "pass")
    s, events = do(s, "pass")
    assert s.scores == (1, 2) and of(events, RobberStole) == [RobberStole(BLUE, RED, 1, 2)]


def test_final_scoring_removes_the_robbers_first_and_nothing_is_stolen() -> None:
    """OQ-ROB-1: the pile's last tile is placed; red's knight on the start city (open) scores 1
    at the end; blue's robber beside red steals nothing and goes home."""
    s = game(("BA/L",))
    follower(s, RED, 0, 0, FeatureKind.CITY)
    robber(s, BLUE, 0)
    s, _ = do(s, "place 0,1 r0")
    s, events = do(s, "pass")
    assert s.step == "over"
    assert s.scores == (0, 1) and robber_at(s, BLUE) is None
    assert of(events, RobbersRemoved) == [RobbersRemoved(1)] and not of(events, RobberStole)


# ------------------------------------------------------------ any scoring figure on the track
def second_figure() -> GameState:
    """A state where red has a second scoring figure on the track (as a messenger would be)."""
    s = game(("BA/L",))
    put(s, TrackFigure(RED, "test.second", 0, True))
    put(s, TrackFigure(BLUE, "test.second", 0, True))
    return s


def test_points_moved_to_another_figure_take_their_note_with_them() -> None:
    """OQ-MSG-8 with OQ-ROB-3: red scores 6 on its marker (0 → 6), which left blue's robber on
    0: noted. Red then moves those 6 to its second figure (the marker goes back, the second
    figure leaves 0): still one note, now for the second figure: the dodge is the figure that
    moves, and both stood on 0 here."""
    s = second_figure()
    robber(s, BLUE, 0)
    s.ext["robbers"] = model(s).__class__(noting=1)
    item = ScoreItem("city", 6, True, False, winners=(RED,))
    first = Award(RED, 6, item)
    give(s, (first,), item, [])
    assert [(n.victim, n.figure, n.points) for n in model(s).notes] == [(RED, "", 6)]
    transfer(s, first, "test.second", [])
    assert [(n.victim, n.figure, n.points) for n in model(s).notes] == [(RED, "test.second", 6)]
    assert (value(s, RED), value(s, RED, "test.second")) == (0, 6)


def test_a_dodge_to_a_figure_away_from_the_robber_cancels_the_note() -> None:
    """Red's second figure stands on 5, away from blue's robber (0): red's 6 points moved to
    it leave no note, and nothing is stolen."""
    s = second_figure()
    put(s, TrackFigure(RED, "test.second", 5, True))
    s.player(RED).score = 5
    robber(s, BLUE, 0)
    s.ext["robbers"] = model(s).__class__(noting=1)
    item = ScoreItem("city", 6, True, False, winners=(RED,))
    first = Award(RED, 6, item)
    give(s, (first,), item, [])
    assert len(model(s).notes) == 1
    transfer(s, first, "test.second", [])
    assert not model(s).notes


def test_a_robber_stands_beside_any_scoring_figure_and_the_thief_picks_its_figure() -> None:
    """Red's second figure on 0 with red's marker on 4: blue may put its robber on 0 or 4.
    When red's second figure scores 6 there, blue's robber steals 3 and blue, who has two
    scoring figures too, picks the one that takes them (a decision with a figure facet)."""
    s = second_figure()
    s.player(RED).score = 4
    assert victim_spaces(s, BLUE) == (0, 4)
    robber(s, BLUE, 0)
    s.ext["robbers"] = model(s).__class__(noting=1)
    item = ScoreItem("city", 6, True, False, winners=(RED,))
    give(s, (Award(RED, 6, item, figure="test.second"),), item, [])
    assert [(n.victim, n.figure) for n in model(s).notes] == [(RED, "test.second")]
    note(s, _move_back_of_robber_points(s))  # robber points are never noted
    assert len(model(s).notes) == 1


def _move_back_of_robber_points(s: GameState) -> TrackMove:
    item = ScoreItem(CATEGORY, 3, False, False, winners=(BLUE,))
    return TrackMove(BLUE, "", 0, 3, Award(BLUE, 3, item))


def test_a_robber_whose_victims_both_left_by_robber_points_follows_the_one_its_owner_picks() -> (
    None
):
    """OQ-ROB-6 step 3: yellow's robber stands beside red and green (both on 10). Blue's tile
    closes yellow's 2-tile city (2: yellow 30 → 32) and blue's road of 3 (3: blue 20 → 23).
    Red's robber beside blue (20) steals ceil(3 / 2) = 2: red 10 → 12; green's beside yellow
    (30) steals ceil(2 / 2) = 1: green 10 → 11. Both left 10 by robber points, nobody else
    stands there: yellow picks which to follow, green's (to 11)."""
    s = game(("BA/CRr", "BA/L"), players=4)
    city_and_road(s, YELLOW, BLUE)
    scores(s, 20, 10, 30, 10)
    robber(s, RED, 20)
    robber(s, GREEN, 30)
    robber(s, YELLOW, 10)
    s, _ = do(s, "place 0,-1 r180")
    s, events = do(s, "pass")
    assert s.scores == (20 + 3, 10 + 2, 30 + 2, 10 + 1)
    assert of(events, RobberStole) == [
        RobberStole(RED, BLUE, 2, 3),
        RobberStole(GREEN, YELLOW, 1, 2),
    ]
    (d,) = pending(s)
    assert d.kind == "robbers.follow" and d.seat == YELLOW
    assert [o.target for o in d.options] == [TrackSpace(12), TrackSpace(11)]
    s, events = do(s, d.options[1].action.notation())
    assert robber_at(s, YELLOW) == 11
    assert of(events, RobberFollowed) == [RobberFollowed(YELLOW, GREEN, 11)]
