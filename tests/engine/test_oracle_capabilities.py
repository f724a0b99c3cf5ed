"""The capabilities the expansions still to come need (issue 20), each proved with the
test-only Oracle expansion (tests/expansions/oracle.py, oracle_more.py) on games whose tiles
and die rolls are forced, so every expectation below is worked out by hand.

Ferries re-route roads (links), robbers and the messenger stand on the scoring track (shadows
and ravens), gold lies on tiles (acorns), crop circles ask every seat in turn order (the join
round), messages are a hidden pile of cards (omens), the flier's die is public and forcible
(``oracle.die``), and the mage and witch are neutral figures (the owl).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields

import pytest

from engine import GameSetup, Seat, apply, new_game, play_random_game, view_for
from engine.carcassonne.actions import Action, Choose, Deploy, Pass, PlaceTile
from engine.carcassonne.board import Meeple
from engine.carcassonne.events import DieRolled, Event, PointsScored, TrackFigureMoved
from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.placement import occupied
from engine.carcassonne.record import GameRecord, dumps, loads, replay
from engine.carcassonne.rules import pending, preview, tile_sets_of
from engine.carcassonne.scoring import Award, ScoreItem, give
from engine.carcassonne.state import GameState
from engine.carcassonne.tokens import CellTokens, feature_area, share_out
from engine.carcassonne.track import (
    TrackFigure,
    at_space,
    figures,
    put,
    space,
    transfer,
    value,
)
from engine.carcassonne.view import PublicView, SeatView
from engine.core.decisions import Prompt, TrackSpace
from engine.core.errors import IllegalActionError, RecordError
from engine.core.seats import NEUTRAL
from tests.expansions import oracle
from tests.expansions import oracle_more as more

ODD = (1, 1, 1, 1, 1, 1)  # rolls that wake nothing (an even roll offers the owl)


@pytest.fixture(autouse=True)
def with_oracle() -> Iterator[None]:
    oracle.install()
    yield
    oracle.uninstall()


def _game(
    *tiles: str,
    players: int = 2,
    options: tuple[str, ...] = (),
    rolls: tuple[int, ...] = ODD,
    forced: tuple[tuple[str, tuple[str, ...]], ...] = (),
) -> GameState:
    setup = GameSetup(
        players=players,
        expansions=("oracle",),
        draw_order=tiles,
        options=tuple(sorted((o, True) for o in options)),
        forced=tuple(sorted(((more.DIE, rolls), *forced))),
    )
    return new_game(setup, seed=1)


def _play(s: GameState, *moves: tuple[int, Action]) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for seat, action in moves:
        tr = apply(s, Seat(seat), action)
        s = tr.state
        events += tr.events
    return s, events


def _place(x: int, y: int, r: int = 0) -> PlaceTile:
    return PlaceTile(Position(x, y), Rotation(r))


# ------------------------------------------------------------------ 5. a die everyone sees
def test_forced_rolls_come_first_then_the_hidden_generator_goes_on() -> None:
    forced = play_random_game(GameSetup(expansions=("oracle",), forced=((more.DIE, (6, 1, 3)),)), 5)
    free = play_random_game(GameSetup(expansions=("oracle",)), 5)

    def rolls(game: object) -> list[int]:
        evs = replay(game.record).events  # type: ignore[attr-defined]
        return [e.value for e in evs if isinstance(e, DieRolled) and e.die == more.DIE]

    # forced rolls take nothing from the generator: its first roll comes fourth
    assert rolls(forced)[:4] == [6, 1, 3, rolls(free)[0]]
    record = loads(dumps(forced.record))
    assert '"forced": {' in dumps(forced.record)
    assert record.setup.forced == ((more.DIE, (6, 1, 3)),)
    assert replay(record).scores == forced.scores


def test_a_forced_roll_that_is_no_face_of_the_die_is_refused() -> None:
    s = _game("BA/RFr", rolls=(7,))
    with pytest.raises(IllegalActionError, match="not a face"):
        _play(s, (0, _place(1, 0)), (0, Pass()))


def test_a_step_that_takes_a_forced_roll_is_never_previewed() -> None:
    # an even roll opens the owl's move for the same seat before anything is drawn: without
    # the check on hidden piles, the preview would tell that the (forced) roll is even
    s, _ = _play(_game("BA/RFr", rolls=(2,)), (0, _place(1, 0)))
    after, _ = _play(s, (0, Pass()))
    assert pending(after)[0].kind == "oracle.owl" and after.pile_pos == s.pile_pos
    assert after.rng == s.rng and preview(s, Seat(0), Pass()) is None


def test_setups_without_forced_outcomes_write_and_read_as_before() -> None:
    old = {"players": 2, "expansions": [], "tiny_city": 2, "farm_scoring": "per_farm"}
    setup = GameSetup.from_json(old)  # a snapshot stored before ``forced`` existed
    assert setup.forced == () and "forced" not in GameSetup(flow=1).to_json()
    assert GameSetup(flow=1).to_json() == old
    forced = GameSetup(forced=((more.DIE, (2,)),))
    assert GameSetup.from_json(forced.to_json()) == forced
    bad = {"format": "carcabot-record", "version": 1, "setup": {**old, "forced": {"d": [1.5]}}}
    with pytest.raises(RecordError, match='"forced"'):
        GameRecord.from_json({**bad, "seed": 1})


# ------------------------------------------------------------------ 7. a pile of cards
def test_omens_are_a_hidden_pile_forced_on_top_drawn_shown_and_put_under() -> None:
    s = _game(
        "BA/RFr",
        "BA/RFr",
        options=(more.OMENS,),
        rolls=(4, 4),
        forced=((more.DECK, ("moon", "sun")),),
    )
    deck = s.piles[more.DECK]
    assert deck[:2] == ("moon", "sun") and sorted(deck) == sorted(more.OMEN_CARDS)
    s, events = _play(
        s,
        (0, _place(1, 0)),
        (0, Pass()),
        (0, Pass()),  # a 4 is even: the owl may move
        (1, _place(2, 0)),
        (1, Pass()),
        (1, Pass()),
    )
    drawn = [e for e in events if isinstance(e, more.OmenDrawn)]
    assert [(e.seat, e.card) for e in drawn] == [(0, "moon"), (1, "sun")]
    assert s.scores == (0, 2)  # the sun scores 2 for who drew it
    assert s.piles[more.DECK] == (*deck[2:], "moon", "sun")  # used cards go under
    # no view holds the pile: only its owner's words about the last card drawn
    names = {f.name for f in fields(PublicView)} | {f.name for f in fields(SeatView)}
    assert "piles" not in names and "pile" not in names
    assert view_for(s).ext["oracle"].more.omen == "sun"  # type: ignore[union-attr]


def test_the_pile_is_shuffled_from_the_seed_and_a_card_it_lacks_cannot_be_forced() -> None:
    decks = {
        new_game(GameSetup(expansions=("oracle",), options=((more.OMENS, True),)), seed=n).piles[
            more.DECK
        ]
        for n in range(6)
    }
    assert len(decks) > 1
    with pytest.raises(IllegalActionError, match="no 'hail' in the pile"):
        _game(options=(more.OMENS,), forced=((more.DECK, ("hail",)),))


# ------------------------------------------------------------------ 1. re-routed features
def test_a_link_moved_away_completes_a_road_far_from_the_new_tile() -> None:
    s = _game("BA/RRRR", "BA/LR", "BA/RFr", options=(more.LINKS,))
    s, _ = _play(
        s,
        (0, _place(1, 0)),  # a crossing east of the start tile
        (0, Pass()),
        (0, Choose("oracle.link", "1,0:0+1")),  # its north and east ends become one road
        (1, _place(1, -1)),  # a cloister whose road closes the north end
        (1, Deploy("road:S")),  # the linked road is still open (east): nobody's
    )
    road = s.board.feature_at(Position(1, -1), 0)[1]
    assert road.open == 1 and road.tiles == {Position(1, -1), Position(1, 0)}
    s, events = _play(
        s,
        (1, Pass()),  # no re-link this turn
        (0, _place(-1, 0)),  # west of the start tile: nowhere near that road
        (0, Pass()),
        (0, Choose("oracle.link", "1,0:-")),  # unlinked: the north arm is closed at once
    )
    (scored,) = [e for e in events if isinstance(e, PointsScored)]
    assert (scored.item.category, scored.item.points, scored.item.complete) == ("road", 2, True)
    assert [(a.seat, a.points) for a in scored.awards] == [(1, 2)]
    assert s.scores == (0, 2) and s.players[1].supply["follower"] == 7
    assert s.board.links == {} and s.board.feature_at(Position(1, 0), 1)[1].open == 1


# ------------------------------------------------------------------ 2. the scoring track
def test_shadows_and_a_raven_stand_on_the_track_and_the_raven_is_fed_once() -> None:
    s = _game("BA/RFr", players=3, options=(more.RAVENS,), rolls=(6,))
    assert figures(s) == tuple(TrackFigure(Seat(i), more.SHADOW, 0, True) for i in range(3))
    s, _ = _play(s, (0, _place(1, 0)), (0, Pass()))
    (d,) = pending(s)
    assert d.kind == "oracle.raven" and [o.target for o in d.options] == [TrackSpace(0)]
    s, events = _play(s, (0, Choose("oracle.raven", "0")))
    assert TrackFigureMoved(Seat(0), more.RAVEN, 0) in events
    assert (Seat(1), "") in at_space(s, 0) and (Seat(2), more.SHADOW) in at_space(s, 0)

    # seat 1's marker leaves the raven's space: the raven's owner scores 1, the raven goes
    s = s.clone()
    evs: list[Event] = []
    item = ScoreItem("road", 4, True, False, winners=(Seat(1),))
    give(s, (Award(Seat(1), 4, item),), item, evs)
    assert s.scores == (1, 4, 0) and not figures(s, kind=more.RAVEN)
    assert [(a.seat, a.points, a.item.category) for a in s.awards] == [
        (1, 4, "road"),
        (0, 1, more.RAVEN),
    ]
    # seat 2's shadow takes 3: its marker stays on 0, its score is 3
    give(s, (Award(Seat(2), 3, item, figure=more.SHADOW),), item, evs)
    assert (value(s, Seat(2)), value(s, Seat(2), more.SHADOW), s.scores[2]) == (0, 3, 3)
    assert TrackFigureMoved(Seat(2), more.SHADOW, 3) in evs
    assert view_for(s).track == s.track  # type: ignore[union-attr]


def test_points_moved_to_another_figure_after_the_fact_are_moves_on_the_track_too() -> None:
    s = _game(players=2, options=(more.RAVENS,)).clone()
    put(s, TrackFigure(Seat(0), more.RAVEN, 0))
    evs: list[Event] = []
    item = ScoreItem("city", 0, True, False, winners=(Seat(1),))  # 0 points: moves nothing
    give(s, (Award(Seat(1), 0, item),), item, evs)
    assert figures(s, kind=more.RAVEN)
    # the raven's owner moves 5 of its own points: its raven does not feed on itself
    own = Award(Seat(0), 5, item)
    give(s, (own,), item, evs)
    assert s.scores == (5, 0) and figures(s, kind=more.RAVEN)
    # seat 1 scores 6 and then chooses its shadow: the marker goes back, the shadow leaves
    # space 0, where the raven stands
    first = Award(Seat(1), 6, item)
    give(s, (first,), item, evs)
    assert s.scores == (6, 6) and not figures(s, kind=more.RAVEN)  # the marker left 0
    # a new raven beside seat 1's shadow; seat 1 then has its 6 points moved to the shadow:
    # the score stays, the marker goes back (no theft), the shadow leaves the raven's space
    put(s, TrackFigure(Seat(0), more.RAVEN, 0))
    moved = transfer(s, first, more.SHADOW, evs)
    assert s.awards[-3] == moved and moved.figure == more.SHADOW
    assert (value(s, Seat(1)), value(s, Seat(1), more.SHADOW)) == (0, 6)
    assert s.scores == (7, 6) and not figures(s, kind=more.RAVEN)
    assert s.awards[-1].item.category == more.RAVEN
    assert space(-3) == 47 and space(53) == 3


def test_every_right_guess_goes_to_its_seats_shadow() -> None:
    game = play_random_game(
        GameSetup(players=3, expansions=("oracle",), options=((more.RAVENS, True),)), 3
    )
    right = [0, 0, 0]
    for e in replay(game.record).events:
        if isinstance(e, oracle.GuessesRevealed):
            for seat, g in enumerate(e.guesses):
                right[seat] += g == e.value
    assert sum(right) > 0
    for seat in range(3):
        assert value(game.state, Seat(seat), more.SHADOW) == 3 * right[seat]


# ------------------------------------------------------------------ 3. tokens on tiles
def test_acorns_lie_on_tiles_and_go_to_the_winners_of_a_feature_covering_them() -> None:
    s = _game("BA/C", options=(more.ACORNS,), rolls=(5,))
    # seat 0 closes the start tile's city with a knight; a 5 puts an acorn on the new tile
    # (after the follower, before the scoring), and the knight's owner takes it
    s, events = _play(s, (0, _place(0, -1, 2)), (0, Deploy("city:S")))
    assert more.AcornsTaken(((Seat(0), 1),)) in events
    assert more.more(s).held == (1, 0) and more.more(s).acorns == CellTokens()
    counters = view_for(s).players[0].counters  # type: ignore[union-attr]
    assert counters == {"oracle": (Prompt.of("oracle.acorns", n=1),)}


def test_acorns_stay_on_a_completed_feature_nobody_holds() -> None:
    s = _game("BA/C", options=(more.ACORNS,), rolls=(5,))
    s, events = _play(s, (0, _place(0, -1, 2)), (0, Pass()))
    assert not any(isinstance(e, more.AcornsTaken) for e in events)
    assert more.more(s).held == (0, 0)
    assert view_for(s).ext["oracle"].more.acorns.at(Position(0, -1)) == 1  # type: ignore[union-attr]


def test_a_cloister_covers_the_tiles_around_it_and_shares_go_round_from_the_active_seat() -> None:
    s = _game("BA/L")
    s, _ = _play(s, (0, _place(0, 1)))
    cloister = s.board.feature_at(Position(0, 1), 1)[1]
    assert feature_area(s.board, cloister) == {Position(0, 1), Position(0, 0)}
    road = s.board.feature_at(Position(0, 0), 1)[1]
    assert feature_area(s.board, road) == road.tiles
    assert share_out(5, (Seat(2), Seat(0))) == {2: 3, 0: 2}
    assert share_out(0, (Seat(1),)) == {} and share_out(3, ()) == {}


# ------------------------------------------------------------------ 6. every seat in turn
def test_the_join_round_asks_each_seat_in_turn_from_the_rollers_left_skipping_idle_ones() -> None:
    s = _game("BA/RRRR", "BA/RFr", "BA/RFr", players=3, options=(more.ROUND,), rolls=(1, 1, 3))
    s, _ = _play(
        s,
        (0, _place(1, 0)),
        (0, Deploy("road:W")),  # seat 0 on the start tile's road
        (1, _place(2, 0)),
        (1, Deploy("road:EW")),  # seat 1 on the crossing's east arm
        (2, _place(1, 1, 1)),  # seat 2 rolls the 3 and has no road of its own
        (2, Pass()),
    )
    (d,) = pending(s)  # one seat at a time: seat 0 first (left of seat 2)
    assert (d.kind, d.seat, d.optional) == ("oracle.join", 0, True)
    assert [o.id for o in d.options] == ["1,0@road:W"]
    s, events = _play(s, (0, Choose("oracle.join", "1,0@road:W")))
    road = s.board.feature_at(Position(1, 0), 3)[1]
    assert [m.seat for m in road.meeples] == [0, 0] and s.players[0].supply["follower"] == 5
    (d,) = pending(s)
    assert (d.kind, d.seat) == ("oracle.join", 1)
    s, _ = _play(s, (1, Pass()))
    (d,) = pending(s)  # seat 2 had nothing to add: the next turn
    assert (d.kind, d.seat) == ("core.place", 0)


# ------------------------------------------------------------------ 4. neutral figures
def test_a_neutral_figure_never_occupies_stays_when_figures_go_home_and_moves_anywhere() -> None:
    s = _game("BA/RFr", "BA/RFr")
    s, _ = _play(s, (0, _place(1, 0)), (0, Pass()))
    b = s.clone().board
    east = b.cells[Position(1, 0)]
    owl = Meeple(NEUTRAL, oracle.OWL, east.segs[0], east.pos)
    b.add_meeple(owl)
    rep, road = b.feature_at(east.pos, 0)
    assert not occupied(road) and road.neutrals() == (owl,)
    knight = Meeple(Seat(1), "follower", east.segs[0], east.pos)
    b.add_meeple(knight)
    assert b.remove_meeples(rep) == (knight,)  # figures go home, the owl stays
    assert b.neutral_figures() == ((rep, owl),)
    field = b.cells[Position(0, 0)].segs[2]
    moved = b.move_meeple(owl, field, Position(0, 0))
    assert b.feature_of(field).neutrals() == (moved,) and b.feature_at(east.pos, 0)[1].meeples == ()


# ------------------------------------------------------- tile sets chosen by an option
def test_an_option_chooses_the_tile_sets_an_expansion_puts_in_the_pile() -> None:
    """``Expansion.tile_sets_in_play`` (Crop Circles' two editions): with the option the pile
    holds the base game twice, the second start tile too: 71 + 72 = 143 tiles."""
    plain = _game()
    doubled = _game(options=(oracle.SECOND_BASE,))
    assert tile_sets_of(plain.setup) == ("base",)
    assert tile_sets_of(doubled.setup) == ("base", "base")
    assert len(plain.pile) == 71
    assert len(doubled.pile) == 71 + 72
