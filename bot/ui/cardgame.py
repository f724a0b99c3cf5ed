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
from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import ui

from app.base import SeatInfo, ServiceError
from app.cardgame import CardLobby, CardOutcome
from bot.i18n import Lang
from bot.i18n_cards import card_text, row_name, tc
from bot.ui.components import (
    CARD_KIT,
    ButtonBody,
    CardDecisionButton,
    CardDecisionSelect,
    SelectBody,
    template,
)
from bot.ui.decisions import decision_buttons
from bot.ui.message import QUIET, Message, pinging, shown_name
from bot.ui.words import seat_mark
from engine.cardgame import (
    AssignJoker,
    CardAction,
    CardPublicView,
    CardSeatView,
    ChooseWrongRow,
    LayJoker,
    PlaceFollower,
    PlayCard,
)
from engine.cardgame.cards import FACE_BY_CODE, Colour
from engine.cardgame.events import (
    CardEvent,
    CardPlayed,
    CardsCollected,
    CardsToChest,
    ChoiceMade,
    ChoiceNeeded,
    FollowerPlaced,
    GameEnded,
    JokerTurnedUp,
    PointsScored,
    RoundEnded,
    RoundStarted,
    SetupCardLaid,
)
from engine.cardgame.scoring import CardScoreItem

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
def seat_name(seats: Sequence[SeatInfo], seat: int) -> str:
    return f"{seat_mark(seat)} {shown_name(seats[seat].name)}"


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def face_text(code: str, lang: Lang = Lang.EN) -> str:
    """A card named by its code, in words (:func:`bot.i18n_cards.card_text`)."""
    face = FACE_BY_CODE.get(code)
    return card_text(face, lang) if face is not None else f"`{code}`"


def kind_text(kind: str, lang: Lang) -> str:
    try:
        return row_name(Colour(kind), lang)
    except ValueError:
        return kind


def reason_text(item: CardScoreItem, lang: Lang = Lang.EN) -> str:
    """The engine's itemised reason in ``lang`` (card codes are public by the time points are
    scored)."""
    return item.text(lang.value)


def error_text(err: ServiceError, lang: Lang) -> str:
    p = dict(err.params)
    if err.key == "not_your_turn":
        uid = p.get("current_user_id")
        p["current"] = mention(uid) if uid else "?"
    if err.key == "illegal":
        p["reason"] = err.reason(lang.value)
    text = tc(lang, err.key, **p)
    return text if text != err.key else str(err)


# ------------------------------------------------------------------------------ lobby
def lobby_message(info: CardLobby, lang: Lang) -> Message:
    names = ", ".join(mention(s.user_id) for s in info.players) or "—"
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
def event_lines(events: Iterable[CardEvent], seats: Sequence[SeatInfo], lang: Lang) -> list[str]:
    """One line per public event. Face-down plays never name their card (the event does not
    know it either)."""
    out: list[str] = []

    def who(seat: int) -> str:
        return seat_name(seats, seat)

    events = tuple(events)
    last = any(isinstance(e, GameEnded) for e in events)  # the rows' cards leave the game
    for e in events:
        if isinstance(e, SetupCardLaid):
            out.append(
                tc(lang, "ev_setup_laid", card=face_text(e.card, lang), row=row_name(e.row, lang))
            )
        elif isinstance(e, JokerTurnedUp):
            out.append(tc(lang, "ev_joker_up", card=face_text(e.card, lang), who=who(e.dealer)))
        elif isinstance(e, RoundStarted):
            out.append(
                tc(
                    lang,
                    "ev_round",
                    round=e.round,
                    dealer=who(e.dealer),
                    cards=e.cards,
                    first=who(e.first),
                )
            )
        elif isinstance(e, CardPlayed):
            row = row_name(e.row, lang)
            if e.face_down or e.card is None:
                out.append(tc(lang, "ev_played_down", who=who(e.seat), row=row))
            else:
                out.append(
                    tc(lang, "ev_played_up", who=who(e.seat), card=face_text(e.card, lang), row=row)
                )
        elif isinstance(e, FollowerPlaced):
            out.append(
                tc(lang, "ev_follower", who=who(e.seat), row=row_name(e.row, lang), n=e.secured)
            )
        elif isinstance(e, CardsCollected):
            cards = ", ".join(face_text(c, lang) for c in e.cards) or "—"
            out.append(
                tc(lang, "ev_collected", who=who(e.seat), row=row_name(e.row, lang), cards=cards)
            )
        elif isinstance(e, ChoiceNeeded):
            what = (
                tc(lang, "what_wrong_row", card=face_text(e.card, lang))
                if e.what == "wrong-row"
                else tc(lang, "what_joker")
            )
            out.append(tc(lang, "ev_choice_needed", who=who(e.seat), what=what))
        elif isinstance(e, ChoiceMade):
            out.append(tc(lang, "ev_choice_made", who=who(e.seat), what=_choice(e, lang)))
        elif isinstance(e, PointsScored):
            a = e.award
            out.append(
                tc(
                    lang,
                    "ev_points",
                    who=who(a.seat),
                    points=a.points,
                    reason=reason_text(a.item, lang),
                )
            )
        elif isinstance(e, CardsToChest):
            out.append(tc(lang, "ev_chest", who=who(e.seat), n=e.count))
        elif isinstance(e, RoundEnded):
            if last:
                out.append(tc(lang, "ev_last_round_end", round=e.round, left=e.left_in_rows))
            else:
                key, dealer = "ev_round_end", who(e.next_dealer)
                out.append(tc(lang, key, round=e.round, who=dealer, left=e.left_in_rows))
        elif isinstance(e, GameEnded):
            out.append(tc(lang, "ev_game_end"))
    return out


def _choice(e: ChoiceMade, lang: Lang) -> str:
    if e.what == "wrong-row":
        key = "choice_keep" if e.choice == "keep" else "choice_cash"
        return tc(lang, key, card=face_text(e.card, lang))
    return tc(lang, "choice_assign", kind=kind_text(e.card, lang))


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


def scores_text(view: CardPublicView, seats: Sequence[SeatInfo]) -> str:
    return "\n".join(
        f"{seat_name(seats, p.seat)}: **{p.score}** · 🂠 {p.hand_size}" for p in view.players
    )


def final_table(view: CardPublicView, seats: Sequence[SeatInfo]) -> str:
    """Final standings: score, then building cards (the tie-break), best first."""
    ranked = sorted(view.players, key=lambda p: (-p.score, -len(p.chest), p.seat))
    return "\n".join(
        f"{i}. {seat_name(seats, p.seat)} — **{p.score}** · 🏠 {len(p.chest)}"
        for i, p in enumerate(ranked, start=1)
    )


def waiting_text(outcome: CardOutcome, lang: Lang) -> str:
    view = outcome.view
    who = ", ".join(mention(u) for u in outcome.awaiting_users)
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
) -> Message:
    """The channel message after a change: what happened, the table image, whose turn, buttons.

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
    return Message(
        content=content or None,
        embed=embed,
        files=files,
        view=None if view.over else table_view(outcome, lang),
        mentions=pinging(s.user_id for s in outcome.seats),
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
def hand_text(sv: CardSeatView, lang: Lang, *, where: str = "") -> str:
    """A seat's private summary: hand, next card face down or not, own face-down cards, choices
    owed. Sent only to that seat."""
    lines = [f"**{tc(lang, 'hand_title', channel=where)}**" if where else ""]
    if sv.hand:
        lines.append(tc(lang, "hand_cards", cards=", ".join(card_text(f, lang) for f in sv.hand)))
    else:
        lines.append(tc(lang, "hand_empty"))
    if sv.public.step == "play" and sv.hand:
        lines.append(tc(lang, "hand_next_down" if sv.next_card_face_down else "hand_next_up"))
    if sv.face_down:
        cards = ", ".join(
            f"{card_text(f.face, lang)} ({row_name(f.row, lang)})" for f in sv.face_down
        )
        lines.append(tc(lang, "hand_face_down", cards=cards))
    for p in sv.public.pending:
        if p.seat == sv.seat:
            what = (
                tc(lang, "what_wrong_row", card=face_text(p.card, lang))
                if p.what == "wrong-row"
                else tc(lang, "what_joker")
            )
            lines.append(tc(lang, "hand_owed", what=what))
    if sv.seat in sv.public.awaiting and not sv.public.over:
        lines.append(tc(lang, "hand_turn"))
    return "\n".join(line for line in lines if line)


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


def move_text(action: CardAction, lang: Lang, *, secret_ok: bool) -> str:
    """A move in words; ``secret_ok`` only for the player's own ephemeral confirmation."""
    if isinstance(action, PlayCard):
        row = row_name(action.row, lang)
        return f"{face_text(action.card, lang)} → {row}" if secret_ok else f"🂠 → {row}"
    if isinstance(action, PlaceFollower):
        return f"🧍 → {row_name(action.row, lang)}"
    if isinstance(action, LayJoker):
        return f"🃏 → {row_name(action.row, lang)}"
    if isinstance(action, ChooseWrongRow):
        key = "choice_keep" if action.keep else "choice_cash"
        return tc(lang, key, card=face_text(action.card, lang))
    if isinstance(action, AssignJoker):
        return tc(lang, "choice_assign", kind=kind_text(action.animal, lang))
    return action.notation()
