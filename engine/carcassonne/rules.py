"""The only state transitions of the tile game: ``new_game``, ``apply``; and what is open:
``pending``, ``legal_actions``.

A turn is a flow of steps (:mod:`engine.carcassonne.flow`, :mod:`engine.carcassonne.steps`):
the seat places the drawn tile, expansions react, it deploys a figure or passes, completed
features score, and the next seat draws. Every choice is a decision listed by :func:`pending`;
:func:`apply` answers one and runs the flow on until the next decision (RULES.md §2–§3, §19).
"""

from __future__ import annotations

from collections.abc import Iterator
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
    "legal_placements",
    "new_game",
    "parse_spot",
    "pending",
    "placements_for",
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


def preview(state: GameState, seat: Seat, action: Action) -> tuple[Decision, ...] | None:
    """The decisions ``seat`` would face right after ``action``, when reaching them reveals
    nothing hidden (no tile drawn, no random number used, no card or forced roll taken from a
    hidden pile); otherwise ``None``.

    Front ends use it to chain pickers (place, then deploy on the same tile) before they
    submit both actions at once.

    Answering a simultaneous choice (a decision with a ``group``: a sealed bid) is never
    previewed: what follows may reveal the other seats' answers.

    Raises:
        EngineError: as :func:`apply`.
    """
    if any(d.group is not None for d in _pending(state) if d.seat == seat):
        return None
    after = apply(state, seat, action).state
    hidden = after.pile_pos != state.pile_pos or after.rng != state.rng
    if hidden or after.piles is not state.piles or after.over:
        return None
    return tuple(d for d in _pending(after) if d.seat == seat)
