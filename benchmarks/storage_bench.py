"""Storage per move: bytes written to the write-ahead log, and what durability costs.

Plays one recorded random game (2 players, Inns & Cathedrals and Traders & Builders, so that it
lasts well over 150 moves) into a real SQLite file exactly as the match service stores a move:
one transaction that compare-and-sets the match row with a new snapshot, appends the log entry
and, when the turn passes to another seat, replaces the turn reminder.

(a) **WAL bytes per move** at move 10 and move 150 (mean of the five moves around each), for the
    snapshot the service writes today (summary + the whole game record) and, when this storage
    has it, the compact snapshot (``storage.snapshots.compact_snapshot``: the summary only; the
    record stays in the append-only log and is written whole when the match ends). The WAL is
    truncated before each measured commit, so its size afterwards is that commit's writes.
(b) **Commit time** of a move with ``synchronous=NORMAL`` against ``FULL`` (and ``EXTRA``):
    games are replayed in turn under each setting on the same file system; p50 / p90 / p99 / mean.

    python benchmarks/storage_bench.py [--seed 7] [--games 3] [--snapshot full|compact]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# run as a script, this folder comes first on sys.path and its engine.py would shadow the package
_ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [str(_ROOT)] + [
    p for p in sys.path if Path(p or ".").resolve() != _ROOT / "benchmarks"
]

from engine import Action, GameSetup, apply, new_game, play_random_game  # noqa: E402
from engine.carcassonne.record import GameRecord  # noqa: E402
from storage import NewAction, Storage  # noqa: E402

try:  # absent before compact snapshots existed (the "before" figures were taken without it)
    from storage.snapshots import compact_snapshot
except ImportError:  # pragma: no cover - old storage
    compact_snapshot = None  # type: ignore[assignment]

EXPANSIONS = ("inns_cathedrals", "traders_builders")
NAMES = ("Ann", "Bob")
USERS = (1001, 1002)


@dataclass(frozen=True, slots=True)
class Move:
    """One log entry and the snapshot stored with it."""

    version: int
    seat: int
    notation: str
    snapshot: dict[str, Any]
    turn_passes: bool
    next_user: int
    final: bool


def game_moves(seed: int) -> tuple[GameSetup, list[Move]]:
    """A random game and, for every move, the snapshot the match service stores with it."""
    setup = GameSetup(players=2, expansions=EXPANSIONS)
    record = play_random_game(setup, seed).record
    state = new_game(setup, seed=seed)
    moves = []
    for i, ra in enumerate(record.actions, start=1):
        before = state.current
        state = apply(state, ra.seat, Action.from_notation(ra.notation)).state
        prefix = GameRecord(
            setup=setup,
            seed=seed,
            actions=record.actions[:i],
            names=NAMES,
            final_scores=state.scores if state.over else None,
        )
        best = max(state.scores)
        snapshot = {  # the shape of app.results.snapshot_of
            "schema": 1,
            "version": i,
            "turn": state.turn,
            "step": state.step,
            "current": int(state.current),
            "tiles_left": state.tiles_left,
            "scores": list(state.scores),
            "winners": [s for s, p in enumerate(state.scores) if p == best] if state.over else [],
            "resigned": [],
            "record": prefix.to_json(),
        }
        moves.append(
            Move(
                i,
                int(ra.seat),
                ra.notation,
                snapshot,
                state.current != before,
                USERS[int(state.current)],
                state.over,
            )
        )
    return setup, moves


async def start_match(store: Storage, setup: GameSetup, seed: int, channel: int) -> int:
    async with store.db.transaction() as tx:
        mid = await store.matches.create(
            tx, guild_id=1, channel_id=channel, host_id=USERS[0], options={}, seed=seed
        )
        for user, name in zip(USERS, NAMES, strict=True):
            await store.matches.add_seat(tx, mid, user, name)
    async with store.db.transaction() as tx:
        await store.matches.start(
            tx, mid, seat_order=list(USERS), setup=setup.to_json(), snapshot={"schema": 1}
        )
    return mid


async def store_move(store: Storage, mid: int, move: Move, shape: Callable[[Move], Any]) -> None:
    """One move as ``MatchService._commit`` stores it."""
    async with store.db.transaction() as tx:
        await store.matches.advance(
            tx,
            mid,
            expected_version=move.version - 1,
            new_version=move.version,
            snapshot=shape(move),
            status="finished" if move.final else None,
        )
        await store.actions.append(tx, mid, [NewAction(move.version, move.seat, move.notation)])
        if move.final:
            await store.timers.cancel(tx, mid)
        elif move.turn_passes:
            await store.timers.replace_turn_reminder(
                tx, mid, user_id=move.next_user, fires_at=time.time() + 600, version=move.version
            )


def full(move: Move) -> dict[str, Any]:
    return move.snapshot


def compact(move: Move) -> dict[str, Any]:
    assert compact_snapshot is not None
    return compact_snapshot(move.snapshot, final=move.final)


def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


async def wal_bytes(
    setup: GameSetup, seed: int, moves: list[Move], shape: Callable[[Move], Any], tmp: Path
) -> dict[int, int]:
    """WAL bytes written by the commit of every move."""
    path = tmp / f"wal-{shape.__name__}.sqlite3"
    store = await Storage.open(path)
    out = {}
    try:
        mid = await start_match(store, setup, seed, 1)
        for move in moves:
            await store.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            assert _wal(path).stat().st_size == 0
            await store_move(store, mid, move, shape)
            out[move.version] = _wal(path).stat().st_size
    finally:
        await store.close()
    return out


async def commit_times(
    setup: GameSetup,
    seed: int,
    moves: list[Move],
    shape: Callable[[Move], Any],
    tmp: Path,
    games: int,
    levels: tuple[str, ...],
) -> dict[str, list[float]]:
    """Seconds per move commit under each ``synchronous`` level (levels interleaved by game)."""
    times: dict[str, list[float]] = {lv: [] for lv in levels}
    stores = {}
    try:
        for lv in levels:
            stores[lv] = await Storage.open(tmp / f"sync-{lv}.sqlite3")
            await stores[lv].db.conn.execute(f"PRAGMA synchronous={lv}")
        for g in range(games):
            for lv in levels:
                store = stores[lv]
                mid = await start_match(store, setup, seed, 100 + g)
                for move in moves:
                    t = time.perf_counter()
                    await store_move(store, mid, move, shape)
                    times[lv].append(time.perf_counter() - t)
    finally:
        for store in stores.values():
            await store.close()
    return times


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _around(per_move: dict[int, int], at: int) -> float:
    window = [per_move[v] for v in range(at - 2, at + 3) if v in per_move]
    return statistics.mean(window)


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--games", type=int, default=3, help="games per synchronous level in (b)")
    p.add_argument(
        "--snapshot",
        choices=("full", "compact"),
        default=None,
        help="snapshot used in (b) (default: compact when available)",
    )
    p.add_argument("--levels", default="NORMAL,FULL,EXTRA")
    args = p.parse_args()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  {platform.processor() or platform.machine()}"
        f"  nproc {os.cpu_count()}  Python {platform.python_version()}  load {load:.1f}"
    )
    setup, moves = game_moves(args.seed)
    print(f"game: seed {args.seed}, {len(moves)} moves, expansions {', '.join(EXPANSIONS)}")
    shapes: list[Callable[[Move], Any]] = [full] + ([compact] if compact_snapshot else [])
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmpdir:
        tmp = Path(tmpdir)
        print("\n(a) WAL bytes per move commit (mean of moves n-2..n+2)")
        for shape in shapes:
            per = await wal_bytes(setup, args.seed, moves, shape, tmp)
            size10 = len(json.dumps(shape(moves[9]), separators=(",", ":")))
            size150 = len(json.dumps(shape(moves[149]), separators=(",", ":")))
            whole = sum(per.values())
            print(
                f"  {shape.__name__:8s} move 10: {_around(per, 10) / 1024:6.1f} KiB"
                f" (snapshot {size10} B)   move 150: {_around(per, 150) / 1024:6.1f} KiB"
                f" (snapshot {size150} B)   whole game: {whole / 1024:7.0f} KiB"
                f" ({whole / len(moves) / 1024:.1f} KiB/move)"
            )
        use = full if args.snapshot == "full" or compact_snapshot is None else compact
        levels = tuple(s.strip().upper() for s in args.levels.split(",") if s.strip())
        print(f"\n(b) move commit time by synchronous level ({use.__name__} snapshots)")
        times = await commit_times(setup, args.seed, moves, use, tmp, args.games, levels)
        for lv, xs in times.items():
            print(
                f"  {lv:6s} p50 {_pct(xs, 0.5) * 1e3:6.2f} ms  p90 {_pct(xs, 0.9) * 1e3:6.2f} ms"
                f"  p99 {_pct(xs, 0.99) * 1e3:6.2f} ms  mean {statistics.mean(xs) * 1e3:6.2f} ms"
                f"  (n={len(xs)})"
            )


if __name__ == "__main__":
    asyncio.run(main())
