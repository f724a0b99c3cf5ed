"""Discord turn latency: many matches played at once through the real bot, no network.

Every match sits in its own channel of one bot (tests/fakediscord.py: the real discord.py
stack, HTTP recorded) over one MatchService on a real SQLite file. Each turn a player asks
autocomplete for a cell, a rotation and a follower spot, then sends
``/carcassonne place cell: rotation: follower:``, exactly as the Discord client does.

Measured from handing the gateway payload to discord.py until the bot's answer is recorded:

* ``place``  — until the final ephemeral "Done." followup, i.e. after the defer, the database
  commit, the board render and the new turn message posted in the channel;
* ``ack``    — until the deferral (what Discord's 3-second deadline is about);
* ``autocomplete`` — until the choices are sent.

Players think between moves (uniform 0..2×``--think`` seconds) so the matches interleave like
real tables; ``--think 0`` fires every move at once (a saturation test). Prints p50/p90/p99/max.

    python benchmarks/turns.py [--matches 100] [--turns 8] [--think 8] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.matches import MatchService  # noqa: E402
from bot.app import GAME_CACHE, CarcBot  # noqa: E402
from tests.fakediscord import (  # noqa: E402
    AUTOCOMPLETE_RESULT,
    DEFERRED_CHANNEL_MESSAGE,
    FakeDiscord,
    Request,
    User,
)

CHANNEL_BASE = 700_000_000_000_000_000


class Clock:
    """Resolves one future per interaction when its awaited response is recorded."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.waiting: dict[int, tuple[str, asyncio.Future[float]]] = {}
        self.acks: dict[int, float] = {}
        self.turn_text: dict[int, str] = {}
        fake.listeners.append(self.on_request)

    def expect(self, iid: int, what: str) -> asyncio.Future[float]:
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiting[iid] = (what, fut)
        return fut

    def on_request(self, req: Request) -> None:
        now = time.perf_counter()
        if req.method == "POST" and req.path.startswith("/channels/"):
            self.turn_text[int(req.path.split("/")[2])] = req.content
            return
        if req.interaction_id is None or req.interaction_id not in self.waiting:
            return
        what, fut = self.waiting[req.interaction_id]
        if req.callback_type == DEFERRED_CHANNEL_MESSAGE:
            self.acks[req.interaction_id] = now
        done = (what == "autocomplete" and req.callback_type == AUTOCOMPLETE_RESULT) or (
            what == "followup" and req.method == "POST" and "/webhooks/" in req.path
        )
        if done and not fut.done():
            del self.waiting[req.interaction_id]
            fut.set_result(now)


class Bench:
    def __init__(self, fake: FakeDiscord, clock: Clock, seed: int) -> None:
        self.fake = fake
        self.clock = clock
        self.rng = random.Random(seed)
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []

    async def ask(self, user: User, channel: int, focused: str, **options: Any) -> list[Any]:
        iid, payload = self.fake.slash_payload(
            user, "place", channel_id=channel, focused=focused, **options
        )
        fut = self.clock.expect(iid, "autocomplete")
        t0 = time.perf_counter()
        self.fake.inject(payload)
        t1 = await asyncio.wait_for(fut, 60)
        self.times["autocomplete"].append(t1 - t0)
        req = next(r for r in reversed(self.fake.requests) if r.interaction_id == iid)
        choices: list[Any] = req.data.get("choices", [])
        return choices

    async def place(self, user: User, channel: int, **options: Any) -> None:
        iid, payload = self.fake.slash_payload(user, "place", channel_id=channel, **options)
        fut = self.clock.expect(iid, "followup")
        t0 = time.perf_counter()
        self.fake.inject(payload)
        t1 = await asyncio.wait_for(fut, 120)
        self.times["place"].append(t1 - t0)
        self.times["ack"].append(self.clock.acks.pop(iid, t1) - t0)
        req = next(r for r in reversed(self.fake.requests) if r.interaction_id == iid)
        if "Done" not in req.content:
            self.errors.append(req.content)

    async def play(self, channel: int, users: dict[int, User], turns: int, think: float) -> int:
        played = 0
        for _ in range(turns):
            text = self.clock.turn_text.get(channel, "")
            if "🏁" in text:
                break
            ids = re.findall(r"<@(\d+)>", text)
            user = users[int(ids[-1])]
            await asyncio.sleep(self.rng.uniform(0, 2 * think))
            cells = await self.ask(user, channel, "cell", cell="")
            cell = self.rng.choice(cells)["value"]
            rots = await self.ask(user, channel, "rotation", cell=cell, rotation="")
            rot = self.rng.choice(rots)["value"]
            spots = await self.ask(user, channel, "follower", cell=cell, rotation=rot, follower="")
            spot = self.rng.choice(spots)["value"]
            await self.place(user, channel, cell=cell, rotation=rot, follower=spot)
            played += 1
        return played


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


async def main(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        service = await MatchService.open(db, cache_size=args.cache)
        bot = CarcBot(service, background_tasks=False)
        fake = FakeDiscord(bot)
        await fake.start()
        clock = Clock(fake)
        bench = Bench(fake, clock, args.seed)
        tables: list[tuple[int, dict[int, User]]] = []
        t_setup = time.perf_counter()
        for m in range(args.matches):
            channel = CHANNEL_BASE + m
            a, b = User(10_000 + 2 * m, f"A{m}"), User(10_001 + 2 * m, f"B{m}")
            await fake.slash(a, "new", channel_id=channel)
            await fake.slash(b, "join", channel_id=channel)
            res = await fake.slash(a, "start", channel_id=channel)
            assert res.channel_sends, res.text()
            tables.append((channel, {a.id: a, b.id: b}))
        setup_s = time.perf_counter() - t_setup
        t0 = time.perf_counter()
        played = await asyncio.gather(
            *(bench.play(ch, users, args.turns, args.think) for ch, users in tables)
        )
        wall = time.perf_counter() - t0
        await fake.close()
        await service.close()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"machine: {platform.processor() or platform.machine()}, nproc {os.cpu_count()}, "
        f"Python {platform.python_version()}, load average {load:.2f}"
    )
    print(
        f"{args.matches} matches in parallel, {sum(played)} turns in {wall:.1f} s "
        f"(think 0..{2 * args.think:g} s), setup {setup_s:.1f} s, game cache {args.cache}; "
        f"errors {len(bench.errors)}"
    )
    print(f"{'':14} {'n':>6} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name in ("place", "ack", "autocomplete"):
        v = bench.times[name]
        if not v:
            continue
        print(
            f"{name:14} {len(v):6d} {1000 * statistics.median(v):8.1f} {1000 * pct(v, 0.9):8.1f}"
            f" {1000 * pct(v, 0.99):8.1f} {1000 * max(v):8.1f}"
        )
    if bench.errors:
        print("first error:", bench.errors[0])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--turns", type=int, default=8, help="turns per match")
    parser.add_argument("--think", type=float, default=8.0, help="mean think time, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cache", type=int, default=GAME_CACHE, help="service game cache (bot.app default)"
    )
    asyncio.run(main(parser.parse_args()))
