"""An overlay keeps the cells it draws on this turn in the turn picture's region
(``Overlay.focus``): the Oracle's test overlay names a tile far from every player's last tile,
and the turn picture's crop grows to show it with its neighbours (a flight's landing square)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

import pytest

from engine import GameSetup, Seat, apply, new_game, public_view
from engine.carcassonne.geometry import Position
from engine.carcassonne.randomplay import choose_move
from engine.carcassonne.view import PublicView
from engine.core.rng import Rng
from rendering import overlays
from rendering.board import board_picture, focus_box
from tests.expansions import oracle


class FarSighted(overlays.Overlay):
    """Names the board's first tile as a cell it draws on."""

    id = oracle.ID

    def focus(self, view: PublicView) -> Sequence[Position]:
        return (view.tiles[0].pos,)


@pytest.fixture
def far_sighted() -> Iterator[None]:
    oracle.install()
    overlays.register(FarSighted())
    yield
    overlays.unregister(oracle.ID)
    oracle.uninstall()


def test_the_turn_picture_grows_to_the_cells_an_overlay_names(far_sighted: None) -> None:
    state = new_game(GameSetup(players=2, expansions=(oracle.ID,)), seed=3)
    rng = Rng(9)
    while len(state.board.cells) < 40:
        seat, action = choose_move(state, rng)
        state = apply(state, seat, action).state
    view = public_view(state)
    start = view.tiles[0].pos
    # keep only the last tile: the start is then far outside the usual crop
    last = max(view.tiles, key=lambda tv: abs(tv.pos.x - start.x) + abs(tv.pos.y - start.y))
    # no figures either (a crop with room for them grows to the tiles holding them)
    near = dataclasses.replace(view, last_placed={Seat(0): last.pos}, placed=None, figures=())
    x0, y0, x1, y1 = focus_box(near)
    assert x0 <= start.x - 1 and start.x + 1 <= x1 and y0 <= start.y - 1 and start.y + 1 <= y1
    assert board_picture(near, whole=False).frame.contains(start)
    overlays.unregister(oracle.ID)  # without the overlay's cells the crop stays by the last tile
    x0, y0, x1, y1 = focus_box(near)
    assert not (x0 <= start.x <= x1 and y0 <= start.y <= y1)
