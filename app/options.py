"""The tile game's lobby options, and the expansions and rules a lobby may choose from.

Expansions and their rule variants come from the engine's registry
(:func:`engine.carcassonne.registry.all_expansions`; each class lists its
:class:`~engine.carcassonne.expansion.Option` s), so a new expansion shows up in the lobby
without any change here. A lobby stores only the rule values its host chose
(:attr:`MatchOptions.rules`); every other rule keeps its expansion's default. The chosen values
reach the game as ``GameSetup.options`` (:func:`game_setup`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from app.base import ERR_ILLEGAL, ServiceError
from engine import EngineError, GameSetup
from engine.carcassonne.registry import all_expansions, find_expansion
from engine.carcassonne.state import (
    FARM_SCORING_VALUES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TINY_CITY_VALUES,
)
from engine.core import messages
from storage import MatchRow
from storage.rows import loads


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule variant an expansion offers: its key, default, choices and English help (the
    engine catalogue words it as ``opt.<key>`` and ``help.<key>``)."""

    expansion: str
    key: str
    default: Any
    choices: tuple[Any, ...]
    help: str = ""


def expansion_ids() -> tuple[str, ...]:
    """Every playable expansion, in the engine's registry (hook) order."""
    return tuple(cls.id for cls in all_expansions())


def rules_of(expansion_id: str) -> tuple[Rule, ...]:
    """The rule variants of one expansion (none for an unknown id)."""
    for cls in all_expansions():
        if cls.id == expansion_id:
            return tuple(
                Rule(cls.id, o.key, o.default, tuple(o.choices), o.help) for o in cls.options
            )
    return ()


def find_rule(key: str) -> Rule | None:
    """The rule ``key`` of any registered expansion."""
    for e in expansion_ids():
        for r in rules_of(e):
            if r.key == key:
                return r
    return None


def rules_for(expansions: Iterable[str]) -> tuple[Rule, ...]:
    """The rule variants of the given expansions, in registry order."""
    wanted = set(expansions)
    return tuple(r for e in expansion_ids() if e in wanted for r in rules_of(e))


def same_value(a: Any, b: Any) -> bool:
    """Equal and of the same type (``1`` is not ``True``, although Python says ``1 == True``)."""
    return type(a) is type(b) and bool(a == b)


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """Lobby options (RULES.md §0.3) plus the expansions and their chosen rule values."""

    players: int = 2  # seats wanted (2–6); start is allowed with >= 2 joined
    farm_scoring: str = "per_farm"  # or "city_supply_1st_ed"
    tiny_city: int = 2  # or 4
    reminder_minutes: int = 0  # 0 = no turn reminders
    random_seats: bool = True  # shuffle seat order at start (else join order)
    expansions: tuple[str, ...] = ()  # engine expansion ids, in registry order
    #: rule values the host chose, as sorted ``(key, value)`` pairs (see :class:`Rule`)
    rules: tuple[tuple[str, Any], ...] = ()
    #: the turn clock (app/clocks.py): ``off``, ``live`` (a quick game: minutes a move) or
    #: ``async`` (a game over days: hours a move); ``clock_seconds`` a move (0: the mode's
    #: default); at the deadline an AI stand-in moves, and after ``missed_limit`` missed moves
    #: in a row the seat is handed to the AI
    clock: str = "off"
    clock_seconds: int = 0
    missed_limit: int = 3
    #: the language the match was opened in (``en``/``es``/``de``; empty: not recorded) — the local
    #: table resumes a match in it
    lang: str = ""

    def rule(self, key: str) -> Any:
        """The value of rule ``key`` in this match: the chosen one, else the default."""
        for k, v in self.rules:
            if k == key:
                return v
        for r in rules_for(self.expansions):
            if r.key == key:
                return r.default
        raise KeyError(key)

    def with_expansions(self, expansions: Iterable[str]) -> MatchOptions:
        """These options with other expansions (registry order); rules of expansions no longer
        chosen are dropped."""
        chosen = set(expansions)
        ordered = tuple(e for e in expansion_ids() if e in chosen)
        ordered += tuple(sorted(chosen - set(ordered)))  # unknown ids stay, for validate()
        keys = {r.key for r in rules_for(ordered)}
        rules = tuple((k, v) for k, v in self.rules if k in keys)
        return replace(self, expansions=ordered, rules=rules)

    def with_rule(self, key: str, value: Any) -> MatchOptions:
        rules = dict(self.rules)
        rules[key] = value
        return replace(self, rules=tuple(sorted(rules.items())))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "players": self.players,
            "farm_scoring": self.farm_scoring,
            "tiny_city": self.tiny_city,
            "reminder_minutes": self.reminder_minutes,
            "random_seats": self.random_seats,
            "expansions": list(self.expansions),
        }
        if self.rules:
            out["rules"] = dict(self.rules)
        if self.clock != "off":
            out["clock"] = self.clock
            out["clock_seconds"] = self.clock_seconds
            out["missed_limit"] = self.missed_limit
        if self.lang:
            out["lang"] = self.lang
        return out

    @staticmethod
    def of_row(row: MatchRow) -> MatchOptions:
        """The options of a stored match, decoded once per distinct stored text (a move reads
        them several times, from a new row each time; most tables share a few texts)."""
        return _options_of_text(row.options_json)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> MatchOptions:
        base = cls()
        return cls(
            players=int(d.get("players", base.players)),
            farm_scoring=str(d.get("farm_scoring", base.farm_scoring)),
            tiny_city=int(d.get("tiny_city", base.tiny_city)),
            reminder_minutes=int(d.get("reminder_minutes", base.reminder_minutes)),
            random_seats=bool(d.get("random_seats", base.random_seats)),
            expansions=tuple(str(e) for e in d.get("expansions", base.expansions)),
            rules=tuple(sorted(dict(d.get("rules") or {}).items())),
            clock=str(d.get("clock") or base.clock),
            clock_seconds=int(d.get("clock_seconds", base.clock_seconds)),
            missed_limit=int(d.get("missed_limit", base.missed_limit)),
            lang=str(d.get("lang") or ""),
        )


@lru_cache(maxsize=256)
def _options_of_text(text: str | None) -> MatchOptions:
    return MatchOptions.from_json(loads(text) or {})


#: the turn clock's modes and their default seconds a move
CLOCKS = {"off": 0, "live": 120, "async": 24 * 3600}


def problems(o: MatchOptions) -> list[str]:
    """What is wrong with ``o`` (empty when a match can be played with it)."""
    out = []
    if not MIN_PLAYERS <= o.players <= MAX_PLAYERS:
        out.append(f"players must be {MIN_PLAYERS}–{MAX_PLAYERS}")
    if o.tiny_city not in TINY_CITY_VALUES:
        out.append("tiny_city must be 2 or 4")
    if o.farm_scoring not in FARM_SCORING_VALUES:
        out.append(f"farm_scoring must be one of {', '.join(FARM_SCORING_VALUES)}")
    if not 0 <= o.reminder_minutes <= 7 * 24 * 60:
        out.append("reminder_minutes must be 0–10080")
    if o.clock not in CLOCKS:
        out.append(f"clock must be one of {', '.join(CLOCKS)}")
    if not 0 <= o.clock_seconds <= 7 * 24 * 3600:
        out.append("clock_seconds must be 0–604800")
    if not 1 <= o.missed_limit <= 99:
        out.append("missed_limit must be 1–99")
    if o.lang not in ("", *messages.LANGS):
        out.append(f"lang must be {', '.join(messages.LANGS[:-1])} or {messages.LANGS[-1]}")
    if len(set(o.expansions)) != len(o.expansions):
        out.append("an expansion is listed twice")
    for e in o.expansions:
        try:
            find_expansion(e)
        except EngineError as err:
            out.append(str(err))
    out.extend(rule_problems(o.rules, o.expansions))
    return out


def rule_problems(rules: Sequence[tuple[str, Any]], expansions: Sequence[str]) -> list[str]:
    """Each chosen rule must belong to a chosen expansion and take one of its choices."""
    known = {r.key: r for r in rules_for(expansions)}
    out = []
    for key, value in rules:
        r = known.get(key)
        if r is None:
            out.append(f"the rule '{key}' belongs to no chosen expansion")
        elif not any(same_value(value, c) for c in r.choices):
            choices = ", ".join(repr(c) for c in r.choices)
            out.append(f"the rule '{key}' must be one of {choices}")
    return out


_WORDS = {
    "on": True,
    "yes": True,
    "true": True,
    "sí": True,
    "si": True,
    "off": False,
    "no": False,
    "false": False,
}


def parse_rule(assignment: str) -> tuple[str, Any]:
    """``x.flag=off`` -> ``("x.flag", False)``: a rule typed as text (the local console), its
    value matched against the rule's choices.

    Raises:
        ServiceError: ERR_ILLEGAL for an unknown rule or a value that is not a choice.
    """
    key, sep, typed = assignment.partition("=")
    key, typed = key.strip(), typed.strip().lower()
    rule = find_rule(key)
    if not sep or rule is None:
        raise ServiceError(ERR_ILLEGAL, f"Unknown rule: {assignment}", reason=assignment)
    for choice in rule.choices:
        if str(choice).lower() == typed or (
            isinstance(choice, bool) and _WORDS.get(typed) is choice
        ):
            return rule.key, choice
    words = ["on" if c is True else "off" if c is False else str(c) for c in rule.choices]
    reason = f"{key} is {', '.join(words[:-1])} or {words[-1]}, not '{typed}'"
    raise ServiceError(ERR_ILLEGAL, reason, reason=reason)


def game_setup(options: MatchOptions, names: Sequence[str]) -> GameSetup:
    """The engine setup of a match started with these options and players (in seat order)."""
    return GameSetup(
        players=len(names),
        tiny_city=options.tiny_city,
        farm_scoring=options.farm_scoring,
        expansions=options.expansions,
        names=tuple(names),
        options=tuple(sorted(options.rules)),
    )


def validate_options(o: MatchOptions) -> None:
    """Raises:
    ServiceError: ERR_ILLEGAL with the reason, for options no match can be played with.
    """
    found = problems(o)
    if found:
        reason = "; ".join(found)
        raise ServiceError(ERR_ILLEGAL, f"Invalid options: {reason}.", reason=reason)
