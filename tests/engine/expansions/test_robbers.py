"""Robbers (RULES.md §11.2, OQ-ROB-4, OQ-ROB-5): placing robbers as decisions, the next
player's offer, bad answers, the words, and records that replay. Seats: blue 0, red 1,
yellow 2, green 3 (the rulebook's turn order)."""

from __future__ import annotations

import pytest

from engine import Action, GameSetup, IllegalActionError, apply
from engine.carcassonne.actions import Choose, Pass
from engine.carcassonne.events import TrackFigureMoved
from engine.carcassonne.expansions.robbers import OFFER, PLACE_STEP, Robbers
from engine.carcassonne.randomplay import play_random_game
from engine.carcassonne.record import replay
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.core import messages
from engine.core.decisions import TrackSpace
from engine.core.errors import EngineError, NotYourTurnError, StaleStateError
from engine.core.seats import Seat
from tests.engine.expansions.robbers_helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    do,
    game,
    robber,
    robber_at,
    scores,
)
from tests.engine.test_properties import snapshot


def spaces(s: GameState) -> list[int]:
    """The spaces the open robber decision offers."""
    (d,) = pending(s)
    assert d.kind == PLACE_STEP
    return [o.target.n for o in d.options]  # type: ignore[union-attr]


def test_rulebook_blue_places_beside_red_and_green_is_the_next_player_offered() -> None:
    """§11.2 example: «Los jugadores azul, rojo, amarillo y verde juegan en este orden. El
    jugador azul ... coloca su ladrón junto a la ficha de puntuación roja. Como los ladrones
    de los jugadores rojo y amarillo ya están en el marcador, ahora el jugador verde puede
    también colocar su ladrón.» Blue 0, red 8, yellow 3, green 5; red's robber beside yellow
    (3), yellow's beside blue (0). Blue may go beside red (8), yellow (3) or green (5), never
    beside only its own marker (0)."""
    s = game(("RB/RFr", "BA/L"), players=4)
    scores(s, 0, 8, 3, 5)
    robber(s, RED, 3)
    robber(s, YELLOW, 0)
    s, _ = do(s, "place 1,0 r90")
    (d,) = pending(s)
    assert d.seat == BLUE and d.optional and spaces(s) == [3, 5, 8]
    assert [o.target for o in d.options] == [TrackSpace(3), TrackSpace(5), TrackSpace(8)]
    s, events = do(s, f"{PLACE_STEP} 8")
    assert TrackFigureMoved(BLUE, "robber", 8) in events and robber_at(s, BLUE) == 8
    (d,) = pending(s)
    assert d.seat == GREEN and d.kind == PLACE_STEP  # red and yellow are on the track
    assert spaces(s) == [0, 3, 8]  # beside blue, yellow, red (and blue's robber on 8: fine)
    s, _ = do(s, f"{PLACE_STEP} 0")
    assert robber_at(s, GREEN) == 0
    (d,) = pending(s)
    assert d.seat == BLUE and d.kind != PLACE_STEP  # the follower step, as usual


def test_the_next_player_is_offered_whatever_the_active_player_did_and_nobody_after_them() -> None:
    """OQ-ROB-5: blue passes; red (the next seat with a robber in front) is offered; red
    passes: yellow and green are not asked (001: only «el siguiente jugador»)."""
    s = game(("RB/RFr", "BA/L"), players=4)
    s, _ = do(s, "place 1,0 r90")
    s, _ = do(s, "pass")
    (d,) = pending(s)
    assert d.seat == RED and d.kind == PLACE_STEP
    s, _ = do(s, "pass")
    (d,) = pending(s)
    assert d.seat == BLUE and d.kind != PLACE_STEP


def test_with_the_english_rules_each_other_player_is_offered_in_turn() -> None:
    """The option ``robbers.offer = each``: red, then yellow, then green (whose robbers are in
    front of them) are asked, each after the one before has answered."""
    s = game(("RB/RFr", "BA/L"), players=4, **{OFFER: "each"})
    s, _ = do(s, "place 1,0 r90")
    s, _ = do(s, "pass")
    asked = []
    while pending(s)[0].kind == PLACE_STEP:
        asked.append(pending(s)[0].seat)
        s, _ = do(s, "pass")
    assert asked == [RED, YELLOW, GREEN]


def test_the_active_player_may_move_a_robber_already_on_the_track() -> None:
    """§11.2 rule 2: blue's robber stands beside red (4), yellow is on 6: blue may move it to
    6 (not to 4, where it stands; not to 0, its own marker). Then red is offered."""
    s = game(("RB/RFr", "BA/L"), players=3)
    scores(s, 0, 4, 6)
    robber(s, BLUE, 4)
    s, _ = do(s, "place 1,0 r90")
    assert spaces(s) == [6]  # not where it already stands
    s, events = do(s, f"{PLACE_STEP} 6")
    assert robber_at(s, BLUE) == 6
    (d,) = pending(s)
    assert d.seat == RED and d.kind == PLACE_STEP


def test_a_plain_tile_offers_no_robber() -> None:
    s = game(("BA/RFr", "BA/L"))
    s, _ = do(s, "place 1,0 r0")
    assert all(d.kind != PLACE_STEP for d in pending(s))


def test_bad_answers_get_one_line_and_change_nothing() -> None:
    s = game(("RB/RFr", "BA/L"), players=3)
    scores(s, 0, 4, 6)
    s, _ = do(s, "place 1,0 r90")
    key = pending(s)[0].key
    before = snapshot(s)
    cases: list[tuple[Seat, Action, str | None, type[EngineError], str]] = [
        (BLUE, Choose(PLACE_STEP, "0"), key, IllegalActionError, "choose one of '4', '6'"),
        (BLUE, Choose(PLACE_STEP, "51"), key, IllegalActionError, "Space '51'"),
        (BLUE, Choose(PLACE_STEP, "nowhere"), key, IllegalActionError, "'nowhere'"),
        (RED, Choose(PLACE_STEP, "0"), None, NotYourTurnError, "not your turn"),
        (BLUE, Action.from_notation("place 2,0 r0"), key, IllegalActionError, "robber first"),
    ]
    for seat, action, k, error, words in cases:
        with pytest.raises(error) as err:
            apply(s, seat, action, key=k)
        text = str(err.value)
        assert "\n" not in text and words in text, text
    assert snapshot(s) == before
    done = apply(s, BLUE, Pass(), key=key).state
    with pytest.raises(StaleStateError):  # an answer after the decision closed
        apply(done, BLUE, Choose(PLACE_STEP, "4"), key=key)
    es = IllegalActionError.keyed("robbers.err.space", space="0", names="'4', '6'").text("es")
    assert es.startswith("La casilla '0' no tiene")


def test_words_in_english_and_spanish() -> None:
    assert messages.text("exp.robbers", "es") == "Ladrones"
    assert messages.text("fig.robber", "es") == "ladrón"
    assert messages.text(PLACE_STEP, "es").startswith("Coloca tu ladrón junto al marcador")
    assert messages.text("robbers.removed", "en", n=2) == (
        "2 robbers left on the scoring track go home."
    )
    assert messages.text(f"choice.{OFFER}.next", "es") == "el siguiente jugador"
    assert [o.key for o in Robbers.options] == [OFFER]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_games_replay_to_the_same_scores(seed: int) -> None:
    """Records replay exactly; robber points are half (rounded up) of one noted award."""
    setup = GameSetup(players=4, expansions=("robbers",))
    g = play_random_game(setup, seed)
    again = replay(g.record)
    assert again.state.scores == g.state.scores
    assert sum(a.points for a in again.state.awards) == sum(again.state.scores)
    assert not [f for f in again.state.track if f.kind == "robber"]  # all home at the end
