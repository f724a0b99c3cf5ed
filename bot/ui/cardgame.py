"""Card-game messages and components: lobby, table message, private hand.

The game's choices are engine decisions (:mod:`engine.cardgame.decisions`) drawn by the
presenter both games share (:mod:`bot.ui.decisions`) with the card game's component classes
(``cardd:``/``cardds:``, :data:`bot.ui.components.CARD_KIT`). The lobby and My hand buttons
carry ``cardg:<match>:<version>:<action>[:<arg>]``. All are dispatched to the bot's
``card_handler`` (the card-game cog). Everything here is pure presentation: the functions
return :class:`bot.ui.presenters.Message` objects.

Secrecy: :func:`table_message` and :func:`event_lines` take the public view (and its public
decisions) and public events only; :func:`hand_message` takes the user's own
:class:`CardSeatView` and is sent only to that user (DM or ephemeral).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from app.base import SeatInfo
from app.cardgame import CardLobby, CardOutcome
from bot.ui.components import (
    CARD_KIT,
    ButtonBody,
    CardDecisionButton,
    CardDecisionSelect,
    SelectBody,
    template,
)
from bot.ui.decisions import decision_buttons
from bot.ui.message import QUIET, Message, pinging
from engine.cardgame import (
    CardSeatView,
)
from words.cards import (
    error_text as error_text,
)
from words.cards import (
    event_lines as event_lines,
)
from words.cards import (
    face_text as face_text,
)
from words.cards import (
    final_table as final_table,
)
from words.cards import (
    hand_text as hand_text,
)
from words.cards import (
    kind_text as kind_text,
)
from words.cards import (
    mention as mention,
)
from words.cards import (
    move_text as move_text,
)
from words.cards import (
    reason_text as reason_text,
)
from words.cards import (
    scores_text as scores_text,
)
from words.cards import (
    seat_name as seat_name,
)
from words.i18n import Lang, t
from words.i18n_cards import tc
from words.names import shown_name

log = logging.getLogger(__name__)

COLOUR = discord.Colour.from_rgb(150, 100, 50)
EMBED_TEXT = 4000


class CardButton(ButtonBody, ui.DynamicItem[ui.Button[Any]], template=template("cardg")):
    """A card-game button (persistent: everything is in its custom_id)."""

    prefix = "cardg"
    handler = "card_handler"


class CardSelect(SelectBody, ui.DynamicItem[ui.Select[Any]], template=template("cardgs")):
    """A card-game select menu (the private card picker)."""

    prefix = "cardgs"
    handler = "card_handler"


CARD_DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    CardButton,
    CardSelect,
    CardDecisionButton,
    CardDecisionSelect,
)


# ------------------------------------------------------------------------------ words
# ------------------------------------------------------------------------------ lobby
def lobby_message(info: CardLobby, lang: Lang) -> Message:
    names = (
        ", ".join(
            f"🤖 {shown_name(s.name)}" if s.user_id <= 0 else mention(s.user_id)
            for s in info.players
        )
        or "—"
    )
    embed = discord.Embed(
        title=tc(lang, "lobby_title"),
        description=tc(
            lang,
            "lobby_body",
            host=mention(info.host_id),
            count=len(info.players),
            players=info.options.players,
            names=names,
        ),
        colour=COLOUR,
    )
    if info.status != "lobby":
        embed.set_footer(text=tc(lang, "lobby_closed"))
        return Message(embed=embed, mentions=QUIET)
    view = ui.View(timeout=None)
    m = info.match_id
    view.add_item(
        CardButton(m, 0, "join", label=tc(lang, "btn_join"), style=discord.ButtonStyle.success)
    )
    view.add_item(CardButton(m, 0, "leave", label=tc(lang, "btn_leave")))
    view.add_item(
        CardButton(m, 0, "start", label=tc(lang, "btn_start"), style=discord.ButtonStyle.primary)
    )
    return Message(embed=embed, view=view, mentions=QUIET)


# ------------------------------------------------------------------------------ public
def _clip(lines: Sequence[str], limit: int = EMBED_TEXT) -> str:
    out: list[str] = []
    size = 0
    for line in reversed(lines):  # keep the latest lines
        if size + len(line) + 1 > limit:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(reversed(out))


def waiting_text(outcome: CardOutcome, lang: Lang) -> str:
    view = outcome.view
    names = {s.user_id: s for s in outcome.seats}
    who = ", ".join(
        f"🤖 {shown_name(names[u].name)}" if u <= 0 and u in names else mention(u)
        for u in outcome.awaiting_users
    )
    if view.step == "setup":
        return tc(lang, "waiting_setup", who=who)
    if view.step == "choose":
        return tc(lang, "waiting_choose", who=who)
    return tc(lang, "waiting_play", who=who)


def table_message(
    outcome: CardOutcome,
    lang: Lang,
    png: bytes | None,
    *,
    headline: str | None = None,
    quiet: frozenset[int] = frozenset(),
) -> Message:
    """The channel message after a change: what happened, the table image, whose turn, buttons
    (``quiet`` players are named but not pinged: ``/carcassonne pings off``).

    Built from the public view and public events only.
    """
    view = outcome.view
    lines = event_lines(outcome.events, outcome.seats, lang)
    if view.over:
        title = tc(lang, "final_title")
    else:
        title = tc(lang, "table_title", round=max(view.round, 1), rounds=view.rounds)
    embed = discord.Embed(title=title, description=_clip(lines) or None, colour=COLOUR)
    embed.add_field(name=tc(lang, "scores_field"), value=scores_text(view, outcome.seats))
    if view.over:
        embed.add_field(name=tc(lang, "final_table"), value=final_table(view, outcome.seats))
    if view.over and view.winners:
        names = ", ".join(seat_name(outcome.seats, s) for s in view.winners)
        key = "winners" if len(view.winners) == 1 else "winners_many"
        embed.add_field(name="—", value=tc(lang, key, names=names), inline=False)
    files = [("table.png", png)] if png else []
    if files:
        embed.set_image(url="attachment://table.png")
    content = headline or ""
    if not view.over:
        content = (content + "\n" if content else "") + waiting_text(outcome, lang)
        if outcome.deadline is not None:  # each player sees it in their own time zone
            content += "\n" + t(lang, "deadline_line", when=f"<t:{int(outcome.deadline)}:R>")
    return Message(
        content=content or None,
        embed=embed,
        files=files,
        view=None if view.over else table_view(outcome, lang),
        mentions=pinging(s.user_id for s in outcome.seats if s.user_id not in quiet),
    )


def table_view(outcome: CardOutcome, lang: Lang) -> ui.View:
    """Buttons of the table message: every public decision open now (through the shared
    decision presenter, named by seat when several seats decide at once), and My hand."""
    view = ui.View(timeout=None)
    pv, seats = outcome.view, outcome.seats
    deciding = {d.seat for d in pv.decisions}
    for d in pv.decisions[:20]:
        who = seats[d.seat].name if len(deciding) > 1 else None
        for button in decision_buttons(outcome.match_id, d, seats, lang, who=who, kit=CARD_KIT):
            view.add_item(button)
    view.add_item(CardButton(outcome.match_id, 0, "hand", label=tc(lang, "btn_hand")))
    return view


# ------------------------------------------------------------------------------ private
def hand_message(
    match_id: int,
    sv: CardSeatView,
    seats: Sequence[SeatInfo],
    lang: Lang,
    png: bytes | None,
    *,
    where: str = "",
) -> Message:
    """The seat's hand (text and picture) with the buttons of its private decisions, drawn by
    the shared decision presenter: the DM, and the ephemeral My hand / ``/cardgame hand``."""
    files = [("hand.png", png)] if png and sv.hand else []
    view = private_view(match_id, sv, seats, lang)
    return Message(content=hand_text(sv, lang, where=where), files=files, view=view, mentions=QUIET)


def private_view(
    match_id: int, sv: CardSeatView, seats: Sequence[SeatInfo], lang: Lang
) -> ui.View | None:
    """The buttons of the seat's own private decisions (none: ``None``)."""
    mine = [d for d in sv.own_decisions if d.private]
    if not mine or sv.public.over:
        return None
    view = ui.View(timeout=None)
    for row, d in enumerate(mine[:5]):
        for button in decision_buttons(match_id, d, seats, lang, row=row, kit=CARD_KIT):
            view.add_item(button)
    return view
