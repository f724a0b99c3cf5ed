"""Board rendering speed and PNG size (figures go to BENCHMARKS.md, section "Rendering").

    python benchmarks/render.py

Boards: a finished base game (72 tiles) and a 200-tile board of every expansion's tiles; each
with followers. Times are medians of repeated ``render_board`` calls with the tile cache warm
(the per-turn case), PNG encoding included; the first, cold render is shown separately.
Also: the turn picture the bot posts every turn (turn 41 of a 4-player game, its legal cells
numbered), and the replay animation of that game and of a long game with both expansions.
"""

from __future__ import annotations

import dataclasses
import io
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from engine import (  # noqa: E402
    GameSetup,
    Pass,
    PlaceTile,
    Position,
    PublicView,
    Rotation,
    apply,
    legal_deploys,
    legal_placements,
    new_game,
    public_view,
)
from engine.carcassonne.tiles import all_tiles  # noqa: E402
from engine.carcassonne.view import FigureView, TileView  # noqa: E402
from engine.core.seats import Seat  # noqa: E402
from rendering import board as board_mod  # noqa: E402
from rendering import cache_stats, render_animation, render_board  # noqa: E402
from rendering import png as png_writer  # noqa: E402


def turn_picture(
    seed: int = 3, turns: int = 40
) -> tuple[PublicView, dict[Position, tuple[Rotation, ...]]]:
    """A 4-player game after ``turns`` turns and its legal cells (the turn picture's input)."""
    state = new_game(GameSetup(players=4, names=("Ana", "Борис", "Ελένη", "Zoë")), seed=seed)
    rnd = random.Random(seed)
    for _ in range(turns):
        pl = legal_placements(state)
        pos = sorted(pl)[rnd.randrange(len(pl))]
        state = apply(
            state, state.current, PlaceTile(pos, pl[pos][rnd.randrange(len(pl[pos]))])
        ).state
        if state.step == "deploy":
            ds = legal_deploys(state)
            act = ds[rnd.randrange(len(ds))] if ds and rnd.random() < 0.7 else Pass()
            state = apply(state, state.current, act).state
    pl = legal_placements(state)
    return public_view(state), {p: tuple(pl[p]) for p in sorted(pl, key=lambda p: (p.y, p.x))}


def long_game(seed: int = 7) -> list[PublicView]:
    """One view per turn of a 4-player game with Inns & Cathedrals and Traders & Builders."""
    from engine.carcassonne.randomplay import choose_move
    from engine.core.rng import Rng

    setup = GameSetup(players=4, expansions=("inns_cathedrals", "traders_builders"))
    state = new_game(setup, seed=seed)
    rng = Rng(seed)
    views = [public_view(state)]
    while state.step != "over":
        seat, act = choose_move(state, rng)
        state = apply(state, seat, act).state
        if state.step != "deploy":
            views.append(public_view(state))
    return views


def full_base_game(seed: int = 7) -> tuple[PublicView, list[PublicView]]:
    state = new_game(GameSetup(players=4, names=("Ana", "Борис", "Ελένη", "Zoë")), seed=seed)
    rnd = random.Random(seed)
    views = [public_view(state)]
    while state.step != "over":
        pl = legal_placements(state)
        pos = sorted(pl)[rnd.randrange(len(pl))]
        state = apply(state, state.current, PlaceTile(pos, pl[pos][0])).state
        if state.step == "deploy":
            ds = legal_deploys(state)
            act = ds[rnd.randrange(len(ds))] if ds and rnd.random() < 0.5 else Pass()
            state = apply(state, state.current, act).state
        views.append(public_view(state))
    return views[-1], views


def big_board(base: PublicView, n: int = 200, seed: int = 3) -> PublicView:
    """``n`` tiles of every type in a compact blob, 48 followers (for speed, not legality)."""
    rnd = random.Random(seed)
    ids = sorted(t for t in all_tiles() if not all_tiles()[t].symbol("abbey"))
    cells: list[Position] = [Position(0, 0)]
    seen = {cells[0]}
    while len(cells) < n:
        p = cells[rnd.randrange(len(cells))]
        q = Position(p.x + rnd.choice((-1, 0, 1)), p.y + rnd.choice((-1, 0, 1)))
        if q not in seen:
            seen.add(q)
            cells.append(q)
    tiles = tuple(TileView(p, rnd.choice(ids), Rotation(rnd.randrange(4))) for p in cells)
    figs = []
    for tv in rnd.sample(tiles, 48):
        feats = all_tiles()[tv.tile].features
        if feats:
            f = rnd.randrange(len(feats))
            figs.append(FigureView(Seat(rnd.randrange(4)), "follower", tv.pos, "x", f))
    return dataclasses.replace(base, tiles=tiles, figures=tuple(figs))


BEST: dict[int, float] = {}
CPU: dict[int, float] = {}


def timed(fn, runs: int) -> tuple[float, bytes]:  # type: ignore[no-untyped-def]
    """Median wall time in ms of ``runs`` calls and the output; the best wall time is kept in
    BEST[id(fn)] and the median CPU time of this process in CPU[id(fn)] (CPU time does not
    count waiting for a core, so it stays meaningful on a busy machine)."""
    times = []
    cpu = []
    out = b""
    for _ in range(runs):
        t = time.perf_counter()
        c = time.process_time()
        out = fn()
        cpu.append(time.process_time() - c)
        times.append(time.perf_counter() - t)
    BEST[id(fn)] = min(times) * 1000
    CPU[id(fn)] = statistics.median(cpu) * 1000
    return statistics.median(times) * 1000, out


def main() -> None:
    print(
        f"load average before: {os.getloadavg()[0]:.1f} (2 vCPU machine: numbers above ~1 are noisy)"
    )
    final, views = full_base_game()
    big = big_board(final)
    view, cells = turn_picture()
    fn = lambda: render_board(view, placements=cells)  # noqa: E731
    ms, png = timed(fn, 15)
    img = Image.open(io.BytesIO(png))
    print(
        f"turn picture (turn {view.turn + 1}, {len(cells)} legal cells): {ms:.1f} ms warm "
        f"(best {BEST[id(fn)]:.1f}; CPU {CPU[id(fn)]:.1f}); PNG {len(png) / 1024:.0f} KiB, "
        f"{img.size[0]}x{img.size[1]}"
    )
    print(f"board of {len(final.tiles)} tiles / {len(big.tiles)} tiles (whole map)")
    for name, v in (("72-tile base game", final), ("200-tile board", big)):
        t0 = time.perf_counter()
        c0 = time.process_time()
        render_board(v, whole=True)
        cold = (time.perf_counter() - t0) * 1000
        cold_cpu = (time.process_time() - c0) * 1000
        fn = lambda v=v: render_board(v, whole=True)  # noqa: E731
        ms, png = timed(fn, 15)
        img = Image.open(io.BytesIO(png))
        print(
            f"{name}: {ms:.1f} ms warm (median of 15; best {BEST[id(fn)]:.1f}; "
            f"CPU {CPU[id(fn)]:.1f}), {cold:.0f} ms cold (CPU {cold_cpu:.0f}); "
            f"PNG {len(png) / 1024:.0f} KiB, {img.size[0]}x{img.size[1]}"
        )
    print("PNG encoding only (200-tile board), median CPU ms of 7 and KiB:")
    fast = f"ISA-L level {png_writer.ISAL_LEVEL}"
    DEFLATE = fast if png_writer.FAST else "zlib: isal is not installed"  # noqa: N806
    img = board_mod.board_image(big)

    def pillow(level: int) -> bytes:
        buf = io.BytesIO()
        img.save(buf, "PNG", compress_level=level)
        return buf.getvalue()

    for name, enc in (
        *((f"Pillow, filtered rows, level {lv}", lambda lv=lv: pillow(lv)) for lv in (1, 6)),
        *(
            (
                f"rendering.png, unfiltered, zlib level {lv}",
                lambda lv=lv: png_writer.encode(img, lv),
            )
            for lv in (1, 2, 3)
        ),
        (
            f"rendering.png default ({DEFLATE})",
            lambda: png_writer.encode(img),
        ),
    ):
        timed(enc, 7)
        data = enc()
        print(f"  {name}: CPU {CPU[id(enc)]:.1f} ms, {len(data) / 1024:.0f} KiB")
    fn = lambda: board_mod.board_image(big).tobytes()[:0]  # noqa: E731
    timed(fn, 7)
    print(f"composition only (200 tiles): CPU {CPU[id(fn)]:.1f} ms")
    for label, frames in (
        ("72-turn base game", views),
        ("long game, both expansions", long_game()),
    ):
        t0 = time.perf_counter()
        gif = render_animation(frames, fmt="gif")
        t_gif = time.perf_counter() - t0
        t0 = time.perf_counter()
        webp = render_animation(frames, fmt="webp")
        t_webp = time.perf_counter() - t0
        size = Image.open(io.BytesIO(gif)).size
        print(
            f"animation of the {label} ({len(frames)} frames, {size[0]}x{size[1]}): "
            f"GIF {len(gif) / 1024:.0f} KiB in {t_gif:.1f} s; "
            f"WebP {len(webp) / 1024:.0f} KiB in {t_webp:.1f} s"
        )
    print(f"renderer caches after this run (RSS {rss_mib():.0f} MiB):")
    for s in cache_stats():
        print(
            f"  {s.name}: {s.entries}/{s.max_entries} entries, "
            f"{s.nbytes / 2**20:.1f}/{s.budget / 2**20:.1f} MiB"
        )
    total = sum(s.nbytes for s in cache_stats()) / 2**20
    bound = sum(s.budget for s in cache_stats()) / 2**20
    print(f"  all caches: {total:.0f} MiB now, at most {bound:.0f} MiB")
    # the warm-up in a fresh process, as the bot and each worker process run it
    out = subprocess.run(
        [sys.executable, __file__, "--warm-up"], capture_output=True, text=True, check=True
    )
    print(out.stdout.strip())
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def rss_mib() -> float:
    """Resident memory of this process in MiB (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def warm_up_figures() -> None:
    """``rendering.warm_up`` in this (fresh) process: CPU time, what it did, memory it took;
    then the first picture of a game with both expansions, cold but warmed up."""
    from rendering import warm_up_report

    before = rss_mib()
    r = warm_up_report()
    print(
        f"warm-up in a fresh process: CPU {r.seconds * 1000:.0f} ms, {r.tiles} tile layouts, "
        f"{r.new_faces} font faces, {r.overlays} overlays; RSS +{rss_mib() - before:.0f} MiB"
    )
    views = long_game()
    for name, v in (("turn 1", views[0]), ("turn 60", views[60])):
        c = time.process_time()
        render_board(v)
        print(
            f"  then the first turn picture of a game ({name}): CPU {(time.process_time() - c) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    if sys.argv[1:] == ["--warm-up"]:
        warm_up_figures()
    else:
        main()
