"""Decisions as JSON: any :class:`~engine.core.decisions.Decision` written as plain data and read
back equal — for a front end in another process or language, a record of what was asked, or a
test. Actions travel as their notation (each game reads its own back); a numeric option's
template travels as its fields (each game names the template class that reads them).

>>> from engine.core.decisions import Option, Prompt, Cell
>>> d = Decision("k#1", Seat(0), "core.place", Prompt.of("place_tile", tile="A"),
...              (Option("0,1 r0", _Note("place 0,1 r0"), Cell(0, 1), (("cell", "0,1"),)),))
>>> back = decision_from_json(decision_to_json(d), parse=_Note)
>>> back.key, back.options[0].target, back.options[0].action.text
('k#1', Cell(x=0, y=1), 'place 0,1 r0')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from engine.core.decisions import (
    CardRef,
    Cell,
    Corner,
    Decision,
    FeatureRef,
    FigureRef,
    IntRange,
    Option,
    Prompt,
    Target,
    TileChoice,
    TrackSpace,
    Visibility,
)
from engine.core.seats import Seat

TARGETS: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (Cell, FeatureRef, Corner, TrackSpace, FigureRef, TileChoice, CardRef)
}


@dataclasses.dataclass(frozen=True)
class _Note:
    """A stand-in action for the doctest: its notation is its text."""

    text: str

    def notation(self) -> str:
        return self.text


def decision_to_json(d: Decision) -> dict[str, Any]:
    """``d`` as JSON-ready data (its options made)."""
    return {
        "key": d.key,
        "seat": int(d.seat),
        "kind": d.kind,
        "prompt": _prompt(d.prompt),
        "options": [_option(o) for o in d.options],
        "optional": d.optional,
        "visibility": d.visibility.value,
        "group": d.group,
        "pass": None if d.pass_action is None else d.pass_action.notation(),
        "answered": [int(s) for s in d.answered],
    }


def decision_from_json(
    data: dict[str, Any],
    *,
    parse: Callable[[str], Any],
    templates: dict[str, Callable[..., Any]] | None = None,
) -> Decision:
    """A decision read back: ``parse`` reads an action's notation (the game's
    ``from_notation``); ``templates`` names the classes of numeric options' templates."""
    known = templates or {}
    return Decision(
        data["key"],
        Seat(data["seat"]),
        data["kind"],
        _prompt_back(data["prompt"]),
        tuple(_option_back(o, parse, known) for o in data["options"]),
        optional=bool(data["optional"]),
        visibility=Visibility(data["visibility"]),
        group=data["group"],
        pass_action=None if data["pass"] is None else parse(data["pass"]),
        answered=tuple(Seat(s) for s in data["answered"]),
    )


# ------------------------------------------------------------------------------- parts
def _value(v: Any) -> Any:
    if isinstance(v, Prompt):
        return {"prompt": _prompt(v)}
    if isinstance(v, tuple | list):
        return {"tuple": [_value(x) for x in v]}
    return v


def _value_back(v: Any) -> Any:
    if isinstance(v, dict) and "prompt" in v:
        return _prompt_back(v["prompt"])
    if isinstance(v, dict) and "tuple" in v:
        return tuple(_value_back(x) for x in v["tuple"])
    return v


def _prompt(p: Prompt) -> dict[str, Any]:
    return {"key": p.key, "params": [[k, _value(v)] for k, v in p.params]}


def _prompt_back(data: dict[str, Any]) -> Prompt:
    return Prompt(data["key"], tuple((k, _value_back(v)) for k, v in data["params"]))


def _target(t: Target | None) -> dict[str, Any] | None:
    if t is None:
        return None
    return {"type": type(t).__name__, **dataclasses.asdict(t)}


def _target_back(data: dict[str, Any] | None) -> Target | None:
    if data is None:
        return None
    fields = dict(data)
    cls = TARGETS[fields.pop("type")]
    target: Target = cls(**fields)
    return target


def _option(o: Option) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": o.id,
        "action": None if o.action is None else o.action.notation(),
        "target": _target(o.target),
        "facets": [list(f) for f in o.facets],
        "label": None if o.label is None else _prompt(o.label),
    }
    if o.number is not None:
        out["number"] = [o.number.min, o.number.max]
        make = o.make
        out["make"] = (
            None if make is None else {"type": type(make).__name__, **dataclasses.asdict(make)}  # type: ignore[call-overload]
        )
    return out


def _option_back(
    data: dict[str, Any], parse: Callable[[str], Any], templates: dict[str, Callable[..., Any]]
) -> Option:
    number = make = None
    if "number" in data:
        number = IntRange(*data["number"])
        if data.get("make") is not None:
            fields = dict(data["make"])
            make = templates[fields.pop("type")](**fields)
    return Option(
        data["id"],
        None if data["action"] is None else parse(data["action"]),
        _target_back(data["target"]),
        tuple((k, v) for k, v in data["facets"]),
        None if data["label"] is None else _prompt_back(data["label"]),
        number,
        make,
    )
