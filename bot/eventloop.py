"""The event loop the bot runs on: uvloop where it is installed, else asyncio's own.

One bot process answers every interaction of every table on one event loop, and that loop's
own work (selecting sockets, scheduling callbacks and tasks, the hand-overs from the SQLite
thread and the drawing workers) was the largest share of the bot's CPU (BENCHMARKS.md, issue
33: 36 % at 2,000 tables). uvloop does the same work in C on libuv: measured with
``benchmarks/tables.py`` it cuts the bot's CPU per move and lets one process hold more tables.
It is a dependency on Linux and macOS only (it has no Windows build); anywhere it is missing
the bot runs on asyncio's loop unchanged. ``CARCABOT_EVENT_LOOP=asyncio`` chooses asyncio's
loop even where uvloop is installed (to compare, or to rule uvloop out).

The loop shares the interpreter with SQLite's threads (aiosqlite): each write or read is handed
to a thread that must take the interpreter's lock from the loop, which CPython lets a busy
thread keep for 5 ms. :func:`short_switches` makes that 1 ms while the bot runs: at 2,500
tables a move held its work slot 20 % less and waited for one half as long (BENCHMARKS.md,
"Issue 33, seventh pass").
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

T = TypeVar("T")
LoopName = Literal["uvloop", "asyncio"]
#: the environment variable that picks the loop: ``uvloop``, ``asyncio`` or empty (the best)
ENV = "CARCABOT_EVENT_LOOP"
#: how long a thread may keep the interpreter while another waits for it (CPython: 5 ms)
SWITCH_INTERVAL_S = 0.001


class EventLoopError(RuntimeError):
    """``CARCABOT_EVENT_LOOP`` names a loop this machine cannot run."""


def choose(wanted: str | None = None) -> LoopName:
    """The loop to run: ``wanted`` (else ``$CARCABOT_EVENT_LOOP``) when set, else uvloop if it
    is installed, else asyncio.

    Raises:
        EventLoopError: an unknown name, or ``uvloop`` asked for where it is not installed.
    """
    name = (wanted if wanted is not None else os.environ.get(ENV, "")).strip().lower()
    if name not in ("", "uvloop", "asyncio"):
        raise EventLoopError(f"{ENV} must be uvloop or asyncio, not {name!r}")
    if name == "asyncio":
        return "asyncio"
    if _uvloop_factory() is not None:
        return "uvloop"
    if name == "uvloop":
        raise EventLoopError("uvloop is not installed here: pip install uvloop, or unset " + ENV)
    return "asyncio"


def run(main: Coroutine[Any, Any, T], loop: LoopName | None = None) -> T:
    """Run ``main`` to completion on a new loop of the chosen kind (``asyncio.run``'s
    contract: the loop is closed and its async generators finalised at the end)."""
    factory = _uvloop_factory() if (loop or choose()) == "uvloop" else None
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)


def _uvloop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def short_switches(interval: float = SWITCH_INTERVAL_S) -> float:
    """Let a thread keep the interpreter at most ``interval`` seconds while another waits for it
    (see the module docstring); the previous interval, to put back when the bot stops."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(interval)
    return previous
