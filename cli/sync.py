"""``carcabot sync [--guild ID]``: register the slash commands with Discord.

Logs in over HTTP only (no gateway), so the bot's setup hook loads the commands and the
Spanish translations; then syncs globally or to one guild (instant, for development) and
closes. Run it when the commands change, not on every start (ECOSYSTEM.md R-01).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from app.settings import Settings, SettingsError
from engine.core.errors import one_line

PROG = "carcabot sync"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--guild",
        type=int,
        metavar="ID",
        help="sync to this server only (default: DEV_GUILD_ID if --dev, else global)",
    )
    parser.add_argument(
        "--dev", action="store_true", help="sync to the DEV_GUILD_ID server from the settings"
    )


async def sync(settings: Settings, guild_id: int | None) -> int:
    """Log in, sync, close; returns how many commands Discord now has there."""
    from bot.app import CarcBot

    assert settings.discord_token
    bot = CarcBot(None, background_tasks=False)
    async with bot:
        await bot.login(settings.discord_token)
        commands = await bot.sync_commands(guild_id)
    return len(commands)


def run(args: argparse.Namespace) -> int:
    try:
        from dotenv import load_dotenv

        load_dotenv()
        settings = Settings.from_env()
    except SettingsError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    if not settings.discord_token:
        print(f"{PROG}: DISCORD_TOKEN is not set (see .env.example)", file=sys.stderr)
        return 2
    guild_id = args.guild
    if guild_id is None and args.dev:
        guild_id = settings.dev_guild_id
        if guild_id is None:
            print(f"{PROG}: --dev needs DEV_GUILD_ID", file=sys.stderr)
            return 2
    try:
        n = asyncio.run(sync(settings, guild_id))
    except Exception as e:  # no network, a refused token: one line, as the bot says it
        from cli.run import discord_failure

        said = discord_failure(e) or f"{type(e).__name__}: {e}"
        print(f"{PROG}: {one_line(said)}", file=sys.stderr)
        return 1
    where = f"server {guild_id}" if guild_id else "all servers (global)"
    print(f"synced {n} command(s) to {where}")
    return 0
