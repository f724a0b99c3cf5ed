"""Where pictures are drawn: in worker processes, so the bot uses every core; else in threads.

Drawing a board holds Python's interpreter lock for most of its time (composition, text), so
drawing in threads of the bot process cannot run beside the event loop: through the whole
Discord stack the process never used more than one core. A :class:`ProcessPainter` draws in a
``ProcessPoolExecutor`` started with the bot (each worker warmed up first: every expansion's
tile layouts and the font sizes in use, see :func:`rendering.worker.warm`). What it is given to
draw must pickle: a module-level function with its arguments (``functools.partial``), e.g.
``partial(render_board, view, placements=...)``; a call that does not pickle (a closure, a view
holding one) is drawn in a thread instead, as are all calls of the plain :class:`Painter`
(tests, the local console, and machines where processes are unavailable).

:func:`replay_animation` is the animation's work: the game is replayed in the worker from its
setup, seed and moves, so the bot process does neither the replay nor the drawing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from app.replay import Move, iter_turn_states
from app.workerpool import WorkerContext, WorkerDied, WorkerPool
from engine import GameSetup, public_view
from engine.carcassonne.events import Event

if TYPE_CHECKING:  # results imports base, which imports this module
    from app.results import Animator

log = logging.getLogger(__name__)
T = TypeVar("T")

#: how long the start-up warm-up of the workers may take before the bot goes on without it
WARM_TIMEOUT = 120.0


class Painter:
    """Draws in threads of this process (``asyncio.to_thread``): Pillow lets the event loop
    run while it encodes, but Python-level drawing still shares the interpreter lock."""

    processes = 0

    async def start(self) -> None:
        """Get ready to draw (nothing to do for threads)."""

    async def paint(self, fn: Callable[[], T]) -> T:
        """``fn()`` off the event loop; its exceptions propagate."""
        return await asyncio.to_thread(fn)

    def pids(self) -> list[int]:
        """The worker processes' ids (none for threads)."""
        return []

    async def close(self) -> None:
        """Stop the workers (nothing to do for threads)."""


def _init_worker(nice: int, warm: Callable[[], Any] | None) -> None:
    """In a new worker: ignore Ctrl-C (the bot stops its workers itself), lower the priority
    when asked (the animation worker yields to boards), warm the caches up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # not permitted here: run at normal priority
            os.nice(nice)
    if warm is not None:
        t0 = time.perf_counter()
        try:
            warm()
        except Exception:  # a failed warm-up only costs the first pictures their time
            log.exception("warming up a drawing worker failed")
        log.debug("drawing worker %s warm in %.2f s", os.getpid(), time.perf_counter() - t0)


def _context() -> WorkerContext:
    """``forkserver`` where there is one (a fork of this threaded process would copy its
    locks mid-use), else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods and sys.platform != "darwin":
        ctx = multiprocessing.get_context("forkserver")
        # workers fork from a server that already imported the drawing code
        ctx.set_forkserver_preload(["rendering", "app.painters"])
        return ctx
    return multiprocessing.get_context("spawn")


class ProcessPainter(Painter):
    """Draws in ``workers`` worker processes (see the module docstring), answered over the
    event loop's sockets (:class:`app.workerpool.WorkerPool`).

    ``nice`` lowers the workers' priority (for the replay animation, which must not slow the
    boards down); ``warm`` runs in each worker before its first picture.
    """

    def __init__(
        self,
        workers: int,
        *,
        warm: Callable[[], Any] | None = None,
        nice: int = 0,
        name: str = "pictures",
    ) -> None:
        if workers < 1:
            raise ValueError("a process painter needs at least one worker")
        self.processes = workers
        self.name = name
        self._pool = WorkerPool(workers, _context(), _init_worker, (nice, warm))
        self._started = False
        self._refused: set[str] = set()

    async def start(self) -> None:
        """Start every worker and wait (up to :data:`WARM_TIMEOUT`) until each is warm.

        Raises:
            OSError, NotImplementedError: processes cannot be started here (use threads).
        """
        self._started = True
        try:
            await asyncio.wait_for(self._pool.start(), WARM_TIMEOUT)
        except TimeoutError:
            log.warning("%s: the drawing workers are still warming up; going on", self.name)
        log.info("%s: %d drawing worker(s) started", self.name, len(self.pids()))

    async def paint(self, fn: Callable[[], T]) -> T:
        try:
            data = pickle.dumps(fn, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError) as e:
            what = getattr(fn, "__qualname__", type(fn).__qualname__)
            if what not in self._refused:
                self._refused.add(what)
                log.warning("%s: %s does not pickle (%s); drawn in a thread", self.name, what, e)
            return await asyncio.to_thread(fn)
        if not self._started:  # a painter used without start(): its workers start now
            await self.start()
        try:
            result: T = await self._pool.call(data)
        except WorkerDied:
            # a worker died (killed, out of memory): this picture is drawn here, the next
            # ones by the others and the new one that replaces it
            log.error("%s: a drawing worker died; drawing this picture here", self.name)
            return await asyncio.to_thread(fn)
        return result

    def pids(self) -> list[int]:
        return self._pool.pids()

    async def close(self) -> None:
        await self._pool.close()

    def kill(self) -> None:
        """Stop the workers at once, without the event loop (tests)."""
        self._pool.kill()


async def start_painter(workers: int, **kwargs: Any) -> Painter:
    """A started :class:`ProcessPainter` with ``workers`` workers, or a thread
    :class:`Painter` when ``workers`` is 0 or processes cannot be started on this machine."""
    if workers <= 0:
        return Painter()
    painter = ProcessPainter(workers, **kwargs)
    try:
        await painter.start()
    except (OSError, NotImplementedError) as e:
        log.warning("drawing workers unavailable (%s); drawing in threads", e)
        await painter.close()
        return Painter()
    return painter


def start_thinkers(workers: int) -> ProcessPoolExecutor:
    """Worker processes for AI players' searches (:class:`app.seats.AiController`): a search
    holds the interpreter for its whole budget, so it never runs on the bot's event loop."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=_context())


def replay_animation(
    animator: Animator,
    setup: GameSetup,
    seed: int,
    moves: Sequence[Move],
    *,
    lang: str = "en",
    events: Sequence[Event] = (),
) -> bytes:
    """The replay animation of a game (one frame per turn, in ``lang``; ``events`` are the
    last move's), replayed here from its moves: in a worker, the bot process does neither the
    replay nor the drawing. Only the small views are held; the animator streams the frames."""
    views = [public_view(s) for s in iter_turn_states(setup, seed, moves)]
    return animator(views, lang=lang, events=events)
