"""Worker processes that answer calls over the event loop's own sockets: the drawing workers.

The bot first drew in a ``concurrent.futures.ProcessPoolExecutor``. Its answers come back
through a manager thread that, for every picture, builds a new selector to wait on the
workers' pipes, reads the ~100 KB PNG in Python-level chunks, unpickles it and hands it to the
loop with ``call_soon_threadsafe``; a feeder thread pickles every request again. All of that
holds the interpreter lock beside the event loop: with uvloop it was the largest share of the
bot process's CPU (26 % in a py-spy sample of ``benchmarks/tables.py --tables 1000``).

Here each worker is a process joined to the bot by one socket pair, read and written by the
event loop itself (uvloop's C code where it runs): a call is one frame out (the pickled
zero-argument callable) and one frame back (raw bytes for a ``bytes`` result such as a PNG,
else the pickled result or exception). The socket is read by a protocol (:class:`_Link`) that
hands a whole frame to the call at once: a stream reader woke the call for every chunk of a
PNG and copied it twice more (3 % of the bot's event-loop thread at 1,500 tables). Idle
workers wait in a queue, so calls are served in arrival order. A worker that dies (killed, out
of memory) fails only the call it was serving (:class:`WorkerDied`) and is replaced by a new
one.

A pool belongs to the event loop that started it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import socket
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from typing import Any, cast

log = logging.getLogger(__name__)
#: how workers are started: a fork of a server that imported the drawing code, or a new
#: interpreter (:func:`app.painters._context` chooses)
WorkerContext = multiprocessing.context.ForkServerContext | multiprocessing.context.SpawnContext

#: a frame's header: its kind (one byte) and the length of what follows (eight bytes)
_HEADER = struct.Struct("!BQ")
_READY, _RESULT, _RAW, _ERROR = range(4)
#: after a replacement could not be started, wait this long before trying again (seconds)
RETRY_AFTER = 5.0
#: how long a worker may take to stop when the pool closes before it is killed (seconds)
STOP_TIMEOUT = 5.0
#: what a link answers for a frame it will never receive (its socket closed)
_LOST = -1


class WorkerDied(RuntimeError):
    """The worker serving a call exited before answering (or no worker is left)."""


class _Link(asyncio.Protocol):
    """One worker's socket as the event loop reads it: whole frames, each handed to the one
    waiter of the moment (the worker answers one call at a time)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self._buf = bytearray()
        self._waiter: asyncio.Future[tuple[int, bytes]] | None = None
        self._frames: list[tuple[int, bytes]] = []
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        buf = self._buf
        if not buf and len(data) >= _HEADER.size:
            kind, size = _HEADER.unpack_from(data)
            if len(data) == _HEADER.size + size:  # the usual case: the frame in one chunk
                self._deliver(kind, data[_HEADER.size :])
                return
        buf += data
        while len(buf) >= _HEADER.size:
            kind, size = _HEADER.unpack_from(buf)
            end = _HEADER.size + size
            if len(buf) < end:
                return
            payload = bytes(buf[_HEADER.size : end])
            del buf[:end]
            self._deliver(kind, payload)

    def _deliver(self, kind: int, payload: bytes) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is None or waiter.done():
            self._frames.append((kind, payload))
        else:
            waiter.set_result((kind, payload))

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._deliver(_LOST, b"")

    def next_frame(self) -> asyncio.Future[tuple[int, bytes]]:
        """The next frame from the worker (``(_LOST, b"")`` once the socket is closed)."""
        fut: asyncio.Future[tuple[int, bytes]] = asyncio.get_running_loop().create_future()
        if self._frames:
            fut.set_result(self._frames.pop(0))
        elif self.closed:
            fut.set_result((_LOST, b""))
        else:
            self._waiter = fut
        return fut

    def send(self, kind: int, data: bytes) -> None:
        assert self.transport is not None
        self.transport.write(_HEADER.pack(kind, len(data)) + data)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    link: _Link
    pid: int = field(default=0)


class WorkerPool:
    """``workers`` processes of ``context``, each running ``initializer(*initargs)`` once
    before it serves (set-up, warm-up); :meth:`call` runs a pickled callable in one of them."""

    def __init__(
        self,
        workers: int,
        context: WorkerContext,
        initializer: Callable[..., Any] | None = None,
        initargs: tuple[Any, ...] = (),
    ) -> None:
        if workers < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.workers = workers
        self._context = context
        self._initializer = initializer
        self._initargs = initargs
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self._alive: set[_Worker] = set()
        self._starting = 0
        self._closed = False
        self._tasks: set[asyncio.Future[Any]] = set()

    async def start(self) -> None:
        """Start every worker and wait until each has run its initializer. The workers start
        in tasks of their own: a caller cancelled meanwhile leaves them starting.

        Raises:
            OSError, NotImplementedError: processes cannot be started here.
        """
        need = self.workers - len(self._alive) - self._starting
        spawns = [asyncio.ensure_future(self._spawn_idle()) for _ in range(need)]
        for t in spawns:
            self._keep(t)
        await asyncio.shield(asyncio.gather(*spawns))

    async def call(self, data: bytes) -> Any:
        """The result of the pickled zero-argument callable ``data``, run in a worker; its
        exception is raised here. A cancelled caller leaves the worker to finish the call.

        Raises:
            WorkerDied: the worker exited mid-call, or no worker is alive or starting.
        """
        if not self._alive and not self._starting:
            for _ in range(0 if self._closed else self.workers):  # new ones for the next calls
                self._keep(asyncio.ensure_future(self._replace()))
            raise WorkerDied("no drawing worker is alive")
        worker = await self._idle.get()
        if worker.link.closed:
            self._lost(worker)
            raise WorkerDied(f"drawing worker {worker.pid} exited")
        answer = worker.link.next_frame()
        # the worker goes back to the idle queue when its answer arrives, whether or not the
        # caller still waits for it (a cancelled caller leaves the worker to finish)
        answer.add_done_callback(lambda f: self._answered(worker, f))
        worker.link.send(_RESULT, data)
        kind, payload = await asyncio.shield(answer)
        if kind == _LOST:
            raise WorkerDied(f"drawing worker {worker.pid} exited mid-call")
        if kind == _RAW:
            return payload
        value = pickle.loads(payload)
        if kind == _ERROR:
            raise value
        return value

    def pids(self) -> list[int]:
        """The live workers' process ids."""
        return sorted(w.pid for w in self._alive)

    async def close(self) -> None:
        """Stop every worker: each sees its socket close and exits; one that does not within
        :data:`STOP_TIMEOUT` is killed."""
        self._closed = True
        workers, self._alive = list(self._alive), set()
        for w in workers:
            w.link.close()
        for t in list(self._tasks):
            t.cancel()
        await asyncio.to_thread(_join_all, [w.process for w in workers])

    def kill(self) -> None:
        """Stop every worker at once, without the event loop (tests, interpreter exit)."""
        self._closed = True
        for w in self._alive:
            with contextlib.suppress(Exception):
                w.process.kill()
        self._alive = set()

    # ------------------------------------------------------------------ one call
    def _answered(self, worker: _Worker, answer: asyncio.Future[tuple[int, bytes]]) -> None:
        if answer.cancelled() or answer.result()[0] == _LOST:
            self._lost(worker)
        else:
            self._idle.put_nowait(worker)

    # ------------------------------------------------------------------ workers
    async def _spawn_idle(self) -> None:
        self._idle.put_nowait(await self._spawn())

    async def _spawn(self) -> _Worker:
        self._starting += 1
        proc: BaseProcess | None = None
        try:
            ours, theirs = self._context.Pipe(duplex=True)
            proc = self._context.Process(
                target=_serve,
                args=(theirs, self._initializer, self._initargs),
                daemon=True,
                name="carcabot-worker",
            )
            try:
                await asyncio.to_thread(proc.start)
            finally:
                theirs.close()
            sock = socket.socket(fileno=os.dup(ours.fileno()))
            ours.close()
            sock.setblocking(False)
            loop = asyncio.get_running_loop()
            _, link = await loop.create_connection(_Link, sock=sock)
            kind, _ = await link.next_frame()
            if kind != _READY:
                link.close()
                if kind == _LOST:
                    raise OSError("a drawing worker exited while starting")
                raise OSError("a drawing worker did not start")
            worker = _Worker(proc, link, pid=proc.pid or 0)
            self._alive.add(worker)
            return worker
        except BaseException:
            if proc is not None and proc.pid is not None:
                with contextlib.suppress(Exception):
                    proc.kill()
            raise
        finally:
            self._starting -= 1

    def _lost(self, worker: _Worker) -> None:
        """``worker`` is gone: forget it and start another (unless the pool is closing)."""
        if worker not in self._alive:
            return
        self._alive.discard(worker)
        worker.link.close()
        with contextlib.suppress(Exception):
            worker.process.join(0)
        if not self._closed:
            log.error("drawing worker %d exited; starting a new one", worker.pid)
            self._keep(asyncio.ensure_future(self._replace()))

    async def _replace(self) -> None:
        while not self._closed:
            try:
                await self._spawn_idle()
                return
            except (OSError, NotImplementedError):
                log.exception("cannot start a drawing worker; trying again")
                await asyncio.sleep(RETRY_AFTER)

    def _keep(self, task: asyncio.Future[Any]) -> None:
        """Hold a reference until ``task`` ends, and retrieve its exception (a call whose
        caller was cancelled has nobody else to see it)."""
        self._tasks.add(task)

        def done(t: asyncio.Future[Any]) -> None:
            self._tasks.discard(t)
            if not t.cancelled():
                t.exception()

        task.add_done_callback(done)


def _join_all(procs: list[BaseProcess]) -> None:
    deadline = time.monotonic() + STOP_TIMEOUT
    for p in procs:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join(1.0)


# ---------------------------------------------------------------------- in the worker
def _serve(conn: Any, initializer: Callable[..., Any] | None, initargs: tuple[Any, ...]) -> None:
    """A worker's life: set up, say ready, then answer frames until the socket closes."""
    sock = socket.socket(fileno=os.dup(conn.fileno()))
    conn.close()
    sock.setblocking(True)
    if initializer is not None:
        initializer(*initargs)
    sock.sendall(_HEADER.pack(_READY, 0))
    header = bytearray(_HEADER.size)
    while True:
        if not _recv_into(sock, memoryview(header)):
            return  # the bot closed the pool
        _, size = _HEADER.unpack(header)
        data = bytearray(size)
        if not _recv_into(sock, memoryview(data)):
            return
        kind, payload = _answer(data)
        _send_frame(sock, kind, payload)


def _answer(data: bytearray) -> tuple[int, bytes]:
    """What answers one call: raw bytes, the pickled result, or the pickled exception."""
    try:
        result = pickle.loads(data)()
    except Exception as e:  # the caller's to handle, as in its own process
        try:
            return _ERROR, pickle.dumps(e, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            return _ERROR, pickle.dumps(RuntimeError(f"{type(e).__name__}: {e}"))
    if type(result) is bytes:
        return _RAW, result
    return _RESULT, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)


def _send_frame(sock: socket.socket, kind: int, payload: bytes) -> None:
    """One frame in one write where the socket takes it (the bot then reads it whole)."""
    header = _HEADER.pack(kind, len(payload))
    sent = sock.sendmsg([header, payload])
    if sent < len(header):
        sock.sendall(header[sent:])
        sent = len(header)
    if sent - len(header) < len(payload):
        sock.sendall(memoryview(payload)[sent - len(header) :])


def _recv_into(sock: socket.socket, buf: memoryview) -> bool:
    """Fill ``buf`` from ``sock``; False at the end of the stream."""
    got = 0
    while got < len(buf):
        n = sock.recv_into(buf[got:])
        if n == 0:
            return False
        got += n
    return True
