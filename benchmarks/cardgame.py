"""How long one random legal card game takes (target: ≤ 5 ms), per player count.

Run: ``/work/venv/bin/python benchmarks/cardgame.py [--games N]``. Prints figures; asserts
nothing (the figures go in BENCHMARKS.md, "Card game").
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cardgame.rules import apply, legal_actions, new_game  # noqa: E402
from engine.cardgame.sim import random_game  # noqa: E402
from engine.cardgame.state import CardSetup  # noqa: E402
from engine.core.rng import Rng  # noqa: E402


def time_games(
    players: int, games: int, first_seed: int = 0
) -> tuple[list[float], list[float], int]:
    """Wall time and CPU time (ms) of each random game, and the number of actions applied.

    CPU time (this process only) is the steadier figure on a shared machine.
    """
    wall: list[float] = []
    cpu: list[float] = []
    actions = 0
    for seed in range(first_seed, first_seed + games):
        t0, c0 = time.perf_counter(), time.process_time()
        _, log = random_game(players, seed)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        actions += len(log)
    return wall, cpu, actions


def time_apply_only(players: int, games: int) -> float:
    """Microseconds per apply(), excluding move choice (the cost a server pays per command)."""
    total = 0.0
    count = 0
    for seed in range(games):
        state = new_game(CardSetup(players=players), seed=seed)
        rng = Rng(seed)
        while state.awaiting:
            seat = min(state.awaiting)
            options = legal_actions(state, seat)
            action = options[rng.below(len(options))]
            t0 = time.perf_counter()
            state = apply(state, seat, action).state
            total += time.perf_counter() - t0
            count += 1
    return total / count * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per player count")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (best one shown)")
    args = parser.parse_args()
    per_round = max(1, args.games // args.rounds)
    print(
        f"Python {platform.python_version()} on {platform.machine()}; "
        f"{args.rounds} rounds of {per_round} random games per player count"
    )
    print(
        "players  wall ms/game best / median round  CPU ms/game median round  wall p95 ms"
        "  actions/game  µs/apply"
    )
    for players in range(2, 6):
        means: list[float] = []
        cpu_means: list[float] = []
        every: list[float] = []
        actions = 0
        for r in range(args.rounds):
            wall, cpu, n = time_games(players, per_round, first_seed=r * per_round)
            means.append(statistics.mean(wall))
            cpu_means.append(statistics.mean(cpu))
            every += wall
            actions += n
        p95 = sorted(every)[int(0.95 * (len(every) - 1))]
        per_apply = time_apply_only(players, max(20, per_round // 3))
        print(
            f"{players:>7}  {min(means):15.2f} / {statistics.median(means):6.2f}"
            f"  {statistics.median(cpu_means):24.2f}  {p95:11.2f}"
            f"  {actions / len(every):12.1f}  {per_apply:8.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
