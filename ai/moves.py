"""Moves: every answer to any decision, and a seat's whole turn as a chain of answers.

Answers come from the generic :class:`~engine.core.decisions.Decision` alone (its options, a
pass, a few numbers of a range), so a decision no AI code knows is answered legally. A *turn*
chains the answers a seat gives while nothing is revealed and the seat is still asked (place a
tile, then deploy on it): the search compares whole turns, and the first answer is played.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ai.games import Rules
from engine.core.decisions import Decision, IntRange
from engine.core.errors import EngineError
from engine.core.seats import Seat

#: offsets above a range's minimum tried for a number (a bid a little above the price)
NUMBER_STEPS = (0, 1, 2, 4, 8)
#: at most this many turns are listed for one decision (the first answers in option order)
MAX_TURNS = 600
#: at most this many answers chained in one turn
MAX_CHAIN = 4


def numbers(r: IntRange) -> list[int]:
    """The numbers of ``r`` the AI considers."""
    out = []
    for k in NUMBER_STEPS:
        n = r.min + k
        if r.max is None or n <= r.max:
            out.append(n)
    return out


def answers(d: Decision) -> list[Any]:
    """Every answer the AI considers for ``d``: each option's action, a few numbers of a
    numeric option, and passing when allowed."""
    out: list[Any] = []
    for o in d.options:
        if o.number is None:
            out.append(o.action)
        else:
            out.extend(o.action_for(n) for n in numbers(o.number))
    if d.optional and d.pass_action is not None:
        out.append(d.pass_action)
    return out


def own(rules: Rules, state: Any, seat: Seat) -> Decision | None:
    """The first open decision of ``seat`` (``None``: it is not asked)."""
    for d in rules.pending(state):
        if d.seat == seat:
            return d
    return None


@dataclass(frozen=True, slots=True)
class Turn:
    """A chain of answers of one seat: ``steps`` are ``(decision key, action)`` pairs in
    order, ``state`` the state after them."""

    steps: tuple[tuple[str, Any], ...]
    state: Any


def turns(
    rules: Rules,
    state: Any,
    seat: Seat,
    first: Decision,
    *,
    limit: int = MAX_TURNS,
    keep: Callable[[Decision], bool] | None = None,
) -> list[Turn]:
    """Every turn of ``seat`` starting with an answer to ``first``: answers chained while the
    seat is asked again and nothing was revealed (at most ``limit`` turns)."""
    out: list[Turn] = []

    def walk(s: Any, d: Decision, steps: tuple[tuple[str, Any], ...]) -> None:
        for a in answers(d):
            if len(out) >= limit:
                return
            try:
                after = rules.apply(s, seat, a, d.key)
            except EngineError:
                continue  # an answer the AI built that the rules refuse (a number too high)
            chain = (*steps, (d.key, a))
            nxt = None
            if len(chain) < MAX_CHAIN and d.group is None and not rules.revealed(state, after):
                nxt = own(rules, after, seat)
                if nxt is not None and (nxt.group is not None or (keep and not keep(nxt))):
                    nxt = None
            if nxt is None:
                out.append(Turn(chain, after))
            else:
                walk(after, nxt, chain)

    walk(state, first, ())
    return out


def replay(rules: Rules, state: Any, seat: Seat, steps: tuple[tuple[str, Any], ...]) -> Any:
    """``state`` after ``seat`` answers ``steps`` (a turn found on another determinisation:
    the answers are the same, what they reveal may differ). ``None`` if one is refused."""
    s = state
    for key, action in steps:
        try:
            s = rules.apply(s, seat, action, key)
        except EngineError:
            return None
    return s
