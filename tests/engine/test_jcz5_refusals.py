"""Every way a JCloisterZone 5.x save can be refused, each in one line: what we do not play,
malformed saves (truncated, wrong types, unknown tiles, illegal moves), the formats told apart,
and any corrupted field (hypothesis)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.carcassonne.jcz5 import import_jcz5, import_save, jcz_version, loads_jcz5
from engine.carcassonne.record import replay
from engine.core.errors import RecordError
from tests.engine.corrupt import corrupted, json_paths
from tests.engine.jcz5saves import FIXTURES, load_save, replay_save


# ---------------------------------------------------------------------------- refused parts
def _refusal(mutate: Any) -> str:
    """The import error of the field-scoring save once ``mutate`` has changed it."""
    data = load_save("basic/field-scoring.jcz")
    mutate(data)
    with pytest.raises(RecordError) as err:
        import_jcz5(data)
    return str(err.value)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["setup"]["elements"].update(fairy=True),
            "JCloisterZone element 'fairy' (Princess & Dragon: the fairy) is not supported yet",
        ),
        (
            lambda d: d["setup"]["sets"].update({"basic:2": 1}),
            "JCloisterZone tile set 'basic:2' (base game, 2nd edition (with gardens)) is not "
            "supported yet",
        ),
        (
            lambda d: d["setup"]["elements"].update(garden=True),
            "JCloisterZone element 'garden' (gardens (2nd edition)) is not supported yet",
        ),
        (
            lambda d: d["setup"]["sets"].update({"hills-and-sheep": 1}),
            "JCloisterZone tile set 'hills-and-sheep' is not supported",
        ),
        (
            lambda d: d["setup"]["elements"].update(lasers=1),
            "unknown JCloisterZone element 'lasers'",
        ),
        (
            lambda d: d["setup"]["rules"].update({"moon-phase": "full"}),
            "unknown JCloisterZone rule 'moon-phase'",
        ),
        (
            lambda d: d["setup"]["sets"].update({"basic:1": 2}),
            "2 copies of the tile set 'basic:1' are not supported",
        ),
        (
            lambda d: d["setup"]["sets"].pop("basic:1"),
            'only saves with the 1st-edition base game ("basic:1") are supported',
        ),
        (
            lambda d: d["setup"]["start"][0].update(rotation=90),
            "only the standard start (BA/RCr at 0,0, not rotated) is supported",
        ),
        (
            lambda d: d.update(players=[{"name": f"P{i}", "slot": i} for i in range(7)]),
            "the save has 7 players; we play 1–6",
        ),
        (
            lambda d: d["setup"]["rules"].update({"tiny-city-scoring": "3"}),
            "unknown tiny-city-scoring rule value '3'",
        ),
    ],
)
def test_what_we_do_not_play_is_refused_in_one_line(mutate: Any, message: str) -> None:
    assert _refusal(mutate) == message


def test_rules_of_modules_not_in_play_change_nothing() -> None:
    data = load_save("basic/field-scoring.jcz")
    data["setup"]["rules"] = {"wagon-move": "C1", "dragon-move": "before-scoring"}
    assert replay_save(data).scores == (9, 0)


# ---------------------------------------------------------------------------- malformed saves
def test_truncated_file() -> None:
    text = (FIXTURES / "basic/field-scoring.jcz").read_text(encoding="utf-8")
    with pytest.raises(RecordError, match="^not valid JSON: ") as err:
        loads_jcz5(text[: len(text) // 2])
    assert err.value.move is None


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(players="Alice"), 'the save has no "players" list'),
        (lambda d: d["players"][0].update(name=7), 'player 1\'s "name" must be a text'),
        (lambda d: d["setup"].update(sets=["basic:1"]), '"setup.sets" must be an object'),
        (
            lambda d: d["setup"]["elements"].update({"small-follower": "seven"}),
            '"setup.elements.small-follower" must be a number of figures',
        ),
        (lambda d: d["setup"].update(rules=[]), '"setup.rules" must be an object'),
        (lambda d: d["setup"].update(start={}), '"setup.start" must be a list'),
        (
            lambda d: d["gameAnnotations"].update(endTurn="3"),
            '"gameAnnotations.endTurn" must be a whole number',
        ),
        (
            lambda d: d["gameAnnotations"].update(drawOrder="BA/C"),
            '"gameAnnotations.drawOrder" must be a list',
        ),
        (lambda d: d.update(initialRandom="0"), '"initialRandom" must be a number'),
        (lambda d: d.update(replay={}), 'the save has no "replay" list'),
        (lambda d: d["replay"].insert(0, []), "move 1: a replay message must be an object"),
        (lambda d: d["replay"][0].update(payload=[]), 'move 1: PLACE_TILE: "payload" must be'),
        (lambda d: d["replay"][0].update(player="0"), 'move 1: PLACE_TILE: "player" must be'),
        (
            lambda d: d["replay"][0]["payload"].update(position=[0, "-1"]),
            "move 1: PLACE_TILE position must be [x, y]",
        ),
        (
            lambda d: d["replay"][0]["payload"].update(rotation=180),
            "move 1: PLACE_TILE: rotation must be R0, R90, R180 or R270, not 180",
        ),
        (
            lambda d: d["replay"][1]["payload"].update(pointer="NL"),
            'move 2: DEPLOY_MEEPLE has no "pointer"',
        ),
        (
            lambda d: d["replay"][1]["payload"].update(meepleId=3),
            "move 2: DEPLOY_MEEPLE: unknown meeple 3",
        ),
    ],
)
def test_wrong_types_give_one_clear_error(mutate: Any, message: str) -> None:
    assert _refusal(mutate).startswith(message)


@pytest.mark.parametrize(
    ("index", "changes", "message"),
    [
        (0, {"tileId": "XX/Nope"}, "move 1: PLACE_TILE: unknown tile 'XX/Nope'"),
        (0, {"tileId": "BA.C"}, "move 1: PLACE_TILE: unknown tile 'BA.C'"),
        (0, {"tileId": "BA/L"}, "move 1: PLACE_TILE places BA/L, but the tile drawn in turn 1 is"),
    ],
)
def test_unknown_or_unexpected_tiles(index: int, changes: dict[str, Any], message: str) -> None:
    data = load_save("basic/field-scoring.jcz")
    data["replay"][index]["payload"].update(changes)
    with pytest.raises(RecordError) as err:
        import_jcz5(data)
    assert str(err.value).startswith(message)
    data = load_save("basic/field-scoring.jcz")
    data["gameAnnotations"]["drawOrder"][1] = "XX/Nope"
    with pytest.raises(RecordError, match="^draw order entry 2: unknown tile 'XX/Nope'$"):
        import_jcz5(data)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (  # BA/C at (0,-1) turned so that its city faces away from the start's city
            lambda d: d["replay"][0]["payload"].update(rotation="R0"),
            "move 1: PLACE_TILE: At 0° the south edge",
        ),
        (
            lambda d: d["replay"][0]["payload"].update(position=[5, 5]),
            "move 1: PLACE_TILE: 5,5 does not touch any tile",
        ),
        (
            lambda d: d["replay"][1]["payload"]["pointer"].update(position=[0, 0]),
            "move 2: DEPLOY_MEEPLE on 0,0, but the tile just placed is at 0,-1",
        ),
        (
            lambda d: d["replay"][1]["payload"]["pointer"].update(feature="Road"),
            "move 2: DEPLOY_MEEPLE: the tile has no Road:",
        ),
        (
            lambda d: d["replay"][1]["payload"].update(meepleId="1.small.1"),
            "move 2: DEPLOY_MEEPLE: meeple '1.small.1' belongs to player 2",
        ),
        (
            lambda d: d["replay"][1]["payload"]["pointer"].update(feature="FlyingMachine"),
            "move 2: DEPLOY_MEEPLE on the flier (Flying Machines) is not supported",
        ),
        (lambda d: d["replay"].insert(2, d["replay"][1]), "move 3: DEPLOY_MEEPLE before the turn"),
        (lambda d: d["replay"].pop(2), "move 3: PLACE_TILE before the turn was committed"),
        (lambda d: d["replay"].insert(0, d["replay"][2]), "move 1: COMMIT with no placed tile"),
        (lambda d: d["replay"].insert(0, d["replay"][4]), "move 1: PASS when a tile must be"),
        (
            lambda d: d["replay"].insert(3, {"type": "PLACE_TOKEN", "payload": {}}),
            "move 4: replay message PLACE_TOKEN (tokens (gold, castles, bridges …)) is not",
        ),
        (
            lambda d: d["replay"].insert(3, {"type": "JUMP", "payload": {}}),
            "move 4: unknown replay message type 'JUMP'",
        ),
    ],
)
def test_illegal_moves_name_the_message(mutate: Any, message: str) -> None:
    assert _refusal(mutate).startswith(message)


def test_occupied_city_is_refused() -> None:
    """city-and-road-scoring, message 8: David's tile at (-1,2) joins the city of Wendy's knight
    (message 5); a knight of his there instead of the PASS is illegal."""
    data = load_save("basic/city-and-road-scoring.jcz")
    assert data["replay"][7]["type"] == "PASS"
    pointer = {"position": [-1, 2], "feature": "City", "location": "NE"}
    data["replay"][7] = {
        "type": "DEPLOY_MEEPLE",
        "payload": {"pointer": pointer, "meepleId": "0.small.1"},
    }
    with pytest.raises(RecordError) as err:
        import_jcz5(data)
    assert str(err.value) == (
        "move 8: DEPLOY_MEEPLE: That city is already occupied (it joins a city with a figure on it)."
    )


# ---------------------------------------------------------------------------- formats
def test_formats_are_told_apart_by_content() -> None:
    five = load_save("basic/field-scoring.jcz")
    four = json.loads(
        (FIXTURES.parent / "jcz" / "basic" / "scoring.jcz").read_text(encoding="utf-8")
    )
    assert jcz_version(five) == 5 and jcz_version(four) == 4
    assert jcz_version({"format": "carcabot-record"}) is None and jcz_version([]) is None
    assert import_save(five).record.metadata["format"] == "5.x"
    assert import_save(four).record.metadata["source"] == "jcloisterzone"
    with pytest.raises(RecordError, match="not a JCloisterZone save"):
        import_save({"hello": 1})


# ---------------------------------------------------------------------------- robustness
_JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(["BA/C", "NL.NR", "R90", "0.small.1", "City", "UNDO", "COMMIT", "PASS"]),
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
_SAVE = load_save("traders-and-builders/cloth-scoring-tie.jcz")


@settings(max_examples=300, deadline=None)
@given(path=st.sampled_from(json_paths(_SAVE)), value=_JSON_VALUES)
def test_any_corrupted_field_gives_a_record_error_or_an_import(
    path: tuple[Any, ...], value: Any
) -> None:
    data = corrupted(_SAVE, path, value)
    try:
        replay(import_jcz5(data).record)
    except RecordError as e:
        assert str(e) and "\n" not in str(e)
