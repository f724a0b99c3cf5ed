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
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from app.replay import Move, iter_turn_states
from engine import GameSetup, public_view
from engine.carcassonne.events import Event

if TYPE_CHECKING:  # results imports base, which imports this module
    from app.results import Animator

log = logging.getLogger(__name__)
T = TypeVar("T")

#: how long the start-up warm-up of the workers may take before the bot goes on without it
WARM_TIMEOUT = 120.0
#: after a worker died, do not start a new pool more often than this (seconds)
RESTART_AFTER = 5.0


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


def _call(data: bytes) -> Any:
    """In a worker: the pickled zero-argument callable's result."""
    fn = pickle.loads(data)
    return fn()


def _ready() -> int:
    return os.getpid()


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


def _context() -> multiprocessing.context.BaseContext:
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
    """Draws in ``workers`` worker processes (see the module docstring).

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
        self.warm = warm
        self.nice = nice
        self.name = name
        self._pool: ProcessPoolExecutor | None = None
        self._broken_at = float("-inf")
        self._refused: set[str] = set()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.processes,
            mp_context=_context(),
            initializer=_init_worker,
            initargs=(self.nice, self.warm),
        )

    async def start(self) -> None:
        """Start every worker and wait (up to :data:`WARM_TIMEOUT`) until each is warm.

        Raises:
            OSError, NotImplementedError: processes cannot be started here (use threads).
        """
        if self._pool is None:
            self._pool = self._new_pool()
        loop = asyncio.get_running_loop()
        # one call per worker: a call finding no idle worker starts the next one
        calls = [loop.run_in_executor(self._pool, _ready) for _ in range(self.processes)]
        done, pending = await asyncio.wait(calls, timeout=WARM_TIMEOUT)
        for fut in pending:
            fut.cancel()
        for fut in done:
            fut.result()  # a worker that could not start raises here
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
        pool = self._pool_now()
        if pool is None:
            return await asyncio.to_thread(fn)
        loop = asyncio.get_running_loop()
        try:
            result: T = await loop.run_in_executor(pool, _call, data)
        except BrokenProcessPool:
            # a worker died (killed, out of memory): this picture is drawn here, the next
            # ones by a new pool
            log.error("%s: a drawing worker died; starting new ones", self.name)
            self._broken(pool)
            return await asyncio.to_thread(fn)
        return result

    def _pool_now(self) -> ProcessPoolExecutor | None:
        if self._pool is None and time.monotonic() - self._broken_at >= RESTART_AFTER:
            try:
                self._pool = self._new_pool()
            except (OSError, NotImplementedError):
                log.exception("%s: cannot start drawing workers; drawing in threads", self.name)
                self._broken_at = time.monotonic()
        return self._pool

    def _broken(self, pool: Executor) -> None:
        if self._pool is pool:
            self._pool = None
            self._broken_at = time.monotonic()
        pool.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        pool = self._pool
        procs = getattr(pool, "_processes", None) or {}
        return sorted(int(p) for p in procs)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


async def start_painter(workers: int, **kwargs: Any) -> Painter:
    """A started :class:`ProcessPainter` with ``workers`` workers, or a thread
    :class:`Painter` when ``workers`` is 0 or processes cannot be started on this machine."""
    if workers <= 0:
        return Painter()
    painter = ProcessPainter(workers, **kwargs)
    try:
        await painter.start()
    except (OSError, NotImplementedError, BrokenProcessPool) as e:
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
