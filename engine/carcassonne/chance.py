"""Chance mid-game: dice everyone sees rolled, and named piles of cards nobody sees into
(ARCHITECTURE.md decision 13).

Both draw on the state's hidden generator (:func:`engine.carcassonne.flow.roll`), so a record
replays exactly and no view tells what comes next. Both can be *forced*, as
``GameSetup.draw_order`` forces tiles: ``GameSetup.forced`` names a source and the outcomes it
gives first (a die's first rolls, a pile's top cards), for imported saves that recorded them and
for tests. Name a source after its expansion (``oracle.die``, ``oracle.omens``).

A pile lives in ``state.piles`` (hidden: :func:`engine.carcassonne.view.view_for` never shows
it; an expansion that wants its size seen keeps the size in its model). A die's forced rolls
still to come are kept there too, under the die's name.

>>> from engine import GameSetup, new_game
>>> s = new_game(GameSetup(forced=(("demo.deck", ("b",)), ("demo.die", (3,)))), seed=1)
>>> new_pile(s, "demo.deck", ("a", "b", "c"))
>>> draw(s, "demo.deck"), pile_size(s, "demo.deck")
('b', 2)
>>> roll_die(s, "demo.die", (1, 2, 3), s.current, [])
3
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.carcassonne.events import DieRolled
from engine.carcassonne.flow import roll
from engine.core.errors import IllegalActionError
from engine.core.rng import Rng
from engine.core.seats import Seat

if TYPE_CHECKING:
    from engine.carcassonne.events import Event
    from engine.carcassonne.state import GameState


def roll_die(
    state: GameState, name: str, faces: Sequence[int], seat: Seat, events: list[Event]
) -> int:
    """Roll the die ``name`` with these ``faces`` (``(1, 1, 2, 2, 3, 3)``) for ``seat``: its next
    forced roll if one is left, else a face from the hidden generator. Everyone sees the result
    (a public :class:`DieRolled` event).

    Raises:
        IllegalActionError: a forced roll that is not a face of this die (a bad import).
    """
    queue = state.piles.get(name)
    if queue is None:
        queue = state.setup.forced_of(name)
    if queue:
        value = queue[0]
        if value not in faces:
            raise IllegalActionError(f"forced roll {value!r} of '{name}' is not a face of the die")
        state.piles = {**state.piles, name: queue[1:]}
    else:
        value = faces[roll(state, len(faces))]
    events.append(DieRolled(seat, name, value))
    return int(value)


def new_pile(state: GameState, name: str, cards: Sequence[str]) -> None:
    """Make the hidden pile ``name`` of ``cards``: the forced ones on top in their order, the
    rest shuffled with the state's generator (call it when the game starts: ``on_start``).

    Raises:
        IllegalActionError: a forced card the pile does not hold (as for ``draw_order``).
    """
    pool = list(cards)
    top: list[str] = []
    for i, card in enumerate(state.setup.forced_of(name)):
        if card not in pool:
            raise IllegalActionError(f"forced '{name}' entry {i + 1}: no '{card}' in the pile")
        pool.remove(card)
        top.append(card)
    r = Rng(state.rng)
    rest = r.shuffled(pool)
    state.rng = r.state
    state.piles = {**state.piles, name: tuple(top + rest)}


def draw(state: GameState, name: str) -> Any:
    """Take the top card of pile ``name`` (``None`` when it is empty)."""
    pile = state.piles.get(name, ())
    if not pile:
        return None
    state.piles = {**state.piles, name: pile[1:]}
    return pile[0]


def put_under(state: GameState, name: str, card: str) -> None:
    """Put ``card`` at the bottom of pile ``name`` (a used message goes under the deck)."""
    state.piles = {**state.piles, name: (*state.piles.get(name, ()), card)}


def pile_size(state: GameState, name: str) -> int:
    """How many cards pile ``name`` holds (public information; its order is not)."""
    return len(state.piles.get(name, ()))
