"""Placing and sharing out gold bars (RULES.md §9.2, §9.3, OQ-GOLD-1, OQ-GOLD-2).

* **Placing** (:class:`BarStep`, slot ``AFTER_PLACE``, before the follower step, §9.4): a gold
  tile puts one bar on itself, then its seat chooses a tile next to it, orthogonally or
  diagonally, for the second (a decision whose targets are those cells; with only one such
  tile, there is nothing to choose and the bar goes there, as JCloisterZone plays).
* **Completion** (``Expansion.on_completed``, :func:`claim`): a completed road, city or
  cloister whose majority is held adds the tiles it covers to this turn's pool and its winners
  to the players involved; one nobody holds leaves its bars where they lie (OQ-GOLD-1).
* **Sharing** (:class:`ShareStep`, slot ``AFTER_SCORE``, after scoring, §9.4): the bars lying
  on the pool's tiles are handed out one at a time, from the active player (or the first
  involved player after them, OQ-GOLD-2) in turn order, round and round.
"""

from __future__ import annotations

from dataclasses import replace

from engine.carcassonne.actions import Action, Choose, register_action
from engine.carcassonne.board import RING, Feature
from engine.carcassonne.events import Event
from engine.carcassonne.flow import Ask, Frame, Result, Step, new_ask, seats_from
from engine.carcassonne.geometry import Position
from engine.carcassonne.state import GameState
from engine.carcassonne.tokens import feature_area, share_out
from engine.core.decisions import Cell, Decision, Option, Prompt
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

from .model import BAR_STEP, ID, SHARE_STEP, SYMBOL, GoldPlaced, GoldTaken, model_of


def adjacent_tiles(s: GameState, pos: Position) -> tuple[Position, ...]:
    """The tiles next to ``pos``, diagonals included, in reading order."""
    cells = s.board.cells
    x, y = pos
    found = []  # (y, x) of each neighbour, sorted: no generator, no key function
    for dx, dy in RING:
        if (x + dx, y + dy) in cells:
            found.append((y + dy, x + dx))
    found.sort()
    out = []
    for py, px in found:
        out.append(_new_tuple(Position, (px, py)))
    return tuple(out)


_new_tuple = tuple.__new__  # NamedTuple's own __new__ is a Python function


class BarStep(Step):
    """A gold tile: one bar on it, then the seat puts the second on a tile next to it."""

    id = BAR_STEP
    idle_unless_placed = SYMBOL
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        pos = s.placed
        if pos is None or not s.board.cells[pos].rt.tile.symbol_map.get(SYMBOL):
            return None
        m = model_of(s.ext)
        s.ext[ID] = replace(m, bars=m.bars.add(pos))
        events.append(GoldPlaced(frame.seat, pos))
        targets = adjacent_tiles(s, pos)
        if len(targets) == 1:  # nothing to choose: the bar goes on the only tile next to it
            m = model_of(s.ext)
            s.ext[ID] = replace(m, bars=m.bars.add(targets[0]))
            events.append(GoldPlaced(frame.seat, targets[0]))
        if len(targets) <= 1:
            return None
        return (new_ask(s, self, depth, frame.seat),)

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        assert isinstance(action, Choose) and s.placed is not None
        targets = adjacent_tiles(s, s.placed)
        try:
            chosen = Position.parse(action.value)
        except ValueError:
            chosen = None
        if chosen not in targets:
            names = ", ".join(f"'{p.notation()}'" for p in targets)
            raise IllegalActionError.keyed("gold.err.not_adjacent", cell=action.value, names=names)
        assert chosen is not None
        m = model_of(s.ext)
        s.ext[ID] = replace(m, bars=m.bars.add(chosen))
        events.append(GoldPlaced(ask.seat, chosen))
        return None

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("gold.err.place_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        pos = s.placed
        assert pos is not None

        def options() -> tuple[Option, ...]:
            return tuple(
                Option(
                    p.notation(),
                    Choose(self.id, p.notation()),
                    Cell(p.x, p.y),
                    (("cell", p.notation()),),
                )
                for p in adjacent_tiles(s, pos)
            )

        def answers() -> tuple[Choose, ...]:
            return tuple(Choose(self.id, p.notation()) for p in adjacent_tiles(s, pos))

        prompt = Prompt.of(self.id, cell=pos.notation())
        return Decision(ask.key, ask.seat, self.id, prompt, options, answers=answers)


def claim(s: GameState, feature: Feature) -> None:
    """A completed feature: its tiles join this turn's pool when someone holds its majority."""
    winners = feature.winners()
    m = model_of(s.ext)
    if not winners or not m.bars.total:
        return
    area = feature_area(s.board, feature)
    if not any(m.bars.at(p) for p in area):
        return
    s.ext[ID] = replace(m, pool=m.pool | area, involved=m.involved | frozenset(winners))


def share(s: GameState, active: Seat, events: list[Event]) -> None:
    """Hand out the bars on the pool's tiles, one at a time from ``active`` in turn order."""
    m = model_of(s.ext)
    if not m.pool:
        return
    n, rest = m.bars.take(m.pool)
    order = tuple(seat for seat in seats_from(s, active) if seat in m.involved)
    got = share_out(n, order)
    held = list(m.held) + [0] * (s.setup.players - len(m.held))
    for seat, k in got.items():
        held[seat] += k
    s.ext[ID] = replace(m, bars=rest, held=tuple(held), pool=frozenset(), involved=frozenset())
    events.extend(GoldTaken(seat, k) for seat, k in got.items())


class ShareStep(Step):
    """After scoring: the bars of the features completed this turn are shared out."""

    id = SHARE_STEP
    idle_unless = (ID, "pool")

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if model_of(s.ext).pool:
            share(s, frame.seat, events)
        return None


BAR = BarStep()
SHARE = ShareStep()
register_action(BarStep.id)
