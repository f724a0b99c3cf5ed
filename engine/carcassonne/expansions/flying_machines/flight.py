"""The flight (RULES.md §6.2, OQ-FM-1 … OQ-FM-6): boarding the machine, the roll, the landing.

* **Boarding** is the tile's follower step: instead of a feature of the tile, the seat puts a
  flying figure on the machine (``deploy flier:<heading>``, :func:`flier_deploys`); it leaves
  the supply. Only the tile just placed offers its machine, once.
* **The roll** (:class:`LandStep`, slot ``AFTER_DEPLOY``, before any later step of that slot,
  OQ-FM-4): the special die, rolled in public from the match's hidden generator (forced in
  tests and imports), gives the distance; the landing square is that many tiles towards the
  machine's heading, diagonals included (OQ-FM-6). The choice to fly is binding (OQ-FM-3).
* **The landing** is a decision of the seat whose targets are the landing tile's unfinished
  roads, cities and cloisters (an abbey is a cloister), occupied or not; never a field, a
  completed feature (one the new tile just completed included) or an empty square. With no
  target the figure goes home, and that tile's follower step is over (OQ-FM-5).
"""

from __future__ import annotations

from dataclasses import replace

from engine.carcassonne.actions import Action, Choose, Deploy, register_action
from engine.carcassonne.board import Meeple, PlacedTile
from engine.carcassonne.chance import roll_die
from engine.carcassonne.events import Event, FigureDeployed
from engine.carcassonne.expansion import deploy_vetoes
from engine.carcassonne.figures import FIGURES
from engine.carcassonne.flow import BONUS_TURN, Ask, Frame, Result, Step, new_ask
from engine.carcassonne.state import GameSetup, GameState
from engine.carcassonne.tiles import FeatureKind
from engine.core.decisions import Decision, FeatureRef, Option, Prompt
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

from .model import (
    AFTER_FAILED,
    BOARDED,
    DIE,
    FACES,
    FLYING,
    HOME,
    ID,
    LANDED,
    LANDING,
    NO_TILE,
    NOWHERE,
    SPOT,
    SYMBOL,
    FlierBoarded,
    FlierFlew,
    FlierLanded,
    Flight,
    landing_square,
    model_of,
    turned,
)
from .model import (
    FIGURES as WHO_FLIES,
)

#: what a flying figure may land on (never a field)
LANDABLE = (FeatureKind.ROAD, FeatureKind.CITY, FeatureKind.CLOISTER)
#: a landing target: the feature's index on the landing tile, its spot name and its kind
Target = tuple[int, str, str]


def can_fly(setup: GameSetup, kind: str) -> bool:
    """Whether a figure of ``kind`` may take the machine (option ``flier.figures``)."""
    if setup.option(WHO_FLIES, "followers") == "all":
        spec = FIGURES.get(kind)
        return spec is not None and spec.follower and spec.on_features and not spec.neutral
    return kind in FLYING


def heading_of(placed: PlacedTile) -> str | None:
    """The heading of the machine printed on a placed tile, on the board (``None``: no
    machine)."""
    printed = placed.rt.tile.symbol_map.get(SYMBOL)
    if not isinstance(printed, str):
        return None
    return turned(printed, placed.rt.rotation)


def grounded(state: GameState, seat: Seat) -> bool:
    """Whether a failed flight keeps ``seat``'s followers off the board now (option
    ``flier.after_failed`` = ``turn``): in the rest of that seat's turn, its bonus tiles
    included (the builder's second tile), but not in a placement that is a turn of its own (a
    market's tile, RULES.md §18 step 7)."""
    g = model_of(state.ext).grounded
    if g is None or g != seat:
        return False
    flow = state.flow
    return len(flow) <= 1 or bool(flow[-1].param(BONUS_TURN))


class TurnEndStep(Step):
    """At the end of a turn (the root frame only: sub-turns stop before it) the seat a failed
    flight grounded may place followers again (``flier.after_failed=turn``)."""

    id = "flier.turn_end"

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        m = s.ext[ID]
        if m.grounded is not None:
            s.ext[ID] = replace(m, grounded=None)
        return None


def flier_deploys(state: GameState, seat: Seat, placed: PlacedTile) -> list[Deploy]:
    """The figures ``seat`` may put on the machine of the tile it just placed."""
    heading = heading_of(placed)
    if heading is None or grounded(state, seat):
        return []
    spot = f"{SPOT}:{heading}"
    setup = state.setup
    return [
        Deploy(spot, kind)
        for kind, n in state.players[seat].supply.items()
        if n > 0 and can_fly(setup, kind)
    ]


def board_machine(
    state: GameState, seat: Seat, placed: PlacedTile, deploy: Deploy
) -> list[Event] | None:
    """Put ``deploy``'s figure on the machine (it leaves the supply); ``None`` when ``deploy``
    is not a flight."""
    kind, _, heading = deploy.spot.partition(":")
    if kind != SPOT:
        return None
    state.player(seat).supply[deploy.figure] -= 1
    m = model_of(state.ext)
    state.ext[ID] = replace(m, flight=Flight(seat, deploy.figure, placed.pos, heading))
    return [
        FigureDeployed(seat, deploy.figure, placed.pos, deploy.spot),
        FlierBoarded(seat, deploy.figure, placed.pos, heading),
    ]


def landing_targets(state: GameState, flight: Flight) -> list[Target]:
    """Where ``flight``'s figure may land: each unfinished road, city or cloister of the
    landing tile (one spot per feature), occupied or not, that no expansion forbids it."""
    if flight.target is None:
        return []
    board = state.board
    placed = board.cells.get(flight.target)
    if placed is None:
        return []
    figure, seat = flight.figure, flight.seat
    vetoes = [
        e.can_deploy
        for e in deploy_vetoes(state.setup)
        if e.id != ID and (e.deploy_opinions is None or figure in e.deploy_opinions)
    ]
    out: list[Target] = []
    seen: set[int] = set()
    rt = placed.rt
    for f in rt.tile.features:
        if f.kind not in LANDABLE:
            continue
        rep = board.root[placed.segs[f.index]]
        feat = board.features[rep]
        if rep in seen or feat.done:
            continue
        if f.kind is FeatureKind.CLOISTER:
            if board.neighbours_count(placed.pos) >= 8:
                continue
        elif feat.open <= 0:
            continue
        if any(veto(state, seat, figure, feat) is False for veto in vetoes):
            continue
        seen.add(rep)
        out.append((f.index, rt.spots[f.index], f.kind.value))
    return out


class LandStep(Step):
    """After the follower step: roll the die for a figure on the machine, then land it (the
    seat chooses where) or send it home."""

    id = "flier.land"
    idle_unless = (ID, "flight")
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        m = s.ext.get(ID)
        if m is None or m.flight is None or m.flight.status != BOARDED:
            return None
        flight = m.flight
        distance = roll_die(s, DIE, FACES, flight.seat, events)
        target = landing_square(flight.origin, flight.heading, distance)
        flight = replace(flight, roll=distance, target=target)
        targets = landing_targets(s, flight)
        reason = "" if targets else NO_TILE if target not in s.board.cells else NOWHERE
        events.append(
            FlierFlew(
                flight.seat,
                flight.figure,
                flight.origin,
                flight.heading,
                distance,
                target,
                reason,
            )
        )
        if reason:
            s.player(flight.seat).supply[flight.figure] += 1
            grounded = flight.seat if s.setup.option(AFTER_FAILED) == "turn" else m.grounded
            s.ext[ID] = replace(
                m, flight=replace(flight, status=HOME, reason=reason), grounded=grounded
            )
            return None
        s.ext[ID] = replace(m, flight=replace(flight, status=LANDING))
        return (new_ask(s, self, depth, flight.seat),)

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        assert isinstance(action, Choose)
        m = model_of(s.ext)
        flight = m.flight
        assert flight is not None and flight.target is not None
        targets = landing_targets(s, flight)
        chosen = next((t for t in targets if t[1] == action.value), None)
        if chosen is None:
            names = ", ".join(f"'{t[1]}'" for t in targets)
            raise IllegalActionError.keyed(
                "flier.err.not_a_landing", spot=action.value, names=names
            )
        index, spot, kind = chosen
        placed = s.board.cells[flight.target]
        s.board.add_meeple(Meeple(flight.seat, flight.figure, placed.segs[index], placed.pos))
        s.ext[ID] = replace(m, flight=replace(flight, status=LANDED, spot=spot))
        events.append(FlierLanded(flight.seat, flight.figure, placed.pos, spot, kind))
        return None

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("flier.err.land_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        flight = model_of(s.ext).flight
        assert flight is not None and flight.target is not None
        target = flight.target

        def options() -> tuple[Option, ...]:
            return tuple(
                Option(
                    spot,
                    Choose(self.id, spot),
                    FeatureRef(target.x, target.y, spot),
                    (("spot", spot),),
                )
                for _, spot, _ in landing_targets(s, flight)
            )

        def answers() -> tuple[Choose, ...]:
            return tuple(Choose(self.id, spot) for _, spot, _ in landing_targets(s, flight))

        figure = flight.figure
        prompt = Prompt.of(
            self.id,
            n=flight.roll,
            cell=target.notation(),
            figure=Prompt.of(f"fig.{figure}"),
        )
        return Decision(ask.key, ask.seat, self.id, prompt, options, answers=answers)


LAND_STEP = LandStep()
TURN_END_STEP = TurnEndStep()
register_action(LandStep.id)
__all__ = [
    "LAND_STEP",
    "TURN_END_STEP",
    "LANDABLE",
    "LandStep",
    "board_machine",
    "can_fly",
    "flier_deploys",
    "grounded",
    "heading_of",
    "landing_targets",
]
