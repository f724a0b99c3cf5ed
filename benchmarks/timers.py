"""What the timers cost between deadlines: 1,000 running tables with a turn clock and a reminder
each, and the bot's scheduler (bot/cogs/upkeep.py) idle until the first deadline.

The tables are real matches on a real SQLite file (started through ``MatchService``, so each
has its ``deadline`` and ``turn_reminder`` rows). The scheduler task runs as in the bot; the
script measures this process's CPU time (``time.process_time``) over ``--idle`` seconds of
wall time during which no timer is due, and how many times the scheduler woke and read the
database. A polling loop would read every ``poll`` seconds whatever is due; the scheduler sleeps
until the next timer (at most ``SCHEDULER_NAP``).

    python benchmarks/timers.py --tables 1000 --idle 20
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# run as a script, this folder comes first on sys.path and its engine.py would shadow the package
_ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [str(_ROOT)] + [
    p for p in sys.path if Path(p or ".").resolve() != _ROOT / "benchmarks"
]

from app.cache import Lru  # noqa: E402
from app.matches import MatchOptions, MatchService  # noqa: E402
from bot.cogs.upkeep import SCHEDULER_NAP, Upkeep  # noqa: E402
from words.i18n import Lang  # noqa: E402


class _Bot:
    background_tasks = True

    def get_partial_messageable(self, channel_id: int) -> Any:  # never reached while idle
        raise AssertionError("no timer is due while idle")


async def _post(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("no timer is due while idle")


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--idle", type=float, default=20.0, help="seconds of wall time measured")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        svc = await MatchService.open(Path(tmp) / "timers.sqlite3", renderer=None, animator=None)
        t0 = time.perf_counter()
        options = MatchOptions(players=2, clock="async", reminder_minutes=60)
        for n in range(args.tables):
            channel = 10_000 + n
            await svc.create_lobby(1, channel, 1, "Ann", options, seed=n)
            await svc.join(channel, 2, "Bob")
            await svc.start(channel, 1)
        setup = time.perf_counter() - t0
        reads = 0
        real_next = svc.next_timer

        async def counted() -> float | None:
            nonlocal reads
            reads += 1
            return await real_next()

        svc.next_timer = counted  # type: ignore[method-assign]
        heard: Lru[int, Lang] = Lru(16)
        upkeep = Upkeep(_Bot(), svc, _post, heard)  # type: ignore[arg-type]
        upkeep.start()
        await asyncio.sleep(0.5)  # the first look: the next timer is an hour away
        cpu0, wall0, reads0 = time.process_time(), time.perf_counter(), reads
        await asyncio.sleep(args.idle)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        upkeep.stop()
        nxt = await real_next()
        await svc.close()
    print(f"tables                     {args.tables} (started in {setup:.1f} s)")
    print("timers per table           2 (async deadline 24 h, reminder 60 min)")
    print(f"next timer due in          {nxt - time.time():.0f} s" if nxt else "no timer")
    print(f"idle window                {wall:.1f} s wall")
    print(f"CPU in the window          {cpu * 1000:.2f} ms ({cpu / wall * 100:.3f} % of a core)")
    print(f"scheduler reads in window  {reads - reads0} (nap at most {SCHEDULER_NAP:.0f} s)")


if __name__ == "__main__":
    asyncio.run(main())
