"""The tables of benchmarks/tables.py: the fake Discord without memory, the clock that times
every answer, the players' open-loop schedule, the seeding of matches, and /proc readings.

Imported by ``tables.py`` after it chose which checkout of the project to measure.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import resource
import time
from collections import defaultdict, deque
from collections.abc import Coroutine, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from app.matches import MatchOptions, MatchService
from app.options import game_setup
from app.replay import start_game
from app.results import snapshot_of
from engine import pending
from storage import NewAction
from tests.fakediscord import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    FakeDiscord,
    Request,
    User,
)

T = TypeVar("T")

CHANNEL_BASE = 700_000_000_000_000_000
PLACEMENTS = 71  # a 2-player base game: 72 tiles, the start tile is placed


# ---------------------------------------------------------------------------- the fake, lean
class LeanDiscord(FakeDiscord):
    """The fake Discord without its memory: nothing sent is kept (a long run would otherwise
    hold every board ever posted), only the listeners see it. Its guild is announced at the
    start (``GUILD_CREATE``), as the gateway announces every guild to a bot with the default
    intents: discord.py then finds it for each interaction instead of building a stand-in."""

    async def start(self) -> None:
        await super().start()
        self.bot._connection.parse_guild_create(
            {
                "id": str(self.guild_id),
                "name": "Tables",
                "unavailable": False,
                "owner_id": "1",
                "member_count": 2,
                "roles": [
                    {
                        "id": str(self.guild_id),
                        "name": "@everyone",
                        "permissions": "0",
                        "position": 0,
                        "color": 0,
                        "hoist": False,
                        "managed": False,
                        "mentionable": False,
                        "flags": 0,
                    }
                ],
                "channels": [],
                "members": [],
                "emojis": [],
                "stickers": [],
                "features": [],
                "preferred_locale": "en-US",
            }
        )

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
class LostInteraction(Exception):
    """Discord dropped the interaction: it was acknowledged after its 3 s (404, 10062)."""


#: the words of a move the bot refused because it was past its capacity (bot/workload.py)
BUSY_WORDS = "not** made"
#: a player whose move was refused, or whose interaction failed, tries again this much later
RETRY_AFTER_S = 5.0


@dataclass
class Waiter:
    kind: str  # "auto" | "move" | "reply"
    fut: asyncio.Future[Any]
    channel: int
    sent: float = 0.0
    acked: float | None = None
    board: float | None = None


@dataclass
class Stats:
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    tiles: list[int] = field(default_factory=list)
    #: interactions Discord dropped (answered after 3 s: "The application did not respond")
    lost: int = 0
    #: moves the bot refused as too busy (the player is told; the driver sends them again)
    busy: int = 0
    #: moves finished (their "Done.") inside the window, whenever they were sent: the work the
    #: window's CPU paid for (``moves`` counts those sent in it, which a queue delays past it)
    finished: int = 0

    def add(self, name: str, seconds: float) -> None:
        self.times[name].append(seconds)


class GcTimes:
    """The bot process's garbage collections while measuring: count, CPU and longest pause per
    generation (a full collection walks every live object: cached games included)."""

    def __init__(self) -> None:
        self.by_gen: dict[int, list[float]] = defaultdict(list)
        self._t0 = 0.0
        self.on = False
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t0 = time.thread_time()
        elif self.on:
            self.by_gen[int(info["generation"])].append(time.thread_time() - self._t0)

    def summary(self) -> str:
        return ", ".join(
            f"gen{g} {len(v)}x {1000 * sum(v):.0f} ms (max {1000 * max(v):.1f})"
            for g, v in sorted(self.by_gen.items())
        )


class Clock:
    """Sees every request the bot makes; resolves one future per interaction."""

    def __init__(self, fake: LeanDiscord) -> None:
        self.waiting: dict[int, Waiter] = {}
        #: channel -> the moves waiting there for their board (a board post looks at these
        #: only: a scan of every waiter made the fake's share grow with the table count)
        self.moving: dict[int, list[Waiter]] = defaultdict(list)
        self.boards: dict[int, float] = {}  # channel -> when the last board was sent
        self.text: dict[int, str] = {}  # channel -> content of the last channel message
        self.replays: dict[int, asyncio.Future[float]] = {}
        #: channel -> replays of its finished matches not yet sent, oldest first
        self.finals: dict[int, deque[asyncio.Future[float]]] = defaultdict(deque)
        self.driver_cpu = 0.0
        #: the gateway's share of the driver's steps: discord.py parsing each interaction
        #: (what a live gateway event costs the bot too), counted as the bot's
        self.gateway_cpu = 0.0
        #: inside a step of a driver coroutine (already timed as a whole)
        self.in_driver = False
        fake.listeners.append(self.on_request)

    def on_request(self, req: Request) -> None:
        c0 = time.thread_time()
        now = time.perf_counter()
        if req.method == "POST" and req.path.startswith("/channels/"):
            channel = int(req.path.split("/")[2])
            names = [n for n, _ in req.files]
            if "replay.gif" in names:  # (before issue 15 it came with the final board)
                # the oldest finished match of the channel still waiting for its replay (its
                # table may have started, and moved in, a new match since), else the move
                # in flight (the replay came before the driver saw the final board)
                finals = self.finals.get(channel)
                fut = finals.popleft() if finals else self.replays.pop(channel, None)
                if fut is not None and not fut.done():
                    fut.set_result(now)
            if "board.png" in names:
                self.boards[channel] = now
                self.text[channel] = req.content
                for w in self.moving.pop(channel, ()):
                    if w.board is None:
                        w.board = now
        iid = req.interaction_id
        w = self.waiting.get(iid) if iid is not None else None
        if w is not None:
            if req.callback_type is not None and w.acked is None:
                w.acked = now  # the first answer, whatever its kind: the acknowledgement
            if req.refused and req.callback_type is not None:
                del self.waiting[iid]  # type: ignore[arg-type]
                if not w.fut.done():
                    w.fut.set_exception(LostInteraction(req.path))
                return
            done = (
                (w.kind == "auto" and req.callback_type == AUTOCOMPLETE_RESULT)
                # a reply is the interaction's message, or (the bot busy: it acknowledged
                # first, ``defer_if_busy``) the followup that carries it
                or (w.kind == "reply" and req.callback_type == CHANNEL_MESSAGE)
                or (w.kind == "reply" and req.method == "POST" and "/webhooks/" in req.path)
                or (w.kind == "move" and req.method == "POST" and "/webhooks/" in req.path)
            )
            if done and not w.fut.done():
                del self.waiting[iid]  # type: ignore[arg-type]
                w.fut.set_result((now, req))
        if not self.in_driver:
            self.driver_cpu += time.thread_time() - c0


class Timed:
    """Awaits a driver coroutine, adding the CPU time of each of its steps (from one
    suspension to the next) to ``clock.driver_cpu``: the players' schedule, their payloads,
    and the reading of the answers are the driver's, not the bot's, though they run on the
    bot's event loop. (What the loop spends scheduling those steps stays with the bot: a few
    timer and future callbacks per move.)"""

    def __init__(self, coro: Coroutine[Any, Any, T], clock: Clock) -> None:
        self.coro = coro
        self.clock = clock

    def __await__(self) -> Generator[Any, Any, T]:
        it = self.coro.__await__()
        clock = self.clock
        value: Any = None
        exc: BaseException | None = None
        while True:
            c0 = time.thread_time()
            clock.in_driver = True
            try:
                out = it.throw(exc) if exc is not None else it.send(value)
            except StopIteration as stop:
                result: T = stop.value
                return result
            finally:
                clock.in_driver = False
                clock.driver_cpu += time.thread_time() - c0
            try:
                value, exc = (yield out), None
            except BaseException as e:  # noqa: BLE001 - handed on to the coroutine
                value, exc = None, e


async def timed(coro: Coroutine[Any, Any, T], clock: Clock) -> T:
    """``coro`` with its CPU time counted as the driver's (see :class:`Timed`)."""
    return await Timed(coro, clock)


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
        self.replay_tasks: set[asyncio.Task[None]] = set()

    async def _send(self, payload: dict[str, Any], iid: int, kind: str, channel: int) -> Waiter:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        w = Waiter(kind, fut, channel, time.perf_counter())
        self.clock.waiting[iid] = w
        if kind == "move":
            self.clock.moving[channel].append(w)
        c0 = time.thread_time()
        self.fake.inject(payload)  # discord.py parses it: the bot's work, not the driver's
        parse = time.thread_time() - c0
        self.clock.driver_cpu -= parse
        self.clock.gateway_cpu += parse
        fut.add_done_callback(lambda _: self._acked(w))
        return w

    def _acked(self, w: Waiter) -> None:
        """Every interaction's acknowledgement time, from its arrival (Discord's 3 s)."""
        if self.measuring:
            self.stats.add("ack (any)", (w.acked or time.perf_counter()) - w.sent)

    async def _lost(self, token: str) -> None:
        """Discord dropped an interaction: the player waits and sends it again."""
        self.fake.forget(token)
        if self.measuring:
            self.stats.lost += 1
        await asyncio.sleep(RETRY_AFTER_S)

    def _payload(self, user: User, sub: str, channel: int, **kw: Any) -> tuple[int, Any]:
        return self.fake.slash_payload(user, sub, channel_id=channel, **kw)

    async def ask(self, t: Table, focused: str, **options: Any) -> list[Any]:
        user = t.users[t.current]
        while True:
            iid, payload = self._payload(user, "place", t.channel, focused=focused, **options)
            t0 = time.perf_counter()
            w = await self._send(payload, iid, "auto", t.channel)
            try:
                t1, req = await asyncio.wait_for(w.fut, 120)
            except LostInteraction:
                await self._lost(payload["token"])
                continue
            break
        self.fake.forget(payload["token"])
        if self.measuring:
            self.stats.add("autocomplete", t1 - t0)
        choices: list[Any] = req.data.get("choices", [])
        return choices

    async def slash(self, t: Table, user: User, sub: str) -> None:
        while True:
            iid, payload = self._payload(user, sub, t.channel)
            # new and join answer with the lobby message; start defers, then says "Done."
            w = await self._send(payload, iid, "move" if sub == "start" else "reply", t.channel)
            try:
                _, req = await asyncio.wait_for(w.fut, 120)
            except LostInteraction:
                await self._lost(payload["token"])
                if sub == "new":  # the bot posted the lobby in the channel instead
                    return
                continue
            self.fake.forget(payload["token"])
            if sub == "start" and BUSY_WORDS in req.content:
                # refused as busy, like a move (it takes a work slot): the host tries again
                if self.measuring:
                    self.stats.busy += 1
                await asyncio.sleep(RETRY_AFTER_S)
                continue
            return

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

    def watch_replay(self, replay: asyncio.Future[float], board: float, measured: bool) -> None:
        """Time the replay animation of a finished match (from its final board) apart."""

        async def wait() -> None:
            try:
                sent = await asyncio.wait_for(replay, 600)
            except (TimeoutError, asyncio.CancelledError):
                return
            if measured and self.measuring:
                self.stats.add("replay", sent - board)

        task = asyncio.get_running_loop().create_task(timed(wait(), self.clock))
        self.replay_tasks.add(task)
        task.add_done_callback(self.replay_tasks.discard)

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
        measured = self.measuring
        while True:
            iid, payload = self._payload(
                user, "place", t.channel, cell=cell, rotation=rot, follower=follower
            )
            replay: asyncio.Future[float] = asyncio.get_running_loop().create_future()
            self.clock.replays[t.channel] = replay
            w = await self._send(payload, iid, "move", t.channel)
            try:
                done, req = await asyncio.wait_for(w.fut, 300)
            except LostInteraction:
                self.clock.replays.pop(t.channel, None)
                await self._lost(payload["token"])
                continue
            self.fake.forget(payload["token"])
            if BUSY_WORDS in req.content:  # refused, cleanly: the player sends it again
                self.clock.replays.pop(t.channel, None)
                if self.measuring:
                    self.stats.busy += 1
                await asyncio.sleep(RETRY_AFTER_S)
                continue
            break
        if self.measuring:
            self.stats.finished += 1
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
            # the players start their next match at once; the replay animation is timed
            # apart (waiting for it here made the table's next moves late by the animation
            # worker's queue: up to 8 s at 1,000 tables, charged to the board latency)
            if self.clock.replays.get(t.channel) is replay:
                del self.clock.replays[t.channel]
                if not replay.done():
                    self.clock.finals[t.channel].append(replay)
            self.watch_replay(replay, board, measured)
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
        target = rng.randint(lo, hi)
        while True:  # a game whose pile ran out early (discarded tiles) is drawn again
            match_seed = rng.randrange(1 << 62)
            game = start_game(setup, match_seed)
            entries = []
            placed = 0
            # whole turns: the table waits for its next tile to be placed
            while (placed < target or game.state.step != "place") and not game.state.over:
                d = pending(game.state)[0]
                step = game.state.step
                game.play(d.seat, rng.choice(list(d.actions())), key=d.key)
                entries.append(NewAction(game.version, int(d.seat), game.moves[-1].notation()))
                placed += step == "place"
            if not game.state.over:
                break
        seed = _seed_through_port if hasattr(storage, "create_lobby") else _seed_sqlite
        await seed(storage, channel, a, b, options, setup, match_seed, game, entries)
        users = {a.id: a, b.id: b}
        seat = game.state.asks[0].seat if game.state.asks else game.state.current
        tables.append(Table(m, channel, users, [a.id, b.id][int(seat)], placed))
        # the bot has every live match cached in steady state (and has drawn its board)
        await service.current(channel, render=False)
    return tables


async def _seed_sqlite(
    storage: Any,
    channel: int,
    a: User,
    b: User,
    options: Any,
    setup: Any,
    match_seed: int,
    game: Any,
    entries: list[NewAction],
) -> int:
    """One seeded match through the SQLite repositories (a checkout before the port)."""
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
    return int(mid)


async def _seed_through_port(
    storage: Any,
    channel: int,
    a: User,
    b: User,
    options: Any,
    setup: Any,
    match_seed: int,
    game: Any,
    entries: list[NewAction],
) -> int:
    """One seeded match through the storage port's whole operations (SQLite or PostgreSQL)."""
    from storage import MoveCommit

    mid = int(
        await storage.create_lobby(
            guild_id=0,
            channel_id=channel,
            host_id=a.id,
            host_name=a.name,
            options=options.to_json(),
            seed=match_seed,
            game="carcassonne",
        )
    )
    await storage.join_lobby(mid, b.id, b.name, capacity=2)
    await storage.start_match(
        mid,
        seat_order=[a.id, b.id],
        setup=setup.to_json(),
        snapshot=snapshot_of(start_game(setup, match_seed), [a.name, b.name]),
        compact=True,
    )
    if entries:
        await storage.commit_move(
            MoveCommit(
                match_id=mid,
                expected_version=0,
                new_version=game.version,
                snapshot=snapshot_of(game, [a.name, b.name]),
                entries=entries,
            )
        )
    return mid


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
