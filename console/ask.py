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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, TextIO, TypeVar

from app.choices import ROOT, Step, Token, back, extend
from app.choices import Path as Answers
from app.picking import Chain, OneDecision, Walker
from console.i18n import TEXTS, command, tl
from console.words import Words, figure_words, spot_words
from engine import PublicView
from engine.core.decisions import Cell, Decision, FeatureRef, Option, Target
from engine.core.errors import EngineError

HELP = TEXTS["help"][0]
PASS_WORDS = ("pass", "none", "skip", "-")
LETTERS = string.ascii_lowercase
#: a picture of a question's targets on a view: (decision, targets, labels, view) -> the file
#: written, if any
Picture = Callable[
    [Decision, Sequence[Target | None], Sequence[str], PublicView | None], Path | None
]
#: a picture of the drawn tile turned each offered way at a cell: (cell, rotations) -> file
Preview = Callable[[Cell, Sequence[str]], Path | None]


class EndOfInput(Exception):
    """stdin ended (or the player typed quit)."""


class Console:
    """Lines in and out; a line may carry several answers (the rest waits in ``queue``)."""

    def __init__(self, stdin: TextIO, stdout: TextIO, lang: str = "en") -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.lang = lang
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
        if text.lower() in ("quit", "exit", "q") or command(text) == "quit":
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
        self.stdout.write(tl(self.lang, "hidden") + "\n" if line else "")
        return line


# ----------------------------------------------------------------------------------- asking
#: the game's action type (the tile game's :class:`~engine.Action`, the card game's own)
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Answer(Generic[A]):
    """The actions that answer a decision (several when typed as notation joined by ';')."""

    actions: tuple[A, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    value: str  # the facet value or option id
    text: str  # its words
    note: str = ""  # shown beside the words: the raw value, the next question's values
    target: Target | None = None
    key: str = ""  # what to type (set when asked)
    token: str = ""  # the path token of this answer (app.choices)
    facet: str | None = None  # the facet this choice names a value of, if any


_BACK = "back"
_PASS = "\0pass"  # the decision passed: a token of the path, not a command
Reply = Answer[A] | str  # an answer, or a command: "undo" / "resign"


class Asker(Generic[A]):
    """Asks one seat one decision on the console (see the module docstring); its answers hold
    the actions ``parse`` reads (a decision's own options are of the same game)."""

    def __init__(
        self,
        con: Console,
        words: Words,
        picture: Picture | None = None,
        preview: Preview | None = None,
        *,
        help_key: str = "help",
        parse: Callable[[str], A],
        hidden_private: bool = True,
        commands: tuple[str, ...] = ("undo", "resign"),
    ) -> None:
        """``parse`` reads a move typed in notation (``Action.from_notation`` for tiles; the
        card game has its own);
        ``hidden_private``: a private decision's answers are typed without echo;
        ``commands``: the words returned to the caller as they are."""
        self.con = con
        self.words = words
        self.picture = picture
        self.preview = preview
        self.help = tl(words.lang, help_key)
        self.parse = parse
        self.hidden_private = hidden_private
        self.commands = commands
        self.view: PublicView | None = None
        self.hidden = False

    async def decide(
        self,
        d: Decision,
        who: str,
        view: PublicView | None,
        walker: Walker | None = None,
        *,
        name: str | None = None,
    ) -> Reply[A]:
        """Ask ``d`` until it is answered (or a command is typed).

        The answers so far are a path (:mod:`app.choices`) that ``walker`` reads back,
        as Discord reads a button's: the same questions in the same order, and when an answer
        leads to another decision of the seat that reveals nothing (a follower on the tile
        just placed) that one is asked too before anything is submitted, so ``back`` returns
        one step, across the two decisions too. Without a walker nothing is chained."""
        walker = walker if walker is not None else OneDecision(view)
        path: Answers = ROOT
        announced = ""
        auto: set[int] = set()  # path lengths reached by an answer given for the player
        while True:
            chain = await walker.walk(d, path)
            step, shown = chain.last, chain.view
            if step.complete:
                nxt = await walker.following(chain)
                if nxt is None:
                    return Answer(tuple(chain.answers()))
                step, shown = nxt
                path = path + ((),)
            dec = step.decision
            self.view = shown
            self.words.view = shown
            self.hidden = dec.private and self.hidden_private
            if dec.key != announced:
                announced = dec.key
                if self.hidden and not d.private:  # a secret reached from an open answer
                    self.con.queue.clear()  # a line typed in the open never answers it
                    notice = tl(self.words.lang, "private", name=name or who)
                    self.con.say("\n  " + notice)
                self.con.say(f"  {self.words.prompt(dec.prompt)}")
            can_back = any(path)
            within = bool(path[-1])
            reply: Reply[A] | Choice | int
            if not dec.options and dec.optional and dec.pass_action is not None:
                self.con.say(tl(self.words.lang, "passing"))
                path = extend(path, Token("p"))
                continue
            if step.needs_number:
                assert step.option is not None
                back_to = _length(path) - 1 if _length(path) in auto else _length(path)
                reply = self._ask_number(dec, who, step.option, back=back_to > 0)
                if isinstance(reply, int):
                    last = path[-1][-1]
                    path = path[:-1] + (path[-1][:-1] + (Token("o", last.index, reply),),)
                    continue
                if reply == _PASS:
                    path = path[:-1] + (path[-1][:-1] + (Token("p"),),)
                    continue
                if reply == _BACK:
                    while _length(path) > back_to - 1 and any(path):
                        auto.discard(_length(path))
                        path = back(path)
                    continue
                return reply
            q = step.question()
            if q.facet is None and len(q.options) == 1 and q.options[0].number is not None:
                path = extend(path, Token("o", 0))  # a single number: ask the number itself
                auto.add(_length(path))
                continue
            context = self._context(step)
            if q.facet is not None:
                choices = self._facet_choices(step, q.facet, q.values)
                preview = self._preview(step, q.facet, q.values)
                title = self.words.facet(q.facet)
                reply = self._ask(
                    dec, who, title, choices, context, can_back, preview=preview, within=within
                )
            else:
                reply = self._ask_options(step, q.options, who, context, can_back, within)
            if reply == _PASS:
                path = extend(path, Token("p"))
                continue
            if reply == _BACK:
                path = back(path)
                while _length(path) in auto and any(path):
                    auto.discard(_length(path))
                    path = back(path)
                continue
            if isinstance(reply, Choice):
                path = extend(path, Token.parse(reply.token))
                self._said_for_player(await walker.walk(d, path), reply.facet)
                continue
            assert not isinstance(reply, int)
            if reply == "undo" and len(path) > 1:  # nothing is stored yet: back to the start
                self.con.say(tl(self.words.lang, "taken_back"))
                path, auto = ROOT, set()
                continue
            return reply

    def _ask_options(
        self,
        step: Step,
        options: Sequence[Option],
        who: str,
        context: str,
        can_back: bool,
        within: bool,
    ) -> Reply[A] | Choice:
        """The options themselves (few, as Discord shows them as buttons): named by the first
        facet that tells each apart (a cell, a spot) as that facet's question would, else
        each in its own words."""
        d = step.decision
        chosen = dict(step.chosen)
        for name in d.facet_names():
            values = [o.facet(name) for o in options]
            if name in chosen or None in values or len(set(values)) != len(values):
                continue
            listed = [v for v in values if v is not None]
            choices = self._facet_choices(step, name, listed)
            choices = [replace(c, token=f"o{i}", facet=name) for i, c in enumerate(choices)]
            title = self.words.facet(name)
            return self._ask(d, who, title, choices, context, can_back, within=within)
        where = not self._all_on_placed([o.target for o in options])
        choices = [
            Choice(o.id, self.words.option(o, where=where), target=o.target, token=f"o{i}")
            for i, o in enumerate(options)
        ]
        return self._ask(d, who, "", choices, context, can_back, within=within)

    def _context(self, step: Step) -> str:
        """The facet values chosen so far, in words ("cell 6")."""
        return ", ".join(
            f"{self.words.facet(k)} {self.words.value(k, v) or self._target_words(step, k, v)}"
            for k, v in step.chosen
        )

    def _target_words(self, step: Step, name: str, value: str) -> str:
        targets = {o.target for o in step.decision.options if o.facet(name) == value}
        if len(targets) == 1 and None not in targets:
            (t,) = targets
            return self.words.target(t) or value
        return value

    def _said_for_player(self, chain: Chain, facet: str | None) -> None:
        """A facet answer that left one option completes the decision: say what fits for
        the player (the one rotation of a tile at its cell) and drop the word typed ahead
        for that step ("6 1 pass": cell 6, its first rotation, no follower)."""
        step = chain.last
        if facet is None or not step.complete or step.option is None:
            return
        d, o = step.decision, step.option
        chosen = dict(step.chosen)
        context = self._context(step)
        for name in d.facet_names():
            value = o.facet(name)
            if name in chosen or name == facet or value is None:
                continue
            if len(d.facet_values(name)) < 2:
                continue
            said = self.words.value(name, value) or value
            at = tl(self.words.lang, "for", context=context) if context else ""
            self.con.say(tl(self.words.lang, "only_fits", what=said, at=at))
            self._skip_typed_answer(value, said)

    def _skip_typed_answer(self, value: str, text: str) -> None:
        """A step answered for the player (one value fits) may still have been answered on the
        line typed ahead: that word is this step's, not the next question's, so it is dropped."""
        if self.con.queue and _match(self.con.queue[0], [Choice(value, text, key="1")]):
            self.con.queue.pop(0)

    def _preview(self, step: Step, name: str, values: Sequence[str]) -> Path | None:
        """The drawn tile turned each offered way at its cell (as Discord shows it), when the
        question is the rotation of a tile at a chosen cell."""
        if self.preview is None or name != "rotation" or len(values) < 2:
            return None
        targets = {o.target for o in step.remaining}
        if len(targets) != 1:
            return None
        (cell,) = targets
        return self.preview(cell, values) if isinstance(cell, Cell) else None

    def _all_on_placed(self, targets: Sequence[Target | None]) -> bool:
        """Whether every target is a feature of the tile just placed (then the listing need
        not repeat its cell)."""
        placed = self.view.placed if self.view is not None else None
        return placed is not None and all(
            isinstance(t, FeatureRef) and (t.x, t.y) == (placed.x, placed.y) for t in targets
        )

    def _facet_choices(self, step: Step, name: str, values: Sequence[str]) -> list[Choice]:
        """One choice per value of facet ``name``, in words: the catalogue's, else its
        target's (when each value has its own), else the value itself; beside each, the
        values of the next facet it leaves."""
        d = step.decision
        names = d.facet_names()
        at = names.index(name)
        nxt = names[at + 1] if at + 1 < len(names) else None
        targets: list[Target | None] = []
        for v in values:
            ts = {o.target for o in step.remaining if o.facet(name) == v}
            targets.append(ts.pop() if len(ts) == 1 else None)
        distinct = None not in targets and len(set(targets)) == len(targets)
        where = not self._all_on_placed(targets)
        out = []
        for i, (v, t) in enumerate(zip(values, targets, strict=True)):
            text = self.words.value(name, v)
            note = ""
            if text is None:
                said = self.words.target(t, where=where) if distinct else ""
                text = said or v  # the words only: a half-edge code helps nobody
            if nxt is not None and len(d.facet_values(nxt)) > 1:
                after = []
                for o in step.remaining:
                    a = o.facet(nxt)
                    if o.facet(name) == v and a is not None and a not in after:
                        after.append(a)
                words = [self.words.value(nxt, a) or a for a in after]
                listed = (", " if any(" " in w for w in words) else " ").join(words)
                note = listed
            out.append(Choice(v, text, note, t if distinct else None, token=str(i), facet=name))
        return out

    # ------------------------------------------------------------------ one question
    def _ask(
        self,
        d: Decision,
        who: str,
        title: str,
        choices: list[Choice],
        context: str,
        back: bool,
        *,
        preview: Path | None = None,
        within: bool | None = None,
    ) -> Reply[A] | Choice:
        """One question: the choices listed (or inline when few and short), then lines read
        until one names a choice, passes, goes back, types a move or a command."""
        lang = self.words.lang
        cells = bool(choices) and all(isinstance(c.target, Cell) for c in choices)
        spots = bool(choices) and all(isinstance(c.target, FeatureRef) for c in choices)
        within = back if within is None else within  # an answer given in this decision
        numbered = cells or (within and not spots) or len(choices) > len(LETTERS)
        keys = [str(i) for i in range(1, len(choices) + 1)] if numbered else list(LETTERS)
        choices = [
            Choice(c.value, c.text, c.note, c.target, k, c.token, c.facet)
            for k, c in zip(keys, choices, strict=False)
        ]
        may_pass = d.optional and d.pass_action is not None
        yes_no = may_pass and len(choices) == 1
        inline = within and len(choices) <= 6 and all(len(c.text) <= 14 for c in choices)
        where = ""
        if preview is not None:  # the tile turned each way, in the order listed
            self.con.say(tl(lang, "preview", path=preview))
        # the board image numbers the drawn tile's cells; other cells (an abbey's holes) get a
        # picture of their own, numbered as listed
        if cells and self.view is not None and self.view.drawn is not None:
            where = tl(lang, "numbered_board")
        elif self.picture is not None and any(c.target for c in choices):
            labels = [c.key.upper() for c in choices]
            path = self.picture(d, [c.target for c in choices], labels, self.view)
            if path is not None:
                where = tl(lang, "numbered_on" if numbered else "lettered_on", path=path)
        about = f"{title}{tl(lang, 'for', context=context)}" if title and context else title
        q_pass, q_back = tl(lang, "q_pass"), tl(lang, "q_back")
        if inline:
            listed = " ".join(f"{c.key}) {c.text}" for c in choices)
            more = [q_pass] if may_pass else []
            more += [q_back] if back else []
            prompt = tl(
                lang, "inline", about=about[:1].upper() + about[1:], listed=listed,
                more=tl(lang, "or").join(more),
            )  # fmt: skip
        else:
            span = keys[0] if len(choices) == 1 else f"{keys[0]}-{keys[len(choices) - 1]}"
            word = title or tl(lang, "word_choice")
            parts = [f"{word} ({span})"] if choices else []
            parts += [q_pass] if may_pass else []
            parts += [q_back] if back else []
            prompt = tl(lang, "asking", who=who, parts=", ".join(parts))
            if yes_no:
                prompt = tl(lang, "asking_yes_no", who=who, choice=keys[0])

        def show() -> None:
            if inline:
                return
            if choices and title:
                self.con.say(tl(lang, "choose_about", about=about, where=where))
            elif where:
                self.con.say(tl(lang, "choose", where=where))
            width = max((len(c.text) for c in choices if c.note), default=0)
            for c in choices:
                line = f"{c.text:<{width}}   {c.note}" if c.note else c.text
                self.con.say(f"    {c.key:>2}) {line}")
            if may_pass:
                self.con.say(tl(lang, "or_pass"))

        if not self.con.queue:
            show()
        while True:
            text = self.con.ask(prompt, hidden=self.hidden)
            low = command(text)
            if low in ("help", "?"):
                self.con.say(self.help)
                show()
                continue
            if low in ("", "board", "list") or (low == _BACK and not back):
                show()
                continue
            if low in self.commands or low == _BACK:
                return low
            word, *rest = text.split()
            picked = _match(word, choices)
            if picked is not None:
                if self.con.queued and not self.hidden and picked.text != word:
                    self.con.say(f"    → {picked.text}")
                self.con.queue[:0] = rest
                return picked
            w = command(word)
            if may_pass and (w in PASS_WORDS or (yes_no and w in ("n", "no"))):
                self.con.queue[:0] = rest
                return _PASS
            if w in PASS_WORDS and choices:  # 'pass' / 'pasar' where passing is not allowed
                self.con.queue.clear()
                span = keys[0] if len(choices) == 1 else f"{keys[0]}-{keys[len(choices) - 1]}"
                self.con.say(tl(lang, "no_pass_choice", span=span))
                continue
            if yes_no and w in ("y", "yes"):
                self.con.queue[:0] = rest
                return choices[0]
            self.con.queue.clear()
            if choices and (word.isdigit() or (len(word) == 1 and word.isalpha())):
                passing = tl(lang, "or_passing") if may_pass else ""
                last = choices[-1].key
                if len(choices) == 1:
                    self.con.say(tl(lang, "type_key", choice=choices[0].key, passing=passing))
                elif numbered:
                    what = title or tl(lang, "word_choice")
                    self.con.say(tl(lang, "pick_number", what=what, last=last, passing=passing))
                else:
                    self.con.say(tl(lang, "pick_letter", last=last, passing=passing))
                continue
            parsed = self._notation(text)
            if parsed is not None:
                return parsed

    def _ask_number(self, d: Decision, who: str, o: Option, *, back: bool) -> Reply[A] | int:
        rng = o.number
        assert rng is not None
        lang = self.words.lang
        if rng.max is not None:
            span = tl(lang, "span_to", min=rng.min, max=rng.max)
        else:
            span = tl(lang, "span_up", min=rng.min)
        may_pass = d.optional and d.pass_action is not None
        extra = (f", {tl(lang, 'q_pass')}" if may_pass else "") + (
            f", {tl(lang, 'q_back')}" if back else ""
        )
        prompt = tl(lang, "number_prompt", who=who, span=span, extra=extra)
        passing = tl(lang, "or") + tl(lang, "q_pass") if may_pass else ""
        while True:
            text = self.con.ask(prompt, hidden=self.hidden)
            low = command(text)
            if low in ("help", "?"):
                self.con.say(self.help)
                continue
            if low in ("", "board", "list"):
                self.con.say(tl(lang, "type_number", span=span))
                continue
            if low in self.commands or (low == _BACK and back):
                return low
            if low.lstrip("-").isdigit():
                n = int(low)
                if n in rng:
                    return n
                self.con.say(tl(lang, "pick_a_number", span=span))
                continue
            if low in PASS_WORDS:
                if may_pass:
                    return _PASS
                self.con.say(tl(lang, "no_pass_number", span=span))
                continue
            # anything else may be a move typed in notation; if not, the number asked is
            # named again — never what was typed (a private answer is not echoed)
            hint = tl(lang, "not_a_number", span=span, passing=passing)
            parsed = self._notation(text, hint=hint)
            if parsed is not None:
                return parsed

    def _notation(self, text: str, *, hint: str | None = None) -> Answer[A] | None:
        """Raw notation; several actions may be joined with ';' (``place 1,0 r0; pass``).
        What is not notation is answered with ``hint`` when given (the question's own words,
        without echoing the text), else with the notation's error."""
        self.con.queue.clear()
        try:
            actions = tuple(self.parse(p) for p in text.split(";") if p.strip())
        except (EngineError, ValueError) as e:
            if hint is not None:
                self.con.say(hint)
                return None
            error = e.text(self.words.lang) if isinstance(e, EngineError) else str(e)
            self.con.say(tl(self.words.lang, "not_understood", error=error))
            return None
        return Answer(actions) if actions else None


def _length(path: Answers) -> int:
    """How many answers a path holds (across its chain)."""
    return sum(len(sel) for sel in path)


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


__all__ = [
    "HELP",
    "Answer",
    "Asker",
    "Console",
    "EndOfInput",
    "Reply",
    "Words",
    "figure_words",
    "spot_words",
]
