"""How many tables one bot holds: open-loop moves through the real discord.py stack.

Every table is a 2-player match in its own channel of one bot (``tests/fakediscord.py``: the
real discord.py stack, gateway payloads in, HTTP answered in-process, no network) over one
``MatchService`` on a real SQLite file (WAL, ``synchronous=FULL``, its writer lock held as the
bot holds it, so the storage keeps what it read until it writes), drawing in worker
processes as the bot does (``--workers``; 0 = threads of the bot process). The tables are
pre-seeded at random stages of a base game (0 to 70 of its 71 placements, ``--stages``) by
replaying random games into the database, and the bot has each one cached, as in steady
state.

Each table moves once every ``--interval`` seconds (20: a human pace), on a fixed open-loop
schedule with a random phase, so moves arrive whether or not earlier ones are done and a
queue shows in the latencies. A move is what the Discord client sends: autocomplete for a
cell, a rotation and a follower (one, half and a quarter of a second before the move), then
``/carcassonne place cell: rotation: follower:``. Measured from the move's *scheduled*
arrival:

* **board** — until the new board is sent to the channel (the defer, the legality check, the
  database commit and the drawing included): the figure the goal is about;
* **done** — until the player's ephemeral "Done." (after the board and its message id are
  stored);
* **last** — board latency of the moves that end a game (their replay animation follows in a
  message of its own; **replay** is the time until it is sent);
* **autocomplete** — from each autocomplete's arrival until its choices are sent.

A finished table starts a new match (``/carcassonne new``, ``join``, ``start``).

A finished table starts its next match at once; its replay animation is timed apart.

CPU per move: this process's CPU time (the bot, the fake Discord standing in for aiohttp, and
the driver, whose own share is measured and shown apart) and the drawing workers' (from
``/proc``), over the measured window, divided by the moves made in it. The driver runs on the
bot's event loop: every step of its coroutines is timed (``tables_driver.Timed``) and left
out of the bot's figure, except discord.py's parsing of each interaction it hands over (what
a live gateway event costs the bot too; shown). ``--wire`` runs discord.py's real gateway
and HTTP code down to a fake socket and session (events as JSON text, request bodies
encoded): the bot's whole share of a live connection. Memory: RSS of the bot process and of
every worker, sampled twice a second (peak), and the caches' sizes.

The run ramps the table count through ``--steps`` (each: ``--warmup`` s, then ``--measure``
s measured) until the board p99 exceeds ``--goal`` ms, then bisects ``--bisect`` times
between the last count that held and the first that did not, and prints the largest number
of tables that held. Defaults take about four minutes; a full run::

    python benchmarks/tables.py --steps 200,400,600,800,1000,1200 --measure 120 --bisect 3
    python benchmarks/tables.py --tables 300 --measure 60 --stages 60:70  # one count, late game
    python benchmarks/tables.py --tables 750 --measure 40 --wire  # discord.py's HTTP code too
    python benchmarks/tables.py --database postgresql://postgres@/postgres?host=/tmp/pg

``--database URL`` keeps the matches in PostgreSQL instead (a new database on that server for
each bot, dropped at the end) and counts the server's CPU per move beside the bot's (its main
process, the connections it serves and those it reaped; every ``postgres`` process of the
machine when the server runs elsewhere).

``--processes N`` (with ``--database`` only; SQLite stays one process's) runs N bot processes,
each a whole bot as above (its service and pools, drawing workers, fake Discord and driver)
holding its share of the tables, all on ONE new database of the server, as several shards'
processes share one (``tables_fleet.py``). They seed, start and measure over the same window;
the figures are merged: moves per second, latency percentiles over every process's samples,
CPU per move of the bot processes, the drawing workers and the server, the peak memory of all
of them together, and the end check over every board; a line per process follows::

    python benchmarks/tables.py --database $PG --processes 2 --tables 500 --measure 60
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import logging
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _tree() -> Path:
    """``--tree PATH`` measures another checkout of the project (e.g. main, before a change)."""
    if "--tree" in sys.argv:
        return Path(sys.argv[sys.argv.index("--tree") + 1]).resolve()
    return ROOT


TREE = _tree()
sys.path.insert(0, str(TREE))
if TREE != ROOT:
    sys.path.insert(1, str(ROOT))  # tests/fakediscord.py from this checkout if missing there

from tables_driver import (  # noqa: E402
    PLACEMENTS,
    Clock,
    Driver,
    GcTimes,
    LeanDiscord,
    Memory,
    Stats,
    Table,
    _proc_cpu,
    _rss,
    _self_cpu,
    seed_tables,
    timed,
)
from tables_fleet import (  # noqa: E402
    Step,
    child_main,
    fleet_main,
    pct,
    postmaster_pid,
    ramp,
    server_cpu,
    verdict,
)

from app.errors import ServiceError  # noqa: E402
from app.matches import MatchService  # noqa: E402
from bot.app import CarcBot  # noqa: E402
from tests.fakediscord import _is_view_timer  # noqa: E402

try:  # absent before issue 15 (--tree of an older checkout)
    from bot.gcpause import freeze_survivors
except ImportError:  # pragma: no cover - older checkouts
    freeze_survivors = None  # type: ignore[assignment]
try:  # absent before issue 33's seventh pass (--tree of an older checkout)
    from bot.eventloop import short_switches
except ImportError:  # pragma: no cover - older checkouts
    short_switches = None  # type: ignore[assignment]
try:  # absent before the drawing workers existed (--tree of an older checkout)
    from bot.app import start_painters
except ImportError:  # pragma: no cover - older checkouts
    start_painters = None  # type: ignore[assignment]


# ---------------------------------------------------------------------------- the run
class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.tables: list[Table] = []
        self.tasks: list[asyncio.Task[None]] = []
        #: with ``--processes``: the first table's index (tables of several bots never share a
        #: channel), the database every bot shares (not made or dropped by this one), and
        #: whether this process counts the server's CPU (the parent counts it once)
        self.offset = 0
        self.shared_db: str | None = None
        self.count_server = True
        self.postmaster: int | None = None

    async def open(self, db: Path) -> None:
        """The bot on a fresh database: the SQLite file ``db``, or with ``--database`` a new
        database on that PostgreSQL server (``shared_db``: the one the parent made)."""
        args = self.args
        self.pg_name = None
        target: Path | str = db
        if self.shared_db is not None:
            target = self.shared_db
        elif args.database:
            self.pg_name = f"carcabench_{os.getpid()}_{db.stem.replace('-', '_')}"
            from storage.postgres.admin import create_database

            target = await create_database(args.database, self.pg_name)
            self.postmaster = await postmaster_pid(target)
        kwargs: dict[str, Any] = {"cache_size": args.cache}
        params = inspect.signature(MatchService.__init__).parameters
        self.painter = self.animations = None
        if start_painters is not None and "painter" in params:
            self.painter, self.animations = await start_painters(args.workers)
            kwargs.update(painter=self.painter, animation_painter=self.animations)
        if "cache_bytes" in params:
            kwargs["cache_bytes"] = args.cache_bytes
        if "writer" in inspect.signature(MatchService.open).parameters:
            kwargs["writer"] = True  # as the bot opens its file (bot/app.py)
        self.service = await MatchService.open(target, **kwargs)
        self.bot = CarcBot(self.service, background_tasks=False)
        self.fake = LeanDiscord(self.bot, wire=args.wire)
        if hasattr(self.fake, "ack_deadline"):  # Discord's 3 s (absent in older checkouts)
            self.fake.ack_deadline = args.ack_deadline or None
        await self.fake.start()
        self.clock = Clock(self.fake)
        self.gc = GcTimes()
        if freeze_survivors is not None and not args.no_gc_freeze:
            freeze_survivors()  # as run_bot does
        if short_switches is not None:
            short_switches()  # as run_bot does
        if args.gc_threshold:
            gc.set_threshold(*args.gc_threshold)
        self.driver = Driver(self.fake, self.clock, args)

    def worker_pids(self) -> list[int]:
        pids: set[int] = set()
        for p in (self.painter, self.animations):
            if p is not None:
                pids.update(p.pids())
        return sorted(pids)

    async def close(self) -> None:
        self.driver.stop_at = 0.0
        tasks = [*self.tasks, *self.driver.replay_tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # let the bot finish the moves it is in the middle of before its database closes
        me = asyncio.current_task()
        busy = [t for t in asyncio.all_tasks() if t is not me and not _is_view_timer(t)]
        if busy:
            await asyncio.wait(busy, timeout=30)
        await self.fake.close()
        await self.service.close()
        if self.pg_name is not None:
            from storage.postgres.admin import drop_database

            await drop_database(self.args.database, self.pg_name)
        for p in {id(x): x for x in (self.painter, self.animations) if x is not None}.values():
            await p.close()

    async def verify(self) -> str:
        """Stop the players, let every move in flight finish, then compare each table's board
        with the moves its players were told were made: a lost move (made but not reported,
        or reported but not made) or a doubled one shows as a difference."""
        return verdict(*await self.check())

    async def check(self) -> tuple[int, int, list[str]]:
        """:meth:`verify`'s findings: boards checked, tables in a lobby, the differences."""
        self.driver.stop_at = 0.0
        pending = [t for t in self.tasks if not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=120)
        wrong, lobbies = [], 0
        for t in self.tables:
            try:
                outcome = await self.service.current(t.channel, render=False)
            except ServiceError:  # a table between two matches (its new lobby not started)
                lobbies += 1
                continue
            on_board = len(outcome.view.tiles) - 1  # the start tile is not a placement
            if on_board != t.placed:
                wrong.append(f"table {t.index}: {on_board} tiles placed, players made {t.placed}")
        return len(self.tables) - lobbies, lobbies, wrong

    async def grow(self, n: int) -> None:
        """Seed and start tables until ``n`` play."""
        new = await self.seed(n)
        self.start(new, time.perf_counter() + 1.5)

    async def seed(self, n: int) -> list[Table]:
        """Seed tables until ``n`` are kept (not playing yet)."""
        if n <= len(self.tables):
            return []
        t0 = time.perf_counter()
        first = self.offset + len(self.tables)
        new = await seed_tables(self.service, n - len(self.tables), self.args, first)
        print(f"  seeded {len(new)} tables in {time.perf_counter() - t0:.1f} s", flush=True)
        self.tables.extend(new)
        return new

    def start(self, new: list[Table], start: float) -> None:
        """The players of ``new`` begin their schedule at ``start`` (``perf_counter``)."""
        clock = self.clock
        self.tasks += [
            asyncio.create_task(timed(self.driver.run_table(t, start), clock)) for t in new
        ]

    async def step(self, n: int) -> Step:
        """Grow to ``n`` tables, warm up, measure."""
        await self.grow(n)
        await asyncio.sleep(self.args.warmup)
        return await self.measure(n)

    async def measure(self, n: int) -> Step:
        """``--measure`` seconds from now, ``n`` tables playing."""
        d = self.driver
        d.stats = Stats()
        d.measuring = True
        self.gc.by_gen.clear()
        self.gc.on = True
        pids = self.worker_pids()
        w0 = {p: _proc_cpu(p) for p in pids}
        anim = set(self.animations.pids()) if self.animations is not self.painter else set()
        c0, dc0, t0 = _self_cpu(), self.clock.driver_cpu, time.perf_counter()
        server = self.args.database and self.count_server
        s0 = server_cpu(self.postmaster) if server else 0.0
        gc0 = self.clock.gateway_cpu
        profile = None
        if self.args.profile:
            import cProfile

            # CPU of the event loop's thread (a wall-clock profile on a busy machine charges
            # whatever ran when the process lost its core)
            profile = cProfile.Profile(time.thread_time)
            profile.enable()
        await asyncio.sleep(self.args.measure)
        d.measuring = False
        self.gc.on = False
        print(f"  garbage collections in the bot process: {self.gc.summary() or 'none'}")
        if profile is not None:
            profile.disable()
            profile.dump_stats(self.args.profile)
        wall = time.perf_counter() - t0
        cpu_bot = _self_cpu() - c0
        cpu_driver = self.clock.driver_cpu - dc0
        cpu_gateway = self.clock.gateway_cpu - gc0
        used = {p: _proc_cpu(p) - w0.get(p, 0.0) for p in self.worker_pids()}
        cpu_anim = sum(v for p, v in used.items() if p in anim)
        cpu_workers = sum(used.values())
        cpu_server = server_cpu(self.postmaster) - s0 if server else 0.0
        return Step(
            n,
            d.stats,
            cpu_bot,
            cpu_driver,
            cpu_gateway,
            cpu_workers,
            cpu_anim,
            wall,
            os.getloadavg()[0],
            cpu_server,
        )


#: the bot's stages in a ``--profile`` run: (label, function name, path fragment). Coroutine
#: time is cumulative over every resumption, so stages nest (a move includes its commit).
STAGES = (
    ("discord.py parses the interactions", "parse_interaction_create", "discord/state.py"),
    ("autocompletes (all three of a move)", "_invoke_autocomplete", "discord/app_commands"),
    ("a move in all (/carcassonne place)", "_typed_answer", "bot/cogs/carcassonne.py"),
    ("  its service call (engine, storage)", "submit", "app/matches.py"),
    ("    its database commit", "commit", "app/commits.py"),
    ("  the turn message posted", "post_outcome", "bot/cogs/turns.py"),
    ("    the picture asked of a worker", "picture", "app/pictures.py"),
    ("    the message built", "turn_message", "bot/ui/presenters.py"),
    ("    sent through discord.py", "send", "discord/abc.py"),
    ("the driver (not the bot)", "run_table", "benchmarks/tables_driver.py"),
)


def stage_report(path: str, moves: int) -> None:
    """Where the bot process's CPU went, by stage, from a ``--profile`` file (cProfile's own
    cost inflates every figure; compare the shares)."""
    import pstats

    st = pstats.Stats(path)
    total = sum(v[2] for v in st.stats.values())  # type: ignore[attr-defined]
    print(f"  stages (cProfile, {total:.2f} s of thread CPU profiled, {moves} moves):")
    for label, name, where in STAGES:
        cum = sum(
            v[3]
            for (file, _, fn), v in st.stats.items()  # type: ignore[attr-defined]
            if fn == name and where in file
        )
        print(
            f"    {label:40} {100 * cum / total:5.1f} %  {1000 * cum / max(moves, 1):6.2f} ms/move"
        )


def report(s: Step, goal: float, wire: bool = False, bots: int = 1) -> None:
    st = s.stats
    # CPU is divided by the moves finished in the window (the work it paid for): with a queue,
    # those sent in the window finish after it and the window finishes earlier ones
    moves = max(st.finished, 1)
    rate = st.moves / s.wall
    tiles = statistics.mean(st.tiles) if st.tiles else float("nan")
    verdict = "holds" if s.held(goal) else "does NOT hold"
    print(
        f"{s.tables} tables: {st.moves} moves in {s.wall:.0f} s ({rate:.1f}/s, boards of "
        f"{tiles:.0f} tiles on average), load average {s.load:.2f}: p99 {s.p99:.0f} ms "
        f"-> {verdict} (goal {goal:.0f} ms); errors {len(st.errors)}"
    )
    print(
        f"  moves finished in the window: {st.finished} ({st.finished / s.wall:.1f}/s,"
        " whenever sent; the CPU per move below is per finished move)"
    )
    print(f"  {'':13} {'n':>6} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name in (
        "board", "done", "ack", "ack (any)", "last", "replay", "autocomplete", "restart"
    ):  # fmt: skip
        v = st.times.get(name, [])
        if v:
            print(
                f"  {name:13} {len(v):6d} {1000 * statistics.median(v):8.1f}"
                f" {1000 * pct(v, 0.9):8.1f} {1000 * pct(v, 0.99):8.1f} {1000 * max(v):8.1f}"
            )
    bot = (s.cpu_bot - s.cpu_driver) / moves * 1000
    boards = (s.cpu_workers - s.cpu_animations) / moves * 1000
    anim = s.cpu_animations / moves * 1000
    server = s.cpu_server / moves * 1000
    replays = len(st.times.get("replay", []))
    parse = (
        ""
        if wire
        else f"of which discord.py parsing the interactions {s.cpu_gateway / moves * 1000:.1f}; "
    )
    print(
        f"  CPU per move: {'bot process' if bots == 1 else f'{bots} bot processes'}"
        f" {bot:.1f} ms ({parse}+ driver"
        f" {s.cpu_driver / moves * 1000:.1f}),"
        f" board workers {boards:.1f} ms, animation worker {anim:.1f} ms ({replays} replays),"
        + (f" database server {server:.1f} ms," if s.cpu_server else "")
        + f" total {bot + boards + anim + server:.1f} ms; machine busy"
        f" {(s.cpu_bot + s.cpu_workers + s.cpu_server) / s.wall:.2f} of {os.cpu_count()} cores"
    )
    acks = st.times.get("ack (any)", [])
    late = sum(1 for a in acks if a > 3.0)
    print(
        f"  interactions: {len(acks)} acknowledged, {late} after 3 s; {st.lost} dropped by "
        f"Discord (10062, sent again); {st.busy} moves refused as busy (sent again)"
    )
    if st.errors:
        print("  first error:", st.errors[0])


def machine() -> None:
    print(
        f"machine: {platform.processor() or platform.machine()}, nproc {os.cpu_count()}, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.2f}; "
        f"tree {TREE}; event loop {type(asyncio.get_running_loop()).__module__}"
    )


async def main(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.WARNING)
    if args.child:
        await child_main(args, Bench)
        return
    if args.processes > 1:

        def header() -> None:
            machine()
            print(
                f"interval {args.interval:g} s per table, stages {args.stages[0]}-"
                f"{args.stages[1]} of {PLACEMENTS} placements, warm-up {args.warmup:g} s + "
                f"{args.measure:g} s measured, {args.workers} drawing worker(s) per process",
                flush=True,
            )

        def show(s: Step) -> None:
            report(s, args.goal, args.wire, args.processes)

        await fleet_main(args, Path(__file__).resolve(), header, show)
        return
    machine()
    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(args)
        await bench.open(Path(tmp) / "tables.sqlite3")
        pids = bench.worker_pids()
        print(
            f"drawing: {len(pids)} worker process(es) {pids or '(threads of the bot process)'}; "
            f"interval {args.interval:g} s per table, stages {args.stages[0]}-{args.stages[1]} "
            f"of {PLACEMENTS} placements, warm-up {args.warmup:g} s + {args.measure:g} s measured",
            flush=True,
        )
        memory = Memory(pids)
        steps: list[Step] = []
        try:

            async def measure(n: int, fresh: bool) -> Step:
                nonlocal bench, memory
                if fresh:  # tables cannot leave: a smaller count is measured on a fresh bot
                    memory.stop()
                    await bench.close()
                    bench = Bench(args)
                    await bench.open(Path(tmp) / f"tables-{n}.sqlite3")
                    memory = Memory(bench.worker_pids())
                s = await bench.step(n)
                steps.append(s)
                report(s, args.goal, args.wire)
                if args.profile and not fresh:
                    stage_report(args.profile, s.stats.finished)
                return s

            counts = [args.tables] if args.tables else args.steps
            held = await ramp(counts, None if args.tables else args.bisect, args.goal, measure)
            cache = bench.service.store.cache
            png = bench.service.pictures.cache
            print(
                f"memory: bot process peak {memory.peak_bot:.0f} MB RSS (VmHWM "
                f"{_rss('self', 'VmHWM'):.0f} MB), workers peak "
                + ", ".join(f"{v:.0f}" for v in memory.peak_workers.values())
                + f" MB, all together peak {memory.peak_total:.0f} MB; game cache "
                f"{len(cache)} games (~{getattr(cache, 'bytes', 0) / 2**20:.0f} MB estimated), "
                f"picture cache {len(png)} pictures"
                + (f" ({png.bytes / 2**20:.1f} MB)" if hasattr(png, "bytes") else "")
            )
            rows = getattr(bench.service.storage, "found_cache", None)
            if rows is not None:
                print(
                    f"match rows kept (storage/foundcache.py): {rows.hits} reads answered, "
                    f"{rows.misses} went to SQLite"
                )
            group = getattr(getattr(bench.service.storage, "db", None), "group", None)
            if group is not None and group.batches:
                print(
                    f"writes (storage/groupcommit.py): {group.units} in {group.batches} trips "
                    f"and commits, {group.units / group.batches:.1f} a trip"
                )
            print(
                f"acknowledgements: {getattr(bench.fake, 'late_acks', 0)} answered after "
                f"{args.ack_deadline:g} s in the last run; {await bench.verify()}"
            )
            if not args.tables:
                best = held or 0
                print(
                    f"RESULT: holds {best} tables at one move per {args.interval:g} s with board "
                    f"p99 <= {args.goal:.0f} ms (load average now {os.getloadavg()[0]:.2f})"
                )
        finally:
            memory.stop()
            await bench.close()


def _stages(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition(":")
    a, b = int(lo), int(hi or lo)
    if not 0 <= a <= b < PLACEMENTS:
        raise argparse.ArgumentTypeError(f"stages must be within 0:{PLACEMENTS - 1}")
    return a, b


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=0, help="measure this one count (no search)")
    p.add_argument(
        "--steps",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[100, 250, 500, 750, 1000],
        help="table counts of the ramp (comma-separated)",
    )
    p.add_argument("--bisect", type=int, default=1, help="bisection steps after the ramp")
    p.add_argument("--interval", type=float, default=20.0, help="seconds between a table's moves")
    p.add_argument("--warmup", type=float, default=10.0)
    p.add_argument("--measure", type=float, default=30.0)
    p.add_argument("--goal", type=float, default=500.0, help="board p99 goal, ms")
    p.add_argument("--stages", type=_stages, default=(0, 70), help="placements done, lo:hi")
    p.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="drawing processes; 0 = threads"
    )
    p.add_argument("--cache", type=int, default=4096, help="games the service keeps")
    p.add_argument("--cache-bytes", type=int, default=384 * 2**20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--no-gc-freeze",
        action="store_true",
        help="leave the collector as Python sets it (no freezing of survivors, bot/gcpause.py)",
    )
    p.add_argument(
        "--wire",
        action="store_true",
        help="discord.py's real gateway and HTTP code down to a fake socket and session "
        "(events as JSON text, request bodies encoded): the bot's whole share of a live "
        "connection, plus the fake's JSON encoding of each event",
    )
    p.add_argument(
        "--gc-threshold",
        type=lambda s: [int(x) for x in s.split(",")],
        help="the collector's thresholds in the bot process (e.g. 700,10,10: Python's)",
    )
    p.add_argument("--profile", metavar="FILE", help="cProfile the bot process while measuring")
    p.add_argument(
        "--ack-deadline",
        type=float,
        default=3.0,
        help="Discord drops an interaction acknowledged later than this (s; 0: never)",
    )
    p.add_argument("--tree", help="measure another checkout of the project")
    p.add_argument(
        "--database",
        metavar="URL",
        help="a PostgreSQL server (postgresql://…/postgres): each bot gets a new database on "
        "it instead of a SQLite file; the server's CPU is counted per move",
    )
    p.add_argument(
        "--event-loop",
        choices=("uvloop", "asyncio"),
        help="the bot's event loop (default: the bot's own choice, bot/eventloop.py)",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        help="with --database: this many bot processes, each with its own drawing workers, "
        "fake Discord and driver, holding their share of the tables on ONE database of the "
        "server, measured over the same window and their figures merged",
    )
    p.add_argument("--child", type=_child, help=argparse.SUPPRESS)  # I/N: a --processes bot
    p.add_argument("--child-db", help=argparse.SUPPRESS)  # the database the bots share
    args = p.parse_args(argv)
    if args.processes > 1 and not args.database:
        p.error("--processes needs --database (SQLite is one process's)")
    if args.processes > 1 and args.profile:
        p.error("--profile measures one process: leave out --processes")
    return args


def _child(text: str) -> tuple[int, int]:
    index, _, count = text.partition("/")
    return int(index), int(count)


def _run(args: argparse.Namespace) -> None:
    """On the loop the bot runs on (``bot.eventloop``; ``--event-loop`` to compare)."""
    try:
        from bot import eventloop
    except ImportError:  # pragma: no cover - a --tree from before bot/eventloop.py
        asyncio.run(main(args))
        return
    eventloop.run(main(args), eventloop.choose(args.event_loop))


if __name__ == "__main__":
    _run(parse_args())
