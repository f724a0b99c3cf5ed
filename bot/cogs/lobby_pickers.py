"""The lobby message's pickers of the tile game: expansions, rule values and AI seats.

A collaborator of the :class:`~bot.cogs.carcassonne.Carcassonne` cog: a lobby click with
action ``exps``, ``rule``, ``ruleset`` or ``ai`` comes here (:meth:`GameCog.on_click`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from app.base import ServiceError
from app.options import find_rule
from bot.cogs.base import channel_id
from bot.ui import lobby as lobby_ui
from bot.ui import presenters as ui
from bot.ui.components import Click
from words.i18n import t

if TYPE_CHECKING:
    from bot.cogs.carcassonne import Carcassonne

Interaction = discord.Interaction[Any]


def _uid(interaction: Interaction) -> int:
    return interaction.user.id


def _int(value: object) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


class LobbyPickers:
    """The lobby's selects (see the module docstring); ``cog`` posts and remembers."""

    def __init__(self, cog: Carcassonne) -> None:
        self.cog = cog

    async def exps(self, interaction: Interaction, click: Click) -> None:
        """The host changed the expansions select of the lobby message."""
        if await self.cog._open_lobby(interaction, click) is None:
            return
        info = await self.cog.service.set_expansions(
            channel_id(interaction), _uid(interaction), list(click.values)
        )
        await self.cog._lobby_changed(interaction, info)

    async def rule(self, interaction: Interaction, click: Click) -> None:
        """A rule chosen in the lobby's Rules select: the host's ephemeral picker of its
        choices (or the select's next page of rules)."""
        info = await self.cog._open_lobby(interaction, click)
        if info is None:
            return
        lang = self.cog._remember_lang(info.match_id, interaction)
        value = click.values[0] if click.values else ""
        if value.startswith(lobby_ui.MORE):
            view = lobby_ui.lobby_view(info, lang, page=_int(value[len(lobby_ui.MORE) :]) or 0)
            await interaction.response.edit_message(view=view)
            return
        if info.host_id != _uid(interaction):
            raise ServiceError("not_host", "Only the host may do that.", host_id=info.host_id)
        rule = find_rule(value)
        if rule is None or rule.expansion not in info.options.expansions:
            raise ServiceError("no_rule", "No such rule in this lobby.")
        text, view = lobby_ui.rule_picker(info.match_id, rule, info.options.rule(rule.key), lang)
        await interaction.response.send_message(text, view=view, ephemeral=True)

    async def ruleset(self, interaction: Interaction, click: Click) -> None:
        """A value chosen in the rule picker: store it, update the lobby message."""
        info = await self.cog._open_lobby(interaction, click)
        if info is None:
            return
        *key_parts, index = click.args or ["", ""]
        rule = find_rule(":".join(key_parts))
        i = _int(index)
        if rule is None or i is None or not 0 <= i < len(rule.choices):
            raise ServiceError("no_rule", "No such rule in this lobby.")
        await interaction.response.defer()
        info = await self.cog.service.set_rule(
            channel_id(interaction), _uid(interaction), rule.key, rule.choices[i]
        )
        lang = self.cog._remember_lang(info.match_id, interaction)
        done = t(
            lang,
            "rule_set",
            name=lobby_ui.rule_name(rule, lang),
            value=lobby_ui.value_text(rule, rule.choices[i], lang),
        )
        await interaction.edit_original_response(content=done, view=None)
        if info.message_id is not None:
            channel = self.cog.bot.get_partial_messageable(
                info.channel_id, guild_id=info.guild_id or None
            )
            msg = channel.get_partial_message(info.message_id)
            await msg.edit(**ui.lobby_message(info, lang).kwargs(edit=True))

    async def ai(self, interaction: Interaction, click: Click) -> None:
        """The host picked in the lobby's AI select: add an AI seat at a level, or take the
        last one out."""
        if await self.cog._open_lobby(interaction, click) is None:
            return
        value = click.values[0] if click.values else ""
        cid, uid = channel_id(interaction), _uid(interaction)
        if value == lobby_ui.AI_REMOVE:
            info = await self.cog.service.remove_ai(cid, uid)
        else:
            info = await self.cog.service.add_ai(cid, uid, value)
        await self.cog._lobby_changed(interaction, info)
