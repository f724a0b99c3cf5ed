"""What passes between the fake Discord (tests/fakediscord.py) and a test: Discord's ids and
callback types, the users who act, every request the bot made (:class:`Request`) and what it
answered to one interaction (:class:`Result`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import discord

APP_ID = 900_000_000_000_000_001
GUILD_ID = 900_000_000_000_000_002
DEFAULT_CHANNEL = 900_000_000_000_000_003
ALL_PERMISSIONS = discord.Permissions.all().value
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    attach_files=True,
    embed_links=True,
    read_message_history=True,
).value

# interaction callback types (Discord API)
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
EPHEMERAL = 64


@dataclass
class Request:
    """One outbound HTTP request the bot made."""

    method: str
    path: str
    payload: dict[str, Any] | None
    files: list[tuple[str, bytes]]
    interaction_id: int | None = None  # set for webhook/interaction routes
    message_id: int | None = None  # the message created or edited, if any
    refused: bool = False  # Discord answered 400: the body broke its limits

    @property
    def callback_type(self) -> int | None:
        if self.path.endswith("/callback") and self.payload is not None:
            return int(self.payload["type"])
        return None

    @property
    def data(self) -> dict[str, Any]:
        """The message part: ``data`` of a callback, the body of anything else."""
        if self.payload is None:
            return {}
        if self.path.endswith("/callback"):
            inner: dict[str, Any] = self.payload.get("data") or {}
            return inner
        return self.payload

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags", 0) or 0) & EPHEMERAL)

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    def text(self) -> str:
        """Content plus every embed's title, description, fields and footer."""
        parts = [self.content]
        for e in self.data.get("embeds") or []:
            parts.append(str(e.get("title", "")))
            parts.append(str(e.get("description", "")))
            for f in e.get("fields", []):
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            parts.append(str((e.get("footer") or {}).get("text", "")))
        return "\n".join(p for p in parts if p)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.data.get("components") or [])]

    def file(self, name_part: str) -> bytes:
        for fn, data in self.files:
            if name_part in fn:
                return data
        raise KeyError(f"no file with {name_part!r} in {[f for f, _ in self.files]}")


def walk_components(components: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    """Every interactive component (with a custom_id) in a message's component tree."""
    for c in components:
        if "custom_id" in c:
            yield c
        for key in ("components", "accessory", "component"):
            inner = c.get(key)
            if isinstance(inner, list):
                yield from walk_components(inner)
            elif isinstance(inner, dict):
                yield from walk_components([inner])


@dataclass
class User:
    id: int
    name: str
    locale: str = "en-US"
    permissions: int = discord.Permissions(send_messages=True, view_channel=True).value

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
        }


@dataclass
class Result:
    """What the bot answered to one interaction (callback, followups, edits of the original)."""

    requests: list[Request] = field(default_factory=list)

    @property
    def callback(self) -> Request:
        for r in self.requests:
            if r.callback_type is not None:
                return r
        raise AssertionError(f"no interaction callback; requests: {self.requests}")

    @property
    def followups(self) -> list[Request]:
        return [r for r in self.requests if r.method == "POST" and "/webhooks/" in r.path]

    @property
    def edits(self) -> list[Request]:
        return [r for r in self.requests if r.method == "PATCH"]

    @property
    def messages(self) -> list[Request]:
        """Every request that carried a message body (callback 4/7, followups, edits, sends)."""
        out = []
        for r in self.requests:
            if r.refused:
                continue
            if (
                r.callback_type in (CHANNEL_MESSAGE, UPDATE_MESSAGE)
                or r.callback_type is None
                and r.payload is not None
                and r.method in ("POST", "PATCH")
            ):
                out.append(r)
        return out

    @property
    def channel_sends(self) -> list[Request]:
        return [r for r in self.requests if r.method == "POST" and r.path.startswith("/channels/")]

    @property
    def last(self) -> Request:
        """The last message-carrying request (what the user finally sees)."""
        msgs = self.messages
        assert msgs, f"no message in {self.requests}"
        return msgs[-1]

    def text(self) -> str:
        return "\n".join(r.text() for r in self.messages)

    @property
    def choices(self) -> list[dict[str, Any]]:
        cb = self.callback
        assert cb.callback_type == AUTOCOMPLETE_RESULT, cb
        out: list[dict[str, Any]] = cb.data.get("choices", [])
        return out
