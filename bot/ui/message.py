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
from discord import app_commands

from engine.core.errors import one_line
from words.names import escape_markdown
from words.names import shown_name as shown_name  # re-exported for the presenters

COLOUR = discord.Colour.from_rgb(70, 120, 60)
ALLOWED = discord.AllowedMentions(everyone=False, roles=False, users=True)
QUIET = discord.AllowedMentions.none()
#: Discord's limit on a message's text (content)
MAX_CONTENT = 2000
#: the longest text a slash command's option takes (``max_length``; an autocomplete value is
#: at most 100 characters too)
MAX_OPTION = 100
#: a text option of a slash command: ``max_length`` set, so Discord refuses longer input
TextOption = app_commands.Range[str, 1, MAX_OPTION]
#: the most of a player's typed input a reply quotes
MAX_QUOTED = 60


def quoted(text: str, limit: int = MAX_QUOTED, *, code: bool = False) -> str:
    """What a player typed, fit to be quoted in a reply: one line of at most ``limit``
    characters, shown as typed: markdown escaped, or (``code``: the reply puts it between
    backticks, where Discord reads no markdown) with its backticks replaced."""
    line = one_line(text.replace("`", "'"), limit)
    return line if code else escape_markdown(line)


def fit(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` cut to Discord's limit of a message's content (a longer one is refused)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
