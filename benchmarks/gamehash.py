"""One hash per expansion mix over seeded random games: scores and every event, to show that a
change to the engine plays the very same games (run it before and after, compare the lines).

    python benchmarks/gamehash.py                 # 8 games per mix, 2-4 players
    python benchmarks/gamehash.py --games 16

Each mix's games have seeds 0..N-1 and 2, 3, 4, 2, ... players; the hash covers every move's
notation, every event's ``repr`` and the final scores, so any change to what is played, scored
or reported changes it.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])  # the checkout, not benchmarks/engine.py

from engine import GameSetup  # noqa: E402
from engine.carcassonne.expansions import BUILTIN  # noqa: E402
from engine.carcassonne.randomplay import play_random_game  # noqa: E402
from engine.carcassonne.record import replay  # noqa: E402

MIXES: tuple[tuple[str, ...], ...] = (
    (),
    *((e.id,) for e in BUILTIN),
    ("inns_cathedrals", "traders_builders"),
    tuple(e.id for e in BUILTIN),
)


def game_hash(expansions: tuple[str, ...], games: int) -> str:
    h = hashlib.sha256()
    for seed in range(games):
        setup = GameSetup(players=2 + seed % 3, expansions=expansions)
        game = play_random_game(setup, seed)
        result = replay(game.record)
        for a in game.record.actions:
            h.update(f"{a.seat}:{a.notation}\n".encode())
        for e in result.events:
            h.update(repr(e).encode())
        h.update(repr(game.scores).encode())
    return h.hexdigest()[:16]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=8)
    args = p.parse_args()
    for mix in MIXES:
        print(f"{'+'.join(mix) or 'base'}: {game_hash(mix, args.games)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
