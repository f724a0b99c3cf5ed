"""Instructions per random game, counted by valgrind's callgrind: a figure that does not move with
the machine's load, for comparing two versions of the engine side by side.

    python benchmarks/instructions.py                       # this checkout, base game
    python benchmarks/instructions.py --expansions inns_cathedrals,traders_builders
    python benchmarks/instructions.py --tree ../old-checkout  # another checkout (git worktree)

It runs a short script under ``valgrind --tool=callgrind`` twice (1 and 1 + N random 2-player
games with seeds 0..N) and prints the difference divided by N: interpreter start-up and tile
loading cancel out. ``--warm W`` plays W other games first in both runs, so the engine's caches
(per tile, per cell) are as full as in a long run. Needs valgrind (Debian package ``valgrind``).

``--no-gc`` turns the cyclic garbage collector off for the games: a full collection (tens of
millions of instructions, one every few dozen all-expansion games) falls inside the measured
games or not depending on everything allocated since start-up, so comparing both figures shows
how much of a difference is the collector's timing rather than the engine's work.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPT = """
import gc
import sys
from engine import GameSetup, play_random_game
exps = tuple(e for e in sys.argv[1].split(",") if e)
setup = GameSetup(expansions=exps)
if sys.argv[4] == "nogc":
    gc.disable()
for i in range(int(sys.argv[3])):  # warm-up games (other seeds): caches filled in both runs
    play_random_game(setup, 1000 + i)
for i in range(int(sys.argv[2])):
    play_random_game(setup, i)
"""


def count(tree: Path, expansions: str, games: int, warm: int = 0, gc: bool = True) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "games.py"
        script.write_text(SCRIPT)
        env = dict(os.environ, PYTHONPATH=str(tree))
        out = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                sys.executable,
                str(script),
                expansions,
                str(games),
                str(warm),
                "gc" if gc else "nogc",
            ],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    m = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if m is None:
        raise SystemExit(f"no callgrind total in the output:\n{out.stderr[-2000:]}")
    return int(m.group(1))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tree", default=".", help="the checkout whose engine is measured")
    p.add_argument("--expansions", default="", help="comma-separated expansion ids")
    p.add_argument("--games", type=int, default=10)
    p.add_argument(
        "--warm",
        type=int,
        default=0,
        help="games played first in both runs, so the caches a long run keeps warm are filled",
    )
    p.add_argument(
        "--no-gc",
        action="store_true",
        help="games with the garbage collector off (its full collections are lumpy)",
    )
    args = p.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    tree = Path(args.tree).resolve()
    one = count(tree, args.expansions, 1, args.warm, not args.no_gc)
    many = count(tree, args.expansions, 1 + args.games, args.warm, not args.no_gc)
    per_game = (many - one) / args.games
    label = "base" + (f"+{args.expansions}" if args.expansions else "")
    warm = f" (after {args.warm} warm-up games)" if args.warm else ""
    warm += ", garbage collector off" if args.no_gc else ""
    print(
        f"{tree.name}: {label}: {per_game / 1e6:.1f} M instructions per random 2-player game{warm}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
