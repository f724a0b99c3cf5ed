"""The console's presenter for any decision (``carcabot local``, ARCHITECTURE.md §5.8).

A :class:`~engine.core.decisions.Decision` is shown from its own fields, whatever expansion
asked it: the prompt in words, then one question per facet (a cell by its number on the board
image, then a rotation; a spot by its letter, then a figure when there is a choice), the
options themselves when facets do not single one out, a number for an ``IntRange`` option, and
``pass`` when the decision is optional. Several answers may be typed on one line
(``3 r90 a``): what is left of a line answers the next questions.
"""

from __future__ import annotations

import os
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from engine import Action, InvalidActionError, PublicView
from engine.core import messages
from engine.core.decisions import (
    CardRef,
    Cell,
    Corner,
    Decision,
    FeatureRef,
    FigureRef,
    Option,
    Prompt,
    Target,
    TileChoice,
    TrackSpace,
)

HELP = (
    "Answer each question with its number or letter ('pass' when you may pass, 'back' to go "
    "back), or several at once ('3 r90 a'); or type the move itself: 'place X,Y r90', "
    "'deploy city:N', 'pass'. Also: 'board' (list again), 'undo', 'resign', 'quit'."
)
PASS_WORDS = ("pass", "none", "skip", "-")
LETTERS = string.ascii_lowercase
#: a picture of a question's targets: (decision, targets, labels) -> the file written, if any
Picture = Callable[[Decision, Sequence[Target | None], Sequence[str]], Path | None]


class EndOfInput(Exception):
    """stdin ended (or the player typed quit)."""


class Console:
    """Lines in and out; a line may carry several answers (the rest waits in ``queue``)."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.queue: list[str] = []
        self.queued = False  # the last answer came from the queue (typed on an earlier line)

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str, *, hidden: bool = False) -> str:
        """The next answer: a word left from the last line (shown after the prompt, unless
        hidden), else a new line. Raises :class:`EndOfInput` at the end of input or 'quit'."""
        self.queued = bool(self.queue)
        if self.queue:
            word = self.queue.pop(0)
            self.say(prompt + ("•" * len(word) if hidden else word))
            return word
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self._read_hidden() if hidden else self.stdin.readline()
        if not line:
            self.say()
            raise EndOfInput
        text = line.strip()
        if text.lower() in ("quit", "exit", "q"):
            raise EndOfInput
        return text

    def _read_hidden(self) -> str:
        """A line typed without echo when stdin is a terminal (a private answer)."""
        try:
            fd = self.stdin.fileno()
            if not os.isatty(fd):
                raise OSError
            import termios
        except (OSError, ValueError, AttributeError, ImportError):
            return self.stdin.readline()
        old = termios.tcgetattr(fd)
        new = termios.tcgetattr(fd)
        new[3] &= ~termios.ECHO
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, new)
            line = self.stdin.readline()
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)
        self.stdout.write("(hidden)\n" if line else "")
        return line


# ----------------------------------------------------------------------------------- words
_SIDES = {"N": "north", "E": "east", "S": "south", "W": "west"}
#: the corner of the tile each half-edge of a field touches (clockwise from north-west)
_CORNERS = ("north-west", "north-east", "south-east", "south-west")
_HALF_CORNER = {"Nw": 0, "Wn": 0, "Ne": 1, "En": 1, "Es": 2, "Se": 2, "Sw": 3, "Ws": 3}


def spot_words(spot: str) -> str:
    """``city:NW`` -> ``city (north, west)``; a field by the corners it touches:
    ``field:Es.Se`` -> ``field (south-east)``, ``field:En.Sw`` -> ``field (north-east,
    south-west)`` (two fields of one tile never read the same)."""
    if spot == "cloister":
        return "cloister"
    kind, _, where = spot.partition(":")
    if where.startswith("inner"):
        return f"{kind} (middle)"
    if kind == "field":
        corners = sorted({_HALF_CORNER[h] for h in where.split(".") if h in _HALF_CORNER})
        if len(corners) == len(_CORNERS):
            return "field (all around)"
        return f"field ({', '.join(_CORNERS[c] for c in corners)})" if corners else kind
    sides = [_SIDES[c] for c in where if c in _SIDES]
    return f"{kind} ({', '.join(sides)})" if sides else kind


def figure_words(figure: str) -> str:
    key = f"fig.{figure}"
    return messages.text(key) if messages.has(key) else figure


class Words:
    """Prompts, options and targets in English, with seat numbers shown as names."""

    def __init__(self, names: Sequence[str], lang: str = "en") -> None:
        self.names = tuple(names)
        self.lang = lang

    def seat(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else "neutral"

    def prompt(self, prompt: Prompt) -> str:
        """A message key with its parameters in words (a Prompt parameter is translated
        too; ``seat`` / ``*_seat`` parameters become player names)."""
        params: dict[str, Any] = {}
        for name, value in prompt.params:
            if isinstance(value, Prompt):
                value = self.prompt(value)
            elif (name == "seat" or name.endswith("_seat")) and isinstance(value, int):
                value = self.seat(int(value))
            params[name] = value
        return messages.text(prompt.key, self.lang, **params)

    def target(self, t: Target | None, *, where: bool = True) -> str:
        """A target in words; ``where=False`` leaves out the cell of a feature (when every
        choice is on the tile just placed)."""
        if isinstance(t, Cell):
            return f"{t.x},{t.y}"
        if isinstance(t, FeatureRef):
            return spot_words(t.spot) + (f" at {t.x},{t.y}" if where else "")
        if isinstance(t, FigureRef):
            owner = "neutral" if t.seat is None or t.seat < 0 else f"{self.seat(t.seat)}'s"
            return f"{owner} {figure_words(t.figure)} on the {spot_words(t.spot)} at {t.x},{t.y}"
        if isinstance(t, Corner):
            return f"the corner north-west of {t.x},{t.y}"
        if isinstance(t, TrackSpace):
            return f"space {t.n} of the score track"
        if isinstance(t, TileChoice):
            return f"tile {t.tile}"
        if isinstance(t, CardRef):
            return f"card {t.code}"
        return ""

    def value(self, facet: str, value: str) -> str | None:
        """A facet value's own words when the catalogue has them (``fig.<kind>``,
        ``<facet>.<value>``), else None."""
        if facet == "figure" and messages.has(f"fig.{value}"):
            return messages.text(f"fig.{value}", self.lang)
        if messages.has(f"{facet}.{value}"):
            return messages.text(f"{facet}.{value}", self.lang)
        return None

    def facet(self, facet: str) -> str:
        key = f"facet.{facet}"
        return messages.text(key, self.lang) if messages.has(key) else facet

    def option(self, o: Option, *, where: bool = True) -> str:
        if o.label is not None:
            return self.prompt(o.label)
        if o.number is not None:
            hi = "" if o.number.max is None else f"-{o.number.max}"
            return f"a number {o.number.min}{hi}"
        text = self.target(o.target, where=where)
        if text:
            return text
        if o.facets:
            return " · ".join(self.value(k, v) or v for k, v in o.facets)
        return o.id


# ----------------------------------------------------------------------------------- asking
@dataclass(frozen=True, slots=True)
class Answer:
    """The actions that answer a decision (several when typed as notation joined by ';')."""

    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    value: str  # the facet value or option id
    text: str  # its words
    note: str = ""  # shown beside the words: the raw value, the next question's values
    target: Target | None = None
    key: str = ""  # what to type (set when asked)


_BACK = "back"
Reply = Answer | str  # an answer, or a command: "undo" / "resign"


class Asker:
    """Asks one seat one decision on the console (see the module docstring)."""

    def __init__(self, con: Console, words: Words, picture: Picture | None = None) -> None:
        self.con = con
        self.words = words
        self.picture = picture
        self.view: PublicView | None = None
        self.hidden = False

    def decide(self, d: Decision, who: str, view: PublicView | None) -> Reply:
        """Ask ``d`` until it is answered (or a command is typed)."""
        self.view = view
        self.hidden = d.private
        self.con.say(f"  {self.words.prompt(d.prompt)}")
        if not d.options and d.optional and d.pass_action is not None:
            self.con.say("  Nothing can be chosen here: passing.")
            return Answer((d.pass_action,))
        names = d.facet_names()
        chosen: dict[str, str] = {}
        said: dict[str, str] = {}  # the words of each chosen value, for later questions
        asked: list[int] = []  # the facet levels asked, for 'back'
        level = 0
        while True:
            context = ", ".join(f"{self.words.facet(k)} {said[k]}" for k in chosen)
            reply: Reply | Choice
            if level < len(names):
                name = names[level]
                values = d.facet_values(name, **chosen)
                if not values or (len(values) == 1 and asked):
                    if values:  # nothing to ask: one value (a follower, the only rotation)
                        chosen[name] = values[0]
                        said[name] = self.words.value(name, values[0]) or values[0]
                        if len(d.facet_values(name)) > 1:
                            at = f" for {context}" if context else ""
                            self.con.say(f"  Only {said[name]} fits{at}.")
                    level += 1
                    continue
                choices = self._facet_choices(d, names, level, values, chosen)
                reply = self._ask(d, who, self.words.facet(name), choices, context, bool(asked))
            else:
                rest = d.narrow(**chosen)
                if len(rest) == 1 and (asked or rest[0].number is not None):
                    reply = self._finish(d, who, rest[0], back=bool(asked))
                else:
                    where = not self._all_on_placed([o.target for o in rest])
                    choices = [
                        Choice(o.id, self.words.option(o, where=where), target=o.target)
                        for o in rest
                    ]
                    reply = self._ask(d, who, "", choices, context, bool(asked))
                    if isinstance(reply, Choice):
                        picked = next(o for o in rest if o.id == reply.value)
                        reply = self._finish(d, who, picked, back=True)
            if reply == _BACK:
                level = asked.pop() if asked else 0
                for n in names[level:]:
                    chosen.pop(n, None)
                continue
            if isinstance(reply, Choice):
                chosen[names[level]] = reply.value
                said[names[level]] = reply.text
                asked.append(level)
                level += 1
                continue
            return reply

    def _all_on_placed(self, targets: Sequence[Target | None]) -> bool:
        """Whether every target is a feature of the tile just placed (then the listing need
        not repeat its cell)."""
        placed = self.view.placed if self.view is not None else None
        return placed is not None and all(
            isinstance(t, FeatureRef) and (t.x, t.y) == (placed.x, placed.y) for t in targets
        )

    def _finish(self, d: Decision, who: str, o: Option, *, back: bool) -> Reply:
        if o.number is None:
            return Answer((o.action,))
        return self._ask_number(d, who, o, back=back)

    def _facet_choices(
        self,
        d: Decision,
        names: Sequence[str],
        level: int,
        values: Sequence[str],
        chosen: dict[str, str],
    ) -> list[Choice]:
        """One choice per value of facet ``names[level]``, in words: the catalogue's, else
        its target's (when each value has its own), else the value itself."""
        name = names[level]
        nxt = names[level + 1] if level + 1 < len(names) else None
        targets: list[Target | None] = []
        for v in values:
            ts = {o.target for o in d.narrow(**chosen, **{name: v})}
            targets.append(ts.pop() if len(ts) == 1 else None)
        distinct = None not in targets and len(set(targets)) == len(targets)
        where = not self._all_on_placed(targets)
        out = []
        for v, t in zip(values, targets, strict=True):
            text = self.words.value(name, v)
            note = ""
            if text is None:
                said = self.words.target(t, where=where) if distinct else ""
                text, note = (said, f"[{v}]") if said and said != v else (v, "")
            if nxt is not None and len(d.facet_values(nxt)) > 1:
                after = d.facet_values(nxt, **chosen, **{name: v})
                words = [self.words.value(nxt, a) or a for a in after]
                listed = (", " if any(" " in w for w in words) else " ").join(words)
                note = f"{note} — {listed}" if note else listed
            out.append(Choice(v, text, note, t if distinct else None))
        return out

    # ------------------------------------------------------------------ one question
    def _ask(
        self, d: Decision, who: str, title: str, choices: list[Choice], context: str, back: bool
    ) -> Reply | Choice:
        """One question: the choices listed (or inline when few and short), then lines read
        until one names a choice, passes, goes back, types a move or a command."""
        cells = bool(choices) and all(isinstance(c.target, Cell) for c in choices)
        numbered = cells or back or len(choices) > len(LETTERS)
        keys = [str(i) for i in range(1, len(choices) + 1)] if numbered else list(LETTERS)
        choices = [
            Choice(c.value, c.text, c.note, c.target, k)
            for k, c in zip(keys, choices, strict=False)
        ]
        may_pass = d.optional and d.pass_action is not None
        yes_no = may_pass and len(choices) == 1 and not back
        inline = back and len(choices) <= 6 and all(len(c.text) <= 14 for c in choices)
        where = ""
        if cells:
            where = " (numbered as on the board image)"
        elif self.picture is not None and not back and any(c.target for c in choices):
            labels = [c.key.upper() for c in choices]
            path = self.picture(d, [c.target for c in choices], labels)
            if path is not None:
                where = f" ({'numbered' if numbered else 'lettered'} as on {path})"
        about = f"{title} for {context}" if title and context else title
        if inline:
            listed = " ".join(f"{c.key}) {c.text}" for c in choices)
            more = ["'pass'"] if may_pass else []
            more += ["'back'"] if back else []
            prompt = f"  {about.capitalize()}: {listed} (or {' or '.join(more)})> "
        else:
            span = keys[0] if len(choices) == 1 else f"{keys[0]}-{keys[len(choices) - 1]}"
            parts = [f"{title or 'choice'} ({span})"] if choices else []
            parts += ["'pass'"] if may_pass else []
            parts += ["'back'"] if back else []
            prompt = f"{who}: {', '.join(parts)} or a move> "
            if yes_no:
                prompt = f"{who}: {keys[0]} or 'pass' (yes/no), or a move> "

        def show() -> None:
            if inline:
                return
            if choices and title:
                self.con.say(f"  Choose a {about}{where}:")
            elif where:
                self.con.say(f"  Choose{where}:")
            width = max((len(c.text) for c in choices if c.note), default=0)
            for c in choices:
                line = f"{c.text:<{width}}   {c.note}" if c.note else c.text
                self.con.say(f"    {c.key:>2}) {line}")
            if may_pass:
                self.con.say("    or 'pass'")

        if not self.con.queue:
            show()
        while True:
            text = self.con.ask(prompt, hidden=self.hidden)
            low = text.lower()
            if low in ("help", "?"):
                self.con.say(HELP)
                show()
                continue
            if low in ("", "board", "list") or (low == _BACK and not back):
                show()
                continue
            if low in ("undo", "resign", _BACK):
                return low
            word, *rest = text.split()
            picked = _match(word, choices)
            if picked is not None:
                if self.con.queued and not self.hidden and picked.text != word:
                    self.con.say(f"    → {picked.text}")
                self.con.queue[:0] = rest
                return picked
            w = word.lower()
            if may_pass and (w in PASS_WORDS or (yes_no and w in ("n", "no"))):
                self.con.queue[:0] = rest
                return Answer((d.pass_action,))
            if yes_no and w in ("y", "yes"):
                self.con.queue[:0] = rest
                return choices[0]
            self.con.queue.clear()
            if choices and (word.isdigit() or (len(word) == 1 and word.isalpha())):
                what = f"a {title or 'choice'} from 1" if numbered else "a letter from a"
                if len(choices) == 1:
                    what = f"Type {choices[0].key}"
                else:
                    what = f"Pick {what} to {choices[-1].key}"
                self.con.say(f"  {what}{', or pass' if may_pass else ''}.")
                continue
            parsed = self._notation(text)
            if parsed is not None:
                return parsed

    def _ask_number(self, d: Decision, who: str, o: Option, *, back: bool) -> Reply:
        rng = o.number
        assert rng is not None
        span = f"from {rng.min} to {rng.max}" if rng.max is not None else f"of {rng.min} or more"
        may_pass = d.optional and d.pass_action is not None
        extra = (", 'pass'" if may_pass else "") + (", 'back'" if back else "")
        prompt = f"{who}: a number {span}{extra}> "
        while True:
            text = self.con.ask(prompt, hidden=self.hidden)
            low = text.lower()
            if low in ("help", "?"):
                self.con.say(HELP)
                continue
            if low in ("", "board", "list"):
                self.con.say(f"  Type a number {span}.")
                continue
            if low in ("undo", "resign") or (low == _BACK and back):
                return low
            if low.lstrip("-").isdigit():
                n = int(low)
                if n in rng:
                    return Answer((o.action_for(n),))
                self.con.say(f"  Pick a number {span}.")
                continue
            if may_pass and low in PASS_WORDS:
                return Answer((d.pass_action,))
            parsed = self._notation(text)
            if parsed is not None:
                return parsed

    def _notation(self, text: str) -> Answer | None:
        """Raw notation; several actions may be joined with ';' (``place 1,0 r0; pass``)."""
        self.con.queue.clear()
        try:
            actions = tuple(Action.from_notation(p) for p in text.split(";") if p.strip())
        except (InvalidActionError, ValueError) as e:
            self.con.say(f"  I did not understand that ({e}). Type 'help' for the choices.")
            return None
        return Answer(actions) if actions else None


def _match(word: str, choices: Sequence[Choice]) -> Choice | None:
    """The choice typed as its key, its value or its words (case does not matter)."""
    low = word.lower()
    for field in range(3):
        for c in choices:
            if (c.key, c.value, c.text)[field].lower() == low:
                return c
    if low.isdigit():  # a rotation typed in degrees: 90 -> r90
        for c in choices:
            if c.value.lower() == f"r{low}":
                return c
    return None


__all__ = ["HELP", "Answer", "Asker", "Console", "EndOfInput", "Reply", "Words", "spot_words"]
