"""Private delivery, the Discord side (ARCHITECTURE.md decision 5): DM first, remember closed
DMs, answer ephemerally instead.

Used by the card game for hands today, and meant for the tile game's private decisions: a
message for one player goes by direct message; when Discord answers 403 the player is noted in
the :class:`~app.private.DmRegistry` (stored at once), the channel is told
once — without the secret — and from then on the player reads the same content through an
ephemeral reply (a "My hand" or "Decide" button, or a slash command). A failing DM is never
retried.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.abc import Messageable

from app.private import DmRegistry
from bot.ui.message import Message

log = logging.getLogger(__name__)

#: mentions a "DMs closed" notice may ping: the player it names, nobody else
NOTICE_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)


async def send_private(
    client: discord.Client,
    registry: DmRegistry,
    user_id: int,
    message: Message,
    *,
    channel: Messageable,
    closed_notice: str,
) -> bool:
    """DM ``message`` to ``user_id`` unless their DMs are known to be closed.

    On a 403 the user is remembered as closed and ``closed_notice`` (which must not contain
    the secret) is posted in ``channel`` the first time. Returns whether the DM was sent; other
    failures are logged without any content.
    """
    if user_id <= 0 or await registry.is_closed(user_id):
        return False
    try:
        dm = await client.create_dm(discord.Object(id=user_id))
        await dm.send(**message.kwargs())
        return True
    except discord.Forbidden:
        if await registry.note_closed(user_id):
            await channel.send(closed_notice, allowed_mentions=NOTICE_MENTIONS)
    except discord.HTTPException as e:
        log.warning("a DM to a player failed (HTTP %s)", e.status)
    return False


async def reply_private(
    interaction: discord.Interaction[Any], message: Message, **extra: Any
) -> None:
    """The fallback: the same content as an ephemeral reply (``extra``: e.g. a picker view)."""
    kwargs = {**message.kwargs(), **extra}
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)
