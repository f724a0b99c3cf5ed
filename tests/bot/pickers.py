"""Answering any decision through the real Discord front end, as a player would.

:class:`Answerer` presses a decision's button (on the turn message, a DM or a "Decide" reply)
and then answers whatever the bot asks in the ephemeral picker — buttons, selects, pages,
Pass, a confirmation, a number modal — choosing at random among what is offered, until the
bot posts the next turn message in the match's channel. It reads only what Discord shows
(custom ids, labels, select options), never the engine.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord import (
    DEFAULT_CHANNEL,
    EPHEMERAL,
    MODAL,
    FakeDiscord,
    Request,
    Result,
    User,
    walk_components,
)

NAV = {"Back", "Previous", "Next"}


def components(msg: dict[str, Any] | Request) -> list[dict[str, Any]]:
    data = msg.data if isinstance(msg, Request) else msg
    return list(walk_components(data.get("components") or []))


def verb(c: dict[str, Any]) -> str:
    """The verb of a decision component (``o`` open, ``g`` go, ``s`` submit), else ""."""
    parts = c["custom_id"].split(":")
    return parts[4] if parts[0] in ("carcd", "carcds") else ""


def path_of(c: dict[str, Any]) -> str:
    return ":".join(c["custom_id"].split(":")[5:]).partition("@")[0]


def is_pass(c: dict[str, Any]) -> bool:
    return verb(c) == "g" and path_of(c).split("/")[-1] == "p"


def turn_posts(res: Result, channel: int = DEFAULT_CHANNEL) -> list[Request]:
    """Messages the bot posted in the match's channel with an embed (turn or final)."""
    return [
        r
        for r in res.channel_sends
        if r.path == f"/channels/{channel}/messages" and r.data.get("embeds")
    ]


@dataclass
class Answerer:
    """Answers pickers at random (see the module docstring) and remembers what it saw."""

    fake: FakeDiscord
    rng: random.Random
    pass_rate: float = 0.2
    page_rate: float = 0.3
    #: every picker message seen (its request), and the pictures it carried
    seen: list[Request] = field(default_factory=list)
    pictures: list[bytes] = field(default_factory=list)
    paged: int = 0
    passed: int = 0
    modals: int = 0
    numbers: list[int] = field(default_factory=list)

    async def play(
        self, user: User, message_id: int, custom_id: str, *, values: list[str] | None = None
    ) -> Result:
        """Press ``custom_id`` on a message, then answer until the next turn message."""
        res = await self.fake.click(user, message_id, custom_id, values=values)
        for _ in range(40):
            if turn_posts(res):
                return res
            cb = next((r for r in res.requests if r.callback_type == MODAL), None)
            if cb is not None:
                res = await self.answer_modal(user, cb.data)
                continue
            shown = [r for r in res.messages if r.message_id and self.private(r.message_id)]
            assert shown, f"no picker and no turn message: {res.text()}"
            picker = shown[-1]
            self.seen.append(picker)
            for name, data in picker.files:
                if name.endswith(".png"):
                    self.pictures.append(data)
            mid = picker.message_id or 0
            await self.inspect(user, picker)
            cid, vals = self.pick(self.fake.message(mid))
            res = await self.fake.click(user, mid, cid, values=vals)
        raise AssertionError("the picker never ended")

    async def inspect(self, user: User, picker: Request) -> None:
        """Called with every picker before it is answered (subclasses check what it shows)."""

    def private(self, message_id: int) -> bool:
        """Whether a stored message with components is ephemeral (a picker)."""
        msg = self.fake.messages.get(message_id)
        return bool(msg and components(msg) and int(msg.get("flags", 0)) & EPHEMERAL)

    async def answer_modal(self, user: User, modal: dict[str, Any]) -> Result:
        """Type a number in range into the bot's number modal."""
        (field_,) = components(modal)
        lo, hi = (int(n) for n in re.findall(r"-?\d+", field_["label"])[:2])
        n = self.rng.randint(lo, hi)
        self.modals += 1
        self.numbers.append(n)
        return await self.fake.submit_modal(user, modal, {field_["custom_id"]: str(n)})

    def pick(self, msg: dict[str, Any]) -> tuple[str, list[str] | None]:
        """What to press on a picker: confirm, maybe a page or Pass, else a choice."""
        comps = [c for c in components(msg) if not c.get("disabled")]
        confirm = [c for c in comps if verb(c) == "s"]
        if confirm:
            return confirm[0]["custom_id"], None
        nxt = [c for c in comps if c.get("label") == "Next"]
        if nxt and self.rng.random() < self.page_rate:
            self.paged += 1
            return nxt[0]["custom_id"], None
        passes = [c for c in comps if is_pass(c)]
        if passes and self.rng.random() < self.pass_rate:
            self.passed += 1
            return passes[0]["custom_id"], None
        selects = [c for c in comps if c["type"] == 3]
        if selects:
            value = self.rng.choice(selects[0]["options"])["value"]
            return selects[0]["custom_id"], [value]
        answers = [
            c for c in comps if c["type"] == 2 and c.get("label") not in NAV and not is_pass(c)
        ]
        pick = self.rng.choice(answers or passes)
        if is_pass(pick):
            self.passed += 1
        return pick["custom_id"], None
