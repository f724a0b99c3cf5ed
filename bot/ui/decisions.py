"""One presenter for any decision (ARCHITECTURE.md §5.8): its buttons on the turn message or in a
direct message, and the ephemeral picker that asks it one question at a time.

* up to :data:`~app.choices.FEW` choices -> buttons; up to 25 -> a select; more -> a paged
  select, with numbers or letters drawn on the picture at the targets (``render_targets``);
* facets (cell -> rotation, spot -> figure ...) become successive questions of one picker;
* a numeric option opens a modal; an optional decision has a Pass button;
* a choice whose options share one empty cell and differ by rotation is shown as the drawn
  tile turned in each way (the rotation preview).

Everything is computed from the decision alone: its prompt, options, targets, facets and
labels; no decision kind or expansion is named here. The cog (:mod:`bot.cogs.turns`) reads
the clicks back with :mod:`app.choices` and draws the pictures this module describes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import discord

from app.base import SeatInfo
from app.choices import (
    FEW,
    Path,
    Question,
    Step,
    Token,
    back,
    extend,
    fingerprint,
    keyref,
    narrow,
    path_text,
)
from bot.ui.components import (
    MODAL_TITLE,
    TILE_KIT,
    DecisionButton,
    DecisionClick,
    DecisionKit,
    NumberModal,
)
from engine import Position, PublicView, Rotation, Seat
from engine.core.decisions import CardRef, Cell, Decision, IntRange, Option, Target
from rendering import render_placement_preview, render_targets, spot_letter
from words.i18n import Lang, t
from words.labels import (
    answer_text,
    decision_prompt,
    facet_text,
    facets_text,
    open_text,
    option_text,
    pass_text,
    rotation_degrees,
    target_text,
    varying,
)

PAGE = 25
#: options a turn message shows as buttons of their own (no picker needed)
DIRECT = 4
PRIMARY = discord.ButtonStyle.primary
SECONDARY = discord.ButtonStyle.secondary


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing a picker offers: the token it adds to the path, its words, the mark drawn
    on the picture at its target (a number or a letter; empty: not drawn)."""

    token: Token
    text: str
    mark: str = ""
    target: Target | None = None
    detail: str = ""
    number: IntRange | None = None
    #: degrees, when the choice is a rotation (of a tile at a cell)
    rotation: int | None = None
    #: the words besides its cell, when the choice is a cell numbered on the picture
    rest: str = ""
    #: the figure kind the choice deploys (its ``figure`` facet), shown beside its mark
    figure: str | None = None

    @property
    def label(self) -> str:
        """The words of a button or a select option: the mark first (a numbered cell says
        "Cell 3" already)."""
        if not self.mark or isinstance(self.target, Cell):
            return self.text
        return f"{self.mark} · {self.text}"


def _shared_target(options: Sequence[Option]) -> Target | None:
    targets = {o.target for o in options}
    return options[0].target if len(targets) == 1 and options else None


def _drawable(target: Target | None) -> bool:
    return target is not None and not isinstance(target, CardRef)


def choices_of(step: Step, seats: Sequence[SeatInfo], lang: Lang) -> list[Choice]:
    """What the picker offers at ``step`` (a facet's values, or the options left)."""
    q = step.question()
    chosen = [n for n, _ in step.chosen]
    out: list[Choice] = []
    if q.facet is not None:
        names = step.decision.facet_names()
        later = names[names.index(q.facet) + 1 :] if q.facet in names else ()
        for i, value in enumerate(q.values):
            opts = narrow(step.remaining, q.facet, value)
            target = _shared_target(opts)
            detail = "" if q.facet == "cell" else (target_text(target, lang) or "")
            if later:
                subs = []
                for o in opts:
                    v = o.facet(later[0])
                    if v is not None:
                        word = facet_text(later[0], v, lang, o.target)
                        if word not in subs:
                            subs.append(word)
                sub = ", ".join(subs)
                if q.facet == "cell":
                    detail = f"{target_text(target, lang) or value} — {sub}"
                else:
                    detail = f"{detail} — {sub}" if detail else sub
            text = facet_text(q.facet, value, lang, target)
            detail = "" if detail == text else detail
            rot = rotation_degrees(value) if q.facet == "rotation" else None
            fig = value if q.facet == "figure" else None
            out.append(
                Choice(Token("v", i), text, "", target, detail[:100], rotation=rot, figure=fig)
            )
    else:
        unchosen = [n for n in step.decision.facet_names() if n not in chosen]
        others = [n for n in varying(q.options, unchosen) if n != "cell"]
        for i, o in enumerate(q.options):
            text = option_text(o, seats, lang, among=q.options, chosen=chosen, plain=True)
            detail = ""
            if o.label is not None:
                detail = target_text(o.target, lang) or ""
            turned = o.facet("rotation")
            rot = rotation_degrees(turned) if turned is not None else None
            rest = facets_text(o, others, lang) if o.label is None else text
            out.append(
                Choice(
                    Token("o", i),
                    text,
                    "",
                    o.target,
                    detail,
                    o.number,
                    rot,
                    rest,
                    o.facet("figure"),
                )
            )
    return _marked(out, lang)


def _marked(items: list[Choice], lang: Lang) -> list[Choice]:
    """Numbers (cells, or more than 26) or letters on every choice, when each has a target
    the picture can show."""
    if not items or not all(_drawable(c.target) for c in items):
        return items
    if _rotation_cell(items) is not None:
        return items  # the rotation preview names them by degrees
    numbers = all(isinstance(c.target, Cell) for c in items) or len(items) > 26
    out = []
    for i, c in enumerate(items):
        mark = str(i + 1) if numbers else spot_letter(i)
        text = c.text
        if isinstance(c.target, Cell):
            detail = c.detail or text
            text = t(lang, "cell_option", cell=mark) + (f" · {c.rest}" if c.rest else "")
            out.append(Choice(c.token, text, mark, c.target, detail[:100], c.number))
        else:
            out.append(
                Choice(
                    c.token, text, mark, c.target, c.detail, c.number, c.rotation, figure=c.figure
                )
            )
    return out


def _rotation_cell(items: Sequence[Choice]) -> Cell | None:
    """The one cell all choices share, when they differ by a rotation (see the docstring)."""
    targets = {c.target for c in items}
    if len(items) < 2 or len(targets) != 1:
        return None
    (target,) = targets
    if not isinstance(target, Cell):
        return None
    if any(c.rotation is None for c in items):
        return None
    return target


# ------------------------------------------------------------------------------- pictures
def picture(view: PublicView, items: Sequence[Choice], seat: Seat) -> Callable[[], bytes] | None:
    """How to draw the picture of ``items`` (``None``: nothing to draw): their marks at their
    targets, or the drawn tile turned in each offered way at its cell."""
    # module-level functions with a view without its decisions (closures): the drawing can
    # be sent to a worker process (app.painters)
    cell = _rotation_cell(items)
    if cell is not None and view.drawn is not None:
        pos = Position(cell.x, cell.y)
        if all(tv.pos != pos for tv in view.tiles):
            rots = [Rotation((c.rotation or 0) // 90) for c in items]
            return partial(render_placement_preview, view.for_pictures(), pos, rots)
    if not items or not all(c.mark for c in items):
        return None
    targets = [c.target for c in items]
    marks = [c.mark for c in items]
    # a spot offered for several figures: each mark shows its figure
    figures = [c.figure for c in items] if any(c.figure for c in items) else None
    return partial(render_targets, view.for_pictures(), targets, marks, seat=seat, figures=figures)


# ------------------------------------------------------------------------------- pickers
@dataclass
class Picker:
    """A picker message: its text, components and how to draw its picture."""

    content: str
    view: discord.ui.View
    draw: Callable[[], bytes] | None = None
    filename: str = "choices.png"


def _click(
    match_id: int, decision: Decision, verb: str, path: Path, page: int = 0
) -> DecisionClick:
    return DecisionClick(
        match_id, keyref(decision.key), fingerprint(decision), verb, path_text(path), page
    )


def picker(
    match_id: int,
    root: Decision,
    path: Path,
    step: Step,
    view: PublicView,
    seats: Sequence[SeatInfo],
    lang: Lang,
    *,
    so_far: Sequence[str] = (),
    page: int = 0,
    kit: DecisionKit = TILE_KIT,
) -> Picker:
    """The picker of ``step`` (the last decision of the chain ``path`` leads to); the
    components name the ``root`` decision, whose key the answer is given against; ``kit``
    names the game's component classes (its clicks reach that game's cog)."""
    decision = step.decision
    items = choices_of(step, seats, lang)
    q: Question = step.question()
    lines = [f"**{decision_prompt(decision, seats, lang)}**"]
    said = [*so_far, *_chosen_words(step, lang)]
    if said:
        lines.append(t(lang, "picker_so_far", choice=" · ".join(said)))
    draw = picture(view, items, decision.seat)
    asked = q.facet
    if asked is None:
        names = [n for n in decision.facet_names() if n not in dict(step.chosen)]
        split = varying(q.options, names)
        # the facet the options differ in, or the first that tells each apart (each a cell)
        asked = split[0] if len(split) == 1 else None
        if asked is None:
            asked = next(
                (n for n in split if len({o.facet(n) for o in q.options}) == len(q.options)), None
            )
    what = _facet_word(asked, lang)
    if not items:
        lines.append(t(lang, "picker_nothing", passing=pass_text(decision, lang)))
    elif draw is not None and any(c.mark for c in items):
        lines.append(t(lang, "picker_marked", what=what, count=len(items)))
    else:
        lines.append(t(lang, "picker_pick", what=what, count=len(items)))
    dview = discord.ui.View(timeout=None)
    pages = max(1, -(-len(items) // PAGE))
    page = min(max(page, 0), pages - 1)
    if len(items) <= FEW:
        for c in items:
            dview.add_item(
                kit.button(
                    _click(match_id, root, "g", extend(path, c.token)),
                    label=c.label,
                    style=PRIMARY,
                    row=0,
                )
            )
    else:
        chunk = items[page * PAGE : (page + 1) * PAGE]
        options = [
            discord.SelectOption(
                label=c.label[:100], value=c.token.text(), description=c.detail[:100] or None
            )
            for c in chunk
        ]
        first, last = page * PAGE + 1, page * PAGE + len(chunk)
        dview.add_item(
            kit.select(
                _click(match_id, root, "g", path, page),
                options=options,
                placeholder=t(lang, "picker_range", first=first, last=last, count=len(items)),
                row=0,
            )
        )
        if pages > 1:
            for label, to, off in (
                (t(lang, "btn_prev"), page - 1, page == 0),
                (t(lang, "btn_next"), page + 1, page >= pages - 1),
            ):
                dview.add_item(
                    kit.button(
                        _click(match_id, root, "g", path, max(0, min(to, pages - 1))),
                        label=label,
                        row=1,
                        disabled=off,
                    )
                )
    _nav(dview, match_id, root, path, decision, lang, kit)
    return Picker("\n".join(lines)[:2000], dview, draw)


def _chosen_words(step: Step, lang: Lang) -> list[str]:
    """The facet values already chosen in this decision, in words."""
    out = []
    for name, value in step.chosen:
        target = _shared_target(narrow(step.decision.options, name, value))
        out.append(facet_text(name, value, lang, target))
    return out


def _facet_word(facet: str | None, lang: Lang) -> str:
    """The engine's word for a facet (``facet.<name>``), else "option"."""
    if facet is not None:
        word = t(lang, f"facet.{facet}")
        if word != f"facet.{facet}":
            return word
    return t(lang, "picker_option_word")


def _nav(
    dview: discord.ui.View,
    match_id: int,
    root: Decision,
    path: Path,
    decision: Decision,
    lang: Lang,
    kit: DecisionKit = TILE_KIT,
) -> None:
    """Pass (optional decisions) and Back (when something was answered) on the last row."""
    if decision.optional and decision.pass_action is not None:
        dview.add_item(
            kit.button(
                _click(match_id, root, "g", path[:-1] + ((Token("p"),),)),
                label=pass_text(decision, lang),
                row=2,
            )
        )
    if path != back(path):
        dview.add_item(
            kit.button(_click(match_id, root, "g", back(path)), label=t(lang, "btn_back"), row=2)
        )


def confirm(
    match_id: int,
    root: Decision,
    path: Path,
    step: Step,
    choice: Choice | None,
    view: PublicView,
    seats: Sequence[SeatInfo],
    lang: Lang,
    *,
    so_far: Sequence[str] = (),
    kit: DecisionKit = TILE_KIT,
) -> Picker:
    """Asks to confirm an answer chosen in a select (a select is easy to mis-pick)."""
    decision = step.decision
    chosen = " · ".join([*so_far, answer_text(step, seats, lang)])
    lines = [
        f"**{decision_prompt(decision, seats, lang)}**",
        t(lang, "picker_confirm", choice=chosen),
    ]
    dview = discord.ui.View(timeout=None)
    dview.add_item(
        kit.button(_click(match_id, root, "s", path), label=t(lang, "btn_confirm"), style=PRIMARY)
    )
    dview.add_item(kit.button(_click(match_id, root, "g", back(path)), label=t(lang, "btn_back")))
    draw = None
    if choice is not None and choice.mark and _drawable(choice.target):
        draw = partial(
            render_targets, view.for_pictures(), [choice.target], [choice.mark], seat=decision.seat
        )
    return Picker("\n".join(lines), dview, draw)


def number_modal(
    match_id: int,
    root: Decision,
    path: Path,
    step: Step,
    lang: Lang,
    seats: Sequence[SeatInfo],
    kit: DecisionKit = TILE_KIT,
) -> NumberModal:
    """The modal that asks the number of the numeric option ``step`` chose."""
    option = step.option
    assert option is not None and option.number is not None
    lo, hi = option.number.min, option.number.max
    top = "…" if hi is None else hi
    placeholder = f"{lo}–{top}"
    if option.label is not None:  # what the number means (a bid: the score it would leave)
        placeholder += f" · {option_text(option, seats, lang)}"
    question = decision_prompt(step.decision, seats, lang, plain=True)
    # the question as the title when it fits whole; else the decision's short name, and the
    # whole question (the bid to beat ...) above the number
    fits = len(question) <= MODAL_TITLE
    return NumberModal(
        _click(match_id, root, "g", path),
        title=question if fits else open_text(step.decision, lang),
        label=t(lang, "number_label", min=lo, max=top),
        placeholder=placeholder,
        text="" if fits else decision_prompt(step.decision, seats, lang),
        handler=kit.handler,
    )


# ------------------------------------------------------------------------------- buttons
def decision_buttons(
    match_id: int,
    decision: Decision,
    seats: Sequence[SeatInfo],
    lang: Lang,
    *,
    row: int | None = None,
    who: str | None = None,
    kit: DecisionKit = TILE_KIT,
) -> list[DecisionButton]:
    """The buttons of one decision on the turn message, a DM or a "Decide" reply: its few
    plain options themselves (with no picture to see), else a button opening its picker;
    and Pass when it may be passed. ``who`` names the seat when several decide at once."""
    options = decision.options
    direct = (
        not decision.facet_names()
        and 0 < len(options) <= DIRECT
        and all(o.target is None for o in options)
    )
    suffix = f" ({who})" if who else ""
    out = []
    if direct:
        for i, o in enumerate(options):
            out.append(
                kit.button(
                    _click(match_id, decision, "g", ((Token("o", i),),)),
                    label=option_text(o, seats, lang, plain=True) + suffix,
                    style=PRIMARY,
                    row=row,
                )
            )
    else:
        out.append(
            kit.button(
                _click(match_id, decision, "o", ((),)),
                label=open_text(decision, lang) + suffix,
                style=PRIMARY,
                row=row,
            )
        )
    if decision.optional and decision.pass_action is not None:
        out.append(
            kit.button(
                _click(match_id, decision, "g", ((Token("p"),),)),
                label=pass_text(decision, lang) + suffix,
                row=row,
            )
        )
    return out
