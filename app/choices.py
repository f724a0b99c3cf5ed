"""Any decision as a series of small questions, with no Discord in it (ARCHITECTURE.md §5.8).

A :class:`~engine.core.decisions.Decision` may have hundreds of options (every cell and
rotation of a tile). A picker asks one thing at a time and remembers the answers so far as a
*path* of short tokens, which travels in a button's custom id so that no picker keeps state on
the bot (a click still works after a restart):

* ``3`` — the 4th value of the facet asked at this point (``cell``, then ``rotation`` ...);
* ``o2`` — the 3rd of the options still possible; ``o0=4`` — a numeric option answered 4;
* ``p`` — pass (optional decisions).

Tokens of one decision are joined by ``.``; a ``/`` starts the next decision of a *chain*:
when an answer leads to another decision of the same seat that reveals nothing (a tile, then
a follower on it; see ``MatchService.preview``), the picker asks it too before anything is
submitted. ``o12/o0`` is "the 13th option of the first decision, then the 1st of the next".

What is asked at a point (:func:`question`): the options themselves when they are few
(:data:`FEW`) and each can be shown apart on a picture (not two on one cell), else the first
facet that still tells them apart. Facets with a single value are never asked. The same rules read a path back (:func:`walk`), so a path means the
same answers for as long as the decision's options stay the same (:func:`fingerprint`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.decisions import Decision, FeatureRef, Option, Target

#: options shown together (as buttons) instead of asking their facets one by one
FEW = 5
#: a decision key travels as itself when it is this short and plain, else as a hash
KEY_LIMIT = 24
_PLAIN_KEY = re.compile(rf"[\w.#-]{{1,{KEY_LIMIT}}}")
_TOKEN = re.compile(r"(?:(\d+)|o(\d+)(?:=(-?\d+))?|(p))")


def keyref(key: str) -> str:
    """How a decision key travels in a custom id or an autocomplete value: the key itself
    when short and plain, else ``~`` and a hash of it."""
    if _PLAIN_KEY.fullmatch(key):
        return key
    return "~" + hashlib.blake2b(key.encode(), digest_size=6).hexdigest()


def find_decision(decisions: Iterable[Decision], ref: str) -> Decision | None:
    """The decision a :func:`keyref` names, among ``decisions``."""
    for d in decisions:
        if keyref(d.key) == ref:
            return d
    return None


def fingerprint(decision: Decision) -> str:
    """Four hex digits that change when the decision's options change (a path read against
    other options would mean other answers: such a click is out of date)."""
    h = hashlib.blake2b(digest_size=2)
    for o in decision.options:
        h.update(o.id.encode())
        h.update(b"\0")
    h.update(b"p" if decision.optional else b"-")
    return h.hexdigest()


# ------------------------------------------------------------------------------- paths
@dataclass(frozen=True, slots=True)
class Token:
    """One answer in a path (see the module docstring)."""

    kind: str  # "v" facet value, "o" option, "p" pass
    index: int = 0
    number: int | None = None

    def text(self) -> str:
        if self.kind == "p":
            return "p"
        if self.kind == "v":
            return str(self.index)
        return f"o{self.index}" + ("" if self.number is None else f"={self.number}")

    @classmethod
    def parse(cls, text: str) -> Token:
        m = _TOKEN.fullmatch(text)
        if m is None:
            raise ValueError(f"not a path token: {text!r}")
        if m[1] is not None:
            return cls("v", int(m[1]))
        if m[2] is not None:
            return cls("o", int(m[2]), None if m[3] is None else int(m[3]))
        return cls("p")


Selection = tuple[Token, ...]
Path = tuple[Selection, ...]

ROOT: Path = ((),)


def parse_path(text: str) -> Path:
    """``"3.o1/o0"`` -> the selections of each decision of the chain.

    Raises:
        ValueError: for text that is no path.
    """
    if not text:
        return ROOT
    return tuple(
        tuple(Token.parse(t) for t in part.split(".")) if part else () for part in text.split("/")
    )


def path_text(path: Path) -> str:
    return "/".join(".".join(t.text() for t in sel) for sel in path)


def extend(path: Path, token: Token) -> Path:
    """The path with ``token`` answered in its last decision."""
    return path[:-1] + (path[-1] + (token,),)


def back(path: Path) -> Path:
    """The path one answer earlier (into the previous decision of a chain if need be)."""
    if path[-1]:
        return path[:-1] + (path[-1][:-1],)
    if len(path) > 1:
        prev = path[:-1]
        return prev[:-1] + (prev[-1][:-1],)
    return path


# ------------------------------------------------------------------------------- walking
@dataclass(frozen=True, slots=True)
class Question:
    """What a picker asks next: a facet's values, or (``facet`` None) the options."""

    facet: str | None
    values: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()

    def __len__(self) -> int:
        return len(self.values) if self.facet is not None else len(self.options)


@dataclass(frozen=True, slots=True)
class Step:
    """Where a selection has got in one decision: the facet values chosen, the options still
    possible, and the answer once complete (an option, a number, or pass)."""

    decision: Decision
    chosen: tuple[tuple[str, str], ...]
    remaining: tuple[Option, ...]
    option: Option | None = None
    number: int | None = None
    passed: bool = False

    @property
    def complete(self) -> bool:
        if self.passed:
            return True
        return self.option is not None and (self.option.number is None or self.number is not None)

    @property
    def needs_number(self) -> bool:
        """An option taking a number is chosen, but not the number (a modal asks it)."""
        return self.option is not None and self.option.number is not None and self.number is None

    def action(self) -> Any:
        """The engine action of a complete step."""
        if self.passed:
            return self.decision.pass_action
        assert self.option is not None
        if self.option.number is not None:
            assert self.number is not None
            return self.option.action_for(self.number)
        return self.option.action

    def question(self) -> Question:
        return question(self.decision, self.remaining, dict(self.chosen))


def _values(options: Sequence[Option], name: str) -> tuple[str, ...] | None:
    """The distinct values of facet ``name`` among ``options`` in order (``None`` when an
    option lacks it: then the facet cannot split them)."""
    out: list[str] = []
    for o in options:
        v = o.facet(name)
        if v is None:
            return None
        if v not in out:
            out.append(v)
    return tuple(out)


def _apart(options: Sequence[Option]) -> bool:
    """Whether a picture can show each option apart: no two share a target, except spots
    (two labels fit side by side on a feature) and options without one."""
    seen: set[Target] = set()
    for o in options:
        t = o.target
        if t is None or isinstance(t, FeatureRef):
            continue
        if t in seen:
            return False
        seen.add(t)
    return True


def question(decision: Decision, remaining: Sequence[Option], chosen: dict[str, str]) -> Question:
    """What to ask next (see the module docstring): the options themselves when they are few
    and a picture can tell them apart, else the first facet that still splits them."""
    if len(remaining) > FEW or not _apart(remaining):
        for name in decision.facet_names():
            if name in chosen:
                continue
            values = _values(remaining, name)
            if values is not None and len(values) > 1:
                return Question(name, values)
    return Question(None, options=tuple(remaining))


def narrow(options: Sequence[Option], name: str, value: str) -> tuple[Option, ...]:
    return tuple(o for o in options if o.facet(name) == value)


def walk(decision: Decision, selection: Selection) -> Step:
    """Read a selection of ``decision`` back.

    Raises:
        ValueError: when the tokens do not fit the decision (an index out of range, a pass
            on a decision that must be answered, a number out of range ...).
    """
    remaining = decision.options
    chosen: dict[str, str] = {}
    option: Option | None = None
    number: int | None = None
    passed = False
    for i, tok in enumerate(selection):
        if passed or (option is not None and (option.number is None or number is not None)):
            raise ValueError("the decision is already answered")
        if tok.kind == "p":
            if not decision.optional or decision.pass_action is None:
                raise ValueError("this decision cannot be passed")
            passed = True
        elif tok.kind == "o":
            if option is None:
                if not 0 <= tok.index < len(remaining):
                    raise ValueError("no such option")
                option = remaining[tok.index]
            if tok.number is not None:
                if option.number is None or tok.number not in option.number:
                    raise ValueError("number out of range")
                number = tok.number
        else:
            q = question(decision, remaining, chosen)
            if q.facet is None or not 0 <= tok.index < len(q.values):
                raise ValueError("no such value")
            chosen[q.facet] = q.values[tok.index]
            remaining = narrow(remaining, q.facet, q.values[tok.index])
            last = i == len(selection) - 1
            if last and len(remaining) == 1 and remaining[0].number is None:
                option = remaining[0]  # nothing left to ask
    return Step(decision, tuple(chosen.items()), tuple(remaining), option, number, passed)
