"""The card game's decisions in Discord: the clicks of any card decision's buttons and selects.

A mixin of the :class:`~bot.cogs.cardgame.CardGame` cog, the card-game twin of
:class:`bot.cogs.turns.TurnPickers`. The buttons and pickers are the shared presenter's
(:mod:`bot.ui.decisions`, drawn with :data:`~bot.ui.components.CARD_KIT`); every click names
its match, its decision's key and the answers so far (:mod:`app.choices`) and is checked
against the clicker's open decisions (``CardMatchService.private_view``): a click on a closed
decision is refused as out of date, one of a decision still open is accepted whatever other
seats did meanwhile. The answer is submitted by key (``CardMatchService.submit(key=...)``).
The card game has no chains (one decision is one move) and no numeric options.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from app.base import ERR_NO_MATCH, ERR_NOT_YOUR_TURN, ERR_STALE, ServiceError
from app.cardgame import CardMatchService, CardOutcome
from app.choices import (
    ROOT,
    Path,
    Token,
    extend,
    find_decision,
    fingerprint,
    parse_path,
    walk,
)
from bot.cogs.base import GameCog
from bot.cogs.turns import is_ephemeral
from bot.ui import cardgame as cui
from bot.ui.components import CARD_KIT, DecisionClick
from bot.ui.decisions import Picker, choices_of, confirm, picker
from engine.cardgame import CardAction, CardSeatView
from engine.core.decisions import Decision
from words.i18n import lang_of
from words.i18n_cards import tc

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


class CardPickers(GameCog):
    """Every card decision click (see the module docstring)."""

    @property
    def service(self) -> CardMatchService:
        """The card game's service (the cog's own property: it may be absent in a sync run)."""
        raise NotImplementedError

    async def _submit(
        self,
        interaction: Interaction,
        match_id: int,
        action: CardAction,
        version: int | None,
        *,
        key: str | None = None,
    ) -> CardOutcome:
        raise NotImplementedError

    # ------------------------------------------------------------------ reading a click
    async def _mine(self, match_id: int, user_id: int) -> tuple[CardOutcome, CardSeatView]:
        try:
            outcome, sv = await self.service.private_view(match_id, user_id)
        except ServiceError as e:
            if e.key == ERR_NO_MATCH:
                raise ServiceError("match_over", "This match is over.") from None
            raise
        if sv.public.over:
            raise ServiceError("match_over", "This match is over.")
        return outcome, sv

    @staticmethod
    def _stale() -> ServiceError:
        return ServiceError(ERR_STALE, "This choice is out of date.")

    async def _decision_of(
        self, click: DecisionClick, user_id: int
    ) -> tuple[CardOutcome, CardSeatView, Decision]:
        """The clicker's open decision the click names.

        Raises:
            ServiceError: not_seated, match_over, not_your_turn (another seat's decision),
                stale (closed, or its options changed since the picker was drawn).
        """
        outcome, sv = await self._mine(click.match_id, user_id)
        decision = find_decision(sv.own_decisions, click.key)
        if decision is None:
            other = find_decision(sv.public.decisions, click.key)
            if other is not None and other.seat != sv.seat:
                raise ServiceError(
                    ERR_NOT_YOUR_TURN,
                    "This choice is another player's.",
                    current_user_id=outcome.seats[other.seat].user_id,
                )
            raise self._stale()
        if click.verb != "o" and click.fp != fingerprint(decision):
            raise self._stale()
        return outcome, sv, decision

    # ------------------------------------------------------------------ clicks
    async def on_decision(self, interaction: Interaction, click: DecisionClick) -> None:
        """Entry point of every card decision button and select."""
        await self._run(interaction, lambda: self._decision(interaction, click))

    async def on_number(self, interaction: Interaction, click: DecisionClick, text: str) -> None:
        """No card decision asks a number: such a modal can only be out of date."""

        async def body() -> None:
            raise self._stale()

        await self._run(interaction, body)

    async def _decision(self, interaction: Interaction, click: DecisionClick) -> None:
        outcome, sv, decision = await self._decision_of(click, interaction.user.id)
        try:
            path: Path = ROOT if click.verb == "o" else parse_path(click.path)
            if click.values:
                path = extend(path, Token.parse(click.values[0]))
            if len(path) != 1:
                raise ValueError("the card game chains no decisions")
            step = walk(decision, path[0])
        except ValueError:
            raise self._stale() from None
        fresh = not is_ephemeral(interaction)
        if fresh:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        await self.work_slot(interaction)
        lang = lang_of(interaction.locale)
        seats, m = outcome.seats, outcome.match_id
        if not step.complete:
            shown = picker(
                m,
                decision,
                path,
                step,
                sv.public,  # type: ignore[arg-type]  # a card view: no board targets to draw
                seats,
                lang,
                page=click.page,
                kit=CARD_KIT,
            )
            await self._show(interaction, shown, fresh)
            return
        if click.values and click.verb != "s":
            prev = walk(decision, path[0][:-1])
            choice = next(
                (c for c in choices_of(prev, seats, lang) if c.token == path[0][-1]), None
            )
            shown = confirm(m, decision, path, step, choice, sv.public, seats, lang, kit=CARD_KIT)  # type: ignore[arg-type]  # noqa: E501
            await self._show(interaction, shown, fresh)
            return
        action = step.action()
        assert isinstance(action, CardAction)
        await self._submit(interaction, m, action, None, key=decision.key)
        # only the clicker reads this (ephemeral, or their DM): the card may be named
        text = tc(lang, "played_private", move=cui.move_text(action, lang, secret_ok=True))
        if fresh:
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.edit_original_response(content=text, attachments=[], view=None)

    async def _show(self, interaction: Interaction, shown: Picker, fresh: bool) -> None:
        """A picker: as a new ephemeral reply, or in place of the one clicked. A card picker
        has no picture (its targets are cards, see ``bot.ui.decisions.picture``)."""
        if fresh:
            await interaction.followup.send(shown.content, view=shown.view, ephemeral=True)
        else:
            await interaction.edit_original_response(content=shown.content, view=shown.view)
