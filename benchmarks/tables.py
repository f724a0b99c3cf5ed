"""How many tables one bot holds: open-loop moves through the real discord.py stack.

Every table is a 2-player match in its own channel of one bot (``tests/fakediscord.py``: the
real discord.py stack, gateway payloads in, HTTP answered in-process, no network) over one
``MatchService`` on a real SQLite file (WAL, ``synchronous=FULL``), drawing in worker
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

CPU per move: this process's CPU time (the bot, the fake Discord standing in for aiohttp, and
the driver, whose own share is measured and shown apart) and the drawing workers' (from
``/proc``), over the measured window, divided by the moves made in it. Memory: RSS of the bot
process and of every worker, sampled twice a second (peak), and the caches' sizes.

The run ramps the table count through ``--steps`` (each: ``--warmup`` s, then ``--measure``
s measured) until the board p99 exceeds ``--goal`` ms, then bisects ``--bisect`` times
between the last count that held and the first that did not, and prints the largest number
of tables that held. Defaults take about four minutes; a full run::

    python benchmarks/tables.py --steps 200,400,600,800,1000,1200 --measure 120 --bisect 3
    python benchmarks/tables.py --tables 300 --measure 60 --stages 60:70  # one count, late game
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import logging
import os
import platform
import random
import re
import resource
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
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

from bot.app import CarcBot  # noqa: E402
from bot.services.matches import MatchOptions, MatchService  # noqa: E402
from bot.services.options import game_setup  # noqa: E402
from bot.services.replay import start_game  # noqa: E402
from bot.services.results import snapshot_of  # noqa: E402
from engine import pending  # noqa: E402
from storage import NewAction  # noqa: E402
from tests.fakediscord import (  # noqa: E402
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    FakeDiscord,
    Request,
    User,
    _is_view_timer,  # noqa: E402
)

try:  # absent before the drawing workers existed (--tree of an older checkout)
    from bot.app import start_painters
except ImportError:  # pragma: no cover - older checkouts
    start_painters = None  # type: ignore[assignment]

CHANNEL_BASE = 700_000_000_000_000_000
PLACEMENTS = 71  # a 2-player base game: 72 tiles, the start tile is placed


# ---------------------------------------------------------------------------- the fake, lean
class LeanDiscord(FakeDiscord):
    """The fake Discord without its memory: nothing sent is kept (a long run would otherwise
    hold every board ever posted), only the listeners see it."""

    def _record(self, req: Request) -> None:
        for listener in self.listeners:
            listener(req)

    def _store_message(self, body: dict[str, Any], files: Any, channel_id: int, **kw: Any) -> Any:
        msg = super()._store_message(body, files, channel_id, **kw)
        self.messages.pop(int(msg["id"]), None)
        for a in msg["attachments"]:
            self.attachments.pop(a["url"], None)
        return msg

    def forget(self, token: str) -> None:
        for d in (self._tokens, self._channel_of_token, self._originals):
            d.pop(token, None)


# ---------------------------------------------------------------------------- measurement
@dataclass
class Waiter:
    kind: str  # "auto" | "move" | "reply"
    fut: asyncio.Future[Any]
    channel: int
    acked: float | None = None
    board: float | None = None


@dataclass
class Stats:
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    tiles: list[int] = field(default_factory=list)

    def add(self, name: str, seconds: float) -> None:
        self.times[name].append(seconds)


class Clock:
    """Sees every request the bot makes; resolves one future per interaction."""

    def __init__(self, fake: LeanDiscord) -> None:
        self.waiting: dict[int, Waiter] = {}
        self.boards: dict[int, float] = {}  # channel -> when the last board was sent
        self.text: dict[int, str] = {}  # channel -> content of the last channel message
        self.replays: dict[int, asyncio.Future[float]] = {}
        self.driver_cpu = 0.0
        fake.listeners.append(self.on_request)

    def on_request(self, req: Request) -> None:
        c0 = time.thread_time()
        now = time.perf_counter()
        if req.method == "POST" and req.path.startswith("/channels/"):
            channel = int(req.path.split("/")[2])
            names = [n for n, _ in req.files]
            if "replay.gif" in names:  # (before issue 15 it came with the final board)
                fut = self.replays.pop(channel, None)
                if fut is not None and not fut.done():
                    fut.set_result(now)
            if "board.png" in names:
                self.boards[channel] = now
                self.text[channel] = req.content
                for w in self.waiting.values():
                    if w.kind == "move" and w.channel == channel and w.board is None:
                        w.board = now
        iid = req.interaction_id
        w = self.waiting.get(iid) if iid is not None else None
        if w is not None:
            if req.callback_type == DEFERRED_CHANNEL_MESSAGE:
                w.acked = now
            done = (
                (w.kind == "auto" and req.callback_type == AUTOCOMPLETE_RESULT)
                or (w.kind == "reply" and req.callback_type == CHANNEL_MESSAGE)
                or (w.kind == "move" and req.method == "POST" and "/webhooks/" in req.path)
            )
            if done and not w.fut.done():
                del self.waiting[iid]  # type: ignore[arg-type]
                w.fut.set_result((now, req))
        self.driver_cpu += time.thread_time() - c0


@dataclass
class Table:
    index: int
    channel: int
    users: dict[int, User]
    current: int  # user id whose turn it is
    placed: int  # tiles placed so far in this match


class Driver:
    def __init__(self, fake: LeanDiscord, clock: Clock, args: argparse.Namespace) -> None:
        self.fake = fake
        self.clock = clock
        self.args = args
        self.rng = random.Random(args.seed)
        self.stats = Stats()
        self.measuring = False
        self.stop_at = float("inf")

    async def _send(self, payload: dict[str, Any], iid: int, kind: str, channel: int) -> Waiter:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        w = Waiter(kind, fut, channel)
        self.clock.waiting[iid] = w
        self.fake.inject(payload)
        return w

    def _payload(self, user: User, sub: str, channel: int, **kw: Any) -> tuple[int, Any]:
        c0 = time.thread_time()
        out = self.fake.slash_payload(user, sub, channel_id=channel, **kw)
        self.clock.driver_cpu += time.thread_time() - c0
        return out

    async def ask(self, t: Table, focused: str, **options: Any) -> list[Any]:
        user = t.users[t.current]
        iid, payload = self._payload(user, "place", t.channel, focused=focused, **options)
        t0 = time.perf_counter()
        w = await self._send(payload, iid, "auto", t.channel)
        t1, req = await asyncio.wait_for(w.fut, 120)
        self.fake.forget(payload["token"])
        if self.measuring:
            self.stats.add("autocomplete", t1 - t0)
        choices: list[Any] = req.data.get("choices", [])
        return choices

    async def slash(self, t: Table, user: User, sub: str) -> None:
        iid, payload = self._payload(user, sub, t.channel)
        # new and join answer with the lobby message; start defers, then says "Done."
        w = await self._send(payload, iid, "move" if sub == "start" else "reply", t.channel)
        await asyncio.wait_for(w.fut, 120)
        self.fake.forget(payload["token"])

    async def restart(self, t: Table) -> None:
        """A finished table starts a new match."""
        a, b = list(t.users.values())
        t0 = time.perf_counter()
        await self.slash(t, a, "new")
        await self.slash(t, b, "join")
        await self.slash(t, a, "start")
        if self.measuring:
            self.stats.add("restart", time.perf_counter() - t0)
        t.current = _mentioned(self.clock.text.get(t.channel, ""), t)
        t.placed = 0

    async def run_table(self, t: Table, start: float) -> None:
        interval = self.args.interval
        due = start + self.rng.uniform(0, interval)
        while due < self.stop_at:
            await _sleep_until(due - 1.0)
            if due >= self.stop_at:
                return
            try:
                await self.move(t, due)
            except Exception as e:  # noqa: BLE001 - a benchmark reports, it does not stop
                self.stats.errors.append(f"table {t.index}: {type(e).__name__}: {e}")
                return
            due += interval

    async def move(self, t: Table, due: float) -> None:
        cells = await self.ask(t, "cell", cell="")
        if not cells:
            raise RuntimeError(f"no cells offered: {self.clock.text.get(t.channel, '')[:200]}")
        cell = self.rng.choice(cells)["value"]
        await _sleep_until(due - 0.5)
        rots = await self.ask(t, "rotation", cell=cell, rotation="")
        rot = self.rng.choice(rots)["value"]
        await _sleep_until(due - 0.25)
        fols = await self.ask(t, "follower", cell=cell, rotation=rot, follower="")
        follower = self.rng.choice(fols)["value"] if fols else "none"
        await _sleep_until(due)
        user = t.users[t.current]
        iid, payload = self._payload(
            user, "place", t.channel, cell=cell, rotation=rot, follower=follower
        )
        measured = self.measuring
        replay: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.clock.replays[t.channel] = replay
        w = await self._send(payload, iid, "move", t.channel)
        done, req = await asyncio.wait_for(w.fut, 300)
        self.fake.forget(payload["token"])
        if "Done" not in req.content:
            self.clock.replays.pop(t.channel, None)
            raise RuntimeError(f"move refused: {req.content[:200]}")
        board = w.board if w.board is not None else done
        text = self.clock.text.get(t.channel, "")
        t.placed += 1
        over = "🏁" in text
        if measured:
            self.stats.moves += 1
            self.stats.tiles.append(t.placed + 1)
            self.stats.add("board", board - due)
            self.stats.add("done", done - due)
            self.stats.add("ack", (w.acked or done) - due)
            if over:
                self.stats.add("last", board - due)
        if over:
            sent = await asyncio.wait_for(replay, 600)
            if measured:
                self.stats.add("replay", sent - board)
            await self.restart(t)
        else:
            self.clock.replays.pop(t.channel, None)
            t.current = _mentioned(text, t)


def _mentioned(text: str, t: Table) -> int:
    ids = [int(i) for i in re.findall(r"<@(\d+)>", text) if int(i) in t.users]
    if not ids:
        raise RuntimeError(f"whose turn? {text[:200]}")
    return ids[-1]


async def _sleep_until(when: float) -> None:
    delay = when - time.perf_counter()
    if delay > 0:
        await asyncio.sleep(delay)


# ---------------------------------------------------------------------------- seeding
async def seed_tables(
    service: MatchService, n: int, args: argparse.Namespace, start_index: int = 0
) -> list[Table]:
    """``n`` matches at random stages, stored as the service stores them (no Discord)."""
    rng = random.Random(args.seed * 7919 + start_index)
    lo, hi = args.stages
    storage = service.storage
    tables = []
    for m in range(start_index, start_index + n):
        channel = CHANNEL_BASE + m
        a, b = User(10_000 + 2 * m, f"A{m}"), User(10_001 + 2 * m, f"B{m}")
        options = MatchOptions()
        setup = game_setup(options, [a.name, b.name])
        match_seed = rng.randrange(1 << 62)
        game = start_game(setup, match_seed)
        entries = []
        target = rng.randint(lo, hi)
        placed = 0
        # whole turns: the table waits for its next tile to be placed
        while (placed < target or game.state.step != "place") and not game.state.over:
            d = pending(game.state)[0]
            step = game.state.step
            game.play(d.seat, rng.choice(list(d.actions())), key=d.key)
            entries.append(NewAction(game.version, int(d.seat), game.moves[-1].notation()))
            placed += step == "place"
        async with storage.db.transaction() as tx:
            mid = await storage.matches.create(
                tx,
                guild_id=0,
                channel_id=channel,
                host_id=a.id,
                options=options.to_json(),
                seed=match_seed,
            )
            await storage.matches.add_seat(tx, mid, a.id, a.name)
            await storage.matches.add_seat(tx, mid, b.id, b.name)
            await storage.matches.start(
                tx,
                mid,
                seat_order=[a.id, b.id],
                setup=setup.to_json(),
                snapshot=snapshot_of(start_game(setup, match_seed), [a.name, b.name]),
                compact=True,
            )
            if entries:
                await storage.actions.append(tx, mid, entries)
                await storage.matches.advance(
                    tx,
                    mid,
                    expected_version=0,
                    new_version=game.version,
                    snapshot=snapshot_of(game, [a.name, b.name]),
                    compact=True,
                )
        users = {a.id: a, b.id: b}
        seat = game.state.asks[0].seat if game.state.asks else game.state.current
        tables.append(Table(m, channel, users, [a.id, b.id][int(seat)], placed))
        # the bot has every live match cached in steady state (and has drawn its board)
        await service.current(channel, render=False)
    return tables


# ---------------------------------------------------------------------------- processes
def _proc_cpu(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (0 when it is gone)."""
    try:
        parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def _rss(pid: int | str, key: str = "VmRSS") -> float:
    """Resident memory of ``pid`` in MB (``VmHWM``: its peak)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class Memory:
    """Samples RSS of the bot process and the workers twice a second; keeps the peaks."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.peak_bot = 0.0
        self.peak_workers: dict[int, float] = {}
        self.peak_total = 0.0
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            bot = _rss("self")
            workers = {p: _rss(p) for p in self.pids}
            self.peak_bot = max(self.peak_bot, bot)
            for p, v in workers.items():
                self.peak_workers[p] = max(self.peak_workers.get(p, 0.0), v)
            self.peak_total = max(self.peak_total, bot + sum(workers.values()))
            await asyncio.sleep(0.5)

    def stop(self) -> None:
        self._task.cancel()


# ---------------------------------------------------------------------------- the run
def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))] if s else float("nan")


@dataclass
class Step:
    tables: int
    stats: Stats
    cpu_bot: float
    cpu_driver: float
    cpu_workers: float
    cpu_animations: float
    wall: float
    load: float

    @property
    def p99(self) -> float:
        return pct(self.stats.times["board"], 0.99) * 1000

    def held(self, goal_ms: float) -> bool:
        return bool(self.stats.times["board"]) and self.p99 <= goal_ms and not self.stats.errors


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.tables: list[Table] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def open(self, db: Path) -> None:
        args = self.args
        kwargs: dict[str, Any] = {"cache_size": args.cache}
        params = inspect.signature(MatchService.__init__).parameters
        self.painter = self.animations = None
        if start_painters is not None and "painter" in params:
            self.painter, self.animations = await start_painters(args.workers)
            kwargs.update(painter=self.painter, animation_painter=self.animations)
        if "cache_bytes" in params:
            kwargs["cache_bytes"] = args.cache_bytes
        self.service = await MatchService.open(db, **kwargs)
        self.bot = CarcBot(self.service, background_tasks=False)
        self.fake = LeanDiscord(self.bot)
        await self.fake.start()
        self.clock = Clock(self.fake)
        self.driver = Driver(self.fake, self.clock, args)

    def worker_pids(self) -> list[int]:
        pids: set[int] = set()
        for p in (self.painter, self.animations):
            if p is not None:
                pids.update(p.pids())
        return sorted(pids)

    async def close(self) -> None:
        self.driver.stop_at = 0.0
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        # let the bot finish the moves it is in the middle of before its database closes
        me = asyncio.current_task()
        busy = [t for t in asyncio.all_tasks() if t is not me and not _is_view_timer(t)]
        if busy:
            await asyncio.wait(busy, timeout=30)
        await self.fake.close()
        await self.service.close()
        for p in {id(x): x for x in (self.painter, self.animations) if x is not None}.values():
            await p.close()

    async def grow(self, n: int) -> None:
        """Seed and start tables until ``n`` play."""
        if n <= len(self.tables):
            return
        t0 = time.perf_counter()
        new = await seed_tables(self.service, n - len(self.tables), self.args, len(self.tables))
        print(f"  seeded {len(new)} tables in {time.perf_counter() - t0:.1f} s", flush=True)
        self.tables.extend(new)
        start = time.perf_counter() + 1.5
        self.tasks += [asyncio.create_task(self.driver.run_table(t, start)) for t in new]

    async def step(self, n: int) -> Step:
        """Grow to ``n`` tables, warm up, measure."""
        await self.grow(n)
        d = self.driver
        await asyncio.sleep(self.args.warmup)
        d.stats = Stats()
        d.measuring = True
        pids = self.worker_pids()
        w0 = {p: _proc_cpu(p) for p in pids}
        anim = set(self.animations.pids()) if self.animations is not self.painter else set()
        c0, dc0, t0 = _self_cpu(), self.clock.driver_cpu, time.perf_counter()
        profile = None
        if self.args.profile:
            import cProfile

            # CPU of the event loop's thread (a wall-clock profile on a busy machine charges
            # whatever ran when the process lost its core)
            profile = cProfile.Profile(time.thread_time)
            profile.enable()
        await asyncio.sleep(self.args.measure)
        d.measuring = False
        if profile is not None:
            profile.disable()
            profile.dump_stats(self.args.profile)
        wall = time.perf_counter() - t0
        cpu_bot = _self_cpu() - c0
        cpu_driver = self.clock.driver_cpu - dc0
        used = {p: _proc_cpu(p) - w0.get(p, 0.0) for p in self.worker_pids()}
        cpu_anim = sum(v for p, v in used.items() if p in anim)
        cpu_workers = sum(used.values())
        return Step(
            n, d.stats, cpu_bot, cpu_driver, cpu_workers, cpu_anim, wall, os.getloadavg()[0]
        )


def report(s: Step, goal: float) -> None:
    st = s.stats
    moves = max(st.moves, 1)
    rate = st.moves / s.wall
    tiles = statistics.mean(st.tiles) if st.tiles else float("nan")
    verdict = "holds" if s.held(goal) else "does NOT hold"
    print(
        f"{s.tables} tables: {st.moves} moves in {s.wall:.0f} s ({rate:.1f}/s, boards of "
        f"{tiles:.0f} tiles on average), load average {s.load:.2f}: p99 {s.p99:.0f} ms "
        f"-> {verdict} (goal {goal:.0f} ms); errors {len(st.errors)}"
    )
    print(f"  {'':13} {'n':>6} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name in ("board", "done", "ack", "last", "replay", "autocomplete", "restart"):
        v = st.times.get(name, [])
        if v:
            print(
                f"  {name:13} {len(v):6d} {1000 * statistics.median(v):8.1f}"
                f" {1000 * pct(v, 0.9):8.1f} {1000 * pct(v, 0.99):8.1f} {1000 * max(v):8.1f}"
            )
    bot = (s.cpu_bot - s.cpu_driver) / moves * 1000
    boards = (s.cpu_workers - s.cpu_animations) / moves * 1000
    anim = s.cpu_animations / moves * 1000
    replays = len(st.times.get("replay", []))
    print(
        f"  CPU per move: bot process {bot:.1f} ms (+ driver {s.cpu_driver / moves * 1000:.1f}),"
        f" board workers {boards:.1f} ms, animation worker {anim:.1f} ms ({replays} replays),"
        f" total {bot + boards + anim:.1f} ms; machine busy"
        f" {(s.cpu_bot + s.cpu_workers) / s.wall:.2f} of {os.cpu_count()} cores"
    )
    if st.errors:
        print("  first error:", st.errors[0])


async def main(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.WARNING)
    print(
        f"machine: {platform.processor() or platform.machine()}, nproc {os.cpu_count()}, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.2f}; "
        f"tree {TREE}"
    )
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
            counts = [args.tables] if args.tables else args.steps
            held = failed = None
            for n in counts:
                s = await bench.step(n)
                steps.append(s)
                report(s, args.goal)
                if s.held(args.goal):
                    held = n
                else:
                    failed = n
                    break
            if failed is not None and not args.tables:
                lo, hi = held or 0, failed
                for _ in range(args.bisect):
                    if hi - lo <= max(10, hi // 20):
                        break
                    # tables cannot leave: a smaller count is measured on a fresh bot
                    mid = (lo + hi) // 2
                    memory.stop()
                    await bench.close()
                    bench = Bench(args)
                    await bench.open(Path(tmp) / f"tables-{mid}.sqlite3")
                    memory = Memory(bench.worker_pids())
                    s = await bench.step(mid)
                    steps.append(s)
                    report(s, args.goal)
                    if s.held(args.goal):
                        lo = mid
                    else:
                        hi = mid
                held = lo
            cache = bench.service._cache
            png = bench.service._png
            print(
                f"memory: bot process peak {memory.peak_bot:.0f} MB RSS (VmHWM "
                f"{_rss('self', 'VmHWM'):.0f} MB), workers peak "
                + ", ".join(f"{v:.0f}" for v in memory.peak_workers.values())
                + f" MB, all together peak {memory.peak_total:.0f} MB; game cache "
                f"{len(cache)} games (~{getattr(cache, 'bytes', 0) / 2**20:.0f} MB estimated), "
                f"picture cache {len(png)} pictures"
                + (f" ({png.bytes / 2**20:.1f} MB)" if hasattr(png, "bytes") else "")
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
    p.add_argument("--profile", metavar="FILE", help="cProfile the bot process while measuring")
    p.add_argument("--tree", help="measure another checkout of the project")
    return p.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
