"""The JCloisterZone importer against JCloisterZone's own saved games and their asserted scores.

Fixtures: tests/fixtures/jcz (copies of shared/jcz; see its README for provenance and hand
walk-throughs of every expected score).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.carcassonne.jcz import import_jcz, loads_jcz
from engine.carcassonne.record import dumps, loads, replay
from engine.core.errors import RecordError
from tests.engine.corrupt import corrupted, json_paths

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "jcz"
RANDOM_EXPECTED: dict[str, Any] = json.loads((FIXTURES / "random" / "expected.json").read_text())

#: file -> (scores JCloisterZone asserts, game over at the end of the save)
BASE_FIXTURES: dict[str, tuple[tuple[int, ...], bool]] = {
    "basic/scoring.jcz": ((14, 11), True),
    "basic/scoringMultiTiles.jcz": ((28, 13), False),  # no #END: scores so far
    "basic/scoringFarms.jcz": ((9, 15), True),
    "random/base-2p-02.jcz": (tuple(RANDOM_EXPECTED["base-2p-02.jcz"]["scores"]), True),
    "random/base-4p-02.jcz": (tuple(RANDOM_EXPECTED["base-4p-02.jcz"]["scores"]), True),
}

#: Inns & Cathedrals and Traders & Builders saves: (scores JCloisterZone asserts, game over).
EXPANSION_FIXTURES: dict[str, tuple[tuple[int, ...], bool]] = {
    "inns_and_cathedrals/innsScoring.jcz": ((8, 0), True),
    "inns_and_cathedrals/cathedralsScoring.jcz": ((15, 0), True),
    "traders_and_builders/tradeGoodsScoring.jcz": ((16, 20), True),
    "random/ic-3p-02.jcz": (tuple(RANDOM_EXPECTED["ic-3p-02.jcz"]["scores"]), True),
    "random/tb-3p-02.jcz": (tuple(RANDOM_EXPECTED["tb-3p-02.jcz"]["scores"]), True),
    "random/ictb-2p-02.jcz": (tuple(RANDOM_EXPECTED["ictb-2p-02.jcz"]["scores"]), True),
    "random/am-3p-02.jcz": (tuple(RANDOM_EXPECTED["am-3p-02.jcz"]["scores"]), True),
    # Bridges, Castles & Bazaars with open auctions as JCloisterZone plays them
    "random/bcb-3p-02.jcz": (tuple(RANDOM_EXPECTED["bcb-3p-02.jcz"]["scores"]), True),
    # Flying Machines: three flights rolled from the save's initialSeed, none could land
    "random/flier-3p-02.jcz": (tuple(RANDOM_EXPECTED["flier-3p-02.jcz"]["scores"]), True),
    # Gold Mines: six second bars chosen (PLACE_TOKEN GOLD), the rest placed unasked
    "random/gold-3p-02.jcz": (tuple(RANDOM_EXPECTED["gold-3p-02.jcz"]["scores"]), True),
    # Ferries: eight ferries placed and two moved (PLACE_TOKEN FERRY), re-routing the roads
    "random/ferries-3p-02.jcz": (tuple(RANDOM_EXPECTED["ferries-3p-02.jcz"]["scores"]), True),
    # Crop Circles: both sets, A and B rounds answered seat by seat
    "random/cc-3p-02.jcz": (tuple(RANDOM_EXPECTED["cc-3p-02.jcz"]["scores"]), True),
    # Mage & Witch: eight magic tiles, each a MOVE_NEUTRAL_FIGURE of the mage or the witch
    "random/mw-3p-02.jcz": (tuple(RANDOM_EXPECTED["mw-3p-02.jcz"]["scores"]), True),
}


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def _category_totals(result_awards: Any, seat: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for a in result_awards:
        if a.seat == seat:
            out[a.item.category] = out.get(a.item.category, 0) + a.points
    return out


@pytest.mark.parametrize("name", sorted(BASE_FIXTURES))
def test_base_fixture_reaches_jcloisterzone_scores(name: str) -> None:
    scores, over = BASE_FIXTURES[name]
    game = loads_jcz((FIXTURES / name).read_bytes())
    result = replay(game.record)
    assert result.scores == scores
    assert result.over is over
    assert game.names[:2] == ("Alice", "Bob")
    assert game.record.player_names() == game.names
    # the imported record is an ordinary record: it survives JSON and replays the same
    assert replay(loads(dumps(game.record))).scores == scores


def test_scoring_fixture_category_by_category() -> None:
    """JCloisterZone's older assertions: Alice road 6, cloister 5, farm 3; Bob city 11."""
    result = replay(import_jcz(_load("basic/scoring.jcz")).record)
    assert _category_totals(result.awards, 0) == {"road": 6, "cloister": 5, "farm": 3}
    assert _category_totals(result.awards, 1) == {"city": 11}


def test_multi_tiles_fixture_scores_each_feature_once() -> None:
    """Two followers on one loop road score it once; a tile with two parts in a city counts once."""
    result = replay(import_jcz(_load("basic/scoringMultiTiles.jcz")).record)
    road = [a for a in result.awards if a.item.category == "road"]
    assert [(a.seat, a.points) for a in road] == [(1, 4)]
    city = [a for a in result.awards if a.item.category == "city"]
    assert [(a.seat, a.points, a.item.tiles, a.item.pennants) for a in city] == [(0, 28, 9, 5)]
    assert _category_totals(result.awards, 1) == {"road": 4, "cloister": 9}


def test_farms_fixture_pays_a_tie_to_both() -> None:
    result = replay(import_jcz(_load("basic/scoringFarms.jcz")).record)
    farms = sorted((a.item.points, a.seat) for a in result.awards)
    assert farms == [(6, 1), (9, 0), (9, 1)]


def test_import_uses_our_notation_and_board_frame_locations() -> None:
    record = import_jcz(_load("basic/scoring.jcz")).record
    # turn 1: BA.Rr at R90, JCloisterZone location "NW" (board frame); turn 2: "SE"
    assert [a.notation for a in record.actions[:4]] == [
        "place 1,0 r90",
        "deploy road:NW",
        "place 0,-1 r180",
        "deploy city:ES",
    ]
    assert [a.seat for a in record.actions[:4]] == [0, 0, 1, 1]
    setup = record.setup
    assert setup.tiny_city == 4 and setup.farmers and setup.only_forced
    assert setup.draw_order[:2] == ("BA/Rr", "BA/CcRr+")
    assert record.metadata["source"] == "jcloisterzone"


def test_unsupported_capability_is_refused_by_name() -> None:
    data = _load("inns_and_cathedrals/innsScoring.jcz")
    data["setup"]["capabilities"].append("PigHerd")
    with pytest.raises(RecordError) as err:
        import_jcz(data)
    assert str(err.value) == (
        "JCloisterZone capability 'PigHerd' (Traders & Builders) is not supported yet"
    )


# ---------------------------------------------------------------------------- pile endings
def test_save_without_tile_pack_uses_the_tiles_it_placed() -> None:
    """No forced order: the tiles came from JCloisterZone's random pile; the save still imports,
    and the scores are those so far (Bob's completed city 10, Alice's completed road 2)."""
    data = _load("basic/scoring.jcz")
    del data["annotations"]
    game = import_jcz(data)
    assert game.ending == "open"
    result = replay(game.record)
    assert not result.over
    assert result.scores == (2, 10)


def test_short_forced_order_then_random_tiles() -> None:
    data = _load("basic/scoring.jcz")
    data["annotations"]["tilePack"]["params"]["drawOrder"] = ["BA.Rr", "BA.CcRr+", "BA.CcRr"]
    game = import_jcz(data)
    assert game.record.setup.draw_order[:3] == ("BA/Rr", "BA/CcRr+", "BA/CcRr")
    assert len(game.record.setup.draw_order) == 7
    assert replay(game.record).scores == (2, 10)


def test_draw_limit_ends_the_game_like_end_sentinel() -> None:
    data = _load("basic/scoring.jcz")
    params = data["annotations"]["tilePack"]["params"]
    params["drawOrder"] = params["drawOrder"][:-1]  # no "#END"
    params["drawLimit"] = 7
    game = import_jcz(data)
    assert game.ending == "limit" and game.record.setup.draw_limit == 7
    result = replay(game.record)
    assert result.over and result.scores == (14, 11)


# ---------------------------------------------------------------------------- rules
def test_tiny_city_and_farmers_rules() -> None:
    data = _load("basic/scoring.jcz")
    data["setup"]["rules"] = {"tiny-city-scoring": "2"}
    assert import_jcz(data).record.setup.tiny_city == 2
    data["setup"]["rules"] = {"tiny-city-scoring": "9"}
    with pytest.raises(RecordError, match="tiny-city-scoring"):
        import_jcz(data)
    farms = _load("basic/scoringFarms.jcz")
    farms["setup"]["elements"] = {"farmers": False}
    with pytest.raises(RecordError, match=r"^move 2: DEPLOY_MEEPLE: Farmers are not used"):
        import_jcz(farms)


def test_tiny_city_two_changes_the_scores() -> None:
    """scoringFarms only scores farms; scoring.jcz's 4-tile city is unaffected. A save whose only
    city is 2 tiles: the start city closed by BA.C (move 1)."""
    data = _load("basic/scoringFarms.jcz")
    data["replay"] = [
        {
            "type": "PLACE_TILE",
            "payload": {"tileId": "BA.C", "rotation": "R180", "position": [0, -1]},
        },
        {
            "type": "DEPLOY_MEEPLE",
            "payload": {"pointer": {"position": [0, -1], "location": "S"}, "meepleId": "0.small.1"},
        },
        {"type": "COMMIT", "payload": {"salt": 0}},
    ]
    data["annotations"]["tilePack"]["params"]["drawOrder"] = ["BA.C", "#END"]
    assert replay(import_jcz(data).record).scores == (4, 0)
    data["setup"]["rules"] = {"tiny-city-scoring": "2"}
    assert replay(import_jcz(data).record).scores == (2, 0)


# ---------------------------------------------------------------------------- broken saves
def _break(name: str, index: int, **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(_load(name))
    data["replay"][index]["payload"].update(changes)
    return data


def test_bad_json() -> None:
    with pytest.raises(RecordError, match="not valid JSON") as err:
        loads_jcz('{"slots": [')
    assert err.value.move is None


def test_wrong_tile_id_names_the_message() -> None:
    data = _break("basic/scoring.jcz", 3, tileId="BA.L")  # message 4 = PLACE_TILE of turn 2
    with pytest.raises(RecordError) as err:
        import_jcz(data)
    assert err.value.move == 4
    assert str(err.value) == (
        "move 4: PLACE_TILE places BA.L, but the tile drawn in turn 2 is BA.CcRr+"
    )


def test_illegal_placement_names_the_message() -> None:
    # turn 2's tile (city N+W, road E+S) at (0,-1) R0 puts its road on the start tile's city
    data = _break("basic/scoring.jcz", 3, rotation="R0")
    with pytest.raises(RecordError, match=r"^move 4: PLACE_TILE: At 0° the south edge") as err:
        import_jcz(data)
    assert err.value.move == 4
    far = _break("basic/scoring.jcz", 6, position=[9, 9])
    with pytest.raises(RecordError, match=r"^move 7: PLACE_TILE: 9,9 does not touch any tile"):
        import_jcz(far)


@pytest.mark.parametrize(
    ("index", "pointer", "meeple", "reason"),
    [
        (1, {"position": [0, 0], "location": "NW"}, "0.small.1", "the tile just placed is at 1,0"),
        (1, {"position": [1, 0], "location": "NE"}, "0.small.1", "'NE' is not a spot"),
        (1, {"position": [1, 0], "location": "NW"}, "1.small.1", "belongs to player 2"),
        (1, {"position": [1, 0], "location": "NW"}, "0.phantom.1", "unknown meeple"),
    ],
)
def test_bad_deploys_name_the_message(
    index: int, pointer: dict[str, Any], meeple: str, reason: str
) -> None:
    data = _break("basic/scoring.jcz", index, pointer=pointer, meepleId=meeple)
    with pytest.raises(RecordError, match=rf"^move {index + 1}: DEPLOY_MEEPLE") as err:
        import_jcz(data)
    assert reason in str(err.value)


def test_occupied_feature_is_refused() -> None:
    # turn 3 (Alice, message 8): her follower on the city part that joins Bob's city
    data = _break("basic/scoring.jcz", 7, pointer={"position": [1, -1], "location": "NW"})
    with pytest.raises(RecordError, match=r"^move 8: DEPLOY_MEEPLE: That city is already occupied"):
        import_jcz(data)


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (
            lambda d: d["setup"].update(capabilities=["StandardGame", "Dragon"]),
            "unknown JCloisterZone capability 'Dragon'",
        ),
        (
            lambda d: d["setup"].update(expansions={"BASIC": 1, "TOWER": 1}),
            "unknown JCloisterZone expansion",
        ),
        (lambda d: d["setup"].update(expansions={"BASIC": 2}), "exactly one base game"),
        (lambda d: d.update(slots=d["slots"][:1]), "needs 2–6"),
        (lambda d: d.pop("replay"), 'no "replay" list'),
        (
            lambda d: d.update(players=[], slots=None) or d.pop("slots"),
            "5.x saves are not supported",
        ),
        (
            lambda d: d["annotations"]["tilePack"]["params"]["drawOrder"].insert(0, "XX.Y"),
            "draw order entry 1: unknown tile 'XX.Y'",
        ),
        (
            lambda d: d["replay"].insert(0, {"type": "MOVE_NEUTRAL_FIGURE", "payload": {}}),
            "move 1: replay message MOVE_NEUTRAL_FIGURE is not supported",
        ),
        (
            lambda d: d["replay"].insert(0, {"type": "PASS", "payload": {}}),
            "move 1: PASS instead of placing",
        ),
        (
            lambda d: d["replay"].insert(3, {"type": "PLACE_TILE", "payload": {}}),
            'move 4: PLACE_TILE has no "tileId"',
        ),
    ],
)
def test_unsupported_or_malformed_saves(mutate: Any, reason: str) -> None:
    data = _load("basic/scoring.jcz")
    mutate(data)
    with pytest.raises(RecordError) as err:
        import_jcz(data)
    assert reason in str(err.value)


def test_commit_right_after_placement_deploys_nothing() -> None:
    data = _load("basic/scoring.jcz")
    assert data["replay"][10]["type"] == "PASS"
    del data["replay"][10]  # turn 4's PASS: the COMMIT alone ends the turn
    assert replay(import_jcz(data).record).scores == (14, 11)


# ---------------------------------------------------------------------------- expansions
@pytest.mark.parametrize("name", sorted(EXPANSION_FIXTURES))
def test_expansion_fixture_reaches_jcloisterzone_scores(name: str) -> None:
    scores, over = EXPANSION_FIXTURES[name]
    result = replay(loads_jcz((FIXTURES / name).read_text()).record)
    assert result.scores == scores
    assert result.over == over


def test_trade_goods_tokens_match_jcloisterzone() -> None:
    """JCZ also asserts the token counts: Alice 1 cloth; Bob 1 cloth and 2 wine."""
    result = replay(
        loads_jcz((FIXTURES / "traders_and_builders/tradeGoodsScoring.jcz").read_text()).record
    )
    goods = result.state.ext["traders_builders"].goods  # (wine, grain, cloth) per seat
    assert goods == ((0, 0, 1), (2, 0, 1))


def test_capabilities_not_listed_are_switched_off() -> None:
    """The inns file has Inn and Cathedral but no BigFollower: no large follower in supply."""
    setup = loads_jcz((FIXTURES / "inns_and_cathedrals/innsScoring.jcz").read_text()).record.setup
    assert setup.expansions == ("inns_cathedrals",)
    assert dict(setup.options) == {
        "ic.inns": True,
        "ic.cathedrals": True,
        "ic.large_follower": False,
    }
    goods = loads_jcz((FIXTURES / "traders_and_builders/tradeGoodsScoring.jcz").read_text())
    assert dict(goods.record.setup.options) == {
        "tb.goods": True,
        "tb.builder": False,
        "tb.pig": False,
    }


# ---------------------------------------------------------------------------- robustness
_JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.text(max_size=8),
    st.sampled_from(["BA.C", "NW", "R90", "0.small.1", "#END", "COMMIT", "PASS"]),
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
_SAVE = _load("basic/scoring.jcz")


@settings(max_examples=300, deadline=None)
@given(path=st.sampled_from(json_paths(_SAVE)), value=_JSON_VALUES)
def test_any_corrupted_field_gives_a_record_error_or_an_import(
    path: tuple[Any, ...], value: Any
) -> None:
    data = corrupted(_SAVE, path, value)
    try:
        replay(import_jcz(data).record)
    except RecordError as e:
        assert str(e)


# ---------------------------------------------------------------------------- Abbey & Mayor
def _as_4x(name: str) -> dict[str, Any]:
    """A JCloisterZone 5.x Abbey & Mayor fixture rewritten in the 4.x format (same game)."""
    data = json.loads((FIXTURES.parent / "jcz5" / name).read_text(encoding="utf-8"))
    caps = {"barn": "Barn", "wagon": "Wagon", "mayor": "Mayor", "abbey": "Abbey", "pig": "Pig"}
    order = [t.replace("/", ".", 1) for t in data["gameAnnotations"]["drawOrder"]]
    replay_msgs = []
    for m in data["replay"]:
        payload = dict(m.get("payload", {}))
        if "tileId" in payload:
            payload["tileId"] = payload["tileId"].replace("/", ".", 1)
        if "pointer" in payload:
            payload["pointer"] = {k: v for k, v in payload["pointer"].items() if k != "feature"}
        if m["type"] == "COMMIT":
            payload = {"salt": 0}
        replay_msgs.append({"type": m["type"], "payload": payload})
    return {
        "gameId": "1",
        "appVersion": "4.4.0",
        "initialSeed": 1,
        "slots": [
            {"number": i, "serial": i + 1, "nickname": p["name"]}
            for i, p in enumerate(data["players"])
        ],
        "setup": {
            "expansions": {"BASIC": 1, "ABBEY_AND_MAYOR": 1},
            "rules": {},
            "capabilities": ["StandardGame"]
            + [c for k, c in caps.items() if k in data["setup"]["elements"]],
        },
        "annotations": {"tilePack": {"params": {"drawOrder": [*order, "#END"]}}},
        "replay": replay_msgs,
    }


def test_abbey_mayor_am_3p_02_places_and_declines_abbeys_and_moves_a_wagon() -> None:
    """The 4.x random sample: abbeys declined (PASS, COMMIT before the tile) and played
    (PLACE_TILE AM.A), a wagon moved onto an abbey after its road scored (no COMMIT), mayors."""
    game = loads_jcz((FIXTURES / "random/am-3p-02.jcz").read_text())
    notation = [a.notation for a in game.record.actions]
    assert sum(n.startswith("am.abbey ") for n in notation) == 3
    assert "am.wagon -1,0@cloister" in notation
    assert any(n.startswith("deploy mayor ") for n in notation)
    assert dict(game.record.setup.options)["am.abbey"] is True
    assert replay(game.record).scores == (20, 19, 28)


def test_abbey_mayor_barns_in_the_4x_format() -> None:
    """A barn's pointer names the field of the cell south-east of its corner, as in 5.x: the
    barn-connected fixture rewritten as a 4.x save reaches the same scores (8, 8)."""
    data = _as_4x("abbey-and-mayor/barn-connected-scoring.jcz")
    game = import_jcz(data)
    assert "deploy barn corner:SE" in [a.notation for a in game.record.actions]
    assert replay(game.record).scores == (8, 8)
    data["setup"]["rules"] = {"MULTI_BARN_ALLOWED": True}
    with pytest.raises(RecordError, match="MULTI_BARN_ALLOWED"):
        import_jcz(data)
    # an abbey where no hole is open is refused in one line
    data = _as_4x("abbey-and-mayor/barn-connected-scoring.jcz")
    data["replay"].insert(
        0,
        {"type": "PLACE_TILE", "payload": {"tileId": "AM.A", "rotation": "R0", "position": [5, 5]}},
    )
    with pytest.raises(RecordError, match=r"^move 1: PLACE_TILE AM.A: no abbey may be played now"):
        import_jcz(data)


def test_abbeys_stay_out_of_the_draw_order_of_a_save_without_one() -> None:
    data = _load("random/am-3p-02.jcz")
    del data["annotations"]
    game = import_jcz(data)
    assert not [t for t in game.record.setup.draw_order if t == "AM/A"]
    assert len(game.record.setup.draw_order) == 83  # the 86 PLACE_TILE less the 3 abbeys
