"""Views and decisions are plain data (issue 29): a seat's view, with its open decisions (lazy
ones and numeric options too), pickles and comes back equal — so a view goes to a worker
process (a picture, an AI) as it is, with nothing stripped first."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from engine import GameSetup, view_for
from engine.carcassonne.randomplay import choose_move
from engine.carcassonne.registry import all_expansions
from engine.carcassonne.rules import apply, new_game, pending
from engine.core.decisions import Decision
from engine.core.rng import Rng

ALL = tuple(c.id for c in all_expansions())


def _plain(d: Decision) -> tuple[Any, ...]:
    numbers = tuple((o.id, o.action_for(o.number.min)) for o in d.options if o.number is not None)
    return (
        d.key, d.seat, d.kind, d.prompt, d.optional, d.visibility, d.group, d.pass_action,
        d.answered, tuple((o.id, o.action, o.target, o.facets, o.label) for o in d.options),
        numbers,
    )  # fmt: skip


@pytest.mark.parametrize("expansions", [(), ALL], ids=["base", "all"])
def test_every_view_with_its_decisions_pickles_and_comes_back_equal(
    expansions: tuple[str, ...],
) -> None:
    numeric = 0
    for seed in range(2):
        state = new_game(GameSetup(players=3, expansions=expansions), seed=seed)
        rng = Rng(seed)
        step = 0
        while not state.over:
            if step % 3 == 0:
                for seat in range(3):
                    view = view_for(state, seat)  # type: ignore[arg-type]
                    back = pickle.loads(pickle.dumps(view))
                    assert [_plain(d) for d in back.decisions] == [
                        _plain(d) for d in view.decisions
                    ]
                    pub, pub2 = view.public, back.public  # type: ignore[union-attr]
                    assert (pub2.tiles, pub2.figures, pub2.players) == (
                        pub.tiles, pub.figures, pub.players,
                    )  # fmt: skip
                    assert [_plain(d) for d in pub2.decisions] == [_plain(d) for d in pub.decisions]
                    numeric += sum(o.number is not None for d in view.decisions for o in d.options)
            seat, action = choose_move(state, rng)
            key = pending(state)[0].key
            state = apply(state, seat, action, key=key).state
            step += 1
    if expansions:
        assert numeric > 0, "a market bid (a numeric option) was pickled"


@pytest.mark.parametrize("expansions", [(), ALL], ids=["base", "all"])
def test_every_decision_goes_to_json_and_back(expansions: tuple[str, ...]) -> None:
    """Decisions as JSON (engine/core/decisions_json.py): written as plain data, read back with
    the game's own notation parser, equal to what was asked."""
    import json

    from engine.carcassonne.actions import Action, NumberedChoice
    from engine.core.decisions_json import decision_from_json, decision_to_json

    seen = 0
    state = new_game(GameSetup(players=3, expansions=expansions), seed=4)
    rng = Rng(4)
    while not state.over:
        for d in pending(state):
            text = json.dumps(decision_to_json(d))
            back = decision_from_json(
                json.loads(text),
                parse=Action.from_notation,
                templates={"NumberedChoice": NumberedChoice},
            )
            assert _plain(back) == _plain(d)
            seen += 1
        seat, action = choose_move(state, rng)
        state = apply(state, seat, action, key=pending(state)[0].key).state
    assert seen > 100


@pytest.mark.parametrize("expansions", [(), ALL], ids=["base", "all"])
def test_a_picture_view_pickles_flat_and_comes_back_whole(expansions: tuple[str, ...]) -> None:
    """A picture's view goes to a drawing worker every turn, pickled flat (issue 33): it comes
    back equal field for field, with its domain types (positions, rotations) rebuilt."""
    from engine.carcassonne.geometry import Position, Rotation
    from engine.carcassonne.view import PublicView, public_view

    state = new_game(GameSetup(players=3, expansions=expansions), seed=5)
    rng = Rng(5)
    for _ in range(60):
        if state.over:
            break
        seat, action = choose_move(state, rng)
        state = apply(state, seat, action, key=pending(state)[0].key).state
    view = public_view(state)
    for sent in (view, view.for_pictures()):
        back = pickle.loads(pickle.dumps(sent, protocol=pickle.HIGHEST_PROTOCOL))
        assert isinstance(back, PublicView)
        assert back == sent
        assert back.figures, "the game has figures on the board"
        assert all(type(t.pos) is Position and type(t.rotation) is Rotation for t in back.tiles)
        assert all(type(f.pos) is Position for f in back.figures)
        assert all(type(p) is Position for p in back.last_placed.values())
        assert back.placed is None or type(back.placed) is Position


def test_the_flat_pickle_names_every_field_of_the_view() -> None:
    """``PublicView.__reduce__`` lists the view's fields by position: a new field must be added
    there too, or a drawing worker would get the field's default instead of its value."""
    import dataclasses
    import inspect

    from engine.carcassonne.view import PublicView, _public_view

    fields = [f.name for f in dataclasses.fields(PublicView)]
    rebuilt = list(inspect.signature(_public_view).parameters)
    assert len(rebuilt) == len(fields), "PublicView gained or lost a field: update __reduce__"
    assert fields == [
        "setup", "version", "turn", "step", "current", "drawn", "placed", "tiles_left",
        "tiles", "figures", "players", "last_placed", "discarded", "ext", "decisions", "track",
    ]  # fmt: skip
