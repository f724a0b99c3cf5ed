"""One message to send or edit, as plain data: what every presenter returns.

Presenters never talk to Discord; a cog calls ``message.kwargs()`` (or ``kwargs(edit=True)``)
and hands the result to ``send``/``edit``.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import discord

COLOUR = discord.Colour.from_rgb(70, 120, 60)
ALLOWED = discord.AllowedMentions(everyone=False, roles=False, users=True)
QUIET = discord.AllowedMentions.none()


def pinging(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Mentions that may ping exactly these users: a player's name written as ``<@id>`` (or
    ``@everyone``) pings nobody, since names are shown, never interpreted."""
    ids = sorted({u for u in user_ids if u > 0})
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=u) for u in ids]
    )


@dataclass
class Message:
    """Arguments of one send/edit: call ``kwargs()`` for each attempt (files are single-use)."""

    content: str | None = None
    embed: discord.Embed | None = None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions = QUIET

    def discord_files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.files]

    def kwargs(self, *, edit: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"allowed_mentions": self.mentions}
        if edit:
            out["content"] = self.content
            out["embed"] = self.embed
            out["attachments"] = self.discord_files()
            out["view"] = self.view
            return out
        if self.content is not None:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if self.files:
            out["files"] = self.discord_files()
        if self.view is not None:
            out["view"] = self.view
        return out
