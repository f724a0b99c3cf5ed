"""Placing and moving ferries (RULES.md §8.2, §8.3, OQ-FER-1…4).

* **Placing** (:class:`PlaceStep`, slot ``AFTER_DEPLOY``, after the follower step and the
  flier's landing, OQ-FER-2 and OQ-FM-4): a lake tile's seat must join two of its road ends
  (a decision whose targets are the pairs, each the road the ferry would lay across the lake,
  ``road:ES``, drawn on the lake by the overlay's anchor). ``Board.reconnect`` links them.
* **Moving** (:class:`MoveStep`, right after): from the tile just placed, each road is followed
  outwards in every direction, through the new lake's ferry, and stops at the first ferry it
  meets on another lake (§8.3.3). The seat may move any of those not moved yet this turn to two
  other ends of its lake (an optional decision); after each move the roads are followed again,
  as JCloisterZone does. A move re-routes the roads: features split and join (``reroute.py``).
* **Scoring** (:class:`ScoreStep`, slot ``SCORE`` after the core's scoring): roads a move
  completed away from the new tile score at once (OQ-FER-3, ``featurescore.score_features``).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from engine.carcassonne.actions import Action, Choose, register_action
from engine.carcassonne.board import Board
from engine.carcassonne.events import Event, FiguresReturned
from engine.carcassonne.featurescore import score_features
from engine.carcassonne.figures import is_follower
from engine.carcassonne.flow import Ask, Frame, Result, Step, new_ask
from engine.carcassonne.geometry import Position
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import EdgeKind, FeatureKind
from engine.core.decisions import Decision, FeatureRef, Option, Prompt
from engine.core.errors import IllegalActionError

from .model import (
    ID,
    MOVE_STEP,
    PLACE_STEP,
    SCORE_STEP,
    SYMBOL,
    TURN_END_STEP,
    FerriesModel,
    Ferry,
    FerryMoved,
    FerryPlaced,
    model_of,
    pair_mask,
    pair_name,
)

_ROAD = EdgeKind.ROAD
#: each side with its step to the neighbour and the neighbour's facing side
_AROUND = ((0, 0, -1, 2), (1, 1, 0, 3), (2, 0, 1, 0), (3, -1, 0, 1))


#: tile id -> the road features ending at its lake (none: no lake), read once per tile type
_ENDS: dict[str, tuple[int, ...]] = {}


def lake_ends(board: Board, pos: Position) -> tuple[int, ...]:
    """The road features of the tile at ``pos`` that end at its lake (none: no lake)."""
    t = board.cells[pos].rt.tile
    ends = _ENDS.get(t.id)
    if ends is None:
        ends = _ENDS[t.id] = (
            tuple(
                i
                for i, f in enumerate(t.features)
                if f.kind is FeatureKind.ROAD and f.ends == SYMBOL
            )
            if t.symbol_map.get(SYMBOL)
            else ()
        )
    return ends


#: (tile id, rotation) -> its pairs of road ends, read once per tile type and rotation
_PAIRS: dict[tuple[str, object], tuple[tuple[str, tuple[int, int]], ...]] = {}


def pairs(board: Board, pos: Position) -> tuple[tuple[str, tuple[int, int]], ...]:
    """Every pair of road ends a ferry on the lake at ``pos`` may join: (name, indices), in
    the order of the names."""
    rt = board.cells[pos].rt
    key = (rt.tile.id, rt.rotation)
    got = _PAIRS.get(key)
    if got is None:
        sides = rt.sides
        ends = lake_ends(board, pos)
        out = [(pair_name(sides[a] | sides[b]), (a, b)) for a, b in combinations(ends, 2)]
        got = _PAIRS[key] = tuple(sorted(out))
    return got


def pair_of(board: Board, ferry: Ferry) -> str:
    sides = board.cells[ferry.pos].rt.sides
    return pair_name(sides[ferry.ends[0]] | sides[ferry.ends[1]])


def _find_pair(board: Board, pos: Position, text: str) -> tuple[int, int] | None:
    mask = pair_mask(text)
    for name, ends in pairs(board, pos):
        if mask is not None and pair_mask(name) == mask:
            return ends
    return None


def nearest_ferries(s: GameState, start: Position) -> tuple[Position, ...]:
    """The lakes of the first ferries met along every road of the tile at ``start``, followed
    outwards in each direction (§8.3.3); the start tile's own ferry is crossed, never met (as
    JCloisterZone's ``findNearest``). In reading order."""
    board, cells = s.board, s.board.cells
    ferries = {f.pos: f.ends for f in model_of(s.ext).ferries if f.pos != start}
    links = board.links
    placed = cells[start]
    todo = [
        (start, i) for i, sg in enumerate(placed.segs) if placed.rt.starts[i][1] is FeatureKind.ROAD
    ]
    seen = set(todo)
    found: set[Position] = set()
    while todo:
        pos, i = todo.pop()
        ends = ferries.get(pos)
        if ends is not None and i in ends:
            found.add(pos)
            continue
        here = cells[pos]
        rt = here.rt
        nexts: list[tuple[Position, int]] = []
        for side, dx, dy, opp in _AROUND:
            if not rt.sides[i] >> side & 1 or rt.edges[side] is not _ROAD:
                continue
            other = cells.get(Position(pos.x + dx, pos.y + dy))
            if other is not None and other.rt.edges[opp] is _ROAD:
                nexts.append((other.pos, other.rt.side_feature[opp]))
        for group in links.get(pos, ()):
            if i in group:
                nexts.extend((pos, j) for j in group if j != i)
        for nb in nexts:
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return tuple(sorted(found, key=lambda p: (p.y, p.x)))


_ROAD_KIND = FeatureKind.ROAD


def _reaches_a_ferry(s: GameState, start: Position) -> bool:
    """Whether a road of the tile at ``start`` holds a road end that a ferry of another lake
    joins (a cheap test on the features before :func:`nearest_ferries` follows the roads)."""
    m = s.ext[ID]  # every placement: no call for the model
    if not m.lakes or (len(m.lakes) == 1 and start in m.lakes):
        return False
    board = s.board
    root, cells = board.root, board.cells
    placed = cells[start]
    segs, starts = placed.segs, placed.rt.starts
    # its roads among its roads and cities (``closables``: fields are half a tile's features)
    mine = set()
    for i in placed.rt.closables:
        if starts[i][1] is _ROAD_KIND:
            mine.add(root[segs[i]])
    if not mine:
        return False  # no road on the tile
    for f in m.ferries:
        if f.pos != start:
            segs = cells[f.pos].segs
            if root[segs[f.ends[0]]] in mine:  # both ends are one road: one test
                return True
    return False


def movable(s: GameState) -> tuple[Position, ...]:
    """The lakes whose ferry the seat may move now: the first met from the tile just placed,
    not moved yet this turn."""
    pos = s.placed
    if pos is None or not _reaches_a_ferry(s, pos):
        return ()
    moved = model_of(s.ext).moved
    return tuple(lake for lake in nearest_ferries(s, pos) if lake not in moved)


def move_choices(
    s: GameState, lakes: tuple[Position, ...] | None = None
) -> Iterator[tuple[str, Position, tuple[int, int]]]:
    """(value ``x,y:PAIR``, lake, new ends) of every ferry move the seat may make now (of the
    ferries of ``lakes`` when the asking step already found them)."""
    m = model_of(s.ext)
    for lake in movable(s) if lakes is None else lakes:
        ferry = m.at(lake)
        assert ferry is not None
        for name, ends in pairs(s.board, lake):
            if ends != ferry.ends:
                yield f"{lake.notation()}:{name}", lake, ends


def stranded(s: GameState, reps: tuple[int, ...], events: list[Event]) -> None:
    """Figures that are no followers (a builder) and stand on a part of a split road where
    their owner has no follower left go back to the supply (RULES.md §5.3 effect 5; as
    JCloisterZone's ``ChangeFerry``): they stand there only beside their owner's follower."""
    for rep in reps:
        feat = s.board.features[rep]
        owners = {m.seat for m in feat.meeples if is_follower(m.figure)}
        alone = [m for m in feat.meeples if m.seat >= 0 and not is_follower(m.figure)]
        gone = [m for m in alone if m.seat not in owners]
        if not gone:
            continue
        for m in s.board.remove_meeples(rep, gone):
            p = s.player(m.seat)
            p.supply[m.figure] = p.supply.get(m.figure, 0) + 1
            events.append(FiguresReturned(m.seat, m.figure, 1))


class PlaceStep(Step):
    """A lake tile: its seat must put a ferry between two of its road ends (§8.2.3)."""

    id = PLACE_STEP
    idle_unless_placed = SYMBOL
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        pos = s.placed
        if pos is None or len(lake_ends(s.board, pos)) < 2 or model_of(s.ext).at(pos):
            return None
        return (new_ask(s, self, depth, frame.seat),)

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        assert isinstance(action, Choose) and s.placed is not None
        if action.head != self.id:
            raise self.refuse(s, action)
        pos = s.placed
        ends = _find_pair(s.board, pos, action.value)
        if ends is None:
            names = ", ".join(f"'{n}'" for n, _ in pairs(s.board, pos))
            raise IllegalActionError.keyed(
                "ferries.err.bad_pair", pair=action.value, cell=pos.notation(), names=names
            )
        s.board.reconnect(pos, (ends,))
        ferry = Ferry(pos, ends)
        s.ext[ID] = model_of(s.ext).put(ferry)
        events.append(FerryPlaced(ask.seat, pos, pair_of(s.board, ferry)))
        return None

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("ferries.err.place_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        pos = s.placed
        assert pos is not None

        def options() -> tuple[Option, ...]:
            return tuple(
                Option(
                    name,
                    Choose(self.id, name),
                    FeatureRef(pos.x, pos.y, f"road:{name}"),
                    (("pair", name),),
                )
                for name, _ in pairs(s.board, pos)
            )

        def answers() -> tuple[Choose, ...]:
            return tuple(Choose(self.id, name) for name, _ in pairs(s.board, pos))

        return Decision(
            ask.key,
            ask.seat,
            self.id,
            Prompt.of(self.id, cell=pos.notation()),
            options,
            answers=answers,
        )


def _cells(lakes: tuple[Position, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((p.x, p.y) for p in lakes)


def _lakes(ask: Ask) -> tuple[Position, ...]:
    """The lakes an ask of :class:`MoveStep` offers (found once, when it asked)."""
    return tuple(Position(x, y) for x, y in ask.get("lakes", ()))


class MoveStep(Step):
    """The seat may move the first ferry met in each direction along the roads of the tile it
    placed, each at most once a turn (§8.3); one move at a time, the roads followed again."""

    id = MOVE_STEP
    idle_unless = (ID, "lakes")
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        pos = s.placed  # every placement once a ferry is out: the cheap test before ``movable``
        if pos is None:
            return None
        # the test of ``_reaches_a_ferry`` up to the tile's roads, inline (no call): most
        # placements have no road or none a ferry joins
        m = s.ext[ID]
        if len(m.lakes) == 1 and pos in m.lakes:
            return None
        board = s.board
        placed = board.cells[pos]
        root, segs, starts = board.root, placed.segs, placed.rt.starts
        mine = set()  # a loop, not a comprehension (a call in 3.11)
        for i in placed.rt.closables:
            if starts[i][1] is _ROAD_KIND:
                mine.add(root[segs[i]])
        if not mine:
            return None
        cells = board.cells
        for f in m.ferries:
            if f.pos != pos and root[cells[f.pos].segs[f.ends[0]]] in mine:
                break
        else:
            return None
        lakes = movable(s)
        if not lakes:
            return None
        return (new_ask(s, self, depth, frame.seat, lakes=_cells(lakes)),)

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        if not isinstance(action, Choose):
            return None  # passed: the ferries stay
        if action.head != self.id:
            raise self.refuse(s, action)
        lake_text, _, pair = action.value.partition(":")
        chosen = None
        offered = _lakes(ask)
        for value, lake, ends in move_choices(s, offered):
            if value.partition(":")[0] == lake_text.strip().replace(" ", "") and pair_mask(
                value.partition(":")[2]
            ) == pair_mask(pair):
                chosen = (lake, ends)
                break
        if chosen is None:
            names = ", ".join(f"'{v}'" for v, _, _ in move_choices(s, offered))
            raise IllegalActionError.keyed(
                "ferries.err.not_movable", value=action.value, names=names
            )
        lake, ends = chosen
        m = model_of(s.ext)
        old = m.at(lake)
        assert old is not None
        before = pair_of(s.board, old)
        reps = s.board.reconnect(lake, (ends,))
        stranded(s, reps, events)
        segs = tuple(sg for r in reps for sg in s.board.features[r].segs)
        ferry = Ferry(lake, ends)
        put = m.put(ferry)
        s.ext[ID] = FerriesModel(put.ferries, m.moved | {lake}, m.rerouted + segs, put.lakes)
        events.append(FerryMoved(ask.seat, lake, before, pair_of(s.board, ferry)))
        lakes = movable(s)
        if not lakes:
            return None
        return (new_ask(s, self, ask.depth, ask.seat, lakes=_cells(lakes)),)

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("ferries.err.move_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        def options() -> tuple[Option, ...]:
            return tuple(
                Option(
                    value,
                    Choose(self.id, value),
                    FeatureRef(lake.x, lake.y, f"road:{value.partition(':')[2]}"),
                    (("ferry", value),),
                )
                for value, lake, _ in move_choices(s, _lakes(ask))
            )

        def answers() -> tuple[Choose, ...]:
            return tuple(Choose(self.id, value) for value, _, _ in move_choices(s, _lakes(ask)))

        return self.passable(ask, options, answers=answers)


class ScoreStep(Step):
    """Roads a ferry move completed, away from the new tile too, score with the placement."""

    id = SCORE_STEP
    idle_unless = (ID, "rerouted")

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        m = model_of(s.ext)
        if m.rerouted:
            s.ext[ID] = FerriesModel(m.ferries, m.moved, (), m.lakes)
            score_features(s, m.rerouted, events)
        return None


class TurnEndStep(Step):
    """The end of a turn (or of a placement, option ``placement``): every ferry may move again."""

    id = TURN_END_STEP
    idle_unless = (ID, "moved")

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        m = model_of(s.ext)
        if m.moved:
            s.ext[ID] = FerriesModel(m.ferries, frozenset(), m.rerouted, m.lakes)
        return None


PLACE = PlaceStep()
MOVE = MoveStep()
SCORE = ScoreStep()
TURN_END = TurnEndStep()
register_action(PLACE_STEP)
register_action(MOVE_STEP)
