"""Short garbage-collection pauses in the bot process.

A full collection walks every object the interpreter tracks, and a busy bot tracks a lot: every
cached match is an engine state of thousands of objects. Measured with benchmarks/tables.py at
150 tables, one full collection paused the event loop for 125 ms of CPU (every move in flight
waited), and the pause grows with the number of tables. Yet the cached games are never cyclic
garbage: they are freed by reference counting when evicted (checked: replaying and dropping
games leaves nothing for the collector), and what does form cycles (asyncio tasks and failed
futures with their tracebacks) dies young, in the first generations.

So what survives the middle generation is frozen (:func:`gc.freeze`, after every collection
of generation 1 or 2) instead of waiting in the oldest one. Each table's move leaves objects
that live until its next move (its view, its open decisions and their options: ~140 a move),
so the oldest generation held every table's of the last seconds: at 1,000 tables a full
collection walked 90,000–130,000 of them in 60–100 ms every ten seconds (issue 33), and the
pause grows with the tables. Frozen, they are freed by reference counting as before, and full
collections walk nearly nothing. Cyclic garbage that outlived the middle generation (~90
objects a second at 1,000 tables) stays until :func:`full_collection` unfreezes and collects
everything, which the bot runs every :data:`FULL_EVERY` seconds (one long pause then).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

log = logging.getLogger(__name__)

#: seconds between the full collections of every object (frozen ones included)
FULL_EVERY = 15 * 60.0

_installed = False


def _freeze_promoted(phase: str, info: dict[str, Any]) -> None:
    # generation 0 and 1 are empty after a collection of generation 1 or 2: what is frozen
    # is what survived into the oldest generation
    if phase == "stop" and info.get("generation", 0) >= 1:
        gc.freeze()


def freeze_survivors() -> None:
    """Freeze what is alive now (start-up: imports, warm-up) and, from now on, whatever
    survives into the oldest generation. Idempotent."""
    global _installed
    gc.collect()
    gc.freeze()
    if not _installed:
        gc.callbacks.append(_freeze_promoted)
        _installed = True


def release() -> None:
    """Back to Python's own collector: nothing frozen, no freezing after full collections."""
    global _installed
    if _installed:
        gc.callbacks.remove(_freeze_promoted)
        _installed = False
    gc.unfreeze()


def full_collection() -> tuple[int, float]:
    """Collect every object, frozen ones included, then freeze the survivors again; returns
    (objects collected, seconds)."""
    t0 = time.perf_counter()
    gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    return found, time.perf_counter() - t0


async def full_collections(every: float = FULL_EVERY) -> None:
    """Run :func:`full_collection` every ``every`` seconds (a task of the bot)."""
    while True:
        await asyncio.sleep(every)
        found, took = full_collection()
        log.debug("full garbage collection: %d objects in %.0f ms", found, took * 1000)
