"""A no-network Discord for tests and benchmarks (ECOSYSTEM.md §2.3).

The bot under test is the real ``commands.Bot`` with its real command tree, view store and
dynamic items. Only the two network edges are replaced:

* outbound bot REST (``bot.http.request``) is recorded and answered with fabricated JSON;
* interaction callbacks, followups and original-response edits go through a recording
  ``AsyncWebhookAdapter`` installed in ``discord.webhook.async_.async_context``.

Inbound interactions are gateway ``INTERACTION_CREATE`` payloads handed to the real
``ConnectionState.parse_interaction_create`` — the same path a live gateway event takes. Every
message the bot sends is stored with its components, so a test can click a button on it later
(also after a "restart" with a new bot on the same database).

``wire=True`` goes one layer further out, for tests of what discord.py itself does, such as
what its loggers write: inbound events are JSON text handed to a real ``DiscordWebSocket``
(``received_message``: the gateway's DEBUG log of every event), and the bot's REST and webhook
requests run through the real ``HTTPClient.request`` and ``AsyncWebhookAdapter.request`` down to
a fake aiohttp session (their DEBUG logs of bodies and answers, their status handling: a 403
becomes ``discord.Forbidden`` inside discord.py). Every message the bot posts in a channel or
a DM comes back as a gateway ``MESSAGE_CREATE``, as Discord sends it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route
from discord.webhook import async_ as webhook_async

from tests.fakediscord_limits import limit_errors as limit_errors
from tests.fakediscord_limits import refuse_oversized
from tests.fakediscord_wire import wire_up

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


class FakeDiscord:
    """Drives one bot through fabricated gateway payloads and records what it sends."""

    def __init__(self, bot: commands.Bot, *, guild_id: int = GUILD_ID, wire: bool = False) -> None:
        self.bot = bot
        self.guild_id = guild_id
        self.wire = wire
        self._ws: DiscordWebSocket | None = None
        self._seq = 0
        self.requests: list[Request] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.attachments: dict[str, bytes] = {}
        # snowflakes of "now": discord.py derives an interaction's 15-minute expiry from its id
        self._ids = itertools.count(discord.utils.time_snowflake(discord.utils.utcnow()))
        self._tokens: dict[str, int] = {}  # interaction token -> interaction id
        self._originals: dict[str, int] = {}  # interaction token -> original message id
        self._channel_of_token: dict[str, int] = {}
        self._adapter = _RecordingAdapter(self)
        self.app_permissions = BOT_PERMISSIONS
        #: called with every recorded request as it happens (benchmarks time responses here)
        self.listeners: list[Callable[[Request], None]] = []

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Bind the bot to the running loop without logging in, and run its setup hook."""
        bot = self.bot
        await bot._async_setup_hook()
        bot._connection.application_id = APP_ID
        bot._connection.user = discord.ClientUser(
            state=bot._connection,
            data={
                "id": str(APP_ID),
                "username": "Carcabot",
                "discriminator": "0",
                "global_name": None,
                "avatar": None,
                "bot": True,
            },
        )
        if self.wire:
            self._wire_up()
        else:
            bot.http.request = self._rest  # type: ignore[method-assign]
        webhook_async.async_context.set(self._adapter)
        await bot.setup_hook()

    def _wire_up(self) -> None:
        """Real discord.py HTTP and gateway code over a fake session and socket (``wire``)."""
        self._adapter = webhook_async.AsyncWebhookAdapter()  # type: ignore[no-untyped-call]
        self._ws = wire_up(self)

    async def _gateway(self, event: str, data: dict[str, Any]) -> None:
        """Deliver a dispatch event as JSON text through the real gateway code (``wire``)."""
        assert self._ws is not None
        self._seq += 1
        await self._ws.received_message(
            json.dumps({"op": 0, "t": event, "s": self._seq, "d": data})
        )

    async def ready(self) -> None:
        """Dispatch ``on_ready`` (restart recovery) and wait for the listeners."""
        webhook_async.async_context.set(self._adapter)
        before = asyncio.all_tasks()
        self.bot.dispatch("ready")
        await self._settle(before)

    async def close(self) -> None:
        await self.bot.close()

    def next_id(self) -> int:
        return next(self._ids)

    # ------------------------------------------------------------------ inbound payloads
    def _base(
        self,
        kind: int,
        user: User,
        channel_id: int,
        data: dict[str, Any],
        *,
        message: dict[str, Any] | None = None,
    ) -> tuple[int, dict[str, Any]]:
        iid = self.next_id()
        token = f"tok{iid}"
        self._tokens[token] = iid
        self._channel_of_token[token] = channel_id
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "guild_id": str(self.guild_id),
            "channel_id": str(channel_id),
            "channel": {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(self.guild_id),
                "name": "carcassonne",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            },
            "member": {
                "user": user.payload(),
                "roles": [],
                "joined_at": "2024-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": str(user.permissions),
            },
            "token": token,
            "version": 1,
            "locale": user.locale,
            "guild_locale": "en-US",
            "app_permissions": str(self.app_permissions),
            "attachment_size_limit": 10 * 1024 * 1024,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
        }
        if message is not None:
            payload["message"] = message
            self._originals[token] = int(message["id"])
        return iid, payload

    def _options(
        self, command: str, sub: str, options: dict[str, Any], focused: str | None
    ) -> dict[str, Any]:
        group = self.bot.tree.get_command(command)
        assert isinstance(group, discord.app_commands.Group), f"/{command} is not a group"
        cmd = group.get_command(sub)
        assert isinstance(cmd, discord.app_commands.Command), f"/{command} {sub} not found"
        opts = []
        for name, value in options.items():
            param = cmd.get_parameter(name)
            assert param is not None, f"/{command} {sub} has no option {name}"
            o: dict[str, Any] = {"name": name, "type": param.type.value, "value": value}
            if name == focused:
                o["focused"] = True
            opts.append(o)
        return {
            "id": str(APP_ID + 1),
            "name": command,
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}],
        }

    def slash_payload(
        self,
        user: User,
        sub: str,
        *,
        command: str = "carcassonne",
        channel_id: int = DEFAULT_CHANNEL,
        focused: str | None = None,
        **options: Any,
    ) -> tuple[int, dict[str, Any]]:
        """(interaction id, gateway payload) of ``/command sub ...`` (autocomplete if focused)."""
        data = self._options(command, sub, options, focused)
        return self._base(2 if focused is None else 4, user, channel_id, data)

    def inject(self, payload: dict[str, Any]) -> None:
        """Hand a gateway INTERACTION_CREATE payload to the bot without waiting for it."""
        webhook_async.async_context.set(self._adapter)
        if self.wire:
            asyncio.get_running_loop().create_task(self._gateway("INTERACTION_CREATE", payload))
            return
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]

    async def slash(
        self,
        user: User,
        sub: str,
        *,
        command: str = "carcassonne",
        channel_id: int = DEFAULT_CHANNEL,
        **options: Any,
    ) -> Result:
        """Invoke ``/command sub option:value ...`` as ``user``."""
        data = self._options(command, sub, options, None)
        return await self._dispatch(*self._base(2, user, channel_id, data))

    async def autocomplete(
        self,
        user: User,
        sub: str,
        focused: str,
        *,
        command: str = "carcassonne",
        channel_id: int = DEFAULT_CHANNEL,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` (its text is ``options[focused]``); returns the choices."""
        data = self._options(command, sub, options, focused)
        res = await self._dispatch(*self._base(4, user, channel_id, data))
        return res.choices

    async def click(
        self,
        user: User,
        message_id: int,
        custom_id: str,
        *,
        values: list[str] | None = None,
    ) -> Result:
        """Press a button (or choose ``values`` in a select) on a stored message."""
        msg = self.messages[message_id]
        comp = next(
            (c for c in walk_components(msg.get("components", [])) if c["custom_id"] == custom_id),
            None,
        )
        assert comp is not None, f"{custom_id!r} is not on message {message_id}"
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if values is not None:
            data["values"] = values
        return await self._dispatch(*self._base(3, user, int(msg["channel_id"]), data, message=msg))

    async def submit_modal(
        self,
        user: User,
        modal: dict[str, Any],
        values: dict[str, str],
        *,
        channel_id: int = DEFAULT_CHANNEL,
    ) -> Result:
        """Fill in a modal the bot opened (``modal``: the data of its MODAL callback) with
        ``values`` by text input custom_id, and submit it as ``user``."""
        rows = [
            {
                "type": 1,
                "components": [
                    {
                        "type": 4,
                        "custom_id": c["custom_id"],
                        "value": values.get(c["custom_id"], ""),
                    }
                ],
            }
            for c in walk_components(modal.get("components") or [])
        ]
        data = {"custom_id": modal["custom_id"], "components": rows}
        return await self._dispatch(*self._base(5, user, channel_id, data))

    async def _dispatch(self, iid: int, payload: dict[str, Any]) -> Result:
        webhook_async.async_context.set(self._adapter)
        start = len(self.requests)
        before = asyncio.all_tasks()
        if self.wire:
            await self._gateway("INTERACTION_CREATE", payload)
        else:
            self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self._settle(before)
        token = payload["token"]
        mine = [
            r
            for r in self.requests[start:]
            if r.interaction_id == iid or (r.interaction_id is None and token not in r.path)
        ]
        return Result(mine)

    async def _settle(self, before: set[asyncio.Task[Any]]) -> None:
        """Wait for every task spawned since ``before`` (and the tasks those spawn).

        View timeout timers are not waited for: discord.py gives every view sent in an
        ephemeral message a 15-minute timeout task.
        """
        me = asyncio.current_task()
        seen = set(before)

        def fresh() -> list[asyncio.Task[Any]]:
            return [
                t
                for t in asyncio.all_tasks()
                if t not in seen and t is not me and not _is_view_timer(t)
            ]

        for _ in range(1000):
            new = fresh()
            if not new:
                # let just-finished callbacks schedule follow-up tasks
                await asyncio.sleep(0)
                if not fresh():
                    return
                continue
            await asyncio.wait(new)
            seen.update(new)

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
        params = _route_params(route)
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
        self._record(req)
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


class _RecordingAdapter(webhook_async.AsyncWebhookAdapter):
    def __init__(self, fake: FakeDiscord) -> None:
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


def _is_view_timer(task: asyncio.Task[Any]) -> bool:
    return "timeout_task_impl" in getattr(task.get_coro(), "__qualname__", "")


def _actual_path(route: Route) -> str:
    return route.url[len(Route.BASE) :]


def _route_params(route: Route) -> dict[str, Any]:
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
