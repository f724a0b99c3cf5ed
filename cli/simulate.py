"""``carcabot simulate``: play seeded random legal games and print what happened.

Game ``i`` (from 0) uses seed ``S + i`` for both the shuffle and the random choices, so any
line can be reproduced alone with ``--seed`` and ``--games 1``. ``--record DIR`` writes each
game's record (the tile or the card game's) as ``DIR/game-<seed>.json``, which ``carcabot
replay`` reads back.
``--plugin MODULE`` loads an extra expansion first (``--plugin tests.expansions.<name>
--expansions <id>``). The random player answers every open decision, whatever its kind
(:func:`engine.carcassonne.randomplay.choose_answer`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from cli.args import (
    ArgsError,
    add_expansions_argument,
    add_rule_edition_arguments,
    expansion_ids,
)
from cli.plugins import PluginError, add_plugin_argument, load_plugins
from engine.carcassonne.randomplay import play_random_game
from engine.carcassonne.record import dumps
from engine.carcassonne.state import GameSetup
from engine.core.errors import EngineError

PROG = "carcabot simulate"


class SimulateFailed(Exception):
    """One line for stderr; the command exits 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=10, metavar="N", help="games to play")
    parser.add_argument("--players", type=int, default=2, metavar="P", help="players per game")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the first game")
    parser.add_argument(
        "--record", metavar="DIR", help="write each game's record as DIR/game-<seed>.json"
    )
    parser.add_argument(
        "--game", choices=("tiles", "cards"), default="tiles", help="the tile or the card game"
    )
    add_expansions_argument(parser, "tile game expansions")
    add_rule_edition_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_plugin_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        load_plugins(getattr(args, "plugins", ()))
        if args.games < 1:
            raise SimulateFailed("--games must be at least 1")
        if args.game == "cards":
            return _report(args, _card_games(args))
        return _report(args, _tile_games(args))
    except (SimulateFailed, PluginError, EngineError, ArgsError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2


def _tile_games(args: argparse.Namespace) -> list[dict[str, Any]]:
    setup = GameSetup(
        players=args.players,
        expansions=expansion_ids(args.expansions),
        tiny_city=args.tiny_city,
        farm_scoring=args.farm_scoring,
    )
    setup.validate()
    out_dir = _record_dir(args)
    rows = []
    for i in range(args.games):
        seed = args.seed + i
        t0 = time.perf_counter()
        game = play_random_game(setup, seed)
        ms = (time.perf_counter() - t0) * 1000
        row: dict[str, Any] = {
            "seed": seed,
            "scores": list(game.scores),
            "placed": game.tiles_placed,
            "discarded": game.tiles_discarded,
            "moves": len(game.record.actions),
            "ms": round(ms, 2),
        }
        if out_dir is not None:
            row["record"] = str(_write_record(out_dir, seed, dumps(game.record)))
        rows.append(row)
    return rows


def _card_games(args: argparse.Namespace) -> list[dict[str, Any]]:
    try:
        from engine.cardgame.sim import play_random  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise SimulateFailed(
            "the card game simulator is not available yet (engine.cardgame.sim.play_random)"
        ) from None
    from engine.cardgame.record import CardRecord
    from engine.cardgame.record import dumps as dumps_cards

    out_dir = _record_dir(args)
    rows = []
    for i in range(args.games):
        seed = args.seed + i
        t0 = time.perf_counter()
        result = play_random(args.players, seed)
        ms = (time.perf_counter() - t0) * 1000
        row: dict[str, Any] = {
            "seed": seed,
            "scores": list(result.scores),
            "rounds": result.rounds,
            "ms": round(ms, 2),
        }
        if out_dir is not None:
            record = CardRecord(result.setup, seed, result.actions, tuple(result.scores))
            row["record"] = str(_write_record(out_dir, seed, dumps_cards(record)))
        rows.append(row)
    return rows


def _record_dir(args: argparse.Namespace) -> Path | None:
    """The folder ``--record`` names (created), or ``None``."""
    out_dir = Path(args.record) if args.record else None
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SimulateFailed(f"cannot create {out_dir}: {e.strerror or e}") from None
    return out_dir


def _write_record(out_dir: Path, seed: int, text: str) -> Path:
    path = out_dir / f"game-{seed}.json"
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as e:
        raise SimulateFailed(f"cannot write {path}: {e.strerror or e}") from None
    return path


def _line(game: str, row: dict[str, Any]) -> str:
    scores = " ".join(f"{s:>3}" for s in row["scores"])
    if game == "cards":
        detail = f"rounds {row['rounds']:>3}"
    else:
        detail = f"placed {row['placed']:>3}  discarded {row['discarded']}"
    return f"seed {row['seed']:>6}  scores {scores}  {detail}  {row['ms']:>7.2f} ms"


def _report(args: argparse.Namespace, rows: list[dict[str, Any]]) -> int:
    total_ms = sum(r["ms"] for r in rows)
    per_s = len(rows) / (total_ms / 1000) if total_ms > 0 else float("inf")
    all_scores = [s for r in rows for s in r["scores"]]
    mean = sum(all_scores) / len(all_scores) if all_scores else 0.0
    if args.json:
        out = {
            "game": args.game,
            "players": args.players,
            "games": rows,
            "total_ms": round(total_ms, 2),
            "games_per_s": round(per_s, 1),
            "mean_score": round(mean, 2),
        }
        print(json.dumps(out))
        return 0
    for r in rows:
        print(_line(args.game, r))
    print(
        f"{len(rows)} {args.game} games, {args.players} players: {total_ms / 1000:.2f} s, "
        f"{per_s:.1f} games/s, mean score {mean:.1f}"
    )
    if args.record:
        print(f"records written to {args.record}")
    return 0
