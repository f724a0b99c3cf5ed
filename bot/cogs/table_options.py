"""The table options typed in ``/carcassonne new`` and ``/carcassonne defaults``: their
descriptions and choices (shared, so both commands offer the same words), the options they
change, and the expansions typed as text. The cog only declares the commands and answers."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from app.matches import MatchService, ServiceError
from app.options import MatchOptions
from bot.ui import lobby as lobby_ui
from bot.ui.message import quoted
from words.i18n import lang_of

#: what each table option means, as the command's parameter description
DESCRIBE: dict[str, str] = {
    "players": "Number of players (2-6)",
    "farm_scoring": "How farms score at the end",
    "tiny_city": "Points for a completed 2-tile city",
    "reminder_minutes": "Remind the player after this many minutes (0 = never)",
    "clock": "Turn clock: off, live (2 min a move) or async (24 h a move)",
}
FARM_SCORING = [
    app_commands.Choice(name="per farm (current rules)", value="per_farm"),
    app_commands.Choice(name="per city supplied (1st edition)", value="city_supply_1st_ed"),
]
TINY_CITY = [
    app_commands.Choice(name="2 points + 1 per shield", value=2),
    app_commands.Choice(name="4 points + 2 per shield", value=4),
]
#: the turn clock's modes (app/clocks.py)
CLOCK = [
    app_commands.Choice(name="off", value="off"),
    app_commands.Choice(name="live: 2 min a move", value="live"),
    app_commands.Choice(name="async: 24 h a move", value="async"),
]
#: how well the AI opponents of ``/carcassonne new opponents:`` play
AI_LEVEL = [app_commands.Choice(name=level, value=level) for level in lobby_ui.AI_LEVELS]


def given_options(**given: Any) -> dict[str, Any]:
    """The options a command was given (those left unset keep their value)."""
    return {k: v for k, v in given.items() if v is not None}


def with_given(options: MatchOptions, given: dict[str, Any]) -> MatchOptions:
    """``options`` changed by the options a command was given."""
    return replace(options, **given) if given else options


def typed_expansion_ids(text: str) -> list[str]:
    """The expansions typed in ``/carcassonne defaults`` (ids or names, separated by commas;
    ``none``: the base game).

    Raises:
        ServiceError: naming what is not an expansion (the service words it).
    """
    out: list[str] = []
    for part in text.split(","):
        word = part.strip()
        if not word or word.lower() in lobby_ui.NO_EXPANSION:
            continue
        found = lobby_ui.find_expansion_id(word)
        if found is None:
            raise ServiceError("no_such_expansion", f"No expansion '{word}'.", name=quoted(word))
        out.append(found)
    return out


def new_defaults(
    current: MatchOptions, given: dict[str, Any], expansions: str | None, *, reset: bool
) -> MatchOptions:
    """A server's new defaults: the built-in ones (``reset``) or ``current``, changed by the
    options given and the expansions typed (``None``: unchanged)."""
    options = with_given(MatchOptions() if reset else current, given)
    if expansions is not None:
        options = options.with_expansions(typed_expansion_ids(expansions))
    return options


async def defaults_command(
    service: MatchService,
    interaction: discord.Interaction[Any],
    changes: dict[str, Any],
    expansions: str | None,
    reset: bool,
) -> None:
    """``/carcassonne defaults``: show the server's defaults, or change them (server managers
    only)."""
    lang = lang_of(interaction.locale)
    guild = interaction.guild_id or 0
    if not changes and expansions is None and not reset:
        options = await service.guild_defaults(guild)
        embed = lobby_ui.defaults_embed(options, lang)
        await interaction.response.send_message(embed=embed, ephemeral=True)
        return
    perms = interaction.permissions
    if not (perms.manage_guild or perms.administrator):
        raise ServiceError("not_server_manager", "Only server managers may do that.")
    current = await service.guild_defaults(guild)
    options = new_defaults(current, changes, expansions, reset=reset)
    await service.set_guild_defaults(guild, options)
    embed = lobby_ui.defaults_embed(options, lang, saved=True)
    await interaction.response.send_message(embed=embed, ephemeral=True)
