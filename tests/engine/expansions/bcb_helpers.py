"""Scenarios of Bridges, Castles & Bazaars: a forced pile and moves in notation.

A move is applied for the seat to move, or for the seat named first (``"@2 bcb.sealed 3"``):
several seats answer at once in a market's sealed round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Action, GameSetup, GameState, Seat, apply, new_game
from engine.carcassonne.events import Event, PointsScored
from engine.carcassonne.expansions.bridges_castles_bazaars.model import BcbModel
from engine.carcassonne.rules import pending
from engine.core import messages
from engine.core.decisions import Decision, Prompt

BCB = "bridges_castles_bazaars"
NO_BRIDGES = ("bcb.bridges", False)
NO_CASTLES = ("bcb.castles", False)
NO_MARKETS = ("bcb.markets", False)


@dataclass
class Played:
    state: GameState
    events: list[Event] = field(default_factory=list)
    #: (seat, move) of every move, in order
    moves: list[tuple[int, str]] = field(default_factory=list)

    @property
    def model(self) -> BcbModel:
        m = self.state.ext[BCB]
        assert isinstance(m, BcbModel)
        return m

    def decisions(self) -> tuple[Decision, ...]:
        return pending(self.state)

    def kinds(self) -> list[tuple[str, int]]:
        return [(d.kind, int(d.seat)) for d in pending(self.state)]

    def lines(self) -> list[str]:
        """Every event that names a message, in English (nested prompts worded too)."""
        return [words(p) for e in self.events if (p := e.prompt()) is not None]

    def awards(self, category: str) -> list[tuple[int, int]]:
        return [(int(a.seat), a.points) for a in self.state.awards if a.item.category == category]

    def placers(self) -> list[int]:
        """The seat of every tile placement, in order."""
        return [s for s, m in self.moves if m.startswith("place ")]

    #: pass every bridge decision the moves do not answer (scenarios about something else)
    skip_bridges: bool = False

    def then(self, moves: Sequence[str]) -> Played:
        """Apply more moves to this game."""
        for m in moves:
            if self.skip_bridges and not m.startswith("bcb.bridge"):
                while any(d.kind == "bcb.bridge" for d in pending(self.state)):
                    _move(self, "pass")
            _move(self, m)
        return self


def words(p: Prompt) -> str:
    params = {k: words(v) if isinstance(v, Prompt) else v for k, v in p.params}
    return messages.text(p.key, "en", **params)


def setup(
    pile: Sequence[str], *, players: int = 2, options: Sequence[tuple[str, Any]] = (), **kw: Any
) -> GameSetup:
    return GameSetup(
        players=players,
        expansions=tuple(kw.pop("expansions", (BCB,))),
        draw_order=tuple(pile),
        only_forced=True,
        options=tuple(sorted(options)),
        **kw,
    )


def play(
    pile: Sequence[str],
    moves: Sequence[str],
    *,
    players: int = 2,
    options: Sequence[tuple[str, Any]] = (),
    **kw: Any,
) -> Played:
    """Start a game whose pile is exactly ``pile`` and apply ``moves`` in order."""
    skip = bool(kw.pop("skip_bridges", False))
    out = Played(new_game(setup(pile, players=players, options=options, **kw), seed=1))
    out.skip_bridges = skip
    return out.then(moves)


def _move(out: Played, move: str) -> None:
    seat = out.state.current
    if move.startswith("@"):
        head, _, move = move.partition(" ")
        seat = Seat(int(head[1:]))
    tr = apply(out.state, seat, Action.from_notation(move))
    out.moves.append((int(seat), move))
    out.state = tr.state
    out.events.extend(tr.events)


def scored(p: Played) -> list[PointsScored]:
    return [e for e in p.events if isinstance(e, PointsScored)]
