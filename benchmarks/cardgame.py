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


def time_games(players: int, games: int) -> tuple[list[float], int]:
    """Wall time (ms) of each random game, and the total number of actions applied."""
    times: list[float] = []
    actions = 0
    for seed in range(games):
        t0 = time.perf_counter()
        _, log = random_game(players, seed)
        times.append((time.perf_counter() - t0) * 1000)
        actions += len(log)
    return times, actions


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
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}; {args.games} games each")
    print("players  mean ms  median ms  p95 ms  max ms  actions/game  µs/apply")
    for players in range(2, 6):
        times, actions = time_games(players, args.games)
        p95 = sorted(times)[int(0.95 * (len(times) - 1))]
        per_apply = time_apply_only(players, max(20, args.games // 10))
        print(
            f"{players:>7}  {statistics.mean(times):7.2f}  {statistics.median(times):9.2f}"
            f"  {p95:6.2f}  {max(times):6.2f}  {actions / args.games:12.1f}  {per_apply:8.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
