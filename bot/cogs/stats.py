"""The bodies of ``/carcassonne leaderboard``, ``stats`` and ``history`` and of their page
buttons: a collaborator of the tile-game cog, which only declares the commands.

Every answer is ephemeral and in the caller's language; ratings and results are read through
the service's ``ratings`` and ``stats`` (:mod:`app.ratings`, :mod:`app.stats`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from app.matches import MatchService
from bot.cogs.base import channel_id
from bot.ui import stats as ui
from bot.ui.components import Click
from bot.ui.message import Message
from engine.cardgame.record import dumps as card_record
from storage import GameResult
from words.i18n import lang_of, t

Interaction = discord.Interaction[Any]

#: leaderboard lines and history games per page
BOARD_PAGE, HISTORY_PAGE = 10, 5


def _guild(interaction: Interaction) -> int:
    return interaction.guild_id or 0


class StatsCommands:
    """Leaderboard, stats and history (see the module docstring)."""

    def __init__(self, bot: commands.Bot, service: MatchService) -> None:
        self.bot = bot
        self.service = service

    # ------------------------------------------------------------------ leaderboard
    async def leaderboard(self, interaction: Interaction) -> None:
        await interaction.response.send_message(
            **(await self._board(interaction, 0)).kwargs(), ephemeral=True
        )

    async def lboard(self, interaction: Interaction, click: Click) -> None:
        """A page button of the leaderboard: the message shows that page."""
        msg = await self._board(interaction, click.version)
        await interaction.response.edit_message(**msg.kwargs(edit=True))

    async def _board(self, interaction: Interaction, page: int) -> Message:
        ratings = self.service.ratings
        guild = _guild(interaction)
        standings = await ratings.leaderboard(guild, page=page, size=BOARD_PAGE)
        pages = ui.pages_of(await ratings.players(guild), BOARD_PAGE)
        return ui.leaderboard_message(standings, page, pages, lang_of(interaction.locale))

    # ------------------------------------------------------------------ stats
    async def stats(self, interaction: Interaction, player: discord.abc.User | None) -> None:
        who = player or interaction.user
        found = await self.service.stats.player(_guild(interaction), who.id)
        msg = ui.stats_message(found, who.display_name, lang_of(interaction.locale))
        await interaction.response.send_message(**msg.kwargs(), ephemeral=True)

    # ------------------------------------------------------------------ history
    async def history(self, interaction: Interaction, server: bool, game: int | None) -> None:
        lang = lang_of(interaction.locale)
        if game is not None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await self.service.stats.result(_guild(interaction), game)
            if found is None:
                await interaction.followup.send(t(lang, "hi_no_game", id=game), ephemeral=True)
                return
            animation = None
            if found.game == self.service.game:  # the tile game's replay (none for cards)
                animation = await self.service.animation(found.match_id)
            msg = ui.record_message(found, await self._record(found), lang, animation)
            await interaction.followup.send(**msg.kwargs(), ephemeral=True)
            return
        msg = await self._history(interaction, ui.SERVER if server else ui.CHANNEL, 0)
        await interaction.response.send_message(**msg.kwargs(), ephemeral=True)

    async def hist(self, interaction: Interaction, click: Click) -> None:
        """A page button of the history: the message shows that page."""
        msg = await self._history(interaction, click.arg, click.version)
        await interaction.response.edit_message(**msg.kwargs(edit=True))

    async def _history(self, interaction: Interaction, scope: str, page: int) -> Message:
        channel = None if scope == ui.SERVER else channel_id(interaction)
        found = await self.service.stats.history(
            _guild(interaction), channel, page=page, size=HISTORY_PAGE
        )
        return ui.history_message(found, scope, lang_of(interaction.locale))

    async def _record(self, game: GameResult) -> str | None:
        """The game's record file (what ``carcabot replay`` reads), or None."""
        if game.game == "cardgame":
            cards = getattr(self.bot, "card_service", None)
            return None if cards is None else card_record(await cards.record(game.match_id))
        return (await self.service.match(game.match_id)).record_json
