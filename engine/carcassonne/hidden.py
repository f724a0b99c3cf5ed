"""Determinisation: a copy of a game in which everything a seat may not see is drawn afresh
(ARCHITECTURE.md decision 16; an AI searches such copies, never the real secrets).

:func:`resample` keeps all that ``viewer`` sees and replaces the rest with values that depend
only on what it sees and on the given generator: the draw pile (put in a canonical order, then
shuffled; the tiles drawn already are blanked), the hidden generator, the named hidden piles
(``chance``), and each expansion's own secrets through its ``resample`` hook
(``Expansion.resample``). Two games a seat cannot tell apart give the same copy for the same
generator.

>>> from engine import GameSetup, new_game
>>> s = new_game(GameSetup(), seed=1)
>>> a, b = resample(s, 0, Rng(7)), resample(new_game(GameSetup(), seed=1), 0, Rng(7))
>>> a.pile == b.pile, sorted(a.pile[1:]) == sorted(s.pile[1:]), a.drawn == s.drawn
(True, True, True)
"""

from __future__ import annotations

from typing import Any

from engine.carcassonne.state import GameState
from engine.core.rng import Rng
from engine.core.seats import Seat


def canonical(items: tuple[Any, ...]) -> list[Any]:
    """``items`` in an order that depends only on which items they are."""
    return sorted(items, key=repr)


def resample(state: GameState, viewer: int, rng: Rng) -> GameState:
    """A copy of ``state`` whose hidden parts are drawn from ``rng`` (see the module doc).

    ``state`` is never changed; ``rng`` advances."""
    new = state.clone()
    pos = state.pile_pos
    # the tiles drawn already are not kept (nothing reads them): blanks hold their places
    new.pile = (*("",) * pos, *rng.shuffled(canonical(state.pile[pos:])))
    new.rng = rng.next64()
    new.seed = 0
    new.piles = {name: tuple(rng.shuffled(canonical(v))) for name, v in sorted(state.piles.items())}
    for e in new.exps:
        if e.id in new.ext:
            e.resample(new, Seat(viewer), rng)
    return new
