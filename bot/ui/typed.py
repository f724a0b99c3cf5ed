"""The typed path to every decision: ``/carcassonne choose`` and its autocomplete, and the tile
shortcut ``/carcassonne place cell: rotation: follower:`` (ARCHITECTURE.md decision 7).

``choose`` lists the caller's own open options (private ones included: an autocomplete answer
is seen by the typing user only). Its values are ``<key>|<token>`` (see :mod:`app.choices`);
a typed text is matched against the options' words and ids, a typed number against a numeric
option. ``place`` reads the caller's decision that has ``cell`` and ``rotation`` facets (the
core facets, whatever asks them): cells are numbered as on the board picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.base import SeatInfo, ServiceError
from app.choices import Step, Token, find_decision, keyref, walk
from bot.ui.message import quoted
from engine.core.decisions import Decision, Option
from words.i18n import Lang, t
from words.labels import (
    decision_prompt,
    facet_text,
    option_text,
    pass_text,
    rotation_degrees,
    target_text,
)

SEP = "|"
#: the ``follower`` value that places no figure
NONE = "none"
AUTOCOMPLETE = 25


@dataclass(frozen=True, slots=True)
class Entry:
    """One autocomplete choice: what the user reads and the value sent back."""

    name: str
    value: str


def _number(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:
        return None


def _cell_prefix(decision: Decision, option: Option, lang: Lang) -> str:
    """``Cell 3 · `` for an option with a ``cell`` facet (numbered as on the board)."""
    cell = option.facet("cell")
    if cell is None:
        return ""
    cells = decision.facet_values("cell")
    return t(lang, "cell_option", cell=cells.index(cell) + 1) + " · "


def choice_entries(
    decisions: Sequence[Decision], seats: Sequence[SeatInfo], lang: Lang, typed: str
) -> list[Entry]:
    """The caller's open options matching what they typed (at most 25)."""
    want = typed.strip().lower()
    n = _number(typed)
    out: list[Entry] = []
    for d in decisions:
        ref = keyref(d.key)
        prompt = decision_prompt(d, seats, lang, plain=True)
        for i, o in enumerate(d.options):
            if o.number is not None:
                r = o.number
                if n is not None and n in r:
                    values: Sequence[int] = (n,)
                elif r.max is not None and r.max - r.min < AUTOCOMPLETE:
                    values = range(r.min, r.max + 1)
                else:
                    values = ()
                out += [Entry(f"{v} — {prompt}", f"{ref}{SEP}o{i}={v}") for v in values]
                continue
            label = _cell_prefix(d, o, lang) + option_text(
                o, seats, lang, among=d.options, plain=True
            )
            out.append(Entry(f"{label} — {prompt}", f"{ref}{SEP}o{i}"))
        if d.optional and d.pass_action is not None:
            out.append(Entry(f"{pass_text(d, lang)} — {prompt}", f"{ref}{SEP}p"))
    if want:
        out = [e for e in out if want in e.name.lower()]
    return [Entry(e.name[:100], e.value) for e in out[:AUTOCOMPLETE]]


def parse_choice(
    text: str, decisions: Sequence[Decision], seats: Sequence[SeatInfo], lang: Lang
) -> Step:
    """The complete answer ``text`` names among the caller's decisions: an autocomplete
    value, an option's words or id, "pass" words, or a number for a numeric option.

    Raises:
        ServiceError: bad_choice when it names none (or several) of them.
    """
    text = text.strip()
    ref, sep, token = text.partition(SEP)
    if sep:
        d = find_decision(decisions, ref)
        if d is not None:
            try:
                step = walk(d, (Token.parse(token),))
            except ValueError:
                step = None
            if step is not None and step.complete:
                return step
    want = text.lower()
    n = _number(text)
    found: list[Step] = []
    for d in decisions:
        for i, o in enumerate(d.options):
            if o.number is not None:
                if n is not None and n in o.number:
                    found.append(walk(d, (Token("o", i, n),)))
                continue
            words = {o.id.lower(), option_text(o, seats, lang, among=d.options, plain=True).lower()}
            if want in words:
                found.append(walk(d, (Token("o", i),)))
        if (
            d.optional
            and d.pass_action is not None
            and want
            in (
                "pass",
                pass_text(d, lang).lower(),
            )
        ):
            found.append(walk(d, (Token("p"),)))
    if len(found) != 1:
        raise ServiceError("bad_choice", "Not one of your choices.", choice=quoted(text))
    return found[0]


# ------------------------------------------------------------------------------- place
def tile_decision(decisions: Sequence[Decision]) -> Decision | None:
    """The caller's decision with ``cell`` and ``rotation`` facets (placing a tile)."""
    for d in decisions:
        names = d.facet_names()
        if "cell" in names and "rotation" in names:
            return d
    return None


def cell_entries(decision: Decision, lang: Lang, typed: str) -> list[tuple[str, int]]:
    """``(name, number)`` of each cell, numbered as on the board picture (the first
    :data:`AUTOCOMPLETE` that fit what was typed)."""
    by_cell = decision.grouped("cell")  # kept by the decision: one pass for every call
    want = typed.strip()
    out = []
    for number, (cell, opts) in enumerate(by_cell.items(), start=1):
        if want and not str(number).startswith(want):
            continue
        rots = ", ".join(facet_text("rotation", o.facet("rotation") or "", lang) for o in opts)
        where = target_text(opts[0].target, lang) or cell
        name = f"{t(lang, 'cell_option', cell=number)} — {where} ({rots})"
        out.append((name[:100], number))
        if len(out) == AUTOCOMPLETE:
            break
    return out


def rotations_at(decision: Decision, cell: int | None) -> list[int]:
    """The degrees the tile may turn at cell number ``cell`` (every cell's when None)."""
    cells = decision.facet_values("cell")
    if cell is not None and 1 <= cell <= len(cells):
        options = decision.narrow(cell=cells[cell - 1])
    else:
        options = decision.options
    out: set[int] = set()
    for o in options:
        degrees = rotation_degrees(o.facet("rotation") or "")
        if degrees is not None:
            out.add(degrees)
    return sorted(out)


def place_step(decision: Decision, cell: int, degrees: int) -> Step:
    """The tile placement at cell number ``cell`` turned ``degrees``.

    Raises:
        ServiceError: bad_cell, bad_rotation.
    """
    cells = decision.facet_values("cell")
    if not 1 <= cell <= len(cells):
        raise ServiceError("bad_cell", f"Cell {cell} is not legal.", cell=cell)
    for i, o in enumerate(decision.options):
        turned = rotation_degrees(o.facet("rotation") or "")
        if o.facet("cell") == cells[cell - 1] and turned == degrees:
            return walk(decision, (Token("o", i),))
    raise ServiceError("bad_rotation", "Illegal rotation.", cell=cell, rotation=degrees)


def follower_entries(
    decision: Decision | None, seats: Sequence[SeatInfo], lang: Lang, typed: str
) -> list[Entry]:
    """The figure placements after the tile (option ids), then ``none``."""
    want = typed.strip().lower()
    out = []
    if decision is not None:
        for o in decision.options:
            if o.number is None:
                name = option_text(o, seats, lang, among=decision.options, plain=True)
                if not want or want in name.lower() or want in o.id.lower():
                    out.append(Entry(name[:100], o.id))
    none = pass_text(decision, lang) if decision is not None else t(lang, "btn_pass")
    return [*out[: AUTOCOMPLETE - 1], Entry(none, NONE)]


def follower_step(decision: Decision | None, follower: str) -> Step:
    """The answer ``follower`` names in the decision after the tile (``none``: pass).

    Raises:
        ServiceError: bad_spot.
    """
    want = follower.strip().lower()
    if decision is not None:
        if want == NONE and decision.optional and decision.pass_action is not None:
            return walk(decision, (Token("p"),))
        for i, o in enumerate(decision.options):
            if o.number is None and o.id.lower() == want:
                return walk(decision, (Token("o", i),))
    raise ServiceError("bad_spot", "Illegal spot.", spot=quoted(follower))
