"""Real bot processes on one real PostgreSQL server (tests/storage/pg_worker.py is the other
process): one killed with SIGKILL in the middle of its moves and started again loses, doubles
and corrupts no move; a deadline claimed by a process that dies is fired later by another, once."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from app.matches import MatchService
from storage.backends import open_store
from storage.port import Store
from storage.repositories import TIMER_LEASE
from tests.bot.matchservice import CHANNEL, two_player_match

ROOT = Path(__file__).resolve().parents[2]


async def spawn(*args: object) -> asyncio.subprocess.Process:
    """``python -m tests.storage.pg_worker ARGS`` with pipes on all three streams."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.storage.pg_worker", *map(str, args),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


async def line(proc: asyncio.subprocess.Process) -> Any:
    raw = await asyncio.wait_for(proc.stdout.readline(), 120)  # type: ignore[union-attr]
    if not raw:
        err = await proc.stderr.read()  # type: ignore[union-attr]
        raise AssertionError(f"the worker ended: {err.decode(errors='replace')}")
    return json.loads(raw)


async def kill(proc: asyncio.subprocess.Process) -> None:
    proc.send_signal(signal.SIGKILL)
    await proc.wait()


async def intact(store: Store, url: str, match_id: int) -> int:
    """The match's log has each version once, in order, and replays to the stored version."""
    row = await store.match(match_id)
    assert row is not None
    seqs = [e.seq for e in await store.log_entries(match_id)]
    assert seqs == list(range(1, row.version + 1))
    fresh = await MatchService.open(url, renderer=None, animator=None)
    try:
        assert (await fresh.store.load(match_id)).game.version == row.version
    finally:
        await fresh.close()
    return row.version


async def test_a_process_killed_mid_move_loses_and_doubles_nothing(pg_url: str) -> None:
    svc = await MatchService.open(pg_url, renderer=None, animator=None)
    try:
        match_id = (await two_player_match(svc, seed=21)).match_id
    finally:
        await svc.close()
    store = await open_store(pg_url)
    try:
        for stop_after in (3, 7, 12):
            proc = await spawn("play", pg_url, CHANNEL, stop_after)
            seen = [(await line(proc))["version"] for _ in range(stop_after)]
            await kill(proc)  # most likely in the middle of the next move
            stored = await intact(store, pg_url, match_id)
            assert seen[-1] <= stored <= seen[-1] + 1, (seen, stored)  # none lost, one in flight
        proc = await spawn("play", pg_url, CHANNEL, 99)
        await asyncio.wait_for(proc.communicate(), 300)
        assert proc.returncode == 0
        await intact(store, pg_url, match_id)
        assert (await store.match(match_id)).status == "finished"  # type: ignore[union-attr]
        assert [r.match_id for r in await store.ratings.results()] == [match_id]
    finally:
        await store.close()


async def test_a_deadline_claimed_by_a_dead_process_fires_once_elsewhere(pg_url: str) -> None:
    svc = await MatchService.open(pg_url, renderer=None, animator=None)
    try:
        matches = {}
        for channel in range(40, 44):
            out = await two_player_match(svc, seed=channel, channel=channel, clock="live")
            matches[out.match_id] = out.current_user_id
    finally:
        await svc.close()
    late = 200  # seconds past every deadline
    first = await spawn("fire", pg_url, late, 1)
    claimed = (await line(first))["claimed"]
    assert sorted(m for m, _ in claimed) == sorted(matches)
    await kill(first)  # claimed, never dealt with
    idle = await spawn("fire", pg_url, late, 0)
    assert (await line(idle))["claimed"] == []  # still leased to the dead process
    await asyncio.wait_for(idle.communicate(), 120)
    after = late + TIMER_LEASE + 10  # the lease ran out
    two = [await spawn("fire", pg_url, after, 0) for _ in range(2)]
    outs = await asyncio.gather(*(asyncio.wait_for(p.communicate(), 300) for p in two))
    lines = [json.loads(x) for out, _ in outs for x in out.decode().splitlines()]
    fired = [tuple(x["fired"]) for x in lines if "fired" in x]
    # each claimed deadline once, by one of the two; a process that claims after the other's
    # stand-in moved may also fire the next turn's deadline (due by then too): once as well
    first_ones = sorted(m for m, v, _ in fired if [m, v] in claimed)
    assert first_ones == sorted(matches), lines
    assert len({(m, v) for m, v, _ in fired}) == len(fired), lines
    assert all(moved for m, v, moved in fired if [m, v] in claimed), lines
    store = await open_store(pg_url)
    try:
        for match_id, user in matches.items():
            await intact(store, pg_url, match_id)
            seat = next(s for s in await store.seats(match_id) if s.user_id == user)
            assert seat.missed == 1  # the stand-in played the late move once
    finally:
        await store.close()
