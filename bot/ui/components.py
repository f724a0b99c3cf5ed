"""Persistent components: every button and select carries its match, state version and action.

custom_id layout (≤ 100 chars, Discord's limit)::

    carc:<match>:<version>:<action>[:<arg>]      tile-game buttons
    carcs:<match>:<version>:<action>[:<arg>]     tile-game selects
    carcd:<match>:<key>:<fp>:<verb>:<path>       a decision's buttons
    carcds:<match>:<key>:<fp>:<verb>:<path>      a decision's selects
    carcm:<match>:<key>:<fp>:<path>              a decision's number modal
    cardd:... / cardds:...                       the card game's decisions (same layout)
    cardg:... / cardgs:...                       the card game's other buttons (bot/ui/cardgame.py)

A decision's components carry the decision's key (``app.choices.keyref``), a fingerprint of
its options, what the click does (``o`` open its picker, ``g`` go to the path, ``s`` submit the
path) and the answers so far (a path, see :mod:`app.choices`; ``@n`` is a page). They are
refused as out of date once the decision has closed, never because another seat moved.

Because everything needed is in the custom_id, one ``bot.add_dynamic_items`` registration makes
the buttons of every message work, also after a restart. The version lets the handler answer
"this board is out of date" for a click on an old message, and lets the service apply a double
click once. The callbacks only hand the parsed click to the game's :class:`ComponentHandler`
(its cog, found on the bot under ``handler``), which does its own error reporting —
discord.py would only log an exception raised here.

Both games' buttons and selects share :class:`ButtonBody` and :class:`SelectBody`; a game's
concrete classes only name their prefix (in the template) and their handler.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self

import discord
from discord import ui

log = logging.getLogger(__name__)

MAX_CUSTOM_ID = 100
ARG = r"(?::(?P<arg>[\w.:+-]+))?"


def template(prefix: str) -> str:
    """The custom_id pattern of a component kind (see the module docstring)."""
    return rf"{prefix}:(?P<match>\d+):(?P<ver>\d+):(?P<action>[a-z]+)" + ARG


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


async def dispatch(interaction: discord.Interaction[Any], click: Click, handler: str) -> None:
    """Hand ``click`` to the component handler the bot keeps under ``handler``."""
    target: ComponentHandler | None = getattr(interaction.client, handler, None)
    if target is None:  # pragma: no cover - bot misconfigured
        log.error("no %s for %s", handler, click.action)
        return
    await target.on_click(interaction, click)


def _parsed(match: re.Match[str]) -> tuple[int, int, str, list[str]]:
    arg = match["arg"] or ""
    return int(match["match"]), int(match["ver"]), match["action"], [arg] if arg else []


class ButtonBody:
    """What every game button does; a concrete class adds ``ui.DynamicItem`` and its template."""

    prefix: ClassVar[str]
    handler: ClassVar[str]
    click: Click

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
        super().__init__(  # type: ignore[call-arg]
            ui.Button(
                label=label[:80],
                style=style,
                emoji=emoji,
                row=row,
                disabled=disabled,
                custom_id=custom_id(self.prefix, match_id, version, action, *args),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        m, v, action, args = _parsed(match)
        return cls(m, v, action, *args)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, self.click, self.handler)


class SelectBody:
    """What every game select does; a concrete class adds ``ui.DynamicItem`` and its template."""

    prefix: ClassVar[str]
    handler: ClassVar[str]
    click: Click

    def __init__(
        self,
        match_id: int,
        version: int,
        action: str,
        *args: object,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        """``min_values``/``max_values`` make a multi-select (e.g. the lobby's expansions)."""
        self.click = Click(match_id, version, action, ":".join(str(a) for a in args))
        options = options or [discord.SelectOption(label="…", value="-")]
        super().__init__(  # type: ignore[call-arg]
            ui.Select(
                custom_id=custom_id(self.prefix, match_id, version, action, *args),
                options=options,
                placeholder=placeholder[:150] if placeholder else None,
                row=row,
                min_values=min(min_values, len(options)),
                max_values=max(1, min(max_values, len(options))),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        m, v, action, args = _parsed(match)
        return cls(m, v, action, *args)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        values = tuple(str(v) for v in data.get("values", ()))
        c = self.click
        await dispatch(
            interaction, Click(c.match_id, c.version, c.action, c.arg, values), self.handler
        )


class CarcButton(ButtonBody, ui.DynamicItem[ui.Button[Any]], template=template("carc")):
    """A tile-game button; see the module docstring for its custom_id."""

    prefix = "carc"
    handler = "component_handler"


class CarcSelect(SelectBody, ui.DynamicItem[ui.Select[Any]], template=template("carcs")):
    """A tile-game select menu (cell picker, lobby expansions and rules)."""

    prefix = "carcs"
    handler = "component_handler"


# ------------------------------------------------------------------------------- decisions
DECISION = r"(?P<match>\d+):(?P<key>[^:]+):(?P<fp>[0-9a-f]*)"
PATH = r"(?P<path>[0-9op=./-]*)(?:@(?P<page>\d+))?"


@dataclass(frozen=True, slots=True)
class DecisionClick:
    """A parsed click on a decision's component (see the module docstring)."""

    match_id: int
    key: str  # the decision's keyref
    fp: str
    verb: str
    path: str = ""
    page: int = 0
    values: tuple[str, ...] = ()

    def custom_id(self, prefix: str) -> str:
        page = f"@{self.page}" if self.page else ""
        cid = f"{prefix}:{self.match_id}:{self.key}:{self.fp}:{self.verb}:{self.path}{page}"
        if len(cid) > MAX_CUSTOM_ID:
            raise ValueError(f"custom_id too long ({len(cid)}): {cid}")
        return cid


class DecisionHandler(Protocol):
    async def on_decision(
        self, interaction: discord.Interaction[Any], click: DecisionClick
    ) -> None: ...

    async def on_number(
        self, interaction: discord.Interaction[Any], click: DecisionClick, text: str
    ) -> None: ...


def _decision_handler(
    interaction: discord.Interaction[Any], handler: str = "component_handler"
) -> DecisionHandler | None:
    target: DecisionHandler | None = getattr(interaction.client, handler, None)
    if target is None:  # pragma: no cover - bot misconfigured
        log.error("no component handler for a decision click")
    return target


def _decision_click(match: re.Match[str], verb: str | None = None) -> DecisionClick:
    return DecisionClick(
        int(match["match"]),
        match["key"],
        match["fp"],
        verb or match["verb"],
        match["path"] or "",
        int(match["page"] or 0),
    )


class DecisionButton(
    ui.DynamicItem[ui.Button[Any]],
    template=rf"carcd:{DECISION}:(?P<verb>[a-z]):{PATH}",
):
    """A button of a decision: opens its picker, answers, pages or goes back. A game's own
    subclass names its prefix (in the template too) and its handler on the bot."""

    prefix: ClassVar[str] = "carcd"
    handler: ClassVar[str] = "component_handler"

    def __init__(
        self,
        click: DecisionClick,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        self.click = click
        super().__init__(
            ui.Button(
                label=label[:80],
                style=style,
                emoji=emoji,
                row=row,
                disabled=disabled,
                custom_id=click.custom_id(self.prefix),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(_decision_click(match), label="…")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler = _decision_handler(interaction, self.handler)
        if handler is not None:
            await handler.on_decision(interaction, self.click)


class DecisionSelect(
    ui.DynamicItem[ui.Select[Any]],
    template=rf"carcds:{DECISION}:(?P<verb>[a-z]):{PATH}",
):
    """A select of a decision: each value is the next answer (a path token)."""

    prefix: ClassVar[str] = "carcds"
    handler: ClassVar[str] = "component_handler"

    def __init__(
        self,
        click: DecisionClick,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        self.click = click
        super().__init__(
            ui.Select(
                custom_id=click.custom_id(self.prefix),
                options=options or [discord.SelectOption(label="…", value="-")],
                placeholder=placeholder[:150] if placeholder else None,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(_decision_click(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        values = tuple(str(v) for v in data.get("values", ()))
        c = self.click
        handler = _decision_handler(interaction, self.handler)
        if handler is not None:
            await handler.on_decision(
                interaction, DecisionClick(c.match_id, c.key, c.fp, c.verb, c.path, c.page, values)
            )


#: Discord's longest modal title
MODAL_TITLE = 45
#: Discord's longest text display (all of a modal's text displays together)
MODAL_TEXT = 4000


class NumberModal(ui.Modal):
    """Asks a number for a decision's numeric option (a guess, a bid). The answer goes to
    the component handler with the path that chose the option.

    ``title`` must fit Discord's 45 characters (the caller picks a short one: a title is
    never cut mid-word); the whole question — what the number is for, the bid to beat — is
    ``text``, shown above the number."""

    def __init__(
        self,
        click: DecisionClick,
        *,
        title: str,
        label: str,
        placeholder: str,
        text: str = "",
        handler: str = "component_handler",
    ) -> None:
        self.handler = handler
        cid = f"carcm:{click.match_id}:{click.key}:{click.fp}:{click.path}"
        super().__init__(title=title[:MODAL_TITLE], custom_id=cid[:MAX_CUSTOM_ID], timeout=900)
        self.click = click
        if text:
            self.add_item(ui.TextDisplay(text[:MODAL_TEXT]))
        self.number: ui.TextInput[NumberModal] = ui.TextInput(
            label=label[:45], placeholder=placeholder[:100], custom_id="number", max_length=12
        )
        self.add_item(self.number)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        handler = _decision_handler(interaction, self.handler)
        if handler is not None:
            await handler.on_number(interaction, self.click, self.number.value)


class CardDecisionButton(DecisionButton, template=rf"cardd:{DECISION}:(?P<verb>[a-z]):{PATH}"):
    """A card-game decision's button (handled by the card-game cog)."""

    prefix = "cardd"
    handler = "card_handler"


class CardDecisionSelect(DecisionSelect, template=rf"cardds:{DECISION}:(?P<verb>[a-z]):{PATH}"):
    """A card-game decision's select (handled by the card-game cog)."""

    prefix = "cardds"
    handler = "card_handler"


@dataclass(frozen=True, slots=True)
class DecisionKit:
    """Which component classes a game's decisions are drawn with (so each game's clicks
    reach its own cog through the same presenter)."""

    button: type[DecisionButton]
    select: type[DecisionSelect]
    handler: str


TILE_KIT = DecisionKit(DecisionButton, DecisionSelect, "component_handler")
CARD_KIT = DecisionKit(CardDecisionButton, CardDecisionSelect, "card_handler")


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    CarcButton,
    CarcSelect,
    DecisionButton,
    DecisionSelect,
)
