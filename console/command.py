"""``carcabot local``: its arguments, checked before any saved match is touched, and the run
that hands them to the console table (:func:`console.table.play_local`)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from app.options import expansion_ids, rules_for
from app.seats import LEVELS
from app.settings import DEFAULT_LOCAL_DATABASE
from cli.args import ArgsError, add_expansions_argument, add_rule_edition_arguments
from cli.args import expansion_ids as parse_expansions
from cli.plugins import PluginError, add_plugin_argument, load_plugins
from console.i18n import tl
from console.table import LocalOptions, play_local
from engine.core import messages


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats at the table (2-6; default 2, or as many as the humans)",
    )
    p.add_argument(
        "--humans",
        type=int,
        default=None,
        help="how many seats type their moves (the rest play randomly; default: one per "
        "name given, at least 1)",
    )
    p.add_argument(
        "--seed", type=int, default=None, help="fixes the tile order and the random seats"
    )
    p.add_argument("--out", type=Path, default=Path("out"), help="folder for board images")
    p.add_argument(
        "--db", type=Path, default=DEFAULT_LOCAL_DATABASE, help="SQLite file for the match"
    )
    p.add_argument("--resume", action="store_true", help="continue the unfinished local match")
    p.add_argument(
        "--names", nargs="*", default=[], help="names of the human players, in seat order"
    )
    add_rule_edition_arguments(p)
    add_expansions_argument(p, "expansions to play with")
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="rules",
        help="a rule of a chosen expansion (repeatable; on/off for yes-or-no rules); "
        f"rules: {', '.join(r.key for r in rules_for(expansion_ids()))}",
    )
    p.add_argument(
        "--lang",
        choices=messages.LANGS,
        default=None,
        help="the table's language (es: Spanish, de: German; default en, or the resumed match's own)",
    )
    p.add_argument(
        "--opponents",
        choices=tuple(LEVELS),
        default="normal",
        help="who plays the seats nobody types for: an AI (easy, normal, strong) or random "
        "moves (default: a normal AI)",
    )
    p.add_argument(
        "--game",
        choices=("tiles", "cards"),
        default="tiles",
        help="tiles: Carcassonne; cards: Carcassonne – the card game (2-5 players)",
    )
    add_plugin_argument(p)


def run(args: argparse.Namespace) -> int:
    try:
        load_plugins(getattr(args, "plugins", ()))
        expansions = parse_expansions(args.expansions)
    except (PluginError, ArgsError) as e:
        print(f"carcabot local: {e}", file=sys.stderr)
        return 2
    names = tuple(args.names)
    humans = args.humans if args.humans is not None else max(1, len(names))
    players = args.players if args.players is not None else max(2, humans)
    lang = getattr(args, "lang", None)
    opts = LocalOptions(
        players=players,
        humans=humans,
        seed=args.seed,
        out=args.out,
        db=args.db,
        resume=args.resume,
        names=names,
        farm_scoring=args.farm_scoring,
        tiny_city=args.tiny_city,
        expansions=expansions,
        rules=tuple(args.rules),
        plugins=tuple(getattr(args, "plugins", ())),
        lang=lang or "en",
        lang_chosen=lang is not None,
        opponents=getattr(args, "opponents", "random"),
        game=getattr(args, "game", "tiles"),
    )
    try:
        return asyncio.run(play_local(opts))
    except KeyboardInterrupt:
        print("\n" + tl(opts.lang, "stopped", hint=opts.resume_hint()))
        return 130
