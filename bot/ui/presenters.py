"""Turn service results into Discord messages: text, embeds, files and component views.

Nothing here talks to Discord or the database; each function returns the keyword arguments of a
``send``/``edit`` call (a :class:`Message`), so the cogs stay "parse → service → present". The
words of game things are in :mod:`words.phrases`, the lobby in :mod:`bot.ui.lobby`, any
decision's buttons and pickers in :mod:`bot.ui.decisions`; this module re-exports some of them
for the cogs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import discord

from app.base import SeatInfo, ServiceError
from app.results import Outcome
from bot.ui.components import CarcButton
from bot.ui.counters import counters_fields
from bot.ui.decisions import decision_buttons
from bot.ui.lobby import lobby_message, options_text, rules_embed
from bot.ui.message import ALLOWED, COLOUR, QUIET, Message, pinging
from engine import PublicView
from engine.carcassonne import rules
from engine.carcassonne.tiles import load_tile_set
from engine.core.decisions import Decision
from words.i18n import Lang, t
from words.labels import decision_prompt
from words.phrases import (
    EMBED_TEXT,
    SEAT_EMOJI,
    clip,
    event_lines,
    figure_label,
    figures_text,
    followers_text,
    has_other_figures,
    mention,
    reason,
    scores_text,
    seat_label,
    spot_label,
    tile_label,
)

__all__ = [
    "ALLOWED",
    "COLOUR",
    "EMBED_TEXT",
    "QUIET",
    "SEAT_EMOJI",
    "Message",
    "board_link",
    "error_text",
    "event_lines",
    "figure_label",
    "final_message",
    "help_embed",
    "lobby_message",
    "options_text",
    "outcome_message",
    "private_message",
    "reason",
    "remaining_tiles",
    "rules_embed",
    "score_embed",
    "spot_label",
    "tile_label",
    "tiles_embed",
    "turn_message",
]


def board_link(guild_id: int | None, channel_id: int, message_id: int | None) -> str | None:
    if message_id is None or guild_id is None:
        return None
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


# ------------------------------------------------------------------------------- errors
def error_text(err: ServiceError, lang: Lang) -> str:
    p = dict(err.params)
    if err.key == "not_your_turn":
        uid = p.get("current_user_id")
        p["current"] = f"<@{uid}>" if uid else "?"
    if err.key == "stale":
        url = p.get("message_url")
        p["link"] = t(lang, "stale_link", url=url) if url else ""
    if err.key == "match_exists":
        url = p.get("url") or p.get("message_url")
        p["where"] = f" ({url})" if url else ""
    if err.key == "illegal":
        p["reason"] = err.reason(lang.value)
    text = t(lang, err.key, **p)
    return text if text != err.key else str(err)


# ------------------------------------------------------------------------------- turns
def turn_message(
    outcome: Outcome,
    lang: Lang,
    png: bytes,
    *,
    headline: str | None = None,
    quiet: frozenset[int] = frozenset(),
) -> Message:
    """The public turn message: board image, who must decide what (every open public decision,
    and who owes a secret one), drawn tile, tiles left, scores, and the decisions' buttons."""
    view = outcome.view
    seats = outcome.seats
    by_seat = {s.seat: s for s in seats}
    programs = {s.seat for s in seats if s.program or s.user_id <= 0}
    asks = [
        t(
            lang,
            "decision_line",
            mention=_who(by_seat, d.seat),
            prompt=decision_prompt(d, seats, lang),
        )
        for d in outcome.decisions
        if d.seat not in programs
    ]
    thinking = sorted(programs & ({d.seat for d in outcome.decisions} | set(outcome.private_seats)))
    asks += [t(lang, "thinking_line", who=_who(by_seat, seat)) for seat in thinking]
    people = [s for s in outcome.private_seats if s not in programs]
    if people:
        who = ", ".join(_who(by_seat, s) for s in people)
        asks.append(t(lang, "secret_line", mentions=who))
        if outcome.answered_seats:  # who has answered a sealed round (never what)
            done = ", ".join(_name(by_seat, s) for s in outcome.answered_seats)
            asks.append(t(lang, "secret_answered", names=done))
    if outcome.deadline is not None:  # each player sees it in their own time zone
        asks.append(t(lang, "deadline_line", when=f"<t:{int(outcome.deadline)}:R>"))
    lines = event_lines(outcome.events, seats, lang)
    content = "\n".join(x for x in (headline, *asks) if x)
    embed = discord.Embed(
        title=t(lang, "turn_title", turn=view.turn + 1),
        description=clip(lines) if lines else None,
        colour=COLOUR,
    )
    embed.add_field(name=t(lang, "field_tile"), value=tile_label(view.drawn, lang), inline=True)
    embed.add_field(name=t(lang, "field_left"), value=str(view.tiles_left), inline=True)
    embed.add_field(name=t(lang, "field_scores"), value=scores_text(view, seats), inline=False)
    embed.add_field(
        name=t(lang, "field_followers"), value=followers_text(view, seats), inline=False
    )
    return Message(
        content=content[:2000],
        embed=embed,
        files=[("board.png", png)],
        view=turn_view(outcome, lang),
        mentions=pinging(
            user
            for seat in {d.seat for d in outcome.decisions} | set(outcome.private_seats)
            if (user := outcome.user_of(seat)) not in quiet
        ),
    )


def _name(by_seat: dict[int, SeatInfo], seat: int) -> str:
    s = by_seat.get(seat)
    return seat_label(s) if s is not None else f"#{seat + 1}"


def _program(seat: SeatInfo | None) -> bool:
    return seat is not None and (seat.program or seat.user_id <= 0)


def _who(by_seat: dict[int, SeatInfo], seat: int) -> str:
    s = by_seat.get(seat)
    return mention(s) if s is not None else f"#{seat + 1}"


#: rows of a turn message for decisions' buttons (the last row holds Decide, Undo, Tiles)
DECISION_ROWS = 4


def turn_view(outcome: Outcome, lang: Lang) -> discord.ui.View:
    """One row of buttons per open public decision, then Decide (secret choices are open),
    Undo (a placement may be taken back) and Tiles left."""
    m, v = outcome.match_id, outcome.version
    view = discord.ui.View(timeout=None)
    by_seat = {s.seat: s for s in outcome.seats}
    people = [d for d in outcome.decisions if not _program(by_seat.get(d.seat))]
    decisions = people[:DECISION_ROWS]  # a program's decision has no buttons: it plays it
    several = len({d.seat for d in decisions}) > 1
    for row, d in enumerate(decisions):
        who = by_seat[d.seat].name if several and d.seat in by_seat else None
        for button in decision_buttons(m, d, outcome.seats, lang, row=row, who=who):
            view.add_item(button)
    last = DECISION_ROWS
    if outcome.private_seats:
        view.add_item(
            CarcButton(
                m,
                0,
                "decide",
                label=t(lang, "btn_decide"),
                style=discord.ButtonStyle.primary,
                emoji="🤫",
                row=last,
            )
        )
    if outcome.undo_seat is not None:
        view.add_item(
            CarcButton(
                m, v, "undo", label=t(lang, "btn_undo"), style=discord.ButtonStyle.danger, row=last
            )
        )
    view.add_item(CarcButton(m, v, "tiles", label=t(lang, "btn_tiles"), row=last))
    return view


def private_message(
    outcome: Outcome, decisions: Sequence[Decision], lang: Lang, *, where: str = ""
) -> Message:
    """A seat's secret decisions with their buttons, for a DM or the ephemeral "Decide"
    reply; ``where`` names the match's channel in a DM. Only ever sent to that seat."""
    seats = outcome.seats
    lines = [t(lang, "private_title", where=f" — {where}" if where else "")]
    lines += [f"• {decision_prompt(d, seats, lang)}" for d in decisions]
    view = discord.ui.View(timeout=None)
    for row, d in enumerate(decisions[:5]):
        for button in decision_buttons(outcome.match_id, d, seats, lang, row=row):
            view.add_item(button)
    return Message(content="\n".join(lines)[:2000], view=view)


def final_message(
    outcome: Outcome, lang: Lang, png: bytes, *, headline: str | None = None
) -> Message:
    """The end of the match: final scoring lines, the table, the winners, board, replay, record."""
    view = outcome.view
    seats = outcome.seats
    by_seat = {s.seat: s for s in seats}
    lines = event_lines(outcome.events, seats, lang)
    ranking = sorted(view.players, key=lambda p: (-p.score, p.seat))
    table = "\n".join(
        f"{i + 1}. {seat_label(by_seat.get(p.seat, SeatInfo(p.seat, 0, p.name)))} — **{p.score}**"
        for i, p in enumerate(ranking)
    )
    # after a resignation the service names the winner; otherwise the highest score wins
    win_seats = outcome.winners or view.winners
    winners = [by_seat[s] for s in win_seats if s in by_seat]
    best = max((p.score for p in view.players if p.seat in win_seats), default=0)
    win_names = ", ".join(mention(w) for w in winners)
    win = t(lang, "winner" if len(winners) == 1 else "winners", names=win_names, points=best)
    embed = discord.Embed(
        title=t(lang, "final_title"), colour=discord.Colour(0xF1C40F)
    )  # the winner's yellow
    if lines:
        embed.description = clip([f"**{t(lang, 'final_scoring')}**", *lines], 3500)
    embed.add_field(name=t(lang, "final_table"), value=table[:1024], inline=False)
    files = [("board.png", png)]
    if outcome.animation:
        files.append(("replay.gif", outcome.animation))
    if outcome.record_json:
        name = f"carcassonne-{outcome.match_id}.json"
        files.append((name, outcome.record_json.encode()))
        embed.set_footer(text=t(lang, "record_note", file=name))
    content = "\n".join(x for x in (headline, f"🏁 {win}") if x)
    return Message(
        content=content[:2000],
        embed=embed,
        files=files,
        mentions=pinging(s.user_id for s in outcome.seats),
    )


def outcome_message(
    outcome: Outcome,
    lang: Lang,
    png: bytes,
    *,
    headline: str | None = None,
    quiet: frozenset[int] = frozenset(),
) -> Message:
    """The turn message, or the final scores; ``quiet`` players are named but not pinged
    (``/carcassonne pings off``)."""
    if outcome.finished or outcome.view.over:
        return final_message(outcome, lang, png, headline=headline)
    return turn_message(outcome, lang, png, headline=headline, quiet=quiet)


# ------------------------------------------------------------------------------- info
def score_embed(outcome: Outcome, lang: Lang) -> discord.Embed:
    """Scores, followers and tiles left; every player's figures by kind when an expansion
    adds figures; and each expansion's public counters (goods, ...) per player."""
    view, seats = outcome.view, outcome.seats
    embed = discord.Embed(title=t(lang, "score_title"), colour=COLOUR)
    embed.description = scores_text(view, seats)
    embed.add_field(name=t(lang, "field_followers"), value=followers_text(view, seats))
    embed.add_field(name=t(lang, "field_left"), value=str(view.tiles_left))
    if has_other_figures(view):
        embed.add_field(
            name=t(lang, "field_figures"), value=figures_text(view, seats, lang), inline=False
        )
    for name, text in counters_fields(view, seats, lang):
        embed.add_field(name=name[:256], value=text[:1024] or "—", inline=False)
    return embed


def remaining_tiles(view: PublicView) -> dict[str, int]:
    """Tiles not yet drawn, by type: the tile data minus placed, discarded and drawn tiles."""
    total: Counter[str] = Counter()
    for set_id in rules.tile_sets_of(view.setup):
        for td in load_tile_set(set_id):
            if td.in_pile:
                total[td.id] += td.count
    used = Counter(tv.tile for tv in view.tiles)
    used.update(view.discarded)
    if view.drawn is not None:
        used[view.drawn] += 1
    out = {tid: n - used.get(tid, 0) for tid, n in total.items()}
    return {tid: n for tid, n in sorted(out.items()) if n > 0}


def tiles_embed(remaining: dict[str, int], lang: Lang) -> discord.Embed:
    total = sum(remaining.values())
    lines = [f"`{tid}` × {n} — {tile_label(tid, lang)}" for tid, n in remaining.items()]
    embed = discord.Embed(title=t(lang, "tiles_title", count=total), colour=COLOUR)
    embed.description = clip(lines) if lines else "—"
    return embed


def help_embed(lang: Lang) -> discord.Embed:
    return discord.Embed(
        title=t(lang, "help_title"), description=t(lang, "help_body"), colour=COLOUR
    )
