"""One Discord in front of two bot processes, for the two-bot tests on one PostgreSQL database.

:class:`Router` is what a test drives instead of a single fake Discord: it owns two
:class:`~tests.bot.cardtable.CardDiscord` that share every message, DM channel and recorded
request (one Discord), each bound to its own bot and service (two processes, as on two shards).
An interaction in a guild channel reaches one of the two bots at random; every interaction in a
direct message reaches the bot on shard 0 (``zero``), as Discord delivers DMs on shard 0; a
modal's submission reaches the bot that opened the modal (Discord sends it on the shard the
opening interaction came from). It counts who served what, and which bot sent each DM, and
can send the last click again to the other bot (a double click that reaches two processes).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from tests.bot.cardtable import CardDiscord
from tests.fakediscord import DEFAULT_CHANNEL, Result, User, walk_components


@dataclass
class Router:
    """Two fake Discords behind one (see the module docstring)."""

    zero: CardDiscord
    one: CardDiscord
    rng: random.Random
    #: interactions each bot served, by name ("zero", "one")
    served: dict[str, int] = field(default_factory=lambda: {"zero": 0, "one": 0})
    #: DM interactions answered on shard 0 about a DM the other bot had sent
    cross_dms: int = 0
    dm_clicks: int = 0
    #: which bot sent each DM message (by message id)
    dm_sender: dict[int, str] = field(default_factory=dict)
    #: the bot each user's last click reached (their modal's submission goes there too)
    _opened: dict[int, str] = field(default_factory=dict)
    #: the last click: (bot, user, the message as it was clicked, its component, values)
    _last: tuple[str, User, dict[str, Any], dict[str, Any], list[str] | None] | None = None

    def __post_init__(self) -> None:
        one = self.one
        one.messages, one.attachments, one._ids = (
            self.zero.messages,
            self.zero.attachments,
            self.zero._ids,
        )
        one.dm_channel, one.dm_attempts = self.zero.dm_channel, self.zero.dm_attempts
        one.requests = self.zero.requests

    # ------------------------------------------------------------------ one Discord's state
    @property
    def messages(self) -> dict[int, dict[str, Any]]:
        return self.zero.messages

    @property
    def requests(self) -> list[Any]:
        return self.zero.requests

    def message(self, message_id: int) -> dict[str, Any]:
        return self.zero.message(message_id)

    def dms(self, user_id: int) -> list[dict[str, Any]]:
        return self.zero.dms(user_id)

    def fake(self, name: str) -> CardDiscord:
        return self.zero if name == "zero" else self.one

    def _is_dm(self, channel_id: int) -> bool:
        return self.zero.user_of_dm(channel_id) is not None

    async def _through(self, name: str, call: Any) -> Result:
        """Run one interaction on bot ``name``; note the DMs it sent."""
        self.served[name] += 1
        before = set(self.messages)
        res: Result = await call(self.fake(name))
        for mid in set(self.messages) - before:
            if self._is_dm(int(self.messages[mid]["channel_id"])):
                self.dm_sender[mid] = name
        return res

    # ------------------------------------------------------------------ interactions
    async def click(
        self, user: User, message_id: int, custom_id: str, *, values: list[str] | None = None
    ) -> Result:
        channel = int(self.messages[message_id]["channel_id"])
        if self._is_dm(channel):
            name = "zero"
            self.dm_clicks += 1
            if self.dm_sender.get(message_id) == "one":
                self.cross_dms += 1
        else:
            name = self.rng.choice(("zero", "one"))
        self._opened[user.id] = name
        comp = next(
            c for c in walk_components(self.messages[message_id]["components"])
            if c.get("custom_id") == custom_id
        )  # fmt: skip
        self._last = (name, user, copy.deepcopy(self.messages[message_id]), comp, values)
        return await self._through(
            name, lambda f: f.click(user, message_id, custom_id, values=values)
        )

    async def slash(
        self, user: User, sub: str, *, channel_id: int = DEFAULT_CHANNEL, **options: Any
    ) -> Result:
        name = "zero" if self._is_dm(channel_id) else self.rng.choice(("zero", "one"))
        return await self._through(
            name, lambda f: f.slash(user, sub, channel_id=channel_id, **options)
        )

    async def submit_modal(
        self,
        user: User,
        modal: dict[str, Any],
        values: dict[str, str],
        *,
        channel_id: int = DEFAULT_CHANNEL,
    ) -> Result:
        name = self._opened[user.id]
        return await self._through(
            name, lambda f: f.submit_modal(user, modal, values, channel_id=channel_id)
        )

    async def double_click(self) -> Result:
        """The last click again, as a player's second click that reaches the other bot (on
        the message as it was clicked, as the player's screen still showed it)."""
        assert self._last is not None
        name, user, msg, comp, values = self._last
        other = "one" if name == "zero" else "zero"
        fake = self.fake(other)
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if values is not None:
            data["values"] = values
        self.served[other] += 1
        res = await fake._dispatch(*fake._base(3, user, int(msg["channel_id"]), data, message=msg))
        return res
