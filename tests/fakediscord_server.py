"""Discord's side of the fake Discord (tests/fakediscord.py): every outbound REST and webhook
request the bot makes is recorded (:class:`~tests.fakediscord_records.Request`), checked against
Discord's limits and answered with fabricated JSON, and every message it creates or edits is
stored with its components and attachments, so a test can read it and click on it later."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Callable
from typing import Any

import discord
from discord.http import Route
from discord.webhook import async_ as webhook_async

from tests.fakediscord_limits import refuse_oversized
from tests.fakediscord_records import (
    APP_ID,
    CHANNEL_MESSAGE,
    DEFAULT_CHANNEL,
    DEFERRED_CHANNEL_MESSAGE,
    EPHEMERAL,
    UPDATE_MESSAGE,
    Request,
)


class FakeServer:
    """The recorded requests and the stored messages, and the answers to the bot's requests
    (the part of :class:`~tests.fakediscord.FakeDiscord` that plays Discord's servers)."""

    def __init__(self, *, guild_id: int, wire: bool) -> None:
        self.guild_id = guild_id
        self.wire = wire
        self.requests: list[Request] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.attachments: dict[str, bytes] = {}
        # snowflakes of "now": discord.py derives an interaction's 15-minute expiry from its id
        self._ids = itertools.count(discord.utils.time_snowflake(discord.utils.utcnow()))
        self._tokens: dict[str, int] = {}  # interaction token -> interaction id
        self._originals: dict[str, int] = {}  # interaction token -> original message id
        self._channel_of_token: dict[str, int] = {}
        #: called with every recorded request as it happens (benchmarks time responses here)
        self.listeners: list[Callable[[Request], None]] = []
        #: Discord's 3 s to acknowledge an interaction: when set, a callback this many seconds
        #: (loop time) after the interaction arrived is answered 404 "Unknown interaction"
        #: (10062) and the token's followups 404 "Unknown Webhook" (10015), as Discord does
        self.ack_deadline: float | None = None
        self._arrived: dict[str, float] = {}  # interaction token -> loop time it arrived
        self._dropped: set[str] = set()  # tokens Discord dropped (acknowledged too late)
        #: interactions answered too late (each one a player's "The application did not respond")
        self.late_acks = 0

    def next_id(self) -> int:
        return next(self._ids)

    async def _gateway(self, event: str, data: dict[str, Any]) -> None:
        """Deliver a dispatch event through the real gateway code (``wire``; the client's)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ message store
    def message(self, message_id: int) -> dict[str, Any]:
        return self.messages[message_id]

    def channel_messages(self, channel_id: int = DEFAULT_CHANNEL) -> list[dict[str, Any]]:
        return [m for m in self.messages.values() if int(m["channel_id"]) == channel_id]

    def _store_message(
        self,
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
        channel_id: int,
        *,
        message_id: int | None = None,
        ephemeral: bool = False,
    ) -> dict[str, Any]:
        mid = message_id or self.next_id()
        old = self.messages.get(mid, {})
        attachments = list(old.get("attachments", []))
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] if "filename" not in a}
            attachments = [a for a in attachments if str(a["id"]) in keep]
        for fn, data in files:
            aid = str(self.next_id())
            url = f"https://cdn.fake/{aid}/{fn}"
            self.attachments[url] = data
            attachments.append(
                {
                    "id": aid,
                    "filename": fn,
                    "size": len(data),
                    "url": url,
                    "proxy_url": url,
                }
            )
        flags = int(body.get("flags", old.get("flags", 0)) or 0)
        if ephemeral:
            flags |= EPHEMERAL
        msg: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "guild_id": str(self.guild_id),
            "type": 0,
            "author": {
                "id": str(APP_ID),
                "username": "Carcabot",
                "discriminator": "0",
                "avatar": None,
                "bot": True,
            },
            "content": body.get("content", old.get("content", "")) or "",
            "embeds": body.get("embeds", old.get("embeds", [])) or [],
            "components": body.get("components", old.get("components", [])) or [],
            "attachments": attachments,
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": "2024-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "flags": flags,
        }
        self.messages[mid] = msg
        return msg

    # ------------------------------------------------------------------ outbound
    def _record(self, req: Request) -> None:
        self.requests.append(req)
        for listener in self.listeners:
            listener(req)

    async def _rest(
        self,
        route: Route,
        *,
        files: Any = None,
        form: Any = None,
        **kwargs: Any,
    ) -> Any:
        body = kwargs.get("json")
        if body is None and form:
            for part in form:
                if part.get("name") == "payload_json":
                    body = json.loads(part["value"])
        got = _read_files(files)
        req = Request(route.method, _actual_path(route), body, got)
        self._record(req)
        refuse_oversized(req, body if route.method in ("POST", "PATCH") else None)
        params = route_params(route)
        path = route.path
        if path == "/channels/{channel_id}/messages" and route.method == "POST":
            msg = self._store_message(body or {}, got, int(params["channel_id"]))
            req.message_id = int(msg["id"])
            if self.wire:  # Discord tells the bot of its own message, DMs included
                asyncio.get_running_loop().create_task(self._gateway("MESSAGE_CREATE", msg))
            return msg
        if path == "/channels/{channel_id}/messages/{message_id}":
            mid = int(params["message_id"])
            if route.method == "PATCH":
                msg = self._store_message(
                    body or {}, got, int(params["channel_id"]), message_id=mid
                )
                req.message_id = mid
                return msg
            if route.method == "GET":
                return self.messages[mid]
            if route.method == "DELETE":
                self.messages.pop(mid, None)
                return None
        if path == "/channels/{channel_id}":
            return {
                "id": str(params["channel_id"]),
                "type": 0,
                "guild_id": str(self.guild_id),
                "name": "carcassonne",
                "position": 0,
                "permission_overwrites": [],
            }
        return {}

    async def _webhook(
        self,
        route: Route,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Any = None,
    ) -> Any:
        body = payload
        if body is None and multipart:
            for part in multipart:
                if part.get("name") == "payload_json":
                    body = json.loads(part["value"])
        got = _read_files(files)
        token = str(route.webhook_token)
        iid = self._tokens.get(token)
        req = Request(route.method, _actual_path(route), body, got, interaction_id=iid)
        late = self._late(req, token, callback=route.path.endswith("/callback"))
        self._record(req)
        if late is not None:
            raise late
        if body is not None and route.path.endswith("/callback"):
            refuse_oversized(req, body.get("data") if int(body["type"]) in (4, 7) else None)
        elif route.method in ("POST", "PATCH"):
            refuse_oversized(req, body)
        channel_id = self._channel_of_token.get(token, DEFAULT_CHANNEL)
        original = self._originals.get(token)
        if route.path.endswith("/callback"):
            assert body is not None
            kind = int(body["type"])
            data = body.get("data") or {}
            resp: dict[str, Any] = {"interaction": {"id": str(iid), "type": 2}}
            if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
                eph = bool(int(data.get("flags", 0) or 0) & EPHEMERAL)
                msg = self._store_message(
                    data if kind == CHANNEL_MESSAGE else {}, got, channel_id, ephemeral=eph
                )
                self._originals[token] = int(msg["id"])
                req.message_id = int(msg["id"])
                resp["interaction"]["response_message_id"] = msg["id"]
                resp["resource"] = {"type": kind, "message": msg}
            elif kind == UPDATE_MESSAGE and original is not None:
                msg = self._store_message(data, got, channel_id, message_id=original)
                req.message_id = original
                resp["resource"] = {"type": kind, "message": msg}
            else:
                resp["resource"] = {"type": kind}
            return resp
        if route.method == "PATCH" and "/messages/" in route.path:
            target = route.url.rsplit("/", 1)[-1]
            mid = original if target == "@original" else int(target)
            assert mid is not None, "edit of an unknown interaction message"
            msg = self._store_message(body or {}, got, channel_id, message_id=mid)
            req.message_id = mid
            return msg
        if route.method == "POST":
            eph = bool(int((body or {}).get("flags", 0) or 0) & EPHEMERAL)
            msg = self._store_message(body or {}, got, channel_id, ephemeral=eph)
            req.message_id = int(msg["id"])
            return msg
        if route.method == "DELETE":
            return None
        return {}

    def arrived(self, token: str) -> None:
        """Note when an interaction reached the bot (its acknowledgement deadline counts from
        here)."""
        if self.ack_deadline is not None:
            self._arrived[token] = asyncio.get_running_loop().time()

    def _late(self, req: Request, token: str, *, callback: bool) -> discord.NotFound | None:
        """What Discord answers a late acknowledgement (404, 10062) and any later use of a token
        it dropped (404, 10015), or None; ``req`` is marked refused."""
        if self.ack_deadline is None:
            return None
        if token in self._dropped:
            req.refused = True
            return discord.NotFound(_NotFound(), {"code": 10015, "message": "Unknown Webhook"})
        born = self._arrived.pop(token, None) if callback else None
        if born is None or asyncio.get_running_loop().time() - born <= self.ack_deadline:
            return None
        req.refused = True
        self._dropped.add(token)
        self.late_acks += 1
        return discord.NotFound(_NotFound(), {"code": 10062, "message": "Unknown interaction"})


class _NotFound:
    """The response half of Discord's HTTP 404."""

    status = 404
    reason = "Not Found"


class RecordingAdapter(webhook_async.AsyncWebhookAdapter):
    """discord.py's webhook adapter (interaction callbacks, followups, edits) answered by the
    fake instead of the network (installed in ``webhook_async.async_context``)."""

    def __init__(self, fake: FakeServer) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.fake = fake

    async def request(
        self,
        route: Route,
        session: Any = None,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Any = None,
        **kwargs: Any,
    ) -> Any:
        return await self.fake._webhook(route, payload=payload, multipart=multipart, files=files)


def _actual_path(route: Route) -> str:
    return route.url[len(Route.BASE) :]


def route_params(route: Route) -> dict[str, Any]:
    """The format parameters of a route, read back from its template and formatted url."""
    names = re.findall(r"{(\w+)}", route.path)
    pattern = re.escape(route.path)
    for n in names:
        pattern = pattern.replace(re.escape("{" + n + "}"), f"(?P<{n}>[^/]+)")
    m = re.fullmatch(pattern, _actual_path(route).split("?")[0])
    return dict(m.groupdict()) if m else {}


def _read_files(files: Any) -> list[tuple[str, bytes]]:
    out = []
    for f in files or []:
        f.reset()
        data = f.fp.read()
        out.append((f.filename or "file", bytes(data)))
    return out
