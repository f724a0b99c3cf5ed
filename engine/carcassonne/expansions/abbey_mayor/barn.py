"""The barn (RULES.md §14.3, OQ-BARN-1): a special figure on a corner where four fields meet.

* Placed instead of a follower on a corner of the tile just placed where the four tiles around
  it each have one field touching that corner (so the four are one farm), and only in a farm
  without a barn. Farmers already there do not prevent it.
* In the scoring step of that tile the farm scores at once: its farmers' majority gets 3 per
  completed city (the pig's +1 per city comes from Traders & Builders), then every figure in
  the farm goes home. The barn stays to the end and is never a follower.
* No figure may go into a farm with a barn. A tile that joins a farm with figures to a barn's
  farm scores the joined farm at once at 1 per completed city (majority, ties all score), then
  those figures go home. Joining barn farms together is allowed and scores nothing.
* At the end each barn pays its owner 4 per completed city in its farm (a seat with several
  barns in one farm is paid once, as JCloisterZone does; a seat has one barn in our games).

Barn scorings are farm scorings (category ``farm``, their arithmetic names the barn), so other
expansions' farm rules (the pig, castles) apply to them, and they are scored per farm whatever
the match's farm-scoring edition is.
"""

from __future__ import annotations

from dataclasses import replace

from engine.carcassonne.actions import Deploy
from engine.carcassonne.board import Board, Feature, PlacedTile, sorted_cells
from engine.carcassonne.events import Event, FigureDeployed, FiguresReturned
from engine.carcassonne.expansions.abbey_mayor.model import (
    BARN_FIG,
    BARN_FINAL_RATE,
    BARN_JOINED_RATE,
    BARN_PLACED_RATE,
    ID,
    Barn,
    model_of,
)
from engine.carcassonne.featurescore import return_figures
from engine.carcassonne.flow import Frame, Result, Step
from engine.carcassonne.placement import CORNER_SPOTS
from engine.carcassonne.scoring import Part, ScoreItem, award
from engine.carcassonne.state import GameState
from engine.core.seats import Seat

#: for the four cells round a corner (the north-west corner of cell (x, y)): the cell's offset
#: and the two half-edges (geometry.HALF_NAMES order) of its field at that corner
_AROUND = (
    ((-1, -1), 3, 4),  # north-west cell: Es, Se
    ((0, -1), 5, 6),  # north-east cell: Sw, Ws
    ((-1, 0), 1, 2),  # south-west cell: Ne, En
    ((0, 0), 7, 0),  # south-east cell: Wn, Nw
)


def corner_farm(board: Board, cx: int, cy: int) -> int | None:
    """A segment of the one farm met at the corner (the NW corner of cell (cx, cy)) when all four
    cells round it hold a tile with a field touching it, else ``None``."""
    seg = -1
    for (dx, dy), a, b in _AROUND:
        placed = board.cells.get((cx + dx, cy + dy))  # type: ignore[call-overload]
        if placed is None:
            return None
        hf = placed.rt.half_feature
        fi = hf[a]
        if fi < 0 or hf[b] != fi:
            return None
        seg = placed.segs[fi]
    return seg


def barn_farms(board: Board, barns: tuple[Barn, ...]) -> set[int]:
    """The farms (representative segments) that hold a barn."""
    return {board.root[b.seg] for b in barns}


def has_barn(board: Board, barns: tuple[Barn, ...], feature: Feature) -> bool:
    return bool(barns) and board.root[feature.segs[0]] in barn_farms(board, barns)


#: for each corner spot of a tile: the two half-edges of the tile's own field at that corner
_OWN_CORNER = {"corner:NW": (7, 0), "corner:NE": (1, 2), "corner:SE": (3, 4), "corner:SW": (5, 6)}


def barn_deploys(state: GameState, seat: Seat, placed: PlacedTile) -> list[Deploy]:
    """The corners of the tile just placed where ``seat`` may put its barn."""
    board = state.board
    barns = state.ext[ID].barns  # every deploy decision: no call for the model
    out = []
    hf = placed.rt.half_feature
    x, y = placed.pos
    taken: set[int] | None = None
    for spot, (dx, dy) in CORNER_SPOTS.items():
        a, b = _OWN_CORNER[spot]
        if hf[a] < 0 or hf[a] != hf[b]:
            continue  # the new tile has no field at that corner
        seg = corner_farm(board, x + dx, y + dy)
        if seg is None:
            continue
        if taken is None:
            taken = barn_farms(board, barns) if barns else set()
        if board.root[seg] not in taken:
            out.append(Deploy(spot, BARN_FIG))
    return out


def deploy_barn(state: GameState, seat: Seat, placed: PlacedTile, deploy: Deploy) -> list[Event]:
    """Put ``seat``'s barn on the corner ``deploy.spot`` (offered by :func:`barn_deploys`); its
    farm scores in this tile's scoring step."""
    dx, dy = CORNER_SPOTS[deploy.spot]
    corner = (placed.pos.x + dx, placed.pos.y + dy)
    seg = corner_farm(state.board, *corner)
    assert seg is not None
    barn = Barn(seat, corner, seg)
    m = model_of(state.ext)
    state.ext[ID] = replace(m, barns=(*m.barns, barn), fresh=barn)
    state.player(seat).supply[BARN_FIG] -= 1
    return [FigureDeployed(seat, BARN_FIG, placed.pos, deploy.spot)]


def _completed_cities(board: Board, farm: Feature) -> int:
    return len({board.root[c] for c in farm.cities if board.features[board.root[c]].open == 0})


def _farm_item(
    state: GameState,
    farm: Feature,
    rate: int,
    part: str,
    winners: tuple[Seat, ...],
    *,
    final: bool,
) -> ScoreItem:
    n = _completed_cities(state.board, farm)
    item = ScoreItem(
        "farm",
        rate * n,
        False,
        final,
        tiles=len(farm.tiles),
        parts=(Part.plural(part, n, k=rate),),
        winners=winners,
        where=sorted_cells(farm.tiles),
        units=n,
    )
    for e in state.exps:
        item = e.score_feature(state, farm, item)
    return item


def _score_at_once(state: GameState, rep: int, rate: int, part: str, events: list[Event]) -> None:
    """A farm scored during play because of a barn: its farmers' majority scores ``rate`` per
    completed city, then every figure in it goes home."""
    farm = state.board.features[rep]
    if not any(m.seat >= 0 for m in farm.meeples):
        return
    item = _farm_item(state, farm, rate, part, farm.winners(), final=False)
    if item.winners and item.units:
        award(state, item, events, (farm,))
    return_figures(state, rep, events)


class BarnScoreStep(Step):
    """After the features: the farm of the barn just placed scores at 3 per city, and any farm
    with figures now joined to a barn's farm at 1 per city; their figures go home."""

    id = "am.barn"
    idle_unless = (ID, "barns")

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        m = s.ext.get(ID)
        if m is None or not m.barns:
            return None
        board = s.board
        done: set[int] = set()
        if m.fresh is not None:
            rep = board.root[m.fresh.seg]
            done.add(rep)
            _score_at_once(s, rep, BARN_PLACED_RATE, "part.barn_placed", events)
            s.ext[ID] = replace(model_of(s.ext), fresh=None)
        for b in m.barns:
            rep = board.root[b.seg]
            if rep not in done:
                done.add(rep)
                _score_at_once(s, rep, BARN_JOINED_RATE, "part.barn_joined", events)
        return None


def final_barns(state: GameState) -> list[Event]:
    """End of the game: each barn pays its owner 4 per completed city in its farm (once per
    seat and farm), then the barns go home."""
    m = model_of(state.ext)
    events: list[Event] = []
    paid: set[tuple[int, Seat]] = set()
    board = state.board
    for b in m.barns:
        rep = board.root[b.seg]
        if (rep, b.seat) in paid:
            continue
        paid.add((rep, b.seat))
        item = _farm_item(
            state, board.features[rep], BARN_FINAL_RATE, "part.barn_final", (b.seat,), final=True
        )
        if item.points and item.winners:
            award(state, item, events, (board.features[rep],))
    home: dict[Seat, int] = {}
    for b in m.barns:
        home[b.seat] = home.get(b.seat, 0) + 1
    for seat, n in sorted(home.items()):
        supply = state.player(seat).supply
        supply[BARN_FIG] = supply.get(BARN_FIG, 0) + n
        events.append(FiguresReturned(seat, BARN_FIG, n))
    state.ext[ID] = replace(model_of(state.ext), barns=())
    return events


def final_barn_points(state: GameState) -> list[int]:
    """What :func:`final_barns` would pay each seat, without changing ``state``. By then every
    owned figure has left the farms, so the seat bonuses see the farms without them."""
    m = model_of(state.ext)
    out = [0] * state.setup.players
    paid: set[tuple[int, Seat]] = set()
    board = state.board
    bonuses = state.hooks.seat_points
    for b in m.barns:
        rep = board.root[b.seg]
        if (rep, b.seat) in paid:
            continue
        paid.add((rep, b.seat))
        farm = board.features[rep]
        if farm.meeples:
            farm = farm.copy()
            farm.meeples = tuple(x for x in farm.meeples if x.seat < 0)
        item = _farm_item(state, farm, BARN_FINAL_RATE, "part.barn_final", (b.seat,), final=True)
        if not (item.points and item.winners):
            continue
        for seat in item.winners:
            pts = item.points
            for e in bonuses:
                extra = e.seat_points(state, item, seat, (farm,))
                if extra is not None:
                    pts += extra[0]
            out[seat] += pts
    return out


BARN_STEP = BarnScoreStep()
