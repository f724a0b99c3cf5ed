"""Base-game turn rules: placement legality, the occupation rule, discards, errors, game end."""

from __future__ import annotations

import pytest

from engine import (
    Deploy,
    GameOverError,
    GameSetup,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    Pass,
    PlaceTile,
    Position,
    Rotation,
    Seat,
    apply,
    legal_actions,
    legal_deploys,
    legal_placements,
    new_game,
    public_view,
)
from engine.carcassonne.events import GameEnded, TileDiscarded, TileDrawn, TilePlaced
from tests.engine.helpers import SPARE, feature, play, setup, step, supply


# ---------------------------------------------------------------------------- new game
def test_new_game_places_the_start_tile_and_draws() -> None:
    state = new_game(GameSetup(players=3), seed=7)
    (placed,) = state.board.cells.values()
    assert placed.pos == Position(0, 0)
    assert placed.tile.id == "BA/RCr" and placed.rt.rotation == 0
    assert state.step == "place" and state.current == 0 and state.drawn is not None
    # 72 tiles: the start tile, the drawn one and 70 more in the pile
    assert state.tiles_left == 70
    assert [p.supply for p in state.players] == [{"follower": 7}] * 3
    assert state.scores == (0, 0, 0)


def test_same_seed_same_pile_other_seed_other_pile() -> None:
    a, b = new_game(GameSetup(), seed=11), new_game(GameSetup(), seed=11)
    c = new_game(GameSetup(), seed=12)
    assert a.pile == b.pile
    assert a.pile != c.pile
    assert sorted(a.pile) == sorted(c.pile)


def test_draw_order_comes_first_then_the_shuffled_rest() -> None:
    state = new_game(GameSetup(draw_order=("BA/Cccc+", "BA/RRRR")), seed=3)
    assert state.drawn == "BA/Cccc+"
    assert state.pile[:2] == ("BA/Cccc+", "BA/RRRR")
    assert len(state.pile) == 71


@pytest.mark.parametrize(
    ("draw", "words"),
    [(("BA/Nope",), "unknown tile"), (("BA/Cccc+", "BA/Cccc+"), "no copy")],
)
def test_impossible_draw_order_is_refused(draw: tuple[str, ...], words: str) -> None:
    with pytest.raises(IllegalActionError, match=words):
        new_game(GameSetup(draw_order=draw), seed=0)


@pytest.mark.parametrize(
    "bad",
    [
        GameSetup(players=1),
        GameSetup(players=7),
        GameSetup(tiny_city=3),
        GameSetup(farm_scoring="never"),
    ],
)
def test_invalid_setups_are_refused(bad: GameSetup) -> None:
    with pytest.raises(IllegalActionError):
        new_game(bad, seed=0)


# ---------------------------------------------------------------------------- placement
def test_legal_placements_next_to_the_start_tile() -> None:
    # BA/C (one city edge) fits: north of the start with its city turned south (city meets
    # city), and in every rotation whose edges facing the start are right: east/west cells
    # need a road facing the start, which BA/C lacks.
    state = new_game(setup(["BA/C"]), seed=0)
    legal = legal_placements(state)
    assert set(legal) == {Position(0, -1), Position(0, 1)}
    assert legal[Position(0, -1)] == (Rotation.R180,)
    # south of the start the tile must show a field north: every rotation but city-north
    assert set(legal[Position(0, 1)]) == {Rotation.R90, Rotation.R180, Rotation.R270}


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("place 0,-1 r0", ["south edge", "field", "0,0", "city"]),
        ("place 1,0 r0", ["west edge", "field", "0,0", "road"]),
        ("place 0,0 r0", ["already a tile", "0,0"]),
        ("place 5,5 r0", ["5,5", "does not touch"]),
    ],
)
def test_illegal_placement_names_the_edge_and_the_neighbour(action: str, words: list[str]) -> None:
    state = new_game(setup(["BA/C"]), seed=0)
    with pytest.raises(IllegalActionError) as err:
        step(state, action)
    for w in words:
        assert w in str(err.value)


def test_placement_must_match_every_neighbour() -> None:
    # (1,-1) then touches (1,0)'s north (field) and (0,-1)'s east (field): a city facing either
    # is refused, a field tile fits.
    state = play(
        setup(["BA/C", "BA/RFr", "BA/C", SPARE]),
        ["place 0,-1 r180", "pass", "place 1,0 r0", "pass"],
    ).state
    legal = legal_placements(state)
    # BA/C at (1,-1): the city must face north or east (not south, not west)
    assert set(legal[Position(1, -1)]) == {Rotation.R0, Rotation.R90}
    with pytest.raises(IllegalActionError, match="south edge of the tile is city"):
        step(state, "place 1,-1 r180")
    with pytest.raises(IllegalActionError, match="west edge of the tile is city"):
        step(state, "place 1,-1 r270")


def test_unplaceable_tile_is_discarded_and_the_game_goes_on() -> None:
    # After BA/C closes the start city every open cell needs a field or road somewhere, so the
    # all-city BA/Cccc+ fits nowhere: it is discarded and seat 1 draws the next tile.
    game = play(setup(["BA/C", "BA/Cccc+", "BA/RFr", SPARE]), ["place 0,-1 r180", "pass"])
    events = game.last_events
    discards = [e for e in events if isinstance(e, TileDiscarded)]
    assert [(e.seat, e.tile) for e in discards] == [(Seat(1), "BA/Cccc+")]
    draws = [e for e in events if isinstance(e, TileDrawn)]
    assert [(e.seat, e.tile) for e in draws] == [(Seat(1), "BA/RFr")]
    state = game.state
    assert state.discarded == ("BA/Cccc+",)
    assert state.current == 1 and state.drawn == "BA/RFr" and not state.over
    assert public_view(state).discarded == ("BA/Cccc+",)
    state = step(state, "place 1,0 r0")
    assert state.step == "deploy"


def test_unplaceable_last_tile_ends_the_game() -> None:
    game = play(setup(["BA/C", "BA/Cccc+"]), ["place 0,-1 r180", "pass"])
    assert game.state.over
    kinds = [type(e) for e in game.last_events]
    assert kinds.index(TileDiscarded) < kinds.index(GameEnded)


# ---------------------------------------------------------------------------- deploying
def test_legal_deploys_name_every_free_feature_of_the_tile() -> None:
    # BA/CRr turned 90: city E, the curve S–W continues the start road, two fields
    state = play(setup(["BA/CRr", SPARE]), ["place 1,0 r90"]).state
    spots = {d.spot for d in legal_deploys(state)}
    assert spots == {"city:E", "road:SW", "field:Nw.Ne.Se.Wn", "field:Sw.Ws"}
    assert all(d.figure == "follower" for d in legal_deploys(state))
    assert Pass() in set(legal_actions(state, Seat(0)))


def test_occupation_rule_forbids_joining_an_occupied_feature_even_your_own() -> None:
    # seat 0's thief on the start road via (1,0); then seat 0 extends it west and may not deploy
    state = play(
        setup(["BA/RFr", SPARE, "BA/RFr", SPARE]),
        ["place 1,0 r0", "deploy road:EW", "place 0,1 r0", "pass", "place -1,0 r0"],
    ).state
    assert state.current == 0
    spots = {d.spot for d in legal_deploys(state)}
    assert "road:EW" not in spots
    # the field north of the road is free (the thief is on the road), so a farmer may go there
    assert "field:Nw.Ne.En.Wn" in spots
    with pytest.raises(IllegalActionError, match="already occupied") as err:
        step(state, "deploy road:EW")
    assert "road" in str(err.value)


def test_occupation_rule_through_a_long_chain() -> None:
    # a knight on the start city through (0,-1); two tiles later the city reaches (1,-2):
    # distance does not matter
    state = play(
        setup(["BA/CFc.1", "BA/Cc.1", "BA/C", SPARE]),
        ["place 0,-1 r90", "deploy city:NS", "place 0,-2 r180", "pass", "place 1,-2 r270"],
    ).state
    assert "city:W" not in {d.spot for d in legal_deploys(state)}
    with pytest.raises(IllegalActionError, match="occupied"):
        step(state, "deploy city:W")


def test_joining_two_occupied_features_is_allowed_by_placing_but_not_deploying() -> None:
    # the tie board: the joining tile's city holds two knights; a third cannot be added
    game = play(
        setup(["BA/CFc.1", "BA/C", "BA/Cc.1", "BA/Cc.1", SPARE]),
        [
            "place 0,-1 r90",
            "deploy city:NS",
            "place 1,-1 r0",
            "deploy city:N",
            "place 1,-2 r270",
            "pass",
            "place 0,-2 r180",
        ],
    )
    assert "city:ES" not in {d.spot for d in legal_deploys(game.state)}


def test_deploy_with_an_empty_supply_is_refused() -> None:
    # a 1-follower supply: after the first thief there is nothing left to deploy
    game = play(
        setup(["BA/RFr", SPARE, "BA/C", SPARE], followers=1),
        ["place 1,0 r0", "deploy road:EW", "place 0,1 r0", "pass", "place 0,-1 r180"],
    )
    state = game.state
    assert supply(state, 0) == 0
    assert legal_deploys(state) == []
    assert list(legal_actions(state, Seat(0))) == [Pass()]
    with pytest.raises(IllegalActionError, match="no follower left"):
        step(state, "deploy city:S")


def test_unknown_spot_is_an_invalid_action_listing_the_real_spots() -> None:
    state = play(setup(["BA/C", SPARE]), ["place 0,-1 r180"]).state
    with pytest.raises(InvalidActionError) as err:
        step(state, "deploy road:EW")
    assert "city:S" in str(err.value)


def test_jcz_location_names_are_accepted_as_spots() -> None:
    state = play(setup(["BA/C", SPARE]), ["place 0,-1 r180"]).state
    after = step(state, "deploy S")  # the knight closes the 2-tile city at once
    assert after.scores == (2, 0)
    after = step(state, "deploy NL.NR.EL.ER.WL.WR")
    assert feature(after, 0, -1, "field:Nw.Ne.En.Es.Ws.Wn").meeples[0].seat == 0


def test_farmers_switch_off() -> None:
    state = play(setup(["BA/C", SPARE], farmers=False), ["place 0,-1 r180"]).state
    spots = {d.spot for d in legal_deploys(state)}
    assert spots == {"city:S"}
    with pytest.raises(IllegalActionError, match="Farmers are not used"):
        step(state, "deploy field:Nw.Ne.En.Es.Ws.Wn")


# ---------------------------------------------------------------------------- turn order
def test_not_your_turn() -> None:
    state = new_game(setup(["BA/C", SPARE]), seed=0)
    with pytest.raises(NotYourTurnError, match="not your turn"):
        apply(state, Seat(1), PlaceTile(Position(0, -1), Rotation.R180))
    assert list(legal_actions(state, Seat(1))) == []


def test_deploy_before_placing_and_placing_twice_are_refused() -> None:
    state = new_game(setup(["BA/C", SPARE]), seed=0)
    with pytest.raises(IllegalActionError, match="Place your tile first"):
        apply(state, Seat(0), Deploy("city:S"))
    with pytest.raises(IllegalActionError, match="Place your tile first"):
        apply(state, Seat(0), Pass())
    placed = step(state, "place 0,-1 r180")
    with pytest.raises(IllegalActionError, match="already placed"):
        apply(placed, Seat(0), PlaceTile(Position(0, 1), Rotation.R0))


def test_seats_take_turns_in_order() -> None:
    game = play(
        setup(["BA/RFr"] * 4 + [SPARE], players=3),
        ["place 1,0 r0", "pass", "place 2,0 r0", "pass", "place -1,0 r0", "pass"],
    )
    placed = [e for e in game.all_events if isinstance(e, TilePlaced)]
    assert [e.seat for e in placed] == [0, 1, 2]
    assert game.state.current == 0 and game.state.turn == 3


def test_game_over_refuses_every_action_and_lists_none() -> None:
    game = play(setup(["BA/C"]), ["place 0,-1 r180", "pass"])
    state = game.state
    assert state.over and state.step == "over" and state.drawn is None
    (ended,) = [e for e in game.last_events if isinstance(e, GameEnded)]
    assert ended.scores == state.scores
    for seat in (0, 1):
        assert list(legal_actions(state, Seat(seat))) == []
        with pytest.raises(GameOverError):
            apply(state, Seat(seat), Pass())
    assert legal_placements(state) == {} and legal_deploys(state) == []


def test_game_ends_after_the_last_tile_with_final_scoring_and_winners() -> None:
    game = play(
        setup(["BA/RFr", "BA/C"]),
        ["place 1,0 r0", "deploy road:EW", "place 0,-1 r180", "deploy city:S"],
    )
    (ended,) = [e for e in game.all_events if isinstance(e, GameEnded)]
    # seat 1's 2-tile city scored during the last turn (2), seat 0's open road at the end (2)
    assert ended.scores == (2, 2)
    assert ended.winners == (Seat(0), Seat(1))
    assert public_view(game.state).winners == (Seat(0), Seat(1))


def test_state_version_counts_actions() -> None:
    game = play(setup(["BA/C", SPARE]), ["place 0,-1 r180", "pass"])
    assert [s.version for s in game.states] == [0, 1, 2]


def test_draw_limit_ends_the_game_early() -> None:
    state = new_game(GameSetup(draw_limit=2), seed=5)
    assert state.tiles_left == 1
    while not state.over:
        options = list(legal_actions(state, state.current))
        state = apply(state, state.current, options[0]).state
    assert state.pile_pos == 2
    assert len(state.board.cells) - 1 + len(state.discarded) == 2


def test_public_view_hides_the_pile() -> None:
    state = new_game(GameSetup(players=2), seed=9)
    view = public_view(state)
    assert not hasattr(view, "pile") and not hasattr(view, "seed")
    assert view.tiles_left == 70 and view.drawn == state.drawn
    assert [p.name for p in view.players] == ["Player 1", "Player 2"]
    assert [(t.pos, t.tile, t.rotation) for t in view.tiles] == [
        (Position(0, 0), "BA/RCr", Rotation.R0)
    ]
