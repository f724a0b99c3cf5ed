"""Digests of every tile type's picture and of boards that show every expansion's art, to check
that a change in how the tiles are drawn (the symbols moving into overlays) keeps every pixel.

    python benchmarks/tile_pixels.py > before.json             # on the old code
    python benchmarks/tile_pixels.py --compare before.json     # on the new code
    python benchmarks/tile_pixels.py --save DIR                # also write the boards as PNG

Pictures: every tile type of every tile set at three sizes and four rotations (``tile_image``),
its art at 200 px with and without the upright symbols (``draw_tile_art``), the tile sheet,
the final board (whole map, with its final events) and a turn picture of every saved record in
``tests/fixtures/records`` and every JCloisterZone save in ``tests/fixtures/jcz/random``, and
random games of every built expansion (the conftest's player, as the renderer's tests play):
turn pictures with the legal cells, spot pictures and the final board. Besides pixels, each tile
layout's anchors, field labels, field walls and road paths are hashed (figures stand on them).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from engine import legal_deploys, legal_placements, public_view  # noqa: E402
from engine.carcassonne.record import loads, replay  # noqa: E402
from engine.carcassonne.tiles import all_tiles  # noqa: E402
from rendering import render_board, render_spots, render_tile_sheet  # noqa: E402
from rendering.layout import tile_layout  # noqa: E402
from rendering.tiles import draw_tile_art, tile_image  # noqa: E402

SIZES = (40, 97, 128)
GAMES = (
    ((), 3),
    (("inns_cathedrals", "traders_builders"), 4),
    (("abbey_mayor",), 5),
    (("bridges_castles_bazaars",), 6),
    (("inns_cathedrals", "traders_builders", "abbey_mayor", "bridges_castles_bazaars"), 7),
)


def digest_image(img: Image.Image) -> str:
    h = hashlib.sha256(f"{img.mode} {img.size}".encode())
    h.update(img.tobytes())
    return h.hexdigest()[:24]


def digest_png(data: bytes) -> str:
    img = Image.open(io.BytesIO(data))
    img.load()
    return digest_image(img)


def layout_digest(tile_id: str) -> str:
    """Where figures stand and how the grass is split: must not move when only art moves."""
    lay = tile_layout(tile_id)
    parts = (
        sorted(lay.anchors.items()),
        lay.labels,
        lay.field_walls,
        [(r.feature, r.arms, r.gate) for r in lay.roads],
        [(c.feature, c.polygon, c.walls) for c in lay.cities],
        lay.stubs,
        lay.tunnels,
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def tile_pictures() -> Iterator[tuple[str, Callable[[], str]]]:
    for tid in sorted(all_tiles()):
        yield f"layout/{tid}", partial(layout_digest, tid)
        for size in SIZES:
            for rot in range(4):
                yield (
                    f"tile/{tid}/{size}/{rot}",
                    lambda t=tid, s=size, r=rot: digest_image(tile_image(t, r, s)),
                )
        for upright in (True, False):
            yield (
                f"art/{tid}/{upright}",
                lambda t=tid, u=upright: digest_image(draw_tile_art(t, 200, upright=u)),
            )
    yield "sheet", lambda: digest_png(render_tile_sheet())


def board_pictures(save: Path | None) -> Iterator[tuple[str, Callable[[], str]]]:
    def keep(name: str, data: bytes) -> str:
        if save is not None:
            out = save / (name.replace("/", "_") + ".png")
            out.write_bytes(data)
        return digest_png(data)

    records = sorted((ROOT / "tests/fixtures/records").glob("*.json"))
    for path in records:
        res = replay(loads(path.read_text()), keep_states=True)
        final = public_view(res.state)
        mid = public_view(res.states[len(res.states) // 2])
        name = f"record/{path.stem}"
        yield (
            f"{name}/final",
            lambda n=name, v=final, e=res.events: keep(
                f"{n}/final", render_board(v, events=e, whole=True)
            ),
        )
        yield f"{name}/mid", lambda n=name, v=mid: keep(f"{n}/mid", render_board(v))
    from engine.carcassonne.jcz import loads_jcz

    for path in sorted((ROOT / "tests/fixtures/jcz/random").glob("*.jcz")):
        res = replay(loads_jcz(path.read_text()).record, keep_states=True)
        final = public_view(res.state)
        mid = public_view(res.states[len(res.states) // 2])
        name = f"jcz/{path.stem}"
        yield (
            f"{name}/final",
            lambda n=name, v=final, e=res.events: keep(
                f"{n}/final", render_board(v, events=e, whole=True)
            ),
        )
        yield f"{name}/mid", lambda n=name, v=mid: keep(f"{n}/mid", render_board(v, whole=True))
    sys.path.insert(0, str(ROOT / "tests" / "rendering"))
    from tests.rendering.conftest import play

    for exps, seed in GAMES:
        tag = "+".join(e[:6] for e in exps) or "base"
        for turns in (12, 30, 200):
            state, _views = play(turns, seed=seed, expansions=exps, stop_at_deploy=turns == 30)
            view = public_view(state)
            name = f"game/{tag}/{turns}"
            if state.step == "place":
                legal = dict(legal_placements(state))
                yield name, lambda n=name, v=view, p=legal: keep(n, render_board(v, placements=p))
            elif state.step == "deploy":
                ds = legal_deploys(state)
                spots = tuple(d.spot for d in ds)
                figs = tuple(d.figure for d in ds)
                yield name, lambda n=name, v=view, s=spots, f=figs: keep(n, render_spots(v, s, f))
            else:
                yield name, lambda n=name, v=view: keep(n, render_board(v, whole=True))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", type=Path, help="a JSON file this script wrote before")
    ap.add_argument("--save", type=Path, help="a folder to write the board pictures to")
    args = ap.parse_args()
    if args.save is not None:
        args.save.mkdir(parents=True, exist_ok=True)
    out: dict[str, str] = {}
    for name, fn in [*tile_pictures(), *board_pictures(args.save)]:
        try:
            out[name] = fn()
        except Exception as e:  # noqa: BLE001 - listed, so both runs agree on failures too
            out[name] = f"error {type(e).__name__}: {e}"[:160]
    if args.compare is None:
        json.dump(out, sys.stdout, indent=0, sort_keys=True)
        print()
        return
    before = json.loads(args.compare.read_text())
    diff = [n for n in sorted(set(before) | set(out)) if before.get(n) != out.get(n)]
    for n in diff:
        print(f"DIFFERENT {n}: {before.get(n)} -> {out.get(n)}")
    errors = [n for n, v in out.items() if v.startswith("error")]
    print(f"{len(out) - len(diff)} same, {len(diff)} different, {len(errors)} errors")
    sys.exit(1 if diff else 0)


if __name__ == "__main__":
    main()
