"""The turn flow: a stack of frames running steps in slots (ARCHITECTURE.md §5.4, §5.8).

A match's *program* is the sorted list of its steps: the core's (draw, place, deploy, score,
end) and every enabled expansion's, each in a :class:`Slot` with an order. The state holds a
stack of :class:`Frame` (which step runs, for which seat, until where) and the open
:class:`Ask` records of the step that awaits. :func:`run` enters steps until one awaits;
:func:`answer` hands an action to the step that asked and runs on. A sub-turn (the builder's
second tile, a market tile, a message that grants a tile) is a frame pushed over the current
one, which pops back when it reaches its ``stop``.

Everything stored is plain data (step ids, numbers, tuples): steps are stateless singletons
found by id, so the flow costs nothing to serialise and little to clone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import IntEnum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from engine.carcassonne.actions import Action, Pass
from engine.carcassonne.expansion import expansions_of, per_setup
from engine.core import messages
from engine.core.decisions import Decision, Option, Prompt
from engine.core.errors import (
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    StaleStateError,
)
from engine.core.rng import Rng
from engine.core.seats import Seat

if TYPE_CHECKING:
    from engine.carcassonne.events import Event
    from engine.carcassonne.geometry import Position
    from engine.carcassonne.state import GameSetup, GameState

messages.register(
    {
        "err.no_answer_now": (
            "This choice takes no answer now.",
            "Esta elección no admite respuesta ahora.",
        ),
        "err.not_an_answer": (
            "'{action}' does not answer the open choice.",
            "'{action}' no responde a la elección abierta.",
        ),
        "err.game_over": ("The game is over.", "La partida ha terminado."),
        "err.stale": (
            "This choice is out of date: use the latest one.",
            "Esta elección está desactualizada: usa la más reciente.",
        ),
        "err.not_your_turn": (
            "It is not your turn: seat {who} is to play.",
            "No es tu turno: le toca al asiento {who}.",
        ),
    }
)


class Slot(IntEnum):
    """The fixed skeleton of a turn; steps are placed in these slots."""

    START = 0
    DRAW = 10
    PLACE = 20
    AFTER_PLACE = 30
    DEPLOY = 40
    AFTER_DEPLOY = 50
    SCORE = 60
    AFTER_SCORE = 70
    CLEANUP = 80
    END = 90


class Frame(NamedTuple):
    """A running (sub-)turn: ``pc`` indexes the program, the frame pops at ``stop``."""

    pc: int
    stop: int
    seat: Seat
    params: tuple[tuple[str, Any], ...] = ()

    def param(self, name: str, default: Any = None) -> Any:
        for k, v in self.params:
            if k == name:
                return v
        return default


class Ask(NamedTuple):
    """An open decision as stored in the state: its key, seat, asking step and frame depth,
    and whatever the step needs to rebuild the decision (``data``)."""

    key: str
    seat: Seat
    step: str
    depth: int
    data: tuple[tuple[str, Any], ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        for k, v in self.data:
            if k == name:
                return v
        return default


_PASS = Pass()

#: what a step returns: ``None`` to continue, or the asks it awaits
Result = tuple[Ask, ...] | None


class Step:
    """A stateless part of the turn. Subclasses set ``id`` and override what they need.

    ``enter`` runs when the flow reaches the step; ``handle`` receives an answer to one of its
    asks (on the cloned state; raise :class:`IllegalActionError` to refuse it); ``decision``
    rebuilds the public description of an ask for :func:`pending`.
    """

    id: ClassVar[str] = ""
    #: the value of ``GameState.step`` while this step awaits
    name: ClassVar[str] = ""
    #: action types this step answers (``Pass`` answers any optional ask)
    accepts: ClassVar[tuple[type[Action], ...]] = ()
    #: whether ``enter`` may change ``s.flow`` (push a sub-turn, skip to a slot, end the
    #: turn): the flow loop then writes the running frame's position first. Other steps get
    #: a frame whose ``pc`` may lag behind (its seat and params are exact).
    changes_flow: ClassVar[bool] = False
    #: ``(key, attribute)``: ``enter`` does nothing (returns ``None``, changes nothing) while
    #: ``s.ext`` holds no model under ``key`` or that model's ``attribute`` is false, so the
    #: flow loop skips the step without calling it (most expansion steps, most turns)
    idle_unless: ClassVar[tuple[str, str] | None] = None
    #: a tile symbol: ``enter`` does nothing unless the tile just placed (``s.placed``)
    #: carries it (a true value in ``TileDef.symbol_map``), so the flow loop skips the step
    #: without calling it on the other turns
    idle_unless_placed: ClassVar[str | None] = None

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        return None

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        raise IllegalActionError.keyed("err.no_answer_now")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        raise NotImplementedError

    def optional(self, s: GameState, ask: Ask) -> bool:
        return False

    def passable(
        self,
        ask: Ask,
        options: tuple[Option, ...] | Callable[[], tuple[Option, ...]],
        *,
        answers: Callable[[], tuple[Any, ...]] | None = None,
        **params: Any,
    ) -> Decision:
        """This step's decision that ``Pass`` declines: the prompt is the step's id as its
        message key, with ``params`` (what every "may" of the rules looks like); ``answers``
        lists the options' actions without building the options (see ``Decision``)."""
        return Decision(
            ask.key,
            ask.seat,
            self.id,
            Prompt.of(self.id, **params),
            options,
            optional=True,
            pass_action=_PASS,
            answers=answers,
        )

    def refuse(self, s: GameState, action: Action) -> str | IllegalActionError:
        """Why ``action`` does not answer this step: a keyed error (its words in the player's
        language), or a sentence in English."""
        return IllegalActionError.keyed("err.not_an_answer", action=action.notation())


@dataclass(frozen=True, slots=True)
class StepSpec:
    """A step's place in the turn: its slot and its order inside the slot (core steps use 0)."""

    slot: Slot
    step: Step
    order: int = 10


STEPS: dict[str, Step] = {}
_CORE: list[StepSpec] = []


def register_core(spec: StepSpec) -> None:
    """Add a core step (the base game's own; called once at import of ``steps.py``)."""
    _CORE.append(spec)
    STEPS[spec.step.id] = spec.step
    program_of.cache_clear()


class Program(NamedTuple):
    steps: tuple[Step, ...]
    slots: tuple[Slot, ...]
    #: each step's bound ``enter`` and ``changes_flow`` (the flow loop's hot path)
    enters: tuple[Callable[[GameState, Frame, int, list[Event]], Result], ...]
    flows: tuple[bool, ...]
    #: each step's guard: for :attr:`Step.idle_unless` ``(key, attrgetter(attribute))``, for
    #: :attr:`Step.idle_unless_placed` ``("", symbol)``, or one no model meets for a step
    #: without ``enter``
    guards: tuple[tuple[str, Any] | None, ...]

    def first(self, slot: Slot) -> int:
        """The first step at or after ``slot``."""
        for i, s in enumerate(self.slots):
            if s >= slot:
                return i
        return len(self.slots)


@per_setup
def program_of(setup: GameSetup) -> Program:
    """The sorted steps of a match: core and enabled expansions', by (slot, order, registry)."""
    specs: list[tuple[int, int, int, StepSpec]] = [(s.slot, s.order, -1, s) for s in _CORE]
    for i, e in enumerate(expansions_of(setup)):
        for s in e.steps():
            STEPS[s.step.id] = s.step
            specs.append((s.slot, s.order, i, s))
    specs.sort(key=lambda t: (t[0], t[1], t[2]))
    steps = tuple(t[3].step for t in specs)
    return Program(
        steps,
        tuple(t[3].slot for t in specs),
        tuple(st.enter for st in steps),
        tuple(st.changes_flow for st in steps),
        tuple(_guard(st) for st in steps),
    )


#: the guard of a step that only answers asks (its ``enter`` is :meth:`Step.enter`, which does
#: nothing): no model is ever stored under this key, so the flow loop never enters it
_NEVER = ("\x00never", attrgetter("never"))


def _guard(step: Step) -> tuple[str, Any] | None:
    """The test the flow loop makes before entering ``step`` (see :attr:`Program.guards`)."""
    if type(step).enter is Step.enter:
        return _NEVER
    if step.idle_unless_placed is not None:
        assert step.idle_unless is None, f"{step.id}: one guard per step"
        return ("", step.idle_unless_placed)
    if step.idle_unless is None:
        return None
    key, name = step.idle_unless
    return (key, attrgetter(name))


# ------------------------------------------------------------------------------- helpers
def new_ask(s: GameState, step: Step, depth: int, seat: Seat, **data: Any) -> Ask:
    """An ask with a fresh key (unique in the match: the step id and a counter)."""
    s.asks_made += 1
    return Ask(f"{step.id}#{s.asks_made}", seat, step.id, depth, tuple(data.items()))


#: sub-turn parameter of a bonus turn: the seat plays another turn of its own, drawing from the
#: pile as in its turn (the builder's second tile), so whatever may stand in for its draw may
#: stand in here too (the abbey). A sub-turn playing a tile from elsewhere (a market) omits it.
BONUS_TURN = "bonus_turn"


def push_subturn(
    s: GameState,
    seat: Seat,
    *,
    start: Slot = Slot.DRAW,
    stop: Slot = Slot.END,
    params: tuple[tuple[str, Any], ...] = (),
) -> None:
    """Push a sub-turn for ``seat`` running the program's slots from ``start`` up to (not
    including) ``stop``; it begins when the current step continues."""
    prog = program_of(s.setup)
    frame = Frame(prog.first(start), prog.first(stop), seat, params)
    s.flow = s.flow + (frame,)


def skip_to(s: GameState, depth: int, slot: Slot) -> None:
    """Once the step now running in the frame at ``depth`` is done (its ``enter`` or ``handle``
    returns ``None``), continue that frame at the first step of ``slot``: a tile played instead
    of drawing (the abbey) skips the draw and place steps."""
    fr = s.flow[depth]
    moved = fr._replace(pc=program_of(s.setup).first(slot) - 1)
    s.flow = s.flow[:depth] + (moved,) + s.flow[depth + 1 :]


def seats_from(s: GameState, first: Seat) -> tuple[Seat, ...]:
    """Every seat once, in turn order, starting with ``first``."""
    n = s.setup.players
    return tuple(Seat((first + i) % n) for i in range(n))


class SeatByTurnStep(Step):
    """A decision asked of several seats one after the other, in turn order, each seeing
    what those before it did (crop circles: from the active seat's left round to the active
    seat, each adds or takes back a follower).

    A subclass says who is asked in which order (:meth:`round_seats`: by default every seat
    from the one after the frame's seat, that seat last), whether a seat has anything to
    decide (:meth:`wants`: skipped otherwise), what an answer does (:meth:`answer`, which also
    receives ``Pass`` when :meth:`optional` allows it), what follows the last seat
    (:meth:`finish`) and the decision itself (:meth:`decision`). The seats still to ask travel
    in the ask, so the round needs no model of its own.
    """

    def round_seats(self, s: GameState, frame: Frame) -> tuple[Seat, ...]:
        """The seats to ask, in order (``()``: no round this time)."""
        return seats_from(s, Seat((frame.seat + 1) % s.setup.players))

    def wants(self, s: GameState, seat: Seat) -> bool:
        """Whether ``seat`` has anything to decide now (asked just before its turn comes)."""
        return True

    def answer(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> None:
        """Carry out one seat's answer (raise ``IllegalActionError`` to refuse it)."""

    def finish(self, s: GameState, events: list[Event]) -> None:
        """After the last seat (or when nobody had anything to decide)."""

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        return self.ask_next(s, depth, self.round_seats(s, frame), events)

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        self.answer(s, ask, action, events)
        return self.ask_next(s, ask.depth, ask.get("round", ()), events)

    def ask_next(
        self, s: GameState, depth: int, seats: tuple[Seat, ...], events: list[Event]
    ) -> Result:
        """Ask the first of ``seats`` that has something to decide (the rest wait in the
        ask), or finish the round."""
        for i, seat in enumerate(seats):
            if self.wants(s, seat):
                return (new_ask(s, self, depth, seat, round=seats[i + 1 :]),)
        self.finish(s, events)
        return None


def roll(s: GameState, bound: int) -> int:
    """A uniform number in ``[0, bound)`` from the state's hidden generator (replayable).
    A die everyone sees rolled, or a pile of cards, is :mod:`engine.carcassonne.chance`."""
    r = Rng(s.rng)
    n = r.below(bound)
    s.rng = r.state
    return n


def frame_at(s: GameState, depth: int) -> Frame:
    return s.flow[depth]


def run(s: GameState, events: list[Event]) -> None:
    """Enter steps until one awaits or the game is over. Mutates ``s`` (a clone).

    Most steps find nothing to do; the running frame's position is kept in the loop and
    written to ``s.flow`` only when a step awaits, before a step that declares
    :attr:`Step.changes_flow`, and when the frame ends (a turn enters a step per expansion
    hook, three dozen with every expansion); a step whose :attr:`Step.idle_unless` or
    :attr:`Step.idle_unless_placed` finds nothing to do is not entered (nor is ``s.current``
    set for it: every step entered gets it). Only a step that changes the flow may end the
    game (the draw step, which empties the flow), so the end is looked for only then."""
    prog = program_of(s.setup)
    steps, enters, flows, guards = prog.steps, prog.enters, prog.flows, prog.guards
    new_frame = _new_frame
    ext_get = s.ext.get  # the dict is changed in place, never replaced, while the flow runs
    # the symbols of the tile just placed, looked up once per placed tile (``symbols_of``)
    symbols_of: Position | None = None
    symbols: dict[str, Any] = _NO_SYMBOLS
    while s.step != "over":
        flow = s.flow
        depth = len(flow) - 1
        fr = flow[depth]
        start, stop, seat = fr[0], fr[1], fr[2]
        for pc in range(start, stop):
            guard = guards[pc]
            if guard is not None:  # tested before anything else: a skipped step costs nothing
                key, test = guard
                if key:
                    m = ext_get(key)
                    if m is None or not test(m):
                        continue
                else:
                    placed = s.placed
                    if placed is not symbols_of:
                        symbols_of = placed
                        symbols = (
                            _NO_SYMBOLS
                            if placed is None
                            else s.board.cells[placed].rt.tile.symbol_map
                        )
                    if not symbols.get(test):
                        continue
            if flows[pc] and pc != start:
                fr = new_frame(Frame, (pc, stop, seat, fr[3]))
                s.flow = flow = _with(flow, depth, fr)
            s.current = seat
            res = enters[pc](s, fr, depth, events)
            if res:
                if pc != fr[0]:
                    s.flow = _with(flow, depth, new_frame(Frame, (pc, stop, seat, fr[3])))
                s.asks = res
                step = steps[pc]
                s.step = step.name or step.id
                return
            if s.flow is not flow:
                if s.step == "over":
                    return
                if not flows[pc]:
                    raise RuntimeError(f"step {steps[pc].id} changed the flow: set changes_flow")
                _advance(s, depth)
                break
        else:  # the frame is done: a turn starts again at the top, a sub-turn pops
            if depth == 0:
                s.flow = (new_frame(Frame, (0, stop, seat, fr[3])),)
            else:
                s.flow = flow[:-1]


_NO_SYMBOLS: dict[str, Any] = {}


def _with(flow: tuple[Frame, ...], depth: int, fr: Frame) -> tuple[Frame, ...]:
    """``flow`` with the frame at ``depth`` replaced."""
    if depth == len(flow) - 1:
        return flow[:depth] + (fr,) if depth else (fr,)
    return flow[:depth] + (fr,) + flow[depth + 1 :]


_new_frame = tuple.__new__  # NamedTuple's own __new__ is a Python function: this is the hot path


def _advance(s: GameState, depth: int) -> None:
    """The frame at ``depth`` moves on to its next step."""
    fr = s.flow[depth]
    s.flow = _with(s.flow, depth, _new_frame(Frame, (fr[0] + 1, fr[1], fr[2], fr[3])))


def find_ask(s: GameState, seat: Seat, action: Action, key: str | None) -> Ask:
    """The open ask of ``seat`` that ``action`` answers.

    Raises:
        GameOverError, StaleStateError (``key`` is not open), NotYourTurnError,
        IllegalActionError (the action answers none of the seat's open choices).
    """
    if s.step == "over":
        raise GameOverError.keyed("err.game_over")
    if key is not None:  # the usual answer: a button's, one open ask (no lists to build)
        for a in s.asks:
            if a[0] == key and a[1] == seat:
                step = STEPS[a[2]]
                if isinstance(action, step.accepts):
                    return a
                break
    mine = [a for a in s.asks if a.seat == seat]
    if key is not None:
        mine = [a for a in mine if a.key == key]
        if not mine:
            raise StaleStateError.keyed("err.stale")
    if not mine:
        waiting = sorted({a.seat + 1 for a in s.asks}) or [s.current + 1]
        who = ", ".join(str(n) for n in waiting)
        raise NotYourTurnError.keyed("err.not_your_turn", who=who)
    for a in mine:
        step = STEPS[a.step]
        if isinstance(action, step.accepts):
            return a
        if isinstance(action, Pass) and step.optional(s, a):
            return a
    reason = STEPS[mine[0].step].refuse(s, action)
    raise reason if isinstance(reason, IllegalActionError) else IllegalActionError(reason)


def answer(s: GameState, ask: Ask, action: Action, events: list[Event]) -> None:
    """Give ``action`` to the step that asked ``ask`` and run on. Mutates ``s`` (a clone)."""
    res = STEPS[ask.step].handle(s, ask, action, events)
    if res:
        s.asks = res
        return
    s.asks = ()
    _advance(s, ask.depth)
    run(s, events)


def pending(s: GameState) -> tuple[Decision, ...]:
    """Every open decision, of every seat (private ones included: filter for a viewer)."""
    asks = s.asks
    if len(asks) == 1:
        a = asks[0]
        return (STEPS[a.step].decision(s, a),)
    return tuple(STEPS[a.step].decision(s, a) for a in asks)


def lazy(fn: Callable[[], Iterable[Any]]) -> Callable[[], tuple[Any, ...]]:
    """Wrap an option builder so a decision builds its options only when asked."""
    return lambda: tuple(fn())
