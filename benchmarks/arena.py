"""AI against AI: seat-swapped games on the same shuffled piles, so luck cancels (issue 30).

Run from the repository root with the project's virtualenv::

    python benchmarks/arena.py --games 200 --a strong --b greedy --budget 0.5
    python benchmarks/arena.py --games 40 --players 3 --expansions all --nodes 400
    python benchmarks/arena.py --games 100 --card-game --a strong --b random

One player at level ``--a`` sits with ``--players`` - 1 players at level ``--b``. Each seed is
played once with ``a`` in every seat (2 players: both seat orders), on the same pile. A win is
the best final score (a shared best counts as a share); the Wilson 95 % interval of ``a``'s win
rate, its fair share (1 / players) and the mean margin (``a``'s score less the best other's)
are printed. ``--budget`` is CPU seconds per answer; ``--nodes`` a work budget instead (the
same answers on any machine); both: the work budget, each answer stopped at the CPU seconds if
they come first (the level's default budget, e.g. ``--nodes 15000 --budget 2``).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import choose  # noqa: E402
from engine.carcassonne import rules as tile_rules  # noqa: E402
from engine.carcassonne.registry import all_expansions  # noqa: E402
from engine.carcassonne.state import GameSetup  # noqa: E402
from engine.cardgame import rules as card_rules  # noqa: E402
from engine.cardgame.decisions import pending as card_pending  # noqa: E402
from engine.cardgame.state import CardSetup  # noqa: E402


@dataclass(frozen=True, slots=True)
class Game:
    """One arena game: the seed of its pile, where ``a`` sits, and how everyone plays."""

    seed: int
    a_seat: int
    players: int
    expansions: tuple[str, ...]
    a: str
    b: str
    budget: float | None
    nodes: int | None
    cards: bool


#: one game's result: a's seat, the final scores, the game's CPU seconds, and a's answers: how
#: many, their CPU seconds in all and the longest
Result = tuple[int, tuple[int, ...], float, int, float, float]


def play(g: Game) -> Result | str:
    """Play ``g`` (see :data:`Result`), or what went wrong."""
    try:
        return _play(g)
    except Exception as e:  # one broken game is reported, the others still count
        return f"seed {g.seed}, a at seat {g.a_seat}: {type(e).__name__}: {e}"


def _play(g: Game) -> Result:
    t0 = time.process_time()
    a_n, a_cpu, a_max = 0, 0.0, 0.0
    state: Any
    if g.cards:
        state = card_rules.new_game(CardSetup(players=g.players), seed=g.seed)
    else:
        setup = GameSetup(players=g.players, expansions=g.expansions)
        state = tile_rules.new_game(setup, seed=g.seed)
    while not state.over:
        pend = card_pending(state) if g.cards else tile_rules.pending(state)
        seat = pend[0].seat
        level = g.a if seat == g.a_seat else g.b
        t = time.process_time()
        key, action = choose(
            state, seat, level=level, budget_s=g.budget, nodes=g.nodes, seed=g.seed * 7 + seat
        )
        if seat == g.a_seat:
            spent = time.process_time() - t
            a_n, a_cpu, a_max = a_n + 1, a_cpu + spent, max(a_max, spent)
        if g.cards:
            state = card_rules.answer(state, seat, key, action).state
        else:
            state = tile_rules.apply(state, seat, action, key=key).state
    return g.a_seat, tuple(state.scores), time.process_time() - t0, a_n, a_cpu, a_max


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def expansions_arg(text: str) -> tuple[str, ...]:
    if text in ("", "base"):
        return ()
    if text == "all":
        return tuple(c.id for c in all_expansions())
    return tuple(t for t in text.split(",") if t)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games in all (seat orders included)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--expansions", default="base", help="base, all, or ids joined by commas")
    ap.add_argument("--a", default="strong", help="the level measured")
    ap.add_argument("--b", default="greedy", help="the level of every other seat")
    ap.add_argument("--budget", type=float, default=None, help="CPU seconds per answer")
    ap.add_argument(
        "--nodes",
        type=int,
        default=None,
        help="a work budget per answer (with --budget: capped by that many CPU seconds)",
    )
    ap.add_argument("--card-game", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--log", default="", help="append each game's result here (a JSON line)")
    ap.add_argument(
        "--summary", default="", help="only print the summary of a --log file (a stopped run)"
    )
    args = ap.parse_args(argv)
    if args.summary:
        report(args, from_log(args.summary), 0.0)
        return
    exps = expansions_arg(args.expansions)
    games = [
        Game(
            args.seed + k // args.players,
            k % args.players,
            args.players,
            exps,
            args.a,
            args.b,
            args.budget,
            args.nodes,
            args.card_game,
        )
        for k in range(args.games)
    ]
    t0 = time.time()
    results: list[Result | str] = []
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    with multiprocessing.Pool(args.jobs) as pool:
        for g, r in zip(games, pool.imap(play, games, chunksize=1), strict=True):
            results.append(r)
            if log is not None:  # one line a game: a stopped run still tells what it played
                log.write(json.dumps({"seed": g.seed, "a_seat": g.a_seat, "result": r}) + "\n")
                log.flush()
    if log is not None:
        log.close()
    report(args, results, time.time() - t0)


def from_log(path: str) -> list[Result | str]:
    """The results a ``--log`` file holds (one JSON line a game; older plain lines are skipped)."""
    out: list[Result | str] = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.startswith("{"):
            continue
        r = json.loads(line)["result"]
        out.append(r if isinstance(r, str) else (r[0], tuple(r[1]), r[2], r[3], r[4], r[5]))
    return out


def report(args: argparse.Namespace, results: list[Result | str], wall: float) -> None:
    """Print the win rate with its Wilson interval, the margin and the CPU of ``a``'s answers."""
    wins = 0.0
    margins: list[int] = []
    cpu = 0.0
    a_n, a_cpu, a_max = 0, 0.0, 0.0
    errors = [r for r in results if isinstance(r, str)]
    for e in errors:
        print("error:", e)
    played = [r for r in results if not isinstance(r, str)]
    for a_seat, scores, spent, n_answers, answers_cpu, longest in played:
        a_n, a_cpu, a_max = a_n + n_answers, a_cpu + answers_cpu, max(a_max, longest)
        best = max(scores)
        if scores[a_seat] == best:
            wins += 1 / scores.count(best)
        margins.append(scores[a_seat] - max(s for i, s in enumerate(scores) if i != a_seat))
        cpu += spent
    n = len(played)
    lo, hi = wilson(wins, n)
    mean = sum(margins) / n
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / max(1, n - 1))
    what = "card game" if args.card_game else (args.expansions or "base")
    budget = f"{args.nodes} nodes" if args.nodes is not None else f"{args.budget} s"
    if args.nodes is not None and args.budget is not None:
        budget += f", at most {args.budget} s"
    print(f"{args.a} vs {args.b}, {args.players} players, {what}, budget {budget}, {n} games")
    print(
        f"  {args.a} wins {wins:g}/{n} = {wins / n:.1%} (Wilson 95 % {lo:.1%}–{hi:.1%}); "
        f"fair share {1 / args.players:.1%} ({wins / n * args.players:.2f}x)"
    )
    print(
        f"  mean margin {mean:+.1f} points (sd {sd:.1f}, ±{1.96 * sd / math.sqrt(n):.1f}); "
        f"{cpu:.0f} CPU s, {wall:.0f} s wall"
    )
    print(
        f"  {args.a}'s answers: {a_n}, {a_cpu / max(1, a_n):.3f} CPU s each on average, "
        f"{a_max:.3f} s at most"
    )


if __name__ == "__main__":
    main()
