"""Random legal card games, for ``carcabot simulate --game cards``, tests and benchmarks."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cardgame.actions import CardAction
from engine.cardgame.decisions import pending
from engine.cardgame.rules import apply, new_game
from engine.cardgame.state import CardSetup, CardState
from engine.core.decisions import Option
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

    Moves are chosen through :func:`engine.cardgame.decisions.pending`, as every front end
    chooses: the lowest seat with an open decision answers first (scoring choices await
    several seats), picking uniformly among all the answers to its open decisions.
    """
    state = new_game(CardSetup(players=players), seed=seed)
    rng = Rng(seed ^ _MOVES_SALT)
    log: list[tuple[Seat, CardAction]] = []
    while True:
        decisions = pending(state)
        if not decisions:
            break
        seat = decisions[0].seat
        # uniform over every answer of the seat's open decisions (card-game decisions have
        # neither numbers nor a pass)
        options: list[Option] = []
        for d in decisions:
            if d.seat == seat:
                options += d.options
        action: CardAction = options[rng.below(len(options))].action
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
