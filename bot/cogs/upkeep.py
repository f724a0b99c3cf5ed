"""The tile game's background jobs: re-posting boards after a restart, and turn reminders.

They run outside any interaction, so they learn a match's language from the match itself
(``Outcome.lang``: the language last heard, else the one its lobby was opened in) rather than
from a user's locale. :class:`Upkeep` is owned by the cog, which starts it when the gateway is
ready and stops it when the cog unloads.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

import discord
from discord.ext import commands, tasks

from app.cache import Lru
from app.matches import MatchService, Outcome, ServiceError
from bot.i18n import Lang, lang_of, t
from bot.ui import presenters as ui
from bot.ui.message import pinging

log = logging.getLogger(__name__)

REMINDER_POLL_SECONDS = 30.0

#: posts a match's turn message (the cog's ``post_outcome``)
Poster = Callable[[Outcome, Lang], Awaitable[object]]


def match_lang(outcome: Outcome, heard: Lru[int, Lang]) -> Lang:
    """The language of ``outcome``'s public messages: the one this process last heard for the
    match, else the match's own (stored, so it survives a restart)."""
    stored = lang_of(outcome.lang)
    return heard.get(outcome.match_id, stored)


class Upkeep:
    """Recovery after a restart and the reminder loop, for one bot and its match service."""

    def __init__(
        self,
        bot: commands.Bot,
        service: MatchService,
        post: Poster,
        heard: Lru[int, Lang],
        drive: Callable[[Outcome, Lang], None] | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.post = post
        self.drive = drive  # lets the program seats of a match play (the cog's ``drive``)
        self.heard = heard

    def start(self) -> None:
        if getattr(self.bot, "background_tasks", True) and not self.reminders.is_running():
            self.reminders.start()

    def stop(self) -> None:
        self.reminders.cancel()

    async def recover(self) -> int:
        """Post the turn message of every active match whose current board was not posted (and
        let the AI seats that were to move play on), and rate the games that finished just
        before the last stop."""
        try:
            await self.service.ratings.settle()
        except Exception:
            log.exception("could not rate the finished games")
        posted = 0
        for outcome in await self.service.active_matches():
            if outcome.turn_message_id is not None:
                if self.drive is not None:
                    self.drive(outcome, match_lang(outcome, self.heard))
                continue
            try:
                await self.post(outcome, match_lang(outcome, self.heard))
                posted += 1
            except Exception:
                log.exception("could not re-post match %s", outcome.match_id)
        return posted

    @tasks.loop(seconds=REMINDER_POLL_SECONDS)
    async def reminders(self) -> None:
        try:
            await self.send_reminders(time.time())
        except Exception:
            log.exception("turn reminders failed")

    async def send_reminders(self, now: float) -> int:
        """Mention every player who still has an open decision when their match's reminder is
        due (several at once for simultaneous choices); returns how many were sent."""
        sent = 0
        for _match_id, where_id, user_id in await self.service.due_reminders(now):
            try:
                outcome = await self.service.current(where_id, render=False)
            except ServiceError:
                continue
            lang = match_lang(outcome, self.heard)
            url = ui.board_link(outcome.guild_id, where_id, outcome.turn_message_id)
            where = t(lang, "here_link", url=url) if url else ""
            users = [outcome.user_of(s) for s in outcome.awaiting] or [user_id]
            mentions = ", ".join(f"<@{u}>" for u in users if u > 0)
            if not mentions:
                continue
            channel = self.bot.get_partial_messageable(where_id)
            try:
                await channel.send(
                    t(lang, "reminder", mention=mentions, where=where),
                    allowed_mentions=pinging(users),
                )
                sent += 1
            except discord.HTTPException:
                log.warning("could not send a reminder in channel %s", where_id)
        return sent
