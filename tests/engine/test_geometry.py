"""Geometry and action notation: positions, rotations, half-edges, masks, round-trips."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

from engine import Action, Deploy, InvalidActionError, Pass, PlaceTile, Position, Rotation, Side
from engine.carcassonne.geometry import (
    HALF_NAMES,
    JCZ_HALF_NAMES,
    facing_half,
    half_mask_name,
    rotate_half,
    rotate_half_mask,
    rotate_side_mask,
    side_mask_name,
)


# ---------------------------------------------------------------------------- positions
def test_neighbours_y_grows_south() -> None:
    p = Position(2, -3)
    assert p.neighbour(Side.N) == Position(2, -4)
    assert p.neighbour(Side.E) == Position(3, -3)
    assert p.neighbour(Side.S) == Position(2, -2)
    assert p.neighbour(Side.W) == Position(1, -3)
    for s in Side:
        assert p.neighbour(s).neighbour(s.opposite) == p


@pytest.mark.parametrize(
    ("text", "pos"),
    [("3,-1", (3, -1)), ("(3, -1)", (3, -1)), (" -2 5 ", (-2, 5)), ("0,0", (0, 0))],
)
def test_position_parse(text: str, pos: tuple[int, int]) -> None:
    assert Position.parse(text) == Position(*pos)
    assert Position.parse(Position(*pos).notation()) == Position(*pos)


@pytest.mark.parametrize("text", ["", "3", "3,", "a,b", "1,2,3", "1.5,2", "north"])
def test_position_parse_errors_explain_the_format(text: str) -> None:
    with pytest.raises(InvalidActionError) as err:
        Position.parse(text)
    assert f"'{text}' is not a board position" in str(err.value)
    assert "x,y" in str(err.value)


# ---------------------------------------------------------------------------- rotations
@pytest.mark.parametrize(
    ("text", "rot"),
    [
        ("r0", Rotation.R0),
        ("R90", Rotation.R90),
        ("180", Rotation.R180),
        ("r270", Rotation.R270),
        ("1", Rotation.R90),
        ("3", Rotation.R270),
    ],
)
def test_rotation_parse(text: str, rot: Rotation) -> None:
    assert Rotation.parse(text) is rot
    assert Rotation.parse(rot.notation()) is rot
    assert rot.degrees == 90 * int(rot)


@pytest.mark.parametrize("text", ["r45", "360", "x", "", "r-90", "4"])
def test_rotation_parse_errors_list_the_choices(text: str) -> None:
    with pytest.raises(InvalidActionError) as err:
        Rotation.parse(text)
    assert "0, 90, 180 or 270" in str(err.value)


def test_side_rotation_and_opposite() -> None:
    assert [Side.N.rotated(r) for r in Rotation] == [Side.N, Side.E, Side.S, Side.W]
    assert Side.W.rotated(Rotation.R90) is Side.N
    assert [s.opposite for s in Side] == [Side.S, Side.W, Side.N, Side.E]


# ---------------------------------------------------------------------------- half-edges
def test_half_names_follow_jcz() -> None:
    assert HALF_NAMES == ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
    assert JCZ_HALF_NAMES == ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")


#: TILES.md: across a shared border Nw↔Sw, Ne↔Se, En↔Wn, Es↔Ws.
FACING = {"Nw": "Sw", "Ne": "Se", "En": "Wn", "Es": "Ws"}


@pytest.mark.parametrize("half", HALF_NAMES)
def test_facing_half_meets_the_same_lowercase_letter(half: str) -> None:
    pairs = {**FACING, **{v: k for k, v in FACING.items()}}
    h = HALF_NAMES.index(half)
    other = HALF_NAMES[facing_half(h)]
    assert other == pairs[half]
    assert other[1] == half[1]
    assert facing_half(facing_half(h)) == h
    # the facing half is on the opposite side
    assert facing_half(h) // 2 == (h // 2 + 2) % 4


def test_rotate_half_moves_two_places_clockwise() -> None:
    cw = {"Nw": "En", "Ne": "Es", "En": "Se", "Es": "Sw", "Se": "Ws", "Sw": "Wn", "Ws": "Nw"}
    cw["Wn"] = "Ne"
    for name, to in cw.items():
        assert HALF_NAMES[rotate_half(HALF_NAMES.index(name), 1)] == to
    for h in range(8):
        assert rotate_half(h, 4) == h
        assert rotate_half(rotate_half(h, 1), 3) == h


# ---------------------------------------------------------------------------- masks
@pytest.mark.parametrize("mask", range(16))
@pytest.mark.parametrize("r", range(4))
def test_side_mask_rotation_matches_side_rotation(mask: int, r: int) -> None:
    want = 0
    for s in range(4):
        if mask >> s & 1:
            want |= 1 << Side(s).rotated(Rotation(r))
    assert rotate_side_mask(mask, r) == want


@pytest.mark.parametrize("mask", [0, 1, 0b11, 0b1000_0001, 0b0110_1001, 0xFF, 0b1010_1010])
@pytest.mark.parametrize("r", range(4))
def test_half_mask_rotation_matches_half_rotation(mask: int, r: int) -> None:
    want = 0
    for h in range(8):
        if mask >> h & 1:
            want |= 1 << rotate_half(h, r)
    assert rotate_half_mask(mask, r) == want
    assert rotate_half_mask(rotate_half_mask(mask, r), (4 - r) % 4) == mask


def test_mask_names() -> None:
    assert side_mask_name(0b1001) == "NW"
    assert side_mask_name(0b0101) == "NS"
    assert side_mask_name(0b1111) == "NESW"
    assert half_mask_name(0b1000_0100) == "En.Wn"
    assert half_mask_name(0) == ""


# ---------------------------------------------------------------------------- actions
@pytest.mark.parametrize(
    "action",
    [
        PlaceTile(Position(3, -1), Rotation.R90),
        PlaceTile(Position(0, 0), Rotation.R0),
        PlaceTile(Position(-12, 7), Rotation.R270),
        Deploy("city:N"),
        Deploy("road:EW"),
        Deploy("field:En.Wn"),
        Deploy("field:inner"),
        Deploy("cloister"),
        Deploy("field:En.Wn", "large"),
        Deploy("city:NW", "builder"),
        Deploy("field:Es.Se", "pig"),
        Pass(),
    ],
)
def test_notation_round_trips(action: Action) -> None:
    text = action.notation()
    assert Action.from_notation(text) == action
    assert Action.from_notation(text).notation() == text
    assert Action.from_notation(f"  {text.upper() if action.kind == 'pass' else text}  ") == action


def test_notation_examples() -> None:
    assert PlaceTile(Position(3, -1), Rotation.R90).notation() == "place 3,-1 r90"
    assert Deploy("city:N").notation() == "deploy city:N"
    assert Deploy("field:En.Wn", "large").notation() == "deploy large field:En.Wn"
    assert Pass().notation() == "pass"
    assert Action.from_notation("place 3,-1 180") == PlaceTile(Position(3, -1), Rotation.R180)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty action"),
        ("jump", "not an action"),
        ("place 3,-1", "not an action"),
        ("place x,y r90", "not a board position"),
        ("place 1,1 r45", "0, 90, 180 or 270"),
        ("deploy", "not an action"),
        ("deploy dragon city:N", "unknown figure 'dragon'"),
        ("pass now", "not an action"),
    ],
)
def test_bad_notation_is_an_invalid_action_with_help(text: str, words: str) -> None:
    with pytest.raises(InvalidActionError) as err:
        Action.from_notation(text)
    assert words in str(err.value)


def test_actions_are_values() -> None:
    a = PlaceTile(Position(1, 2), Rotation.R90)
    assert a == PlaceTile(Position(1, 2), Rotation.R90)
    assert hash(a) == hash(PlaceTile(Position(1, 2), Rotation.R90))
    assert Deploy("city:N") != Deploy("city:N", "large")
    assert {Pass(), Pass()} == {Pass()}
    assert (a.kind, Deploy("x").kind, Pass().kind) == ("place", "deploy", "pass")


# ---------------------------------------------------------------------------- doctests
def _engine_modules() -> list[str]:
    import engine

    return sorted(m.name for m in pkgutil.walk_packages(engine.__path__, "engine.") if not m.ispkg)


@pytest.mark.parametrize("module", _engine_modules())
def test_engine_doctests(module: str) -> None:
    """Every example in the engine's docstrings runs and prints what it claims."""
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {module}"


def test_doctests_exist() -> None:
    # the examples in geometry, actions and rng are part of the contract: make sure they run
    found = 0
    finder = doctest.DocTestFinder()
    for name in ("engine.carcassonne.geometry", "engine.carcassonne.actions", "engine.core.rng"):
        found += sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
    assert found >= 10
