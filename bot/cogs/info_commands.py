"""The commands that only show the match: ``board`` (the whole map), ``tiles`` (what is left
in the pile), ``score`` and ``rules``. A collaborator of the
:class:`~bot.cogs.carcassonne.Carcassonne` cog, which declares the commands."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord

from app.pictures import board_png
from bot.cogs.base import channel_id
from bot.ui import images
from bot.ui import presenters as ui
from words.i18n import lang_of

if TYPE_CHECKING:
    from bot.cogs.carcassonne import Carcassonne

Interaction = discord.Interaction[Any]


class InfoCommands:
    """The bodies of the information commands (see the module docstring)."""

    def __init__(self, cog: Carcassonne) -> None:
        self.cog = cog

    async def board(self, interaction: Interaction) -> None:
        """The whole map (the turn picture shows only the region in play) and the scores."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.cog.work_slot(interaction)
        service = self.cog.service
        outcome = await service.current(channel_id(interaction), render=False)
        lang = lang_of(interaction.locale)
        png = await board_png(service, outcome, lang.value, whole=True)
        png = png or await images.board_png(
            outcome.view, lang.value, whole=True, painter=service.painter
        )
        await interaction.followup.send(
            embed=ui.score_embed(outcome, lang),
            file=discord.File(io.BytesIO(png), filename="board.png"),
            ephemeral=True,
        )

    async def tiles(self, interaction: Interaction) -> None:
        outcome = await self.cog.service.current(channel_id(interaction), render=False)
        lang = lang_of(interaction.locale)
        embed = ui.tiles_embed(ui.remaining_tiles(outcome.view), lang)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def score(self, interaction: Interaction) -> None:
        outcome = await self.cog.service.current(channel_id(interaction), render=False)
        lang = lang_of(interaction.locale)
        await interaction.response.send_message(embed=ui.score_embed(outcome, lang), ephemeral=True)

    async def rules(self, interaction: Interaction) -> None:
        info = await self.cog.service.lobby(channel_id(interaction))
        lang = lang_of(interaction.locale)
        await interaction.response.send_message(
            embed=ui.rules_embed(info.options, lang), ephemeral=True
        )
