"""Two real bot processes on the fake Discord and one real PostgreSQL server
(tests/storage/bot_worker.py is a process: the real discord.py stack fed gateway payloads, its
HTTP recorded; this test is Discord, keeping every message either process posted). The moves
of a timed match go through Discord to either process at random; one process is killed with
SIGKILL in the middle of a move — before it is stored, holding the match, and after it is
stored, before the turn message is posted — and started again: no move is lost, doubled or
corrupt, the other process is never blocked, and the restarted one posts the turn message the
dead one owed. Then a move deadline claimed by a process that dies is fired once, later, by
one of the two."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from app.matches import MatchOptions, MatchService
from storage.backends import open_store
from storage.port import Store
from storage.repositories import TIMER_LEASE
from tests.fakediscord import DEFAULT_CHANNEL, GUILD_ID
from tests.storage.test_pg_processes import intact

ROOT = Path(__file__).resolve().parents[2]
ANN, BOB = 100, 200
DECIDER = re.compile(r"<@(\d+)>, your turn:")
#: seconds a move on the match's turn clock
CLOCK = 120


@dataclass
class Proc:
    """One bot process and what Discord has told it."""

    name: str
    proc: asyncio.subprocess.Process
    log: Path
    told: dict[int, str] = field(default_factory=dict)


@dataclass
class Discord:
    """Discord's copy of every message (in the order first seen), and the bot processes."""

    url: str
    tmp: Path
    messages: dict[int, dict[str, Any]] = field(default_factory=dict)
    procs: dict[str, Proc] = field(default_factory=dict)
    spawned: int = 0

    def note(self, messages: dict[str, Any]) -> None:
        for key, msg in messages.items():
            self.messages[int(key)] = msg

    def delta(self, p: Proc) -> dict[str, Any]:
        """The messages ``p`` has not seen as they are now."""
        out = {}
        for mid, msg in self.messages.items():
            text = json.dumps(msg, sort_keys=True)
            if p.told.get(mid) != text:
                p.told[mid] = text
                out[str(mid)] = msg
        return out

    async def spawn(self, name: str) -> Proc:
        """Start bot process ``name`` on Discord's messages; returns once it is ready."""
        state = self.tmp / f"{name}-{self.spawned}.json"
        state.write_text(json.dumps({str(k): v for k, v in self.messages.items()}))
        first = discord.utils.time_snowflake(discord.utils.utcnow()) + self.spawned * 2**36
        self.spawned += 1
        log = self.tmp / f"{name}-{self.spawned}.log"
        with open(log, "wb") as err:  # a file, not a pipe: a chatty process never blocks on it
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.storage.bot_worker", self.url, str(state),
                str(first), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=err, env={**os.environ, "PYTHONPATH": str(ROOT)},
            )  # fmt: skip
        p = Proc(name, proc, log)
        p.told = {mid: json.dumps(m, sort_keys=True) for mid, m in self.messages.items()}
        self.note((await self.line(p))["messages"])
        self.procs[name] = p
        return p

    async def line(self, p: Proc) -> Any:
        raw = await asyncio.wait_for(p.proc.stdout.readline(), 120)  # type: ignore[union-attr]
        if not raw:
            await p.proc.wait()
            err = p.log.read_text(errors="replace")[-3000:]
            raise AssertionError(f"bot {p.name} ended: {err}")
        return json.loads(raw)

    def send(self, p: Proc, command: dict[str, Any]) -> None:
        command["messages"] = self.delta(p)
        p.proc.stdin.write((json.dumps(command) + "\n").encode())  # type: ignore[union-attr]

    async def until(self, p: Proc, key: str) -> list[Any]:
        """Lines from ``p`` up to one with ``key`` (the messages of a ``done`` noted)."""
        lines = []
        while True:
            got = await self.line(p)
            lines.append(got)
            if "messages" in got:
                self.note(got["messages"])
            if key in got:
                return lines

    async def kill(self, p: Proc) -> None:
        p.proc.send_signal(signal.SIGKILL)
        await p.proc.wait()
        del self.procs[p.name]

    async def close(self) -> None:
        for p in list(self.procs.values()):
            p.proc.stdin.close()  # type: ignore[union-attr]
            await asyncio.wait_for(p.proc.wait(), 60)
        self.procs.clear()

    def turn(self) -> tuple[int, int]:
        """(message id, user id) of the newest turn message in the match's channel."""
        turns = [
            (mid, int(DECIDER.findall(m["content"])[0]))
            for mid, m in self.messages.items()
            if int(m["channel_id"]) == DEFAULT_CHANNEL and DECIDER.search(m["content"] or "")
        ]
        assert turns, "no turn message"
        return turns[-1]


async def test_bot_processes_killed_mid_move_lose_double_and_block_nothing(
    pg_url: str, tmp_path: Path
) -> None:
    svc = await MatchService.open(pg_url, renderer=None, animator=None)
    try:
        options = MatchOptions(clock="live", clock_seconds=CLOCK)
        await svc.create_lobby(GUILD_ID, DEFAULT_CHANNEL, ANN, "Ann", options, seed=5)
        await svc.join(DEFAULT_CHANNEL, BOB, "Bob")
        match_id = (await svc.start(DEFAULT_CHANNEL, ANN)).match_id
    finally:
        await svc.close()
    store = await open_store(pg_url)
    discord_ = Discord(pg_url, tmp_path)
    rng = random.Random(3)
    try:
        await discord_.spawn("zero")  # its recovery posts the first turn message
        await discord_.spawn("one")
        version = await intact(store, pg_url, match_id)
        kills = {4: "before", 9: "after", 13: "before", 16: "after"}
        survivor = dead = None  # after a kill, the next move goes to the process that lived on
        for n in range(20):
            name = survivor or rng.choice(sorted(discord_.procs))
            survivor = None
            p = discord_.procs[name]
            turn, user = discord_.turn()
            hold = kills.get(n)
            discord_.send(p, {"move": {"user": user, "turn": turn, "seed": n, "hold": hold}})
            if hold is None:
                (done,) = [x["done"] for x in await discord_.until(p, "done")]
                stored = await intact(store, pg_url, match_id)
                # one answer, one move stored once (a tile and its follower may be one move)
                assert done["commits"] == [[version, stored]] and stored > version, done
                version = stored
                if dead is not None:  # the survivor moved while the dead one was down
                    await discord_.spawn(dead)
                    dead = None
                continue
            (held,) = await discord_.until(p, "holding")
            await discord_.kill(p)  # mid-move: holding the match, or stored and not posted
            stored = await intact(store, pg_url, match_id)
            if hold == "before":
                assert stored == version, (hold, version, stored)
            else:
                assert stored == held["version"] > version, (hold, version, held, stored)
            version = stored
            survivor = "one" if name == "zero" else "zero"
            if hold == "before":  # the match is not left held: the survivor moves at once
                dead = name
            else:  # started again, it posts the turn message the dead process owed
                await discord_.spawn(name)
                assert discord_.turn()[0] != turn
        assert version >= 16  # every move but the two killed before being stored
        await _deadline_fires_once(discord_, store, pg_url, match_id)
    finally:
        for p in list(discord_.procs.values()):
            await discord_.kill(p)
        await store.close()


async def _deadline_fires_once(d: Discord, store: Store, url: str, match_id: int) -> None:
    """A deadline claimed by a process that dies is not lost: once its lease runs out one of
    the two processes fires it, once; the stand-in's move is stored once."""
    version = await intact(store, url, match_id)
    _, user = d.turn()
    late = CLOCK + 30  # seconds past the current move's deadline
    dying = d.procs["one"]
    d.send(dying, {"fire": {"offset": late, "hold": True}})
    (claimed,) = [x["claimed"] for x in await d.until(dying, "claimed")]
    assert [c for c in claimed if c[2] == "deadline"] == [[match_id, version, "deadline"]]
    await d.kill(dying)  # claimed, never dealt with
    await d.spawn("one")
    for p in d.procs.values():  # still leased to the dead process: nobody fires it yet
        d.send(p, {"fire": {"offset": late, "hold": False}})
        lines = await d.until(p, "done")
        (again,) = [x["claimed"] for x in lines if "claimed" in x]
        assert not [c for c in again if c[2] == "deadline"], again
    after = late + TIMER_LEASE + 10  # the lease ran out
    procs = list(d.procs.values())
    for p in procs:
        d.send(p, {"fire": {"offset": after, "hold": False}})
    outs = await asyncio.gather(*(d.until(p, "done") for p in procs))
    fired = [tuple(x["fired"]) for lines in outs for x in lines if "fired" in x]
    commits = [c for lines in outs for x in lines if "done" in x for c in x["done"]["commits"]]
    done = [(m, v) for m, v, played in fired if played]
    # the claimed deadline fired once, by one process; any later one (the next turn's, due by
    # then too) once as well
    assert done.count((match_id, version)) == 1 and len(done) == len(set(done)), fired
    commits.sort()
    assert len(commits) == len(done) and commits[0][0] == version, commits  # a move each
    assert all(a[1] == b[0] for a, b in zip(commits, commits[1:], strict=False)), commits
    assert await intact(store, url, match_id) == commits[-1][1]
    seat = next(s for s in await store.seats(match_id) if s.user_id == user)
    assert seat.missed == 1  # the stand-in played the late move, once
    timed_out = [m for m in d.messages.values() if "ran out of time" in (m["content"] or "")]
    assert len(timed_out) == len(done), [m["content"] for m in timed_out]
    await d.close()
