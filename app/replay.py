"""Rebuild a match's game state from its setup, seed and stored action log.

The log (``storage`` table ``actions``) is append-only. Besides engine actions in notation
(``place 1,0 r90``, ``deploy city:N``, ``pass``) it holds two service entries:

- ``undo``: takes back the previous effective engine action (the service only writes it when
  that action was the seat's own placement and revealed nothing);
- ``resign``: the seat left the match; it changes no game state (the service plays that seat's
  later turns itself, and those moves are ordinary log entries).

The match version is the number of log entries; the rebuilt state carries it as ``version`` so
that buttons made for an older version are recognised as stale even after an undo.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine import (
    Action,
    GameSetup,
    GameState,
    PublicView,
    Seat,
    apply,
    new_game,
    pending,
    public_view,
)
from engine.carcassonne.events import Event
from engine.carcassonne.record import GameRecord, RecordedAction
from engine.core.decisions import Decision

UNDO = "undo"
RESIGN = "resign"
SERVICE_ENTRIES = (UNDO, RESIGN)


@dataclass(frozen=True, slots=True)
class Move:
    """An effective engine action: who played it and what."""

    seat: Seat
    action: Action

    def notation(self) -> str:
        return self.action.notation()


@dataclass(slots=True)
class Game:
    """A match's rebuilt game: the state now, the effective moves, and the state before the
    last move (``previous``, kept for undo; ``None`` right after an undo: one level only)."""

    setup: GameSetup
    seed: int
    version: int
    state: GameState
    moves: list[Move] = field(default_factory=list)
    previous: GameState | None = None
    resigned: set[Seat] = field(default_factory=set)
    #: what was worked out from ``state`` (its public view, its open decisions, previews),
    #: with the state it belongs to: a cached game is asked the same by every autocomplete,
    #: click and move until the next move
    _memo: tuple[GameState, dict[Any, Any]] | None = field(default=None, repr=False, compare=False)

    def copy(self) -> Game:
        return Game(
            self.setup,
            self.seed,
            self.version,
            self.state,
            list(self.moves),
            self.previous,
            set(self.resigned),
            self._memo,
        )

    def memo(self) -> dict[Any, Any]:
        """A dict for what is worked out from the state now; a new one once it changes."""
        memo = self._memo
        if memo is None or memo[0] is not self.state:
            memo = self._memo = (self.state, {})
        return memo[1]

    def public(self) -> PublicView:
        """The public view of the state now (computed once per state)."""
        memo = self.memo()
        view: PublicView | None = memo.get("public")
        if view is None:
            view = memo["public"] = public_view(self.state)
        return view

    def decisions(self) -> tuple[Decision, ...]:
        """Every open decision now, private ones included (``pending``, once per state: each
        decision builds its options once)."""
        memo = self.memo()
        found: tuple[Decision, ...] | None = memo.get("decisions")
        if found is None:
            found = memo["decisions"] = pending(self.state)
        return found

    def play(self, seat: Seat, action: Action, *, key: str | None = None) -> tuple[Event, ...]:
        """Apply one engine action answering the open decision ``key`` (any of the seat's when
        ``None``); raises the engine's errors; the version advances by one."""
        tr = apply(self.state, seat, action, key=key)
        self.previous = self.state
        self.moves.append(Move(seat, action))
        self.version += 1
        tr.state.version = self.version  # our own fresh state: safe to set
        self.state = tr.state
        return tr.events

    def undo_last(self) -> None:
        """Drop the last effective move (an ``undo`` log entry)."""
        if not self.moves or self.previous is None:
            raise ValueError("nothing to undo")
        self.moves.pop()
        self.version += 1
        self.state = self._with_version(self.previous)
        self.previous = None

    def note_resign(self, seat: Seat) -> None:
        self.resigned.add(seat)
        self.version += 1
        self.state = self._with_version(self.state)
        self.previous = None

    def _with_version(self, state: GameState) -> GameState:
        s = state.clone()
        s.version = self.version
        return s

    def record(self, names: Sequence[str], *, metadata: dict[str, Any] | None = None) -> GameRecord:
        """The game record (engine/carcassonne/record.py) of the effective moves."""
        return GameRecord(
            setup=self.setup,
            seed=self.seed,
            actions=tuple(RecordedAction(m.seat, m.notation()) for m in self.moves),
            names=tuple(names),
            metadata=MappingProxyType(dict(metadata or {})),
            final_scores=self.state.scores if self.state.over else None,
        )

    def record_json(
        self, names: Sequence[str], *, metadata: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """:meth:`record` as a JSON-ready object."""
        return self.record(names, metadata=metadata).to_json()


def start_game(setup: GameSetup, seed: int) -> Game:
    state = new_game(setup, seed=seed)
    return Game(setup, seed, 0, state)


def rebuild(setup: GameSetup, seed: int, log: Iterable[tuple[int, str]]) -> Game:
    """Replay ``(seat, entry)`` log entries in order.

    Raises:
        EngineError: a stored entry no longer replays (an engine change broke old games).
    """
    game = start_game(setup, seed)
    for seat, entry in log:
        if entry == UNDO:
            game.undo_last()
        elif entry == RESIGN:
            game.note_resign(Seat(seat))
        else:
            game.play(Seat(seat), Action.from_notation(entry))
    return game


def iter_turn_states(setup: GameSetup, seed: int, moves: Iterable[Move]) -> Iterator[GameState]:
    """The state at the start of every turn and the final one, one at a time (for the replay
    animation: a caller that keeps only what it draws from each holds no states)."""
    state = new_game(setup, seed=seed)
    yield state
    for m in moves:
        state = apply(state, m.seat, m.action).state
        if state.step != "deploy":
            yield state


def turn_states(setup: GameSetup, seed: int, moves: Iterable[Move]) -> list[GameState]:
    """The state at the start of every turn and the final one (for the replay animation)."""
    return list(iter_turn_states(setup, seed, moves))
