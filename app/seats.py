"""Who answers each seat: a person through a front end, or a program — a random mover, an AI
player, a stand-in for a player who left (ARCHITECTURE.md decision 15).

A seat a person plays has no controller: its decisions wait for a click or a typed line. A
seat with a :class:`Controller` is answered by the service itself
(:meth:`app.matches.MatchService.play_controlled`): the front ends only show what it did, so an
AI seat, a random seat of the console and a stand-in need no code in any front end. A
controller answers from what its seat may see: :class:`Controller.answer` is given the
decision and the seat's own view (``view_for(state, seat)``); a controller that searches (an
AI) is also given the state, which it must only read through a determinisation that depends on
nothing its seat cannot see.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Protocol

from engine import Action
from engine.carcassonne.randomplay import choose_answer
from engine.core import messages
from engine.core.decisions import Decision, auto_decide
from engine.core.rng import Rng
from engine.core.seats import Seat

#: the levels a host picks for an AI seat, and the AI level each plays (``ai.LEVELS``);
#: ``random`` is the console's old opponent
LEVELS = {"easy": "greedy", "normal": "normal", "strong": "strong", "random": "random"}
#: the level of the AI that stands in for a player who is away
STAND_IN_LEVEL = "normal"
#: a seat row's ``controller``: ``ai:<level>`` (an AI seat) or ``away:<level>`` (a player's
#: seat an AI plays until they take it back)
AI, AWAY = "ai", "away"

messages.register({"seat.ai": ("AI {n}", "IA {n}")})
messages.register_lang("de", {"seat.ai": "KI {n}"})


class Controller(Protocol):
    """A program that answers one seat's decisions."""

    @property
    def kind(self) -> str:
        """What plays the seat ("random", "ai:strong", "stand-in" ...)."""
        ...

    async def answer(self, state: Any, seat: Seat, decision: Decision) -> tuple[str, Any]:
        """The seat's answer: the key of the open decision it answers (``decision``, or
        another open decision of ``seat`` it prefers to answer first) and the action; ``state``
        is a tile game's ``GameState`` or a card game's ``CardState``."""
        ...


@dataclass
class RandomMover:
    """Answers uniformly at random among the options (the console's opponents; one generator
    shared by every seat it plays, so a seeded table replays its choices exactly)."""

    rng: Rng
    kind: str = "random"

    async def answer(self, state: Any, seat: Seat, decision: Decision) -> tuple[str, Any]:
        return decision.key, choose_answer(decision, self.rng)


@dataclass(frozen=True)
class StandIn:
    """Answers as the service does for a resigned seat: pass when allowed, else the first
    option (the first cell and rotation in numbering order)."""

    kind: str = "stand-in"

    async def answer(self, state: Any, seat: Seat, decision: Decision) -> tuple[str, Any]:
        return decision.key, auto_decide(decision)


class SharedThinking:
    """The AI processes are shared by every AI turn in flight. When more searches run than
    there are processes, a search given its whole budget would wait in the queue behind the
    others, and a player would wait several budgets for the AI's move; instead each search
    gets its share: ``budget × processes / searches in flight``, never below
    :data:`MIN_SHARE` of it. One table against an AI thinks its full budget; ten at once on a
    two-core box think less each, and every AI turn still takes about its budget."""

    def __init__(self) -> None:
        self.in_flight = 0

    def budget(self, full: float, executor: Executor | None) -> float:
        """The budget of a search about to start (``full``: the level's)."""
        processes = getattr(executor, "_max_workers", 1) or 1
        searches = self.in_flight + 1
        return full * max(MIN_SHARE, min(1.0, processes / searches))


#: the least share of its budget a search gets however many AI turns are in flight
MIN_SHARE = 0.2
#: the searches in flight in this process (one bot process shares its AI processes)
THINKING = SharedThinking()


@dataclass
class AiController:
    """An AI player (the ``ai`` package) at ``level`` (:data:`LEVELS`), thinking for at most
    ``seconds`` of CPU a move (None: the level's default) in ``executor`` — worker processes
    in the bot, so a search never holds up the event loop; None: a thread of this process."""

    level: str
    seconds: float | None = None
    seed: int = 0
    executor: Executor | None = None

    @property
    def kind(self) -> str:
        return f"{AI}:{self.level}"

    async def answer(self, state: Any, seat: Seat, decision: Decision) -> tuple[str, Any]:
        from ai import Request, choose_request
        from ai.levels import DEFAULT_BUDGET

        level = LEVELS.get(self.level, self.level)
        full = self.seconds if self.seconds is not None else DEFAULT_BUDGET.get(level, 0.0)
        budget = THINKING.budget(full, self.executor) if full > 0 else None
        request = Request(state, int(seat), level=level, budget_s=budget, seed=self.seed)
        loop = asyncio.get_running_loop()
        THINKING.in_flight += 1
        try:
            key, action = await loop.run_in_executor(self.executor, choose_request, request)
        finally:
            THINKING.in_flight -= 1
        return key, action


def parse_controller(text: str | None) -> tuple[str, str] | None:
    """``"ai:strong"`` -> ``("ai", "strong")``; None for a person's seat (or an unknown
    text: a person plays it, never a guess)."""
    if not text or ":" not in text:
        return None
    kind, level = text.split(":", 1)
    if kind not in (AI, AWAY) or level not in LEVELS:
        return None
    return kind, level


@dataclass(frozen=True, slots=True)
class Played:
    """A decision a controller answered, the action it chose, and the match afterwards."""

    decision: Decision
    action: Action
    #: the game's outcome (:class:`app.results.Outcome`, or the card game's ``CardOutcome``)
    outcome: Any


class SeatControllers:
    """The controllers of every match's program seats, by match and user id (program seats
    have user ids ≤ 0). Bounded by the matches being played: a finished match's are dropped."""

    def __init__(self) -> None:
        self._by_match: dict[int, dict[int, Controller]] = {}

    def set(self, match_id: int, user_id: int, controller: Controller | None) -> None:
        """``user_id``'s seat in ``match_id`` is answered by ``controller`` (``None``: by a
        person again)."""
        seats = self._by_match.setdefault(match_id, {})
        if controller is None:
            seats.pop(user_id, None)
        else:
            seats[user_id] = controller

    def of(self, match_id: int, user_id: int) -> Controller | None:
        return self._by_match.get(match_id, {}).get(user_id)

    def controlled(self, match_id: int, users: Sequence[int]) -> list[int]:
        """The users among ``users`` whose seats a program answers."""
        seats = self._by_match.get(match_id, {})
        return [u for u in users if u in seats]

    def forget(self, match_id: int) -> None:
        self._by_match.pop(match_id, None)
