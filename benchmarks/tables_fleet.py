"""Several bot processes of benchmarks/tables.py on one PostgreSQL database (``--processes N``).

The parent process makes one database on the ``--database`` server and starts N copies of
``tables.py`` (``--child I/N``), each a whole bot (its service and pools, its drawing workers,
its fake Discord and its driver) holding its share of the tables, as several shards'
processes would share one database. The parent steps them together over one protocol of JSON
lines (its commands on their stdin, their answers on their stdout; what they print goes to
stderr, each line marked ``[bot I]``): seed your share, then *go* at one wall-clock time, so
that every process warms up and measures over the same window, while the parent counts the
database server's CPU over that window and samples every process's memory. The figures are
merged: latencies are percentiles over all processes' samples, CPU is summed per process kind
(bot processes, drawing workers, the server), and the end check covers every board.

Also the pure parts both paths use: the :class:`Step` of a measured window, its percentiles,
and the server's CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TextIO

try:  # run as a script: benchmarks/ is on the path
    from tables_driver import Stats, _proc_cpu, _rss
except ImportError:  # imported as benchmarks.tables_fleet (the tests)
    from benchmarks.tables_driver import Stats, _proc_cpu, _rss

#: the index of the first table of bot process I is I times this (channels never collide)
TABLES_APART = 1_000_000
#: seconds between the parent's *go* and the wall-clock time it names (the message's trip)
GO_LEAD_S = 0.5
#: the new tables' players start this long after *go* (as one process's do after seeding)
START_AFTER_S = 1.5


# ---------------------------------------------------------------------------- a window
def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank); NaN when there are none."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))] if s else float("nan")


@dataclass
class Step:
    """One measured window: what the players saw and the CPU each kind of process spent."""

    tables: int
    stats: Stats
    cpu_bot: float
    cpu_driver: float
    cpu_gateway: float
    cpu_workers: float
    cpu_animations: float
    wall: float
    load: float
    #: CPU of the PostgreSQL server's processes (``--database``), 0 for SQLite
    cpu_server: float = 0.0

    @property
    def p99(self) -> float:
        return pct(self.stats.times["board"], 0.99) * 1000

    def held(self, goal_ms: float) -> bool:
        return bool(self.stats.times["board"]) and self.p99 <= goal_ms and not self.stats.errors


async def ramp(
    counts: list[int],
    bisect: int | None,
    goal_ms: float,
    measure: Callable[[int, bool], Awaitable[Step]],
) -> int | None:
    """The largest count that held: ``measure(n, fresh)`` each of ``counts`` in turn until one
    does not hold, then ``bisect`` times between the last that held and the first that did not
    (``fresh``: on new bots, as tables cannot leave one). ``bisect`` None: one count measured,
    no search (None when it did not hold)."""
    held = failed = None
    for n in counts:
        if (await measure(n, False)).held(goal_ms):
            held = n
        else:
            failed = n
            break
    if failed is None or bisect is None:
        return held
    lo, hi = held or 0, failed
    for _ in range(bisect):
        if hi - lo <= max(10, hi // 20):
            break
        mid = (lo + hi) // 2
        if (await measure(mid, True)).held(goal_ms):
            lo = mid
        else:
            hi = mid
    return lo


def verdict(checked: int, lobbies: int, wrong: list[str]) -> str:
    """The end check in words: boards checked, and a lost or doubled move if any."""
    head = f"moves checked on {checked} boards ({lobbies} in a lobby): "
    return head + ("every move made exactly once" if not wrong else "; ".join(wrong[:5]))


def step_to_json(s: Step) -> dict[str, Any]:
    """A child's window, for the parent (every sample kept: the percentiles are merged)."""
    out = {f.name: getattr(s, f.name) for f in fields(s) if f.name != "stats"}
    st = s.stats
    out["stats"] = {f.name: getattr(st, f.name) for f in fields(st)}
    out["stats"]["times"] = dict(st.times)
    return out


def step_from_json(d: dict[str, Any]) -> Step:
    raw = dict(d["stats"])
    times: defaultdict[str, list[float]] = defaultdict(list, raw.pop("times"))
    return Step(**{k: v for k, v in d.items() if k != "stats"}, stats=Stats(times=times, **raw))


def merge_steps(parts: list[Step], cpu_server: float, load: float) -> Step:
    """The processes' windows as one: samples pooled (percentiles over every move of every
    process), counts and CPU summed, the longest window as the wall time, the parent's
    server CPU and load average."""
    stats = Stats()
    for p in parts:
        for name, values in p.stats.times.items():
            stats.times[name].extend(values)
        stats.errors.extend(p.stats.errors)
        stats.tiles.extend(p.stats.tiles)
        stats.moves += p.stats.moves
        stats.finished += p.stats.finished
        stats.lost += p.stats.lost
        stats.busy += p.stats.busy
    return Step(
        sum(p.tables for p in parts),
        stats,
        sum(p.cpu_bot for p in parts),
        sum(p.cpu_driver for p in parts),
        sum(p.cpu_gateway for p in parts),
        sum(p.cpu_workers for p in parts),
        sum(p.cpu_animations for p in parts),
        max((p.wall for p in parts), default=0.0),
        load,
        cpu_server,
    )


def share(n: int, processes: int, i: int) -> int:
    """Process ``i``'s share of ``n`` tables (the first ones take one more when uneven)."""
    return n // processes + (i < n % processes)


# ---------------------------------------------------------------------------- the server
async def postmaster_pid(url: str) -> int | None:
    """The PostgreSQL server's main process, when it runs on this machine (the parent of the
    backend serving a connection); None when it runs elsewhere."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:  # while the backend lives (it ends with the connection)
        backend = int(await conn.fetchval("SELECT pg_backend_pid()"))
        try:
            stat = Path(f"/proc/{backend}/stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            comm = Path(f"/proc/{parent}/comm").read_text().strip()
        except (OSError, IndexError, ValueError):
            return None
    finally:
        await conn.close()
    return parent if comm in ("postgres", "postmaster") else None


def server_cpu(postmaster: int | None) -> float:
    """CPU seconds of the database server: its main process, the children it reaped (their
    CPU is added to its own when they end, so a connection closed in the window still
    counts) and the ones alive. Unknown main process: every ``postgres`` process of this
    machine (run on a machine whose only PostgreSQL server is the one measured)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if postmaster is None:
                if (entry / "comm").read_text().strip() == "postgres":
                    total += _proc_cpu(int(entry.name))
                continue
            parts = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry.name), int(parts[1])
        if pid == postmaster:  # utime, stime, cutime, cstime
            total += sum(int(x) for x in parts[11:15]) / tick
        elif ppid == postmaster:
            total += (int(parts[11]) + int(parts[12])) / tick
    return total


# ---------------------------------------------------------------------------- a bot process
class _Marked:
    """A text stream that starts each line with ``mark`` (a child's prints on stderr)."""

    def __init__(self, out: TextIO, mark: str) -> None:
        self.out = out
        self.mark = mark
        self.fresh = True

    def write(self, text: str) -> int:
        for line in text.splitlines(keepends=True):
            self.out.write((self.mark if self.fresh else "") + line)
            self.fresh = line.endswith("\n")
        return len(text)

    def flush(self) -> None:
        self.out.flush()


async def child_main(
    args: argparse.Namespace, make_bench: Callable[[argparse.Namespace], Any]
) -> None:
    """One bot process of a ``--processes`` run: its share of the tables on the shared
    database, stepped by the parent's commands (see the module docstring)."""
    index, count = args.child
    wire = sys.stdout
    sys.stdout = _Marked(sys.stderr, f"[bot {index}] ")  # type: ignore[assignment]
    args.seed = args.seed + 1000 * index  # the processes' players keep different schedules

    def send(message: dict[str, Any]) -> None:
        wire.write(json.dumps(message) + "\n")
        wire.flush()

    async def receive() -> dict[str, Any]:
        line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        if not line:
            raise SystemExit(1)  # the parent is gone
        message: dict[str, Any] = json.loads(line)
        return message

    bench = make_bench(args)
    bench.offset = index * TABLES_APART
    bench.shared_db = args.child_db
    bench.count_server = False
    await bench.open(Path(tempfile.gettempdir()) / "unused.sqlite3")
    try:
        send({"workers": bench.worker_pids()})
        new: list[Any] = []
        while True:
            cmd = await receive()
            if cmd["cmd"] == "seed":
                new = await bench.seed(cmd["tables"])
                send({"seeded": len(new)})
            elif cmd["cmd"] == "go":
                base = float(cmd["at"])
                offset = time.perf_counter() - time.time()
                bench.start(new, base + START_AFTER_S + offset)
                new = []
                await asyncio.sleep(max(0.0, base + args.warmup - time.time()))
                step = await bench.measure(len(bench.tables))
                send({"step": step_to_json(step)})
            elif cmd["cmd"] == "finish":
                out: dict[str, Any] = {}
                if cmd["verify"]:
                    out["check"] = list(await bench.check())
                    png = bench.service.pictures.cache
                    out["games"] = len(bench.service.store.cache)
                    out["game_bytes"] = getattr(bench.service.store.cache, "bytes", 0)
                    out["pictures"] = len(png)
                    out["late_acks"] = getattr(bench.fake, "late_acks", 0)
                send(out)
                return
    finally:
        await bench.close()


# ---------------------------------------------------------------------------- the parent
class FleetMemory:
    """Samples the RSS of every bot process and drawing worker twice a second; the peaks."""

    def __init__(self, bots: list[int], workers: list[int]) -> None:
        self.bots, self.workers = bots, workers
        self.peak: dict[int, float] = {}
        self.peak_total = 0.0
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            now = {p: _rss(p) for p in (*self.bots, *self.workers)}
            for p, v in now.items():
                self.peak[p] = max(self.peak.get(p, 0.0), v)
            self.peak_total = max(self.peak_total, sum(now.values()))
            await asyncio.sleep(0.5)

    def stop(self) -> None:
        self._task.cancel()

    def summary(self) -> str:
        bots = ", ".join(f"{self.peak.get(p, 0.0):.0f}" for p in self.bots)
        workers = ", ".join(f"{self.peak.get(p, 0.0):.0f}" for p in self.workers)
        return (
            f"bot processes peak {bots} MB RSS, workers peak {workers} MB, "
            f"all together peak {self.peak_total:.0f} MB"
        )


class Fleet:
    """N bot processes on one new database of the ``--database`` server."""

    def __init__(self, args: argparse.Namespace, script: Path, label: str) -> None:
        self.args = args
        self.script = script
        self.name = f"carcabench_{os.getpid()}_{label}"
        self.procs: list[asyncio.subprocess.Process] = []
        self.workers: list[list[int]] = []
        self.url = ""
        self.postmaster: int | None = None
        self.memory: FleetMemory | None = None
        self.finished = False
        self.created = False

    async def open(self) -> None:
        """The shared database (migrated once, before any bot opens it), then the bots."""
        import asyncpg

        from storage.postgres import migrate
        from storage.postgres.admin import create_database

        self.url = await create_database(self.args.database, self.name)
        self.created = True
        conn = await asyncpg.connect(self.url)
        try:
            await migrate(conn)
        finally:
            await conn.close()
        self.postmaster = await postmaster_pid(self.url)
        n = self.args.processes
        argv = sys.argv[1:]
        for i in range(n):
            self.procs.append(
                await asyncio.create_subprocess_exec(
                    sys.executable, str(self.script), *argv,
                    "--child", f"{i}/{n}", "--child-db", self.url,
                    stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    limit=1 << 28,
                )
            )  # fmt: skip
        hello = await self._all()
        self.workers = [h["workers"] for h in hello]
        self.memory = FleetMemory(self.pids, [w for ws in self.workers for w in ws])

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    async def _send(self, i: int, message: dict[str, Any]) -> None:
        stdin = self.procs[i].stdin
        assert stdin is not None
        stdin.write((json.dumps(message) + "\n").encode())
        await stdin.drain()

    async def _receive(self, i: int) -> dict[str, Any]:
        stdout = self.procs[i].stdout
        assert stdout is not None
        line = await stdout.readline()
        if not line:
            code = await self.procs[i].wait()
            raise RuntimeError(f"bot process {i} ended (exit code {code}); see its [bot {i}] lines")
        message: dict[str, Any] = json.loads(line)
        return message

    async def _all(self) -> list[dict[str, Any]]:
        return list(await asyncio.gather(*(self._receive(i) for i in range(len(self.procs)))))

    async def step(self, n: int) -> tuple[Step, list[Step]]:
        """Every process seeds its share of ``n`` tables; then all go at one time, warm up
        and measure over the same window while the server's CPU is counted here."""
        count = len(self.procs)
        for i in range(count):
            await self._send(i, {"cmd": "seed", "tables": share(n, count, i)})
        await self._all()
        base = time.time() + GO_LEAD_S
        for i in range(count):
            await self._send(i, {"cmd": "go", "at": base})
        await asyncio.sleep(max(0.0, base + self.args.warmup - time.time()))
        s0 = server_cpu(self.postmaster)
        await asyncio.sleep(self.args.measure)
        cpu_server = server_cpu(self.postmaster) - s0
        parts = [step_from_json(m["step"]) for m in await self._all()]
        return merge_steps(parts, cpu_server, os.getloadavg()[0]), parts

    async def finish(self, verify: bool) -> list[dict[str, Any]]:
        """Ask every process to stop (after the end check when ``verify``); their answers."""
        self.finished = True
        for i in range(len(self.procs)):
            await self._send(i, {"cmd": "finish", "verify": verify})
        return await self._all()

    async def close(self) -> None:
        """The processes ended (stopped if they did not finish), the database dropped."""
        if self.memory is not None:
            self.memory.stop()
        if not self.finished:  # an error here: end of input tells them to close their bots
            for p in self.procs:
                if p.stdin is not None and p.returncode is None:
                    p.stdin.close()
        for p in self.procs:
            try:
                await asyncio.wait_for(p.wait(), 120)
            except TimeoutError:
                p.kill()
                await p.wait()
        if not self.created:
            return
        from storage.postgres.admin import drop_database

        try:
            await drop_database(self.args.database, self.name)
        except Exception as e:  # noqa: BLE001 - not to hide what ended the run
            print(f"database {self.name} not dropped: {type(e).__name__}: {e}", file=sys.stderr)


def part_lines(parts: list[Step]) -> list[str]:
    """One line per process: its tables, moves, board p99 and CPU per move."""
    lines = []
    for i, p in enumerate(parts):
        moves = max(p.stats.finished, 1)
        lines.append(
            f"  bot {i}: {p.tables} tables, {p.stats.moves} moves, board p99 {p.p99:.0f} ms; "
            f"CPU per move: bot process {(p.cpu_bot - p.cpu_driver) / moves * 1000:.1f} ms, "
            f"drawing workers {p.cpu_workers / moves * 1000:.1f} ms; errors {len(p.stats.errors)}"
        )
    return lines


async def fleet_main(
    args: argparse.Namespace,
    script: Path,
    header: Callable[[], None],
    report: Callable[[Step], None],
) -> None:
    """The ``--processes N`` run: the ramp (or ``--tables``) of ``tables.py`` over N bot
    processes sharing one database; a bisected count starts a fresh set of processes."""
    header()
    fleet = Fleet(args, script, "0")
    try:
        await _open(fleet, args)

        async def measure(n: int, fresh: bool) -> Step:
            nonlocal fleet
            if fresh:
                await fleet.finish(verify=False)
                await fleet.close()
                fleet = Fleet(args, script, str(n))
                await _open(fleet, args)
            return await _measured(fleet, n, report)

        counts = [args.tables] if args.tables else args.steps
        held = await ramp(counts, None if args.tables else args.bisect, args.goal, measure)
        memory = fleet.memory.summary() if fleet.memory is not None else ""
        ends = await fleet.finish(verify=True)
        games = sum(e["games"] for e in ends)
        game_mb = sum(e["game_bytes"] for e in ends) / 2**20
        print(
            f"memory: {memory}; game caches {games} games (~{game_mb:.0f} MB estimated), "
            f"picture caches {sum(e['pictures'] for e in ends)} pictures"
        )
        checks = [e["check"] for e in ends]
        checked = sum(c[0] for c in checks)
        lobbies = sum(c[1] for c in checks)
        wrong = [w for c in checks for w in c[2]]
        print(
            f"acknowledgements: {sum(e['late_acks'] for e in ends)} answered after "
            f"{args.ack_deadline:g} s in the last run; {verdict(checked, lobbies, wrong)}"
        )
        if not args.tables:
            print(
                f"RESULT: {args.processes} bot processes hold {held or 0} tables at one move per "
                f"{args.interval:g} s with board p99 <= {args.goal:.0f} ms (load average now "
                f"{os.getloadavg()[0]:.2f})"
            )
    finally:
        await fleet.close()


async def _open(fleet: Fleet, args: argparse.Namespace) -> None:
    await fleet.open()
    print(
        f"{args.processes} bot processes {fleet.pids} on one database ({fleet.name}), drawing "
        f"workers {fleet.workers}; server's main process {fleet.postmaster or 'not on this machine'}",
        flush=True,
    )


async def _measured(fleet: Fleet, n: int, report: Callable[[Step], None]) -> Step:
    s, parts = await fleet.step(n)
    report(s)
    for line in part_lines(parts):
        print(line)
    return s
