"""Digests of the decoded pixels of a fixed set of pictures, to check that a change meant to
make rendering faster (caches, PNG encoding) keeps every picture's pixels.

    python benchmarks/render_pixels.py > before.json    # on the old code
    python benchmarks/render_pixels.py --compare before.json   # on the new code

Pictures: the turn picture (legal cells numbered, the last move's scoring outlined) every few
turns of a 4-player base game and of a 4-player game with Inns & Cathedrals and Traders &
Builders, and every turn of a 2-player base game and of a 2-player game with Abbey & Mayor,
Bridges, Castles & Bazaars and Inns & Cathedrals; the whole map and the final board of each
(with the final events), spot pictures, placement previews and target pictures along the way,
the card game's table and hand, the tile sheet and each game's replay animation, without and
with the final events. Each picture is decoded (Pillow) and its mode, size and pixel bytes
hashed, every frame of an animation (as shown, with its duration); the file's size is listed.

    python benchmarks/render_pixels.py --tree /tmp/before > before.json   # another checkout
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

# ``--tree DIR`` draws with another checkout's renderer (e.g. before a change); by default this
# one's (benchmarks/benchtree.py).
from benchtree import use_tree  # noqa: E402

use_tree()

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
from engine.carcassonne.events import Event  # noqa: E402
from engine.core.decisions import Cell, TrackSpace  # noqa: E402
from engine.core.seats import Seat  # noqa: E402
from rendering import (  # noqa: E402
    render_animation,
    render_board,
    render_placement_preview,
    render_spots,
    render_targets,
    render_tile_sheet,
)

NAMES = ("Ana", "Борис", "Ελένη", "Zoë")


def digest(data: bytes) -> str:
    """Hash of the decoded pixels (mode, size, bytes) of a picture file; of an animation, of
    every frame as shown (RGBA) and its duration."""
    img = Image.open(io.BytesIO(data))
    img.load()
    h = hashlib.sha256(f"{img.mode} {img.size}".encode())
    frames = getattr(img, "n_frames", 1)
    if frames == 1:
        h.update(img.tobytes())
        return h.hexdigest()[:24]
    for i in range(frames):
        img.seek(i)
        h.update(f"{i} {img.info.get('duration')}".encode())
        h.update(img.convert("RGBA").tobytes())
    return h.hexdigest()[:24]


@dataclass(frozen=True)
class Step:
    """A view of a random game, the events of the move that led to it, the legal cells when a
    tile is to be placed and the spots offered when a figure may be deployed."""

    view: PublicView
    events: tuple[Event, ...]
    legal: dict[Position, tuple[Rotation, ...]]
    spots: tuple[str, ...]
    figures: tuple[str, ...]


def game(expansions: tuple[str, ...], seed: int, players: int = 4) -> list[Step]:
    """Every step of a random game (seeded, so both runs draw the same pictures)."""
    from engine.carcassonne.randomplay import choose_move
    from engine.core.rng import Rng

    state = new_game(
        GameSetup(players=players, names=NAMES[:players], expansions=expansions), seed=seed
    )
    rnd = random.Random(seed)
    rng = Rng(seed)
    out: list[Step] = []
    events: tuple[Event, ...] = ()
    while True:
        legal: dict[Position, tuple[Rotation, ...]] = {}
        ds = []
        if state.step == "place":
            legal = {p: tuple(r) for p, r in legal_placements(state).items()}
        elif state.step == "deploy":
            ds = legal_deploys(state)
        out.append(
            Step(
                public_view(state),
                events,
                legal,
                tuple(d.spot for d in ds),
                tuple(d.figure for d in ds),
            )
        )
        if state.step == "over":
            return out
        if legal:
            pos = sorted(legal)[rnd.randrange(len(legal))]
            tr = apply(
                state, state.current, PlaceTile(pos, legal[pos][rnd.randrange(len(legal[pos]))])
            )
        elif state.step == "deploy":
            act = ds[rnd.randrange(len(ds))] if ds and rnd.random() < 0.6 else Pass()
            tr = apply(state, state.current, act)
        else:  # any other decision of an expansion: a random answer
            seat, other = choose_move(state, rng)
            tr = apply(state, seat, other)
        state = tr.state
        events = tr.events


def pictures() -> dict[str, Callable[[], bytes]]:
    """Name -> a function drawing that picture."""
    pics: dict[str, Callable[[], bytes]] = {}
    for name, exps, seed, players, every in (
        ("base", (), 7, 4, 7),
        ("both", ("inns_cathedrals", "traders_builders"), 11, 4, 7),
        # issue 33: every turn picture of 2-player games, base and an expansion mix
        ("two", (), 3, 2, 1),
        ("mix", ("abbey_mayor", "bridges_castles_bazaars", "inns_cathedrals"), 5, 2, 1),
    ):
        steps = game(exps, seed, players)
        frames: list[PublicView] = []
        for i, s in enumerate(steps):
            v = s.view
            if v.over:
                pics[f"{name}/final"] = partial(render_board, v, events=s.events)
                pics[f"{name}/final-es"] = partial(render_board, v, events=s.events, lang="es")
                frames.append(v)
            elif s.legal:
                frames.append(v)
                if len(frames) % every == min(1, every - 1):
                    pics[f"{name}/turn{i}"] = partial(
                        render_board, v, placements=s.legal, events=s.events
                    )
                if len(frames) % 15 == 2:
                    pics[f"{name}/whole{i}"] = partial(render_board, v, whole=True, lang="es")
                    pos = sorted(s.legal)[0]
                    pics[f"{name}/preview{i}"] = partial(
                        render_placement_preview, v, pos, s.legal[pos]
                    )
                if len(frames) % 17 == 3 and v.tiles:
                    p = v.tiles[-1].pos
                    pics[f"{name}/cell{i}"] = partial(
                        render_targets,
                        v,
                        [Cell(p.x, p.y), TrackSpace(3)],
                        ["1", "2"],
                        title="Choose",
                    )
            elif s.spots and len(frames) % 5 == 0:
                pics[f"{name}/spots{i}"] = partial(render_spots, v, s.spots, s.figures)
        pics[f"{name}/gif"] = partial(render_animation, frames, fmt="gif")
        last = steps[-1]
        pics[f"{name}/gif-final"] = partial(render_animation, frames, events=last.events)
    pics["sheet"] = render_tile_sheet
    pics.update(_card_pictures())
    return pics


def _card_pictures() -> dict[str, Callable[[], bytes]]:
    from engine.cardgame import CardSetup, legal_actions, seat_view
    from engine.cardgame import apply as capply
    from engine.cardgame import new_game as cnew
    from engine.cardgame import public_view as cpublic
    from rendering.cardgame import render_hand, render_table

    st = cnew(CardSetup(players=3, names=NAMES[:3]), seed=5)
    rnd = random.Random(5)
    for _ in range(40):
        if not st.awaiting:
            break
        seat = min(st.awaiting)
        st = capply(st, seat, rnd.choice(legal_actions(st, seat))).state
    seat = min(st.awaiting) if st.awaiting else Seat(0)
    return {
        "card/table": partial(render_table, cpublic(st), "es"),
        "card/hand": partial(render_hand, seat_view(st, seat), "en"),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", type=Path, help="a JSON file this script wrote before")
    ap.add_argument("--tree", type=Path, help="draw with this checkout's renderer")
    args = ap.parse_args()
    out: dict[str, dict[str, object]] = {}
    for name, fn in pictures().items():
        try:
            data = fn()
        except Exception as e:  # noqa: BLE001 - listed, so both runs agree on failures too
            out[name] = {"error": f"{type(e).__name__}: {e}"[:120]}
            continue
        out[name] = {"pixels": digest(data), "bytes": len(data)}
    if args.compare is None:
        json.dump(out, sys.stdout, indent=1, sort_keys=True)
        print()
        return
    before = json.loads(args.compare.read_text())
    same = diff = 0
    for name in sorted(set(before) | set(out)):
        a, b = before.get(name), out.get(name)
        if a is not None and "error" in a and a == b:
            print(f"the same error {name}: {a['error']}")
            continue
        if a is None or b is None or a.get("pixels") != b.get("pixels") or "error" in a:
            diff += 1
            print(f"DIFFERENT {name}: {a} -> {b}")
            continue
        same += 1
        ratio = int(b["bytes"]) / int(a["bytes"])  # type: ignore[call-overload]
        print(f"same pixels {name}: {a['bytes']} -> {b['bytes']} bytes ({ratio - 1:+.1%})")
    total_a = sum(int(v.get("bytes", 0)) for v in before.values())
    total_b = sum(int(v.get("bytes", 0)) for v in out.values())  # type: ignore[call-overload]
    print(f"{same} pictures with the same pixels, {diff} different; bytes {total_a} -> {total_b}")
    sys.exit(1 if diff else 0)


if __name__ == "__main__":
    main()
