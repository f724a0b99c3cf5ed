"""The card game's words, with no Discord in them: events, hands, moves, scores and refusals
in a player's language. The Discord presenters (:mod:`bot.ui.cardgame`) and the console
(:mod:`console.cards`) both use them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.base import SeatInfo, ServiceError
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
from words.i18n import Lang
from words.i18n_cards import card_text, row_name, tc
from words.names import shown_name
from words.phrases import seat_mark


def seat_name(seats: Sequence[SeatInfo], seat: int) -> str:
    return f"{seat_mark(seat)} {shown_name(seats[seat].name)}"


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def face_text(code: str, lang: Lang = Lang.EN) -> str:
    """A card named by its code, in words (:func:`words.i18n_cards.card_text`)."""
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
