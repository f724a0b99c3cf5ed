"""CPU seconds per strong AI answer in all-expansion positions (issue 30: the evaluation's speed).

Plays greedy answers to a given move of a few 2-player games with every expansion, then times
``choose(state, seat, level="strong", nodes=N, seed=3)`` on each of the next four answers
(``time.process_time``). A node budget gives the same answers on any machine, so two commits'
figures compare their speed only. ``--tree DIR`` imports ``engine`` and ``ai`` from another
checkout's files (e.g. ``git archive <commit> engine ai | tar -x -C DIR``)::

    nice -n 19 python benchmarks/ai_answer.py
    nice -n 19 python benchmarks/ai_answer.py --tree /tmp/old
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# run as a script, this folder comes first on sys.path and its engine.py would shadow the package
_ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [str(_ROOT)] + [
    p for p in sys.path if Path(p or ".").resolve() != _ROOT / "benchmarks"
]

#: (seed, moves played by greedy before the four timed answers)
POSITIONS = ((7, 80), (8, 30), (9, 200))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nodes", type=int, default=3000)
    ap.add_argument("--tree", default="", help="import engine and ai from this directory")
    args = ap.parse_args(argv)
    if args.tree:
        sys.path.insert(0, args.tree)
    from ai import choose
    from engine.carcassonne import rules
    from engine.carcassonne.registry import all_expansions
    from engine.carcassonne.state import GameSetup

    every = tuple(c.id for c in all_expansions())
    total, n = 0.0, 0
    for seed, moves in POSITIONS:
        s = rules.new_game(GameSetup(players=2, expansions=every), seed=seed)
        for i in range(moves + 4):
            if s.over:
                break
            d = rules.pending(s)[0]
            if i >= moves:
                t = time.process_time()
                choose(s, d.seat, level="strong", nodes=args.nodes, seed=3)
                total += time.process_time() - t
                n += 1
            key, action = choose(s, d.seat, level="greedy", seed=1)
            s = rules.apply(s, d.seat, action, key=key).state
    print(f"{n} strong answers at {args.nodes} nodes: {total / n:.3f} CPU s each")


if __name__ == "__main__":
    main()
