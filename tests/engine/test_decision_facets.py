"""A decision's facet questions (names, values, narrowing) are worked out once and kept
(issue 33: every autocomplete asked them again of the same decision): what is kept is what
a fresh pass over the options gives, asked in any order, in games with every expansion."""

from __future__ import annotations

import pytest

from engine import GameSetup
from engine.carcassonne.randomplay import choose_move
from engine.carcassonne.registry import all_expansions
from engine.carcassonne.rules import apply, new_game, pending
from engine.core.decisions import Decision, Option
from engine.core.rng import Rng

ALL = tuple(c.id for c in all_expansions())


def _names(options: tuple[Option, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for o in options:
        for k, _ in o.facets:
            if k not in out:
                out.append(k)
    return tuple(out)


def _narrow(options: tuple[Option, ...], **chosen: str) -> tuple[Option, ...]:
    return tuple(o for o in options if all(o.facet(k) == v for k, v in chosen.items()))


def _values(options: tuple[Option, ...], name: str, **chosen: str) -> tuple[str, ...]:
    out: list[str] = []
    for o in _narrow(options, **chosen):
        v = o.facet(name)
        if v is not None and v not in out:
            out.append(v)
    return tuple(out)


def _check(d: Decision) -> int:
    options = d.options
    names = _names(options)
    asked = 0
    for _ in range(2):  # the second time from what was kept
        assert d.facet_names() == names
        for name in names:
            assert d.facet_values(name) == _values(options, name)
            assert list(d.grouped(name)) == list(_values(options, name))
            for value in _values(options, name):
                assert d.narrow(**{name: value}) == _narrow(options, **{name: value})
                assert d.grouped(name)[value] == _narrow(options, **{name: value})
                for other in names:
                    if other != name:
                        got = d.facet_values(other, **{name: value})
                        assert got == _values(options, other, **{name: value})
                        for v2 in got[:2]:
                            both = {name: value, other: v2}
                            assert d.narrow(**both) == _narrow(options, **both)
                asked += 1
    assert d.narrow(cell="nowhere") == ()
    return asked


@pytest.mark.parametrize("expansions", [(), ALL], ids=["base", "all"])
@pytest.mark.parametrize("seed", range(1))
def test_kept_facet_answers_are_those_of_a_fresh_pass(
    expansions: tuple[str, ...], seed: int
) -> None:
    state = new_game(GameSetup(players=3, expansions=expansions), seed=seed)
    rng = Rng(seed)
    asked = 0
    while not state.over:
        for d in pending(state):
            asked += _check(d)
        seat, action = choose_move(state, rng)
        state = apply(state, seat, action, key=pending(state)[0].key).state
    assert asked > 500
