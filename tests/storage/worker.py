"""A second process on the same database file, for tests/storage/test_processes.py.

    python -m tests.storage.worker COMMAND DB [ARGS...]

Each command prints one JSON line with its result on stdout (and nothing else there), so the
test can check what the other process saw. Commands:

``hold DB``        claim the writer lock (as the bot does), print {"ready": true}, then wait for
                   a line on stdin; refused: print the error's one line on stderr, exit 3.
``lock DB SECONDS``  take the file's write lock (BEGIN IMMEDIATE) and keep it SECONDS.
``count DB N HOLD_MS GUILD``  N read-modify-write transactions on one counter (the defaults of
                   guild GUILD), each keeping the write lock HOLD_MS; errors are counted by type.
``join DB USER GO MATCH...``  wait for the file GO to exist, then try to seat USER in each
                   lobby MATCH (capacity 2); report what each attempt gave.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from storage import DatabaseInUse, LobbyFull, Storage


def _out(data: object) -> None:
    print(json.dumps(data), flush=True)


async def hold(db: str) -> int:
    try:
        store = await Storage.open(db, writer=True)
    except DatabaseInUse as e:
        print(str(e), file=sys.stderr, flush=True)
        return 3
    try:
        _out({"ready": True})
        await asyncio.to_thread(sys.stdin.readline)
    finally:
        await store.close()
    return 0


async def lock(db: str, seconds: float) -> int:
    store = await Storage.open(db)
    try:
        async with store.db.transaction():
            _out({"locked": True})
            await asyncio.sleep(seconds)
    finally:
        await store.close()
    return 0


async def count(db: str, n: int, hold_ms: float, guild: int) -> int:
    store = await Storage.open(db)
    errors: dict[str, int] = {}
    done = 0
    try:
        for _ in range(n):
            try:
                async with store.db.transaction() as tx:
                    value = (await store.guilds.get(guild)).get("n", 0)
                    await asyncio.sleep(hold_ms / 1000)
                    await store.guilds.put(tx, guild, {"n": value + 1})
                done += 1
            except Exception as e:  # counted and reported: the test wants none
                key = f"{type(e).__name__}: {e}"
                errors[key] = errors.get(key, 0) + 1
    finally:
        await store.close()
    _out({"done": done, "errors": errors})
    return 0


async def join(db: str, user: int, go: str, matches: list[int]) -> int:
    store = await Storage.open(db)
    results: dict[str, str] = {}
    try:
        while not Path(go).exists():
            await asyncio.sleep(0.001)
        for mid in matches:
            try:
                async with store.db.transaction() as tx:
                    await store.matches.join(tx, mid, user, f"U{user}", capacity=2)
                results[str(mid)] = "seated"
            except LobbyFull:
                results[str(mid)] = "full"
            except Exception as e:
                results[str(mid)] = f"{type(e).__name__}: {e}"
    finally:
        await store.close()
    _out(results)
    return 0


def main(argv: list[str]) -> int:
    command, db, *rest = argv
    if command == "hold":
        return asyncio.run(hold(db))
    if command == "lock":
        return asyncio.run(lock(db, float(rest[0])))
    if command == "count":
        return asyncio.run(count(db, int(rest[0]), float(rest[1]), int(rest[2])))
    if command == "join":
        return asyncio.run(join(db, int(rest[0]), rest[1], [int(m) for m in rest[2:]]))
    raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
