"""A spot named after a symbol printed on the tile itself (``<key>`` or ``<key>:<anything>``) is
drawn where that symbol is: a figure put on the printed thing rather than on one of the tile's
features (the flier's flying machine) gets its target label there, at every rotation."""

from __future__ import annotations

import pytest

from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.tiles import all_tiles
from engine.carcassonne.view import TileView
from rendering.layout import rotate_point, spot_anchor, tile_layout
from rendering.overlays import symbol_art
from rendering.spots import spot_point, symbol_point


def _tiles_with_printed_symbols() -> list[tuple[str, str]]:
    out = []
    for tid, t in sorted(all_tiles().items()):
        for key, _ in t.symbols:
            if symbol_art(key) is not None:
                out.append((tid, key))
    return out


def test_some_tiles_carry_symbols_of_their_own() -> None:
    assert len(_tiles_with_printed_symbols()) >= 8


@pytest.mark.parametrize(("tid", "key"), _tiles_with_printed_symbols())
def test_a_spot_named_after_a_tile_symbol_is_where_the_symbol_is_drawn(tid: str, key: str) -> None:
    drawn = next(s.at for s in tile_layout(tid).symbols if s.kind == key)
    for r in Rotation:
        tv = TileView(Position(2, -1), tid, r)
        want = rotate_point(drawn, int(r))
        assert symbol_point(tid, int(r), key) == want
        assert spot_point(tv, key) == want
        assert spot_point(tv, f"{key}:anything") == want
        rt = all_tiles()[tid].rotated(int(r))
        for i, name in enumerate(rt.spots):  # the tile's own features keep their anchors
            assert spot_point(tv, name) == spot_anchor(rt.tile, int(r), i)
