"""Game records: a match as its setup, seed and ordered actions, written as JSON and replayed.

A record is everything needed to reproduce a game exactly (ARCHITECTURE.md decision 2): the
engine is deterministic given the seed, so replaying the actions through :func:`apply` rebuilds
every state, event and award. The JSON form::

    {"format": "carcabot-record", "version": 1, "game": "carcassonne",
     "setup": {...GameSetup.to_json()...}, "seed": 7,
     "actions": [{"seat": 0, "action": "place 0,-1 r180"}, {"seat": 0, "action": "pass"}],
     "names": ["Alice", "Bob"], "metadata": {...}, "final_scores": [14, 11]}

``names``, ``metadata`` and ``final_scores`` are optional; ``final_scores`` is written for
information only (replay recomputes the scores and never trusts it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeGuard

from engine.carcassonne.actions import Action, Deploy
from engine.carcassonne.events import Event, FigureDeployed, PointsScored
from engine.carcassonne.rules import Transition, apply, new_game
from engine.carcassonne.scoring import Award
from engine.carcassonne.state import GameSetup, GameState
from engine.core.errors import EngineError, RecordError
from engine.core.seats import Seat

RECORD_FORMAT = "carcabot-record"
RECORD_VERSION = 1
GAMES = ("carcassonne",)


@dataclass(frozen=True, slots=True)
class RecordedAction:
    """One move of a record: who moved and the action in text notation (``place 0,-1 r180``)."""

    seat: Seat
    notation: str

    def action(self) -> Action:
        """Parse the notation.

        Raises:
            InvalidActionError: when the notation is not an action.
        """
        return Action.from_notation(self.notation)


def _frozen(metadata: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(metadata or {}))


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game as data: replaying ``actions`` from ``new_game(setup, seed=seed)``.

    ``names`` are the players' display names in seat order (may be empty: then the setup's
    names, then "Player N"). ``metadata`` is free information (source file, import notes).
    ``final_scores`` is informational: what the writer saw, never used by :func:`replay`.
    """

    setup: GameSetup
    seed: int
    actions: tuple[RecordedAction, ...] = ()
    game: str = "carcassonne"
    names: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=lambda: _frozen(None), compare=False)
    final_scores: tuple[int, ...] | None = field(default=None, compare=False)

    def player_names(self) -> tuple[str, ...]:
        """Display names in seat order, falling back to the setup's names, then "Player N"."""
        given = self.names or self.setup.names
        return tuple(
            given[i] if i < len(given) and given[i] else f"Player {i + 1}"
            for i in range(self.setup.players)
        )

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready object (see the module docstring)."""
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "setup": self.setup.to_json(),
            "seed": self.seed,
            "actions": [{"seat": int(a.seat), "action": a.notation} for a in self.actions],
        }
        if self.names:
            out["names"] = list(self.names)
        if self.metadata:
            out["metadata"] = dict(self.metadata)
        if self.final_scores is not None:
            out["final_scores"] = list(self.final_scores)
        return out

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record object, checking every field's type.

        Raises:
            RecordError: for anything malformed; a bad action names its move (1-based).
        """
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f'not a game record ("format" must be "{RECORD_FORMAT}")')
        version = data.get("version")
        if not _is_int(version) or version < 1:
            raise RecordError('the record has no valid "version"')
        if version > RECORD_VERSION:
            raise RecordError(
                f"record version {version} is newer than this program reads ({RECORD_VERSION})"
            )
        game = data.get("game", "carcassonne")
        if game not in GAMES:
            raise RecordError(f"records of the game '{game}' cannot be replayed here")
        raw_setup = data.get("setup")
        if not isinstance(raw_setup, dict):
            raise RecordError('the record has no "setup" object')
        _check_setup_json(raw_setup)
        try:
            setup = GameSetup.from_json(raw_setup)
        except (TypeError, ValueError) as e:
            raise RecordError(f"bad setup: {e}") from None
        seed = data.get("seed")
        if not _is_int(seed):
            raise RecordError('the record\'s "seed" must be an integer')
        raw_actions = data.get("actions", [])
        if not isinstance(raw_actions, list):
            raise RecordError('the record\'s "actions" must be a list')
        actions = []
        for i, raw in enumerate(raw_actions, 1):
            if not isinstance(raw, dict):
                raise RecordError('an action must be an object {"seat", "action"}', move=i)
            seat, text = raw.get("seat"), raw.get("action")
            if not _is_int(seat) or not 0 <= seat < setup.players:
                raise RecordError(f"bad seat {seat!r}", move=i)
            if not isinstance(text, str):
                raise RecordError('the action must be a text like "place 0,-1 r90"', move=i)
            actions.append(RecordedAction(Seat(seat), text))
        names = data.get("names", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RecordError('"names" must be a list of texts')
        metadata = data.get("metadata", {})
        if not isinstance(metadata, dict):
            raise RecordError('"metadata" must be an object')
        final = data.get("final_scores")
        final_scores: tuple[int, ...] | None = None
        if final is not None:
            if not isinstance(final, list) or not all(_is_int(s) for s in final):
                raise RecordError('"final_scores" must be a list of integers')
            final_scores = tuple(final)
        return cls(
            setup=setup,
            seed=seed,
            actions=tuple(actions),
            game=game,
            names=tuple(names),
            metadata=_frozen(metadata),
            final_scores=final_scores,
        )


def _check_setup_json(raw: dict[str, Any]) -> None:
    """Type checks GameSetup.from_json does not make (it trusts its input)."""
    for key in ("players", "tiny_city", "followers", "flow"):
        if key in raw and not _is_int(raw[key]):
            raise RecordError(f'bad setup: "{key}" must be a whole number')
    limit = raw.get("draw_limit")
    if limit is not None and not (_is_int(limit) and limit >= 0):
        raise RecordError('bad setup: "draw_limit" must be a whole number')
    for key in ("expansions", "draw_order", "names"):
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RecordError(f'bad setup: "{key}" must be a list of texts')
    for key in ("farmers", "only_forced"):
        if key in raw and not isinstance(raw[key], bool):
            raise RecordError(f'bad setup: "{key}" must be true or false')
    if not isinstance(raw.get("options", {}), dict):
        raise RecordError('bad setup: "options" must be an object')
    forced = raw.get("forced", {})
    if not isinstance(forced, dict) or not all(
        isinstance(v, list) and all(isinstance(x, str) or _is_int(x) for x in v)
        for v in forced.values()
    ):
        raise RecordError('bad setup: "forced" must map names to lists of texts or numbers')


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def dumps(record: GameRecord, *, indent: int | None = 1) -> str:
    """The record as JSON text; with an ``indent``, one action per line, actions last."""
    data = record.to_json()
    if indent is None:
        return json.dumps(data, ensure_ascii=False)
    actions = data.pop("actions")
    head = json.dumps(data, indent=indent, ensure_ascii=False)
    pad = " " * indent
    moves = f",\n{pad}{pad}".join(json.dumps(a, ensure_ascii=False) for a in actions)
    body = f"[\n{pad}{pad}{moves}\n{pad}]" if actions else "[]"
    return f'{head[:-2]},\n{pad}"actions": {body}\n}}'


def loads(text: str | bytes) -> GameRecord:
    """Parse JSON text into a record.

    Raises:
        RecordError: for text that is not JSON or not a valid record.
    """
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise RecordError(f"not valid JSON: {e}") from None
    return GameRecord.from_json(data)


# ---------------------------------------------------------------------------- recording
class Recorder:
    """Plays a game through :func:`apply` and remembers every action, to write a record.

    >>> from engine import GameSetup
    >>> rec = Recorder(GameSetup(players=2), seed=1)
    >>> rec.state.step
    'place'
    """

    def __init__(
        self,
        setup: GameSetup,
        seed: int,
        *,
        names: tuple[str, ...] = (),
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        self.setup = setup
        self.seed = seed
        self.names = names
        self.metadata = dict(metadata or {})
        self.state: GameState = new_game(setup, seed=seed)
        self.actions: list[RecordedAction] = []

    def apply(self, seat: Seat, action: Action | str) -> Transition:
        """Apply one action (object or notation) and record it if it was legal.

        Raises:
            EngineError: as :func:`apply` does; nothing is recorded then.
        """
        act = Action.from_notation(action) if isinstance(action, str) else action
        tr = apply(self.state, seat, act)
        if isinstance(act, Deploy):  # store the spot's own name, whatever alias was used
            spot = next((e.spot for e in tr.events if isinstance(e, FigureDeployed)), act.spot)
            act = Deploy(spot, act.figure)
        self.state = tr.state
        self.actions.append(RecordedAction(seat, act.notation()))
        return tr

    def record(self) -> GameRecord:
        """The record so far (with ``final_scores`` once the game is over)."""
        return GameRecord(
            setup=self.setup,
            seed=self.seed,
            actions=tuple(self.actions),
            names=self.names,
            metadata=_frozen(self.metadata),
            final_scores=self.state.scores if self.state.over else None,
        )


def record_of(
    setup: GameSetup,
    seed: int,
    moves: Iterable[tuple[Seat | int, Action | str]],
    *,
    names: tuple[str, ...] = (),
    metadata: Mapping[str, Any] | None = None,
) -> GameRecord:
    """Build a record from moves (e.g. a stored action log), checking each one as it is played.

    Raises:
        RecordError: naming the first move (1-based) that is malformed or illegal.
    """
    try:
        rec = Recorder(setup, seed, names=names, metadata=metadata)
    except EngineError as e:
        raise RecordError(f"bad setup: {e}") from None
    for i, (seat, action) in enumerate(moves, 1):
        try:
            rec.apply(Seat(int(seat)), action)
        except EngineError as e:
            raise RecordError(str(e), move=i) from None
    return rec.record()


# ---------------------------------------------------------------------------- replay
@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What replaying a record produced.

    ``states`` holds the state before the first move and after every move (only when
    :func:`replay` was asked with ``keep_states=True``; otherwise just the final state).
    ``events`` concatenates every transition's events; ``move_events[i]`` are move ``i+1``'s.
    """

    record: GameRecord
    state: GameState
    states: tuple[GameState, ...]
    move_events: tuple[tuple[Event, ...], ...]

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for evs in self.move_events for e in evs)

    @property
    def awards(self) -> tuple[Award, ...]:
        return self.state.awards

    @property
    def scores(self) -> tuple[int, ...]:
        return self.state.scores

    @property
    def over(self) -> bool:
        return self.state.over

    def scored(self) -> tuple[PointsScored, ...]:
        """Every scoring event in order: each feature scored with who got the points."""
        return tuple(e for e in self.events if isinstance(e, PointsScored))


def replay(record: GameRecord, *, keep_states: bool = False) -> ReplayResult:
    """Replay a record from its setup and seed, checking every move.

    Raises:
        RecordError: for an impossible setup, or naming the first bad move (1-based) and why,
            e.g. ``move 12: At 90° the east edge of the tile is city, but ...``.
    """
    if record.game not in GAMES:
        raise RecordError(f"records of the game '{record.game}' cannot be replayed here")
    try:
        state = new_game(record.setup, seed=record.seed)
    except EngineError as e:
        raise RecordError(f"bad setup: {e}") from None
    states = [state] if keep_states else []
    move_events: list[tuple[Event, ...]] = []
    for i, move in enumerate(record.actions, 1):
        if state.over:
            raise RecordError("the game is already over", move=i)
        if all(a.seat != move.seat for a in state.asks):
            waiting = sorted({a.seat + 1 for a in state.asks})
            who = " or ".join(f"seat {n}" for n in waiting)
            raise RecordError(f"seat {move.seat + 1} moved, but it is {who}'s turn", move=i)
        try:
            tr = apply(state, move.seat, move.action())
        except EngineError as e:
            raise RecordError(f"'{move.notation}': {e}", move=i) from None
        state = tr.state
        move_events.append(tr.events)
        if keep_states:
            states.append(state)
    return ReplayResult(
        record=record,
        state=state,
        states=tuple(states) if keep_states else (state,),
        move_events=tuple(move_events),
    )
