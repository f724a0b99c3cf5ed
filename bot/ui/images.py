"""The board picture the Discord front end shows when the service drew none, off the event loop.

Every call is drawn by a :class:`~app.painters.Painter`: the service's (a worker
process, when the drawing pickles), else a worker thread (``asyncio.to_thread``; Pillow
releases the GIL while it encodes, ECOSYSTEM.md R-05). The pictures of a decision's choices
are described by :mod:`bot.ui.decisions` and drawn by the cog the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from app.painters import Painter
from engine import PublicView
from rendering import render_board

log = logging.getLogger(__name__)


async def board_png(
    view: PublicView, lang: str = "en", *, whole: bool = False, painter: Painter | None = None
) -> bytes:
    """The board as every player sees it (the whole map with ``whole``), words in ``lang``."""
    draw = partial(render_board, view.for_pictures(), lang=lang, whole=whole)
    return await (painter or Painter()).paint(draw)


async def draw(fn: Callable[[], bytes], what: str, painter: Painter | None = None) -> bytes | None:
    """``fn()`` by ``painter`` (a worker thread without one); a failure is logged and gives no
    picture (the choice itself still works from its buttons)."""
    try:
        return await (painter or Painter()).paint(fn)
    except Exception:
        log.exception("drawing %s failed", what)
        return None
