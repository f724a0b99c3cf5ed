"""The wagon (RULES.md §14.4, OQ-WAG-1, OQ-WAG-2): after its feature scores it may move on.

When a road, city or cloister holding a wagon is completed and scored, the wagon goes home like
any follower and waits (``AbbeyMayorModel.wagons``). After all the scoring of that tile, its
owners are asked in turn order from the active seat: move a waiting wagon to an unfinished
road, city or cloister with no figure that is connected to the feature just scored, or pass
and keep it. Moving scores nothing; majority does not matter. "Connected" is the match option
``am.wagon_move``:

* ``road`` (the rulebook, OQ-WAG-1): a road link — a road and the city gate or cloister it
  ends at, the roads that meet at one junction (the tile data's road ``ends``: ``cN``,
  ``cloister``, ``junction``, ``c1/c2``), and a road or city closed by an abbey's edge with
  that abbey (JCloisterZone's "C1" links the cities too; a city touching an abbey is no road
  link in ours);
* ``near`` (JCloisterZone 5's default, "C2"): any feature with a part on the wagon's tile or
  one of the 8 around it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from functools import cache

from engine.carcassonne.actions import Action, Choose, Pass, register_action
from engine.carcassonne.board import RING, Board, Feature, Meeple
from engine.carcassonne.events import Event
from engine.carcassonne.expansions.abbey_mayor.model import (
    ID,
    WAGON_FIG,
    WAGON_MOVE,
    WagonMoved,
    WagonWaiting,
    model_of,
)
from engine.carcassonne.flow import Ask, Frame, Result, Step, new_ask
from engine.carcassonne.geometry import Position
from engine.carcassonne.placement import occupied, parse_spot, spot_name
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind, TileDef
from engine.core.decisions import Decision, FeatureRef, Option, Prompt
from engine.core.errors import IllegalActionError, InvalidActionError
from engine.core.seats import Seat

_MOVABLE = (FeatureKind.ROAD, FeatureKind.CITY, FeatureKind.CLOISTER)

Part = tuple[Position, int]  # a feature part: the tile's position and the feature's index


@cache
def tile_links(t: TileDef) -> dict[int, tuple[int, ...]]:
    """The road links printed on a tile type: feature index -> the indices it is linked to
    (a road and the city or cloister it ends at; roads meeting at one junction)."""
    names = {f.name: f.index for f in t.features}
    cloister = next((f.index for f in t.features if f.kind is FeatureKind.CLOISTER), None)
    pairs: set[tuple[int, int]] = set()
    groups: dict[str, list[int]] = {}
    for f in t.features:
        if f.kind is not FeatureKind.ROAD or not f.ends:
            continue
        if f.ends == "cloister" and cloister is not None:
            pairs.add((f.index, cloister))
        elif f.ends == "junction":
            groups.setdefault(f.ends, []).append(f.index)
        elif "/" in f.ends:  # a junction joined to several city gates
            gates = [names[c] for c in f.ends.split("/") if c in names]
            groups.setdefault(f.ends, gates[:]).append(f.index)
        elif f.ends in names:
            pairs.add((f.index, names[f.ends]))
    for members in groups.values():
        for a in members:
            for b in members:
                if a < b:
                    pairs.add((a, b))
    out: dict[int, list[int]] = {}
    for a, b in sorted(pairs):
        out.setdefault(a, []).append(b)
        out.setdefault(b, []).append(a)
    return {k: tuple(v) for k, v in out.items()}


def _parts_of(board: Board, rep: int) -> Iterator[Part]:
    feat = board.features[rep]
    for pos in sorted(feat.tiles, key=lambda p: (p.y, p.x)):
        placed = board.cells[pos]
        for i, seg in enumerate(placed.segs):
            if board.root[seg] == rep:
                yield pos, i


def _road_linked(board: Board, rep: int) -> Iterator[Part]:
    """Parts linked by a road to feature ``rep`` (option ``road``)."""
    kind = board.features[rep].kind
    cells = board.cells
    for pos, i in _parts_of(board, rep):
        placed = cells[pos]
        for j in tile_links(placed.rt.tile).get(i, ()):
            yield pos, j
        if placed.rt.tile.sealed:  # the abbey is linked to the roads its edges close
            for side in range(4):
                other = cells.get(pos.neighbour(side))
                fi = other.rt.side_feature[(side + 2) % 4] if other is not None else -1
                if (
                    other is not None
                    and fi >= 0
                    and other.rt.tile.features[fi].kind is FeatureKind.ROAD
                ):
                    yield other.pos, fi
        elif kind is FeatureKind.ROAD:  # ... and each such road to the abbey
            sides = placed.rt.sides[i]
            for side in range(4):
                if sides >> side & 1:
                    other = cells.get(pos.neighbour(side))
                    if other is not None and other.rt.tile.sealed:
                        yield other.pos, 0


def _near(board: Board, pos: Position) -> Iterator[Part]:
    """Every part on the tile at ``pos`` and the 8 around it (option ``near``)."""
    x, y = pos
    for dx, dy in ((0, 0), *RING):
        placed = board.cells.get(Position(x + dx, y + dy))
        if placed is not None:
            for i in range(len(placed.segs)):
                yield placed.pos, i


def _open_target(board: Board, feat: Feature, pos: Position) -> bool:
    """An unfinished road, city or cloister with no figure on it."""
    if feat.kind not in _MOVABLE or feat.done or occupied(feat):
        return False
    if feat.kind is FeatureKind.CLOISTER:
        return board.neighbours_count(pos) < 8
    return feat.open > 0


def targets(s: GameState, wagon: WagonWaiting) -> dict[int, Part]:
    """Where ``wagon`` may move: target feature (representative segment) -> the part offered."""
    board = s.board
    source = board.root[wagon.seg]
    if s.setup.option(WAGON_MOVE, "road") == "near":
        parts: Iterator[Part] = _near(board, wagon.pos)
    else:
        parts = _road_linked(board, source)
    out: dict[int, Part] = {}
    for pos, i in parts:
        rep = board.root[board.cells[pos].segs[i]]
        if rep == source or rep in out:
            continue
        if _open_target(board, board.features[rep], pos):
            out[rep] = (pos, i)
    return out


def _value(board: Board, part: Part) -> str:
    pos, i = part
    return f"{pos.x},{pos.y}@{spot_name(board.cells[pos].rt, i)}"


def _parse(board: Board, value: str) -> Part:
    """The part a value ``x,y@spot`` names (any spot notation the tile accepts)."""
    cell, sep, spot = value.partition("@")
    try:
        pos = Position.parse(cell)
        placed = board.cells.get(pos)
        if not sep or placed is None:
            raise InvalidActionError(value)
        return pos, parse_spot(placed.rt, spot)
    except InvalidActionError:
        raise IllegalActionError.keyed("am.err.wagon_answer") from None


def _next_ask(s: GameState, first: Seat, depth: int) -> Result:
    """Ask the first seat in turn order from ``first`` with a waiting wagon that can move;
    wagons that cannot move stay home (they are dropped from the waiting list)."""
    m = model_of(s.ext)
    waiting = tuple(w for w in m.wagons if targets(s, w))
    if waiting != m.wagons:
        s.ext[ID] = replace(m, wagons=waiting)
    if not waiting:
        return None
    n = s.setup.players
    seat = min((w.seat for w in waiting), key=lambda seat: (seat - first) % n)
    return (new_ask(s, WAGON_STEP, depth, seat, first=first),)


class WagonStep(Step):
    """After scoring: each owner of a wagon that came home may move it on, or pass."""

    id = "am.wagon"
    idle_unless = (ID, "wagons")
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        m = s.ext.get(ID)
        if m is None or not m.wagons:
            return None
        return _next_ask(s, frame.seat, depth)

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        m = model_of(s.ext)
        mine = [w for w in m.wagons if w.seat == ask.seat]
        if isinstance(action, Pass):
            s.ext[ID] = replace(m, wagons=tuple(w for w in m.wagons if w.seat != ask.seat))
            return _next_ask(s, ask.get("first", ask.seat), ask.depth)
        assert isinstance(action, Choose)
        board = s.board
        pos, i = _parse(board, action.value)
        rep = board.root[board.cells[pos].segs[i]]
        wagon = next((w for w in mine if rep in targets(s, w)), None)
        if wagon is None:
            raise IllegalActionError.keyed("am.err.wagon_target", target=action.value)
        placed = board.cells[pos]
        board.add_meeple(Meeple(ask.seat, WAGON_FIG, placed.segs[i], pos))
        s.player(ask.seat).supply[WAGON_FIG] -= 1
        rest = list(m.wagons)
        rest.remove(wagon)
        s.ext[ID] = replace(m, wagons=tuple(rest))
        kind = placed.rt.tile.features[i].kind.value
        events.append(WagonMoved(ask.seat, pos, spot_name(placed.rt, i), kind))
        return _next_ask(s, ask.get("first", ask.seat), ask.depth)

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("am.err.wait_wagon")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        mine = [w for w in model_of(s.ext).wagons if w.seat == ask.seat]
        board = s.board
        first = board.features[board.root[mine[0].seg]].kind.value if mine else "road"

        def options() -> tuple[Option, ...]:
            # wagons are alike: an option is a place one of the seat's waiting wagons may reach
            out: dict[str, Option] = {}
            for w in mine:
                for pos, i in targets(s, w).values():
                    value = _value(board, (pos, i))
                    if value not in out:
                        target = FeatureRef(pos.x, pos.y, spot_name(board.cells[pos].rt, i))
                        out[value] = Option(
                            value, Choose(self.id, value), target, (("feature", value),)
                        )
            return tuple(out.values())

        return self.passable(ask, options, feature=Prompt.of(f"am.where.{first}"))


def wagons_scored(feature: Feature) -> list[WagonWaiting]:
    """The wagons on a feature about to score (they will wait to move on)."""
    return [WagonWaiting(m.seat, m.seg, m.pos) for m in feature.meeples if m.figure == WAGON_FIG]


WAGON_STEP = WagonStep()
register_action(WagonStep.id)
