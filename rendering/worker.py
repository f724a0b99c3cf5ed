"""Start-up warm-up of a process that draws (a drawing worker of the bot, or the bot itself).

A fresh process spends its first pictures deriving tile layouts (about 20 ms per tile type,
0.6 s for a game with expansions), loading the font at each size it draws text in (about 10 ms
per size) and drawing tile art at each tile size. :func:`warm` does it before the first player
waits: the layouts of every tile of every expansion, then a few real boards of a random game
with every expansion (start, middle, end; legal cells numbered), which loads every font size
the board pictures use and the art of the common tile sizes.
"""

from __future__ import annotations

import logging
import random
import time

from engine import GameSetup, apply, new_game, pending, public_view
from engine.carcassonne.expansions import all_expansions
from engine.carcassonne.view import PublicView
from engine.core.decisions import auto_decide
from rendering.board import render_board
from rendering.warm import warm_up

log = logging.getLogger(__name__)


def sample_views(seed: int = 7) -> list[PublicView]:
    """Public views of one random 2-player game with every expansion: after the first move,
    in the middle and at the end."""
    exps = tuple(sorted(e.id for e in all_expansions()))
    state = new_game(GameSetup(players=2, names=("Ana", "Борис"), expansions=exps), seed=seed)
    rnd = random.Random(seed)
    views: list[PublicView] = []
    while state.step != "over":
        if len(views) < state.turn:
            views.append(public_view(state))
        d = pending(state)[0]
        # any listed answer mostly; the default answer otherwise, and always for a decision
        # that lists none (a number to give: a bid)
        options = list(d.actions())
        if not options or rnd.random() >= 0.9:
            options = [auto_decide(d)]
        state = apply(state, d.seat, rnd.choice(options), key=d.key).state
    views.append(public_view(state))
    return [views[1], views[len(views) // 2], views[-1]]


def warm() -> float:
    """Warm this process up for drawing (see the module docstring); returns the seconds taken.
    Never raises: a warm-up that fails part-way only leaves the first pictures slower."""
    t0 = time.perf_counter()
    try:
        warm_up()
        for view in sample_views():
            placements = legal_placements_of(view)
            render_board(view, placements=placements or None)
    except Exception:
        log.exception("warming up for drawing failed part-way; the first pictures are slower")
    return time.perf_counter() - t0


def legal_placements_of(view: PublicView) -> dict:  # type: ignore[type-arg]
    """No engine state at hand here: the warm-up draws the board without legal cells but with
    a few numbered cells around the start tile, so the cell-number font is loaded too."""
    from engine import Position, Rotation

    taken = {tv.pos for tv in view.tiles}
    ring = [Position(x, y) for x in range(-2, 3) for y in range(-2, 3)]
    return {p: (Rotation(0),) for p in ring if p not in taken}
