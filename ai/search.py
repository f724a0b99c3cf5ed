"""The searches: one-ply choice, the strong tile-game search, and the card-game Monte Carlo.

Every search runs on determinised copies (:class:`ai.determinise.Dets`), counts its work in *nodes*
(answers applied plus positions evaluated) and stops at a :class:`Budget`: a node count (tests:
the same answer on every machine) or a CPU-time deadline (play).

Strong tile search (docs/ai.md): the turns of the seat are ranked by the evaluation; the best
``width`` go on to successive halving, where each is played on the same series of
determinisations, the next seats answer with their own one-ply choice until the seat's next turn,
the seat takes its own next tile the same way, and the position is evaluated. Each round keeps the
better half; the samples per candidate of the next round are planned so that the rounds left
share what remains of the budget, at the cost per sample seen so far.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ai.determinise import Dets
from ai.evaluate import margin
from ai.games import Rules
from ai.moves import Turn, answers, replay, turns
from engine.core.decisions import Decision
from engine.core.rng import Rng
from engine.core.seats import Seat

#: values of every seat in a position (an evaluation)
Values = Callable[[Any], list[float]]
#: a seat's evaluation of a position from every seat's values (:func:`ai.evaluate.margin`)
Judge = Callable[[Sequence[float], Seat], float]


@dataclass(slots=True)
class Budget:
    """Work allowed: ``nodes`` (deterministic) or a ``process_time`` deadline, or both."""

    nodes: int | None = None
    deadline: float | None = None
    used: int = 0
    start: float = 0.0

    @classmethod
    def of(cls, nodes: int | None, seconds: float | None) -> Budget:
        now = time.process_time()
        deadline = None if seconds is None else now + seconds
        return cls(nodes, deadline, 0, now)

    def spend(self, n: int = 1) -> None:
        self.used += n

    @property
    def out(self) -> bool:
        if self.nodes is not None and self.used >= self.nodes:
            return True
        return self.deadline is not None and time.process_time() >= self.deadline

    def fraction(self) -> float:
        """How much of the budget is spent, 0 to 1 (1 with no limit: nothing to plan for)."""
        parts = []
        if self.nodes is not None:
            parts.append(self.used / max(1, self.nodes))
        if self.deadline is not None:
            total = self.deadline - self.start
            parts.append((time.process_time() - self.start) / total if total > 0 else 1.0)
        return min(1.0, max(parts)) if parts else 1.0


def best_turn(
    rules: Rules,
    state: Any,
    seat: Seat,
    d: Decision,
    values: Values,
    budget: Budget,
    judge: Judge = margin,
) -> Turn:
    """The seat's turn with the best evaluation (``judge``) one ply ahead (ties: the first)."""
    options = turns(rules, state, seat, d)
    budget.spend(len(options))
    best, best_v = options[0], float("-inf")
    for t in options:
        v = judge(values(t.state), seat)
        if v > best_v:
            best, best_v = t, v
    budget.spend(len(options))
    return best


def rollout(
    rules: Rules,
    state: Any,
    seat: Seat,
    values: Values,
    budget: Budget,
    plies: int,
    judge: Judge = margin,
    others: Values | None = None,
) -> float:
    """Play on from ``state``: each seat asked takes its one-ply best turn, until ``seat`` has
    taken one more turn (or ``plies`` turns were taken); ``judge`` of the seat's values then.
    ``others``: the evaluation the other seats' turns are chosen by (``None``: ``values``)."""
    s = state
    theirs = values if others is None else others
    for _ in range(plies):
        if rules.over(s):
            break
        pend = rules.pending(s)
        if not pend:
            break
        d = pend[0]
        # the others as one-ply players with their evaluation; the seat as it judges
        mine = d.seat == seat
        s = best_turn(
            rules, s, d.seat, d, values if mine else theirs, budget, judge if mine else margin
        ).state
        if d.seat == seat:
            break
    budget.spend()
    return judge(values(s), seat)


def lookahead_plies(players: int, replies: int | None) -> int:
    """Turns a strong rollout plays after the candidate: the other seats' replies (all of
    them, or at most ``replies``), then the seat's own next turn if the replies reach it (all:
    ``players + 1``, a turn to spare)."""
    if replies is None or replies >= players - 1:
        return players + 1
    return replies


def strong_turn(
    rules: Rules,
    dets: Dets,
    seat: Seat,
    d: Decision,
    values: Values,
    budget: Budget,
    *,
    width: int,
    replies: int | None = None,
    min_samples: int = 0,
    judge: Judge = margin,
    others: Values | None = None,
) -> Turn:
    """The strong search (see the module doc). ``replies``: at most this many other seats'
    turns in a rollout (``None``: all, then the seat's own); ``min_samples``: with this more
    than 0, the candidates are cut to as many as can each get that many samples in the first
    round at the first rollout's cost; ``judge``: the seat's evaluation of a position;
    ``others``: the evaluation the other seats' replies are chosen by (``None``: ``values``)."""
    root = dets[0]
    options = turns(rules, root, seat, d)
    budget.spend(len(options))
    if len(options) == 1:
        return options[0]
    static = [judge(values(t.state), seat) for t in options]
    budget.spend(len(options))
    order = sorted(range(len(options)), key=lambda i: -static[i])
    pool = order[:width]
    total = {i: 0.0 for i in pool}
    count = {i: 0 for i in pool}
    plies = lookahead_plies(len(rules.scores(root)), replies)

    def sample(i: int) -> None:
        after = replay(rules, dets[count[i]], seat, options[i].steps)
        value = (
            static[i]
            if after is None
            else rollout(rules, after, seat, values, budget, plies, judge, others)
        )
        total[i] += value
        count[i] += 1

    rollouts = 0
    per = 1
    if min_samples > 0 and len(pool) > 1 and not budget.out:
        spent_before = budget.fraction()
        sample(pool[0])
        rollouts = 1
        pool = pool[: _affordable_width(budget, spent_before, len(pool), min_samples)]
        per = min_samples
    first = True
    while not budget.out:
        for i in pool:
            goal = per if first else count[i] + per
            while count[i] < goal and not budget.out:
                sample(i)
                rollouts += 1
        first = False
        if len(pool) == 1 or budget.out:
            break
        pool.sort(key=lambda i: -(total[i] / count[i]))
        pool = pool[: max(1, len(pool) // 2)]
        if len(pool) == 1:
            break
        per = _samples_each(budget, rollouts, len(pool))
    most = max(count.values())
    if most == 0:
        return options[order[0]]
    done = [i for i in total if count[i] == most]
    return options[max(done, key=lambda i: (total[i] / count[i], -order.index(i)))]


def _affordable_width(budget: Budget, before: float, width: int, samples: int) -> int:
    """How many candidates can each get ``samples`` samples from what the budget has left, one
    sample costing what the last one did (it took the budget from ``before`` to now); 2 at
    least (a search compares), ``width`` at most."""
    cost = budget.fraction() - before
    if cost <= 0.0:
        return width
    affordable = (1.0 - budget.fraction()) / cost + 1.0  # the sample already taken counts
    return max(2, min(width, int(affordable / samples)))


def _samples_each(budget: Budget, rollouts: int, pool: int) -> int:
    """Samples per candidate in the next round of successive halving, so that the rounds left
    (one per halving of ``pool``) share what the budget has left at the cost seen so far."""
    spent = budget.fraction()
    if spent <= 0.0 or rollouts == 0:
        return 1
    affordable = (1.0 - spent) * rollouts / spent
    rounds = max(1, math.ceil(math.log2(pool))) if pool > 1 else 1
    return max(1, int(affordable / (rounds * pool)))


def card_playout(rules: Rules, state: Any, seat: Seat, rng: Rng, budget: Budget) -> float:
    """Play random answers until the round ends (or the game); the seat's score margin."""
    s = state
    start = rules.scores(s)
    round_of = getattr(s, "round", 0)
    while not rules.over(s) and getattr(s, "round", 0) == round_of:
        pend = rules.pending(s)
        if not pend:
            break
        who = pend[0].seat
        mine = [(x.key, a) for x in pend if x.seat == who for a in answers(x)]
        key, action = mine[rng.below(len(mine))]
        s = rules.apply(s, who, action, key)
        budget.spend()
    end = rules.scores(s)
    return margin([float(e - b) for e, b in zip(end, start, strict=True)], seat)


def card_search(rules: Rules, dets: Dets, seat: Seat, rng: Rng, budget: Budget) -> tuple[str, Any]:
    """Flat Monte Carlo with UCB1 over the seat's answers (every open decision of it), each
    playout on a fresh determinisation (see :func:`card_playout`)."""
    root = dets[0]
    moves = [(x.key, a) for x in rules.pending(root) if x.seat == seat for a in answers(x)]
    if len(moves) == 1:
        return moves[0]
    total = [0.0] * len(moves)
    count = [0] * len(moves)
    n = 0
    while not budget.out or n < len(moves):
        if n < len(moves):
            i = n
        else:
            log_n = math.log(n)
            i = max(
                range(len(moves)),
                key=lambda k: total[k] / count[k] + 12.0 * (log_n / count[k]) ** 0.5,
            )
        key, action = moves[i]
        det = dets[n % 64]
        after = rules.apply(det, seat, action, key)
        budget.spend()
        total[i] += card_playout(rules, after, seat, rng, budget)
        count[i] += 1
        n += 1
        if budget.nodes is None and budget.deadline is None and n >= 4 * len(moves):
            break
    best = max(range(len(moves)), key=lambda k: (count[k], total[k] / count[k]))
    return moves[best]
