"""The images the Discord front end shows, drawn by ``rendering`` off the event loop.

Every call runs in a worker thread (``asyncio.to_thread``): Pillow releases the GIL while it
encodes, so the event loop keeps answering other interactions (ECOSYSTEM.md R-05).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from engine import Position, PublicView, Rotation
from rendering import render_board, render_placement_preview, render_spots, spot_letter

__all__ = ["cells_png", "preview_png", "spot_letter", "spots_png"]


def _cells(view: PublicView, placements: Mapping[Position, Sequence[Rotation]]) -> bytes:
    return render_board(view, placements=placements or None)


async def cells_png(view: PublicView, placements: Mapping[Position, Sequence[Rotation]]) -> bytes:
    """The board with every legal cell numbered (the same numbers as the pickers)."""
    return await asyncio.to_thread(_cells, view, placements)


async def preview_png(view: PublicView, pos: Position, rotations: Sequence[Rotation]) -> bytes:
    """The drawn tile shown at ``pos`` in each of ``rotations``."""
    return await asyncio.to_thread(render_placement_preview, view, pos, rotations)


async def spots_png(view: PublicView, spots: Sequence[str]) -> bytes:
    """The just-placed tile with its free follower spots labelled A, B, C ... in this order."""
    return await asyncio.to_thread(render_spots, view, spots)
