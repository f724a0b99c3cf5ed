"""The images the Discord front end shows, drawn by ``rendering`` off the event loop.

``rendering`` is another layer's work; this module is the one place the bot calls it, so the
cogs stay independent of its exact signatures. Every call runs in a worker thread
(``asyncio.to_thread``: Pillow releases the GIL, the event loop keeps answering).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterable, Mapping
from typing import Any

from engine import Position, PublicView, Rotation


def placement_order(placements: Mapping[Position, Iterable[Rotation]]) -> list[Position]:
    """Cells in the order they are numbered on the overlay image (1 = first)."""
    try:
        from rendering import placement_order as order
    except ImportError:  # pragma: no cover - rendering not built yet
        return sorted(placements, key=lambda p: (p.y, p.x))
    return list(order(placements))


def _render_board(view: PublicView, **kw: Any) -> bytes:
    try:
        from rendering import render_board
    except ImportError:  # pragma: no cover - rendering not built yet
        return _placeholder()
    return bytes(render_board(view, **kw))


def _render_cells(view: PublicView, placements: Mapping[Position, tuple[Rotation, ...]]) -> bytes:
    try:
        from rendering import render_board
    except ImportError:  # pragma: no cover
        return _placeholder()
    try:
        return bytes(render_board(view, placements=placements))
    except TypeError:
        return bytes(render_board(view))


def _render_preview(view: PublicView, pos: Position, rotations: tuple[Rotation, ...]) -> bytes:
    try:
        from rendering import render_placement_preview
    except ImportError:  # pragma: no cover
        return _placeholder()
    return bytes(render_placement_preview(view, pos, rotations))


def _render_spots(view: PublicView, spots: list[str]) -> bytes:
    try:
        from rendering import render_spots
    except ImportError:  # pragma: no cover
        return _placeholder()
    return bytes(render_spots(view, spots))


def _placeholder() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (64, 64), (90, 140, 60)).save(buf, format="PNG")
    return buf.getvalue()


async def board_png(view: PublicView) -> bytes:
    return await asyncio.to_thread(_render_board, view)


async def cells_png(view: PublicView, placements: Mapping[Position, tuple[Rotation, ...]]) -> bytes:
    """The board with every legal cell numbered."""
    return await asyncio.to_thread(_render_cells, view, placements)


async def preview_png(view: PublicView, pos: Position, rotations: tuple[Rotation, ...]) -> bytes:
    """The drawn tile shown at ``pos`` in each of ``rotations``."""
    return await asyncio.to_thread(_render_preview, view, pos, rotations)


async def spots_png(view: PublicView, spots: list[str]) -> bytes:
    """The just-placed tile with its free follower spots labelled."""
    return await asyncio.to_thread(_render_spots, view, spots)
