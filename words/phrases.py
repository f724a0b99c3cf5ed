"""The tile game in words: names with their colour marks, spots, figures, tiles, scoring lines,
event lines and each player's counters.

Nothing here names an expansion. An expansion's events say what players should read through
``Event.prompt()`` (a message key and parameters, :mod:`engine.core.messages`); its figures,
options and counters are looked up by key (``fig.<kind>``, ``exp.<id>`` ...) through
:func:`words.i18n.t`, which falls back to the engine's catalogue.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.base import SeatInfo
from engine import Deploy, PublicView, Rotation
from engine.carcassonne.events import Event, PointsScored, TileDiscarded
from engine.carcassonne.scoring import Award, ScoreItem
from engine.core import messages
from engine.core.decisions import Prompt
from rendering.style import SEAT_STYLES
from words.i18n import TEXTS, Lang, t
from words.names import shown_name
from words.places import part_words, tile_words

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


def seat_mark(seat: int) -> str:
    """The colour mark of a seat (a neutral figure's seat, -1, is white)."""
    return SEAT_EMOJI[seat % len(SEAT_EMOJI)] if seat >= 0 else COLOUR_EMOJI["neutral"]


def mention(seat: SeatInfo) -> str:
    """A seat in message text: its player's mention, or (a seat a program plays) a robot
    and its name (an AI seat has no Discord user to ping)."""
    if seat.user_id <= 0 or seat.program:
        return f"🤖 {shown_name(seat.name)}"
    return f"<@{seat.user_id}>"


def seat_label(seat: SeatInfo) -> str:
    return f"{seat_mark(seat.seat)} {shown_name(seat.name)}"


def rotation_label(rotation: Rotation | int) -> str:
    return f"{Rotation(rotation).degrees}°"


def spot_label(spot: str, lang: Lang) -> str:
    """``city:NW`` -> ``city (north, west)`` / ``ciudad (norte, oeste)``."""
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
    """``large`` -> ``large follower`` / ``seguidor grande`` (the engine's ``fig.<kind>``;
    a kind nobody named shows as it is)."""
    key = f"fig.{figure}"
    text = t(lang, key)
    return figure if text == key else text


def deploy_label(deploy: Deploy | str, lang: Lang) -> str:
    """A figure placement in words: ``city (north) · large follower``; a bare spot is a follower.

    The figure is named only when it is not a plain follower, so base-game labels stay short."""
    if isinstance(deploy, str):
        return spot_label(deploy, lang)
    where = spot_label(deploy.spot, lang)
    if deploy.figure == "follower":
        return where
    return f"{where} · {figure_label(deploy.figure, lang)}"


def tile_label(tile_id: str | None, lang: Lang = Lang.EN) -> str:
    """A tile in words, as printed (unturned): ``city on the north side · road from east to
    west`` (:func:`words.places.tile_words`)."""
    return tile_words(tile_id, lang.value)


def _part(text: str, lang: Lang, names: Mapping[int, str] | None = None) -> str:
    """One piece of a score's arithmetic in ``lang``: the engine's ``Part`` carries its
    message key (expansions register their own), a tile and a seat it names in words
    (:func:`words.places.part_words`); anything else is shown as it is."""
    return part_words(text, lang.value, names)


_KINDS = {"kind_city", "kind_road", "kind_field", "kind_farm", "kind_cloister"}


def reason(item: ScoreItem, lang: Lang, names: Mapping[int, str] | None = None) -> str:
    """The itemised reason of a score: ``city completed: 3 tiles × 2 + 1 shield × 2 = 8``
    (a part naming a seat names its player from ``names``)."""
    if f"kind_{item.category}" in _KINDS:
        kind = t(lang, f"kind_{item.category}")
    elif messages.has(f"score.{item.category}"):  # an expansion's own category
        kind = messages.text(f"score.{item.category}", lang.value)
    else:
        kind = item.category
    done = f"completed_{item.category}" if f"completed_{item.category}" in TEXTS else "completed"
    state = t(lang, done) if item.complete else (t(lang, "at_end") if item.final else "")
    head = f"{KIND_EMOJI.get(item.category, '•')} {kind} {state}".rstrip()
    detail = " + ".join(_part(p, lang, names) for p in item.parts)
    return f"{head}: {detail} = {item.points}" if detail else f"{head}: {item.points}"


def is_seat_param(name: str) -> bool:
    """The engine's convention: a parameter ``seat`` or ``*_seat`` holds a seat number."""
    return name == "seat" or name.endswith("_seat")


def is_tile_param(name: str) -> bool:
    """A parameter ``tile`` (or ``*_tile``) holds a tile id: shown as the tile in words."""
    return name == "tile" or name.endswith("_tile")


def is_tiles_param(name: str) -> bool:
    """A parameter ``tiles`` (or ``*_tiles``) holds a tuple of tile ids: each shown in words."""
    return name == "tiles" or name.endswith("_tiles")


def prompt_text(
    prompt: Prompt, seats: Sequence[SeatInfo], lang: Lang, *, plain: bool = False
) -> str:
    """A prompt (an event's, a decision's or an option's label) in words: seat numbers are
    shown as names, and a parameter that is itself a prompt is translated too. Names are
    message text (markdown escaped) unless ``plain``: a button, menu or autocomplete label,
    where Discord reads no markdown."""
    by_seat = {s.seat: s for s in seats}
    params: dict[str, Any] = {}
    for name, value in prompt.params:
        if isinstance(value, Prompt):
            value = prompt_text(value, seats, lang, plain=plain)
        elif is_seat_param(name) and isinstance(value, int):
            value = _name(by_seat, value, plain=plain)
        elif is_tile_param(name) and isinstance(value, str):
            value = tile_label(value, lang)
        elif is_tiles_param(name) and isinstance(value, tuple):
            value = "; ".join(tile_label(str(v), lang) for v in value)
        params[name] = value
    return t(lang, prompt.key, **params)


def event_lines(events: Iterable[Event], seats: Sequence[SeatInfo], lang: Lang) -> list[str]:
    """One line per scoring (who, how many points, why), per discarded tile, and per event
    that names a message (``Event.prompt()``), whichever expansion sent it."""
    by_seat = {s.seat: s for s in seats}
    lines = []
    for e in events:
        if isinstance(e, PointsScored):
            if e.awards:
                who = awards_text(e.awards, by_seat, lang)
                names = {n: _name(by_seat, n) for n in by_seat}
                lines.append(t(lang, "points_line", who=who, reason=reason(e.item, lang, names)))
        elif isinstance(e, TileDiscarded):
            lines.append(t(lang, "discarded", tile=tile_label(e.tile, lang)))
        else:
            prompt = e.prompt()
            if prompt is not None:
                lines.append(prompt_text(prompt, seats, lang))
    return lines


def awards_text(awards: Iterable[Award], by_seat: dict[int, SeatInfo], lang: Lang = Lang.EN) -> str:
    """Who got how many points for one scoring: ``**Ann, Bob** +8`` when the winners share the
    points, else each with their own (``**Ann** +9 (pig +1), **Bob** +8``): a pig, say, gives
    its owner more than the other winners of the same farm."""
    groups: dict[tuple[int, tuple[str, ...]], list[str]] = {}
    for a in awards:
        groups.setdefault((a.points, a.bonus), []).append(_name(by_seat, a.seat))
    parts = []
    for (points, bonus), names in groups.items():
        why = f" ({', '.join(_part(b, lang) for b in bonus)})" if bonus else ""
        parts.append(f"**{', '.join(names)}** {points:+d}{why}")  # a market payment is −
    return ", ".join(parts)


def _name(by_seat: dict[int, SeatInfo], seat: int, *, plain: bool = False) -> str:
    if seat not in by_seat:
        return f"#{seat + 1}"
    name = by_seat[seat].name
    return name if plain else shown_name(name)


def clip(lines: Sequence[str], limit: int = EMBED_TEXT) -> str:
    """Lines joined, cut to fit an embed (the cut says how many lines were left out)."""
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 1 > limit - 20:
            out.append(f"… (+{len(lines) - i})")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def _rows(view: PublicView, seats: Sequence[SeatInfo]) -> list[tuple[SeatInfo, Any]]:
    by_seat = {s.seat: s for s in seats}
    return [
        (by_seat.get(p.seat, SeatInfo(p.seat, 0, p.name)), p)
        for p in sorted(view.players, key=lambda p: p.seat)
    ]


def scores_text(view: PublicView, seats: Sequence[SeatInfo]) -> str:
    rows = []
    for s, p in _rows(view, seats):
        marker = " ◀" if p.seat == view.current and not view.over else ""
        rows.append(f"{seat_label(s)}: **{p.score}**{marker}")
    return "\n".join(rows)


def followers_text(view: PublicView, seats: Sequence[SeatInfo]) -> str:
    return " · ".join(
        f"{seat_label(s)} {p.supply.get('follower', 0)}" for s, p in _rows(view, seats)
    )


def has_other_figures(view: PublicView) -> bool:
    """Whether any player has figures other than followers (an expansion's)."""
    return any(k != "follower" for p in view.players for k in p.supply)


def figures_text(view: PublicView, seats: Sequence[SeatInfo], lang: Lang) -> str:
    """Each player's figures left by kind: ``🔴 Alice: follower 6, large follower 1, ...``
    (the count after the name, so no word needs a plural)."""
    rows = []
    for s, p in _rows(view, seats):
        kinds = ", ".join(f"{figure_label(k, lang)} {n}" for k, n in p.supply.items())
        rows.append(f"{seat_label(s)}: {kinds}")
    return "\n".join(rows)
