"""What a drawing worker's caches keep between a table's turns when it draws for many tables.

Each drawing worker draws for every table of the bot, so between two turns of one table it
draws one picture of every other table. Whatever it cached for the table (its players' names
shaped into text masks, their widths and fitted lines, its tile size's art) must survive that
many other pictures, or the next turn shapes it again: a name's mask costs about 0.4 ms to
shape (issue 33).

This draws the turn pictures of ``--tables`` random 2-player base games in round robin, one
picture of every table per round (each table at a random stage, players ``A<n>`` and
``B<n>``), in one process as one worker does, and prints for each round the CPU time per
picture and each cache's misses. Round 0 meets every table for the first time; the later
rounds are the steady state a long-running worker lives in::

    python benchmarks/text_cache.py --tables 2500
    python benchmarks/text_cache.py --tables 2500 --tree /tmp/before   # another checkout

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from benchtree import use_tree  # noqa: E402  (before any project module)

TREE = use_tree()

#: the caches printed (the others do not depend on the table)
SHOWN = ("fonts.text_mask", "fonts.width", "fonts.fit", "tiles.image", "tiles.base")


def _states(m: int, rounds: int) -> list[Any]:
    """``rounds`` consecutive placement states of table ``m``'s game, from a random stage."""
    from engine import GameSetup, apply, new_game, pending
    from engine.core.decisions import auto_decide

    rnd = random.Random(m)
    start = rnd.randrange(5, 70 - rounds)
    state = new_game(GameSetup(players=2, names=(f"A{m}", f"B{m}")), seed=m)
    out: list[Any] = []
    while state.step != "over" and len(out) < rounds:
        if state.step == "place" and state.turn >= start:
            out.append(state)
        d = pending(state)[0]
        options = list(d.actions()) or [auto_decide(d)]
        state = apply(state, d.seat, rnd.choice(options), key=d.key).state
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=2500)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--tree", help="another checkout to measure")
    args = p.parse_args()

    from app.results import numbered_cells
    from engine import legal_placements, public_view
    from rendering import cache
    from rendering.board import render_board
    from rendering.worker import warm

    warm()
    tables = [_states(m, args.rounds) for m in range(args.tables)]
    print(f"{TREE}: {args.tables} tables, one turn picture of each a round")
    for r in range(args.rounds):
        before = {s.name: s.misses for s in cache.stats()}
        drawn = 0
        t0 = time.thread_time()
        for states in tables:
            if r < len(states):
                st = states[r]
                cells = numbered_cells(legal_placements(st))
                render_board(public_view(st).for_pictures(), placements=cells or None)
                drawn += 1
        cpu = time.thread_time() - t0
        misses = {s.name: s.misses - before.get(s.name, 0) for s in cache.stats()}
        shown = ", ".join(f"{n} {misses[n] / drawn:.2f}" for n in SHOWN if n in misses)
        print(
            f"  round {r}: {drawn} pictures, {1000 * cpu / drawn:.2f} ms CPU each; misses a picture: {shown}"
        )


if __name__ == "__main__":
    main()
