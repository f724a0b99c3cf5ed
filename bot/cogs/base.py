"""What both game cogs share: error handling, the component entry point and the lobby.

A game cog (``/carcassonne``: :mod:`bot.cogs.carcassonne`; ``/cardgame``:
:mod:`bot.cogs.cardgame`) mixes :class:`GameCog` in and supplies its words, its lobby message
and what happens once the match has started. Every handler runs inside :meth:`GameCog._run`:
a :class:`~app.base.ServiceError` becomes a short ephemeral answer in the user's
language, a missing channel permission is named, and anything else is logged and answered with
a generic apology, never a traceback.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

import discord
from discord.ext import commands

from app.base import ERR_NO_MATCH, GameService, LobbyInfo, ServiceError
from bot.logs import UNKNOWN_INTERACTION
from bot.ui.components import Click
from bot.ui.message import Message, fit, shown_name
from bot.workload import WorkGate
from engine.core.errors import EngineError
from words.i18n import Lang, lang_of

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

#: the work slots a handler run holds (:meth:`GameCog.work_slot`), released when it ends
_HELD: ContextVar[contextlib.AsyncExitStack | None] = ContextVar("held_work", default=None)
#: edits a message the bot sent (an interaction's answer, a followup or a channel message)
Edit = Callable[..., Awaitable[Any]]


def channel_id(interaction: Interaction) -> int:
    cid = interaction.channel_id
    if cid is None:  # pragma: no cover - Discord always sends it for guild interactions
        raise ServiceError(ERR_NO_MATCH, "No channel.")
    return cid


def required_permissions(interaction: Interaction) -> list[str]:
    """Names (i18n keys) of the channel permissions the bot needs here and lacks."""
    have = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    needed = [
        "view_channel",
        "send_messages_in_threads" if in_thread else "send_messages",
        "attach_files",
        "embed_links",
    ]
    return [p for p in needed if not getattr(have, p)]


def shown_user(interaction: Interaction) -> str:
    """The acting user's name as message text (markdown escaped: shown, never interpreted)."""
    return shown_name(interaction.user.display_name)


def describe(interaction: Interaction) -> str:
    data: Any = interaction.data or {}
    what = data.get("custom_id") or data.get("name") or "?"
    return f"interaction {interaction.id} ({what}) in channel {interaction.channel_id}"


class GameCog:
    """Mixin of both game cogs (see the module docstring)."""

    bot: commands.Bot

    # ------------------------------------------------------------------ the game's parts
    @property
    def lobby_service(self) -> GameService[Any, Any]:
        raise NotImplementedError

    def text(self, lang: Lang, key: str, **params: Any) -> str:
        """This game's words."""
        raise NotImplementedError

    def error_text(self, err: ServiceError, lang: Lang) -> str:
        raise NotImplementedError

    def lobby_message(self, info: LobbyInfo[Any], lang: Lang) -> Message:
        raise NotImplementedError

    def lang_for(self, match_id: int, interaction: Interaction) -> Lang:
        """The language of the match's public messages after this user's action."""
        return lang_of(interaction.locale)

    async def after_start(self, outcome: Any, lang: Lang) -> None:
        """Post what the channel sees once the host started the match."""
        raise NotImplementedError

    # ------------------------------------------------------------------ plumbing
    async def _run(self, interaction: Interaction, body: Callable[[], Awaitable[None]]) -> None:
        """Run a handler; turn every failure into an ephemeral answer in the user's language."""
        lang = lang_of(interaction.locale)
        async with contextlib.AsyncExitStack() as held:
            token = _HELD.set(held)
            try:
                await self._guarded(interaction, body, lang)
            finally:
                _HELD.reset(token)

    async def _guarded(
        self, interaction: Interaction, body: Callable[[], Awaitable[None]], lang: Lang
    ) -> None:
        try:
            await body()
        except ServiceError as e:
            await self._say(interaction, self.error_text(e, lang))
        except EngineError as e:
            await self._say(interaction, self.text(lang, "illegal", reason=e.text(lang.value)))
        except discord.Forbidden:
            log.warning("missing permissions in channel %s", interaction.channel_id)
            missing = [self.text(lang, f"perm_{p}") for p in required_permissions(interaction)]
            perms = ", ".join(missing) or "?"
            await self._say(interaction, self.text(lang, "missing_perms", perms=perms))
        except Exception:
            log.exception("error handling %s", describe(interaction))
            await self._say(interaction, self.text(lang, "generic_error"))

    async def work_slot(self, interaction: Interaction) -> None:
        """Hold one of the bot's work slots (:mod:`bot.workload`) from here until the handler
        ends. Call it right after acknowledging the interaction: a move then waits for a slot
        without holding up anyone's acknowledgement, and one that waits long is told so.

        Raises:
            ServiceError: ``busy`` — the bot is past its capacity; the move was not made.
        """
        gate: WorkGate | None = getattr(self.bot, "work", None)
        held = _HELD.get()
        if gate is None or held is None:
            return
        thinking = (
            interaction.response.type == discord.InteractionResponseType.deferred_channel_message
        )

        async def queued(ahead: int) -> None:
            text = self.text(lang_of(interaction.locale), "busy_wait", ahead=ahead)
            await interaction.edit_original_response(content=text)

        await held.enter_async_context(gate.slot(queued if thinking else None))

    async def defer_if_busy(self, interaction: Interaction) -> None:
        """Acknowledge at once when moves are queueing (:mod:`bot.workload`): a command that
        answers with a message of its own (a lobby) then sends it as a followup, so its 3 s
        never run out behind the queue."""
        gate: WorkGate | None = getattr(self.bot, "work", None)
        if gate is not None and (gate.waiting > 0 or gate.busy >= gate.slots):
            await interaction.response.defer(thinking=True)

    async def _respond_or_post(self, interaction: Interaction, msg: Message) -> tuple[int, Edit]:
        """Answer with ``msg`` (as a followup when the interaction was acknowledged already);
        if Discord dropped the interaction (answered after its 3 s), post it in the channel
        instead, so the table still gets its message. Its id, and how to edit it."""
        if interaction.response.is_done():
            sent = await interaction.followup.send(**msg.kwargs(), wait=True)
            return sent.id, sent.edit
        try:
            resp = await interaction.response.send_message(**msg.kwargs())
        except discord.NotFound as e:
            if e.code != UNKNOWN_INTERACTION:
                raise
            log.warning("late answer to %s: posted in the channel instead", describe(interaction))
            channel = interaction.channel
            if not isinstance(channel, discord.abc.Messageable):  # pragma: no cover
                raise
            posted = await channel.send(**msg.kwargs())
            return posted.id, posted.edit
        message_id = resp.message_id if isinstance(resp.message_id, int) else 0
        return message_id, interaction.edit_original_response

    async def _say(self, interaction: Interaction, text: str, **kw: Any) -> None:
        """An ephemeral answer, whether or not the interaction was already acknowledged (cut
        to Discord's limit: a longer answer would be refused and the player get none)."""
        text = fit(text)
        try:
            if not interaction.response.is_done():
                await interaction.response.send_message(text, ephemeral=True, **kw)
            elif not interaction.is_expired():
                await interaction.followup.send(text, ephemeral=True, **kw)
        except discord.HTTPException:
            log.exception("could not answer %s", describe(interaction))

    def _check_permissions(self, interaction: Interaction) -> None:
        missing = required_permissions(interaction)
        if missing:
            lang = lang_of(interaction.locale)
            names = ", ".join(self.text(lang, f"perm_{p}") for p in missing)
            raise ServiceError("missing_perms", f"Missing permissions: {names}", perms=names)

    async def on_click(self, interaction: Interaction, click: Click) -> None:
        """Entry point of every button and select of this game: ``_click_<action>``, else the
        ``<action>`` of the cog's ``pickers`` collaborator (the lobby's selects) or of its
        ``boards`` (the leaderboard's and history's page buttons)."""
        handler: Callable[[Interaction, Click], Awaitable[None]] | None = getattr(
            self, f"_click_{click.action}", None
        )
        for name in ("pickers", "boards"):  # the collaborators that own components
            helper = getattr(self, name, None)
            if handler is None and helper is not None and not click.action.startswith("_"):
                handler = getattr(helper, click.action, None)
        if handler is None:
            await self._say(interaction, self.text(lang_of(interaction.locale), "generic_error"))
            return
        await self._run(interaction, lambda: handler(interaction, click))

    # ------------------------------------------------------------------ lobby
    async def _post_lobby(self, interaction: Interaction, info: LobbyInfo[Any]) -> Edit:
        """``/<game> new``: the lobby message answers the command and becomes the lobby's;
        how to edit it (where it was posted)."""
        lang = self.lang_for(info.match_id, interaction)
        message_id, edit = await self._respond_or_post(interaction, self.lobby_message(info, lang))
        if message_id:
            await self.lobby_service.set_lobby_message(info.match_id, message_id)
        return edit

    async def _start_command(self, interaction: Interaction) -> None:
        """``/<game> start`` (host): the match's first message in the channel, "Done" privately."""
        self._check_permissions(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.work_slot(interaction)
        outcome = await self.lobby_service.start(channel_id(interaction), interaction.user.id)
        lang = self.lang_for(outcome.match_id, interaction)
        await self.after_start(outcome, lang)
        await interaction.followup.send(self.text(lang, "done"), ephemeral=True)

    async def _join_command(self, interaction: Interaction) -> None:
        """``/<game> join``: a new lobby message, which becomes the lobby's message."""
        await self.defer_if_busy(interaction)
        info = await self.lobby_service.join(
            channel_id(interaction), interaction.user.id, interaction.user.display_name
        )
        lang = self.lang_for(info.match_id, interaction)
        msg = self.lobby_message(info, lang)
        msg.content = self.text(lang, "joined", name=shown_user(interaction))
        message_id, _ = await self._respond_or_post(interaction, msg)
        if message_id:
            await self.lobby_service.set_lobby_message(info.match_id, message_id)

    async def _leave_command(self, interaction: Interaction) -> None:
        info = await self.lobby_service.leave(channel_id(interaction), interaction.user.id)
        lang = self.lang_for(info.match_id, interaction)
        msg = self.lobby_message(info, lang)
        msg.content = self.text(lang, "left", name=shown_user(interaction))
        await interaction.response.send_message(**msg.kwargs())

    async def _open_lobby(self, interaction: Interaction, click: Click) -> LobbyInfo[Any] | None:
        """The lobby a lobby button belongs to, if it is still open (else says so)."""
        try:
            info = await self.lobby_service.lobby(channel_id(interaction))
        except ServiceError:
            info = None
        if info is None or info.match_id != click.match_id or info.status != "lobby":
            await self._say(interaction, self.text(lang_of(interaction.locale), "lobby_closed"))
            return None
        return info

    async def _lobby_changed(self, interaction: Interaction, info: LobbyInfo[Any]) -> None:
        """The lobby message the click was made on shows the changed lobby."""
        lang = self.lang_for(info.match_id, interaction)
        await interaction.response.edit_message(**self.lobby_message(info, lang).kwargs(edit=True))

    async def _click_join(self, interaction: Interaction, click: Click) -> None:
        if await self._open_lobby(interaction, click) is None:
            return
        user = interaction.user
        info = await self.lobby_service.join(channel_id(interaction), user.id, user.display_name)
        await self._lobby_changed(interaction, info)

    async def _click_leave(self, interaction: Interaction, click: Click) -> None:
        if await self._open_lobby(interaction, click) is None:
            return
        info = await self.lobby_service.leave(channel_id(interaction), interaction.user.id)
        await self._lobby_changed(interaction, info)

    async def _click_start(self, interaction: Interaction, click: Click) -> None:
        """The host starts: the lobby message closes, the match's first message is posted."""
        if await self._open_lobby(interaction, click) is None:
            return
        self._check_permissions(interaction)
        await interaction.response.defer()
        await self.work_slot(interaction)
        cid = channel_id(interaction)
        outcome = await self.lobby_service.start(cid, interaction.user.id)
        info = await self.lobby_service.lobby(cid)
        lang = self.lang_for(info.match_id, interaction)
        await interaction.edit_original_response(**self.lobby_message(info, lang).kwargs(edit=True))
        await self.after_start(outcome, lang)
