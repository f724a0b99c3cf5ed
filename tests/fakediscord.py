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
import json
from typing import Any

import discord
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.webhook import async_ as webhook_async

from tests.fakediscord_limits import limit_errors
from tests.fakediscord_records import (
    ALL_PERMISSIONS,
    APP_ID,
    AUTOCOMPLETE_RESULT,
    BOT_PERMISSIONS,
    CHANNEL_MESSAGE,
    DEFAULT_CHANNEL,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    GUILD_ID,
    MODAL,
    UPDATE_MESSAGE,
    Request,
    Result,
    User,
    walk_components,
)
from tests.fakediscord_server import FakeServer, RecordingAdapter, route_params
from tests.fakediscord_wire import wire_up


class FakeDiscord(FakeServer):
    """Drives one bot through fabricated gateway payloads and records what it sends (what
    Discord does with the bot's requests: :class:`~tests.fakediscord_server.FakeServer`)."""

    def __init__(self, bot: commands.Bot, *, guild_id: int = GUILD_ID, wire: bool = False) -> None:
        super().__init__(guild_id=guild_id, wire=wire)
        self.bot = bot
        self._ws: DiscordWebSocket | None = None
        self._seq = 0
        self._adapter: webhook_async.AsyncWebhookAdapter = RecordingAdapter(self)
        self.app_permissions = BOT_PERMISSIONS

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
        resolved: dict[str, dict[str, Any]] = {}
        for name, value in options.items():
            param = cmd.get_parameter(name)
            assert param is not None, f"/{command} {sub} has no option {name}"
            if isinstance(value, User):  # a user option: its id, the member in ``resolved``
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                resolved.setdefault("members", {})[str(value.id)] = {
                    "roles": [], "joined_at": "2024-01-01T00:00:00+00:00", "flags": 0,
                    "permissions": str(value.permissions),
                }  # fmt: skip
                value = str(value.id)
            o: dict[str, Any] = {"name": name, "type": param.type.value, "value": value}
            if name == focused:
                o["focused"] = True
            opts.append(o)
        data: dict[str, Any] = {
            "id": str(APP_ID + 1),
            "name": command,
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}],
        }
        if resolved:
            data["resolved"] = resolved
        return data

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
        self.arrived(payload["token"])
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
        self.arrived(payload["token"])
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


def _is_view_timer(task: asyncio.Task[Any]) -> bool:
    return "timeout_task_impl" in getattr(task.get_coro(), "__qualname__", "")


__all__ = [
    "ALL_PERMISSIONS",
    "APP_ID",
    "AUTOCOMPLETE_RESULT",
    "BOT_PERMISSIONS",
    "CHANNEL_MESSAGE",
    "DEFAULT_CHANNEL",
    "DEFERRED_CHANNEL_MESSAGE",
    "DEFERRED_UPDATE",
    "EPHEMERAL",
    "GUILD_ID",
    "MODAL",
    "UPDATE_MESSAGE",
    "FakeDiscord",
    "Request",
    "Result",
    "User",
    "_is_view_timer",
    "route_params",
    "limit_errors",
    "walk_components",
]
