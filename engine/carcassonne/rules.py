"""The only state transitions of the tile game: ``new_game``, ``apply``; and what is open:
``pending``, ``legal_actions``.

A turn is a flow of steps (:mod:`engine.carcassonne.flow`, :mod:`engine.carcassonne.steps`):
the seat places the drawn tile, expansions react, it deploys a figure or passes, completed
features score, and the next seat draws. Every choice is a decision listed by :func:`pending`;
:func:`apply` answers one and runs the flow on until the next decision (RULES.md §2–§3, §19).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

# The names below are re-exported: callers import them from ``rules`` as before.
from engine.carcassonne.actions import Action
from engine.carcassonne.board import Board
from engine.carcassonne.events import Event
from engine.carcassonne.expansion import expansions_of
from engine.carcassonne.featurescore import feature_item, final_scoring
from engine.carcassonne.flow import Frame, answer, find_ask, program_of, run
from engine.carcassonne.flow import pending as _pending
from engine.carcassonne.geometry import Position
from engine.carcassonne.placement import (
    describe_spot,
    explain_placement,
    legal_deploys,
    legal_placements,
    parse_spot,
    placements_for,
    spot_name,
)
from engine.carcassonne.state import FIGURE_COUNT, GameSetup, GameState, PlayerState
from engine.carcassonne.steps import DeployStep, PlaceStep  # registers the core steps
from engine.carcassonne.tiles import TileDef, load_tile_set, tile
from engine.core.decisions import Decision
from engine.core.errors import IllegalActionError
from engine.core.rng import Rng
from engine.core.seats import Seat

__all__ = [
    "DeployStep",
    "PlaceStep",
    "Transition",
    "apply",
    "describe_spot",
    "explain_placement",
    "feature_item",
    "final_scoring",
    "legal_actions",
    "legal_deploys",
    "lookahead",
    "only_pass",
    "legal_placements",
    "new_game",
    "parse_spot",
    "passed_empty",
    "pending",
    "placements_for",
    "preview",
    "revealed",
    "spot_name",
    "tile_sets_of",
]

ORIGIN = Position(0, 0)
#: mixed into the seed for the hidden generator, so it differs from the pile's shuffle
RNG_SALT = 0xD1CE_5EED_0B5E


@dataclass(frozen=True, slots=True)
class Transition:
    """The result of :func:`apply`: the new state and what happened."""

    state: GameState
    events: tuple[Event, ...]


# ---------------------------------------------------------------------------- setup
def tile_sets_of(setup: GameSetup) -> tuple[str, ...]:
    """The tile sets of the pile, the base first, then each expansion's in the setup's order
    (the pile is shuffled from this order, so records replay)."""
    sets = ["base"]
    played = {e.id: e for e in expansions_of(setup)}
    for e in setup.expansions:
        sets.extend(played[e].tile_sets_in_play())
    return tuple(sets)


def new_game(setup: GameSetup, *, seed: int) -> GameState:
    """Start a game: start tile at the origin, pile shuffled from ``seed``, first tile drawn.

    Raises:
        IllegalActionError: for an invalid setup or a forced draw order the pile cannot satisfy.
    """
    setup.validate()
    exps = expansions_of(setup)
    pool: list[str] = []
    start: TileDef | None = None
    for set_id in tile_sets_of(setup):
        for t in load_tile_set(set_id):
            if not t.in_pile:
                continue
            n = t.count
            if t.start and start is None:
                start = t
                n -= 1
            pool.extend([t.id] * n)
    assert start is not None, "the base set has a start tile"
    rng = Rng(seed)
    forced: list[str] = []
    for i, tid in enumerate(setup.draw_order):
        try:
            real = tile(tid).id
        except Exception:
            raise IllegalActionError(f"draw order entry {i + 1}: unknown tile '{tid}'") from None
        if real not in pool:
            raise IllegalActionError(
                f"draw order entry {i + 1}: no copy of {real} is left in the pile"
            )
        pool.remove(real)
        forced.append(real)
    rest = [] if setup.only_forced else rng.shuffled(pool)
    pile = tuple(forced + rest)
    supply = {"follower": setup.followers}
    for e in exps:
        for k, v in e.figures().items():
            supply[k] = supply.get(k, 0) + v
    for k in supply:
        count = setup.option(FIGURE_COUNT + k)
        if count is not None:
            supply[k] = int(count)
    board = Board()
    board.place(ORIGIN, start.rotated(0))
    state = GameState(
        setup=setup,
        seed=seed,
        board=board,
        players=[PlayerState(0, dict(supply)) for _ in range(setup.players)],
        pile=pile,
    )
    for e in exps:
        model = e.initial_model()
        if model is not None:
            state.ext[e.id] = model
    state.rng = Rng(seed ^ RNG_SALT).state
    for e in exps:
        e.on_start(state)
    prog = program_of(setup)
    state.flow = (Frame(0, len(prog.steps), Seat(0)),)
    run(state, [])
    return state


# ---------------------------------------------------------------------------- decisions
def pending(state: GameState) -> tuple[Decision, ...]:
    """Every open decision of every seat (private ones too: views filter them per viewer)."""
    return _pending(state)


def legal_actions(state: GameState, seat: Seat) -> Iterator[Action]:
    """Every action ``seat`` may take now (nothing if no decision of that seat is open).

    Numeric options (a bid) are not enumerated: see ``Option.number``."""
    if state.step == "over":
        return
    for d in _pending(state):
        if d.seat == seat:
            yield from d.actions()


def apply(state: GameState, seat: Seat, action: Action, *, key: str | None = None) -> Transition:
    """Apply ``action`` by ``seat`` and return the new state; ``state`` is never changed.

    ``key`` names the decision answered (a button's); without it the action goes to the open
    decision of ``seat`` that takes it.

    Raises:
        GameOverError: the game has ended.
        StaleStateError: ``key`` is not an open decision of ``seat`` any more.
        NotYourTurnError: no decision of ``seat`` is open.
        IllegalActionError: the action breaks a rule; the message says which.
        InvalidActionError: the action names something that does not exist.
    """
    ask = find_ask(state, seat, action, key)
    new = state.clone()
    events: list[Event] = []
    answer(new, ask, action, events)
    new.version = state.version + 1
    return Transition(new, tuple(events))


def revealed(before: GameState, after: GameState) -> bool:
    """Whether going from ``before`` to ``after`` revealed anything hidden: a tile drawn, a
    random number used, a card or forced roll taken from a hidden pile, or the game's end.

    The one copy of that rule: a picker may chain decisions only while nothing is revealed
    (:func:`lookahead`), and a placement may be taken back only until something is (undo).
    """
    return (
        after.pile_pos != before.pile_pos
        or after.rng != before.rng
        or after.piles is not before.piles
        or after.over
    )


def only_pass(decision: Decision) -> bool:
    """Whether passing is all ``decision`` offers (an optional one without options: a
    follower step with no spot left): front ends pass it at once, so nobody is asked it."""
    return decision.optional and decision.pass_action is not None and not decision.answers()


def passed_empty(state: GameState) -> GameState:
    """``state`` after passing every open decision that offers nothing but passing
    (:func:`only_pass`), as a front end does after each move."""
    while True:
        empty = next((d for d in _pending(state) if only_pass(d)), None)
        if empty is None or empty.pass_action is None:
            return state
        state = apply(state, empty.seat, empty.pass_action, key=empty.key).state


def lookahead(
    state: GameState, seat: Seat, actions: Action | Sequence[Action], *, settle: bool = False
) -> GameState | None:
    """The state after ``seat`` answers with each of ``actions`` in order, when reaching it
    reveals nothing hidden (:func:`revealed`); otherwise ``None``. With ``settle``, decisions
    offering nothing but passing are passed after each action, as front ends do.

    Answering a simultaneous choice (a decision with a ``group``: a sealed bid) is never
    looked past: what follows may reveal the other seats' answers.

    Raises:
        EngineError: as :func:`apply`.
    """
    after = state
    for action in [actions] if isinstance(actions, Action) else actions:
        if any(d.group is not None for d in _pending(after) if d.seat == seat):
            return None
        after = apply(after, seat, action).state
        if settle:
            after = passed_empty(after)
    return None if revealed(state, after) else after


def preview(
    state: GameState, seat: Seat, actions: Action | Sequence[Action], *, settle: bool = False
) -> tuple[Decision, ...] | None:
    """The decisions ``seat`` would face right after ``actions`` (one or a sequence), when
    reaching them reveals nothing hidden (:func:`lookahead`); otherwise ``None``.

    Front ends use it to chain pickers (place, then deploy on the same tile) before they
    submit the actions at once.

    Raises:
        EngineError: as :func:`apply`.
    """
    after = lookahead(state, seat, actions, settle=settle)
    if after is None:
        return None
    return tuple(d for d in _pending(after) if d.seat == seat)
