"""Does a table with AI seats play as smoothly as one without? (issue 30)

One bot, through the real discord.py stack (``tests/fakediscord.py``) on a real SQLite file,
drawing in worker processes and thinking in ``--ai-workers`` AI processes, as the bot runs:

* ``--tables`` two-player tables of people, each moving once every ``--interval`` seconds
  (``benchmarks/tables_driver.py``: autocompletes, then ``/carcassonne place``);
* ``--ai-tables`` tables of one person against an AI at ``--level`` (``/carcassonne new
  opponents:1``): the person moves ``--think`` seconds after the AI's move is posted.

Two phases of ``--measure`` seconds on the same bot: the people's tables alone, then with the
AI tables playing too. Printed for each: the people's move latencies (from the move's arrival
to the board sent), the AI-table players' move latencies, how long each AI turn took from the
player's board to the AI's (its search included), and the event loop's lag (a 10 ms ticker's
oversleep): while an AI searches in its process, the loop must not notice.

    python benchmarks/ai_tables.py                                   # 40 + 4 tables, strong AIs
    python benchmarks/ai_tables.py --tables 100 --ai-tables 8 --measure 60
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0]).resolve() == ROOT / "benchmarks":
    sys.path.pop(0)  # benchmarks/engine.py would shadow the engine package
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "benchmarks"))

from tables_driver import Clock, Driver, LeanDiscord, Table, seed_tables, timed  # noqa: E402

from app.matches import MatchService  # noqa: E402
from app.painters import start_thinkers  # noqa: E402
from bot.app import CarcBot, start_painters  # noqa: E402
from tests.fakediscord import User  # noqa: E402

AI_CHANNEL_BASE = 800_000_000_000_000_000


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))] if s else float("nan")


def line(name: str, values: list[float]) -> str:
    if not values:
        return f"  {name:34} (none)"
    ms = [1000 * v for v in values]
    return (
        f"  {name:34} n={len(ms):5d}  p50 {statistics.median(ms):7.1f}  p90 {pct(ms, 0.9):7.1f}"
        f"  p99 {pct(ms, 0.99):7.1f}  max {max(ms):7.1f} ms"
    )


class LoopLag:
    """How late a 10 ms ticker wakes up: the event loop's responsiveness."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(time.perf_counter() - t0 - 0.01)

    def stop(self) -> None:
        self._task.cancel()


class AiTables:
    """People playing against AIs: each moves ``think`` s after the AI's move is posted."""

    def __init__(self, bench: Bench, n: int, args: argparse.Namespace) -> None:
        self.bench = bench
        self.args = args
        self.n = n
        self.moves: list[float] = []  # the person's move: arrival to board sent
        self.ai_turns: list[float] = []  # the person's board to the AI's board
        self.games = 0
        self.tasks: list[asyncio.Task[None]] = []
        self.measuring = False
        self.stop = False

    async def start(self) -> None:
        for i in range(self.n):
            user = User(50_000 + i, f"P{i}")
            t = Table(10_000 + i, AI_CHANNEL_BASE + i, {user.id: user}, user.id, 0)
            await self._new(t)
            self.tasks.append(asyncio.create_task(timed(self._play(t), self.bench.clock)))

    async def _new(self, t: Table) -> None:
        fake = self.bench.fake
        user = t.users[t.current]
        iid, payload = fake.slash_payload(
            user, "new", channel_id=t.channel, opponents=1, level=self.args.level
        )
        w = await self.bench.driver._send(payload, iid, "reply", t.channel)
        await asyncio.wait_for(w.fut, 120)
        t.placed = 0

    def _my_turn(self, t: Table) -> bool:
        text = self.bench.clock.text.get(t.channel, "")
        return f"<@{t.current}>" in text and "thinking" not in text

    async def _play(self, t: Table) -> None:
        clock = self.bench.clock
        while not self.stop:
            waited = time.perf_counter()
            while not self._my_turn(t) and "🏁" not in clock.text.get(t.channel, ""):
                await asyncio.sleep(0.02)
                if time.perf_counter() - waited > 300:
                    raise RuntimeError(f"AI table {t.index}: no turn came back")
            if "🏁" in clock.text.get(t.channel, ""):
                self.games += 1
                clock.text.pop(t.channel, None)
                await self._new(t)
                continue
            await asyncio.sleep(self.args.think)
            if self.stop:
                return
            await self._move(t)

    async def _move(self, t: Table) -> None:
        """The person's move (as the tables benchmark makes it), then the AI's turn timed."""
        d = self.bench.driver
        user = t.users[t.current]
        cells = await d.ask(t, "cell", cell="")
        cell = d.rng.choice(cells)["value"]
        rots = await d.ask(t, "rotation", cell=cell, rotation="")
        rot = d.rng.choice(rots)["value"]
        fols = await d.ask(t, "follower", cell=cell, rotation=rot, follower="")
        follower = d.rng.choice(fols)["value"] if fols else "none"
        iid, payload = d._payload(
            user, "place", t.channel, cell=cell, rotation=rot, follower=follower
        )
        sent = time.perf_counter()
        w = await d._send(payload, iid, "move", t.channel)
        done, req = await asyncio.wait_for(w.fut, 300)
        self.bench.fake.forget(payload["token"])
        if "Done" not in req.content:
            raise RuntimeError(f"AI table {t.index}: move refused: {req.content[:200]}")
        board = w.board if w.board is not None else done
        if self.measuring:
            self.moves.append(board - sent)
        if "🏁" in self.bench.clock.text.get(t.channel, ""):
            return
        # the AI's turn: from the person's board until the AI's board is posted
        while not self._my_turn(t) and "🏁" not in self.bench.clock.text.get(t.channel, ""):
            await asyncio.sleep(0.01)
        if self.measuring:
            self.ai_turns.append(self.bench.clock.boards.get(t.channel, board) - board)


class Bench:
    async def open(self, db: Path, args: argparse.Namespace) -> None:
        painter, animations = await start_painters(args.workers)
        self.service = await MatchService.open(
            db, painter=painter, animation_painter=animations, cache_size=4096
        )
        self.painters = {id(p): p for p in (painter, animations)}
        self.thinkers = start_thinkers(args.ai_workers) if args.ai_workers > 0 else None
        self.service.ai_executor = self.thinkers
        self.bot = CarcBot(self.service, background_tasks=False)
        self.fake = LeanDiscord(self.bot)
        self.fake.ack_deadline = 3.0
        await self.fake.start()
        self.clock = Clock(self.fake)
        self.driver = Driver(self.fake, self.clock, args)

    async def close(self) -> None:
        await self.fake.close()
        await self.service.close()
        for p in self.painters.values():
            await p.close()
        if self.thinkers is not None:
            self.thinkers.shutdown(wait=False, cancel_futures=True)


async def phase(bench: Bench, args: argparse.Namespace, ai: AiTables | None, name: str) -> None:
    d = bench.driver
    await asyncio.sleep(args.warmup)
    d.stats.times.clear()
    d.measuring = True
    if ai is not None:
        ai.measuring = True
    lag = LoopLag()
    t0, c0 = time.perf_counter(), time.process_time()
    await asyncio.sleep(args.measure)
    lag.stop()
    d.measuring = False
    if ai is not None:
        ai.measuring = False
    wall = time.perf_counter() - t0
    print(f"{name}: {wall:.0f} s, bot process CPU {(time.process_time() - c0) / wall:.2f} cores")
    print(line("people's tables: move -> board", d.stats.times.get("board", [])))
    print(line("people's tables: acknowledgement", d.stats.times.get("ack (any)", [])))
    if ai is not None:
        print(line("AI tables: the person's move -> board", ai.moves))
        print(line("AI tables: person's board -> AI's", ai.ai_turns))
    print(line("event loop lag (10 ms ticker)", lag.lags))
    print(f"  dropped interactions (10062): {bench.fake.late_acks}", flush=True)


async def main(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.WARNING)
    print(
        f"machine: {platform.machine()}, nproc {os.cpu_count()}, Python "
        f"{platform.python_version()}, load average {os.getloadavg()[0]:.2f}; {args.tables} "
        f"people's tables (a move per {args.interval:g} s each), {args.ai_tables} tables against "
        f"a {args.level} AI ({args.ai_workers} AI process(es), a person thinks {args.think:g} s)",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench()
        await bench.open(Path(tmp) / "ai.sqlite3", args)
        tables = await seed_tables(bench.service, args.tables, args)
        start = time.perf_counter() + 1.0
        runs = [
            asyncio.create_task(timed(bench.driver.run_table(t, start), bench.clock))
            for t in tables
        ]
        ai = AiTables(bench, args.ai_tables, args)
        try:
            await phase(bench, args, None, "phase 1, people's tables alone")
            await ai.start()
            await phase(bench, args, ai, "phase 2, with the AI tables")
            print(f"  AI games finished while measuring: {ai.games}")
            if bench.driver.stats.errors:
                print("  first error:", bench.driver.stats.errors[0])
        finally:
            ai.stop = True
            bench.driver.stop_at = 0.0
            for task in [*runs, *ai.tasks]:
                task.cancel()
            await asyncio.gather(*runs, *ai.tasks, return_exceptions=True)
            await bench.close()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=40, help="people's tables")
    p.add_argument("--ai-tables", type=int, default=4, help="tables of a person against an AI")
    p.add_argument("--level", default="strong")
    p.add_argument("--think", type=float, default=2.0, help="a person's thinking, s")
    p.add_argument("--interval", type=float, default=20.0)
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--measure", type=float, default=40.0)
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="drawing processes")
    p.add_argument("--ai-workers", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    p.add_argument("--stages", type=lambda s: tuple(int(x) for x in s.split(":")), default=(0, 70))
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
