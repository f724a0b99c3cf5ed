"""Where a named spot of a tile is drawn (0..1 tile units, board frame): the anchor a follower
stands on, moved by the overlays that lay something on the tile, or the printed symbol a figure
was put on. The targets picture labels these points; the board stands figures on them.
"""

from __future__ import annotations

from engine.carcassonne.rules import parse_spot
from engine.carcassonne.tiles import tile
from engine.carcassonne.view import PublicView, TileView
from rendering.board import anchor_on
from rendering.layout import CENTRE, rotate_point, spot_anchor, tile_layout

__all__ = ["spot_feature", "spot_point", "symbol_point", "view_spot_point"]


def spot_point(tv: TileView | None, spot: str) -> tuple[float, float]:
    """Where ``spot`` is on the tile ``tv`` (0..1 tile units): the anchor followers stand on.
    A road or city an expansion laid on the printed tile (a wooden bridge) is at its middle,
    where the board picture stands a figure on it too. A spot named after a symbol printed on
    the tile itself (``<symbol key>`` or ``<symbol key>:<anything>``: a figure put on the
    printed thing rather than on a feature) is where the symbol is drawn.

    Raises:
        ValueError: when there is no tile there.
        InvalidActionError: when the tile has no feature of that name.
    """
    if tv is None:
        raise ValueError(f"no tile to hold the spot {spot!r}")
    at = on_symbol(tv, spot)
    if at is not None:
        return at
    index = spot_feature(tv, spot)
    if index < 0:
        return CENTRE  # laid on the printed tile by an expansion (a wooden bridge): its middle
    return spot_anchor(tile(tv.tile), int(tv.rotation), index)


def spot_feature(tv: TileView, spot: str) -> int:
    """The index of ``spot`` among the features printed on the tile ``tv``, or ``-1`` for a
    road or city an expansion laid on the tile (a wooden bridge).

    Raises:
        InvalidActionError: when the tile has no feature of that name.
    """
    rt = tile(tv.tile).rotated(int(tv.rotation))
    kind, _, sides = spot.partition(":")
    laid = kind in ("road", "city") and sides and set(sides) <= set("NESW")
    if laid and spot not in rt.spots:
        return -1
    return parse_spot(rt, spot)


def view_spot_point(view: PublicView, tv: TileView | None, spot: str) -> tuple[float, float]:
    """Where ``spot`` is on the tile ``tv`` in a picture of ``view``: :func:`spot_point` moved
    by the overlays that lay something on the tile (figures stand there too).

    Raises:
        ValueError: when there is no tile there.
        InvalidActionError: when the tile has no feature of that name.
    """
    if tv is None:
        raise ValueError(f"no tile to hold the spot {spot!r}")
    at = on_symbol(tv, spot)
    if at is not None:
        return at
    return anchor_on(view, tv, spot_feature(tv, spot), spot)


def on_symbol(tv: TileView, spot: str) -> tuple[float, float] | None:
    """Where a spot named after a symbol printed on the tile itself (``<key>`` or
    ``<key>:<anything>``: a figure put on the printed thing, not on a feature) is, or ``None``
    for any other spot."""
    t = tile(tv.tile)
    if not t.symbols:
        return None
    kind = spot.partition(":")[0]
    if t.symbol(kind) is None or spot in t.rotated(int(tv.rotation)).spots:
        return None
    return symbol_point(tv.tile, int(tv.rotation), kind)


def symbol_point(tile_id: str, rotation: int, key: str) -> tuple[float, float] | None:
    """Where the symbol ``key`` printed on the tile itself is drawn (0..1 tile units, board
    frame), or ``None`` when no overlay draws it."""
    for sym in tile_layout(tile_id).symbols:
        if sym.kind == key:
            return rotate_point(sym.at, rotation)
    return None
