"""Presenters of ``/carcassonne leaderboard``, ``stats`` and ``history``: plain
:class:`~bot.ui.message.Message` data, no Discord calls.

The leaderboard's and history's page buttons carry their page in the custom id
(``carc:0:<page>:lboard`` / ``carc:0:<page>:hist:<scope>``), so they work after a restart.
"""

from __future__ import annotations

import discord
from discord import ui

from app.ratings import Standing
from app.stats import HistoryPage, PlayerStats
from bot.ui.components import CarcButton
from bot.ui.message import COLOUR, Message
from storage import GameResult
from words.i18n import Lang, t
from words.names import shown_name

#: the history's scopes (in the page buttons' custom ids)
CHANNEL, SERVER = "c", "s"


def _mention(user_id: int) -> str:
    return f"<@{user_id}>"


def _pager(action: str, page: int, pages: int, lang: Lang, *args: object) -> ui.View | None:
    """Previous / next buttons of a paged answer (none when one page holds everything)."""
    if pages <= 1:
        return None
    view = ui.View(timeout=None)
    view.add_item(
        CarcButton(0, max(page - 1, 0), action, *args, label=t(lang, "page_prev"),
                   disabled=page <= 0)
    )  # fmt: skip
    view.add_item(
        CarcButton(0, min(page + 1, pages - 1), action, *args, label=t(lang, "page_next"),
                   disabled=page >= pages - 1)
    )  # fmt: skip
    return view


def pages_of(total: int, size: int) -> int:
    return max(1, -(-total // size))


def leaderboard_message(standings: list[Standing], page: int, pages: int, lang: Lang) -> Message:
    """A page of the server's leaderboard."""
    embed = discord.Embed(title=t(lang, "lb_title"), colour=COLOUR)
    if standings:
        embed.description = "\n".join(
            t(lang, "lb_line", place=s.place, player=_mention(s.user_id), rating=s.rating,
              games=s.games)
            for s in standings
        )  # fmt: skip
    else:
        embed.description = t(lang, "lb_empty")
    embed.set_footer(text=t(lang, "lb_page", page=page + 1, pages=pages))
    return Message(embed=embed, view=_pager("lboard", page, pages, lang))


def _table(game: GameResult, lang: Lang) -> str:
    lines = []
    for s in sorted(game.seats, key=lambda s: (s.rank, s.seat)):
        gone = f" ({t(lang, 'hi_left')})" if s.left else ""
        lines.append(f"{s.rank}. {shown_name(s.name)} — **{s.score}**{gone}")
    if not game.rated:
        lines.append(f"*{t(lang, 'hi_unrated')}*")
    return "\n".join(lines)


def _heading(game: GameResult, lang: Lang) -> str:
    date = f"<t:{int(game.finished_at)}:d>"
    return t(lang, "hi_game", id=game.match_id, game=t(lang, f"game_{game.game}"), date=date)


def stats_message(stats: PlayerStats, name: str, lang: Lang) -> Message:
    """A player's stats on this server."""
    player = shown_name(name)
    embed = discord.Embed(title=t(lang, "st_title", player=player), colour=COLOUR)
    if stats.games == 0:
        embed.description = t(lang, "st_none", player=player)
        return Message(embed=embed)
    embed.add_field(name=t(lang, "st_games"), value=str(stats.games))
    embed.add_field(name=t(lang, "st_wins"), value=str(stats.wins))
    embed.add_field(name=t(lang, "st_mean"), value=f"{stats.mean_score:.1f}")
    if stats.seconds_per_move is not None:
        pace = stats.seconds_per_move
        value = f"{pace:.0f} s" if pace < 120 else f"{pace / 60:.1f} min"
        embed.add_field(name=t(lang, "st_pace"), value=value)
    if stats.rating is None:
        rating = t(lang, "st_unrated")
    else:
        rating = t(lang, "st_rating_value", rating=stats.rating, trend=f"{stats.trend:+d}",
                   world=stats.global_rating)  # fmt: skip
    embed.add_field(name=t(lang, "st_rating"), value=rating, inline=False)
    favourites = ", ".join(
        f"{t(lang, f'exp.{e}')} ({n})" for e, n in stats.favourite_expansions
    ) or t(lang, "st_base_only")
    embed.add_field(name=t(lang, "st_expansions"), value=favourites[:1024], inline=False)
    last = "\n".join(
        f"{_heading(g, lang)}: {_place_of(g, stats.user_id)}" for g in stats.last_games
    )
    embed.add_field(name=t(lang, "st_last"), value=last[:1024] or "—", inline=False)
    return Message(embed=embed)


def _place_of(game: GameResult, user_id: int) -> str:
    mine = next((s for s in game.seats if s.user_id == user_id), None)
    if mine is None:
        return "—"
    return f"#{mine.rank}/{len(game.seats)} · {mine.score}"


def history_message(history: HistoryPage, scope: str, lang: Lang) -> Message:
    """A page of finished games with their final tables."""
    title = t(lang, "hi_title_server" if scope == SERVER else "hi_title")
    embed = discord.Embed(title=title, colour=COLOUR)
    if not history.games:
        embed.description = t(lang, "hi_empty")
    for game in history.games:
        embed.add_field(name=_heading(game, lang)[:256], value=_table(game, lang)[:1024],
                        inline=False)  # fmt: skip
    pages = pages_of(history.total, history.size)
    embed.set_footer(text=t(lang, "lb_page", page=history.page + 1, pages=pages))
    return Message(embed=embed, view=_pager("hist", history.page, pages, lang, scope))


def record_message(
    game: GameResult, record: str | None, lang: Lang, animation: bytes | None = None
) -> Message:
    """One finished game's final table, with its record file and replay animation when there
    are."""
    embed = discord.Embed(title=_heading(game, lang)[:256], colour=COLOUR)
    embed.description = _table(game, lang)
    files = []
    if record is not None:
        name = f"{game.game}-{game.match_id}.json"
        files.append((name, record.encode()))
        embed.set_footer(text=t(lang, "hi_record", id=game.match_id))
    if animation:
        files.append((f"replay-{game.match_id}.gif", animation))
    return Message(embed=embed, files=files)
