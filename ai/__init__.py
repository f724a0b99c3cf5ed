"""AI players for the tile game and the card game (issue 30; docs/ai.md).

:func:`choose` answers any decision ``pending()`` opens for a seat, at a level, within a budget,
seeing only what the seat sees (it searches determinised copies: ARCHITECTURE.md decision 16).
:func:`choose_request` does the same from one picklable :class:`Request`, for a worker process.

>>> from engine.carcassonne.rules import new_game, apply
>>> from engine.carcassonne.state import GameSetup
>>> s = new_game(GameSetup(), seed=1)
>>> key, action = choose(s, 0, level="greedy")
>>> apply(s, 0, action, key=key).state.version
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ai.games import rules_of
from ai.levels import DEFAULT_BUDGET, LEVELS
from ai.levels import decide as _decide
from ai.search import Budget
from engine.core.seats import Seat

__all__ = ["LEVELS", "Request", "choose", "choose_request"]


def choose(
    state: Any,
    seat: int,
    *,
    level: str = "strong",
    budget_s: float | None = None,
    seed: int = 0,
    nodes: int | None = None,
) -> tuple[str, Any]:
    """The answer of ``seat`` to its first open decision: ``(decision key, action)``.

    ``state`` is a tile game's ``GameState`` or a card game's ``CardState``. ``budget_s``: CPU
    seconds (default by level: ``DEFAULT_BUDGET``); ``nodes``: a work budget instead, which
    gives the same answer on any machine (tests). Both: the search stops at whichever runs out
    first (a work budget capped by a time limit, as the arena measures play at the default
    budget). The same ``seed`` and budget give the same answer to positions the seat cannot
    tell apart.

    Raises:
        ValueError: an unknown level, or no decision of ``seat`` is open.
        TypeError: ``state`` is no game state.
    """
    rules = rules_of(state)
    if nodes is not None:
        budget = Budget.of(nodes, budget_s)
    else:
        seconds = DEFAULT_BUDGET.get(level, 0.0) if budget_s is None else budget_s
        budget = Budget.of(None, seconds)
    # the version is public: each move gets its own samples, the same for indistinguishable games
    mixed = (seed * 0x9E37_79B9 + _version(state)) & ((1 << 62) - 1)
    return _decide(rules, state, Seat(seat), level=level, budget=budget, seed=mixed)


def _version(state: Any) -> int:
    return int(getattr(state, "version", 0))


@dataclass(frozen=True, slots=True)
class Request:
    """One AI answer to compute, picklable for a worker process (``ProcessPoolExecutor``)."""

    state: Any
    seat: int
    level: str = "strong"
    budget_s: float | None = None
    seed: int = 0
    nodes: int | None = None


def choose_request(request: Request) -> tuple[str, Any]:
    """:func:`choose` for a :class:`Request` (a top-level function: a worker can run it)."""
    return choose(
        request.state,
        request.seat,
        level=request.level,
        budget_s=request.budget_s,
        seed=request.seed,
        nodes=request.nodes,
    )
