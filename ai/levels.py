"""The levels: what each does with one open decision of its seat (docs/ai.md, "Levels").

* ``random``: a uniformly random answer (:mod:`engine.carcassonne.randomplay`'s rule);
* ``greedy``: one ply, :func:`ai.evaluate.simple_values` (card game: the immediate points);
* ``normal``: one ply, :func:`ai.evaluate.full_values` (card game: a short Monte Carlo);
* ``strong``: the search of :func:`ai.search.strong_turn` (card game: a longer Monte Carlo).

Every level works on a determinised copy (:class:`ai.search.Dets`), never on the real state.
"""

from __future__ import annotations

from typing import Any

from ai.determinise import Dets
from ai.evaluate import full_values, margin, simple_values
from ai.games import CARDS, Rules
from ai.moves import answers, own
from ai.search import Budget, Judge, best_turn, card_search, strong_turn
from engine.carcassonne.randomplay import choose_answer
from engine.core.rng import Rng
from engine.core.seats import Seat

LEVELS = ("random", "greedy", "normal", "strong")
#: default CPU seconds per answer at each level
DEFAULT_BUDGET = {"random": 0.0, "greedy": 0.0, "normal": 0.5, "strong": 2.0}
#: how many turns the strong search looks at beyond the first ranking
STRONG_WIDTH = 8
#: the strong player's evaluation of a position from every seat's values
STRONG_JUDGE: Judge = margin
#: at most this many other seats' turns in a strong rollout (``None``: all, then its own)
STRONG_REPLIES: int | None = None
#: candidates are cut to those that can each get this many samples (0: no cut)
STRONG_MIN_SAMPLES = 0
#: from this many players on, the other seats' replies in a strong rollout are chosen by the
#: greedy player's evaluation (``simple_values``) instead of the full one (None: never). At 4
#: players the full one is a poor model of the others (its closing chances are 2-player ones):
#: 38.3 % wins against greedy players over 60 fresh games with it, 31.4 % without (BENCHMARKS)
STRONG_GREEDY_REPLIES_FROM: int | None = 4


def decide(
    rules: Rules,
    state: Any,
    seat: Seat,
    *,
    level: str,
    budget: Budget,
    seed: int,
) -> tuple[str, Any]:
    """The seat's answer ``(decision key, action)`` at ``level`` (see the module doc).

    Raises:
        ValueError: an unknown level, or no decision of ``seat`` is open."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")
    dets = Dets(rules, state, seat, seed)
    root = dets[0]
    d = own(rules, root, seat)
    if d is None:
        raise ValueError(f"seat {seat} has no open decision")
    rng = Rng(seed ^ 0xA1A1_5EED)
    if level == "random":
        return d.key, choose_answer(d, rng)
    if rules is CARDS:
        if level == "greedy":
            return _card_greedy(rules, root, seat, rng)
        return card_search(rules, dets, seat, rng, budget)
    if level == "greedy":
        t = best_turn(rules, root, seat, d, simple_values, budget)
    elif level == "normal":
        t = best_turn(rules, root, seat, d, full_values, budget)
    else:
        t = strong_turn(
            rules,
            dets,
            seat,
            d,
            full_values,
            budget,
            width=STRONG_WIDTH,
            replies=STRONG_REPLIES,
            min_samples=STRONG_MIN_SAMPLES,
            judge=STRONG_JUDGE,
            others=simple_values if _greedy_replies(rules, root) else None,
        )
    return t.steps[0]


def _greedy_replies(rules: Rules, state: Any) -> bool:
    """Whether the strong search models the other seats' replies as greedy ones here."""
    start = STRONG_GREEDY_REPLIES_FROM
    return start is not None and len(rules.scores(state)) >= start


def _card_greedy(rules: Rules, state: Any, seat: Seat, rng: Rng) -> tuple[str, Any]:
    """The answer with the best immediate score margin (ties: one drawn from ``rng``)."""
    moves = [(x.key, a) for x in rules.pending(state) if x.seat == seat for a in answers(x)]
    best: list[tuple[str, Any]] = []
    best_v = float("-inf")
    for key, action in moves:
        after = rules.apply(state, seat, action, key)
        v = margin([float(s) for s in rules.scores(after)], seat)
        if v > best_v:
            best, best_v = [(key, action)], v
        elif v == best_v:
            best.append((key, action))
    return best[rng.below(len(best))]
