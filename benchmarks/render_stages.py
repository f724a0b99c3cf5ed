"""CPU time of the drawing workers' work per move, by stage, for a realistic mix (issue 33).

What a drawing worker does for a two-player base game, as the bot asks it: one turn picture
after every move (legal cells numbered, the move's scoring outlined), the final board (whole,
with its breakdown) and the replay animation (the game replayed from its moves, then the GIF).
Each is timed by stage in CPU time (``time.thread_time``; the machine is shared, wall time is
not comparable between runs):

- **ipc**: pickling the request in the bot (``partial(render_board, view, ...)``) and
  unpickling it in the worker, pickling the PNG back;
- **layout**: the frame, the header's layout, the strips under the board;
- **background**, **board** (tiles, figures, last tiles, numbered cells, points), **off**
  (marks of figures out of the crop), **header** (the score strip), **breakdown**;
- **encode**: PNG deflate (turn pictures, final board);
- replay: **replay** (the engine's replay and the public views), **palette**, **frames** (the
  canvas drawing each frame), **quantise** (palette indices and diffs), **lzw** (GIF encoding).

Each tree is measured in a child process of its own (``--tree``: another checkout, e.g. a
``git archive`` of main), alternately, ``--rounds`` times; per stage the median over rounds is
printed, and the per-move cost amortised as BENCHMARKS.md's Tables section does (a game's
final board and replay spread over its moves).

    python benchmarks/render_stages.py                          # this checkout
    python benchmarks/render_stages.py --tree /tmp/before --rounds 3
    python benchmarks/render_stages.py --tree /tmp/before --instructions --games 1

``--instructions`` counts instructions instead (valgrind's callgrind, a figure the machine's
load does not move): each child runs under callgrind with instrumentation off, warms up, then
switches it on around the turn pictures, the final boards and the replays of its games in
turn (``callgrind_control``), dumping the count of each; an empty section measures what the
switching itself costs, which is taken off. Needs valgrind.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _games(count: int, first_seed: int) -> list[tuple[Any, int, list[Any], list[Any]]]:
    """``count`` random 2-player base games: (setup, seed, moves, steps), each step the view
    after a move, its events and the legal cells of the next placement."""
    import random

    from app.replay import Move
    from app.results import numbered_cells
    from engine import (
        GameSetup,
        Pass,
        PlaceTile,
        apply,
        legal_deploys,
        legal_placements,
        new_game,
        public_view,
    )

    out = []
    for g in range(count):
        seed = first_seed + g
        setup = GameSetup(players=2, names=("Ana", "Борис"))
        state = new_game(setup, seed=seed)
        rnd = random.Random(seed)
        moves: list[Any] = []
        steps: list[Any] = []
        while state.step != "over":
            seat = state.current
            if state.step == "place":
                legal = legal_placements(state)
                pos = sorted(legal)[rnd.randrange(len(legal))]
                act: Any = PlaceTile(pos, legal[pos][rnd.randrange(len(legal[pos]))])
            else:
                ds = legal_deploys(state)
                act = ds[rnd.randrange(len(ds))] if ds and rnd.random() < 0.5 else Pass()
            tr = apply(state, seat, act)
            moves.append(Move(seat, act))
            state = tr.state
            if state.step == "place" or state.step == "over":
                cells = numbered_cells(legal_placements(state)) if state.step == "place" else {}
                over = state.step == "over"
                awards = tuple(state.awards) if over else None
                steps.append((public_view(state), tr.events, cells, awards))
        out.append((setup, seed, moves, steps))
    return out


class _Clock:
    """CPU time by stage: wraps module functions so their time is added to a stage (outermost
    wrapper only, so nested stages are not counted twice)."""

    def __init__(self) -> None:
        self.times: dict[str, float] = defaultdict(float)
        self.depth = 0

    def wrap(self, module: Any, name: str, stage: str) -> None:
        fn = getattr(module, name, None)
        if fn is None:
            return

        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.depth:
                return fn(*args, **kwargs)
            self.depth += 1
            t0 = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.times[stage] += time.thread_time() - t0
                self.depth -= 1

        setattr(module, name, timed)

    def add(self, stage: str, t: float) -> None:
        self.times[stage] += t


#: games drawn before measuring (other seeds): a long-running worker has drawn every tile at
#: every turn picture's tile size, and the text, before
WARM_GAMES = 2


def _warm(games: int) -> None:
    """Warm this process up as a drawing worker that has run a while: the bot's warm-up, then
    every picture of ``games`` other games."""
    from functools import partial

    import rendering
    from app.painters import replay_animation
    from rendering import worker

    worker.warm()
    for setup, gseed, moves, steps in _games(games, 10_000):
        for view, events, cells, awards in steps:
            rendering.render_board(
                view.for_pictures(), placements=cells or None, events=tuple(events), awards=awards
            )
        partial(replay_animation, rendering.render_animation, setup, gseed, moves)()


def _ctl(*args: str) -> None:
    """Tell the callgrind this process runs under (``callgrind_control``)."""
    subprocess.run(["callgrind_control", *args, str(os.getpid())], check=True, capture_output=True)


def child_instructions(tree: Path, games: int, seed: int) -> None:
    """Under callgrind: warm up, then each kind of picture of ``games`` games with
    instrumentation on, one dump per kind (named ``empty``, ``turn``, ``final``, ``replay``)."""
    sys.path.insert(0, str(tree))
    from functools import partial

    import rendering
    from app.painters import replay_animation

    _warm(WARM_GAMES)
    data = _games(games, seed)
    turns, finals, replays = [], [], []
    for setup, gseed, moves, steps in data:
        for view, events, cells, awards in steps:
            call = partial(
                rendering.render_board,
                view.for_pictures(),
                placements=cells or None,
                lang="en",
                events=tuple(events),
                awards=awards,
            )
            blob = pickle.dumps(call, protocol=pickle.HIGHEST_PROTOCOL)
            (finals if awards is not None else turns).append(blob)
        replays.append(
            pickle.dumps(
                partial(replay_animation, rendering.render_animation, setup, gseed, moves),
                protocol=pickle.HIGHEST_PROTOCOL,
            )
        )
    # what a worker does with each request: unpickle it, draw, pickle the bytes back
    for name, blobs in (("empty", []), ("turn", turns), ("final", finals), ("replay", replays)):
        _ctl("-i", "on")
        for blob in blobs:
            pickle.dumps(pickle.loads(blob)(), protocol=pickle.HIGHEST_PROTOCOL)
        _ctl("-d", name)
        _ctl("-i", "off")
    print(json.dumps({"turn": len(turns), "final": len(finals), "replay": len(replays)}))


def instructions(tree: Path, games: int, seed: int) -> dict[str, Any]:
    """Run :func:`child_instructions` for ``tree`` under callgrind; instructions by kind."""
    py = sys.executable  # the virtualenv's (a symlink to the interpreter, not a shim)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
        cmd += [f"--callgrind-out-file={tmp}/cg.out", py, __file__, "--child", str(tree)]
        cmd += ["--games", str(games), "--seed", str(seed), "--instructions"]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=tree).stdout
        counts = json.loads(out.strip().splitlines()[-1])
        found: dict[str, int] = {}
        for f in Path(tmp).glob("cg.out*"):
            text = f.read_text(errors="replace")
            m = re.search(r"^desc: Trigger: dump (\w+)$", text, re.M)
            t = re.search(r"^totals: (\d+)", text, re.M)
            if m and t:
                found[m.group(1)] = int(t.group(1))
    empty = found.get("empty", 0)
    return {k: (found[k] - empty, counts[k]) for k in ("turn", "final", "replay")}


def child(tree: Path, games: int, seed: int) -> dict[str, Any]:
    """Measure ``games`` games with ``tree``'s rendering; returns CPU seconds by stage."""
    sys.path.insert(0, str(tree))
    from functools import partial

    import rendering
    from rendering import animation, board, canvas

    _warm(WARM_GAMES)
    clock = _Clock()
    for name, stage in (
        ("board_frame", "layout"),
        ("header_layout", "layout"),
        ("overlay_strips", "layout"),
        ("find_scored", "layout"),
        ("board_background", "background"),
        ("draw_board_part", "board"),
        ("draw_off_picture", "off"),
        ("draw_header", "header"),
        ("encode_png", "encode"),
    ):
        clock.wrap(board, name, stage)
    from rendering import final

    clock.wrap(final, "draw_breakdown", "breakdown")
    clock.wrap(final, "breakdown_height", "layout")
    # the replay's stages
    clock.wrap(animation, "_palette", "palette")
    clock.wrap(animation, "_changed_in", "quantise")
    clock.wrap(animation, "_changed", "quantise")
    clock.wrap(animation, "_frame_data", "lzw")
    for cls in (getattr(canvas, "BoardCanvas", None),):
        if cls is not None:
            clock.wrap(cls, "draw", "frames")
    clock.wrap(animation, "board_picture", "frames")
    from app.painters import replay_animation

    data = _games(games, seed)
    counts: dict[str, int] = defaultdict(int)
    size: dict[str, int] = defaultdict(int)
    kinds = {"turn": dict(clock.times)}
    totals: dict[str, float] = defaultdict(float)
    per_kind: dict[str, dict[str, float]] = {
        k: defaultdict(float) for k in ("turn", "final", "replay")
    }
    for setup, gseed, moves, steps in data:
        for view, events, cells, awards in steps:
            kind = "final" if awards is not None else "turn"
            fn = partial(
                rendering.render_board,
                view.for_pictures(),
                placements=cells or None,
                lang="en",
                events=tuple(events),
                awards=awards,
            )
            before = dict(clock.times)
            t0 = time.thread_time()
            blob = pickle.dumps(fn, protocol=pickle.HIGHEST_PROTOCOL)
            t1 = time.thread_time()
            call = pickle.loads(blob)
            t2 = time.thread_time()
            png = call()
            t3 = time.thread_time()
            back = pickle.dumps(png, protocol=pickle.HIGHEST_PROTOCOL)
            t4 = time.thread_time()
            clock.add("ipc-request", (t1 - t0) + (t2 - t1))
            clock.add("ipc-result", t4 - t3)
            clock.add("total", t4 - t0)
            for k, v in clock.times.items():
                per_kind[kind][k] += v - before.get(k, 0.0)
            counts[kind] += 1
            counts[f"{kind}-request-bytes"] += len(blob)
            size[kind] += len(png)
            del back
        before = dict(clock.times)
        t0 = time.thread_time()
        # what the animation worker is sent: the animator, the setup, seed and moves
        req = pickle.dumps(
            partial(replay_animation, rendering.render_animation, setup, gseed, moves),
            protocol=pickle.HIGHEST_PROTOCOL,
        )
        call = pickle.loads(req)
        t1 = time.thread_time()
        real_iter = _patch_replay(clock)
        gif = call()
        _unpatch_replay(real_iter)
        t2 = time.thread_time()
        clock.add("ipc-request", t1 - t0)
        clock.add("total", t2 - t0)
        for k, v in clock.times.items():
            per_kind["replay"][k] += v - before.get(k, 0.0)
        counts["replay"] += 1
        size["replay"] += len(gif)
    for k in per_kind:
        for s, v in per_kind[k].items():
            totals[s] += v
    del kinds
    return {
        "per_kind": {k: dict(v) for k, v in per_kind.items()},
        "counts": dict(counts),
        "bytes": dict(size),
        # a move as the bot counts it: a tile placed with its follower (one command)
        "moves": sum(len(st) for _s, _g, _m, st in data),
        "games": len(data),
    }


_REAL: dict[str, Any] = {}


def _patch_replay(clock: _Clock) -> Any:
    """Time the engine's replay in :func:`app.painters.replay_animation` as its own stage."""
    import app.painters as painters

    real = painters.iter_turn_states
    pv = painters.public_view

    def states(*args: Any, **kwargs: Any) -> Any:
        it = real(*args, **kwargs)
        while True:
            t0 = time.thread_time()
            try:
                s = next(it)
            except StopIteration:
                clock.add("replay", time.thread_time() - t0)
                return
            clock.add("replay", time.thread_time() - t0)
            yield s

    def view_of(s: Any) -> Any:
        t0 = time.thread_time()
        try:
            return pv(s)
        finally:
            clock.add("replay", time.thread_time() - t0)

    painters.iter_turn_states = states
    painters.public_view = view_of
    return (real, pv)


def _unpatch_replay(saved: Any) -> None:
    import app.painters as painters

    painters.iter_turn_states, painters.public_view = saved


STAGES = (
    "ipc-request",
    "layout",
    "background",
    "board",
    "off",
    "header",
    "breakdown",
    "encode",
    "ipc-result",
    "replay",
    "palette",
    "frames",
    "quantise",
    "lzw",
    "total",
)


def report(name: str, runs: list[dict[str, Any]]) -> None:
    """Print the median over ``runs`` of each stage, per picture and per move."""
    first = runs[0]
    moves, games = first["moves"], first["games"]
    c = first["counts"]
    print(
        f"\n{name}: {games} games, {moves} moves; {c.get('turn', 0)} turn pictures, "
        f"{c.get('final', 0)} final boards, {c.get('replay', 0)} replays; median of {len(runs)}"
    )
    b = first["bytes"]
    print(
        "  bytes: turn picture {:.0f} KiB, final {:.0f} KiB, replay {:.0f} KiB; request {:.1f} KB".format(
            b.get("turn", 0) / max(1, c.get("turn", 1)) / 1024,
            b.get("final", 0) / max(1, c.get("final", 1)) / 1024,
            b.get("replay", 0) / max(1, c.get("replay", 1)) / 1024,
            c.get("turn-request-bytes", 0) / max(1, c.get("turn", 1)) / 1000,
        )
    )
    print(
        f"  {'stage':12} {'turn (ms/pic)':>14} {'final (ms)':>11} {'replay (ms)':>12} {'per move':>9}"
    )
    for stage in STAGES:
        vals = {}
        for kind in ("turn", "final", "replay"):
            xs = [r["per_kind"][kind].get(stage, 0.0) for r in runs]
            vals[kind] = statistics.median(xs)
        if not any(vals.values()):
            continue
        per_move = sum(vals.values()) / moves * 1000
        print(
            f"  {stage:12} {vals['turn'] / max(1, c.get('turn', 1)) * 1000:14.3f} "
            f"{vals['final'] / max(1, c.get('final', 1)) * 1000:11.2f} "
            f"{vals['replay'] / max(1, c.get('replay', 1)) * 1000:12.1f} {per_move:9.3f}"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", action="append", default=[], help="another checkout to measure")
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--seed", type=int, default=100)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    p.add_argument("--instructions", action="store_true", help="count instructions (valgrind)")
    args = p.parse_args()
    if args.child:
        # as a script this folder comes first on sys.path: its engine.py would shadow the package
        sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
        if args.instructions:
            child_instructions(Path(args.child), args.games, args.seed)
            return
        print(json.dumps(child(Path(args.child), args.games, args.seed)))
        return
    trees = [Path(t).resolve() for t in args.tree] + [ROOT]
    if args.instructions:
        for t in trees:
            got = instructions(t, args.games, args.seed)
            moves = got["turn"][1] + got["final"][1]
            per_move = sum(n for n, _c in got.values()) / moves
            print(f"\n{t}: {args.games} games, {moves} moves; instructions (millions)")
            for kind, (n, c) in got.items():
                print(
                    f"  {kind:7} {n / 1e6 / max(1, c):9.2f} each ({c}), {n / 1e6 / moves:7.2f} per move"
                )
            print(f"  total per move {per_move / 1e6:.2f}")
        return
    runs: dict[Path, list[dict[str, Any]]] = {t: [] for t in trees}
    for _ in range(args.rounds):
        for t in trees:
            cmd = [sys.executable, __file__, "--child", str(t), "--games", str(args.games)]
            cmd += ["--seed", str(args.seed)]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=t).stdout
            runs[t].append(json.loads(out.strip().splitlines()[-1]))
    for t in trees:
        report(str(t), runs[t])
    if args.json:
        print(json.dumps({str(t): r for t, r in runs.items()}))


if __name__ == "__main__":
    main()
