"""Measure the match service: log replay (cold load), one move (apply + SQLite transaction),
and listing from snapshots. Prints figures; asserts nothing.

    /work/venv/bin/python benchmarks/bench_service.py [--games N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

# run as a script, this folder comes first on sys.path and its engine.py would shadow the package
_ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [str(_ROOT)] + [
    p for p in sys.path if Path(p or ".").resolve() != _ROOT / "benchmarks"
]

from app.matches import MatchOptions, MatchService, Outcome  # noqa: E402
from app.replay import rebuild  # noqa: E402
from engine import Action, GameSetup, Pass, PlaceTile  # noqa: E402


def _move(out: Outcome, rng: random.Random) -> list[Action]:
    if out.view.step == "place":
        pos = rng.choice(list(out.placements))
        return [PlaceTile(pos, rng.choice(out.placements[pos]))]
    return [rng.choice([*out.deploys, Pass()])]


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"median {statistics.median(xs) * 1e3:.2f} ms, p95 {p95 * 1e3:.2f} ms, n={len(xs)}"


async def bench(games: int, players: int, expansions: tuple[str, ...]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        svc = await MatchService.open(Path(tmp) / "bench.sqlite3", renderer=None, animator=None)
        try:
            submit: list[float] = []
            load: list[float] = []
            replays: list[float] = []
            lengths: list[int] = []
            for g in range(games):
                ch = 1000 + g
                opts = MatchOptions(players=players, expansions=expansions)
                await svc.create_lobby(1, ch, 1, "P1", opts, seed=g)
                for u in range(2, players + 1):
                    await svc.join(ch, u, f"P{u}")
                out = await svc.start(ch, 1)
                rng = random.Random(g)
                while not out.finished:
                    t = time.perf_counter()
                    out = await svc.submit(ch, out.current_user_id, _move(out, rng), out.version)
                    submit.append(time.perf_counter() - t)
                entries = await svc.storage.actions.entries(out.match_id)
                lengths.append(len(entries))
                row = await svc.storage.matches.get(out.match_id)
                assert row is not None and row.setup is not None
                setup = GameSetup.from_json(row.setup)
                log = [(e.seat, e.action) for e in entries]
                for _ in range(5):
                    t = time.perf_counter()
                    rebuild(setup, row.seed, log)
                    replays.append(time.perf_counter() - t)
                svc.store.cache.clear()
                t = time.perf_counter()
                await svc.match(out.match_id)
                load.append(time.perf_counter() - t)
            t = time.perf_counter()
            listed = await svc.recent_matches(1000, limit=10)
            listing = time.perf_counter() - t
        finally:
            await svc.close()
    label = f"{players} players" + (f" + {', '.join(expansions)}" if expansions else "")
    print(f"== {label}: {games} games, {statistics.mean(lengths):.0f} log entries per game")
    print(f"replay a whole game from its log     {_ms(replays)}")
    print(f"cold load (SQLite read + replay)     {_ms(load)}")
    print(f"submit one action (apply + commit)   {_ms(submit)}")
    print(f"list recent matches from snapshots   {listing * 1e3:.2f} ms ({len(listed)} listed)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=5)
    args = ap.parse_args()
    asyncio.run(bench(args.games, 2, ()))
    asyncio.run(bench(args.games, 6, ("inns_cathedrals", "traders_builders")))


if __name__ == "__main__":
    main()
