"""The JCloisterZone 5.x importer against JCloisterZone 5's own engine tests and their asserted
scores, and what a save becomes: our setup, its ending, the builder's second tile, UNDO, and
Abbey & Mayor. Every way a 5.x save can be refused: test_jcz5_refusals.py.

Fixtures: tests/fixtures/jcz5 (byte-for-byte copies of shared/jcz5; its README documents the
format and how each expected number arises). Fixtures of expansions we do not build yet are listed
in :data:`WAITING`: each expansion's issue moves its fixtures to :data:`PLAYED`.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from engine.carcassonne.jcz5 import import_jcz5, loads_jcz5
from engine.carcassonne.record import dumps, loads, replay
from engine.carcassonne.rules import new_game
from engine.carcassonne.state import FIGURE_COUNT, SOLO, GameSetup
from engine.core.errors import IllegalActionError, RecordError
from tests.engine.jcz5saves import FIXTURES, load_save, replay_save

EXPECTED: dict[str, Any] = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))

#: fixtures of expansions we play: each must reach JCloisterZone's asserted scores
PLAYED = (
    "basic/city-and-road-scoring.jcz",
    "basic/field-scoring.jcz",
    "basic/monastery-scoring.jcz",
    "basic/tiny-city-rule.jcz",
    "basic/tiny-city-coa.jcz",
    "abbey-and-mayor/abbey-merge.jcz",
    "abbey-and-mayor/abbey-wagon-move.jcz",
    "abbey-and-mayor/barn-connected-scoring.jcz",
    "abbey-and-mayor/barn-scoring.jcz",
    "abbey-and-mayor/mayor-zero-points.jcz",
    "abbey-and-mayor/multiple-barns.jcz",
    "abbey-and-mayor/multiple-wagons.jcz",
    "bridge-bazaar-and-castles/castle-unoccupied-trigger.jcz",
    "bridge-bazaar-and-castles/field-castle-scoring.jcz",
    "abbey-and-mayor/abbey-wagon-move-bridge.jcz",
    "inns-and-cathedrals/cathedrals-scoring-2.jcz",
    "inns-and-cathedrals/cathedrals-scoring.jcz",
    "inns-and-cathedrals/inns-scoring.jcz",
    "traders-and-builders/cloth-scoring-tie.jcz",
    "traders-and-builders/grain-scoring.jcz",
    "traders-and-builders/pig-scoring.jcz",
    "traders-and-builders/pigs-no-stack.jcz",
    "traders-and-builders/wine-scoring.jcz",
    "flying-machines/placement-is-mandatory.jcz",
    "goldmines/gold-scoring.jcz",
    "goldmines/gold-scoring-2.jcz",
    "bridge-bazaar-and-castles/castle-not-affected-by-corn-circles.jcz",
    "mage-and-witch/mage.jcz",
    "mage-and-witch/witch.jcz",
)

#: fixtures waiting for an expansion that is not built yet -> the part the importer names when
#: it refuses them (move a fixture to PLAYED when its expansion is built)
WAITING: dict[str, str] = {}

#: first dot-segment of a JCloisterZone score expression -> our award category
CATEGORIES = {
    "city": "city",
    "road": "road",
    "monastery": "cloister",
    "field": "farm",
    "castle": "castle",
    "gold": "gold",
}
SCORED = re.compile(r"(\w+) scored (\w+) for (-?\d+) points?")


# ---------------------------------------------------------------------------- the fixtures
def test_every_fixture_is_played_or_waiting() -> None:
    assert not set(PLAYED) & set(WAITING)
    assert sorted([*PLAYED, *WAITING]) == sorted(EXPECTED)


@pytest.mark.parametrize("name", PLAYED)
def test_fixture_reaches_jcloisterzone_scores(name: str) -> None:
    expected = EXPECTED[name]
    game = loads_jcz5((FIXTURES / name).read_bytes())
    result = replay(game.record)
    assert result.over is expected["final"]
    assert len(result.scores) == len(expected["scores"])
    for got, want in zip(result.scores, expected["scores"], strict=True):
        if want is not None:
            assert got == want
    players = [p["name"] for p in load_save(name)["players"]]
    assert list(game.names) == players == list(game.record.player_names())
    # the imported record is an ordinary record: it survives JSON and replays the same
    assert replay(loads(dumps(game.record))).scores == result.scores


@pytest.mark.parametrize("name", PLAYED)
def test_fixture_scoring_events_match_the_assertions(name: str) -> None:
    """JCloisterZone's "X scored road for N points" assertions, 0-point ones included: some
    award of the game has that player, category and points."""
    game = loads_jcz5((FIXTURES / name).read_bytes())
    result = replay(game.record)
    events = {(a.seat, a.item.category, a.points) for a in result.awards}
    for assertion in EXPECTED[name]["assertions"]:
        m = SCORED.search(assertion)
        if m:
            seat = game.names.index(m.group(1))
            assert (seat, CATEGORIES[m.group(2)], int(m.group(3))) in events, assertion


@pytest.mark.parametrize("name", sorted(WAITING))
def test_fixture_waits_for_its_expansion(name: str) -> None:
    """Refused in one line naming the part; when the expansion is built this fails: move the
    fixture to PLAYED."""
    with pytest.raises(RecordError) as err:
        loads_jcz5((FIXTURES / name).read_bytes())
    message = str(err.value)
    assert "\n" not in message and message.endswith("is not built yet")
    assert WAITING[name] in message


# ---------------------------------------------------------------------------- setup → ours
def test_rules_and_elements_become_our_setup() -> None:
    setup = import_jcz5(load_save("inns-and-cathedrals/inns-scoring.jcz")).record.setup
    assert setup.expansions == ("inns_cathedrals",)
    assert setup.tiny_city == 4  # no tiny-city-scoring rule: JCloisterZone's default
    assert setup.farmers and setup.followers == 7 and setup.farm_scoring == "per_farm"
    assert dict(setup.options) == {
        "ic.cathedrals": True,
        "ic.inns": True,
        "ic.large_follower": True,
    }
    assert setup.draw_limit == 3 and setup.draw_order == ("IC/RRR.i", "IC/RFr.i", "BA/RRR")
    tiny = import_jcz5(load_save("basic/tiny-city-rule.jcz")).record.setup
    assert tiny.tiny_city == 2 and tiny.players == 1 and dict(tiny.options) == {"core.solo": True}
    assert tiny.draw_limit is None


def test_pig_without_traders_tiles_and_two_pigs() -> None:
    """``pig`` with only the base tiles: T&B's pig alone; ``pig: 2`` gives two pigs each."""
    setup = import_jcz5(load_save("traders-and-builders/pigs-no-stack.jcz")).record.setup
    assert setup.expansions == ("traders_builders",)
    assert dict(setup.options) == {
        "core.figures.pig": 2,
        "core.solo": True,
        "tb.builder": False,
        "tb.goods": False,
        "tb.pig": True,
    }
    data = load_save("traders-and-builders/pigs-no-stack.jcz")
    data["setup"]["elements"]["pig"] = 1  # the second pig cannot be deployed
    with pytest.raises(RecordError) as err:
        import_jcz5(data)
    assert str(err.value) == "move 11: DEPLOY_MEEPLE: You have no pig left in your supply."


def test_solo_games_and_figure_counts_are_core_options() -> None:
    """What the importer selects for a 1-player save and ``pig: 2``; lobbies offer neither."""
    with pytest.raises(IllegalActionError, match="2–6 players"):
        new_game(GameSetup(players=1), seed=0)
    solo = new_game(GameSetup(players=1, options=((SOLO, True),)), seed=0)
    assert len(solo.players) == 1
    pigs = GameSetup(expansions=("traders_builders",), options=((FIGURE_COUNT + "pig", 3),))
    supply = new_game(pigs, seed=0).players[1].supply
    assert supply["pig"] == 3 and supply["builder"] == 1 and supply["follower"] == 7
    # a count for a kind the match does not have adds nothing
    base = new_game(GameSetup(options=((FIGURE_COUNT + "pig", 3),)), seed=0)
    assert "pig" not in base.players[0].supply


def test_pig_herd_and_traders_elements() -> None:
    setup = import_jcz5(load_save("traders-and-builders/wine-scoring.jcz")).record.setup
    assert dict(setup.options) == {"tb.builder": True, "tb.goods": True, "tb.pig": True}


def test_a_set_without_its_elements_plays_without_its_rules() -> None:
    """I&C tiles but no inn/cathedral/big-follower element: the cathedral city scores 2 per
    tile like any city (JCloisterZone switches the rules by element, not by tile set)."""
    data = load_save("inns-and-cathedrals/cathedrals-scoring-2.jcz")
    for key in ("big-follower", "cathedral", "inn"):
        del data["setup"]["elements"][key]
    game = import_jcz5(data)
    assert all(v is False for k, v in game.record.setup.options if k.startswith("ic."))
    assert replay(game.record).scores[0] == 24  # 7 tiles + 5 pennants, × 2


def test_farmers_element_switches_farmers() -> None:
    data = load_save("basic/field-scoring.jcz")
    del data["setup"]["elements"]["farmers"]
    with pytest.raises(RecordError, match=r"^move 2: DEPLOY_MEEPLE: .*[Ff]armers"):
        import_jcz5(data)


def test_tiles_must_come_from_the_saves_sets() -> None:
    data = load_save("traders-and-builders/pig-scoring.jcz")  # pig element, base tiles only
    data["gameAnnotations"]["drawOrder"][0] = "TB/CR"
    with pytest.raises(RecordError, match="draw order entry 1: tile 'TB/CR' is not in the save"):
        import_jcz5(data)


# ---------------------------------------------------------------------------- endings
def test_save_stopping_mid_game_reports_the_scores_so_far() -> None:
    data = load_save("basic/field-scoring.jcz")
    data["replay"] = data["replay"][:6]  # two of the three turns
    result = replay_save(data)
    assert not result.over and result.scores == (0, 0)
    data = load_save("basic/monastery-scoring.jcz")
    data["replay"] = data["replay"][:-1]  # the last COMMIT is missing: the turn is played
    assert replay_save(data).over


def test_no_draw_order_forces_the_placed_tiles() -> None:
    """Without gameAnnotations JCloisterZone drew at random; the save says which tiles came."""
    data = load_save("basic/field-scoring.jcz")
    del data["gameAnnotations"]
    game = import_jcz5(data)
    assert game.ending == "open"
    assert game.record.setup.draw_order == ("BA/C", "BA/CFC.2", "BA/C")
    result = replay(game.record)
    assert not result.over and result.scores == (0, 0)


def test_short_draw_order_then_random_tiles() -> None:
    data = load_save("basic/field-scoring.jcz")
    data["gameAnnotations"]["drawOrder"] = ["BA/C"]
    game = import_jcz5(data)
    assert game.record.setup.draw_order == ("BA/C", "BA/CFC.2", "BA/C")
    assert replay(game.record).scores == (9, 0)


def test_moves_after_end_turn_are_refused() -> None:
    data = load_save("basic/field-scoring.jcz")
    data["gameAnnotations"]["endTurn"] = 2
    with pytest.raises(RecordError, match=r"^move 7: PLACE_TILE after the game is over$"):
        import_jcz5(data)


# ---------------------------------------------------------------------------- the builder
def _builder_save() -> dict[str, Any]:
    """Alice's builder on her road; her 5th-turn tile extends it, so JCloisterZone gives her a
    second tile at once (Alice places two tiles in a row). Alice ends with the open 6-tile road."""
    data = load_save("traders-and-builders/wine-scoring.jcz")
    data["players"] = [{"name": "Alice", "slot": 0}, {"name": "Bob", "slot": 1}]

    def turn(player: int, tile: str, pos: list[int], rot: str, meeple: str | None) -> list[Any]:
        msgs: list[dict[str, Any]] = [
            {
                "type": "PLACE_TILE",
                "payload": {"tileId": tile, "rotation": rot, "position": pos},
                "player": player,
            }
        ]
        if meeple:
            pointer = {"position": pos, "feature": "Road", "location": "WE"}
            msgs.append(
                {
                    "type": "DEPLOY_MEEPLE",
                    "payload": {"pointer": pointer, "meepleId": meeple},
                    "player": player,
                }
            )
        else:
            msgs.append({"type": "PASS", "payload": {}, "player": player})
        msgs.append({"type": "COMMIT", "payload": {"random": 0.0}, "player": player})
        return msgs

    data["replay"] = [
        *turn(0, "BA/RFr", [1, 0], "R0", "0.small.1"),
        *turn(1, "BA/C", [0, -1], "R180", None),
        *turn(0, "BA/RFr", [2, 0], "R0", "0.builder.1"),
        *turn(1, "BA/RFr", [-1, 0], "R0", None),
        *turn(0, "BA/RFr", [3, 0], "R0", None),
        *turn(0, "BA/C", [0, 1], "R180", None),
        *turn(1, "BA/RFr", [4, 0], "R0", None),
    ]
    order = ["BA/RFr", "BA/C", "BA/RFr", "BA/RFr", "BA/RFr", "BA/C", "BA/RFr"]
    data["gameAnnotations"] = {"drawOrder": order, "endTurn": 7}
    return data


def test_builder_second_tile_is_always_taken() -> None:
    game = import_jcz5(_builder_save())
    notations = [a.notation for a in game.record.actions]
    assert notations[8:12] == ["place 3,0 r0", "pass", "tb.bonus take", "place 0,1 r180"]
    assert [int(a.seat) for a in game.record.actions[8:14]] == [0, 0, 0, 0, 0, 1]
    result = replay(game.record)
    assert result.over and result.scores == (6, 0)


def test_messages_marked_with_the_wrong_player_are_refused() -> None:
    data = _builder_save()
    data["replay"][15]["player"] = 1  # the bonus tile is Alice's, not Bob's
    with pytest.raises(RecordError, match=r"^move 16: PLACE_TILE is marked as player 2's"):
        import_jcz5(data)


# ---------------------------------------------------------------------------- UNDO
def test_undo_removes_the_latest_message() -> None:
    data = load_save("basic/field-scoring.jcz")
    wrong = copy.deepcopy(data["replay"][1])  # a deploy, undone and made again
    wrong["payload"]["pointer"]["location"] = "SL.SR"
    data["replay"][1:1] = [wrong, {"type": "UNDO", "payload": {}}]
    assert replay_save(data).scores == (9, 0)


@pytest.mark.parametrize("at", [0, 3])  # the start; right after a COMMIT (it had a random)
def test_undo_with_nothing_to_undo_is_refused(at: int) -> None:
    data = load_save("basic/field-scoring.jcz")
    data["replay"].insert(at, {"type": "UNDO", "payload": {}})
    with pytest.raises(RecordError, match=rf"^move {at + 1}: UNDO with nothing"):
        import_jcz5(data)


# ---------------------------------------------------------------------------- Abbey & Mayor
def test_abbey_declined_is_pass_then_commit_before_the_tile() -> None:
    """README §3.11 step 1: a PASS (and its COMMIT) answers the abbey question; the player then
    draws. Here Alice declines her abbey where abbey-merge plays it: the save ends with her
    tile to place and both abbeys still held."""
    data = load_save("abbey-and-mayor/abbey-merge.jcz")
    assert data["replay"][-3]["payload"]["tileId"] == "AM/A"
    data["replay"][-3:] = [
        {"type": "PASS", "payload": {}, "player": 0},
        {"type": "COMMIT", "payload": {"random": 0.0}, "player": 0},
    ]
    state = replay(import_jcz5(data).record).state
    assert state.step == "place" and state.current == 0
    assert state.ext["abbey_mayor"].abbeys == (1, 1)
    assert state.scores == (0, 0)


def test_wagon_move_rule_and_abbey_elements_become_options() -> None:
    setup = import_jcz5(load_save("abbey-and-mayor/multiple-wagons.jcz")).record.setup
    options = dict(setup.options)
    assert options["am.wagon_move"] == "road"  # "C1"
    assert options[FIGURE_COUNT + "wagon"] == 2
    assert (options["am.wagon"], options["am.abbey"], options["am.barn"]) == (True, False, False)
    merge = dict(import_jcz5(load_save("abbey-and-mayor/abbey-merge.jcz")).record.setup.options)
    assert merge["am.wagon_move"] == "near"  # no wagon-move rule: JCloisterZone's C2
    data = load_save("abbey-and-mayor/barn-scoring.jcz")
    data["setup"]["rules"] = {"barn-placement": "occupied"}
    with pytest.raises(RecordError, match="barn-placement rule 'occupied'"):
        import_jcz5(data)
    data["setup"]["rules"] = {"wagon-move": "C3"}
    with pytest.raises(RecordError, match="unknown wagon-move rule value 'C3'"):
        import_jcz5(data)


def test_abbey_is_not_taken_for_a_drawn_tile_without_a_draw_order() -> None:
    """Without a forced order the save's own tiles become the draw order; the abbey is no drawn
    tile, so it is left out of it (it comes from the player's supply)."""
    data = load_save("abbey-and-mayor/abbey-merge.jcz")
    del data["gameAnnotations"]
    game = import_jcz5(data)
    assert "AM/A" not in game.record.setup.draw_order
    assert replay(game.record).scores == (2, 10)
