"""Where a tile may go and where a figure may stand: placements, spot names, deploy legality.

Pure queries on a state or board; the steps in :mod:`engine.carcassonne.steps` use them to
build decisions and to check answers.
"""

from __future__ import annotations

from engine.carcassonne.actions import Deploy
from engine.carcassonne.board import Board, Feature, PlacedTile
from engine.carcassonne.expansion import Expansion
from engine.carcassonne.figures import is_follower
from engine.carcassonne.geometry import HALF_NAMES, SIDE_NAMES, Position, Rotation
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind, RotatedTile, TileDef, tile
from engine.core.errors import InvalidActionError
from engine.core.seats import Seat

_SIDE_WORDS = ("north", "east", "south", "west")
_EDGE_WORDS = {1: "city", 2: "road", 3: "field"}


# ---------------------------------------------------------------------------- placement
_FITS: dict[str, tuple[tuple[Rotation, ...], ...]] = {}


def fits_table(t: TileDef) -> tuple[tuple[Rotation, ...], ...]:
    """For each 8-bit neighbour constraint code, the rotations of ``t`` that match it.

    Cached by tile id (hashing a whole TileDef would cost more than the lookup saves)."""
    cached = _FITS.get(t.id)
    if cached is not None:
        return cached
    table = []
    for code in range(256):
        rots = []
        for rt in t.rotations:
            ok = True
            for s in range(4):
                need = code >> (2 * s) & 3
                have = rt.edge_code >> (2 * s) & 3
                if need and have and need != have:
                    ok = False
                    break
            if ok:
                rots.append(Rotation(rt.rotation))
        table.append(tuple(rots))
    _FITS[t.id] = tuple(table)
    return _FITS[t.id]


def placements_for(board: Board, t: TileDef) -> dict[Position, tuple[Rotation, ...]]:
    """Every cell where ``t`` fits, with the rotations that fit there."""
    table = fits_table(t)
    out = {}
    for pos, code in board.frontier.items():
        rots = table[code]
        if rots:
            out[pos] = rots
    return out


def has_placement(board: Board, t: TileDef) -> bool:
    table = fits_table(t)
    return any(table[code] for code in board.frontier.values())


def legal_placements(state: GameState) -> dict[Position, tuple[Rotation, ...]]:
    """Cells and rotations where the drawn tile may go (empty unless the step is ``place``):
    where its edges match, and where an expansion allows more (``Expansion.extra_placements``)."""
    if state.step != "place" or state.drawn is None:
        return {}
    t = tile(state.drawn)
    out = placements_for(state.board, t)
    if state.setup.expansions:
        for pos, rots in extra_placements(state, t).items():
            have = out.get(pos, ())
            out[pos] = tuple(sorted(set(have) | set(rots)))
    return out


def extra_placements(state: GameState, t: TileDef) -> dict[Position, tuple[Rotation, ...]]:
    """The placements of ``t`` that the enabled expansions allow besides matching edges."""
    out: dict[Position, tuple[Rotation, ...]] = {}
    for e in state.exps:
        for pos, rots in (e.extra_placements(state, t) or {}).items():
            out[pos] = tuple(sorted(set(out.get(pos, ())) | set(rots)))
    return out


def can_place(state: GameState, t: TileDef) -> bool:
    """Whether ``t`` may go anywhere now (else it is discarded, RULES.md §2.4.4)."""
    if has_placement(state.board, t):
        return True
    return bool(state.setup.expansions) and bool(extra_placements(state, t))


def explain_placement(board: Board, t: TileDef, pos: Position, rotation: Rotation) -> str | None:
    """Why ``t`` cannot go at ``pos``/``rotation`` in words, or ``None`` if it can."""
    if pos in board.cells:
        return f"There is already a tile at {pos.notation()}."
    code = board.frontier.get(pos)
    if code is None:
        return (
            f"{pos.notation()} does not touch any tile: a new tile must share a full edge with one."
        )
    rt = t.rotated(rotation)
    for s in range(4):
        need = code >> (2 * s) & 3
        have = rt.edge_code >> (2 * s) & 3
        if need and have and need != have:
            npos = pos.neighbour(s)
            return (
                f"At {rotation.degrees}° the {_SIDE_WORDS[s]} edge of the tile is "
                f"{_EDGE_WORDS[have]}, but the tile at {npos.notation()} has "
                f"{_EDGE_WORDS[need]} there."
            )
    return None


# ---------------------------------------------------------------------------- spots
def spot_name(rt: RotatedTile, index: int) -> str:
    """Name feature ``index`` of a placed tile in the board frame (see ``RotatedTile.spots``).

    Cities and roads by the sides they reach (``city:NW``), fields by their half-edges
    (``field:En.Wn``; a field touching no edge is ``field:inner``, ``field:inner2`` ...),
    cloisters as ``cloister``.
    """
    return rt.spots[index]


def parse_spot(rt: RotatedTile, spot: str) -> int:
    """Find the feature of a placed tile named by ``spot`` (see :func:`spot_name`).

    Accepts JCloisterZone location names too (``NW``, ``NL.NR``, ``CLOISTER``).

    Raises:
        InvalidActionError: when no feature of the tile has that name.
    """
    want = spot.strip()
    for i in range(len(rt.tile.features)):
        if spot_name(rt, i).lower() == want.lower():
            return i
    j = _from_jcz_location(rt, want)
    if j is not None:
        return j
    names = ", ".join(spot_name(rt, i) for i in range(len(rt.tile.features)))
    raise InvalidActionError(f"'{spot}' is not a spot on this tile; its spots are {names}")


_JCZ_HALVES = {"NL": 0, "NR": 1, "EL": 2, "ER": 3, "SL": 4, "SR": 5, "WL": 6, "WR": 7}
_JCZ_SIDES = {"N": 0, "E": 1, "S": 2, "W": 3}


def _from_jcz_location(rt: RotatedTile, loc: str) -> int | None:
    loc = loc.upper()
    if loc in ("CLOISTER", "MONASTERY"):
        for f in rt.tile.features:
            if f.kind is FeatureKind.CLOISTER:
                return f.index
        return None
    if loc in ("INNER_FARM", "INNER_FARM_B"):
        want_inner = 2 if loc.endswith("_B") else 1
        for f in rt.tile.features:
            if f.kind is FeatureKind.FIELD and f.halves == 0 and max(f.inner, 1) == want_inner:
                return f.index
        return None
    parts = loc.split(".")
    if all(p in _JCZ_HALVES for p in parts):
        mask = 0
        for p in parts:
            mask |= 1 << _JCZ_HALVES[p]
        for f in rt.tile.features:
            if f.kind is FeatureKind.FIELD and rt.halves[f.index] == mask:
                return f.index
        return None
    if len(parts) == 1:
        names = {"NS": 0b0101, "WE": 0b1010, "NWSE": 0b1111}
        if loc in names:
            mask = names[loc]
        elif loc.startswith("_") and len(loc) == 2 and loc[1] in _JCZ_SIDES:
            mask = 0b1111 & ~(1 << _JCZ_SIDES[loc[1]])
        elif loc and all(c in _JCZ_SIDES for c in loc):
            mask = 0
            for c in loc:
                mask |= 1 << _JCZ_SIDES[c]
        else:
            return None
        for f in rt.tile.features:
            if f.kind in (FeatureKind.CITY, FeatureKind.ROAD) and rt.sides[f.index] == mask:
                return f.index
    return None


def legal_deploys(state: GameState) -> list[Deploy]:
    """Figures the current seat may put on the tile just placed (``Pass`` is always legal too)."""
    if state.step != "deploy" or state.placed is None:
        return []
    seat = state.current
    supply = state.players[seat].supply
    placed = state.board.cells[state.placed]
    rt = placed.rt
    out: list[Deploy] = []
    figures = [k for k, n in supply.items() if n > 0]
    if not figures:
        return out
    board = state.board
    exps = state.exps
    for f in rt.tile.features:
        if f.kind is FeatureKind.FIELD and not state.setup.farmers:
            continue
        feat = board.features[board.root[placed.segs[f.index]]]
        name = spot_name(rt, f.index)
        for fig in figures:
            if can_deploy(state, exps, seat, fig, feat):
                out.append(Deploy(name, fig))
    return out


def occupied(feat: Feature) -> bool:
    """Whether a player's figure stands on ``feat`` (neutral figures do not occupy)."""
    return any(m.seat >= 0 for m in feat.meeples)


def can_deploy(
    state: GameState, exps: tuple[Expansion, ...], seat: Seat, figure: str, feat: Feature
) -> bool:
    allowed = is_follower(figure) and (not feat.meeples or not occupied(feat))
    for e in exps:
        verdict = e.can_deploy(state, seat, figure, feat)
        if verdict is False:
            return False
        if verdict is True:
            allowed = True
    return allowed


def why_not_deploy(state: GameState, placed: PlacedTile, index: int, figure: str) -> str:
    f = placed.rt.tile.features[index]
    supply = state.players[state.current].supply
    if supply.get(figure, 0) <= 0:
        return f"You have no {figure} left in your supply."
    if f.kind is FeatureKind.FIELD and not state.setup.farmers:
        return "Farmers are not used in this match."
    feat = state.board.feature_of(placed.segs[index])
    if occupied(feat) and is_follower(figure):
        return f"That {f.kind.value} is already occupied (it joins a {f.kind.value} with a figure on it)."
    return f"You cannot put a {figure} there."


def describe_spot(spot: str) -> str:
    """A player-readable name for a spot: ``city:NW`` -> ``city (north, west)``."""
    if spot == "cloister":
        return "cloister"
    kind, _, where = spot.partition(":")
    if where.startswith("inner"):
        return f"{kind} (middle)"
    if kind == "field":
        words = [HALF_NAMES[HALF_NAMES.index(h)] for h in where.split(".")]
        return f"field ({', '.join(words)})"
    return f"{kind} ({', '.join(_SIDE_WORDS[SIDE_NAMES.index(c)] for c in where)})"
