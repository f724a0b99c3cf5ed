"""Turn service results into Discord messages: text, embeds, files and component views.

Nothing here talks to Discord or the database; each function returns the keyword arguments of a
``send``/``edit`` call (a :class:`Message`), so the cogs stay "parse → service → present".
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.i18n import Lang, t
from bot.services.matches import LobbyInfo, MatchOptions, Outcome, SeatInfo, ServiceError
from bot.ui.components import CarcButton, CarcSelect
from bot.ui.legal import NONE_SPOT, Cell, choice_key
from engine import Deploy, PublicView, Rotation
from engine.carcassonne.events import Event, PointsScored, TileDiscarded
from engine.carcassonne.expansions.traders_builders import BuilderBonus, GoodsTaken
from engine.carcassonne.scoring import Award, ScoreItem
from engine.carcassonne.tiles import tile
from rendering import spot_letter
from rendering.board import goods_held
from rendering.style import SEAT_STYLES

PAGE = 25  # options per select (Discord's limit)
#: spot buttons in a picker (4 rows of 5; the last row holds "No follower" and "Back")
MAX_SPOT_BUTTONS = 20
COLOUR = discord.Colour.from_rgb(70, 120, 60)
ALLOWED = discord.AllowedMentions(everyone=False, roles=False, users=True)
QUIET = discord.AllowedMentions.none()
EMBED_TEXT = 4000  # keep under the 4096 description limit
#: a colour mark per colour name of the renderer's seat table (rendering/style.py SEAT_STYLES)
COLOUR_EMOJI = {
    "red": "🔴",
    "blue": "🔵",
    "yellow": "🟡",
    "green": "🟢",
    "black": "⚫",
    "pink": "🩷",
    "neutral": "⚪",
}
#: the mark beside each seat's name: the colour its figures have on the board
SEAT_EMOJI = tuple(COLOUR_EMOJI.get(s.colour_name, "⚪") for s in SEAT_STYLES)
KIND_EMOJI = {"city": "🏰", "road": "🛣️", "cloister": "⛪", "farm": "🌾", "field": "🌾"}


@dataclass
class Message:
    """Arguments of one send/edit: call ``kwargs()`` for each attempt (files are single-use)."""

    content: str | None = None
    embed: discord.Embed | None = None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions = QUIET

    def discord_files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.files]

    def kwargs(self, *, edit: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"allowed_mentions": self.mentions}
        if edit:
            out["content"] = self.content
            out["embed"] = self.embed
            out["attachments"] = self.discord_files()
            out["view"] = self.view
            return out
        if self.content is not None:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if self.files:
            out["files"] = self.discord_files()
        if self.view is not None:
            out["view"] = self.view
        return out


# ------------------------------------------------------------------------------- small words
def mention(seat: SeatInfo) -> str:
    return f"<@{seat.user_id}>" if seat.user_id else seat.name


def seat_label(seat: SeatInfo) -> str:
    return f"{SEAT_EMOJI[seat.seat % len(SEAT_EMOJI)]} {seat.name}"


def rotation_label(rotation: Rotation | int) -> str:
    return f"{Rotation(rotation).degrees}°"


def spot_label(spot: str, lang: Lang) -> str:
    """``city:NW`` -> ``city (north, west)`` / ``ciudad (norte, oeste)``."""
    if spot == NONE_SPOT:
        return t(lang, "none_choice")
    if spot == "cloister":
        return t(lang, "kind_cloister")
    kind, _, where = spot.partition(":")
    word = t(lang, f"kind_{kind}")
    if where.startswith("inner"):
        return f"{word} ({t(lang, 'middle')})"
    if kind == "field":
        sides: list[str] = []
        for half in where.split("."):
            s = half[:1].upper()
            if s in "NESW" and s not in sides:
                sides.append(s)
        return f"{word} ({', '.join(t(lang, f'side_{s}') for s in sides)})"
    return f"{word} ({', '.join(t(lang, f'side_{c}') for c in where if c in 'NESW')})"


def figure_label(figure: str, lang: Lang) -> str:
    """``large`` -> ``large follower`` / ``seguidor grande`` (unknown kinds show as they are)."""
    text = t(lang, f"fig_{figure}")
    return figure if text == f"fig_{figure}" else text


def deploy_label(deploy: Deploy | str, lang: Lang) -> str:
    """A figure placement in words: ``city (north) · large follower``; a bare spot is a follower.

    The figure is named only when it is not a plain follower, so base-game labels stay short."""
    if isinstance(deploy, str):
        return spot_label(deploy, lang)
    where = spot_label(deploy.spot, lang)
    if deploy.figure == "follower":
        return where
    return f"{where} · {figure_label(deploy.figure, lang)}"


_GOODS = ("wine", "grain", "cloth")


def goods_text(goods: Sequence[int], lang: Lang) -> str:
    """``(1, 0, 2)`` -> ``1 wine, 2 cloth`` (nothing -> ``0``)."""
    parts = [t(lang, f"good_{k}", n=n) for k, n in zip(_GOODS, goods, strict=False) if n]
    return ", ".join(parts) or "0"


_EDGE_LETTER = {"city": "C", "road": "R", "field": "F"}


def tile_label(tile_id: str | None) -> str:
    """A tile's id with its N/E/S/W edges, e.g. ``BA/RCr (N C · E R · S F · W R)``."""
    if tile_id is None:
        return "—"
    try:
        td = tile(tile_id)
    except Exception:
        return tile_id
    edges = " · ".join(
        f"{side} {_EDGE_LETTER.get(str(e.value), str(e.value)[:1].upper())}"
        for side, e in zip("NESW", td.edges, strict=True)
    )
    extra = " ⛪" if td.has_cloister else ""
    return f"{tile_id} ({edges}){extra}"


_ES_PARTS = (
    ("supplies a completed city of", "abastece una ciudad completada de"),
    ("2-tile city", "ciudad de 2 piezas"),
    ("tiles around", "piezas alrededor"),
    ("completed cities", "ciudades completadas"),
    ("completed city", "ciudad completada"),
    ("tiles", "piezas"),
    ("tile", "pieza"),
    ("shields", "escudos"),
    ("shield", "escudo"),
    ("cloister", "monasterio"),
)


def _part(text: str, lang: Lang) -> str:
    if lang is Lang.ES:
        for en, es in _ES_PARTS:
            text = text.replace(en, es)
    return text


def reason(item: ScoreItem, lang: Lang) -> str:
    """The itemised reason of a score: ``city completed: 3 tiles × 2 + 1 shield × 2 = 8``."""
    kind = t(lang, f"kind_{item.category}") if f"kind_{item.category}" in _KINDS else item.category
    state = t(lang, "completed") if item.complete else (t(lang, "at_end") if item.final else "")
    head = f"{KIND_EMOJI.get(item.category, '•')} {kind} {state}".rstrip()
    detail = " + ".join(_part(p, lang) for p in item.parts)
    return f"{head}: {detail} = {item.points}" if detail else f"{head}: {item.points}"


_KINDS = {"kind_city", "kind_road", "kind_field", "kind_farm", "kind_cloister"}


def event_lines(events: Iterable[Event], seats: Sequence[SeatInfo], lang: Lang) -> list[str]:
    """One line per scoring (who, how many points, why) and per discarded tile."""
    by_seat = {s.seat: s for s in seats}
    lines = []
    for e in events:
        if isinstance(e, PointsScored):
            if e.awards:
                who = awards_text(e.awards, by_seat)
                lines.append(t(lang, "points_line", who=who, reason=reason(e.item, lang)))
        elif isinstance(e, TileDiscarded):
            lines.append(t(lang, "discarded", tile=e.tile))
        elif isinstance(e, BuilderBonus):
            lines.append(t(lang, "builder_bonus", name=_name(by_seat, e.seat)))
        elif isinstance(e, GoodsTaken):
            name = _name(by_seat, e.seat)
            lines.append(t(lang, "goods_taken", name=name, goods=goods_text(e.goods, lang)))
    return lines


def awards_text(awards: Iterable[Award], by_seat: dict[int, SeatInfo]) -> str:
    """Who got how many points for one scoring: ``**Ann, Bob** +8`` when the winners share the
    points, else each with their own (``**Ann** +9 (pig +1), **Bob** +8``): a pig, say, gives
    its owner more than the other winners of the same farm."""
    groups: dict[tuple[int, tuple[str, ...]], list[str]] = {}
    for a in awards:
        groups.setdefault((a.points, a.bonus), []).append(_name(by_seat, a.seat))
    parts = []
    for (points, bonus), names in groups.items():
        why = f" ({', '.join(bonus)})" if bonus else ""
        parts.append(f"**{', '.join(names)}** +{points}{why}")
    return ", ".join(parts)


def _name(by_seat: dict[int, SeatInfo], seat: int) -> str:
    return by_seat[seat].name if seat in by_seat else f"#{seat + 1}"


def _clip(lines: Sequence[str], limit: int = EMBED_TEXT) -> str:
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 1 > limit - 20:
            out.append(f"… (+{len(lines) - i})")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def scores_text(view: PublicView, seats: Sequence[SeatInfo]) -> str:
    by_seat = {s.seat: s for s in seats}
    rows = []
    for p in sorted(view.players, key=lambda p: p.seat):
        s = by_seat.get(p.seat, SeatInfo(p.seat, 0, p.name))
        marker = " ◀" if p.seat == view.current and not view.over else ""
        rows.append(f"{seat_label(s)}: **{p.score}**{marker}")
    return "\n".join(rows)


def followers_text(view: PublicView, seats: Sequence[SeatInfo]) -> str:
    by_seat = {s.seat: s for s in seats}
    return " · ".join(
        f"{SEAT_EMOJI[p.seat % len(SEAT_EMOJI)]} {by_seat[p.seat].name if p.seat in by_seat else p.name}"
        f" {p.supply.get('follower', 0)}"
        for p in view.players
    )


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
        p.setdefault("reason", str(err))
    if err.key in ("bad_cell", "bad_rotation", "bad_spot", "missing_perms"):
        pass
    text = t(lang, err.key, **p)
    return text if text != err.key else str(err)


# ------------------------------------------------------------------------------- lobby
def lobby_message(info: LobbyInfo, lang: Lang) -> Message:
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
    embed.add_field(name=t(lang, "rules_title"), value=options_text(info.options, lang))
    view = discord.ui.View(timeout=None)
    if info.status == "lobby":
        m = info.match_id
        view.add_item(
            CarcButton(m, 0, "join", label=t(lang, "btn_join"), style=discord.ButtonStyle.success)
        )
        view.add_item(CarcButton(m, 0, "leave", label=t(lang, "btn_leave")))
        view.add_item(
            CarcButton(m, 0, "start", label=t(lang, "btn_start"), style=discord.ButtonStyle.primary)
        )
    else:
        embed.set_footer(text=t(lang, "lobby_closed"))
    return Message(embed=embed, view=view if info.status == "lobby" else None, mentions=QUIET)


def options_text(options: MatchOptions, lang: Lang, followers: int = 7) -> str:
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
    names = ", ".join(t(lang, f"exp_{x}") for x in options.expansions) or t(lang, "exp_none")
    return f"{body}\n{t(lang, 'rules_expansions', names=names)}"


# ------------------------------------------------------------------------------- turns
def turn_message(
    outcome: Outcome,
    lang: Lang,
    png: bytes,
    *,
    headline: str | None = None,
) -> Message:
    """The public turn message: board image, whose turn, drawn tile, tiles left, scores, buttons."""
    view = outcome.view
    seats = outcome.seats
    cur = seats[view.current]
    if view.step == "deploy":
        ask = t(lang, "your_turn_deploy", mention=mention(cur))
    else:
        ask = t(lang, "your_turn_place", mention=mention(cur), tile=view.drawn or "—")
    lines = event_lines(outcome.events, seats, lang)
    content = "\n".join(x for x in (headline, ask) if x)
    embed = discord.Embed(
        title=t(lang, "turn_title", turn=view.turn + 1),
        description=_clip(lines) if lines else None,
        colour=COLOUR,
    )
    embed.add_field(name=t(lang, "field_tile"), value=tile_label(view.drawn), inline=True)
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
        mentions=ALLOWED,
    )


def turn_view(outcome: Outcome, lang: Lang) -> discord.ui.View:
    m, v = outcome.match_id, outcome.version
    view = discord.ui.View(timeout=None)
    if outcome.view.step == "deploy":
        view.add_item(
            CarcButton(
                m,
                v,
                "spots",
                label=t(lang, "btn_follower"),
                style=discord.ButtonStyle.primary,
                emoji="🧍",
            )
        )
        view.add_item(CarcButton(m, v, "pass", label=t(lang, "btn_no_follower")))
        view.add_item(
            CarcButton(m, v, "undo", label=t(lang, "btn_undo"), style=discord.ButtonStyle.danger)
        )
    else:
        view.add_item(
            CarcButton(
                m,
                v,
                "place",
                label=t(lang, "btn_place"),
                style=discord.ButtonStyle.primary,
                emoji="🧩",
            )
        )
    view.add_item(CarcButton(m, v, "tiles", label=t(lang, "btn_tiles")))
    return view


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
    embed = discord.Embed(title=t(lang, "final_title"), colour=discord.Colour.gold())
    if lines:
        embed.description = _clip([f"**{t(lang, 'final_scoring')}**", *lines], 3500)
    embed.add_field(name=t(lang, "final_table"), value=table[:1024], inline=False)
    files = [("board.png", png)]
    if outcome.animation:
        files.append(("replay.gif", outcome.animation))
    if outcome.record_json:
        name = f"carcassonne-{outcome.match_id}.json"
        files.append((name, outcome.record_json.encode()))
        embed.set_footer(text=t(lang, "record_note", file=name))
    content = "\n".join(x for x in (headline, f"🏁 {win}") if x)
    return Message(content=content[:2000], embed=embed, files=files, mentions=ALLOWED)


def outcome_message(
    outcome: Outcome, lang: Lang, png: bytes, *, headline: str | None = None
) -> Message:
    if outcome.finished or outcome.view.over:
        return final_message(outcome, lang, png, headline=headline)
    return turn_message(outcome, lang, png, headline=headline)


# ------------------------------------------------------------------------------- info
def score_embed(outcome: Outcome, lang: Lang) -> discord.Embed:
    embed = discord.Embed(title=t(lang, "score_title"), colour=COLOUR)
    embed.description = scores_text(outcome.view, outcome.seats)
    embed.add_field(
        name=t(lang, "field_followers"), value=followers_text(outcome.view, outcome.seats)
    )
    embed.add_field(name=t(lang, "field_left"), value=str(outcome.view.tiles_left))
    if _has_expansion_figures(outcome.view):
        embed.add_field(
            name=t(lang, "field_figures"),
            value=figures_text(outcome.view, outcome.seats, lang),
            inline=False,
        )
    goods = goods_held(outcome.view)
    if goods is not None:
        by_seat = {s.seat: s for s in outcome.seats}
        rows = [
            f"{SEAT_EMOJI[p.seat % len(SEAT_EMOJI)]} {_name(by_seat, p.seat)}: "
            f"{goods_text(goods[p.seat], lang)}"
            for p in sorted(outcome.view.players, key=lambda p: p.seat)
            if p.seat < len(goods)
        ]
        embed.add_field(name=t(lang, "field_goods"), value="\n".join(rows), inline=False)
    return embed


def _has_expansion_figures(view: PublicView) -> bool:
    return any(k != "follower" for p in view.players for k in p.supply)


def figures_text(view: PublicView, seats: Sequence[SeatInfo], lang: Lang) -> str:
    """Each player's figures left by kind: ``🟡 Alice: 6 follower, 1 large follower, ...``."""
    by_seat = {s.seat: s for s in seats}
    rows = []
    for p in sorted(view.players, key=lambda p: p.seat):
        kinds = ", ".join(f"{n} {figure_label(k, lang)}" for k, n in p.supply.items())
        rows.append(f"{SEAT_EMOJI[p.seat % len(SEAT_EMOJI)]} {_name(by_seat, p.seat)}: {kinds}")
    return "\n".join(rows)


def tiles_embed(remaining: dict[str, int], lang: Lang) -> discord.Embed:
    total = sum(remaining.values())
    lines = [f"`{tid}` × {n} — {tile_label(tid).partition(' ')[2]}" for tid, n in remaining.items()]
    embed = discord.Embed(title=t(lang, "tiles_title", count=total), colour=COLOUR)
    embed.description = _clip(lines) if lines else "—"
    return embed


def rules_embed(options: MatchOptions, lang: Lang, followers: int = 7) -> discord.Embed:
    return discord.Embed(
        title=t(lang, "rules_title"),
        description=options_text(options, lang, followers),
        colour=COLOUR,
    )


def help_embed(lang: Lang) -> discord.Embed:
    return discord.Embed(
        title=t(lang, "help_title"), description=t(lang, "help_body"), colour=COLOUR
    )


# ------------------------------------------------------------------------------- pickers
def cells_picker(
    match_id: int, version: int, cells: Sequence[Cell], page: int, lang: Lang
) -> discord.ui.View:
    """A select of the numbered cells (25 per page) with page buttons when there are more."""
    pages = max(1, (len(cells) + PAGE - 1) // PAGE)
    page = min(max(page, 0), pages - 1)
    chunk = cells[page * PAGE : (page + 1) * PAGE]
    options = [
        discord.SelectOption(
            label=t(lang, "cell_option", cell=c.number),
            value=str(c.number),
            description=t(
                lang,
                "cell_desc",
                x=c.pos.x,
                y=c.pos.y,
                rotations=", ".join(rotation_label(r) for r in c.rotations),
            )[:100],
        )
        for c in chunk
    ]
    view = discord.ui.View(timeout=None)
    first, last = (chunk[0].number, chunk[-1].number) if chunk else (0, 0)
    view.add_item(
        CarcSelect(
            match_id,
            version,
            "cell",
            page,
            options=options,
            placeholder=t(lang, "picker_page", first=first, last=last),
            row=0,
        )
    )
    if pages > 1:
        view.add_item(
            CarcButton(
                match_id,
                version,
                "page",
                page - 1,
                label=t(lang, "btn_prev"),
                row=1,
                disabled=page == 0,
            )
        )
        view.add_item(
            CarcButton(
                match_id,
                version,
                "page",
                page + 1,
                label=t(lang, "btn_next"),
                row=1,
                disabled=page >= pages - 1,
            )
        )
    return view


def rotation_picker(
    match_id: int, version: int, cell: Cell, chosen: Rotation | None, lang: Lang
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for r in cell.rotations:
        style = discord.ButtonStyle.success if r == chosen else discord.ButtonStyle.secondary
        view.add_item(
            CarcButton(
                match_id,
                version,
                "rot",
                cell.number,
                r.degrees,
                label=rotation_label(r),
                style=style,
                emoji="🔄",
                row=0,
            )
        )
    if chosen is not None:
        view.add_item(
            CarcButton(
                match_id,
                version,
                "ok",
                cell.number,
                chosen.degrees,
                label=t(lang, "btn_confirm"),
                style=discord.ButtonStyle.primary,
                row=1,
            )
        )
    view.add_item(
        CarcButton(
            match_id, version, "page", (cell.number - 1) // PAGE, label=t(lang, "btn_back"), row=1
        )
    )
    return view


def spots_picker(
    match_id: int,
    version: int,
    spots: Sequence[Deploy | str],
    lang: Lang,
    *,
    cell: Cell | None = None,
    rotation: Rotation | None = None,
) -> discord.ui.View:
    """Figure-placement buttons (lettered like the spots image) plus "No follower".

    A plain string is a follower spot. With ``cell`` it finishes place+deploy in one call."""
    view = discord.ui.View(timeout=None)
    prefix: tuple[object, ...] = ()
    action = "fol"
    if cell is not None and rotation is not None:
        action = "dep"
        prefix = (cell.number, rotation.degrees)
    for i, spot in enumerate(spots[:MAX_SPOT_BUTTONS]):
        view.add_item(
            CarcButton(
                match_id,
                version,
                action,
                *prefix,
                spot if isinstance(spot, str) else choice_key(spot),
                label=f"{spot_letter(i)} · {deploy_label(spot, lang)}"[:80],
                style=discord.ButtonStyle.primary,
                emoji="🧍",
                row=i // 5,
            )
        )
    row = min(4, (min(len(spots), MAX_SPOT_BUTTONS) + 4) // 5)
    view.add_item(
        CarcButton(
            match_id, version, action, *prefix, NONE_SPOT, label=t(lang, "btn_no_follower"), row=row
        )
    )
    if cell is not None and rotation is not None:
        view.add_item(
            CarcButton(
                match_id,
                version,
                "rot",
                cell.number,
                rotation.degrees,
                label=t(lang, "btn_back"),
                row=row,
            )
        )
    return view
