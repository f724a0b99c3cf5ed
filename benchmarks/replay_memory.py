"""Peak memory and CPU of drawing one game's replay animation (a 72-turn, 4-player base game).

Each measurement runs in a fresh process (``ru_maxrss`` is a process's lifetime peak): the
process draws one board first (fonts, tile art), then the whole replay as a GIF; printed are the
growth of its peak RSS while drawing the replay, its CPU time and the GIF's size. Then the same
replay again, as a replay worker that has drawn one before draws it (tile art at the replay's
tile size and its text already cached): its CPU time, median of ``--again`` runs.

    python benchmarks/replay_memory.py                 # this checkout
    python benchmarks/replay_memory.py --tree ../main  # another checkout, e.g. before a change
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child(tree: Path, again: int) -> None:
    sys.path.insert(0, str(tree))
    sys.path.insert(1, str(ROOT))  # benchmarks/render.py's game from this checkout
    from benchmarks.render import full_base_game
    from rendering import render_animation
    from rendering.board import board_image

    _final, views = full_base_game()
    board_image(views[len(views) // 2])  # fonts and tile art, as in a warm worker
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    c0, t0 = time.process_time(), time.perf_counter()
    gif = render_animation(views)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"{tree}: {len(views)} frames, GIF {len(gif) / 1024:.0f} KiB; peak RSS grew "
        f"{(peak - base) / 1024:.0f} MB while drawing it; CPU {cpu:.2f} s (wall {wall:.2f} s)"
    )
    cpus = []
    for _ in range(again):
        c0 = time.process_time()
        render_animation(views)
        cpus.append(time.process_time() - c0)
    if cpus:
        cpus.sort()
        print(
            f"  again, caches warm: CPU {cpus[len(cpus) // 2]:.3f} s "
            f"(median of {len(cpus)}, best {cpus[0]:.3f} s)"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", default=str(ROOT), help="the checkout to measure")
    p.add_argument("--again", type=int, default=5, help="warm replays timed after the first")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    tree = Path(args.tree).resolve()
    if args.child:
        child(tree, args.again)
        return
    print(f"load average {os.getloadavg()[0]:.2f}, nproc {os.cpu_count()}")
    subprocess.run(
        [sys.executable, __file__, "--child", "--tree", str(tree), "--again", str(args.again)],
        check=True,
        cwd=tree,
    )


if __name__ == "__main__":
    main()
