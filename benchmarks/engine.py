"""Engine benchmark: random games per second, placement enumeration, record replay.

Run from the repository root::

    python benchmarks/engine.py            # the three figures (targets in brackets)
    python benchmarks/engine.py --profile  # plus a cProfile of the random games

Figures (BENCHMARKS.md, "## Engine"):

(a) complete random 2-player base games per second in one process. Every move asks the engine
    for the open decisions (``pending``), enumerates the answers of the first (every legal
    placement, every legal follower choice and passing, as a player or an AI must), picks one at
    random and applies it by its decision key; final scoring included. Floors (issues 9, 11,
    12): at least 150 games/s for the base game, 80 with Inns & Cathedrals and Traders &
    Builders, 50 with any other mix of built expansions (every one of them included).
(b) time to enumerate every legal placement of a tile on a board of about 70 tiles: the median
    over the 24 base tile types of one ``placements_for`` call. Target: at most 1 ms.
(c) replay of a full base-game record (JSON text -> record -> replayed final state).
    Target: at most 20 ms.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import io
import os
import platform
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import (  # noqa: E402
    GameSetup,
    GameState,
    PlaceTile,
    apply,
    legal_placements,
    new_game,
)
from engine.carcassonne.randomplay import choose_answer  # noqa: E402
from engine.carcassonne.rules import pending, placements_for  # noqa: E402
from engine.carcassonne.tiles import load_tile_set  # noqa: E402
from engine.core.rng import Rng  # noqa: E402

#: games/s floors by expansion mix (issue 9: base, I&C + T&B; issues 11-12: any other mix)
TARGET_BASE = 150.0
TARGET_BOTH = 80.0
TARGET_ANY = 50.0


def games_target(expansions: tuple[str, ...]) -> float:
    """The floor of figure (a) for ``expansions``."""
    if not expansions:
        return TARGET_BASE
    if set(expansions) <= {"inns_cathedrals", "traders_builders"}:
        return TARGET_BOTH
    return TARGET_ANY


TARGET_PLACEMENTS_MS = 1.0
TARGET_REPLAY_MS = 20.0


def machine() -> str:
    """One line naming the machine: CPU model, cores, Python."""
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}; nproc {os.cpu_count()}; Python {platform.python_version()} "
        f"({platform.python_implementation()}); {platform.system()} {platform.release()}"
    )


#: expansions enabled for every figure (``--expansions``); base game when empty
EXPANSIONS: tuple[str, ...] = ()


def setup(players: int = 2) -> GameSetup:
    return GameSetup(players=players, expansions=EXPANSIONS)


def random_game(seed: int, players: int = 2) -> tuple[GameState, int]:
    """Play one complete random game; return the final state and the number of applies."""
    state = new_game(setup(players), seed=seed)
    rng = Rng(seed * 7919 + 1)
    applies = 0
    while not state.over:
        # what any player, front end or AI does: ask the engine what is open, answer it
        d = pending(state)[0]
        state = apply(state, d.seat, choose_answer(d, rng), key=d.key).state
        applies += 1
    return state, applies


def bench_games(games: int, rounds: int = 5) -> tuple[float, float, float, float]:
    """(best and median games/s over ``rounds`` rounds, applies/s of the best, mean tiles).

    The games are split into rounds so a busy machine shows as a spread, not a wrong figure.
    """
    per_round = max(1, games // rounds)
    rates: list[tuple[float, float]] = []
    tiles = 0
    seed = 0
    for _ in range(rounds):
        applies = 0
        start = time.perf_counter()
        for _ in range(per_round):
            state, n = random_game(seed)
            seed += 1
            applies += n
            tiles += len(state.board.cells)
        elapsed = time.perf_counter() - start
        rates.append((per_round / elapsed, applies / elapsed))
    best = max(rates)
    return best[0], statistics.median(r[0] for r in rates), best[1], tiles / seed


def timed(fn: Callable[[], object], *, min_time: float = 0.02) -> float:
    """Seconds per call of ``fn``: enough calls to fill ``min_time``, best of five rounds."""
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t0
        if dt >= min_time:
            break
        n *= 2
    best = dt / n
    for _ in range(4):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best


def board_of_about(tiles: int, seed: int = 1) -> GameState:
    """A random base game stopped when ``tiles`` tiles are on the board (place step)."""
    state = new_game(setup(), seed=seed)
    rng = Rng(seed)
    while len(state.board.cells) < tiles and not state.over:
        d = pending(state)[0]
        if d.kind == "core.place":
            options = [PlaceTile(p, r) for p, rots in legal_placements(state).items() for r in rots]
            action = options[rng.below(len(options))]
        elif d.optional:
            action = d.pass_action
        else:  # an expansion's decision that may not be passed (a market's offer)
            action = choose_answer(d, rng)
        state = apply(state, d.seat, action, key=d.key).state
    return state


def bench_placements(tiles: int = 70) -> tuple[float, float, int, int]:
    """(median ms, max ms, board size, frontier size) for one tile's placements on the board."""
    state = board_of_about(tiles)
    board = state.board
    per_tile = [timed(partial(placements_for, board, t)) for t in load_tile_set("base")]
    # the public entry point on the drawn tile, for comparison
    if state.step == "place":
        per_tile.append(timed(lambda: legal_placements(state)))
    ms = [s * 1000 for s in per_tile]
    return statistics.median(ms), max(ms), len(board.cells), len(board.frontier)


def bench_replay(seed: int = 3) -> tuple[float, int, str]:
    """(median ms per replay, actions in the record, which replay was used)."""
    from engine.carcassonne.randomplay import play_random_game
    from engine.carcassonne.record import dumps, loads, replay

    game = play_random_game(setup(), seed)
    text = dumps(game.record)

    def run_record() -> object:
        result = replay(loads(text))
        assert result.scores == game.scores
        return result

    times = [timed(run_record, min_time=0.1) for _ in range(5)]
    return (
        statistics.median(times) * 1000,
        len(game.record.actions),
        "engine.carcassonne.record: loads(JSON) + replay",
    )


def profile_games(games: int) -> str:
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(games):
        random_game(seed)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=300, help="random games for figure (a)")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of figure (a)")
    ap.add_argument(
        "--expansions",
        default="",
        help="comma-separated expansion ids, e.g. "
        "inns_cathedrals,traders_builders (default: base game only)",
    )
    args = ap.parse_args(argv)
    global EXPANSIONS
    EXPANSIONS = tuple(e for e in args.expansions.split(",") if e)
    what = "base" if not EXPANSIONS else "base+" + "+".join(EXPANSIONS)

    print(f"date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}")
    print(f"machine: {machine()}")
    print(f"command: python benchmarks/engine.py {' '.join(argv or sys.argv[1:])}".rstrip())

    random_game(12345)  # warm caches (tile tables, fit tables)
    gps, median_gps, aps, tiles = bench_games(args.games)
    target = games_target(EXPANSIONS)
    ok = "ok" if gps >= target else "BELOW TARGET"
    print(
        f"(a) random 2-player {what} games: {gps:.1f} games/s best round, {median_gps:.1f} median "
        f"({aps:,.0f} applies/s, {tiles:.1f} tiles/game, {args.games} games in 5 rounds) "
        f"[target >= {target:.0f}] {ok}"
    )

    med, worst, size, frontier = bench_placements()
    ok = "ok" if med <= TARGET_PLACEMENTS_MS else "ABOVE TARGET"
    print(
        f"(b) legal placements of one tile on a {size}-tile board ({frontier} open cells): "
        f"median {med * 1000:.1f} µs, max {worst * 1000:.1f} µs over 24 tile types "
        f"[target <= {TARGET_PLACEMENTS_MS:g} ms] {ok}"
    )

    ms, n, how = bench_replay()
    ok = "ok" if ms <= TARGET_REPLAY_MS else "ABOVE TARGET"
    print(
        f"(c) replay of a full {what} record ({n} actions; {how}): {ms:.2f} ms "
        f"[target <= {TARGET_REPLAY_MS:g} ms] {ok}"
    )

    if args.profile:
        print(profile_games(max(20, args.games // 10)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
