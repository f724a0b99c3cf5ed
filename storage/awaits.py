"""Awaiting what must not be left half-way, whatever cancels the caller."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def finish(aw: Awaitable[T]) -> T:
    """Await ``aw`` to its end even if the calling task is cancelled meanwhile.

    A cancellation that arrives while waiting is re-raised once ``aw`` has finished (its own
    result or error is then dropped): the caller still learns it was cancelled, but the
    statement it started is never left half-way.
    """
    fut = asyncio.ensure_future(aw)
    cancelled = False
    while not fut.done():
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            if fut.done() and fut.cancelled():
                raise
            cancelled = True
    if cancelled:
        if not fut.cancelled():
            fut.exception()  # retrieved: no "exception was never retrieved" warning
        raise asyncio.CancelledError
    return fut.result()
