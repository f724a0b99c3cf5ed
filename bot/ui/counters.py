"""Each expansion's public per-seat counters (goods tokens, gold, ...), for ``/score``.

Decision 12 keeps counters other than the score in the expansions' own models, which the public
view carries (``PublicView.ext``, already redacted). The bot knows no expansion, so:

* when the engine words them itself — each ``PlayerView`` carrying ``counters``, a mapping of
  expansion id to prompts (the hook asked of the engine in issue 9) — those prompts are shown;
* otherwise the models are read generically: every field of a (dataclass) model that holds one
  value per seat (a tuple or list with one entry per player, or a mapping keyed by seat) is a
  counter, named by the engine message ``<expansion id>.<field>`` when there is one, else by
  the field's name; a seat's value is a number or a tuple of numbers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from app.base import SeatInfo
from engine import PublicView
from engine.core import messages
from engine.core.decisions import Prompt
from words.i18n import Lang, t
from words.phrases import prompt_text, seat_label

#: ``(expansion name, one text per seat)``
Counters = list[tuple[str, list[str]]]


def counters(view: PublicView, seats: Sequence[SeatInfo], lang: Lang) -> Counters:
    """Every expansion's counters, per seat (see the module docstring): the engine's words for
    the expansions that word their counters, a generic reading of the others' models."""
    worded, ids = _engine_words(view, seats, lang)
    return worded + _read_models(view, lang, skip=ids)


def counters_fields(
    view: PublicView, seats: Sequence[SeatInfo], lang: Lang
) -> list[tuple[str, str]]:
    """The counters as embed fields: ``(expansion name, one line per player)``."""
    by_seat = {s.seat: s for s in seats}
    fields = []
    for name, per_seat in counters(view, seats, lang):
        lines = []
        for p in sorted(view.players, key=lambda p: p.seat):
            if p.seat < len(per_seat) and per_seat[p.seat]:
                who = by_seat.get(p.seat, SeatInfo(p.seat, 0, p.name))
                lines.append(f"{seat_label(who)}: {per_seat[p.seat]}")
        if lines:
            fields.append((name, "\n".join(lines)))
    return fields


def _engine_words(
    view: PublicView, seats: Sequence[SeatInfo], lang: Lang
) -> tuple[Counters, set[str]]:
    """The engine's own prompts per player and expansion, and the ids of the expansions worded."""
    per_player: list[Mapping[str, Sequence[Prompt]]] = []
    for p in view.players:
        found = getattr(p, "counters", None)
        per_player.append(found if isinstance(found, Mapping) else {})
    ids: list[str] = []
    for found in per_player:
        ids.extend(e for e in found if e not in ids)
    out: Counters = []
    for exp_id in ids:
        texts = [
            ", ".join(prompt_text(pr, seats, lang) for pr in found.get(exp_id, ()))
            for found in per_player
        ]
        out.append((t(lang, f"exp.{exp_id}"), texts))
    return out, set(ids)


def _read_models(view: PublicView, lang: Lang, *, skip: set[str]) -> Counters:
    players = len(view.players)
    out: Counters = []
    for exp_id, model in view.ext.items():
        if exp_id in skip or not dataclasses.is_dataclass(model) or isinstance(model, type):
            continue
        per_seat: list[list[str]] = [[] for _ in range(players)]
        for f in dataclasses.fields(model):
            values = _per_seat(getattr(model, f.name), players)
            if values is None:
                continue
            key = f"{exp_id}.{f.name}"
            label = t(lang, key) if messages.has(key) else f.name
            for seat, v in enumerate(values):
                per_seat[seat].append(f"{label} {_number_text(v)}")
        if any(per_seat):
            out.append((t(lang, f"exp.{exp_id}"), [", ".join(p) for p in per_seat]))
    return out


def _per_seat(value: object, players: int) -> list[Any] | None:
    """One value per seat, if ``value`` holds that (else ``None``)."""
    if isinstance(value, Mapping):
        if not value or not all(isinstance(k, int) and 0 <= k < players for k in value):
            return None
        first = next(iter(value.values()))
        zero: Any = tuple(0 for _ in first) if isinstance(first, tuple | list) else 0
        values = [value.get(s, zero) for s in range(players)]
    elif isinstance(value, tuple | list) and len(value) == players:
        values = list(value)
    else:
        return None
    ok = all(
        _is_number(v) or (isinstance(v, tuple | list) and all(map(_is_number, v))) for v in values
    )
    return values if ok else None


def _is_number(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number_text(v: object) -> str:
    if isinstance(v, tuple | list):
        return " · ".join(str(x) for x in v)
    return str(v)
