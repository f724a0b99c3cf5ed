"""The tile game's background jobs: re-posting boards after a restart, and the timers — turn
reminders, move deadlines and their warnings (app/clocks.py).

One scheduler task sleeps until the next timer (a move that writes an earlier one wakes it),
claims what is due (each timer fires once, whichever process claims it) and acts: a reminder
or a warning mentions the player; a passed deadline lets the AI stand-in play that move, said on
the new turn message. A timer that came due while the bot was down fires at start-up.

They run outside any interaction, so they learn a match's language from the match itself
(``Outcome.lang``: the language last heard, else the one its lobby was opened in) rather than
from a user's locale. :class:`Upkeep` is owned by the cog, which starts it when the gateway is
ready and stops it when the cog unloads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

import discord
from discord.ext import commands

from app.cache import Lru
from app.clocks import DEADLINE, WARNING, Due
from app.matches import MatchService, Outcome, ServiceError
from bot.ui import presenters as ui
from bot.ui.message import pinging
from words.i18n import Lang, lang_of, t
from words.labels import played_text
from words.phrases import mention

log = logging.getLogger(__name__)

#: the longest the scheduler sleeps without looking again (a safety net: a timer written by
#: another process does not wake this one)
SCHEDULER_NAP = 300.0

#: posts a match's turn message (the cog's ``post_outcome``)
Poster = Callable[..., Awaitable[object]]


def match_lang(outcome: Outcome, heard: Lru[int, Lang]) -> Lang:
    """The language of ``outcome``'s public messages: the one this process last heard for the
    match, else the match's own (stored, so it survives a restart)."""
    stored = lang_of(outcome.lang)
    return heard.get(outcome.match_id, stored)


class Upkeep:
    """Recovery after a restart and the timers' scheduler, for one bot and its match service."""

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
        #: set when a move writes timers: the scheduler looks again at once
        self.wake = asyncio.Event()
        if service is not None:  # none for `carcabot sync`, which serves no interaction
            service.commits.on_timers = self.wake.set
        self._task: asyncio.Task[None] | None = None
        #: other games' timers (the card game's), fired with these: each returns how many
        #: messages it sent
        self.also: list[Callable[[float], Awaitable[int]]] = []

    def start(self) -> None:
        if getattr(self.bot, "background_tasks", True) and self._task is None:
            self._task = asyncio.create_task(self._schedule())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

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

    async def _schedule(self) -> None:
        """Sleep until the next timer (or a wake-up), fire what is due, again."""
        while True:
            try:
                nxt = await self.service.next_timer()
                delay = SCHEDULER_NAP if nxt is None else max(0.0, nxt - time.time())
                self.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), timeout=min(delay, SCHEDULER_NAP))
                await self.fire(time.time())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the timers failed; looking again in a while")
                await asyncio.sleep(SCHEDULER_NAP / 10)

    async def fire(self, now: float) -> int:
        """Act on every timer due at ``now``; returns how many messages it sent."""
        sent = 0
        for due in await self.service.due_timers(now):
            try:
                if due.kind == DEADLINE:
                    sent += await self._timed_out(due)
                else:
                    sent += await self._remind(due)
            except Exception:
                log.exception("timer %s of match %s failed", due.kind, due.match_id)
        for fire in self.also:
            try:
                sent += await fire(now)
            except Exception:
                log.exception("another game's timers failed")
        return sent

    async def _timed_out(self, due: Due) -> int:
        """A move deadline passed: the stand-in plays it, and the turn message says so."""
        done = await self.service.play_timeout(due.match_id, due.user_id, due.version)
        if done is None:
            return 0
        out = done.played.outcome
        lang = match_lang(out, self.heard)
        seat = next(s for s in out.seats if s.seat == done.played.decision.seat)
        move = " · ".join(played_text(p.decision, p.action, out.seats, lang) for p in done.moves)
        lines = [t(lang, "timed_out", who=mention(seat), move=move)]
        if done.handed:
            lines.append(t(lang, "handed_to_ai", who=mention(seat), n=done.missed))
        await self.post(out, lang, headline="\n".join(lines))
        return 1

    async def send_reminders(self, now: float) -> int:
        """Fire every timer due at ``now`` (reminders mention every player who still has an
        open decision, several at once for simultaneous choices); returns how many messages
        were sent."""
        return await self.fire(now)

    async def _remind(self, due: Due) -> int:
        """A reminder (or an async clock's warning): mention the players still to decide."""
        try:
            outcome = await self.service.current(due.channel_id, render=False)
        except ServiceError:
            return 0
        if due.kind == WARNING and outcome.version != due.version:
            return 0  # the player moved: no warning
        lang = match_lang(outcome, self.heard)
        url = ui.board_link(outcome.guild_id, due.channel_id, outcome.turn_message_id)
        where = t(lang, "here_link", url=url) if url else ""
        users = [outcome.user_of(s) for s in outcome.awaiting] or [due.user_id]
        mentions = ", ".join(f"<@{u}>" for u in users if u > 0)
        if not mentions:
            return 0
        if due.kind == WARNING and outcome.deadline is not None:
            when = f"<t:{int(outcome.deadline)}:R>"
            text = t(lang, "clock_warning", mention=mentions, when=when)
        else:
            text = t(lang, "reminder", mention=mentions, where=where)
        try:
            await self.bot.get_partial_messageable(due.channel_id).send(
                text, allowed_mentions=pinging(users)
            )
        except discord.HTTPException:
            log.warning("could not send a reminder in channel %s", due.channel_id)
            return 0
        return 1
