"""A random legal player: whole seeded games for simulations, benchmarks and property tests.

The player answers whatever :func:`~engine.carcassonne.rules.pending` opens, knowing no decision
kind: it picks uniformly among the options of the first open decision (plus passing when the
decision may be passed; a number uniformly among the lowest of its range). The choices come
from their own generator derived from the seed, so a seed fixes the whole game: the shuffle
and every choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.actions import Action
from engine.carcassonne.record import GameRecord, Recorder
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameSetup, GameState
from engine.core.decisions import Decision
from engine.core.errors import IllegalActionError
from engine.core.rng import Rng
from engine.core.seats import Seat

#: a number is picked among the first NUMBER_SPAN + 1 of its range: a bid a little above the
#: last one, as players bid (uniform up to the maximum bid sank random market games into
#: large negative scores)
NUMBER_SPAN = 10

#: Mixed into the seed so the choice stream differs from the pile's shuffle stream.
CHOICE_SALT = 0x5EED_C401_CE5


@dataclass(frozen=True, slots=True)
class RandomGame:
    """A finished random game: its record and final state."""

    record: GameRecord
    state: GameState

    @property
    def scores(self) -> tuple[int, ...]:
        return self.state.scores

    @property
    def tiles_placed(self) -> int:
        return len(self.state.board.cells) - 1

    @property
    def tiles_discarded(self) -> int:
        return len(self.state.discarded)


def choose_move(state: GameState, rng: Rng) -> tuple[Seat, Action]:
    """A uniformly random answer to the first open decision, with the seat that gives it
    (the game must not be over)."""
    d = pending(state)[0]
    return d.seat, choose_answer(d, rng)


def choose_action(state: GameState, rng: Rng) -> Action:
    """A uniformly random answer to the first open decision (see :func:`choose_move`)."""
    return choose_move(state, rng)[1]


def choose_answer(d: Decision, rng: Rng) -> Action:
    """A uniformly random answer to ``d``: an option, or passing when allowed."""
    answers = d.answer_seq()
    n = len(answers) + (1 if d.optional and d.pass_action is not None else 0)
    if n == 0:
        raise IllegalActionError(f"decision {d.key} has no answer")
    i = rng.below(n)
    if i == len(answers):
        action: Action = d.pass_action
        return action
    if answers[i] is not None:
        return answers[i]  # type: ignore[no-any-return]
    o = d.options[i]
    if o.number is not None:
        lo = o.number.min
        hi = o.number.max if o.number.max is not None else lo + NUMBER_SPAN
        hi = min(hi, lo + NUMBER_SPAN)
        return o.action_for(lo + rng.below(hi - lo + 1))  # type: ignore[no-any-return]
    return o.action  # type: ignore[no-any-return]


def play_random_game(setup: GameSetup, seed: int, *, max_moves: int = 100_000) -> RandomGame:
    """Play a whole game with random legal moves; ``seed`` fixes the pile and every choice.

    Raises:
        IllegalActionError: for an impossible setup.
    """
    rec = Recorder(setup, seed)
    rng = Rng(seed ^ CHOICE_SALT)
    for _ in range(max_moves):
        state = rec.state
        if state.over:
            break
        seat, action = choose_move(state, rng)
        rec.apply(seat, action)
    return RandomGame(rec.record(), rec.state)
