"""Where a tile may go and where a figure may stand: placements, spot names, deploy legality.

Pure queries on a state or board; the steps in :mod:`engine.carcassonne.steps` use them to
build decisions and to check answers.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.carcassonne.actions import Deploy
from engine.carcassonne.board import Board, Feature, PlacedTile
from engine.carcassonne.expansion import Expansion, deploy_vetoes, guard_passes, per_setup
from engine.carcassonne.figures import FIGURES, is_follower
from engine.carcassonne.fits import ROTATIONS_OF_MASK, fits_table, offered_masks, offered_table
from engine.carcassonne.geometry import HALF_NAMES, SIDE_NAMES, Position, Rotation
from engine.carcassonne.state import GameSetup, GameState
from engine.carcassonne.tiles import FeatureKind, RotatedTile, TileDef, tile
from engine.core import messages
from engine.core.decisions import Corner, FeatureRef
from engine.core.errors import IllegalActionError, InvalidActionError
from engine.core.messages import Phrase
from engine.core.seats import Seat

_SIDE_WORDS = ("north", "east", "south", "west")

#: Spots on the corners of a placed tile (for figures that stand where four tiles meet), with
#: the offset of the cell whose north-west corner it is (``decisions.Corner``).
CORNER_SPOTS: dict[str, tuple[int, int]] = {
    "corner:NW": (0, 0),
    "corner:NE": (1, 0),
    "corner:SE": (1, 1),
    "corner:SW": (0, 1),
}
_EDGE_WORDS = {1: "city", 2: "road", 3: "field"}

messages.register(
    {
        "core.side.north": ("north", "norte"),
        "core.side.east": ("east", "este"),
        "core.side.south": ("south", "sur"),
        "core.side.west": ("west", "oeste"),
        "core.edge.city": ("city", "ciudad"),
        "core.edge.road": ("road", "camino"),
        "core.edge.field": ("field", "campo"),
        "err.tile_there": ("There is already a tile at {pos}.", "Ya hay una pieza en {pos}."),
        "err.not_adjacent": (
            "{pos} does not touch any tile: a new tile must share a full edge with one.",
            "{pos} no toca ninguna pieza: una pieza nueva debe compartir un borde entero con otra.",
        ),
        "err.edge_mismatch": (
            "At {degrees}° the {side} edge of the tile is {have}, but the tile at {npos} has "
            "{need} there.",
            "Con {degrees}° el borde {side} de la pieza es {have}, pero la pieza de {npos} tiene "
            "{need} en ese lado.",
        ),
        "err.no_figure_left": (
            "You have no {figure} left in your supply.",
            "No te quedan figuras de tipo «{figure}» en la reserva.",
        ),
        "err.no_farmers": (
            "Farmers are not used in this match.",
            "En esta partida no se usan granjeros.",
        ),
        "err.occupied.city": (
            "That city is already occupied (it joins a city with a figure on it).",
            "Esa ciudad ya está ocupada (se une a una ciudad con una figura).",
        ),
        "err.occupied.road": (
            "That road is already occupied (it joins a road with a figure on it).",
            "Ese camino ya está ocupado (se une a un camino con una figura).",
        ),
        "err.occupied.field": (
            "That field is already occupied (it joins a field with a figure on it).",
            "Ese campo ya está ocupado (se une a un campo con una figura).",
        ),
        "err.occupied.cloister": (
            "That cloister is already occupied (it joins a cloister with a figure on it).",
            "Ese claustro ya está ocupado.",
        ),
        "err.cannot_deploy": (
            "You cannot put a {figure} there.",
            "No puedes poner ahí esa figura ({figure}).",
        ),
        "err.bad_spot": (
            "'{spot}' is not a spot on this tile; its spots are {names}",
            "'{spot}' no es un lugar de esta pieza; sus lugares son {names}",
        ),
    }
)


def _figure(kind: str) -> str:
    """A figure kind in the reader's words when the catalogue names it (``fig.<kind>``)."""
    return Phrase(f"fig.{kind}") if messages.has(f"fig.{kind}") else kind


# ---------------------------------------------------------------------------- placement
def placements_for(board: Board, t: TileDef) -> dict[Position, tuple[Rotation, ...]]:
    """Every cell where ``t`` fits, with the distinct rotations that fit there (of rotations
    that place the very same tile only the first: :func:`canonical_rotations`)."""
    table = offered_table(t)
    out = {}
    for pos, code in board.frontier.items():
        rots = table[code]
        if rots:
            out[pos] = rots
    return out


def placement_masks(state: GameState) -> dict[Position, int]:
    """:func:`legal_placements` with each cell's rotations as a 4-bit mask (the hot path of
    the place decision: no tuples to merge)."""
    if state.step != "place" or state.drawn is None:
        return {}
    t = tile(state.drawn)
    masks = offered_masks(t)
    out = {pos: m for pos, code in state.board.frontier.items() if (m := masks[code])}
    if state.setup.expansions:
        for pos, m in extra_masks(state, t).items():
            out[pos] = out.get(pos, 0) | m
    return out


def extra_masks(state: GameState, t: TileDef) -> dict[Position, int]:
    """The placements of ``t`` that the enabled expansions allow besides matching edges
    (``Expansion.extra_placements``), each cell's rotations as a 4-bit mask."""
    out: dict[Position, int] = {}
    for e in state.hooks.extra_placements:
        for pos, rots in (e.extra_placements(state, t) or {}).items():
            m = out.get(pos, 0)
            for r in rots:
                m |= 1 << r
            out[pos] = m
    return out


def has_placement(board: Board, t: TileDef) -> bool:
    table = fits_table(t)
    for code in board.frontier.values():  # noqa: SIM110 - a loop, not any(genexpr): hot
        if table[code]:
            return True
    return False


def legal_placements(state: GameState) -> dict[Position, tuple[Rotation, ...]]:
    """Cells and rotations where the drawn tile may go (empty unless the step is ``place``):
    where its edges match, and where an expansion allows more (``Expansion.extra_placements``).
    Each cell's rotations are distinct and in rotation order."""
    rots = ROTATIONS_OF_MASK
    return {pos: rots[m] for pos, m in placement_masks(state).items()}


def can_place(state: GameState, t: TileDef) -> bool:
    """Whether ``t`` may go anywhere now (else it is discarded, RULES.md §2.4.4)."""
    if has_placement(state.board, t):
        return True
    return bool(state.setup.expansions) and bool(extra_masks(state, t))


def explain_placement(board: Board, t: TileDef, pos: Position, rotation: Rotation) -> str | None:
    """Why ``t`` cannot go at ``pos``/``rotation`` in English words, or ``None`` if it can."""
    error = refuse_placement(board, t, pos, rotation)
    return None if error is None else str(error)


def refuse_placement(
    board: Board, t: TileDef, pos: Position, rotation: Rotation
) -> IllegalActionError | None:
    """Why ``t`` cannot go at ``pos``/``rotation`` (a keyed error), or ``None`` if it can."""
    if pos in board.cells:
        return IllegalActionError.keyed("err.tile_there", pos=pos.notation())
    code = board.frontier.get(pos)
    if code is None:
        return IllegalActionError.keyed("err.not_adjacent", pos=pos.notation())
    rt = t.rotated(rotation)
    for s in range(4):
        need = code >> (2 * s) & 3
        have = rt.edge_code >> (2 * s) & 3
        if need and have and need != have:
            return IllegalActionError.keyed(
                "err.edge_mismatch",
                degrees=rotation.degrees,
                side=Phrase(f"core.side.{_SIDE_WORDS[s]}"),
                have=Phrase(f"core.edge.{_EDGE_WORDS[have]}"),
                npos=pos.neighbour(s).notation(),
                need=Phrase(f"core.edge.{_EDGE_WORDS[need]}"),
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
    names = ", ".join(f"'{spot_name(rt, i)}'" for i in range(len(rt.tile.features)))
    raise InvalidActionError.keyed("err.bad_spot", spot=spot, names=names)


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
    rules = _figure_rules(state.setup)
    kinds = []
    for k, n in supply.items():
        if n > 0:
            rule = rules.get(k)
            if rule is None:
                rule = _figure_rule(state.setup, rules, k)
            if rule:
                kinds.append(rule)
    if not kinds:
        return out
    features = state.board.features
    root = state.board.root
    segs = placed.segs
    spots = rt.spots
    farmers = state.setup.farmers
    for index, kind, _open, _pennants, _mods, _cities in rt.starts:
        if kind is _FIELD and not farmers:
            continue
        feat = features[root[segs[index]]]
        name = spots[index]
        free = not feat.meeples or not occupied(feat)
        for fig, follower, opinions, where in kinds:
            if where is not None:  # the figure's own spec refuses it here: no veto asked
                stands, joins = where
                if (stands is not None and feat.kind not in stands) or (joins and not feat.meeples):
                    continue
            allowed = follower and free
            for veto in opinions[feat.kind]:
                verdict = veto(state, seat, fig, feat)
                if verdict is False:
                    allowed = False
                    break
                if verdict is True:
                    allowed = True
            if allowed:
                out.append(_deploy(name, fig))
    out.extend(extra_deploys(state, seat, placed))
    return out


def extra_deploys(state: GameState, seat: Seat, placed: PlacedTile) -> list[Deploy]:
    """What the expansions offer ``seat`` beside the tile's features (a corner, a printed
    machine); a guarded hook is asked only when its declared test passes."""
    out: list[Deploy] = []
    for e, guard in state.hooks.extra_deploys_guarded:
        if guard is None or guard_passes(state, guard, placed):
            out.extend(e.extra_deploys(state, seat, placed))
    return out


def deploy_allowed(state: GameState, index: int, figure: str) -> bool:
    """Whether :func:`legal_deploys` offers ``figure`` on feature ``index`` of the tile just
    placed (its one test, without the others: checking a deploy needs no list)."""
    if state.step != "deploy" or state.placed is None:
        return False
    seat = state.current
    if state.players[seat].supply.get(figure, 0) <= 0:
        return False
    rules = _figure_rules(state.setup)
    rule = rules.get(figure)
    if rule is None:
        rule = _figure_rule(state.setup, rules, figure)
    if not rule:
        return False
    placed = state.board.cells[state.placed]
    if placed.rt.starts[index][1] is _FIELD and not state.setup.farmers:
        return False
    board = state.board
    feat = board.features[board.root[placed.segs[index]]]
    fig, follower, opinions, where = rule
    if where is not None:
        stands, joins = where
        if (stands is not None and feat.kind not in stands) or (joins and not feat.meeples):
            return False
    allowed = follower and (not feat.meeples or not occupied(feat))
    for veto in opinions[feat.kind]:
        verdict = veto(state, seat, fig, feat)
        if verdict is False:
            return False
        if verdict is True:
            allowed = True
    return allowed


_FIELD = FeatureKind.FIELD
#: a figure kind's deploy rule: the kind, whether it is a follower, per feature kind the
#: ``can_deploy`` of the expansions that have an opinion on it there, and where it may stand
#: (``None``: on any feature, else its spec's ``stands_on`` and ``joins``); ``()`` for a
#: figure that never goes on a feature
FigureRule = (
    tuple[
        str,
        bool,
        dict[FeatureKind, tuple[Callable[..., bool | None], ...]],
        tuple[frozenset[FeatureKind] | None, bool] | None,
    ]
    | tuple[()]
)


@per_setup
def _figure_rules(setup: GameSetup) -> dict[str, FigureRule]:
    """Each figure kind's :data:`FigureRule` in a match, filled as kinds are met."""
    return {}


def _figure_rule(setup: GameSetup, rules: dict[str, FigureRule], kind: str) -> FigureRule:
    spec = FIGURES.get(kind)
    rule: FigureRule = ()
    if spec is None or spec.on_features:
        vetoes = deploy_vetoes(setup)
        mine = [e for e in vetoes if e.deploy_opinions is None or kind in e.deploy_opinions]
        opinions = {
            k: tuple(e.can_deploy for e in mine if e.deploy_kinds is None or k in e.deploy_kinds)
            for k in FeatureKind
        }
        where = None
        if spec is not None and (spec.stands_on is not None or spec.joins):
            where = (spec.stands_on, spec.joins)
        rule = (kind, is_follower(kind), opinions, where)
    rules[kind] = rule
    return rule


_DEPLOYS: dict[tuple[str, str], Deploy] = {}


def _deploy(spot: str, figure: str) -> Deploy:
    """Shared Deploy values (rebuilt for every deploy decision; the actions are immutable)."""
    d = _DEPLOYS.get((spot, figure))
    if d is None:
        if len(_DEPLOYS) > 10_000:
            _DEPLOYS.clear()
        d = _DEPLOYS[(spot, figure)] = Deploy(spot, figure)
    return d


def deploy_target(pos: Position, spot: str) -> FeatureRef | Corner:
    """Where a deploy on the tile at ``pos`` is drawn: a feature's spot, or a corner."""
    corner = CORNER_SPOTS.get(spot)
    if corner is not None:
        return Corner(pos.x + corner[0], pos.y + corner[1])
    return FeatureRef(pos.x, pos.y, spot)


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


def deploy_refused(
    state: GameState, placed: PlacedTile, index: int | None, figure: str
) -> IllegalActionError:
    """Why putting ``figure`` on feature ``index`` of the tile just placed (``None``: a spot
    beside its features, a corner) is refused: no such figure left, else an expansion's own
    reason (keyed), else the core's."""
    seat = state.current
    if state.players[seat].supply.get(figure, 0) <= 0:
        return IllegalActionError.keyed("err.no_figure_left", figure=_figure(figure))
    feat = None if index is None else state.board.feature_of(placed.segs[index])
    for e in state.exps:
        reason = e.deploy_refusal(state, seat, figure, feat)
        if reason is not None:
            return reason
    if index is None:
        return IllegalActionError.keyed("err.cannot_deploy", figure=_figure(figure))
    return refuse_deploy(state, placed, index, figure)


def why_not_deploy(state: GameState, placed: PlacedTile, index: int, figure: str) -> str:
    """Why ``figure`` may not stand on feature ``index`` of the placed tile, in English."""
    return str(refuse_deploy(state, placed, index, figure))


def refuse_deploy(
    state: GameState, placed: PlacedTile, index: int, figure: str
) -> IllegalActionError:
    """Why ``figure`` may not stand on feature ``index`` of the placed tile (a keyed error)."""
    f = placed.rt.tile.features[index]
    supply = state.players[state.current].supply
    if supply.get(figure, 0) <= 0:
        return IllegalActionError.keyed("err.no_figure_left", figure=_figure(figure))
    if f.kind is FeatureKind.FIELD and not state.setup.farmers:
        return IllegalActionError.keyed("err.no_farmers")
    feat = state.board.feature_of(placed.segs[index])
    if occupied(feat) and is_follower(figure):
        return IllegalActionError.keyed(f"err.occupied.{f.kind.value}")
    return IllegalActionError.keyed("err.cannot_deploy", figure=_figure(figure))


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
