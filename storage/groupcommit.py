"""Group commit: the writes that queue up while one is in SQLite's hands go in together.

Every write of a process goes through one connection, one at a time, and each is a trip from
the event loop to the connection's thread and back. On a busy bot the trip, not SQLite, is the
cost: the thread waits for a core and for the interpreter's lock (held by the event loop for up
to its 5 ms switch interval), and so does the loop's wake-up afterwards. At 2,500 tables the
single writer managed ~210 writes a second at ~4.8 ms each while two writes a move at 125 moves
a second were due: moves queued behind it for seconds (BENCHMARKS.md, "Issue 33, seventh pass").

:class:`GroupWriter` takes every write waiting when the connection comes free and runs them in
**one** trip and one transaction: ``BEGIN IMMEDIATE``, each unit in a savepoint of its own, one
``COMMIT`` (one sync of the WAL). Each caller gets its own result or its own exception:

- a unit that raises is rolled back to its savepoint alone; the others commit;
- nobody is answered before the ``COMMIT`` returns, so an answered write is as durable as a
  write committed alone;
- if the batch as a whole fails (``COMMIT`` refused, e.g. a deferred foreign key), every unit is
  run again alone, each in its own transaction, so one unit's fault is never another's; only
  :class:`~storage.errors.StorageBusy` (another process kept the file locked past the deadline)
  goes to every caller of the batch at once.

Cancelling a caller whose unit has not been taken yet withdraws it (nothing written, as a
write cancelled while it waited for the lock); once taken, the caller waits for the batch to
end and then learns it was cancelled (its write may have landed, as a write cancelled during
its ``COMMIT``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from storage.awaits import finish
from storage.errors import StorageBusy

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], Any]

log = logging.getLogger(__name__)

#: the most units one trip carries (a long queue goes in several trips)
MAX_BATCH = 64


@dataclass(eq=False)
class Unit(Generic[T]):
    """One caller's write: its work, what it may change (for the write listeners), its answer."""

    work: Callable[[sqlite3.Connection], T]
    wrote: Any
    future: asyncio.Future[T]
    #: called with the result right after this unit's listeners are told, before the next
    #: unit's are: what a cache learns of the write, in commit order
    then: Callable[[T], None] | None = None
    taken: bool = field(default=False)


@dataclass(frozen=True, slots=True)
class Failed:
    """A unit's exception, carried back from the connection's thread."""

    error: Exception


def in_transaction(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work`` between ``BEGIN IMMEDIATE`` and ``COMMIT`` on the connection's thread; any
    exception (a busy ``COMMIT`` included) rolls the whole unit back and is re-raised."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        out = work(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return out


def run_batch(conn: sqlite3.Connection, works: list[Work]) -> list[Any]:
    """Every work in one transaction (:func:`in_transaction`), each in a savepoint: its
    result, or :class:`Failed` with what it raised (its changes rolled back). Runs on the
    connection's thread. A failure of the transaction itself (``BEGIN``, ``COMMIT``, or a
    unit's ``BaseException``) rolls everything back and is raised."""
    return in_transaction(conn, lambda c: [_savepointed(c, work) for work in works])


def _savepointed(conn: sqlite3.Connection, work: Work) -> Any:
    conn.execute("SAVEPOINT unit")
    try:
        value = work(conn)
    except Exception as e:  # noqa: BLE001 - handed to that unit's caller
        if not conn.in_transaction:  # the work ended the transaction itself
            raise
        conn.execute("ROLLBACK TO unit")
        conn.execute("RELEASE unit")
        return Failed(e)
    if not conn.in_transaction:
        raise RuntimeError("a write ended its transaction itself (COMMIT inside)")
    conn.execute("RELEASE unit")
    return value


class GroupWriter:
    """Queues writes and runs them in batches, one batch at a time (see the module docstring).

    ``run(works)`` runs one batch (:func:`run_batch` on the connection's thread, with the
    caller's retries) and ``alone(work)`` one unit in a transaction of its own; ``told(wrote)``
    is called for every unit once its batch is over, committed or not; ``lock`` is held for
    each batch (the database's write lock, which transactions hold too).
    """

    def __init__(
        self,
        run: Callable[[list[Work]], Awaitable[list[Any]]],
        alone: Callable[[Work], Awaitable[Any]],
        told: Callable[[Any], None],
        lock: asyncio.Lock,
        *,
        max_batch: int = MAX_BATCH,
    ) -> None:
        self._run = run
        self._alone = alone
        self._told = told
        self._lock = lock
        self.max_batch = max_batch
        self._queue: list[Unit[Any]] = []
        self._drainer: asyncio.Task[None] | None = None
        #: batches run and units written (for the benchmarks)
        self.batches = 0
        self.units = 0

    async def write(
        self,
        work: Callable[[sqlite3.Connection], T],
        wrote: Any,
        then: Callable[[T], None] | None = None,
    ) -> T:
        """Queue ``work`` and wait for its batch: its result, or what it raised. ``then(result)``
        runs once it committed, right after its own ``told`` (see :class:`Unit`)."""
        loop = asyncio.get_running_loop()
        unit: Unit[T] = Unit(work, wrote, loop.create_future(), then)
        self._queue.append(unit)
        if self._drainer is None or self._drainer.done():
            self._drainer = loop.create_task(self._drain())
        try:
            return await asyncio.shield(unit.future)
        except asyncio.CancelledError:
            if not unit.taken and not unit.future.done():  # withdrawn: never written
                self._queue.remove(unit)
                raise
            with contextlib.suppress(Exception):  # in SQLite's hands: its batch ends first
                await finish(unit.future)
            raise

    async def drained(self) -> None:
        """Wait until every queued write has been run (before closing the connection)."""
        while self._drainer is not None and not self._drainer.done():
            await asyncio.shield(self._drainer)

    async def _drain(self) -> None:
        while self._queue:
            async with self._lock:
                batch = self._queue[: self.max_batch]
                del self._queue[: self.max_batch]
                for unit in batch:
                    unit.taken = True
                try:
                    answers = await self._answers(batch)
                except BaseException as e:
                    for unit in batch:
                        self._told(unit.wrote)
                        _settle(unit, e)
                    if not isinstance(e, Exception):  # the drainer itself is cancelled
                        for unit in self._queue:
                            _settle(unit, e)
                        self._queue.clear()
                        raise
                    continue
                self.batches += 1
                self.units += len(batch)
                for unit, answer in zip(batch, answers, strict=True):
                    self._told(unit.wrote)
                    if unit.then is not None and not isinstance(answer, Failed):
                        try:
                            unit.then(answer)
                        except Exception:
                            log.exception("a write's follow-up failed (the write stands)")
                    _settle(unit, answer)

    async def _answers(self, batch: list[Unit[Any]]) -> list[Any]:
        """Each unit's result or :class:`Failed`: in one batch, or each alone if the batch as a
        whole failed."""
        try:
            return await self._run([u.work for u in batch])
        except StorageBusy:  # the file stayed locked: alone, each would wait as long again
            raise
        except Exception:
            if len(batch) == 1:
                raise
        answers: list[Any] = []
        for unit in batch:  # one unit's fault must not be the others': each on its own
            try:
                answers.append(await self._alone(unit.work))
            except Exception as e:  # noqa: BLE001 - handed to that unit's caller
                answers.append(Failed(e))
        return answers


def _settle(unit: Unit[Any], answer: Any) -> None:
    if unit.future.done():
        return
    if isinstance(answer, asyncio.CancelledError):
        unit.future.cancel()
    elif isinstance(answer, Failed):
        unit.future.set_exception(answer.error)
    elif isinstance(answer, BaseException):
        unit.future.set_exception(answer)
    else:
        unit.future.set_result(answer)
