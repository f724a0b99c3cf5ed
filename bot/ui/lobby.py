"""The tile game's lobby message: who joined, the rules, and the host's pickers.

The lobby message carries, besides Join / Leave / Start, a multi-select of every expansion the
engine's registry offers and a "Rules" select of the options of the chosen expansions (each
with its current value); choosing a rule opens an ephemeral picker of its choices. Only the
host may change them (the service refuses anyone else). Every name comes from the engine's
catalogue (``exp.<id>``, ``opt.<key>``, ``help.<key>``, ``choice.<value>``), so a new expansion
appears here without any change to the bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from app.base import LobbyInfo
from app.clocks import seconds_a_move
from app.options import MatchOptions, Rule, expansion_ids, rules_for
from bot.ui.components import CarcButton, CarcSelect
from bot.ui.message import COLOUR, QUIET, Message
from engine.core import messages
from words.i18n import Lang, t
from words.phrases import mention

#: options per select (Discord's limit)
SELECT_MAX = 25
#: the value of the rules select's last option that turns to the next page of rules
MORE = "more"
#: the AI select's options: a level adds an AI seat at it, this value takes the last one out
AI_LEVELS = ("easy", "normal", "strong")
AI_REMOVE = "remove"


def _word(lang: Lang, key: str, fallback: str) -> str:
    """The catalogue's text of ``key``, or ``fallback`` when nobody registered it."""
    text = t(lang, key)
    return fallback if text == key else text


def expansion_name(expansion_id: str, lang: Lang) -> str:
    return _word(lang, f"exp.{expansion_id}", expansion_id)


def rule_name(rule: Rule, lang: Lang) -> str:
    return _word(lang, f"opt.{rule.key}", rule.key)


def rule_help(rule: Rule, lang: Lang) -> str:
    return _word(lang, f"help.{rule.key}", rule.help)


def value_text(rule: Rule, value: Any, lang: Lang) -> str:
    """A rule value in words: on/off for a yes-or-no rule, else ``choice.<key>.<value>`` or
    ``choice.<value>`` from the catalogue, else the value itself."""
    if isinstance(value, bool):
        return t(lang, "rule_on" if value else "rule_off")
    for key in (f"choice.{rule.key}.{value}", f"choice.{value}"):
        if messages.has(key):
            return t(lang, key)
    return str(value)


# ------------------------------------------------------------------------------- lobby
def lobby_message(info: LobbyInfo[MatchOptions], lang: Lang) -> Message:
    """The lobby: players, the rules in words, and (while open) its buttons and pickers."""
    host = next((s for s in info.players if s.user_id == info.host_id), None)
    names = ", ".join(mention(s) for s in info.players) or "—"
    embed = discord.Embed(
        title=t(lang, "lobby_title"),
        description=t(
            lang,
            "lobby_body",
            host=mention(host) if host else f"<@{info.host_id}>",
            players=info.options.players,
            count=len(info.players),
            names=names,
        ),
        colour=COLOUR,
    )
    embed.add_field(name=t(lang, "rules_title"), value=options_text(info.options, lang)[:1024])
    if info.status != "lobby":
        embed.set_footer(text=t(lang, "lobby_closed"))
        return Message(embed=embed, mentions=QUIET)
    return Message(embed=embed, view=lobby_view(info, lang), mentions=QUIET)


def lobby_view(info: LobbyInfo[MatchOptions], lang: Lang, *, page: int = 0) -> discord.ui.View:
    """Join / Leave / Start, the expansions select and (when they have any) the rules select."""
    m = info.match_id
    view = discord.ui.View(timeout=None)
    view.add_item(
        CarcButton(m, 0, "join", label=t(lang, "btn_join"), style=discord.ButtonStyle.success)
    )
    view.add_item(CarcButton(m, 0, "leave", label=t(lang, "btn_leave")))
    view.add_item(
        CarcButton(m, 0, "start", label=t(lang, "btn_start"), style=discord.ButtonStyle.primary)
    )
    ids = expansion_ids()[:SELECT_MAX]
    if ids:
        chosen = set(info.options.expansions)
        options = [
            discord.SelectOption(label=expansion_name(e, lang)[:100], value=e, default=e in chosen)
            for e in ids
        ]
        view.add_item(
            CarcSelect(
                m,
                0,
                "exps",
                options=options,
                placeholder=t(lang, "lobby_expansions"),
                row=1,
                min_values=0,
                max_values=len(options),
            )
        )
    rules = rules_for(info.options.expansions)
    if rules:
        view.add_item(rules_select(m, info.options, rules, page, lang))
    view.add_item(ai_select(info, lang))
    return view


def ai_select(info: LobbyInfo[MatchOptions], lang: Lang) -> CarcSelect:
    """The host's AI seats: one at each level, or the last one out (when there is one)."""
    options = [
        discord.SelectOption(label=t(lang, f"ai_add_{level}")[:100], value=level, emoji="🤖")
        for level in AI_LEVELS
    ]
    if any(p.user_id <= 0 for p in info.players):
        options.append(discord.SelectOption(label=t(lang, "ai_remove")[:100], value=AI_REMOVE))
    return CarcSelect(
        info.match_id, 0, "ai", options=options, placeholder=t(lang, "ai_pick"), row=3
    )


def rules_select(
    match_id: int, options: MatchOptions, rules: Sequence[Rule], page: int, lang: Lang
) -> CarcSelect:
    """The "Rules" select: one option per rule of a chosen expansion, showing its value; past
    25 rules, pages of 24 and a last option that turns the page."""
    per_page = SELECT_MAX if len(rules) <= SELECT_MAX else SELECT_MAX - 1
    pages = max(1, -(-len(rules) // per_page))
    page = min(max(page, 0), pages - 1)
    shown = rules[page * per_page : (page + 1) * per_page]
    items = [
        discord.SelectOption(
            label=(
                f"{expansion_name(r.expansion, lang)} · {rule_name(r, lang)}: "
                f"{value_text(r, options.rule(r.key), lang)}"
            )[:100],
            value=r.key,
            description=rule_help(r, lang)[:100] or None,
        )
        for r in shown
    ]
    if pages > 1:
        nxt = (page + 1) % pages
        items.append(
            discord.SelectOption(
                label=t(lang, "rules_more", page=nxt + 1, pages=pages)[:100],
                value=f"{MORE}{nxt}",
            )
        )
    return CarcSelect(
        match_id, 0, "rule", page, options=items, placeholder=t(lang, "lobby_rules"), row=2
    )


def rule_picker(match_id: int, rule: Rule, current: Any, lang: Lang) -> tuple[str, discord.ui.View]:
    """The host's ephemeral picker of one rule: its help, its value now, a button per choice."""
    text = t(
        lang,
        "rule_pick",
        name=rule_name(rule, lang),
        expansion=expansion_name(rule.expansion, lang),
        help=rule_help(rule, lang),
        value=value_text(rule, current, lang),
    )
    view = discord.ui.View(timeout=None)
    for i, choice in enumerate(rule.choices[:SELECT_MAX]):
        now = type(choice) is type(current) and choice == current
        view.add_item(
            CarcButton(
                match_id,
                0,
                "ruleset",
                rule.key,
                i,
                label=value_text(rule, choice, lang),
                style=discord.ButtonStyle.success if now else discord.ButtonStyle.secondary,
                row=i // 5,
            )
        )
    return text, view


# ------------------------------------------------------------------------------- rules text
def options_text(options: MatchOptions, lang: Lang, followers: int = 7) -> str:
    """The match's rules in words: players, farms, tiny cities, reminders, expansions and the
    value of every rule of each chosen expansion."""
    farm = t(lang, f"opt_{options.farm_scoring}")
    tiny = t(lang, f"tiny_{options.tiny_city}")
    reminder = (
        t(lang, "reminder_on", minutes=options.reminder_minutes)
        if options.reminder_minutes
        else t(lang, "reminder_off")
    )
    body = t(
        lang,
        "rules_body",
        players=options.players,
        farm=farm,
        tiny=tiny,
        reminder=reminder,
        followers=followers,
    )
    if options.clock != "off":
        minutes = round(seconds_a_move(options) / 60)
        body += "\n" + t(lang, f"clock_{options.clock}", minutes=minutes, hours=minutes // 60)
    names = ", ".join(expansion_name(x, lang) for x in options.expansions)
    lines = [body, t(lang, "rules_expansions", names=names or t(lang, "exp_none"))]
    for e in options.expansions:
        rules = [r for r in rules_for((e,))]
        if rules:
            values = " · ".join(
                f"{rule_name(r, lang)}: {value_text(r, options.rule(r.key), lang)}" for r in rules
            )
            lines.append(f"• {expansion_name(e, lang)} — {values}")
    return "\n".join(lines)


#: what ``/carcassonne defaults expansions:`` takes for "no expansion"
NO_EXPANSION = frozenset({"none", "base", "ninguna", "ninguno", "base game", "juego base", "-"})


def find_expansion_id(word: str) -> str | None:
    """The expansion a server manager typed: its id or its name in either language (case
    and spaces do not matter); ``None`` when no expansion is called so."""
    want = " ".join(word.lower().split())
    for e in expansion_ids():
        names = {e, *(expansion_name(e, lang).lower() for lang in Lang)}
        if want in names or want.replace(" ", "_") == e:
            return e
    return None


def expansion_entries(typed: str, lang: Lang) -> list[tuple[str, str]]:
    """Autocomplete of ``/carcassonne defaults expansions:``: what is typed so far with each
    expansion not yet in it (or the base game), as ``(name, value)``: names in words, values
    as ids separated by commas."""
    done, _, last = typed.rpartition(",")
    chosen = [e for e in (find_expansion_id(p) for p in done.split(",") if p.strip()) if e]
    want = last.strip().lower()
    out: list[tuple[str, str]] = []
    if not chosen and (
        not want or "none".startswith(want) or t(lang, "exp_none").lower().startswith(want)
    ):
        out.append((t(lang, "exp_none"), "none"))
    for e in expansion_ids():
        name = expansion_name(e, lang)
        if e in chosen or (want and want not in name.lower() and want not in e):
            continue
        ids = [*chosen, e]
        out.append((", ".join(expansion_name(x, lang) for x in ids), ", ".join(ids)))
    return out


def defaults_embed(options: MatchOptions, lang: Lang, *, saved: bool = False) -> discord.Embed:
    """The server's defaults for new tables (``/carcassonne defaults``): saved just now, or
    as they stand, and how to change them."""
    embed = discord.Embed(
        title=t(lang, "defaults_saved" if saved else "defaults_title"),
        description=options_text(options, lang),
        colour=COLOUR,
    )
    embed.set_footer(text=t(lang, "defaults_how"))
    return embed


def rules_embed(options: MatchOptions, lang: Lang, followers: int = 7) -> discord.Embed:
    return discord.Embed(
        title=t(lang, "rules_title"),
        description=options_text(options, lang, followers),
        colour=COLOUR,
    )
