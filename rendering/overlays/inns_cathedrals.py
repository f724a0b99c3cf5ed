"""Inns & Cathedrals: the large follower (the follower's meeple, a third bigger; it counts as
two). Inns and cathedrals are printed on the tiles (tile data), so there is no board layer."""

from __future__ import annotations

from types import MappingProxyType

from PIL import Image

from rendering.figures import meeple
from rendering.overlays import FigureArt, Overlay
from rendering.style import SeatStyle

#: how much bigger than a follower the large follower is drawn (sprite side)
LARGE_SCALE = 1.32


def draw_large(style: SeatStyle, size: int, lying: bool) -> Image.Image:
    """The large follower: the follower's meeple, :data:`LARGE_SCALE` times its side."""
    return meeple(style, max(size + 2, round(size * LARGE_SCALE)), lying)


class InnsCathedralsOverlay(Overlay):
    id = "inns_cathedrals"
    figures = MappingProxyType({"large": FigureArt(draw_large, follower=True, order=10)})


OVERLAY = InnsCathedralsOverlay()
