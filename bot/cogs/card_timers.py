"""The card game's timers: a passed deadline lets an AI stand-in play, an async clock warns the
player once. The tile game's scheduler (bot/cogs/upkeep.py) fires them with its own; a
collaborator of the :class:`~bot.cogs.cardgame.CardGame` cog."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.cardgame import CardOutcome
from bot.ui.message import pinging
from words.i18n import lang_of
from words.i18n_cards import tc
from words.names import shown_name

if TYPE_CHECKING:
    from bot.cogs.cardgame import CardGame


class CardTimers:
    """Fires the card game's due timers (see the module docstring)."""

    def __init__(self, cog: CardGame) -> None:
        self.cog = cog

    async def fire(self, now: float) -> int:
        """The card game's timers due at ``now`` (the tile game's scheduler calls this): a
        passed deadline lets an AI stand-in play, said on the new table message."""
        sent = 0
        for due in await self.cog.service.due_timers(now):
            if due.kind == "warning":  # an async clock: the player is reminded once
                table = await self.cog.service.match(due.match_id)
                if table.version == due.version and table.deadline is not None:
                    when = f"<t:{int(table.deadline)}:R>"
                    mention = f"<@{due.user_id}>"
                    text = tc(lang_of(table.lang), "clock_warning", mention=mention, when=when)
                    await self.cog._channel(table).send(
                        text, allowed_mentions=pinging([due.user_id])
                    )
                    sent += 1
                continue
            if due.kind != "deadline":
                continue
            done = await self.cog.service.play_timeout(due.match_id, due.user_id, due.version)
            if done is None:
                continue
            out: CardOutcome = done.played.outcome
            lang = lang_of(out.lang)
            who = next(s.name for s in out.seats if s.user_id == due.user_id)
            headline = tc(lang, "card_timed_out", who=shown_name(who))
            await self.cog._channel(out).send(headline)
            await self.cog.post_table(out, lang)
            await self.cog.deliver_hands(out, lang)
            self.cog._drive(out)
            sent += 1
        return sent
