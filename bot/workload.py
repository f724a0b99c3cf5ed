"""How many players' moves one bot process works on at once, so that acknowledging an
interaction never waits behind them.

Discord drops an interaction that is not acknowledged within 3 s ("Unknown interaction",
10062): the player sees "The application did not respond" and, for ``/carcassonne new``,
the lobby message never appears. The acknowledgement (a defer) costs little, but on one event
loop it waits for every task that is ready before it; with hundreds of moves in flight on a
box past its capacity that wait grew past 3 s (BENCHMARKS.md "Tables").

:class:`WorkGate` bounds the moves being worked on (applied, drawn, posted) to ``slots`` at
once. A handler acknowledges first, then waits for a slot: waiting costs no CPU, so the loop
only ever has a few moves' steps ready and an acknowledgement gets its turn within
milliseconds. A move that waits is told so once (``on_wait``); one that cannot get a slot
within ``patience_s``, or arrives when ``max_waiting`` moves already wait, is refused with
:data:`BUSY` — a clean "not made, try again", never half applied, never applied twice (the
match's version check still guards every commit).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from app.base import ServiceError

#: the service error a refused move raises (its words: ``busy`` in words/i18n.py)
BUSY = "busy"
#: moves worked on at once: enough to keep the drawing workers and the database busy
#: (each move waits on them part of its time), few enough that the loop stays responsive
SLOTS = 12
#: a move waits at most this long for a slot before it is refused
PATIENCE_S = 45.0
#: refuse at once when this many moves already wait (the queue cannot grow without bound)
MAX_WAITING = 4000
#: a move that has waited this long is told it is queued (once)
NOTICE_AFTER_S = 2.0


@dataclass
class GateStats:
    """What the gate did since it started (for the logs and benchmarks)."""

    entered: int = 0
    waited: int = 0  # entered after waiting
    refused: int = 0
    longest_wait_s: float = 0.0


class WorkGate:
    """At most ``slots`` moves worked on at once; later ones wait in arrival order."""

    def __init__(
        self,
        slots: int = SLOTS,
        *,
        patience_s: float = PATIENCE_S,
        max_waiting: int = MAX_WAITING,
        notice_after_s: float = NOTICE_AFTER_S,
    ) -> None:
        if slots < 1:
            raise ValueError("a gate needs at least one slot")
        self.slots = slots
        self.patience_s = patience_s
        self.max_waiting = max_waiting
        self.notice_after_s = notice_after_s
        self._free = asyncio.Semaphore(slots)
        self.waiting = 0
        #: moves being worked on now
        self.busy = 0
        self.stats = GateStats()

    @contextlib.asynccontextmanager
    async def slot(
        self, on_wait: Callable[[int], Awaitable[None]] | None = None
    ) -> AsyncIterator[None]:
        """Hold one slot for the body. ``on_wait(ahead)`` runs once if the wait passes
        ``notice_after_s`` (``ahead``: moves waiting in all).

        Raises:
            ServiceError: ``busy`` — no slot within ``patience_s``, or too many waiting.
        """
        if self.waiting >= self.max_waiting:
            self.stats.refused += 1
            raise ServiceError(BUSY, "The bot is very busy: your move was not made.")
        start = time.perf_counter()
        if self._free.locked():
            await self._wait(on_wait)
            self.stats.waited += 1
        else:
            await self._free.acquire()
        waited = time.perf_counter() - start
        self.stats.longest_wait_s = max(self.stats.longest_wait_s, waited)
        self.stats.entered += 1
        self.busy += 1
        try:
            yield
        finally:
            self.busy -= 1
            self._free.release()

    async def _wait(self, on_wait: Callable[[int], Awaitable[None]] | None) -> None:
        """Wait for a slot (the caller holds it on return), or refuse."""
        self.waiting += 1
        acquire = asyncio.ensure_future(self._free.acquire())
        granted = False
        try:
            await asyncio.wait({acquire}, timeout=self.notice_after_s)
            if not acquire.done() and on_wait is not None:
                with contextlib.suppress(Exception):  # a notice that fails changes nothing
                    await on_wait(self.waiting)
            if not acquire.done():
                rest = max(self.patience_s - self.notice_after_s, 0.0)
                await asyncio.wait({acquire}, timeout=rest)
            granted = acquire.done() and not acquire.cancelled() and acquire.exception() is None
        finally:
            self.waiting -= 1
            if not granted:
                if acquire.done() and not acquire.cancelled() and acquire.exception() is None:
                    self._free.release()  # granted just as the waiter gave up or was cancelled
                else:
                    acquire.cancel()
        if not granted:
            self.stats.refused += 1
            raise ServiceError(BUSY, "The bot is very busy: your move was not made.")
