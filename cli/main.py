"""The ``carcabot`` command: starts the bot (or the local table), and the offline tools.

``carcabot``                 the Discord bot when DISCORD_TOKEN is set, else the local table
``carcabot local``           play a match in the terminal
``carcabot replay FILE``     replay a game record or JCloisterZone save and print the scores
``carcabot simulate``        play random legal games
``carcabot render-tiles OUT.png``  contact sheet of every tile type
``carcabot sync``            register the slash commands with Discord
``carcabot migrate [DB]``    bring the database's schema up to date
``carcabot copy-db FROM TO`` copy a whole database (SQLite <-> PostgreSQL), checked

Each subcommand lives in its own module; this file only parses arguments and calls the subcommand.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

#: subcommand -> (module, function, help). Each module adds its own arguments via ``add_arguments``.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("cli.run", "Start the Discord bot (or the local table without DISCORD_TOKEN)."),
    "local": (
        "console.command",
        "Play a match in the terminal (hot-seat humans and AI or random seats).",
    ),
    "replay": ("cli.replay", "Replay a game record (.json) or JCloisterZone save (.jcz)."),
    "simulate": ("cli.simulate", "Play random legal games and print the results."),
    "render-tiles": ("cli.render", "Draw a contact sheet of every tile type."),
    "sync": ("cli.sync", "Register the slash commands with Discord."),
    "migrate": ("cli.database", "Bring the database's schema up to date (SQLite or PostgreSQL)."),
    "copy-db": ("cli.copydb", "Copy every match, setting and rating to a new database, checked."),
}


#: the exit code of a command whose output pipe was closed (128 + SIGPIPE, as the shell's)
SIGPIPE_EXIT = 141


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="carcabot", description="Carcassonne for Discord.")
    sub = parser.add_subparsers(dest="command")
    for name, (module, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise
            p.set_defaults(_missing=module)
            continue
        add: Callable[[argparse.ArgumentParser], None] | None = getattr(mod, "add_arguments", None)
        if add is not None:
            add(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["run", *(argv or [])])
    missing = getattr(args, "_missing", None)
    if missing:
        print(
            f"carcabot {args.command}: not available in this build ({missing} is missing)",
            file=sys.stderr,
        )
        return 2
    try:
        code: int = args._run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (``carcabot replay ... | head``): stop quietly, as Unix tools
        # do, and keep Python from complaining again when it flushes stdout at exit
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, sys.stdout.fileno())
        return SIGPIPE_EXIT
    return code


if __name__ == "__main__":
    raise SystemExit(main())
