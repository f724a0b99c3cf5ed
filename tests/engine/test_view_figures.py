"""The public view finds each figure's tile and feature from the figure itself (issue 33: the
whole board's segment index cost half of ``public_view``): the same figures, spots and
features as the index gives, in games with every expansion (figures moved, removed, split)."""

from __future__ import annotations

import pytest

from engine import GameSetup
from engine.carcassonne.placement import spot_name
from engine.carcassonne.randomplay import choose_move
from engine.carcassonne.registry import all_expansions
from engine.carcassonne.rules import apply, new_game, pending
from engine.carcassonne.state import GameState
from engine.carcassonne.view import public_view
from engine.core.rng import Rng

ALL = tuple(c.id for c in all_expansions())


def _by_index(state: GameState) -> list[tuple[int, str, tuple[int, int], str, int]]:
    """Every figure found through the index of every segment on the board (the old way)."""
    board = state.board
    index = {s: (p.pos, i) for p in board.cells.values() for i, s in enumerate(p.segs)}
    out = []
    for m in board.meeples():
        pos, i = index[m.seg]
        out.append((int(m.seat), m.figure, tuple(pos), spot_name(board.cells[pos].rt, i), i))
    return sorted(out, key=lambda f: (f[2][1], f[2][0], f[0], f[4]))


@pytest.mark.parametrize("expansions", [(), ALL], ids=["base", "all"])
@pytest.mark.parametrize("seed", range(3))
def test_every_figure_is_where_the_segment_index_puts_it(
    expansions: tuple[str, ...], seed: int
) -> None:
    state = new_game(GameSetup(players=3, expansions=expansions), seed=seed)
    rng = Rng(seed)
    checked = 0
    while not state.over:
        view = public_view(state)
        got = [(int(f.seat), f.figure, tuple(f.pos), f.spot, f.feature) for f in view.figures]
        assert got == _by_index(state)
        checked += len(got)
        seat, action = choose_move(state, rng)
        state = apply(state, seat, action, key=pending(state)[0].key).state
    assert checked > 100
