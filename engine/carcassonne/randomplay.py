"""A random legal player: whole seeded games for simulations, benchmarks and property tests.

Each turn the player picks uniformly among every legal (cell, rotation) placement, then uniformly
among the legal deploys plus passing. The choices come from their own generator derived from the
seed, so a seed fixes the whole game: the shuffle and every choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.actions import Action, Pass, PlaceTile
from engine.carcassonne.record import GameRecord, Recorder
from engine.carcassonne.rules import legal_deploys, legal_placements
from engine.carcassonne.state import GameSetup, GameState
from engine.core.rng import Rng

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


def choose_action(state: GameState, rng: Rng) -> Action:
    """A uniformly random legal action for the seat to move (the game must not be over)."""
    if state.step == "place":
        options: list[Action] = [
            PlaceTile(pos, rot)
            for pos, rots in sorted(legal_placements(state).items(), key=_cell_order)
            for rot in rots
        ]
    else:
        options = [*legal_deploys(state), Pass()]
    return options[rng.below(len(options))]


def _cell_order(item: tuple[tuple[int, int], object]) -> tuple[int, int]:
    x, y = item[0]
    return (y, x)


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
        rec.apply(state.current, choose_action(state, rng))
    return RandomGame(rec.record(), rec.state)
