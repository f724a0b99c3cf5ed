"""The board picture the Discord front end shows when the service drew none, off the event loop.

Every call runs in a worker thread (``asyncio.to_thread``): Pillow releases the GIL while it
encodes, so the event loop keeps answering other interactions (ECOSYSTEM.md R-05). The
pictures of a decision's choices are described by :mod:`bot.ui.decisions` and drawn by the
cog the same way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from engine import PublicView
from rendering import render_board

log = logging.getLogger(__name__)


async def board_png(view: PublicView, lang: str = "en", *, whole: bool = False) -> bytes:
    """The board as every player sees it (the whole map with ``whole``), words in ``lang``."""
    return await asyncio.to_thread(lambda: render_board(view, lang=lang, whole=whole))


async def draw(fn: Callable[[], bytes], what: str) -> bytes | None:
    """``fn()`` in a worker thread; a failure is logged and gives no picture (the choice
    itself still works from its buttons)."""
    try:
        return await asyncio.to_thread(fn)
    except Exception:
        log.exception("drawing %s failed", what)
        return None
