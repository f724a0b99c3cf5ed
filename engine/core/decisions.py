"""Decisions: how an engine asks a seat to choose, for any game (ARCHITECTURE.md §5.8).

An engine publishes every open choice as a :class:`Decision` through its ``pending(state)``;
front ends (Discord, the console, the random player) show and answer any decision without
knowing which rule or expansion asked it:

* ``prompt`` is a message key with parameters (see :mod:`engine.core.messages`), never text;
* every :class:`Option` carries the engine ``action`` that answers it, a renderer ``target``
  (a cell, a spot on any tile, a corner, a track space, a figure, a tile, a card) and
  ``facets`` that split many options into successive questions (cell → rotation → spot);
* a numeric answer (a bid) is one option with an :class:`IntRange` and a function that
  builds the action from the number;
* ``optional`` decisions may be passed with ``pass_action``;
* ``visibility`` PRIVATE decisions go to their seat alone (DM), and decisions of one
  ``group`` are answered independently and resolved together (sealed bids); ``answered``
  names the seats of the group that have answered (never what);
* ``key`` is unique in the match while the decision is open: an answer names it, so an answer
  to a decision that has closed is refused as out of date, while another seat's new decision
  leaves yours valid.

>>> d = Decision("core.place#3", Seat(0), "core.place", Prompt.of("place_tile", tile="A"),
...              (Option("0,1 r0", "act", Cell(0, 1), (("cell", "0,1"), ("rotation", "r0"))),))
>>> d.facet_values("cell"), d.narrow(cell="0,1")[0].id
(('0,1',), '0,1 r0')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any, NamedTuple

from engine.core.seats import Seat


class Visibility(Enum):
    """Who may see a decision (and the action that answers it)."""

    PUBLIC = "public"
    PRIVATE = "private"


class Prompt(NamedTuple):
    """A message key with its parameters; front ends translate it (``engine.core.messages``).

    A parameter whose value is itself a :class:`Prompt` is translated too (a figure's name
    inside an option's label)."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, key: str, **params: Any) -> Prompt:
        # tuple.__new__: NamedTuple's own __new__ is Python-level (a prompt per decision)
        return _new_tuple(cls, (key, tuple(sorted(params.items())) if params else ()))

    def param(self, name: str, default: Any = None) -> Any:
        for k, v in self.params:
            if k == name:
                return v
        return default

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)


_new_tuple = tuple.__new__


# ------------------------------------------------------------------------------- targets
@dataclass(frozen=True, slots=True)
class Cell:
    """An empty or occupied board cell."""

    x: int
    y: int


@dataclass(frozen=True, slots=True)
class FeatureRef:
    """A feature of the tile at (x, y), by its spot name (``city:N``, ``field:En.Wn`` ...)."""

    x: int
    y: int
    spot: str


@dataclass(frozen=True, slots=True)
class Corner:
    """The corner where four cells meet: the north-west corner of cell (x, y)."""

    x: int
    y: int


@dataclass(frozen=True, slots=True)
class TrackSpace:
    """A space of the score track (0–49)."""

    n: int


@dataclass(frozen=True, slots=True)
class FigureRef:
    """A figure on the board: on the feature ``spot`` of the tile at (x, y).

    ``seat`` is ``None`` for a neutral figure."""

    x: int
    y: int
    spot: str
    figure: str
    seat: Seat | None = None


@dataclass(frozen=True, slots=True)
class TileChoice:
    """A tile to take (a market's revealed tiles, an abbey from the supply ...)."""

    tile: str


@dataclass(frozen=True, slots=True)
class CardRef:
    """A card (the card game's hand), by its code."""

    code: str


Target = Cell | FeatureRef | Corner | TrackSpace | FigureRef | TileChoice | CardRef


@dataclass(frozen=True, slots=True)
class IntRange:
    """A whole number from ``min`` to ``max`` inclusive (``max`` None: no upper bound)."""

    min: int
    max: int | None = None

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and n >= self.min and (self.max is None or n <= self.max)


# ------------------------------------------------------------------------------- options
class Option(NamedTuple):
    """One answer to a decision.

    ``id`` is unique within the decision and short (it travels in button ids); ``action`` is
    the engine action that answers it; ``facets`` are ordered ``(name, value)`` pairs that
    let a picker ask one thing at a time; ``label`` names the option (a message key).
    A numeric option has ``number`` set and builds its action with :meth:`action_for`
    (``make``: a template such as :class:`~engine.carcassonne.actions.NumberedChoice`, never a
    closure, so an option pickles).
    """

    id: str
    action: Any
    target: Target | None = None
    facets: tuple[tuple[str, str], ...] = ()
    label: Prompt | None = None
    number: IntRange | None = None
    make: Callable[[int], Any] | None = None

    def facet(self, name: str) -> str | None:
        for k, v in self.facets:
            if k == name:
                return v
        return None

    def action_for(self, n: int) -> Any:
        """The action answering this numeric option with ``n``.

        Raises:
            ValueError: when this option takes no number or ``n`` is out of range.
        """
        if self.number is None or self.make is None:
            raise ValueError("this option takes no number")
        if n not in self.number:
            raise ValueError(f"{n} is out of range")
        return self.make(n)


class Decision:
    """An open choice of one seat (see the module docstring).

    Options may be built lazily (``options`` given as a function): a random player or a
    presenter pays for them only when it asks.
    """

    __slots__ = (
        "key",
        "seat",
        "kind",
        "prompt",
        "optional",
        "visibility",
        "group",
        "pass_action",
        "answered",
        "_options",
        "_make",
        "_answers",
        "_looks",
    )

    def __init__(
        self,
        key: str,
        seat: Seat,
        kind: str,
        prompt: Prompt,
        options: tuple[Option, ...] | Callable[[], tuple[Option, ...]],
        *,
        optional: bool = False,
        visibility: Visibility = Visibility.PUBLIC,
        group: str | None = None,
        pass_action: Any = None,
        answers: Callable[[], Sequence[Any]] | None = None,
        answered: tuple[Seat, ...] = (),
    ) -> None:
        self.key = key
        #: the seats of its ``group`` that have answered already (who, never what), so a
        #: front end can show who is still awaited in a simultaneous choice
        self.answered = answered
        self.seat = seat
        self.kind = kind
        self.prompt = prompt
        self.optional = optional
        self.visibility = visibility
        self.group = group
        self.pass_action = pass_action
        self._answers = answers
        #: what the facet questions below worked out, once per question: every autocomplete
        #: and picker asks the same ones of a decision until it is answered
        self._looks: dict[Any, Any] = {}
        if callable(options):
            self._options: tuple[Option, ...] | None = None
            self._make: Callable[[], tuple[Option, ...]] | None = options
        else:
            self._options = tuple(options)
            self._make = None

    @property
    def options(self) -> tuple[Option, ...]:
        if self._options is None:
            assert self._make is not None
            self._options = tuple(self._make())
            self._make = None
        return self._options

    @property
    def private(self) -> bool:
        return self.visibility is Visibility.PRIVATE

    def option(self, option_id: str) -> Option | None:
        for o in self.options:
            if o.id == option_id:
                return o
        return None

    def actions(self) -> Iterable[Any]:
        """Every action that answers this decision (numeric options excepted), then pass."""
        if self._answers is not None and self._options is None:
            yield from self._answers()
        else:
            for o in self.options:
                if o.number is None:
                    yield o.action
        if self.optional and self.pass_action is not None:
            yield self.pass_action

    def answers(self) -> tuple[Any, ...]:
        """The options' actions in option order (numeric options as ``None``), without
        building the options when the decision knows a faster way (the random player)."""
        if self._answers is not None and self._options is None:
            made = self._answers()
            return made if isinstance(made, tuple) else tuple(made)
        return tuple(o.action if o.number is None else None for o in self.options)

    def answer_seq(self) -> Sequence[Any]:
        """:meth:`answers` as a sequence that may make each action only when it is indexed
        (the random player needs their number and one of them)."""
        if self._answers is not None and self._options is None:
            return self._answers()
        return self.answers()

    def facet_names(self) -> tuple[str, ...]:
        """Facet names in the order a picker asks them."""
        found: tuple[str, ...] | None = self._looks.get("names")
        if found is None:
            out: dict[str, None] = {}
            for o in self.options:
                for k, _ in o.facets:
                    out[k] = None
            found = self._looks["names"] = tuple(out)
        return found

    def grouped(self, name: str) -> Mapping[str, tuple[Option, ...]]:
        """The options by their value of facet ``name`` (values in order; options without
        the facet left out), kept by the decision."""
        key = ("grouped", name)
        found: Mapping[str, tuple[Option, ...]] | None = self._looks.get(key)
        if found is None:
            lists: dict[str, list[Option]] = {}
            for o in self.options:
                v = o.facet(name)
                if v is not None:
                    lists.setdefault(v, []).append(o)
            found = MappingProxyType({v: tuple(os) for v, os in lists.items()})
            self._looks[key] = found
        return found

    def narrow(self, **chosen: str) -> tuple[Option, ...]:
        """The options whose facets agree with ``chosen``."""
        if len(chosen) == 1:
            ((name, value),) = chosen.items()
            return self.grouped(name).get(value, ())
        key = ("narrow", *sorted(chosen.items()))
        found: tuple[Option, ...] | None = self._looks.get(key)
        if found is None:
            found = tuple(
                o for o in self.options if all(o.facet(k) == v for k, v in chosen.items())
            )
            self._looks[key] = found
        return found

    def facet_values(self, name: str, **chosen: str) -> tuple[str, ...]:
        """The distinct values of facet ``name`` among the options agreeing with ``chosen``."""
        if not chosen:
            return tuple(self.grouped(name))
        key = ("values", name, *sorted(chosen.items()))
        found: tuple[str, ...] | None = self._looks.get(key)
        if found is None:
            out: dict[str, None] = {}
            for o in self.narrow(**chosen):
                v = o.facet(name)
                if v is not None:
                    out[v] = None
            found = self._looks[key] = tuple(out)
        return found

    def _ident(self) -> tuple[Any, ...]:
        return (self.key, self.seat, self.kind, self.prompt, self.optional, self.visibility)

    def __eq__(self, other: object) -> bool:
        """Two decisions are the same when they are the same open choice (same key, seat,
        kind and prompt): a key is unique in a match while it is open."""
        return isinstance(other, Decision) and self._ident() == other._ident()

    def __hash__(self) -> int:
        return hash(self._ident())

    def __repr__(self) -> str:
        return f"Decision({self.key!r}, seat={self.seat}, kind={self.kind!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as plain data: its options made (a lazy decision's too) and no function
        kept, so a view holding decisions goes to a worker process as it is."""
        return (
            _decision,
            (
                self.key, self.seat, self.kind, self.prompt, self.options, self.optional,
                self.visibility, self.group, self.pass_action, self.answered,
            ),
        )  # fmt: skip


def _decision(
    key: str,
    seat: Seat,
    kind: str,
    prompt: Prompt,
    options: tuple[Option, ...],
    optional: bool,
    visibility: Visibility,
    group: str | None,
    pass_action: Any,
    answered: tuple[Seat, ...],
) -> Decision:
    return Decision(
        key, seat, kind, prompt, options, optional=optional, visibility=visibility, group=group,
        pass_action=pass_action, answered=answered,
    )  # fmt: skip


def decisions_of(decisions: Iterable[Decision], seat: Seat | None) -> tuple[Decision, ...]:
    """The decisions ``seat`` may see: public ones, and its own private ones
    (``seat`` None: public only)."""
    return tuple(d for d in decisions if not d.private or (seat is not None and d.seat == seat))


def auto_decide(decision: Decision) -> Any:
    """A stand-in answer for a seat that cannot answer (resigned, timed out): pass when the
    decision allows it, else its first option (a number at the bottom of its range)."""
    if decision.optional and decision.pass_action is not None:
        return decision.pass_action
    answers = decision.answers()
    if not answers:
        raise ValueError(f"decision {decision.key} has no answer")
    if answers[0] is not None:
        return answers[0]
    first = decision.options[0]
    assert first.number is not None
    return first.action_for(first.number.min)
