"""Random legal card games, for ``carcabot simulate --game cards``, tests and benchmarks."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cardgame.actions import CardAction
from engine.cardgame.rules import apply, legal_actions, new_game
from engine.cardgame.state import CardSetup, CardState
from engine.core.rng import Rng
from engine.core.seats import Seat

#: Mixed into the game seed for the move choices, so moves and shuffle are independent.
_MOVES_SALT = 0x6A09E667F3BCC908


@dataclass(frozen=True, slots=True)
class CardGameResult:
    """The outcome of one game: final scores by seat, rounds played, the winner(s), the tie-break
    counts, and the whole action log as ``(seat, notation)`` pairs (replayable with the seed)."""

    players: int
    seed: int
    scores: tuple[int, ...]
    rounds: int
    winners: tuple[Seat, ...]
    building_cards: tuple[int, ...]
    actions: tuple[tuple[Seat, str], ...]

    @property
    def setup(self) -> CardSetup:
        return CardSetup(players=self.players)


def random_game(players: int, seed: int) -> tuple[CardState, list[tuple[Seat, CardAction]]]:
    """Play a random legal game; return the final state and the action log.

    The lowest awaiting seat moves first when several are awaited (scoring choices).
    """
    state = new_game(CardSetup(players=players), seed=seed)
    rng = Rng(seed ^ _MOVES_SALT)
    log: list[tuple[Seat, CardAction]] = []
    while state.awaiting:
        seat = min(state.awaiting)
        options = legal_actions(state, seat)
        action = options[rng.below(len(options))]
        log.append((seat, action))
        state = apply(state, seat, action).state
    return state, log


def play_random(players: int, seed: int) -> CardGameResult:
    """Play one random legal card game with ``players`` seats (2–5) from ``seed``.

    Raises:
        IllegalActionError: for a player count outside 2–5.
    """
    state, log = random_game(players, seed)
    return CardGameResult(
        players=players,
        seed=seed,
        scores=state.scores,
        rounds=state.round,
        winners=state.winners,
        building_cards=tuple(len(c) for c in state.chests),
        actions=tuple((seat, a.notation()) for seat, a in log),
    )
