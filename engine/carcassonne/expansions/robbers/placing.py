"""Placing robbers (RULES.md §11.2, OQ-ROB-4, OQ-ROB-5): a step right after a robber tile.

The active player MAY put their robber beside a space of the scoring track that holds a scoring
figure of another player (any seat's marker or any scoring figure on the track: a messenger
too), or move it there if it already stands on the track. Then the first player after them in
turn order whose robber is still in front of them MAY place theirs; with the option
``robbers.offer`` set to ``each`` (the English rules), every other such player is asked in turn.
A robber with a steal noted and not yet settled stays where it is (OQ-ROB-6 step 4).
"""

from __future__ import annotations

from engine.carcassonne.actions import Action, Choose, Pass, register_action
from engine.carcassonne.events import Event
from engine.carcassonne.flow import Ask, Frame, Result, Step, new_ask, seats_from
from engine.carcassonne.scoring import MAIN
from engine.carcassonne.state import GameState
from engine.carcassonne.track import TrackFigure, find, put, space, value
from engine.core.decisions import Decision, Option, Prompt, TrackSpace
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

from .model import OFFER, PLACE_STEP, ROBBER, SYMBOL, model_of


def victim_spaces(s: GameState, seat: Seat) -> tuple[int, ...]:
    """The spaces holding a scoring figure of a seat other than ``seat`` (its marker or a
    scoring figure on the track), in order."""
    found = {space(value(s, Seat(o), MAIN)) for o in range(s.setup.players) if o != seat}
    found |= {space(f.value) for f in s.track if f.scoring and f.seat != seat}
    return tuple(sorted(found))


def targets(s: GameState, seat: Seat) -> tuple[int, ...]:
    """Where ``seat`` may put its robber now: a victim's space other than where it stands;
    none while its robber has a steal pending."""
    if model_of(s.ext).of(seat):
        return ()
    here = find(s, seat, ROBBER)
    return tuple(sp for sp in victim_spaces(s, seat) if here is None or sp != here.value)


def offered(s: GameState, active: Seat, each: bool) -> tuple[Seat, ...]:
    """Who is offered a robber after the active player (OQ-ROB-5): the first later seat whose
    robber is in front of them, or every such seat with ``each``."""
    home = tuple(o for o in seats_from(s, active)[1:] if find(s, o, ROBBER) is None)
    return home if each else home[:1]


class PlaceStep(Step):
    """A robber tile: the active seat, then the next seat(s) with a robber in front, may place."""

    id = PLACE_STEP
    idle_unless_placed = SYMBOL
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        pos = s.placed
        if pos is None or not s.board.cells[pos].rt.tile.symbol_map.get(SYMBOL):
            return None
        return self._ask(s, depth, frame.seat, (frame.seat,), first=True)

    def _ask(
        self, s: GameState, depth: int, active: Seat, seats: tuple[Seat, ...], first: bool
    ) -> Result:
        """Ask the first of ``seats`` that has somewhere to put its robber; the offer to the
        next player(s) is worked out once the active player has answered."""
        while True:
            for i, seat in enumerate(seats):
                if targets(s, seat):
                    return (
                        new_ask(
                            s, self, depth, seat, active=active, rest=seats[i + 1 :], first=first
                        ),
                    )
            if not first:
                return None
            first = False
            seats = offered(s, active, s.setup.option(OFFER, "next") == "each")

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        if isinstance(action, Choose):
            allowed = targets(s, ask.seat)
            sp = int(action.value) if action.value.isdigit() else -1
            if sp not in allowed:
                names = ", ".join(f"'{n}'" for n in allowed)
                raise IllegalActionError.keyed("robbers.err.space", space=action.value, names=names)
            put(s, TrackFigure(ask.seat, ROBBER, sp), events)
        else:
            assert isinstance(action, Pass)
        active: Seat = ask.get("active")
        if ask.get("first"):
            each = s.setup.option(OFFER, "next") == "each"
            return self._ask(s, ask.depth, active, offered(s, active, each), first=False)
        return self._ask(s, ask.depth, active, ask.get("rest", ()), first=False)

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("robbers.err.first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        def options() -> tuple[Option, ...]:
            return tuple(
                Option(
                    str(sp),
                    Choose(self.id, str(sp)),
                    TrackSpace(sp),
                    (("space", str(sp)),),
                    Prompt.of("robbers.space", space=sp),
                )
                for sp in targets(s, ask.seat)
            )

        def answers() -> tuple[Choose, ...]:
            return tuple(Choose(self.id, str(sp)) for sp in targets(s, ask.seat))

        return self.passable(ask, options, answers=answers)


PLACE = PlaceStep()
register_action(PLACE_STEP)
