"""A test-only expansion that exercises every kind of decision the core must carry.

It lives under ``tests/`` on purpose: no front end knows it, so a whole game played with it
through Discord, the local console and ``simulate`` proves that they present decisions
generically (issue 9, "Done when"). It brings:

* a **neutral figure**, the owl (``oracle.owl``): nobody owns it, it never blocks a follower,
  and a feature with the owl on it scores 2 more when completed;
* a **die roll** after every deploy, from the state's hidden generator (replayable);
* an **optional decision**: after an even roll the seat may move the owl to any unfinished road
  or city on the board (a target on any tile, not only the one just placed), or pass;
* a **simultaneous private decision for every seat**: every fourth turn each seat secretly
  guesses the next roll (a number 1–6), answered in any order and revealed together; each
  right guess scores 3 through the points pipeline.

The die is the core's public die (``chance.roll_die``, named ``oracle.die``), so tests force
its rolls with ``GameSetup.forced``. ``oracle_more.py`` adds, each behind an option that is off
by default, a use of every capability the expansions still to come need (issue 20): re-routed
features, figures on the scoring track, tokens on tiles, a decision of every seat in turn
order and a hidden pile of cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from engine.carcassonne.actions import Action, Choose, NumberedChoice, register_action
from engine.carcassonne.board import Feature, Meeple
from engine.carcassonne.chance import roll_die
from engine.carcassonne.events import Event
from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.figures import FigureSpec
from engine.carcassonne.flow import Ask, Frame, Result, Slot, Step, StepSpec, new_ask, roll
from engine.carcassonne.placement import spot_name
from engine.carcassonne.registry import register, unregister
from engine.carcassonne.scoring import Award, ScoreItem, award, give
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.carcassonne.track import TrackMove
from engine.core import messages
from engine.core.decisions import Decision, FeatureRef, IntRange, Prompt, Visibility
from engine.core.decisions import Option as Answer
from engine.core.errors import IllegalActionError
from engine.core.seats import NEUTRAL, Seat
from tests.expansions import oracle_more as more

ID = "oracle"
OWL = "oracle.owl"
GUESS_EVERY = "oracle.guess_every"
#: a second base game in the pile: the tile sets a match plays follow its options
SECOND_BASE = "oracle.second_base"

messages.register(
    {
        "exp.oracle": ("Oracle (test)", "Oráculo (prueba)"),
        f"opt.{GUESS_EVERY}": ("Guess every", "Adivinar cada"),
        f"help.{GUESS_EVERY}": ("turns between guessing rounds", "turnos entre adivinanzas"),
        "fig.oracle.owl": ("owl", "búho"),
        "oracle.owl": (
            "Move the owl to a road or city, or pass.",
            "Mueve el búho a un camino o ciudad, o pasa.",
        ),
        "oracle.guess": ("Guess the next roll (1–6).", "Adivina la próxima tirada (1–6)."),
        "oracle.revealed": (
            "Guesses revealed; the die shows {value}.",
            "Se revelan las apuestas; el dado muestra {value}.",
        ),
    }
)


@dataclass(frozen=True, slots=True)
class OracleModel:
    """The last roll, each seat's secret guess (``None``: not guessed / hidden), and what the
    capability parts keep (``oracle_more``)."""

    last_roll: int = 0
    guesses: tuple[int | None, ...] = ()
    more: more.MoreModel = more.MoreModel()


@dataclass(frozen=True, slots=True)
class GuessesRevealed(Event):
    guesses: tuple[int, ...]
    value: int

    def prompt(self) -> Prompt:
        return Prompt.of("oracle.revealed", value=self.value)


def model(s: GameState) -> OracleModel:
    m = s.ext[ID]
    assert isinstance(m, OracleModel)
    return m


class RollStep(Step):
    id = "oracle.roll"

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        value = roll_die(s, more.DIE, (1, 2, 3, 4, 5, 6), frame.seat, events)
        s.ext[ID] = replace(model(s), last_roll=value)
        return None


def _owl(s: GameState) -> tuple[int, Meeple] | None:
    for rep, f in s.board.iter_features():
        for m in f.meeples:
            if m.figure == OWL:
                return rep, m
    return None


def _owl_targets(s: GameState) -> Iterator[tuple[str, FeatureRef, int]]:
    """(value, target, feature rep) of every unfinished road or city, one spot each."""
    seen: set[int] = set()
    board = s.board
    for pos in sorted(board.cells, key=lambda p: (p.y, p.x)):
        placed = board.cells[pos]
        for f in placed.rt.tile.features:
            if f.kind not in (FeatureKind.ROAD, FeatureKind.CITY):
                continue
            rep = board.root[placed.segs[f.index]]
            feat = board.features[rep]
            if rep in seen or feat.open == 0 or feat.done:
                continue
            seen.add(rep)
            spot = spot_name(placed.rt, f.index)
            yield f"{pos.x},{pos.y}@{spot}", FeatureRef(pos.x, pos.y, spot), rep


class OwlStep(Step):
    """After an even roll: the seat may move the owl (optional; targets anywhere)."""

    id = "oracle.owl"
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if model(s).last_roll % 2 or next(_owl_targets(s), None) is None:
            return None
        return (new_ask(s, self, depth, frame.seat),)

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        if not isinstance(action, Choose):
            return None  # Pass
        for value, _, _rep in _owl_targets(s):
            if value == action.value:
                break
        else:
            raise IllegalActionError("The owl can only go to an unfinished road or city.")
        old = _owl(s)
        if old is not None:
            s.board.remove_meeples(old[0], [old[1]])
        xy, _, spot = action.value.partition("@")
        x, y = (int(v) for v in xy.split(","))
        placed = next(p for p in s.board.cells.values() if (p.pos.x, p.pos.y) == (x, y))
        index = next(
            f.index for f in placed.rt.tile.features if spot_name(placed.rt, f.index) == spot
        )
        s.board.add_meeple(Meeple(NEUTRAL, OWL, placed.segs[index], placed.pos))
        return None

    def decision(self, s: GameState, ask: Ask) -> Decision:
        def options() -> tuple[Answer, ...]:
            return tuple(
                Answer(value, Choose(self.id, value), target, (("feature", value),))
                for value, target, _ in _owl_targets(s)
            )

        return Decision(
            ask.key,
            ask.seat,
            self.id,
            Prompt.of(self.id),
            options,
            optional=True,
            pass_action=_PASS,
        )


class GuessStep(Step):
    """Every N turns each seat secretly guesses the next roll; revealed together."""

    id = "oracle.guess"
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        every = int(s.setup.option(GUESS_EVERY, 4))
        if depth or s.turn % every != every - 1:
            return None
        s.ext[ID] = replace(model(s), guesses=(None,) * s.setup.players)
        group = f"oracle.guess@{s.turn}"
        return tuple(new_ask(s, self, depth, Seat(i), group=group) for i in range(s.setup.players))

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        assert isinstance(action, Choose)
        try:
            n = int(action.value)
        except ValueError:
            n = 0
        if not 1 <= n <= 6:
            raise IllegalActionError("Guess a number from 1 to 6.")
        m = model(s)
        guesses = list(m.guesses)
        guesses[ask.seat] = n
        s.ext[ID] = replace(m, guesses=tuple(guesses))
        rest = tuple(a for a in s.asks if a.key != ask.key)
        if rest:
            return rest
        value = 1 + roll(s, 6)
        final = tuple(g or 0 for g in guesses)
        s.ext[ID] = replace(model(s), last_roll=value, guesses=())
        events.append(GuessesRevealed(final, value))
        winners = tuple(Seat(i) for i, g in enumerate(final) if g == value)
        if winners:
            item = ScoreItem("oracle", 3, False, False, parts=("right guess: 3",), winners=winners)
            if more.on(s, more.RAVENS):
                give(s, more.shadow_awards(item), item, events)
            else:
                award(s, item, events)
        return None

    def decision(self, s: GameState, ask: Ask) -> Decision:
        option = Answer("guess", None, number=IntRange(1, 6), make=NumberedChoice(self.id))
        return Decision(
            ask.key,
            ask.seat,
            self.id,
            Prompt.of(self.id),
            (option,),
            visibility=Visibility.PRIVATE,
            group=ask.get("group"),
        )


class Oracle(Expansion):
    id = ID
    name = "Oracle (test)"
    options = (
        Option(GUESS_EVERY, 4, (2, 4, 8), "turns between guessing rounds"),
        *(
            Option(key, False, (False, True), help)
            for key, help in (
                (more.LINKS, "link road ends of junctions (re-routed features)"),
                (more.RAVENS, "shadows and ravens (figures on the scoring track)"),
                (more.ACORNS, "acorns on tiles (tokens on tiles)"),
                (more.ROUND, "every seat in turn adds a follower (a round in turn order)"),
                (more.OMENS, "a deck of omens (a hidden pile of cards)"),
                (SECOND_BASE, "a second base game in the pile (tile sets by option)"),
            )
        ),
    )
    figure_specs = (FigureSpec(OWL, neutral=True),)

    def initial_model(self) -> OracleModel:
        return OracleModel()

    def tile_sets_in_play(self) -> tuple[str, ...]:
        return ("base",) if self.option(SECOND_BASE) else ()

    def steps(self) -> Iterable[StepSpec]:
        return (
            StepSpec(Slot.AFTER_DEPLOY, RollStep()),
            StepSpec(Slot.AFTER_DEPLOY, more.LinkStep(), 20),
            StepSpec(Slot.AFTER_DEPLOY, more.RavenStep(), 30),
            StepSpec(Slot.AFTER_DEPLOY, more.AcornStep(), 40),
            StepSpec(Slot.AFTER_DEPLOY, more.OmenStep(), 50),
            StepSpec(Slot.SCORE, more.LinkScoreStep()),
            StepSpec(Slot.AFTER_SCORE, OwlStep()),
            StepSpec(Slot.AFTER_SCORE, more.JoinRoundStep(), 20),
            StepSpec(Slot.CLEANUP, GuessStep()),
        )

    def on_start(self, state: GameState) -> None:
        more.start(state)

    def on_track_moved(self, state: GameState, move: TrackMove, depth: int) -> list[Award]:
        return more.raven_steals(state, move)

    def on_completed(self, state: GameState, seat: Seat, feature: Feature) -> list[Event]:
        return more.share_acorns(state, seat, feature)

    def counters(self, model: Any, seat: Seat) -> Iterable[Prompt]:
        assert isinstance(model, OracleModel)
        held = model.more.held
        if seat < len(held) and held[seat]:
            yield Prompt.of("oracle.acorns", n=held[seat])

    def score_feature(self, state: GameState, feature: Feature, item: ScoreItem) -> ScoreItem:
        if item.complete and any(m.figure == OWL for m in feature.neutrals()):
            return replace(item, points=item.points + 2, parts=(*item.parts, "owl +2"))
        return item

    def redact(self, model: Any, viewer: Seat | None) -> Any:
        assert isinstance(model, OracleModel)
        hidden = tuple(
            g if viewer is not None and i == viewer else None for i, g in enumerate(model.guesses)
        )
        return replace(model, guesses=hidden)


def _pass() -> Action:
    from engine.carcassonne.actions import Pass

    return Pass()


_PASS = _pass()
register_action(OwlStep.id)
register_action(GuessStep.id, tuple(str(n) for n in range(1, 7)), private=True)


def install() -> None:
    """Register the expansion (tests call this and :func:`uninstall` after)."""
    register(Oracle)


def uninstall() -> None:
    unregister(ID)
