"""What a game's public view costs the bot: building it, and pickling it for a drawing worker.

The bot builds one public view a move and pickles a picture's view for a worker with every turn
picture; the worker loads it (issue 33). Times a mid-game 2-player base game's view (turn 40:
about 40 tiles and a dozen figures), median of ``--rounds`` rounds of ``--n`` calls each::

    python benchmarks/views.py
    python benchmarks/views.py --tree /tmp/before   # another checkout

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import time

from benchtree import use_tree  # noqa: E402  (before any project module)

TREE = use_tree()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--turn", type=int, default=40)
    p.add_argument("--tree", help="another checkout to measure")
    args = p.parse_args()

    from engine import GameSetup, apply, new_game, pending, public_view
    from engine.core.decisions import auto_decide

    state = new_game(GameSetup(players=2, names=("Ana", "Bob")), seed=3)
    rnd = random.Random(3)
    while state.turn < args.turn:
        d = pending(state)[0]
        options = list(d.actions()) or [auto_decide(d)]
        state = apply(state, d.seat, rnd.choice(options), key=d.key).state
    view = public_view(state).for_pictures()
    data = pickle.dumps(view, protocol=pickle.HIGHEST_PROTOCOL)

    def timed(fn: object) -> float:
        runs = []
        for _ in range(args.rounds):
            t0 = time.thread_time()
            for _ in range(args.n):
                fn()  # type: ignore[operator]
            runs.append((time.thread_time() - t0) / args.n * 1e6)
        return statistics.median(runs)

    build = timed(lambda: public_view(state))
    dumps = timed(lambda: pickle.dumps(view, protocol=pickle.HIGHEST_PROTOCOL))
    loads = timed(lambda: pickle.loads(data))
    print(
        f"{TREE}: view of {len(view.tiles)} tiles, {len(view.figures)} figures: "
        f"public_view {build:.1f} µs, pickled {dumps:.1f} µs ({len(data)} bytes), "
        f"loaded {loads:.1f} µs"
    )


if __name__ == "__main__":
    main()
