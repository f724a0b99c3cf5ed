"""The fake Discord's ``wire`` mode (tests/fakediscord.py): discord.py's real HTTP, webhook and
gateway code run down to a fake aiohttp session and a socket-less ``DiscordWebSocket``, so a
test sees what discord.py itself does with each request and event (its DEBUG logs of bodies
and answers, its handling of a 403)."""

from __future__ import annotations

import asyncio
import io
import json
import re
from typing import TYPE_CHECKING, Any

import discord
from discord.gateway import DiscordWebSocket
from discord.http import Route

if TYPE_CHECKING:
    from tests.fakediscord import FakeDiscord


def wire_up(fake: FakeDiscord) -> DiscordWebSocket:
    """Give ``fake.bot`` the fake session under its real HTTP client; return the socket-less
    gateway that hands it events (``DiscordWebSocket.received_message``)."""
    bot = fake.bot
    bot.http._HTTPClient__session = _WireSession(fake)  # type: ignore[attr-defined]
    bot.http._global_over = asyncio.Event()
    bot.http._global_over.set()
    ws = DiscordWebSocket(None, loop=asyncio.get_running_loop())  # type: ignore[arg-type]
    ws.token = None
    ws._connection = bot._connection
    ws._discord_parsers = bot._connection.parsers
    ws._dispatch = bot.dispatch
    ws.gateway = DiscordWebSocket.DEFAULT_GATEWAY
    ws.call_hooks = bot._connection.call_hooks
    ws._initial_identify = False
    ws.shard_id = None
    ws.shard_count = None
    ws._max_heartbeat_timeout = 60.0
    return ws


#: REST routes the bot uses, most specific first (``wire``: a URL is read back into its Route)
_REST_TEMPLATES = (
    "/channels/{channel_id}/messages/{message_id}",
    "/channels/{channel_id}/messages",
    "/channels/{channel_id}",
    "/users/@me/channels",
    "/applications/{application_id}/guilds/{guild_id}/commands",
    "/applications/{application_id}/commands",
)
_WEBHOOK_TEMPLATES = (
    "/interactions/{webhook_id}/{webhook_token}/callback",
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    "/webhooks/{webhook_id}/{webhook_token}",
)


def _route_of(method: str, path: str) -> tuple[Route, bool]:
    """The Route a request URL path was made from, and whether it is a webhook's."""
    for webhook, templates in ((False, _REST_TEMPLATES), (True, _WEBHOOK_TEMPLATES)):
        for template in templates:
            names = re.findall(r"{(\w+)}", template)
            pattern = re.escape(template)
            for n in names:
                pattern = pattern.replace(re.escape("{" + n + "}"), f"(?P<{n}>[^/]+)")
            m = re.fullmatch(pattern, path)
            if m is not None:
                return Route(method, template, **m.groupdict()), webhook
    return Route(method, path), path.startswith(("/webhooks/", "/interactions/"))


class _Blob:
    """A file part read back from a multipart body, shaped like ``discord.File`` for
    :func:`~tests.fakediscord_server._read_files`."""

    def __init__(self, filename: str, data: bytes) -> None:
        self.filename = filename
        self.fp = io.BytesIO(data)

    def reset(self) -> None:
        self.fp.seek(0)


class _WireResponse:
    """What the fake session answers: status, headers and text, as aiohttp's response."""

    def __init__(self, status: int, data: Any) -> None:
        self.status = status
        self.reason = {200: "OK", 204: "No Content", 400: "Bad Request", 403: "Forbidden"}.get(
            status, "Error"
        )
        self.headers: dict[str, str] = {"content-type": "application/json"}
        self._text = "" if data is None else json.dumps(data)

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def __aenter__(self) -> _WireResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _WireCall:
    def __init__(self, session: _WireSession, method: str, url: str, kwargs: dict[str, Any]):
        self.session, self.method, self.url, self.kwargs = session, method, url, kwargs
        self.response: _WireResponse | None = None

    async def __aenter__(self) -> _WireResponse:
        self.response = await self.session.answer(self.method, self.url, self.kwargs)
        return self.response

    async def __aexit__(self, *exc: object) -> None:
        return None


class _WireSession:
    """The aiohttp session under discord.py's real HTTP code (``wire``): decodes each request
    (JSON or multipart with files), hands it to the fake Discord's route handlers and answers
    with their JSON, or with the status of the ``HTTPException`` they raise."""

    closed = False

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def request(self, method: str, url: str, **kwargs: Any) -> _WireCall:
        return _WireCall(self, method, url, kwargs)

    async def close(self) -> None:
        self.closed = True

    async def answer(self, method: str, url: str, kwargs: dict[str, Any]) -> _WireResponse:
        body, files = _decode(kwargs.get("data"))
        route, webhook = _route_of(method, url[len(Route.BASE) :].split("?")[0])
        try:
            if webhook:
                got = await self.fake._webhook(route, payload=body, files=files)
            else:
                got = await self.fake._rest(route, files=files, json=body)
        except discord.HTTPException as e:
            return _WireResponse(e.status, {"code": e.code, "message": e.text})
        return _WireResponse(200 if got is not None else 204, got)


def _decode(data: Any) -> tuple[dict[str, Any] | None, list[_Blob]]:
    """A request body as JSON and files: JSON text, or aiohttp form data."""
    if data is None:
        return None, []
    if isinstance(data, str | bytes):
        return json.loads(data), []
    body: dict[str, Any] | None = None
    files = []
    for options, _, value in data._fields:
        if options.get("name") == "payload_json":
            body = json.loads(value)
        elif options.get("filename"):
            raw = value.read() if hasattr(value, "read") else bytes(value)
            files.append(_Blob(str(options["filename"]), raw))
    return body, files
