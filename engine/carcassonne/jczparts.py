"""What an expansion declares so the JCloisterZone importers read its part of a save
(ARCHITECTURE.md decision 14).

The 4.x and 5.x importers (:mod:`.jcz`, :mod:`.jcz5`, :mod:`.jcz5_replay`) know the base game
and the save formats; everything else comes from the registered expansions, each through its
``Expansion.jcz`` (a :class:`JczImport`, kept in the expansion's own ``jcz.py``):

* **Setup.** The JCloisterZone names of its parts — 4.x capabilities and expansion codes, 5.x
  tile sets and elements — each a :class:`JczSwitch`: the options it sets, the figure kind a
  5.x element counts. Names of its box it does not play (``unsupported``) are refused in one
  line. Its rules (4.x ``rules4``, 5.x ``rules5``) are :data:`RuleFn`; ``defaults5`` are the
  options a 5.x save means when it says nothing.
* **Figures.** ``meeples``: a meeple id's type (``0.big.1`` → ``big``) → our figure kind.
* **The replay.** ``always``: decisions JCloisterZone never asks, with the answer it always
  takes; ``messages``: a :class:`JczMessages` factory for the messages it converts itself
  (called once per conversion, so the object may remember what it saw).
* **Chance.** ``forced``: what the save's randomness gave (a die's rolls, read from a 4.x
  save's seed or a 5.x save's recorded randoms), as ``GameSetup.forced`` pairs, so the import
  replays exactly what JCloisterZone played.

A name no registered expansion claims is refused in one line (:func:`refusal`): by the box of
the tile file that claims it (its ``jcz_names``: "JCloisterZone capability 'Flier' (Flying
Machines) is not built yet"), by the core's table of boxes we have no tile file for
(``data/jcz.toml``), or as unknown.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar

from engine.carcassonne.geometry import Position
from engine.core.errors import EngineError, RecordError
from engine.core.seats import Seat

if TYPE_CHECKING:
    from engine.carcassonne.actions import Action, Deploy
    from engine.carcassonne.expansion import Expansion
    from engine.carcassonne.record import Recorder
    from engine.carcassonne.state import GameSetup, GameState

#: setup options, as ``GameSetup.options`` pairs
Options = tuple[tuple[str, Any], ...]
#: a rule's value -> the options it sets; raises :class:`RecordError` for a value we do not play
RuleFn = Callable[[Any], Options]
#: chance outcomes as ``GameSetup.forced`` pairs: ``(source name, outcomes in order)``
Forced = tuple[tuple[str, tuple[Any, ...]], ...]
#: the parsed save and its format (4 or 5) -> the chance outcomes it implies; raises
#: :class:`RecordError` for randomness it cannot read
ForcedFn = Callable[[Mapping[str, Any], int], Forced]
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class JczSwitch:
    """What one JCloisterZone name does in our setup.

    ``options`` are set when the save lists the name. ``figure``: the 5.x element is a figure
    count per player of this kind (``0``: none). ``plays``: the name brings the expansion into
    the match (``False``: accepted and changes nothing). ``enforces``: elements a 5.x tile set
    switches on without the save listing them (the client's ``getFullSetup``).
    """

    options: Options = ()
    figure: str | None = None
    plays: bool = True
    enforces: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class JczImport:
    """An expansion's part of the JCloisterZone import (see the module docstring).

    A boolean option that some ``capabilities`` (4.x) or ``elements`` (5.x) entry sets is
    ``False`` when the expansion is in play but the save does not list that name (JCloisterZone
    switches rules and figures by capability or element, whatever the tiles).
    """

    capabilities: Mapping[str, JczSwitch] = field(default_factory=dict)
    expansions: Mapping[str, JczSwitch] = field(default_factory=dict)
    sets: Mapping[str, JczSwitch] = field(default_factory=dict)
    elements: Mapping[str, JczSwitch] = field(default_factory=dict)
    #: JCloisterZone names of this box we do not play -> the part, for the refusal
    unsupported: Mapping[str, str] = field(default_factory=dict)
    meeples: Mapping[str, str] = field(default_factory=dict)
    rules4: Mapping[str, RuleFn] = field(default_factory=dict)
    rules5: Mapping[str, RuleFn] = field(default_factory=dict)
    defaults5: Options = ()
    #: decision kind -> the option id JCloisterZone always takes (it never asks)
    always: Mapping[str, str] = field(default_factory=dict)
    messages: Callable[[], JczMessages] | None = None
    #: the chance outcomes the save implies (``GameSetup.forced``): JCloisterZone 4.x rolls
    #: from the save's ``initialSeed``, 5.x records each roll's ``random``
    forced: ForcedFn | None = None


def on(*keys: str) -> Options:
    """Options that switch ``keys`` on (the usual effect of a capability or element)."""
    return tuple((k, True) for k in keys)


# ------------------------------------------------------------------------------ the replay
@dataclass(frozen=True, slots=True)
class Message:
    """One replay message: ``n`` is its 1-based place in the file's ``replay`` list; ``player``
    the mover a 5.x message names (4.x messages name none)."""

    n: int
    kind: str
    payload: dict[str, Any]
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """How an expansion reads a message: ``action`` answered by ``seat``. Both ``None``: the
    message changes nothing in our game (a decline of an offer our rules never make, a bazaar
    tile our engine hands out by itself). ``commit``: a 5.x save writes a COMMIT after it."""

    seat: Seat | None = None
    action: Action | None = None
    commit: bool = False


class JczRetry(RecordError):
    """A hook saw a rule variant of ours in play (JCloisterZone's end-of-game abbey round): the
    importer converts the save again with ``options`` set; when they already are, this is the
    refusal."""

    def __init__(self, message: str, *, move: int | None, options: Options) -> None:
        super().__init__(message, move=move)
        self.options = options


def parse_position(value: Any, what: str, n: int) -> Position:
    """A save's ``[x, y]`` (4.x and 5.x alike); ``n`` is the replay message for errors."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise RecordError(f"{what} must be [x, y]", move=n)
    return Position(value[0], value[1])


class JczContext:
    """One conversion in progress, as the expansions' message hooks see it.

    ``placed``: the state right after the save's latest ``PLACE_TILE`` was answered (the tile on
    the board, nothing scored yet); ``committed``: a ``COMMIT`` came since; ``commit_due``: a
    5.x save owes a ``COMMIT`` for the action just answered.
    """

    def __init__(
        self,
        rec: Recorder,
        version: int,
        feature: Callable[[GameState, Message], tuple[Position, int]],
    ) -> None:
        self.rec = rec
        self.version = version
        self._feature = feature
        self.placed: GameState | None = None
        self.committed = True
        self.commit_due = False

    @property
    def state(self) -> GameState:
        return self.rec.state

    def feature(self, m: Message) -> tuple[Position, int]:
        """The tile and the index of the feature on it that ``m``'s pointer names, read in the
        save's own notation.

        Raises:
            RecordError: naming message ``m`` for a pointer that names no feature of a tile.
        """
        return self._feature(self.rec.state, m)

    def position(self, m: Message, key: str = "position") -> Position:
        """``m``'s ``payload[key]`` as a position."""
        return parse_position(m.payload.get(key), f"{m.kind} {key}", m.n)


class JczMessages:
    """An expansion's reading of replay messages, for one conversion. The importers call
    :meth:`before` and :meth:`convert` for every message before reading it themselves, and
    :meth:`deploy` for every ``DEPLOY_MEEPLE`` of the seat to move."""

    def before(self, ctx: JczContext, m: Message) -> Iterable[tuple[Seat, Action]]:
        """Answers to our open decisions that JCloisterZone did not ask before ``m``."""
        return ()

    def convert(self, ctx: JczContext, m: Message) -> Answer | None:
        """How ``m`` is answered when it is this expansion's to read; ``None`` otherwise.

        Raises:
            RecordError: naming ``m`` for a message that does not fit the game.
        """
        return None

    def deploy(self, ctx: JczContext, m: Message, figure: str, pos: Position) -> Deploy | None:
        """Our deploy when ``figure`` (one of this expansion's) stands somewhere other than a
        feature of the tile just placed (a barn on a corner); ``pos`` is the pointer's tile."""
        return None


class JczHooks:
    """The message hooks and always-taken answers of the expansions in play, for one
    conversion; ``check`` verifies the mover a message names (5.x)."""

    def __init__(self, parts: Sequence[JczImport], check: Callable[[Message, Seat], None]) -> None:
        self.readers = tuple(p.messages() for p in parts if p.messages is not None)
        self.always = {k: v for p in parts for k, v in p.always.items()}
        self.check = check

    def before(self, ctx: JczContext, m: Message) -> None:
        """Apply what every expansion answers before ``m`` (until none answers more)."""
        for _ in range(8):
            done = False
            for r in self.readers:
                for seat, act in r.before(ctx, m):
                    self._apply(ctx, m, seat, act)
                    done = True
            if not done:
                return

    def take_always(self, ctx: JczContext, m: Message) -> None:
        """Answer the open decisions JCloisterZone never asks, as it plays them."""
        if not self.always:
            return
        from engine.carcassonne.rules import pending

        for d in pending(ctx.state):
            if d.kind in self.always:
                take = next(o for o in d.options if o.id == self.always[d.kind])
                self.check(m, d.seat)
                self._apply(ctx, m, d.seat, take.action)

    def convert(self, ctx: JczContext, m: Message) -> Answer | None:
        """The first expansion's answer to ``m``, applied; ``None`` when none reads it."""
        for r in self.readers:
            got = r.convert(ctx, m)
            if got is None:
                continue
            if got.seat is not None and got.action is not None:
                self.check(m, got.seat)
                self._apply(ctx, m, got.seat, got.action)
            return got
        return None

    def deploy(self, ctx: JczContext, m: Message, figure: str, pos: Position) -> Deploy | None:
        for r in self.readers:
            got = r.deploy(ctx, m, figure, pos)
            if got is not None:
                return got
        return None

    @staticmethod
    def _apply(ctx: JczContext, m: Message, seat: Seat, action: Action) -> None:
        try:
            ctx.rec.apply(seat, action)
        except EngineError as e:
            raise RecordError(f"{m.kind}: {e}", move=m.n) from None


def convert_with(setup: GameSetup, convert: Callable[[GameSetup], R]) -> R:
    """``convert(setup)``, converted again with the options a :class:`JczRetry` asks for.

    Raises:
        RecordError: from ``convert``; a :class:`JczRetry` whose options are already set.
    """
    for _ in range(8):
        try:
            return convert(setup)
        except JczRetry as e:
            options = dict(setup.options)
            if all(k in options and options[k] == v for k, v in e.options):
                raise
            options.update(e.options)
            setup = replace(setup, options=tuple(sorted(options.items())))
    return convert(setup)  # pragma: no cover - every retry sets an option for good


# ------------------------------------------------------------------------------ setup names
def parts() -> tuple[tuple[type[Expansion], JczImport], ...]:
    """Every registered expansion with a part in the import, in registry order."""
    from engine.carcassonne.registry import all_expansions

    return tuple((cls, cls.jcz) for cls in all_expansions() if cls.jcz is not None)


def parts_of(expansion_ids: Iterable[str]) -> tuple[JczImport, ...]:
    """The import parts of the expansions ``expansion_ids`` (registry order)."""
    ids = set(expansion_ids)
    return tuple(part for cls, part in parts() if cls.id in ids)


def claim(
    name: str, table: Callable[[JczImport], Mapping[str, JczSwitch]]
) -> tuple[str, JczSwitch] | None:
    """The expansion id and switch of the registered part whose ``table`` has ``name``."""
    for cls, part in parts():
        got = table(part).get(name)
        if got is not None:
            return cls.id, got
    return None


def bool_defaults(
    expansion_ids: Iterable[str], table: Callable[[JczImport], Mapping[str, JczSwitch]]
) -> Options:
    """``False`` for every boolean option a ``table`` entry of these expansions sets: a part
    the save does not list is off."""
    out: dict[str, Any] = {}
    for part in parts_of(expansion_ids):
        for switch in table(part).values():
            out.update((k, False) for k, v in switch.options if isinstance(v, bool))
    return tuple(out.items())


def forced_of(expansion_ids: Iterable[str], data: Mapping[str, Any], version: int) -> Forced:
    """The chance outcomes a save implies, from the parts of ``expansion_ids`` (sorted by
    source name, as ``GameSetup.forced``).

    Raises:
        RecordError: from a part that cannot read the save's randomness.
    """
    out: dict[str, tuple[Any, ...]] = {}
    for part in parts_of(expansion_ids):
        if part.forced is not None:
            out.update(part.forced(data, version))
    return tuple(sorted(out.items()))


def meeples() -> dict[str, str]:
    """Meeple id type -> our figure kind: the base game's follower and every part's figures."""
    out = {"small": "follower"}
    for _, part in parts():
        out.update(part.meeples)
    return out


def rule_of(name: str, version: int) -> tuple[str, RuleFn] | None:
    """The expansion id and reading of a 4.x or 5.x rule a registered part claims."""
    for cls, part in parts():
        fn = (part.rules4 if version == 4 else part.rules5).get(name)
        if fn is not None:
            return cls.id, fn
    return None


def refusal(name: str, what: str, unknown: str | None = None) -> RecordError:
    """The one-line refusal of a JCloisterZone ``what`` (``capability``, ``tile set`` …) no
    registered expansion plays; ``unknown`` words a name nobody claims."""
    for _, part in parts():
        if name in part.unsupported:
            label = part.unsupported[name]
            return RecordError(f"JCloisterZone {what} '{name}' ({label}) is not supported yet")
    box = tile_file_of(name)
    if box is not None:
        label, built = box
        state = "is not supported yet" if built else "is not built yet"
        return RecordError(f"JCloisterZone {what} '{name}' ({label}) {state}")
    other = core_names().boxes.get(name)
    if other is not None:
        return RecordError(f"JCloisterZone {what} '{name}' ({other}) is not supported yet")
    return RecordError(unknown or f"unknown JCloisterZone {what} '{name}'")


def known(name: str) -> bool:
    """Whether ``name`` is a JCloisterZone name of a part we know (and refuse), not unknown."""
    return (
        any(name in part.unsupported for _, part in parts())
        or tile_file_of(name) is not None
        or name in core_names().boxes
    )


def tile_file_of(name: str) -> tuple[str, bool] | None:
    """The box name of the tile file whose ``jcz_names`` claim ``name``, and whether a
    registered expansion plays that tile set."""
    from engine.carcassonne.registry import all_expansions
    from engine.carcassonne.tiles import tile_sets

    served = {s for cls in all_expansions() for s in cls.tile_sets}
    for info in tile_sets():
        if name in info.jcz:
            return info.name, info.id in served
    return None


@dataclass(frozen=True, slots=True)
class CoreNames:
    """``data/jcz.toml``: JCloisterZone names of boxes and parts that belong to no expansion of
    ours (no tile file either), so the refusals can name them."""

    #: tile sets, elements … -> the box or part, refused
    boxes: Mapping[str, str]
    #: elements accepted that change nothing in the games we play
    ignored_elements: frozenset[str]
    #: rules of modules whose elements are refused: they never change a game we play
    ignored_rules: frozenset[str]
    #: 5.x message types nobody in play reads -> the part they belong to
    messages: Mapping[str, str]
    #: 5.x pointer features of parts we refuse -> words for the refusal
    features: Mapping[str, str]


@cache
def core_names() -> CoreNames:
    """The core's table of JCloisterZone names (``data/jcz.toml``)."""
    text = (resources.files("engine.carcassonne") / "data" / "jcz.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return CoreNames(
        boxes={**data["sets"], **data["elements"]},
        ignored_elements=frozenset(data["ignored"]["elements"]),
        ignored_rules=frozenset(data["ignored"]["rules"]),
        messages=dict(data["messages"]),
        features=dict(data["features"]),
    )


__all__ = [
    "Answer",
    "Forced",
    "ForcedFn",
    "JczContext",
    "JczHooks",
    "JczImport",
    "JczMessages",
    "JczRetry",
    "JczSwitch",
    "Message",
    "Options",
    "RuleFn",
    "claim",
    "convert_with",
    "core_names",
    "forced_of",
    "on",
    "parse_position",
    "refusal",
]
