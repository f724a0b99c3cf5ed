"""The tile game's decisions in Discord: the turn message, secret choices by DM, and the clicks
of any decision's buttons, selects and number modals.

A mixin of the :class:`~bot.cogs.carcassonne.Carcassonne` cog. Every click names its match,
its decision's key and the answers so far (:mod:`app.choices`); it is checked against the
clicker's open decisions (``MatchService.decisions_for``), so a click on a decision that has
closed is refused as out of date while one of a decision still open is accepted, whatever
other seats did meanwhile. Answers that lead to another decision of the same seat revealing
nothing (a tile, then a follower on it) are asked in the same picker
(``MatchService.preview``) and submitted together in one ``MatchService.submit`` call.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Sequence
from typing import Any

import discord

from app.base import SeatInfo
from app.cache import Lru
from app.choices import (
    ROOT,
    Path,
    Step,
    Token,
    extend,
    parse_path,
    walk,
)
from app.matches import (
    ERR_STALE,
    MatchService,
    Outcome,
    ServiceError,
)
from app.picking import Chain, OutOfDate, PickerSessions
from app.pictures import board_png
from bot.cogs.base import GameCog, channel_id, shown_user
from bot.cogs.private import reply_private, send_private
from bot.cogs.suggestions import Suggestions
from bot.ui import images
from bot.ui import presenters as ui
from bot.ui.components import Click, DecisionClick
from bot.ui.decisions import Picker, choices_of, confirm, number_modal, picker
from engine.core.decisions import Decision
from words.i18n import Lang, lang_of, t
from words.labels import answer_text, played_text
from words.phrases import mention

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
#: what the cog remembers per match (language, decision keys sent by DM) is kept for at most
#: this many matches, and forgotten when a match ends
MATCH_MEMORY = 1024


def move_text(steps: Sequence[Step], seats: Sequence[SeatInfo], lang: Lang) -> str:
    """What a player answered, for the channel (a secret answer is not shown)."""
    return " · ".join(
        t(lang, "secret_answer") if s.decision.private else answer_text(s, seats, lang)
        for s in steps
    )


def is_ephemeral(interaction: Interaction) -> bool:
    msg = interaction.message
    return msg is not None and msg.flags.ephemeral


class TurnPickers(GameCog):
    """The turn message, DMs and every decision click (see the module docstring)."""

    service: MatchService
    _dm_sent: Lru[int, set[str]]
    _lang: Lru[int, Lang]
    #: each seat's open decisions, read once per match version (see app.picking)
    _sessions: PickerSessions
    #: autocomplete's reads of a player's open decisions (bot/cogs/suggestions.py)
    _suggestions: Suggestions[Any]
    #: tasks that post after the interaction was answered (replay animations, program seats)
    _background: set[asyncio.Task[None]]
    #: matches whose program seats are being played now
    _driving: set[int]

    def forget(self, match_id: int) -> None:
        """Drop what the cog remembers of a match that has ended."""
        self._dm_sent.pop(match_id)
        self._lang.pop(match_id)
        self._sessions.forget(match_id)

    def _remember_lang(self, match_id: int, interaction: Interaction) -> Lang:
        raise NotImplementedError

    async def _undo(self, interaction: Interaction) -> None:
        raise NotImplementedError

    async def _tiles(self, interaction: Interaction) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ posting
    def _channel(self, outcome: Outcome) -> Any:
        return self.bot.get_partial_messageable(
            outcome.channel_id, guild_id=outcome.guild_id or None
        )

    async def post_outcome(
        self, outcome: Outcome, lang: Lang, *, headline: str | None = None
    ) -> discord.Message:
        """Post the turn message (or the final scoring) in the match's channel, then send
        new secret decisions to their seats."""
        self._sessions.forget(outcome.match_id)  # the match changed: read its decisions anew
        self._suggestions.forget(outcome.channel_id)  # ... and suggest from the new board
        png = await board_png(self.service, outcome, lang.value)  # in the message's language
        if png is None:
            png = await images.board_png(outcome.view, lang.value, painter=self.service.painter)
        quiet = await self.service.quiet_players()
        msg = ui.outcome_message(outcome, lang, png, headline=headline, quiet=quiet)
        sent: discord.Message = await self._channel(outcome).send(**msg.kwargs())
        if outcome.finished or outcome.view.over:
            self.forget(outcome.match_id)
            if outcome.animation is None:
                # the final board is out: the replay animation follows when it is drawn, and
                # neither this move nor any other table waits for it
                task = asyncio.create_task(self._post_animation(outcome, lang))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
        else:
            await self.service.set_turn_message(outcome.match_id, outcome.version, sent.id)
            await self.deliver_private(outcome, lang)
            self.drive(outcome, lang)
        return sent

    # ------------------------------------------------------------------ program seats
    def drive(self, outcome: Outcome, lang: Lang) -> None:
        """Let the programs (AI seats, stand-ins) play their open decisions, in the
        background: the turn message says who is thinking meanwhile, and each move they make
        is posted like a person's. One driver per match at a time."""
        if outcome.finished or outcome.view.over or outcome.match_id in self._driving:
            return
        by_seat = {s.seat: s for s in outcome.seats}
        if not any(
            (s := by_seat.get(seat)) is not None and (s.program or s.user_id <= 0)
            for seat in outcome.awaiting
        ):
            return
        self._driving.add(outcome.match_id)
        task = asyncio.create_task(self._drive(outcome.match_id, lang))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _drive(self, match_id: int, lang: Lang) -> None:
        try:
            moves: list[str] = []
            events: tuple[Any, ...] = ()
            while True:
                played = await self.service.play_controlled(match_id)
                if played is None:
                    return
                out = played.outcome
                who = played.decision.seat
                moves.append(played_text(played.decision, played.action, out.seats, lang))
                events += out.events
                if not out.finished and list(out.awaiting) == [who]:
                    continue  # the same program goes on (its follower): one message per turn
                seat = next(s for s in out.seats if s.seat == who)
                headline = t(lang, "ai_moved", who=mention(seat), move=" · ".join(moves))
                out = dataclasses.replace(out, events=events)
                await self.post_outcome(out, lang, headline=headline)
                moves, events = [], ()
        except Exception:  # a program that fails leaves the seat waiting; never the bot
            log.exception("the program seats of match %s could not play", match_id)
        finally:
            self._driving.discard(match_id)

    async def _post_animation(self, outcome: Outcome, lang: Lang) -> None:
        """Post the replay animation of a finished match in its channel (a failure is logged:
        the final board and the record are posted already)."""
        try:
            gif = await self.service.animation(outcome.match_id)
            if gif is None:
                return
            await self._channel(outcome).send(
                t(lang, "replay_ready"),
                file=discord.File(io.BytesIO(gif), filename="replay.gif"),
            )
        except Exception:
            log.exception("could not post the replay of match %s", outcome.match_id)

    async def deliver_private(self, outcome: Outcome, lang: Lang) -> None:
        """DM every seat its secret decisions that were not sent yet, by this process or another
        (decision 5: a 403 marks the player "DMs closed", said once in the channel without the
        secret, and the "Decide" button serves them from then on; a DM is never retried)."""
        if not outcome.private_seats:
            return
        sent = self._dm_sent.setdefault(outcome.match_id, set())
        secrets = await self.service.private_decisions(outcome.match_id)  # every seat's at once
        wanted: dict[int, list[Decision]] = {}
        for seat in outcome.private_seats:
            user_id = outcome.user_of(seat)
            new = [d for d in secrets.get(user_id, ()) if d.key not in sent]
            if user_id > 0 and new:
                wanted[user_id] = new
        if not wanted:
            return
        # another process may have sent some already (it posted the state that opened them)
        pairs = [(user_id, d.key) for user_id, ds in wanted.items() for d in ds]
        fresh = await self.service.claim_private_sends(outcome.match_id, pairs)
        for user_id, ds in wanted.items():
            sent.update(d.key for d in ds)
            new = [d for d in ds if (user_id, d.key) in fresh]
            if not new:
                continue
            msg = ui.private_message(outcome, new, lang, where=f"<#{outcome.channel_id}>")
            await send_private(
                self.bot,
                self.service.dm,
                user_id,
                msg,
                channel=self._channel(outcome),
                closed_notice=t(lang, "dm_closed", who=f"<@{user_id}>"),
            )

    # ------------------------------------------------------------------ reading a click
    def _stale(self, outcome: Outcome) -> ServiceError:
        url = ui.board_link(outcome.guild_id, outcome.channel_id, outcome.turn_message_id)
        return ServiceError(ERR_STALE, "This choice is out of date.", message_url=url)

    async def _mine(self, match_id: int, user_id: int) -> tuple[Outcome, tuple[Decision, ...]]:
        """The clicker's open decisions: read at its first click, then kept in its session
        until the match changes (raises match_over, not_seated)."""
        return await self._sessions.open(match_id, user_id)

    async def _decision_of(
        self, click: DecisionClick, user_id: int
    ) -> tuple[Outcome, tuple[Decision, ...], Decision]:
        """The clicker's open decision the click names (see ``PickerSessions.decision``)."""
        fp = None if click.verb == "o" else click.fp
        try:
            return await self._sessions.decision(click.match_id, user_id, click.key, fp)
        except OutOfDate as e:
            raise self._stale(e.outcome) from None

    async def _walk(
        self, outcome: Outcome, user_id: int, mine: Sequence[Decision], root: Decision, path: Path
    ) -> Chain:
        """Read ``path`` back (see ``PickerSessions.walk``); stale with a link when it no
        longer fits."""
        try:
            return await self._sessions.walk(outcome, user_id, mine, root, path)
        except OutOfDate:
            raise self._stale(outcome) from None

    # ------------------------------------------------------------------ clicks
    async def on_decision(self, interaction: Interaction, click: DecisionClick) -> None:
        """Entry point of every decision button and select."""
        await self._run(interaction, lambda: self._decision(interaction, click))

    async def on_number(self, interaction: Interaction, click: DecisionClick, text: str) -> None:
        """Entry point of the number modal (``click.path`` chose the numeric option)."""
        await self._run(interaction, lambda: self._number(interaction, click, text))

    async def _decision(self, interaction: Interaction, click: DecisionClick) -> None:
        uid = interaction.user.id
        outcome, mine, root = await self._decision_of(click, uid)
        try:
            path = ROOT if click.verb == "o" else parse_path(click.path)
            if click.values:
                path = extend(path, Token.parse(click.values[0]))
        except ValueError:
            raise self._stale(outcome) from None
        chain = await self._walk(outcome, uid, mine, root, path)
        if chain.last.needs_number:
            seats = outcome.seats
            lang = lang_of(interaction.locale)
            modal = number_modal(outcome.match_id, root, path, chain.last, lang, seats)
            await interaction.response.send_modal(modal)
            return
        fresh = not is_ephemeral(interaction)
        if fresh:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        await self.work_slot(interaction)
        await self._advance(
            interaction, outcome, root, path, chain, fresh, selected=bool(click.values),
            submit=click.verb == "s", page=click.page,
        )  # fmt: skip

    async def _number(self, interaction: Interaction, click: DecisionClick, text: str) -> None:
        uid = interaction.user.id
        outcome, mine, root = await self._decision_of(click, uid)
        try:
            path = parse_path(click.path)
        except ValueError:
            raise self._stale(outcome) from None
        chain = await self._walk(outcome, uid, mine, root, path)
        option = chain.last.option
        if option is None or option.number is None or not path[-1]:
            raise self._stale(outcome)
        lo, hi = option.number.min, option.number.max
        try:
            n = int(text.strip())
        except ValueError:
            n = None
        if n is None or n not in option.number:
            top = "…" if hi is None else hi
            raise ServiceError("bad_number", "Not a number in range.", min=lo, max=top)
        last = path[-1][-1]
        path = path[:-1] + (path[-1][:-1] + (Token("o", last.index, n),),)
        chain = await self._walk(outcome, uid, mine, root, path)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.work_slot(interaction)
        await self._advance(interaction, outcome, root, path, chain, True)

    async def _advance(
        self,
        interaction: Interaction,
        outcome: Outcome,
        root: Decision,
        path: Path,
        chain: Chain,
        fresh: bool,
        *,
        selected: bool = False,
        submit: bool = False,
        page: int = 0,
    ) -> None:
        """Show what comes next after a click: the next question, the next decision of the
        chain, a confirmation (after a select), or submit the answers."""
        lang = lang_of(interaction.locale)
        seats = outcome.seats
        last = chain.last
        view = chain.view if chain.view is not None else outcome.view
        so_far = [answer_text(s, seats, lang) for s in chain.steps[:-1]]
        if not last.complete:
            shown = picker(
                outcome.match_id, root, path, last, view, seats, lang,
                so_far=so_far, page=page,
            )  # fmt: skip
            await self._show(interaction, shown, fresh)
            return
        if not submit:
            nxt = await self._sessions.following(chain)
            if nxt is not None:
                step, view = nxt
                so_far.append(answer_text(last, seats, lang))
                shown = picker(
                    outcome.match_id, root, path + ((),), step, view, seats, lang, so_far=so_far
                )
                await self._show(interaction, shown, fresh)
                return
            if selected:
                prev = walk(last.decision, path[-1][:-1])
                items = choices_of(prev, seats, lang)
                choice = next((c for c in items if c.token == path[-1][-1]), None)
                shown = confirm(
                    outcome.match_id, root, path, last, choice, view, seats, lang,
                    so_far=so_far,
                )  # fmt: skip
                await self._show(interaction, shown, fresh)
                return
        await self._answer(interaction, outcome, root, chain, fresh)

    async def _answer(
        self, interaction: Interaction, outcome: Outcome, root: Decision, chain: Chain, fresh: bool
    ) -> None:
        """Submit every answer of the chain in one call, post the new turn message."""
        actions = chain.answers()
        done = await self.service.submit(
            outcome.channel_id,
            interaction.user.id,
            actions,
            key=root.key,
            match_id=outcome.match_id,
        )
        lang = self._remember_lang(outcome.match_id, interaction)
        moved = move_text(chain.steps, outcome.seats, lang)
        name = shown_user(interaction)
        await self.post_outcome(done, lang, headline=t(lang, "moved", name=name, move=moved))
        text = t(lang_of(interaction.locale), "done")
        if fresh:
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.edit_original_response(content=text, attachments=[], view=None)

    async def _show(self, interaction: Interaction, shown: Picker, fresh: bool) -> None:
        png = None
        if shown.draw is not None:
            png = await images.draw(shown.draw, "a picker", self.service.painter)
        files = [discord.File(io.BytesIO(png), filename=shown.filename)] if png else []
        if fresh:
            await interaction.followup.send(
                shown.content, files=files, view=shown.view, ephemeral=True
            )
        else:
            await interaction.edit_original_response(
                content=shown.content, attachments=files, view=shown.view
            )

    # ------------------------------------------------------------------ other buttons
    async def _click_decide(self, interaction: Interaction, click: Click) -> None:
        """The turn message's "Decide": the clicker's secret decisions, for them alone."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.work_slot(interaction)
        lang = lang_of(interaction.locale)
        outcome, mine = await self._mine(click.match_id, interaction.user.id)
        secret = [d for d in mine if d.private]
        if not secret:
            await interaction.followup.send(t(lang, "nothing_secret"), ephemeral=True)
            return
        await reply_private(interaction, ui.private_message(outcome, secret, lang))

    async def _click_undo(self, interaction: Interaction, click: Click) -> None:
        await interaction.response.defer()
        await self.work_slot(interaction)
        outcome = await self.service.current(channel_id(interaction), render=False)
        if outcome.match_id != click.match_id or outcome.version != click.version:
            raise self._stale(outcome)
        await self._undo(interaction)

    async def _click_tiles(self, interaction: Interaction, click: Click) -> None:
        await self._tiles(interaction)
