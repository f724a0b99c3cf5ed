"""Wooden bridges (RULES.md §13.2, OQ-BRG-1).

A bridge carries a road straight across a tile between two opposite field edges: on the tile
just placed or on a tile orthogonally next to it, at most one per placement and one per tile.
Where an end faces a placed tile, that tile's edge must be a road (or another bridge's end);
an end facing an empty square is an open road end. The fields and cities under it stay whole.

A tile may also be placed with road/field mismatches when the one bridge of this placement
resolves every one of them: a field edge meeting a road gets the bridge across the new tile; a
road meeting a field gets it across that neighbour. The bridge that resolves a placement is
unique, so it is laid with the tile (``settle``); otherwise the seat may build one, or pass,
before deploying (the ``bcb.bridge`` decision; a follower may then go on a bridge on the tile
just placed). A bridge is a road feature laid on its tile (``Board.extend``): it counts one
segment, and one more where its road also crosses its tile on the ground.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress

from engine.carcassonne.actions import Action, Choose, Pass, register_action
from engine.carcassonne.board import Board, Feature, PlacedTile
from engine.carcassonne.events import Event
from engine.carcassonne.featurescore import score_completed
from engine.carcassonne.flow import Ask, Frame, Result, Step, new_ask
from engine.carcassonne.geometry import Position, Rotation, rotate_side_mask
from engine.carcassonne.scoring import Part, ScoreItem
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import (
    EDGE_CODES,
    EdgeKind,
    FeatureDef,
    FeatureKind,
    TileDef,
    with_features,
)
from engine.core.decisions import Cell, Decision, Option
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

from .model import Bridge, BridgeBuilt, model, put
from .texts import BRIDGES, ID

#: the sides each bridge axis joins (N=0, E=1, S=2, W=3) as a side mask
AXES: dict[str, int] = {"NS": 0b0101, "WE": 0b1010}
_AXIS_OF_SIDE = ("NS", "WE", "NS", "WE")
_STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
_new_tuple = tuple.__new__
_F, _R = EDGE_CODES[EdgeKind.FIELD], EDGE_CODES[EdgeKind.ROAD]


def on(s: GameState) -> bool:
    return bool(s.setup.option(BRIDGES, True))


#: the two sides (N=0, E=1, S=2, W=3) of each bridge axis
_AXIS_SIDES: dict[str, tuple[int, int]] = {"NS": (0, 2), "WE": (1, 3)}
_FIELD, _ROAD = EdgeKind.FIELD, EdgeKind.ROAD


def _sides(mask: int) -> tuple[int, ...]:
    return tuple(s for s in range(4) if mask >> s & 1)


def _bridged(s: GameState) -> frozenset[Position]:
    return frozenset(b.pos for b in model(s).bridges)


def bridge_ok(
    s: GameState, pos: Position, axis: str, bridged: frozenset[Position] | None = None
) -> bool:
    """Whether a bridge may cross the placed tile at ``pos`` along ``axis`` (both ends on its
    field edges, each facing an empty square or a road; no bridge on that tile yet)."""
    cells = s.board.cells
    cell = cells.get(pos)
    if cell is None or pos in (_bridged(s) if bridged is None else bridged):
        return False
    edges = cell.rt.edges
    x, y = pos
    for side in _AXIS_SIDES[axis]:
        if edges[side] is not _FIELD:
            return False
        dx, dy = _STEP[side]
        other = cells.get((x + dx, y + dy))  # type: ignore[call-overload]
        if other is not None and other.rt.edges[(side + 2) % 4] is not _ROAD:
            return False
    return True


def can_build(s: GameState, seat: Seat) -> bool:
    """The seat has a bridge left and has not built this placement's bridge yet."""
    m = model(s)
    return m.bridges_left[seat] > 0 and (m.bridged_at is None or m.bridged_at != s.placed)


def options(s: GameState) -> list[tuple[Position, str]]:
    """Every bridge the seat may build now: on the tile just placed or a neighbour."""
    placed = s.placed
    if placed is None:
        return []
    bridged = _bridged(s)
    cells = s.board.cells
    out = []
    px, py = placed
    for dx, dy in _HERE_AND_NEAR:
        cell = cells.get((px + dx, py + dy))  # type: ignore[call-overload]
        if cell is None:
            continue
        edges = cell.rt.edges
        for axis, (a, b) in _AXIS_SIDES.items():
            # cheap test first: a bridge needs fields at both ends of its axis
            if edges[a] is _FIELD and edges[b] is _FIELD and bridge_ok(s, cell.pos, axis, bridged):
                out.append((cell.pos, axis))
    return out


#: the tile just placed, then its neighbours N, E, S, W (the order bridges are offered in)
_HERE_AND_NEAR = ((0, 0), *_STEP)


def lay(s: GameState, seat: Seat, pos: Position, axis: str, events: list[Event]) -> None:
    """Build ``seat``'s bridge on the tile at ``pos`` (checked by the caller)."""
    board = s.board
    cell = board.cells[pos]
    rot = cell.rt.rotation
    sides = rotate_side_mask(AXES[axis], (4 - rot) % 4)  # the tile's own frame
    road = FeatureDef(index=0, name="bridge", kind=FeatureKind.ROAD, sides=sides, overpass=True)
    laid = board.extend(pos, with_features(cell.rt.tile, (road,)).rotated(rot))
    m = model(s)
    left = list(m.bridges_left)
    left[seat] -= 1
    put(
        s,
        bridges_left=tuple(left),
        bridges=(*m.bridges, Bridge(pos, axis, seat, laid.segs[-1])),
        bridged_at=s.placed,
    )
    events.append(BridgeBuilt(seat, pos, axis))


# ------------------------------------------------------------------------ mismatched placement
#: per tile id and neighbour constraint code: ``(rotation, axis, side)`` of each rotation whose
#: only mismatches are road against field and that one bridge may resolve: ``side`` -1 when the
#: bridge crosses the new tile along ``axis`` (decided by the code alone), else the one side
#: where the new tile's road meets a neighbour's field (the bridge crosses that neighbour).
#: Rows are worked out when a code is first met (``None`` until then). A row depends on the
#: tile's edges alone (each rotation's edge code), so tiles with the same edges share one table
#: (a few dozen edge patterns among the hundred-odd tiles: the tables fill that much sooner).
Row = tuple[tuple[int, str, int], ...]
_MISMATCH: dict[str, list[Row | None]] = {}
_BY_EDGES: dict[tuple[tuple[int, int], ...], list[Row | None]] = {}


def _table(t: TileDef) -> list[Row | None]:
    """The mismatch table of ``t`` (shared by the tiles with its edges), found by tile id."""
    table = _MISMATCH.get(t.id)
    if table is None:
        edges = tuple((rt.rotation, rt.edge_code) for rt in t.rotations)
        table = _BY_EDGES.get(edges)
        if table is None:
            table = _BY_EDGES[edges] = [None] * 256
        _MISMATCH[t.id] = table
    return table


def mismatch_row(t: TileDef, code: int) -> Row:
    """See :data:`_MISMATCH`."""
    table = _MISMATCH.get(t.id)
    if table is None:
        table = _table(t)
    row = table[code]
    if row is None:
        row = _fill(t, table, code)
    return row


def _fill(t: TileDef, table: list[Row | None], code: int) -> Row:
    """Work out the row of ``code`` and, turned, the rows of the three codes it becomes
    when the neighbours turn with the tile: a quarter turn of the constraint shifts every
    rotation, side and axis of the row by as much (the rotations are its edges turned)."""
    row = table[code] = _work_out(t, code)
    for k in (1, 2, 3):
        turned = ((code << 2 * k) | (code >> (8 - 2 * k))) & 0xFF
        if table[turned] is None:
            table[turned] = tuple(
                sorted(
                    (
                        ((r + k) % 4, axis if k == 2 else _OTHER_AXIS[axis], side)
                        if side < 0
                        else ((r + k) % 4, axis if k == 2 else _OTHER_AXIS[axis], (side + k) % 4)
                        for r, axis, side in row
                    ),
                    key=_row_order,
                )
            )
    return row


_OTHER_AXIS = {"NS": "WE", "WE": "NS"}


def _row_order(entry: tuple[int, str, int]) -> tuple[int, bool]:
    """Rows list rotations in order, ``NS`` before ``WE`` for one rotation (as worked out)."""
    return entry[0], entry[1] != "NS"


def _work_out(t: TileDef, code: int) -> Row:
    row = []
    for rt in t.rotations:
        fr = rf = 0
        ok = True
        for side in range(4):
            need = code >> (2 * side) & 3
            have = rt.edge_code >> (2 * side) & 3
            if not need or not have or need == have:
                continue
            if have == _F and need == _R:
                fr |= 1 << side
            elif have == _R and need == _F:
                rf |= 1 << side
            else:
                ok = False
                break
        if not ok or not (fr or rf) or (fr and rf):
            continue
        if rf:
            if rf.bit_count() == 1:
                side = _sides(rf)[0]
                row.append((rt.rotation, _AXIS_OF_SIDE[side], side))
            continue
        for axis, (a, b) in _AXIS_SIDES.items():
            if fr & ~((1 << a) | (1 << b)):
                continue  # a mismatch off this axis
            # both ends on the new tile's fields; an end without a mismatch faces nothing
            if all(
                rt.edges[e] is _FIELD and (fr >> e & 1 or not code >> (2 * e) & 3) for e in (a, b)
            ):
                row.append((rt.rotation, axis, -1))
    return tuple(row)


def _neighbour_bridge(
    cells: dict[Position, PlacedTile], pos: Position, side: int, bridged: frozenset[Position]
) -> Position | None:
    """The neighbour at ``side`` of a new tile whose road meets its field: where the bridge
    carrying that road goes, if it may (its far edge a field, facing nothing or a road)."""
    dx, dy = _STEP[side]
    npos = _new_tuple(Position, (pos[0] + dx, pos[1] + dy))  # no NamedTuple __new__ call
    other = cells.get(npos)
    if other is None or npos in bridged or other.rt.edges[side] is not _FIELD:
        return None
    beyond = cells.get((npos.x + dx, npos.y + dy))  # type: ignore[call-overload]
    if beyond is not None and beyond.rt.edges[(side + 2) % 4] is not _ROAD:
        return None
    return npos


def resolving_bridge(
    board: Board, t: TileDef, pos: Position, rot: int, code: int, bridged: frozenset[Position]
) -> tuple[Position, str] | None:
    """The one bridge that makes ``t`` at ``pos``/``rot`` whole against the neighbour
    constraint ``code``, if there is one: across the new tile when its field edges meet roads,
    across the neighbour when its road meets a field; ``None`` also when nothing mismatches.
    """
    for r, axis, side in mismatch_row(t, code):
        if r != rot:
            continue
        if side < 0:
            return pos, axis
        npos = _neighbour_bridge(board.cells, pos, side, bridged)
        return (npos, axis) if npos is not None else None
    return None


def extra_placements(s: GameState, t: TileDef) -> Mapping[Position, tuple[Rotation, ...]] | None:
    """Placements of ``t`` that this placement's bridge would make whole (OQ-BRG-1)."""
    m = s.ext[ID]  # every placement decision: the model read here, without calls
    if m.bridges_left[s.current] <= 0 or (m.bridged_at is not None and m.bridged_at == s.placed):
        return None  # no bridge to build (none at all when bridges are not played)
    table = _MISMATCH.get(t.id)
    if table is None:
        table = _table(t)
    board = s.board
    frontier = board.frontier
    # the distinct constraint codes first (a few dozen for a frontier of cells): most have
    # no row, and only the cells of codes with one are looked at
    rows: dict[int, Row] = {}
    for code in set(frontier.values()):
        row = table[code]
        if row is None:
            row = _fill(t, table, code)
        if row:
            rows[code] = row
    out: dict[Position, tuple[Rotation, ...]] = {}
    if not rows:
        return out
    cells = board.cells
    bridged: frozenset[Position] | None = None
    for pos in compress(frontier, map(rows.__contains__, frontier.values())):
        rots: list[Rotation] = []
        for rot, _axis, side in rows[frontier[pos]]:
            if side >= 0:
                if bridged is None:
                    bridged = _bridged(s)
                if _neighbour_bridge(cells, pos, side, bridged) is None:
                    continue
            if rot not in rots:
                rots.append(_ROTATION[rot])
        if rots:
            out[pos] = tuple(rots)
    return out


_ROTATION = tuple(Rotation)


def settle_placement(s: GameState, placed: PlacedTile) -> list[Event]:
    """The expansion's ``settle_placement``: :func:`settle`, with the events it made."""
    events: list[Event] = []
    if s.ext[ID].bridges_left[s.current]:  # else only matching placements were offered
        settle(s, placed, events)
    return events


def settle(s: GameState, placed: PlacedTile, events: list[Event]) -> None:
    """Lay the bridge a mismatched placement needs (the placement was offered only so)."""
    if not s.ext[ID].bridges_left[s.current]:
        return  # no bridge left: only matching placements were offered
    cells = s.board.cells
    x, y = placed.pos
    edges = placed.rt.edges
    code = 0
    mismatch = False
    for side in range(4):
        dx, dy = _STEP[side]
        other = cells.get((x + dx, y + dy))  # type: ignore[call-overload]
        if other is not None:
            theirs = other.rt.edges[(side + 2) % 4]
            code |= EDGE_CODES[theirs] << (2 * side)
            mismatch = mismatch or (theirs is not edges[side] and EDGE_CODES[theirs] != 0)
    if not mismatch:
        return  # every edge meets its like (or an abbey): nothing to resolve
    rot = placed.rt.rotation
    if not any(r == rot for r, _, _ in mismatch_row(placed.tile, code)):
        return  # every edge matches: nothing to resolve
    bridged = frozenset(b.pos for b in model(s).bridges if b.pos != placed.pos)
    found = resolving_bridge(s.board, placed.tile, placed.pos, rot, code, bridged)
    assert found is not None, "a mismatched placement was offered without its bridge"
    lay(s, s.current, found[0], found[1], events)


def extra_segments(s: GameState, feature: Feature) -> int:
    """Bridges of ``feature`` (a road) whose tile it also crosses on the ground: each counts
    one more segment (OQ-BRG-1)."""
    bridges = model(s).bridges
    if not bridges:
        return 0
    segs = set(feature.segs)
    n = 0
    for b in bridges:
        if b.seg in segs:
            cell = s.board.cells[b.pos]
            if any(x in segs for x in cell.segs if x != b.seg):
                n += 1
    return n


def adjust_road(s: GameState, feature: Feature, item: ScoreItem) -> ScoreItem:
    n = extra_segments(s, feature)
    if not n:
        return item
    from dataclasses import replace

    parts = (*item.parts, Part.plural("part.bridge_extra", n))
    return replace(item, points=item.points + n, parts=parts)


# ------------------------------------------------------------------------------- steps
def _parse(value: str) -> tuple[Position, str]:
    xy, _, axis = value.partition(":")
    try:
        return Position.parse(xy), axis.upper()
    except Exception:
        raise IllegalActionError.keyed("bcb.err.bridge_form") from None


class BridgeStep(Step):
    """After placing: the seat may build one bridge (on this tile or a neighbour), or pass."""

    id = "bcb.bridge"
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if s.placed is None:
            return None
        m = s.ext[ID]  # every placement: can_build without the calls
        if m.bridges_left[frame.seat] <= 0 or (
            m.bridged_at is not None and m.bridged_at == s.placed
        ):
            return None
        offered = tuple(options(s))
        if not offered:
            return None
        return (new_ask(s, self, depth, frame.seat, offered=offered),)

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        if isinstance(action, Pass):
            return None
        assert isinstance(action, Choose)
        pos, axis = _parse(action.value)
        if axis not in AXES or (pos, axis) not in ask.get("offered", ()):
            raise IllegalActionError.keyed("bcb.err.no_bridge")
        lay(s, ask.seat, pos, axis, events)
        return None

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("bcb.err.bridge_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        left = model(s).bridges_left[ask.seat]

        def make() -> tuple[Option, ...]:
            out = []
            offered = ask.get("offered", ())
            for pos, axis in sorted(offered, key=lambda o: (o[0].y, o[0].x, o[1])):
                value = f"{pos.x},{pos.y}:{axis}"
                out.append(
                    Option(
                        value,
                        Choose(self.id, value),
                        Cell(pos.x, pos.y),
                        (("cell", f"{pos.x},{pos.y}"), ("axis", axis)),
                    )
                )
            return tuple(out)

        return self.passable(ask, make, n=left)


class BridgeScoreStep(Step):
    """A bridge built on a neighbour of the tile just placed may complete a road that does not
    cross the placed tile: score what it completed, like the core scores the placed tile."""

    id = "bcb.bridge_score"
    idle_unless = (ID, "bridges")

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        m = s.ext.get(ID)  # every turn once a bridge stands: no call for the model
        if m is None or not m.bridges or s.placed is None or m.bridged_at != s.placed:
            return None
        last = m.bridges[-1]
        if last.pos != s.placed:
            score_completed(s, s.board.cells[last.pos], events)
        return None


register_action(BridgeStep.id)
