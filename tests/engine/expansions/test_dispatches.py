"""Messages (RULES.md §7, rulebook 001 "Despachos"): two scoring figures, the choice of figure
per award (also off-turn), landings on dark spaces, at most one message per scoring, chains,
the pile cycling under, and the end of the game. No program has this expansion: every number
is derived by hand in its test. The eight messages: ``test_dispatches_cards.py``."""

from __future__ import annotations

import pytest

from engine import IllegalActionError, apply
from engine.carcassonne import chance
from engine.carcassonne.actions import Choose, Pass
from engine.carcassonne.events import GameEnded
from engine.carcassonne.expansions.dispatches import DECK, MESSENGER, MessageDrawn, MessageUsed
from engine.carcassonne.expansions.dispatches.model import FigureChosen
from engine.carcassonne.geometry import Position
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.core import messages
from engine.core.errors import NotYourTurnError, StaleStateError
from tests.engine.expansions.dispatches_helpers import (
    BLUE,
    RED,
    START,
    decision,
    do,
    east_board,
    figures,
    follower,
    game,
    lay,
    model,
    of_type,
    option_ids,
    prime,
    trigger,
)
from tests.engine.test_properties import snapshot

FIG, MSG = "dispatches.figure", "dispatches.message"


def city_of_two(s: GameState) -> GameState:
    """Red holds the start city and places ``BA/C`` at (0,-1): the 2-tile city completes,
    2 points for red (rulebook 001: a 2-tile city scores 2)."""
    follower(s, RED, START, FeatureKind.CITY)
    s, _ = do(s, "place 0,-1 r180")
    s, _ = do(s, "pass")
    return s


# ------------------------------------------------------------------ §7.1 setup, §7.2.1 choice
def test_each_seat_starts_with_a_messenger_on_0_and_the_pile_holds_the_eight_messages() -> None:
    s = game()
    assert figures(s, RED) == (0, 0) and figures(s, BLUE) == (0, 0)
    assert sorted(s.piles[DECK]) == ["1", "2", "3", "4", "5", "6", "7", "8"]
    assert model(s).card is None


def test_the_pile_is_forced_on_top_then_shuffled_from_the_seed() -> None:
    s = game(deck=("7", "3"))
    assert s.piles[DECK][:2] == ("7", "3") and len(s.piles[DECK]) == 8
    assert game().piles[DECK] == game().piles[DECK]  # the same seed, the same order


def test_the_scoring_seat_chooses_the_figure_each_button_saying_where_it_would_land() -> None:
    """Red's main figure on 1, messenger on 3; the city gives 2: main → 1 + 2 = 3, messenger
    → 3 + 2 = 5, a dark space (the button says so)."""
    s = game()
    prime(s, RED, 1, 3)
    s = city_of_two(s)
    d = decision(s, FIG)
    assert d.seat == RED
    labels = [
        (o.id, o.label.key if o.label else "", dict(o.label.params) if o.label else {})
        for o in d.options
    ]
    assert labels == [
        ("main", "dispatches.to.main", {"space": 3}),
        ("messenger", "dispatches.to.messenger.dark", {"space": 5}),
        ("dark", "dispatches.always.dark", {}),
    ]
    assert dict(d.prompt.params)["n"] == 2
    s, events = do(s, "dispatches.figure main")
    assert figures(s, RED) == (3, 3) and s.scores[RED] == 6  # 4 + 2: the score is the sum
    assert of_type(events, FigureChosen) == [FigureChosen(RED, "", 2, 3, False)]
    assert not of_type(events, MessageDrawn)


def test_points_on_the_messenger_stay_in_the_score_and_the_ledger_names_the_figure() -> None:
    s = game()
    s = city_of_two(s)
    s, _ = do(s, "dispatches.figure messenger")
    assert figures(s, RED) == (0, 2) and s.scores[RED] == 2
    (a,) = [a for a in s.awards if a.item.category == "city"]
    assert a.figure == MESSENGER


# ------------------------------------------------------------------ §7.2.3 landing, the pile
def test_landing_on_a_dark_space_draws_the_top_message_which_goes_under_the_pile() -> None:
    """Main on 3 + 2 = 5: a dark space. The forced top message is 4; red takes the wax seal's
    2 points (main 5 + 2 = 7), and message 4 goes under the pile: the pile is the other seven,
    then 4."""
    s = game(deck=("4", "1"))
    east_board(s)
    s, events = trigger(s)
    assert of_type(events, MessageDrawn) == [MessageDrawn(RED, "4")]
    assert model(s).card == "4" and chance.pile_size(s, DECK) == 7
    d = decision(s, MSG)
    assert d.seat == RED and option_ids(s, MSG)[-1] == "seal"
    text = messages.text(d.prompt.key, "en", **dict(d.prompt.params))
    assert "message 4" in text and "2 points per shield" in text and "Por cada escudo" in text
    s, events = do(s, "dispatches.message seal")
    assert of_type(events, MessageUsed) == [MessageUsed(RED, "4", "seal")]
    s, _ = do(s, "dispatches.figure main")
    assert figures(s, RED) == (7, 0) and s.scores[RED] == 7
    assert s.piles[DECK][0] == "1" and s.piles[DECK][-1] == "4" and len(s.piles[DECK]) == 8
    assert model(s).card is None


def test_a_gain_that_passes_over_a_dark_space_is_no_landing() -> None:
    """Main on 4 + 2 = 6: it passed 5 within one award: no message."""
    s = game()
    prime(s, RED, 4, 0)
    s = city_of_two(s)
    s, events = do(s, "dispatches.figure main")
    assert figures(s, RED) == (6, 0) and not of_type(events, MessageDrawn)


def test_landing_on_0_after_50_is_a_dark_space() -> None:
    """Messenger on 48 + 2 = 50: the space 0, dark (OQ-MSG-1)."""
    s = game(deck=("6",))
    prime(s, RED, 0, 48)
    s = city_of_two(s)
    s, events = do(s, "dispatches.figure messenger")
    assert of_type(events, FigureChosen) == [FigureChosen(RED, MESSENGER, 2, 0, True)]
    assert of_type(events, MessageDrawn) == [MessageDrawn(RED, "6")]


def two_features(s: GameState) -> tuple[GameState, list[object]]:
    """Red holds the start city; road ends at (-1,-1) and (1,-1) (``BA/CRRR``); red places the
    start tile's twin turned 180° at (0,-1) and puts a follower on its road: the city
    (0,0)+(0,-1) completes, 2 points, and the road (-1,-1)+(0,-1)+(1,-1), 3 tiles × 1 = 3."""
    lay(s, Position(-1, -1), "BA/CRRR")
    lay(s, Position(1, -1), "BA/CRRR")
    follower(s, RED, START, FeatureKind.CITY)
    s, e1 = do(s, "place 0,-1 r180")
    s, e2 = do(s, "deploy road:EW")
    return s, [*e1, *e2]


def test_several_features_are_applied_in_ascending_order_and_a_landing_midway_counts() -> None:
    """OQ-MSG-7's example: main on 3; the city (2) first: 3 → 5, a landing; then the road (3):
    5 → 8. The figure does not stay on 5, yet the landing earned the message."""
    s = game(("BA/RCr", "BA/L"), deck=("5",), choice="main")
    prime(s, RED, 3, 0)
    s, events = two_features(s)
    assert figures(s, RED) == (8, 0)
    chosen = [(e.points, e.space, e.dark) for e in events if isinstance(e, FigureChosen)]
    assert chosen == [(2, 5, True), (3, 8, False)]
    assert of_type(events, MessageDrawn) == [MessageDrawn(RED, "5")]
    assert model(s).card == "5" and decision(s, MSG).seat == RED


def test_two_landings_in_one_scoring_earn_one_message() -> None:
    """§7.2.5: main on 3, messenger on 2; the city (2) on the main figure: 5; the road (3) on
    the messenger: 5. Two landings, one message; carrying it out (message 4: red holds no
    city now, 0 shields) gives nothing, so no chain."""
    s = game(("BA/RCr", "BA/L"), deck=("4", "1"))
    prime(s, RED, 3, 2)
    s, _ = two_features(s)
    assert dict(decision(s, FIG).prompt.params)["n"] == 2  # the smaller award first
    s, e1 = do(s, "dispatches.figure main")
    assert dict(decision(s, FIG).prompt.params)["n"] == 3
    s, e2 = do(s, "dispatches.figure messenger")
    assert figures(s, RED) == (5, 5)
    assert of_type(e1 + e2, MessageDrawn) == [MessageDrawn(RED, "4")]
    s, e3 = do(s, "dispatches.message act")
    assert not of_type(e3, MessageDrawn) and model(s).card is None
    assert s.current == BLUE and pending(s)[0].kind == "core.place"


def test_message_points_may_earn_the_next_message_a_chain() -> None:
    """§7.2.6: main on 3 + 2 = 5 → message 4 (nothing to do: red's city follower went home),
    so red takes the seal's 2 points on the messenger, standing on 3: 3 + 2 = 5, dark again →
    the next message, 1."""
    s = game(deck=("4", "1"))
    east_board(s)
    s, _ = trigger(s)
    prime(s, RED, 5, 3)
    s, _ = do(s, "dispatches.message seal")
    s, events = do(s, "dispatches.figure messenger")
    assert figures(s, RED) == (5, 5)
    assert of_type(events, MessageDrawn) == [MessageDrawn(RED, "1")]
    assert s.piles[DECK][-1] == "4" and model(s).card == "1"


# ------------------------------------------------------------------ §7.2.7 only the active player
def test_another_seat_chooses_its_figure_off_turn_and_never_gets_a_message() -> None:
    """Blue shares the road (a follower at (1,-1)): red's road and blue's road, 3 each. Blue
    is asked in red's turn (OQ-MSG-8); its messenger 2 + 3 = 5 lands on a dark space, but
    only the active player receives messages (§7.2.7)."""
    s = game(("BA/RCr", "BA/L"))
    lay(s, Position(-1, -1), "BA/CRRR")
    lay(s, Position(1, -1), "BA/CRRR")
    follower(s, RED, Position(-1, -1), FeatureKind.ROAD)  # its east road
    follower(s, BLUE, Position(1, -1), FeatureKind.ROAD, nth=2)  # its west road
    follower(s, RED, START, FeatureKind.CITY)
    prime(s, BLUE, 0, 2)
    s, _ = do(s, "place 0,-1 r180")
    s, _ = do(s, "pass")
    s, _ = do(s, "dispatches.figure main")  # red's city: 2 → main 2
    s, _ = do(s, "dispatches.figure main")  # red's road: 3 → main 5, a landing of red's!
    d = decision(s, FIG)
    assert d.seat == BLUE and dict(d.prompt.params)["n"] == 3
    # 2 + 3 = 5 is dark, but blue's button promises no message: only red could get one
    assert [o.label.key for o in d.options if o.label][:2] == [
        "dispatches.to.main",
        "dispatches.to.messenger",
    ]
    s, events = do(s, "dispatches.figure messenger", BLUE)
    assert figures(s, BLUE) == (0, 5)
    assert of_type(events, MessageDrawn) and of_type(events, MessageDrawn)[0].seat == RED


# ------------------------------------------------------------------ standing choices
def test_a_standing_choice_main_unless_the_messenger_reaches_a_dark_space() -> None:
    """Red answers "dark": from now on its awards go to the messenger only when it lands on a
    dark space. Messenger 3 + 2 = 5: the messenger (and a message); later, unasked."""
    s = game(deck=("4",))
    prime(s, RED, 0, 3)
    s = city_of_two(s)
    s, events = do(s, "dispatches.figure dark")
    assert figures(s, RED) == (0, 5) and of_type(events, MessageDrawn)
    assert model(s).standing_of(RED) == "dark"
    s, _ = do(s, "dispatches.message seal")  # 2 points: messenger 7 is not dark → main, unasked
    assert figures(s, RED) == (2, 5) and all(d.kind != FIG for d in pending(s))


def test_the_match_option_sets_every_seat_s_standing_choice() -> None:
    s = game(choice="messenger")
    s = city_of_two(s)
    assert figures(s, RED) == (0, 2) and all(d.kind != FIG for d in pending(s))


# ------------------------------------------------------------------ §7.4 end of the game
def test_at_the_end_the_figures_are_added_and_final_scoring_draws_no_message() -> None:
    """Red: main 3, messenger 2 (5 in all), a follower on the start road (2 tiles with the
    road east, open) scoring 2 at the end: 7, and no message though 3 + 2 = 5 would be a dark
    space (§7.4)."""
    s = game(("BA/L",), deck=("1",), choice="main")
    lay(s, Position(1, 0), "BA/CRRR")
    follower(s, RED, START, FeatureKind.ROAD)
    prime(s, RED, 3, 2)
    s, _ = do(s, "place 0,1 r0")
    s, events = do(s, "pass")
    assert s.over
    assert not of_type(events, MessageDrawn)
    assert s.scores[RED] == 7 and not [f for f in s.track if f.kind == MESSENGER]
    (end,) = of_type(events, GameEnded)
    assert end.scores[RED] == 7


# ------------------------------------------------------------------ bad input
def test_bad_answers_get_one_line_and_change_nothing() -> None:
    s = game(deck=("8",))
    east_board(s)
    s, _ = trigger(s)
    key = pending(s)[0].key
    before = snapshot(s)
    cases = [
        (RED, Choose(MSG, "act.9"), key, IllegalActionError, "'act.9' is not an option"),
        (RED, Choose(FIG, "main"), key, IllegalActionError, ""),
        (BLUE, Choose(MSG, "seal"), None, NotYourTurnError, "not your turn"),
        (RED, Pass(), key, IllegalActionError, "use the message"),
    ]
    for seat, action, k, error, words in cases:
        with pytest.raises(error) as err:
            apply(s, seat, action, key=k)
        text = str(err.value)
        assert "\n" not in text and words in text, text
    assert snapshot(s) == before
    done = apply(s, RED, Choose(MSG, "seal"), key=key).state
    with pytest.raises(StaleStateError):
        apply(done, RED, Choose(MSG, "seal"), key=key)


def test_a_figure_answer_that_is_not_a_figure_is_refused_in_both_languages() -> None:
    s = game()
    s = city_of_two(s)
    with pytest.raises(IllegalActionError) as err:
        apply(s, RED, Choose(FIG, "both"))
    assert "'both' is not a figure choice" in str(err.value)
    assert "no es una elección de ficha" in err.value.text("es")


def test_the_score_lines_word_the_messenger_s_points_and_the_views_show_both_figures() -> None:
    """The city's 2 points on red's messenger: red's counter reads "messenger 2" (the score,
    2, is both figures together); the public view's track holds each messenger."""
    from engine import public_view

    s = game()
    s = city_of_two(s)
    s, _ = do(s, "dispatches.figure messenger")
    view = public_view(s)
    (c,) = view.players[RED].counters["dispatches"]
    assert messages.text(c.key, "en", **dict(c.params)) == "messenger 2"
    assert messages.text(c.key, "es", **dict(c.params)) == "seguidora 2"
    assert [(f.seat, f.value) for f in view.track if f.kind == MESSENGER] == [(RED, 2), (BLUE, 0)]
