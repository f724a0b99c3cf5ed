"""Board-building helpers for the engine tests: play a scripted game, look at its features.

A scripted game fixes the draw order (``only_forced`` pile) and lists the actions in notation;
:func:`play` applies each one for whichever seat is to move, so a list reads like a game log::

    game = play(setup(["BA/C"]), ["place 0,-1 r180", "deploy city:S"])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Action, GameSetup, GameState, Position, Seat, apply, new_game
from engine.carcassonne.board import Feature
from engine.carcassonne.events import (
    Event,
    FiguresReturned,
    PointsScored,
    TileDiscarded,
)
from engine.carcassonne.rules import parse_spot
from engine.carcassonne.scoring import Award

# A spare tile at the end of a draw order keeps the game running, so in-play scores are not
# mixed with final scoring. BA/L (a cloister) fits south of the start tile on the scoring tests' boards.
SPARE = "BA/L"


def setup(
    draw: Sequence[str], *, players: int = 2, only_forced: bool = True, **options: Any
) -> GameSetup:
    """A base-game setup whose pile is exactly ``draw`` (in order) unless ``only_forced=False``."""
    return GameSetup(players=players, draw_order=tuple(draw), only_forced=only_forced, **options)


@dataclass
class Played:
    """A scripted game after its last action: the states and events of every step."""

    states: list[GameState]
    events: list[tuple[Event, ...]] = field(default_factory=list)

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @property
    def all_events(self) -> list[Event]:
        return [e for step in self.events for e in step]

    @property
    def last_events(self) -> tuple[Event, ...]:
        return self.events[-1] if self.events else ()

    @property
    def scores(self) -> tuple[int, ...]:
        return self.state.scores

    def awards(self, *, final: bool | None = None, category: str | None = None) -> list[Award]:
        """Awards given so far, optionally only final-scoring (or in-play) ones of a category."""
        return [
            a
            for a in self.state.awards
            if (final is None or a.item.final is final)
            and (category is None or a.item.category == category)
        ]

    def points(self, *, final: bool | None = None, category: str | None = None) -> dict[int, int]:
        """Points per seat (seats with an award only) from :meth:`awards`."""
        out: dict[int, int] = {}
        for a in self.awards(final=final, category=category):
            out[int(a.seat)] = out.get(int(a.seat), 0) + a.points
        return out

    def scored(self) -> list[PointsScored]:
        return [e for e in self.all_events if isinstance(e, PointsScored)]

    def returned(self) -> list[FiguresReturned]:
        return [e for e in self.all_events if isinstance(e, FiguresReturned)]

    def discarded(self) -> list[TileDiscarded]:
        return [e for e in self.all_events if isinstance(e, TileDiscarded)]


def play(
    game_setup: GameSetup | GameState, actions: Iterable[str | Action], *, seed: int = 0
) -> Played:
    """Start ``game_setup`` (or continue a state) and apply ``actions`` for the seat to move."""
    state = game_setup if isinstance(game_setup, GameState) else new_game(game_setup, seed=seed)
    played = Played([state])
    for raw in actions:
        action = Action.from_notation(raw) if isinstance(raw, str) else raw
        tr = apply(played.state, played.state.current, action)
        played.states.append(tr.state)
        played.events.append(tr.events)
    return played


def completed(game: Played) -> list[PointsScored]:
    """In-play scoring events (not final scoring)."""
    return [e for e in game.scored() if not e.item.final]


def step(state: GameState, action: str, seat: int | None = None) -> GameState:
    """Apply one action (for ``seat``, default the seat to move) and return the new state."""
    who = state.current if seat is None else Seat(seat)
    return apply(state, who, Action.from_notation(action)).state


def feature(state: GameState, x: int, y: int, spot: str) -> Feature:
    """The merged feature that spot ``spot`` of the tile at ``(x, y)`` belongs to."""
    placed = state.board.cells[Position(x, y)]
    index = parse_spot(placed.rt, spot)
    return state.board.feature_of(placed.segs[index])


def on_board(state: GameState, seat: int) -> int:
    """How many figures of ``seat`` stand on the board."""
    return sum(1 for m in state.board.meeples() if m.seat == seat)


def supply(state: GameState, seat: int, figure: str = "follower") -> int:
    return state.players[seat].supply.get(figure, 0)
