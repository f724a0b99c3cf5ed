"""The JCloisterZone importers know no expansion (issue 20): each brings its part
(``Expansion.jcz``, engine/carcassonne/jczparts.py), a name nobody plays is refused naming the
box of the tile file that claims it, and offers our rules never make are read as JCloisterZone
plays them — its end-of-game abbey round (RULES.md §14.1 rule 6, ``am.final_abbeys``) and castles
offered to a seat that is not the one to move (RULES.md §13.3, OQ-CAS-1) — in 4.x and 5.x saves.

The saves are JCloisterZone fixtures (tests/fixtures/jcz, tests/fixtures/jcz5), minimally
edited: ``abbey-merge`` ended one turn earlier is a game whose abbey comes in the end-of-game
round; the castle saves are ``castle-unoccupied-trigger`` with two new turns.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.carcassonne.events import DieRolled
from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.jcz import import_jcz
from engine.carcassonne.jcz5 import import_jcz5
from engine.carcassonne.jczparts import JczImport, JczSwitch, on
from engine.carcassonne.record import replay
from engine.carcassonne.registry import all_expansions, register, unregister
from engine.core.errors import RecordError
from tests.engine.jcz5saves import load_save
from tests.engine.test_jcz import _as_4x
from tests.expansions import oracle, oracle_more

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "jcz"


def _load4(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


@pytest.fixture
def registry_restored() -> Iterator[None]:
    """Tests change the registry; it is put back as it was, in its order."""
    saved = all_expansions()
    yield
    for cls in all_expansions():
        unregister(cls.id)
    for cls in saved:
        register(cls)


# ---------------------------------------------------------------------------- plug-in parts
class _Lanterns(Expansion):
    """A test expansion: its JCloisterZone part is all the importers learn of it."""

    id = "lanterns"
    name = "Lanterns"
    options = (Option("ln.lit", True, (True, False), "lanterns are lit"),)
    jcz = JczImport(
        capabilities={"Lantern": JczSwitch(on("ln.lit"))},
        expansions={"LANTERNS": JczSwitch()},
        elements={"lantern": JczSwitch(on("ln.lit"))},
    )


def test_a_registered_part_is_read_by_both_importers(registry_restored: None) -> None:
    register(_Lanterns)
    four = _load4("basic/scoring.jcz")
    four["setup"]["capabilities"].append("Lantern")
    setup = import_jcz(four).record.setup
    assert setup.expansions == ("lanterns",) and dict(setup.options) == {"ln.lit": True}
    four["setup"]["capabilities"].remove("Lantern")
    four["setup"]["expansions"]["LANTERNS"] = 1  # the box, but not the capability: off
    assert dict(import_jcz(four).record.setup.options) == {"ln.lit": False}
    five = load_save("basic/field-scoring.jcz")
    five["setup"]["elements"]["lantern"] = True
    setup = import_jcz5(five).record.setup
    assert setup.expansions == ("lanterns",) and dict(setup.options) == {"ln.lit": True}
    assert replay(import_jcz5(five).record).scores == (9, 0)
    unregister("lanterns")
    with pytest.raises(RecordError, match="^unknown JCloisterZone element 'lantern'$"):
        import_jcz5(five)


def test_an_expansion_removed_is_refused_by_its_tile_files_box(registry_restored: None) -> None:
    unregister("abbey_mayor")
    with pytest.raises(RecordError) as err:
        import_jcz(_load4("random/am-3p-02.jcz"))
    assert str(err.value) == "JCloisterZone capability 'Abbey' (Abbey & Mayor) is not built yet"
    with pytest.raises(RecordError) as err:
        import_jcz5(load_save("abbey-and-mayor/barn-scoring.jcz"))
    assert str(err.value) == (
        "JCloisterZone tile set 'abbey-and-mayor:1' (Abbey & Mayor) is not built yet"
    )


@pytest.mark.parametrize(
    ("where", "name", "message", "removed"),
    [
        ("capabilities", "MageAndWitch", "capability 'MageAndWitch' (Mage & Witch)", "mage_witch"),
        ("expansions", "MAGE_AND_WITCH", "expansion 'MAGE_AND_WITCH' (Mage & Witch)", "mage_witch"),
        (
            "capabilities",
            "CornCircle",
            "capability 'CornCircle' (Crop Circles I (2010))",
            "crop_circles",
        ),
        ("expansions", "FERRIES", "expansion 'FERRIES' (Ferries)", "ferries"),
        ("capabilities", "Ferries", "capability 'Ferries' (Ferries)", "ferries"),
    ],
)
def test_4x_names_of_a_removed_expansion_are_refused_naming_the_box(
    where: str, name: str, message: str, removed: str, registry_restored: None
) -> None:
    """Every box is built now: each is removed in turn (its tile files stay) and its 4.x names
    are refused naming the box, as a box not built yet was."""
    unregister(removed)
    data = _load4("basic/scoring.jcz")
    if where == "capabilities":
        data["setup"]["capabilities"].append(name)
    else:
        data["setup"]["expansions"][name] = 1
    with pytest.raises(RecordError) as err:
        import_jcz(data)
    assert str(err.value).endswith(f"{message} is not built yet")


def test_a_removed_expansion_with_two_tile_files_is_refused_by_each_box(
    registry_restored: None,
) -> None:
    """Crop Circles removed: each of its 4.x expansion codes names its own tile file's box."""
    unregister("crop_circles")
    for name, box in (
        ("CORN_CIRCLES", "Crop Circles I (2010)"),
        ("CORN_CIRCLES_II", "Crop Circles II (2012)"),
    ):
        data = _load4("basic/scoring.jcz")
        data["setup"]["expansions"][name] = 1
        with pytest.raises(RecordError) as err:
            import_jcz(data)
        assert str(err.value) == f"JCloisterZone expansion '{name}' ({box}) is not built yet"


def test_5x_elements_of_a_removed_expansion_are_refused_naming_the_box(
    registry_restored: None,
) -> None:
    unregister("mage_witch")
    data = load_save("basic/field-scoring.jcz")
    data["setup"]["elements"]["mage"] = True
    with pytest.raises(RecordError) as err:
        import_jcz5(data)
    assert str(err.value) == "JCloisterZone element 'mage' (Mage & Witch) is not built yet"


def test_a_null_element_of_a_part_we_refuse_is_absent_but_an_unknown_one_is_refused() -> None:
    data = load_save("basic/field-scoring.jcz")
    data["setup"]["elements"].update(fairy=None, gold=None)
    assert replay(import_jcz5(data).record).scores == (9, 0)
    data["setup"]["elements"]["lasers"] = None
    with pytest.raises(RecordError, match="^unknown JCloisterZone element 'lasers'$"):
        import_jcz5(data)


# ---------------------------------------------------------------------------- abbey round
def _abbey_round_5x() -> dict[str, Any]:
    """abbey-merge ended after its 6 drawn tiles: Alice's abbey (turn 7) now comes in
    JCloisterZone's end-of-game round, where she is asked first (Bob placed the last tile)."""
    data = load_save("abbey-and-mayor/abbey-merge.jcz")
    data["gameAnnotations"]["endTurn"] = 6
    return data


def _declined(data: dict[str, Any], *players: int) -> dict[str, Any]:
    """The save with its last turn (the round's abbey) replaced by passes of ``players``."""
    out = copy.deepcopy(data)
    out["replay"][-3:] = [{"type": "PASS", "payload": {}, "player": p} for p in players]
    return out


def test_5x_abbey_placed_in_the_end_of_game_round_replays_with_the_option() -> None:
    game = import_jcz5(_abbey_round_5x())
    assert dict(game.record.setup.options)["am.final_abbeys"] is True
    assert [a.notation for a in game.record.actions][-2:] == ["am.abbey 1,-1", "pass"]
    result = replay(game.record)
    assert result.over and result.scores == (2, 10)  # the abbey closes three cities


def test_5x_abbey_round_a_pass_then_the_next_seats_abbey() -> None:
    """Alice declines, Bob (asked next) plays his abbey into the same hole: the option is on,
    and our round asks the two in JCloisterZone's order."""
    data = _abbey_round_5x()
    placed = copy.deepcopy(data["replay"][-3:])
    for m in placed:
        m["player"] = 1
    data["replay"][-3:] = [{"type": "PASS", "payload": {}, "player": 0}, *placed]
    game = import_jcz5(data)
    assert [a.notation for a in game.record.actions][-3:] == ["pass", "am.abbey 1,-1", "pass"]
    assert [int(a.seat) for a in game.record.actions][-3:] == [0, 1, 1]
    result = replay(game.record)
    assert result.over and result.state.ext["abbey_mayor"].abbeys == (1, 0)
    extra = copy.deepcopy(data)
    extra["replay"].append({"type": "PASS", "payload": {}, "player": 0})
    with pytest.raises(RecordError, match=r"^move 23: PASS after the game is over$"):
        import_jcz5(extra)


def test_5x_abbey_round_declined_changes_nothing() -> None:
    """Alice passes, then Bob (he holds his abbey and the hole is open): neither is asked by our
    game, which ended with the pile; the passes change nothing."""
    game = import_jcz5(_declined(_abbey_round_5x(), 0, 1))
    assert "am.final_abbeys" not in dict(game.record.setup.options)
    result = replay(game.record)
    assert result.over and result.state.ext["abbey_mayor"].abbeys == (1, 1)
    without = _declined(_abbey_round_5x())  # the same save without the round's passes
    assert replay(import_jcz5(without).record).scores == result.scores


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (
            (1,),
            "move 19: PASS is marked as player 2's, but JCloisterZone's end-of-game abbey "
            "round asks player 1",
        ),
        ((0, 1, 0), "move 21: PASS after the game is over"),
    ],
)
def test_5x_abbey_round_passes_must_be_the_ones_jcloisterzone_asks(
    players: tuple[int, ...], message: str
) -> None:
    with pytest.raises(RecordError) as err:
        import_jcz5(_declined(_abbey_round_5x(), *players))
    assert str(err.value) == message


def test_a_pass_after_the_end_where_jcloisterzone_asks_nobody_is_refused() -> None:
    """barn-scoring ends with no hole open: JCloisterZone plays no abbey round there."""
    data = load_save("abbey-and-mayor/barn-scoring.jcz")
    data["replay"].append({"type": "PASS", "payload": {}, "player": 0})
    with pytest.raises(RecordError, match=r"^move 16: PASS after the game is over$"):
        import_jcz5(data)


def test_4x_abbey_round_placed_and_declined() -> None:
    """The same game as a 4.x save (``#END`` after the 6 tiles, no players on messages)."""
    data = _as_4x("abbey-and-mayor/abbey-merge.jcz")
    game = import_jcz(data)
    assert dict(game.record.setup.options)["am.final_abbeys"] is True
    result = replay(game.record)
    assert result.over and result.scores == (2, 10)
    data["replay"][-3:] = [{"type": "PASS", "payload": {}}] * 2 + [{"type": "GAME_OVER"}]
    game = import_jcz(data)
    assert "am.final_abbeys" not in dict(game.record.setup.options)
    assert replay(game.record).state.ext["abbey_mayor"].abbeys == (1, 1)
    data["replay"].insert(-1, {"type": "PASS", "payload": {}})  # nobody is left to ask
    with pytest.raises(RecordError, match=r"^move 21: PASS after the game is over$"):
        import_jcz(data)


# ---------------------------------------------------------------------------- castles
def _castle_5x(decline: dict[str, Any]) -> dict[str, Any]:
    """Alice's knight in a city cap south of the start; Bob's cap closes the 2-tile city, so
    JCloisterZone offers Alice (not the one to move) a castle; ``decline`` is her answer."""
    data = load_save("bridge-bazaar-and-castles/castle-unoccupied-trigger.jcz")
    data["gameAnnotations"] = {"drawOrder": ["BA/C", "BA/C"], "endTurn": 2}

    def msg(kind: str, payload: dict[str, Any], player: int) -> dict[str, Any]:
        return {"type": kind, "payload": payload, "player": player}

    city = {"position": [0, 1], "feature": "City", "location": "S"}
    data["replay"] = [
        msg("PLACE_TILE", {"tileId": "BA/C", "rotation": "R180", "position": [0, 1]}, 0),
        msg("DEPLOY_MEEPLE", {"pointer": city, "meepleId": "0.small.1"}, 0),
        msg("COMMIT", {"random": 0.0}, 0),
        msg("PLACE_TILE", {"tileId": "BA/C", "rotation": "R0", "position": [0, 2]}, 1),
        msg("PASS", {}, 1),
        decline,
        msg("COMMIT", {"random": 0.0}, 1),
    ]
    return data


def _castle_4x(decline: dict[str, Any]) -> dict[str, Any]:
    """The same game as a 4.x save."""
    five = _castle_5x(decline)
    moves = []
    for m in five["replay"]:
        payload = dict(m["payload"])
        if "tileId" in payload:
            payload["tileId"] = payload["tileId"].replace("/", ".", 1)
        if "pointer" in payload:
            payload["pointer"] = {k: v for k, v in payload["pointer"].items() if k != "feature"}
        if isinstance(payload.get("token"), str):
            payload["token"] = ["CastleToken", payload["token"]]
        moves.append({"type": m["type"], "payload": payload})
    return {
        "slots": [{"number": i, "serial": i + 1, "nickname": n} for i, n in enumerate("AB")],
        "setup": {
            "expansions": {"BASIC": 1, "BRIDGES_CASTLES_AND_BAZAARS": 1},
            "capabilities": ["StandardGame", "Castle"],
            "rules": {},
        },
        "annotations": {"tilePack": {"params": {"drawOrder": ["BA.C", "BA.C", "#END"]}}},
        "replay": [*moves, {"type": "GAME_OVER", "payload": {}}],
    }


_DECLINE = {"type": "PASS", "payload": {}, "player": 0}
_TAKE = {
    "type": "PLACE_TOKEN",
    "payload": {
        "token": "CASTLE",
        "pointer": {"position": [0, 2], "feature": "City", "location": "N"},
    },
    "player": 0,
}


@pytest.mark.parametrize("build", [_castle_5x, _castle_4x])
def test_castle_offered_to_another_seat_and_declined_changes_nothing(build: Any) -> None:
    importer = import_jcz5 if build is _castle_5x else import_jcz
    game = importer(build(_DECLINE))
    assert [a.notation for a in game.record.actions] == [
        "place 0,1 r180",
        "deploy city:S",
        "place 0,2 r0",
        "pass",
    ]
    result = replay(game.record)
    assert result.over and result.scores == (4, 0)  # Alice's 2-tile city, as JCloisterZone


@pytest.mark.parametrize("build", [_castle_5x, _castle_4x])
def test_castle_offered_to_another_seat_and_built_is_refused_naming_the_rule(build: Any) -> None:
    importer = import_jcz5 if build is _castle_5x else import_jcz
    with pytest.raises(RecordError) as err:
        importer(build(_TAKE))
    assert str(err.value) == (
        "move 6: PLACE_TOKEN CASTLE builds a castle for player 1 in player 2's turn: only the "
        "active player builds castles (RULES.md §13.3, OQ-CAS-1)"
    )


def test_a_castle_decline_by_the_wrong_player_is_not_taken_for_one() -> None:
    data = _castle_5x({"type": "PASS", "payload": {}, "player": 1})  # Bob was not offered one
    with pytest.raises(RecordError, match=r"^move 6: PASS after the game is over$"):
        import_jcz5(data)


# ---------------------------------------------------------------------------- chance in saves
def _oracle_rolls(save: Any, version: int) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The Oracle's die as a save would fix it: a 4.x save lists the rolls; a 5.x save gives
    each COMMIT's ``random`` (r in [0, 1): a roll of 1 + int(6 r), as JCloisterZone 5 rolls)."""
    if version == 4:
        return ((oracle_more.DIE, tuple(save["oracleRolls"])),)
    commits = [m["payload"]["random"] for m in save["replay"] if m["type"] == "COMMIT"]
    return ((oracle_more.DIE, tuple(1 + int(6 * r) for r in commits)),)


def test_a_part_forces_the_chance_a_save_recorded(registry_restored: None) -> None:
    """``JczImport.forced``: the outcomes a save's randomness gave become ``GameSetup.forced``,
    so the imported record replays JCloisterZone's rolls (the flier's die); the Oracle rolls
    its public die after every follower step."""

    class OracleWithSaves(oracle.Oracle):
        jcz = JczImport(
            capabilities={"Oracle": JczSwitch(((oracle.GUESS_EVERY, 8),))},
            elements={"oracle": JczSwitch(((oracle.GUESS_EVERY, 8),))},
            forced=_oracle_rolls,
        )

    register(OracleWithSaves)
    four = _load4("basic/scoring.jcz")
    four["setup"]["capabilities"].append("Oracle")
    four["oracleRolls"] = [5, 3, 1, 3, 5, 1, 3]  # odd: the owl never asks (JCZ has no owl)
    game = import_jcz(four)
    assert game.record.setup.forced == ((oracle_more.DIE, (5, 3, 1, 3, 5, 1, 3)),)
    result = replay(game.record)
    rolled = [e.value for e in result.events if isinstance(e, DieRolled)]
    assert rolled == [5, 3, 1, 3, 5, 1, 3]  # one roll per turn, as the save fixed them
    assert result.scores == (14, 11)  # the save's own scores: the Oracle's rolls change none
    five = load_save("basic/field-scoring.jcz")
    five["setup"]["elements"]["oracle"] = True
    commits = [m for m in five["replay"] if m["type"] == "COMMIT"]
    for m, r in zip(commits, (0.7, 0.4, 0.1), strict=True):
        m["payload"]["random"] = r  # 1 + int(6 r): 5, 3, 1
    record = import_jcz5(five).record
    assert record.setup.forced == ((oracle_more.DIE, (5, 3, 1)),)
    assert [e.value for e in replay(record).events if isinstance(e, DieRolled)] == [5, 3, 1]
