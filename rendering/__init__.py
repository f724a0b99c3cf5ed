"""Pictures of the game, drawn with Pillow from the engine's public view and tile data.

Public API (the bot and the replay tool code against these names)::

    render_board(view, *, placements=None, highlight=None, lang="en", events=(), awards=None,
                 whole=False) -> bytes                  # PNG: turn picture, whole map, final
    placement_order(placements) -> list[Position]                          # numbering of cells
    render_placement_preview(view, pos, rotations) -> bytes                # PNG
    render_spots(view, spots, figures=None) -> bytes                       # PNG, spots A, B, C...
    render_targets(view, targets, labels, *, title=None, seat=None, figures=None,
                   lang="en") -> bytes                                     # PNG, any decision
    render_animation(views, *, fmt="gif", lang="en", events=()) -> bytes   # GIF or WebP
    render_tile_sheet() -> bytes                                           # PNG contact sheet
    spot_anchor(tile_def, rotation, feature_index) -> (fx, fy)            # 0..1 tile coords
    warm_up(tile_ids=None, *, faces=True) -> int   # layouts, overlays, font faces ahead of time
    warm_up_report(tile_ids=None, *, faces=True) -> WarmUpReport           # the same, with figures
    cache_stats() -> list[CacheStats]            # every renderer cache: entries, bytes, limits
"""

from rendering.animation import render_animation
from rendering.board import placement_order, render_board
from rendering.cache import CacheStats
from rendering.cache import stats as cache_stats
from rendering.layout import spot_anchor
from rendering.marks import render_placement_preview, render_spots, spot_letter
from rendering.sheet import render_tile_sheet
from rendering.targets import render_targets, targets_picture
from rendering.warm import WarmUpReport, warm_up, warm_up_report

__all__ = [
    "CacheStats",
    "WarmUpReport",
    "cache_stats",
    "placement_order",
    "render_animation",
    "render_board",
    "render_placement_preview",
    "render_spots",
    "render_targets",
    "render_tile_sheet",
    "spot_anchor",
    "spot_letter",
    "targets_picture",
    "warm_up",
    "warm_up_report",
]
