"""Decisions in words: prompts, options, facet values, targets and answers, for any decision.

The words come from, in order: the option's own label (a message key, translated with
:func:`words.i18n.t`, which falls back to the engine's catalogue), the core facets the bot can
word (``cell``, ``rotation``, ``spot``, ``figure``), the option's renderer target (a cell, a
spot on any tile, a corner, a figure, a track space, a tile), and last the option id. Nothing
here knows an expansion or a decision kind; a kind may name its buttons through the
catalogue (``open.<kind>``, ``pass.<kind>``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from app.base import SeatInfo
from app.choices import Step
from engine import Rotation
from engine.core.decisions import (
    CardRef,
    Cell,
    Corner,
    Decision,
    FeatureRef,
    FigureRef,
    Option,
    Target,
    TileChoice,
    TrackSpace,
)
from engine.core.errors import EngineError
from words.i18n import Lang, t
from words.phrases import figure_label, prompt_text, spot_label, tile_label


def _known(lang: Lang, key: str) -> str | None:
    text = t(lang, key)
    return None if text == key else text


def decision_prompt(
    decision: Decision, seats: Sequence[SeatInfo], lang: Lang, *, plain: bool = False
) -> str:
    """The decision's question (``plain``: for a label, see :func:`prompt_text`)."""
    return prompt_text(decision.prompt, seats, lang, plain=plain)


def pass_text(decision: Decision, lang: Lang) -> str:
    """The Pass button of a decision: ``pass.<kind>`` from the catalogue, else "Pass"."""
    return _known(lang, f"pass.{decision.kind}") or t(lang, "btn_pass")


def open_text(decision: Decision, lang: Lang) -> str:
    """The button that opens a decision's picker: ``open.<kind>``, else "Choose"."""
    return _known(lang, f"open.{decision.kind}") or t(lang, "btn_choose")


def target_text(target: Target | None, lang: Lang) -> str | None:
    """Where a target is, in words (``None`` for no target)."""
    if isinstance(target, Cell):
        return t(lang, "at_cell", x=target.x, y=target.y)
    if isinstance(target, FeatureRef):
        at = t(lang, "at_cell", x=target.x, y=target.y)
        return f"{spot_label(target.spot, lang)} — {at}"
    if isinstance(target, FigureRef):
        at = t(lang, "at_cell", x=target.x, y=target.y)
        return f"{figure_label(target.figure, lang)}, {spot_label(target.spot, lang)} — {at}"
    if isinstance(target, Corner):
        return t(lang, "at_corner", x=target.x, y=target.y)
    if isinstance(target, TrackSpace):
        return t(lang, "at_track", n=target.n)
    if isinstance(target, TileChoice):
        return tile_label(target.tile, lang)
    if isinstance(target, CardRef):
        return _known(lang, f"facet.card.{target.code}") or target.code
    return None


@functools.lru_cache(maxsize=64)
def rotation_degrees(value: str) -> int | None:
    """A rotation facet's degrees (``None`` when it is not one); kept, as there are a handful
    and autocomplete asks for each option's."""
    try:
        return Rotation.parse(value).degrees
    except EngineError:
        return None


def facet_text(name: str, value: str, lang: Lang, target: Target | None = None) -> str:
    """One facet value in words; an unknown facet is worded by its options' shared target."""
    if name == "cell" and isinstance(target, Cell):
        return t(lang, "at_cell", x=target.x, y=target.y)
    if name == "rotation":
        degrees = rotation_degrees(value)
        if degrees is not None:
            return f"{degrees}°"
    if name == "spot":
        return spot_label(value, lang)
    if name == "figure":
        return figure_label(value, lang)
    word = _known(lang, f"facet.{name}.{value}")
    if word is not None:  # a game's own words for its facet values (a card game's rows)
        return word
    return target_text(target, lang) or value


def varying(options: Sequence[Option], names: Sequence[str]) -> list[str]:
    """The facets among ``names`` whose value differs between ``options``."""
    return [n for n in names if len({o.facet(n) for o in options}) > 1]


def facets_text(
    option: Option, names: Sequence[str], lang: Lang, *, with_follower: bool = False
) -> str:
    """The option's values of facets ``names`` in words, joined by " · "."""
    parts = []
    for name, value in option.facets:
        if name not in names:
            continue
        if name == "figure" and value == "follower" and not with_follower and len(names) > 1:
            continue  # a plain follower goes without saying beside its spot
        parts.append(facet_text(name, value, lang, option.target))
    return " · ".join(parts)


def option_text(
    option: Option,
    seats: Sequence[SeatInfo],
    lang: Lang,
    *,
    among: Sequence[Option] = (),
    chosen: Sequence[str] = (),
    plain: bool = False,
) -> str:
    """An option in words. With ``among`` (the options shown beside it) only the facets that
    tell them apart are named, and never those already ``chosen``; ``plain`` for a label
    (names as they are, see :func:`prompt_text`)."""
    if option.label is not None:
        return prompt_text(option.label, seats, lang, plain=plain)
    if option.number is not None:
        hi = option.number.max
        return t(lang, "enter_number", min=option.number.min, max="…" if hi is None else hi)
    names = [n for n, _ in option.facets if n not in chosen]
    if among and len(among) > 1:
        names = varying(among, names) or names
    if names:
        text = facets_text(option, names, lang, with_follower=len(names) == 1)
        if text:
            return text
    return target_text(option.target, lang) or option.id


def answer_text(step: Step, seats: Sequence[SeatInfo], lang: Lang) -> str:
    """What a complete step answered, every facet named (the only cell too), for the
    channel's "X played ..." line and a picker's "so far" line (the caller hides the answers
    of private decisions)."""
    if step.passed:
        return pass_text(step.decision, lang)
    option = step.option
    if option is None:
        return "—"
    if option.number is not None:
        if option.label is not None:
            return f"{prompt_text(option.label, seats, lang)}: {step.number}"
        return str(step.number)
    if option.label is None and option.facet("cell") is not None:
        return _cell_answer(step.decision, option, lang)
    return option_text(option, seats, lang)


def played_text(decision: Decision, action: Any, seats: Sequence[SeatInfo], lang: Lang) -> str:
    """What a program seat (an AI) answered, in the same words as a person's click; a secret
    answer is never shown."""
    if decision.private:
        return t(lang, "secret_answer")
    if decision.optional and action == decision.pass_action:
        return pass_text(decision, lang)
    for o in decision.options:
        if o.number is None and o.action == action:
            return answer_text(Step(decision, (), (), o), seats, lang)
    notation = getattr(action, "notation", None)
    return notation() if callable(notation) else str(action)


def _cell_answer(decision: Decision, option: Option, lang: Lang) -> str:
    """An answer with a cell, the cell named as the picker and the board picture number it
    (``Cell 3 (x 0, y -1) · 90°``), every other facet in words."""
    parts = []
    cells = decision.facet_values("cell")
    for name, value in option.facets:
        where = facet_text(name, value, lang, option.target)
        if name == "cell" and value in cells:
            where = t(lang, "cell_answer", cell=cells.index(value) + 1, where=where)
        parts.append(where)
    return " · ".join(parts)
