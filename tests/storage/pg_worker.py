"""Another bot process on one PostgreSQL database, for tests/storage/test_pg_processes.py.

    python -m tests.storage.pg_worker COMMAND URL [ARGS...]

It runs the real match service (no Discord) and prints one JSON line per thing it did, so that
the test can kill it at any moment (SIGKILL) and check what was stored. Commands:

``play URL CHANNEL SEED``  play random moves in the channel's match until it ends; a line
                           ``{"version": V}`` after each stored move.
``fire URL OFFSET HOLD``   claim every due timer (the clock ``OFFSET`` seconds ahead); print
                           ``{"claimed": [[match, version], ...]}``; with HOLD, wait for a line
                           on stdin before acting (to be killed there); then play each
                           deadline's stand-in and print ``{"fired": [match, version, moved]}``.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time

from app.clocks import DEADLINE
from app.errors import ERR_STALE, ServiceError
from app.matches import MatchService


def _out(data: object) -> None:
    print(json.dumps(data), flush=True)


async def play(url: str, channel: int, seed: int) -> None:
    svc = await MatchService.open(url, renderer=None, animator=None)
    rng = random.Random(seed)
    try:
        out = await svc.current(channel, render=False)
        while not out.finished:
            (d,) = out.decisions
            try:
                out = await svc.submit(
                    channel, out.current_user_id, [rng.choice(list(d.actions()))], out.version
                )
            except ServiceError as e:
                if e.key != ERR_STALE:
                    raise
                out = await svc.current(channel, render=False)
                continue
            _out({"version": out.version})
    finally:
        await svc.close()


async def fire(url: str, offset: float, hold: bool) -> None:
    svc = await MatchService.open(url, renderer=None, animator=None)
    try:
        due = [d for d in await svc.due_timers(time.time() + offset) if d.kind == DEADLINE]
        _out({"claimed": [[d.match_id, d.version] for d in due]})
        if hold:
            sys.stdin.readline()
        for d in due:
            done = await svc.play_timeout(d.match_id, d.user_id, d.version)
            _out({"fired": [d.match_id, d.version, done is not None]})
    finally:
        await svc.close()


def main(argv: list[str]) -> None:
    command, url, *rest = argv
    if command == "play":
        asyncio.run(play(url, int(rest[0]), int(rest[1])))
    elif command == "fire":
        asyncio.run(fire(url, float(rest[0]), rest[1] == "1"))
    else:
        raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    main(sys.argv[1:])
