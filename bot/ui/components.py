"""Persistent components: every button and select carries its match, state version and action.

custom_id layout (≤ 100 chars, Discord's limit)::

    carc:<match>:<version>:<action>[:<arg>]      buttons
    carcs:<match>:<version>:<action>[:<arg>]     selects

Because everything needed is in the custom_id, one ``bot.add_dynamic_items`` registration makes
the buttons of every message work, also after a restart. The version lets the handler answer
"this board is out of date" for a click on an old message, and lets the service apply a double
click once. The callbacks only hand the parsed click to a :class:`ComponentHandler` (the cog),
which does its own error reporting — discord.py would only log an exception raised here.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord import ui

log = logging.getLogger(__name__)

MAX_CUSTOM_ID = 100
_ARG = r"(?::(?P<arg>[\w.:+-]+))?"


@dataclass(frozen=True, slots=True)
class Click:
    """A parsed component interaction."""

    match_id: int
    version: int
    action: str
    arg: str
    values: tuple[str, ...] = ()

    @property
    def args(self) -> list[str]:
        return self.arg.split(":") if self.arg else []


class ComponentHandler(Protocol):
    async def on_click(self, interaction: discord.Interaction[Any], click: Click) -> None: ...


def custom_id(prefix: str, match_id: int, version: int, action: str, *args: object) -> str:
    cid = f"{prefix}:{match_id}:{version}:{action}"
    if args:
        cid += ":" + ":".join(str(a) for a in args)
    if len(cid) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long ({len(cid)}): {cid}")
    return cid


async def _dispatch(interaction: discord.Interaction[Any], click: Click) -> None:
    handler: ComponentHandler | None = getattr(interaction.client, "component_handler", None)
    if handler is None:  # pragma: no cover - bot misconfigured
        log.error("no component handler for %s", click)
        return
    await handler.on_click(interaction, click)


class CarcButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"carc:(?P<match>\d+):(?P<ver>\d+):(?P<action>[a-z]+)" + _ARG,
):
    """A game button; see the module docstring for its custom_id."""

    def __init__(
        self,
        match_id: int,
        version: int,
        action: str,
        *args: object,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        self.click = Click(match_id, version, action, ":".join(str(a) for a in args))
        super().__init__(
            ui.Button(
                label=label[:80],
                style=style,
                emoji=emoji,
                row=row,
                disabled=disabled,
                custom_id=custom_id("carc", match_id, version, action, *args),
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CarcButton:
        arg = match["arg"] or ""
        return cls(int(match["match"]), int(match["ver"]), match["action"], *([arg] if arg else []))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.click)


class CarcSelect(
    ui.DynamicItem[ui.Select[Any]],
    template=r"carcs:(?P<match>\d+):(?P<ver>\d+):(?P<action>[a-z]+)" + _ARG,
):
    """A game select menu (the cell picker); see the module docstring for its custom_id."""

    def __init__(
        self,
        match_id: int,
        version: int,
        action: str,
        *args: object,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        self.click = Click(match_id, version, action, ":".join(str(a) for a in args))
        super().__init__(
            ui.Select(
                custom_id=custom_id("carcs", match_id, version, action, *args),
                options=options or [discord.SelectOption(label="…", value="0")],
                placeholder=placeholder[:150] if placeholder else None,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CarcSelect:
        arg = match["arg"] or ""
        return cls(int(match["match"]), int(match["ver"]), match["action"], *([arg] if arg else []))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        values = tuple(str(v) for v in data.get("values", ()))
        c = self.click
        await _dispatch(interaction, Click(c.match_id, c.version, c.action, c.arg, values))


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (CarcButton, CarcSelect)
