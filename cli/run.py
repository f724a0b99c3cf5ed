"""``carcabot`` / ``carcabot run``: start the Discord bot, or the local table without a token.

Loads ``.env`` (python-dotenv; real environment variables win), reads :class:`Settings`, and
runs ``bot.app.run_bot(settings)`` when ``DISCORD_TOKEN`` is set. Otherwise it says so in one
line and starts the local table: one human against one random seat, or a whole random match
(``--humans 0``) when stdin is not a terminal, so that it never waits for input in CI.
The token is never printed or logged (``Settings`` keeps it out of its ``repr``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from dotenv import load_dotenv

from app.settings import Settings, SettingsError
from console.table import LocalOptions, play_local
from engine.core.errors import one_line

log = logging.getLogger("carcabot")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--env-file", type=Path, default=Path(".env"), help="settings file to load")
    p.add_argument("--out", type=Path, default=Path("out"), help="local table: board images")
    p.add_argument(
        "--shards",
        metavar="IDS",
        help="run these of Discord's shards only (0-3, or 0,2,4; overrides SHARD_IDS)",
    )
    p.add_argument(
        "--shard-count", type=int, metavar="N", help="how many shards in all (SHARD_COUNT)"
    )


def run(args: argparse.Namespace) -> int:
    env_file: Path = getattr(args, "env_file", Path(".env"))
    if env_file.is_file():
        load_dotenv(env_file, override=False)
    if getattr(args, "shards", None) is not None:
        os.environ["SHARD_IDS"] = args.shards
    if getattr(args, "shard_count", None) is not None:
        os.environ["SHARD_COUNT"] = str(args.shard_count)
    try:
        settings = Settings.from_env()
    except SettingsError as e:
        print(f"carcabot: {e}", file=sys.stderr)
        return 2
    if settings.has_token:
        return _run_bot(settings)  # the bot sets its own logging up (bot.logs), once
    logging.basicConfig(
        level=settings.log_level_number,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    print("DISCORD_TOKEN is not set: starting the local table instead (see .env.example).")
    interactive = sys.stdin.isatty()
    opts = LocalOptions(
        players=2,
        humans=1 if interactive else 0,
        opponents="normal",  # a newcomer plays normal AIs (or watches them when nobody types)
        out=getattr(args, "out", Path("out")),
        db=settings.local_database_path,
    )
    try:
        return asyncio.run(play_local(opts))
    except KeyboardInterrupt:
        print("\nStopped. The match is stored; continue it with 'carcabot local --resume'.")
        return 130


def _run_bot(settings: Settings) -> int:
    try:
        from bot import eventloop
        from bot.app import run_bot
    except ModuleNotFoundError as e:
        if e.name not in ("bot.app", "discord"):
            raise
        print(
            f"carcabot: the Discord layer is not available ({e.name} is missing)", file=sys.stderr
        )
        return 2
    from storage import DatabaseInUse, DatabaseUnavailable, MigrationError

    try:
        loop = eventloop.choose(settings.event_loop)
    except eventloop.EventLoopError as e:
        return _fail(str(e))
    log.info("event loop: %s", loop)
    try:
        eventloop.run(run_bot(settings), loop)
    except DatabaseInUse as e:  # another bot process writes to this database
        return _fail(str(e))
    except (DatabaseUnavailable, MigrationError) as e:  # DATABASE_URL's server, its schema
        return _fail(str(e))
    except KeyboardInterrupt:
        log.info("stopped")
    except Exception as e:
        said = discord_failure(e)
        if said is not None:
            return _fail(said)
        if isinstance(e, OSError):  # a file: the database or its folder
            where = f" {e.filename}" if e.filename else ""
            return _fail(f"cannot use{where}: {e.strerror or e}")
        raise
    return 0


def discord_failure(e: BaseException) -> str | None:
    """What went wrong talking to Discord, in one line for the person running the bot (no
    traceback, no token); ``None`` when ``e`` is not such a failure."""
    import aiohttp
    import discord

    if isinstance(e, discord.LoginFailure):
        return (
            "Discord refused the token: check DISCORD_TOKEN (the bot's token in the "
            "developer portal)"
        )
    if isinstance(e, TimeoutError | aiohttp.ClientError | discord.GatewayNotFound):
        return f"cannot reach Discord ({_reason(e)}): check the network connection and try again"
    if isinstance(e, discord.DiscordServerError):
        return f"Discord is not answering (HTTP {e.status}): try again later"
    if isinstance(e, discord.HTTPException):
        return f"Discord refused the request (HTTP {e.status}): {_reason(e)}"
    return None


def _fail(line: str) -> int:
    """One line on stderr instead of a traceback; the exit code is 1."""
    print(f"carcabot: {one_line(line)}", file=sys.stderr)
    return 1


def _reason(e: BaseException) -> str:
    """A network failure in a few words (the innermost cause, without its traceback)."""
    while e.__cause__ is not None and isinstance(e.__cause__, OSError | TimeoutError):
        e = e.__cause__
    text = str(e).strip() or type(e).__name__
    return one_line(text, 160)
