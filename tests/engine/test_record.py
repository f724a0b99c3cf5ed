"""Game records: JSON round trip, recording while playing, replay and its error messages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GameSetup, PlaceTile, Position, Rotation, Seat, apply, public_view
from engine.carcassonne.events import GameEnded, PointsScored, TilePlaced
from engine.carcassonne.randomplay import choose_action, play_random_game
from engine.carcassonne.record import (
    GameRecord,
    RecordedAction,
    Recorder,
    dumps,
    loads,
    record_of,
    replay,
)
from engine.core.errors import IllegalActionError, RecordError
from engine.core.rng import Rng
from tests.engine.corrupt import corrupted, json_paths

#: The start tile's city (N) completed by a one-city tile turned to face south, then the game ends.
TINY = GameSetup(players=2, draw_order=("BA/C",), only_forced=True)
TINY_MOVES = [(0, "place 0,-1 r180"), (0, "deploy city:S")]


def test_tiny_record_replays_to_the_known_score() -> None:
    rec = record_of(TINY, 1, TINY_MOVES, names=("Ann", "Bo"))
    result = replay(rec)
    assert result.over
    # rulebook 001 tiny city: a completed 2-tile city scores 2
    assert result.scores == (2, 0)
    (award,) = result.awards
    assert award.seat == 0 and award.item.category == "city" and award.item.complete
    assert rec.final_scores == (2, 0)
    assert rec.player_names() == ("Ann", "Bo")
    four = replay(
        record_of(
            GameSetup(players=2, draw_order=("BA/C",), only_forced=True, tiny_city=4), 1, TINY_MOVES
        )
    )
    assert four.scores == (4, 0)


def test_json_shape_matches_the_documented_format() -> None:
    rec = record_of(TINY, 1, TINY_MOVES)
    data = json.loads(dumps(rec))
    assert data["format"] == "carcabot-record" and data["version"] == 1
    assert data["game"] == "carcassonne" and data["seed"] == 1
    assert data["setup"] == TINY.to_json()
    assert data["actions"] == [
        {"seat": 0, "action": "place 0,-1 r180"},
        {"seat": 0, "action": "deploy city:S"},
    ]
    assert data["final_scores"] == [2, 0]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_game_round_trips_and_replays_to_the_same_state(seed: int) -> None:
    game = play_random_game(GameSetup(players=3), seed)
    assert game.state.over
    back = loads(dumps(game.record))
    assert back == game.record
    assert back.final_scores == game.scores
    result = replay(back)
    assert result.scores == game.scores
    assert result.awards == game.state.awards
    assert public_view(result.state) == public_view(game.state)


def test_random_games_are_reproducible_from_the_seed() -> None:
    a = play_random_game(GameSetup(players=2), 11)
    b = play_random_game(GameSetup(players=2), 11)
    c = play_random_game(GameSetup(players=2), 12)
    assert a.record == b.record
    assert a.record.actions != c.record.actions
    assert a.tiles_placed + a.tiles_discarded == 71


def test_replay_keeps_every_state_and_the_events_of_every_move() -> None:
    game = play_random_game(GameSetup(players=2), 5)
    result = replay(game.record, keep_states=True)
    n = len(game.record.actions)
    assert len(result.states) == n + 1 and len(result.move_events) == n
    assert result.states[0].board.cells.keys() == {Position(0, 0)}
    assert [s.version for s in result.states] == list(range(n + 1))
    placed = [e for e in result.events if isinstance(e, TilePlaced)]
    assert len(placed) == game.tiles_placed
    assert isinstance(result.events[-1], GameEnded)
    scored = sum(a.points for ev in result.scored() for a in ev.awards)
    assert scored == sum(result.scores)
    assert all(isinstance(e, PointsScored) for e in result.scored())
    # the light mode keeps only the final state
    assert len(replay(game.record).states) == 1


def test_replay_does_not_trust_final_scores() -> None:
    data = record_of(TINY, 1, TINY_MOVES).to_json()
    data["final_scores"] = [99, 99]
    assert replay(GameRecord.from_json(data)).scores == (2, 0)


def test_recorder_writes_canonical_notation_and_skips_illegal_moves() -> None:
    rec = Recorder(TINY, 1)
    with pytest.raises(IllegalActionError):
        rec.apply(Seat(0), PlaceTile(Position(5, 5), Rotation.R0))
    rec.apply(Seat(0), "place 0,-1 R180")
    rec.apply(Seat(0), "deploy S")  # JCloisterZone location accepted, stored in our notation
    assert [a.notation for a in rec.record().actions] == ["place 0,-1 r180", "deploy city:S"]


def test_recorder_matches_apply_step_by_step() -> None:
    setup = GameSetup(players=2)
    rec = Recorder(setup, 3)
    state = rec.state
    rng = Rng(9)
    for _ in range(20):
        action = choose_action(state, rng)
        state = apply(state, state.current, action).state
        rec.apply(rec.state.current, action)
        assert public_view(rec.state) == public_view(state)


# ---------------------------------------------------------------------------- errors
def _with_actions(actions: list[dict[str, object]]) -> str:
    data = record_of(TINY, 1, []).to_json()
    data["actions"] = actions
    return json.dumps(data)


def test_illegal_placement_names_the_move_and_the_reason() -> None:
    game = play_random_game(GameSetup(players=2), 4)
    actions = list(game.record.actions)
    # move 5 is a placement (moves alternate place/deploy); put it far from every tile
    assert actions[4].notation.startswith("place")
    actions[4] = RecordedAction(actions[4].seat, "place 40,40 r0")
    bad = GameRecord(game.record.setup, game.record.seed, tuple(actions))
    with pytest.raises(RecordError) as err:
        replay(bad)
    assert err.value.move == 5
    assert str(err.value).startswith("move 5: ")
    assert "40,40 does not touch any tile" in str(err.value)


def test_edge_mismatch_is_explained() -> None:
    # the start tile has a city on N: a field edge facing it is refused with the reason
    bad = GameRecord(TINY, 1, (RecordedAction(Seat(0), "place 0,-1 r0"),))
    with pytest.raises(RecordError, match=r"^move 1: .*south edge of the tile is field"):
        replay(bad)


@pytest.mark.parametrize(
    ("actions", "move", "reason"),
    [
        ([{"seat": 1, "action": "place 0,-1 r180"}], 1, "seat 2 moved, but it is seat 1's turn"),
        ([{"seat": 0, "action": "fly 0,-1"}], 1, "not an action"),
        (
            [{"seat": 0, "action": "place 0,-1 r180"}, {"seat": 0, "action": "deploy city:E"}],
            2,
            "not a spot",
        ),
        (
            [{"seat": 0, "action": "place 0,-1 r180"}, {"seat": 0, "action": "place 1,0 r0"}],
            2,
            "already placed",
        ),
        (
            [
                {"seat": 0, "action": "place 0,-1 r180"},
                {"seat": 0, "action": "pass"},
                {"seat": 1, "action": "pass"},
            ],
            3,
            "already over",
        ),
        ([{"seat": 7, "action": "pass"}], 1, "bad seat 7"),
        (["pass"], 1, "must be an object"),
        ([{"seat": 0, "action": 3}], 1, "must be a text"),
    ],
)
def test_bad_moves_raise_record_error_with_the_move(
    actions: list[dict[str, object]], move: int, reason: str
) -> None:
    with pytest.raises(RecordError) as err:
        replay(loads(_with_actions(actions)))
    assert err.value.move == move
    assert str(err.value).startswith(f"move {move}: ")
    assert reason in str(err.value)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"format": "other"}', "not a game record"),
        ('{"format": "carcabot-record", "version": 2}', "newer"),
        ('{"format": "carcabot-record", "version": 1, "game": "chess"}', "chess"),
        ('{"format": "carcabot-record", "version": 1, "setup": {}, "seed": "x"}', "seed"),
        (
            '{"format": "carcabot-record", "version": 1, "setup": {"players": "x"}, "seed": 1}',
            "bad setup",
        ),
    ],
)
def test_malformed_records(text: str, reason: str) -> None:
    with pytest.raises(RecordError, match=reason) as err:
        loads(text)
    assert err.value.move is None


def test_impossible_setup_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="bad setup: .*2–6 players"):
        replay(GameRecord(GameSetup(players=9), 1))
    with pytest.raises(RecordError, match="bad setup: draw order entry 1: unknown tile"):
        replay(GameRecord(GameSetup(players=2, draw_order=("nope",)), 1))


def test_record_of_reports_the_first_illegal_move() -> None:
    with pytest.raises(RecordError, match=r"^move 2: ") as err:
        record_of(TINY, 1, [(0, "place 0,-1 r180"), (1, "pass")])
    assert err.value.move == 2


# ---------------------------------------------------------------------------- robustness
_JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["place 0,-1 r180", "pass", "deploy city:S", "BA/C"]),
    st.lists(st.text(max_size=4), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
_BASE = play_random_game(GameSetup(players=2), 1).record.to_json()


@settings(max_examples=300, deadline=None)
@given(path=st.sampled_from(json_paths(_BASE, items=6)), value=_JSON_VALUES)
def test_any_corrupted_field_gives_a_record_error_or_a_replay(
    path: tuple[Any, ...], value: Any
) -> None:
    data = corrupted(_BASE, path, value)
    try:
        replay(loads(json.dumps(data)))
    except RecordError as e:
        assert str(e)  # a message for players, never another exception type


@pytest.mark.parametrize(
    "expansions",
    [("inns_cathedrals",), ("traders_builders",), ("inns_cathedrals", "traders_builders")],
)
def test_random_expansion_games_round_trip(expansions: tuple[str, ...]) -> None:
    game = play_random_game(GameSetup(players=3, expansions=expansions), 21)
    assert game.state.over
    result = replay(loads(dumps(game.record)))
    assert result.scores == game.scores
    assert public_view(result.state) == public_view(game.state)


RECORDS = Path(__file__).resolve().parent.parent / "fixtures" / "records"


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.json")), ids=lambda p: p.name)
def test_saved_records_still_replay(path: Path) -> None:
    """Records saved earlier replay to the scores they were written with (format stability)."""
    import json

    from engine.cardgame.record import CardRecord, is_card_record
    from engine.cardgame.record import dumps as dumps_cards

    text = path.read_text(encoding="utf-8")
    if is_card_record(json.loads(text)):  # the card game's (its own replay)
        cards = CardRecord.from_json(json.loads(text))
        assert cards.final_scores is not None
        state = cards.replay()  # checks the final scores
        assert state.over and tuple(state.scores) == cards.final_scores
        assert dumps_cards(cards) + "\n" == text
        return
    record = loads(text)
    assert record.final_scores is not None
    result = replay(record)
    assert result.over
    assert result.scores == record.final_scores
    assert dumps(record) + "\n" == path.read_text(encoding="utf-8")
