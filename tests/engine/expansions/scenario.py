"""Play exact scenarios: a forced pile and a list of moves applied by whoever is to move."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import Action, GameSetup, GameState, apply, new_game
from engine.carcassonne.events import Event
from engine.carcassonne.rules import pending


@dataclass
class Played:
    state: GameState
    events: list[Event] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)


def play(
    pile: Sequence[str],
    moves: Sequence[str],
    *,
    players: int = 2,
    expansions: Sequence[str] = (),
    **setup: object,
) -> Played:
    """Start a game whose pile is exactly ``pile`` and apply ``moves`` (notation) in order."""
    s = new_game(
        GameSetup(
            players=players,
            expansions=tuple(expansions),
            draw_order=tuple(pile),
            only_forced=True,
            **setup,
        ),  # type: ignore[arg-type]
        seed=1,
    )
    out = Played(s)
    for m in moves:
        open_ = pending(out.state)
        seat = open_[0].seat if open_ else out.state.current  # whoever is asked (a wagon's owner)
        out.movers.append(int(seat))
        tr = apply(out.state, seat, Action.from_notation(m))
        out.state = tr.state
        out.events.extend(tr.events)
    return out


def points(p: Played, category: str) -> list[tuple[int, int]]:
    """(seat, points) of every award in ``category``."""
    return [(int(a.seat), a.points) for a in p.state.awards if a.item.category == category]
