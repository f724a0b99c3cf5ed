"""The commands about who plays a seat: ``away`` (an AI stands in), ``back`` (the player plays
again) and ``vote_out`` (the others hand a silent seat to an AI). A collaborator of the
:class:`~bot.cogs.carcassonne.Carcassonne` cog, which declares the commands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from app.base import GameService
from bot.cogs.base import channel_id
from words.i18n import lang_of, t

if TYPE_CHECKING:
    from bot.cogs.carcassonne import Carcassonne

Interaction = discord.Interaction[Any]


class SeatCommands:
    """The bodies of the seat commands (see the module docstring)."""

    def __init__(self, cog: Carcassonne) -> None:
        self.cog = cog

    async def stand_in(self, interaction: Interaction, *, away: bool) -> None:
        """Hand the caller's seat to an AI (or take it back); the AI plays at once."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        cid, uid, service = channel_id(interaction), interaction.user.id, self.cog.service
        if away:
            outcome = await service.hand_over(cid, uid)
        else:
            outcome = await service.take_back(cid, uid)
        lang = lang_of(interaction.locale)
        await interaction.followup.send(t(lang, "away_done" if away else "back_done"))
        self.cog.drive(outcome, self.cog._remember_lang(outcome.match_id, interaction))

    async def vote_out(self, interaction: Interaction, target_id: int) -> None:
        """Count the caller's vote; once a majority voted, the AI plays the silent seat."""

        def drive(outcome: Any) -> None:
            self.cog.drive(outcome, self.cog._remember_lang(outcome.match_id, interaction))

        await vote_out(interaction, self.cog.service, target_id, drive)


async def vote_out(
    interaction: Interaction, service: GameService[Any, Any], target_id: int, drive: Any
) -> None:
    """``vote_out`` of either game: count the vote and say so (to the voter alone until the
    seat is handed over, then to the channel), then let ``drive`` start the AI's moves."""
    lang = lang_of(interaction.locale)
    vote = await service.vote_out(channel_id(interaction), interaction.user.id, target_id)
    text = t(lang, "vote_counted", votes=vote.votes, needed=vote.needed)
    await interaction.response.send_message(text, ephemeral=vote.outcome is None)
    if vote.outcome is not None:
        drive(vote.outcome)
