"""The only state transitions of the tile game: ``new_game``, ``legal_actions``, ``apply``.

A turn is: the current seat places the drawn tile (``PlaceTile``), then deploys a figure on it
(``Deploy``) or passes (``Pass``); features the tile completed are scored, their figures return,
and the next seat draws. A drawn tile that fits nowhere is discarded and another drawn
(RULES.md §2.4.4). When the pile is empty after a turn, final scoring runs (RULES.md §3, §19).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.carcassonne.actions import Action, Deploy, Pass, PlaceTile
from engine.carcassonne.board import FOLLOWERS, RING, Board, Feature, Meeple, PlacedTile
from engine.carcassonne.events import (
    Event,
    FigureDeployed,
    FiguresReturned,
    GameEnded,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
)
from engine.carcassonne.expansion import Expansion, expansions_of
from engine.carcassonne.expansions import find_expansion
from engine.carcassonne.geometry import (
    HALF_NAMES,
    SIDE_NAMES,
    Position,
    Rotation,
)
from engine.carcassonne.scoring import ScoreItem, award, count
from engine.carcassonne.state import GameSetup, GameState, PlayerState
from engine.carcassonne.tiles import FeatureKind, RotatedTile, TileDef, load_tile_set, tile
from engine.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from engine.core.rng import Rng
from engine.core.seats import Seat

ORIGIN = Position(0, 0)
_SIDE_WORDS = ("north", "east", "south", "west")
_EDGE_WORDS = {1: "city", 2: "road", 3: "field"}


@dataclass(frozen=True, slots=True)
class Transition:
    """The result of :func:`apply`: the new state and what happened."""

    state: GameState
    events: tuple[Event, ...]


# ---------------------------------------------------------------------------- setup
def tile_sets_of(setup: GameSetup) -> tuple[str, ...]:
    sets = ["base"]
    for e in setup.expansions:
        sets.extend(find_expansion(e).tile_sets)
    return tuple(sets)


def new_game(setup: GameSetup, *, seed: int) -> GameState:
    """Start a game: start tile at the origin, pile shuffled from ``seed``, first tile drawn.

    Raises:
        IllegalActionError: for an invalid setup or a forced draw order the pile cannot satisfy.
    """
    setup.validate()
    exps = expansions_of(setup)
    pool: list[str] = []
    start: TileDef | None = None
    for set_id in tile_sets_of(setup):
        for t in load_tile_set(set_id):
            if not t.in_pile:
                continue
            n = t.count
            if t.start and start is None:
                start = t
                n -= 1
            pool.extend([t.id] * n)
    assert start is not None, "the base set has a start tile"
    rng = Rng(seed)
    forced: list[str] = []
    for i, tid in enumerate(setup.draw_order):
        try:
            real = tile(tid).id
        except Exception:
            raise IllegalActionError(f"draw order entry {i + 1}: unknown tile '{tid}'") from None
        if real not in pool:
            raise IllegalActionError(
                f"draw order entry {i + 1}: no copy of {real} is left in the pile"
            )
        pool.remove(real)
        forced.append(real)
    rest = [] if setup.only_forced else rng.shuffled(pool)
    pile = tuple(forced + rest)
    supply = {"follower": setup.followers}
    for e in exps:
        for k, v in e.figures().items():
            supply[k] = supply.get(k, 0) + v
    board = Board()
    board.place(ORIGIN, start.rotated(0))
    state = GameState(
        setup=setup,
        seed=seed,
        board=board,
        players=[PlayerState(0, dict(supply)) for _ in range(setup.players)],
        pile=pile,
        exps=exps,
    )
    for e in exps:
        model = e.initial_model()
        if model is not None:
            state.ext[e.id] = model
    _draw(state, [])
    return state


# ---------------------------------------------------------------------------- placement
_FITS: dict[str, tuple[tuple[Rotation, ...], ...]] = {}


def _fits_table(t: TileDef) -> tuple[tuple[Rotation, ...], ...]:
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
    table = _fits_table(t)
    out = {}
    for pos, code in board.frontier.items():
        rots = table[code]
        if rots:
            out[pos] = rots
    return out


def _has_placement(board: Board, t: TileDef) -> bool:
    table = _fits_table(t)
    return any(table[code] for code in board.frontier.values())


def legal_placements(state: GameState) -> dict[Position, tuple[Rotation, ...]]:
    """Cells and rotations where the drawn tile may go (empty unless the step is ``place``)."""
    if state.step != "place" or state.drawn is None:
        return {}
    return placements_for(state.board, tile(state.drawn))


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
            if _can_deploy(state, exps, seat, fig, feat):
                out.append(Deploy(name, fig))
    return out


def _can_deploy(
    state: GameState, exps: tuple[Expansion, ...], seat: Seat, figure: str, feat: Feature
) -> bool:
    allowed = figure in FOLLOWERS and not feat.meeples
    for e in exps:
        verdict = e.can_deploy(state, seat, figure, feat)
        if verdict is False:
            return False
        if verdict is True:
            allowed = True
    return allowed


def legal_actions(state: GameState, seat: Seat) -> Iterator[Action]:
    """Every action ``seat`` may take now (nothing if it is not that seat's move)."""
    if state.step == "over" or seat != state.current:
        return
    if state.step == "place":
        for pos, rots in legal_placements(state).items():
            for r in rots:
                yield PlaceTile(pos, r)
    elif state.step == "deploy":
        yield from legal_deploys(state)
        yield Pass()


# ---------------------------------------------------------------------------- apply
def apply(state: GameState, seat: Seat, action: Action) -> Transition:
    """Apply ``action`` by ``seat`` and return the new state; ``state`` is never changed.

    Raises:
        GameOverError: the game has ended.
        NotYourTurnError: ``seat`` is not the seat to move.
        IllegalActionError: the action breaks a rule; the message says which.
        InvalidActionError: the action names something that does not exist.
    """
    if state.step == "over":
        raise GameOverError("The game is over.")
    if seat != state.current:
        raise NotYourTurnError(f"It is not your turn: seat {state.current + 1} is to play.")
    events: list[Event] = []
    if isinstance(action, PlaceTile):
        if state.step != "place":
            raise IllegalActionError("You have already placed your tile: deploy a figure or pass.")
        new = _place(state, action, events)
    elif isinstance(action, Deploy | Pass):
        if state.step != "deploy":
            raise IllegalActionError("Place your tile first.")
        new = _deploy(state, action, events)
    else:
        raise InvalidActionError(f"unknown action {action!r}")
    new.version = state.version + 1
    return Transition(new, tuple(events))


def _place(state: GameState, action: PlaceTile, events: list[Event]) -> GameState:
    assert state.drawn is not None
    t = tile(state.drawn)
    pos = Position(*action.pos)
    rot = Rotation(action.rotation)
    code = state.board.frontier.get(pos)
    if code is None or rot not in _fits_table(t)[code]:
        reason = explain_placement(state.board, t, pos, rot) or "That placement is not allowed."
        raise IllegalActionError(reason)
    new = state.clone()
    new.board.place(pos, t.rotated(rot))
    new.placed = pos
    new.drawn = None
    new.step = "deploy"
    new.last_placed[state.current] = pos
    events.append(TilePlaced(state.current, t.id, pos, rot))
    if state.setup.expansions:
        placed = new.board.cells[pos]
        for e in state.exps:
            events.extend(e.on_placed(new, placed))
    return new


def _deploy(state: GameState, action: Deploy | Pass, events: list[Event]) -> GameState:
    assert state.placed is not None
    seat = state.current
    placed = state.board.cells[state.placed]
    if isinstance(action, Deploy):
        index = parse_spot(placed.rt, action.spot)
        spot = spot_name(placed.rt, index)
        legal = {(d.spot, d.figure) for d in legal_deploys(state)}
        if (spot, action.figure) not in legal:
            raise IllegalActionError(_why_not_deploy(state, placed, index, action.figure))
        new = state.clone()
        seg = placed.segs[index]
        new.board.add_meeple(Meeple(seat, action.figure, seg, placed.pos))
        new.players[seat].supply[action.figure] -= 1
        events.append(FigureDeployed(seat, action.figure, placed.pos, spot))
    else:
        new = state.clone()
    _score_completed(new, placed, events)
    _end_turn(new, events)
    return new


def _why_not_deploy(state: GameState, placed: PlacedTile, index: int, figure: str) -> str:
    f = placed.rt.tile.features[index]
    supply = state.players[state.current].supply
    if supply.get(figure, 0) <= 0:
        return f"You have no {figure} left in your supply."
    if f.kind is FeatureKind.FIELD and not state.setup.farmers:
        return "Farmers are not used in this match."
    feat = state.board.feature_of(placed.segs[index])
    if feat.meeples and figure in FOLLOWERS:
        return f"That {f.kind.value} is already occupied (it joins a {f.kind.value} with a figure on it)."
    return f"You cannot put a {figure} there."


# ---------------------------------------------------------------------------- scoring
def _return(state: GameState, rep: int, events: list[Event]) -> None:
    removed = state.board.remove_meeples(rep)
    counts: dict[tuple[Seat, str], int] = {}
    for m in removed:
        counts[(m.seat, m.figure)] = counts.get((m.seat, m.figure), 0) + 1
    for (seat, figure), n in sorted(counts.items()):
        p = state.players[seat]
        p.supply[figure] = p.supply.get(figure, 0) + n
        events.append(FiguresReturned(seat, figure, n))


def feature_item(
    state: GameState,
    feat: Feature,
    *,
    complete: bool,
    final: bool,
    cloister_pos: Position | None = None,
) -> ScoreItem:
    """The base scoring of a road, city or cloister, before expansion adjustments."""
    where = tuple(sorted(feat.tiles))
    winners = feat.winners()
    if feat.kind is FeatureKind.ROAD:
        n = len(feat.tiles)
        item = ScoreItem(
            "road",
            n,
            complete,
            final,
            tiles=n,
            parts=(f"{count(n, 'tile')} × 1",),
            winners=winners,
            where=where,
        )
    elif feat.kind is FeatureKind.CITY:
        n, p = len(feat.tiles), feat.pennants
        if complete and n == 2 and state.setup.tiny_city == 2:
            parts = ["2-tile city: 2"] + ([f"{count(p, 'shield')} × 1"] if p else [])
            pts = 2 + p
        else:
            k = 2 if complete else 1
            parts = [f"{count(n, 'tile')} × {k}"] + ([f"{count(p, 'shield')} × {k}"] if p else [])
            pts = k * (n + p)
        item = ScoreItem(
            "city",
            pts,
            complete,
            final,
            tiles=n,
            pennants=p,
            parts=tuple(parts),
            winners=winners,
            where=where,
        )
    else:
        assert cloister_pos is not None
        around = state.board.neighbours_count(cloister_pos)
        item = ScoreItem(
            "cloister",
            1 + around,
            complete,
            final,
            tiles=1 + around,
            parts=("cloister 1", f"{count(around, 'tile')} around × 1"),
            winners=winners,
            where=(cloister_pos,),
        )
    for e in state.exps:
        item = e.score_feature(state, feat, item)
    return item


def _score_feature(
    state: GameState,
    rep: int,
    events: list[Event],
    *,
    final: bool,
    cloister_pos: Position | None = None,
) -> None:
    feat = state.board.features[rep]
    complete = not final or (feat.kind is not FeatureKind.CLOISTER and feat.open == 0)
    if not final:
        done = feat.copy()
        done.done = True
        state.board.features[rep] = done
        feat = done
    if feat.meeples:
        item = feature_item(state, feat, complete=complete, final=final, cloister_pos=cloister_pos)
        if item.winners:
            award(state, item, events, (feat,))
        _return(state, rep, events)


def _score_completed(state: GameState, placed: PlacedTile, events: list[Event]) -> None:
    """Score every road, city and cloister that the tile just placed completed."""
    board = state.board
    seen: set[int] = set()
    completed: list[tuple[int, Position | None]] = []
    for f in placed.rt.tile.features:
        if f.kind is FeatureKind.ROAD or f.kind is FeatureKind.CITY:
            rep = board.root[placed.segs[f.index]]
            if rep in seen:
                continue
            seen.add(rep)
            feat = board.features[rep]
            if feat.open == 0 and not feat.done:
                completed.append((rep, None))
    x, y = placed.pos
    for dx, dy in ((0, 0), *RING):
        cpos = Position(x + dx, y + dy)
        other = board.cells.get(cpos)
        if other is None:
            continue
        for f in other.rt.tile.features:
            if f.kind is FeatureKind.CLOISTER:
                rep = board.root[other.segs[f.index]]
                if not board.features[rep].done and board.neighbours_count(cpos) == 8:
                    completed.append((rep, cpos))
    exps = state.exps
    for rep, where in completed:
        for e in exps:
            events.extend(e.on_completed(state, state.current, board.features[rep]))
        _score_feature(state, rep, events, final=False, cloister_pos=where)


def _cloister_pos(board: Board, rep: int) -> Position:
    feat = board.features[rep]
    (pos,) = feat.tiles
    return pos


def final_scoring(state: GameState, events: list[Event]) -> None:
    """RULES.md §3 / §19: incomplete features, farms, then expansion lines. Mutates ``state``."""
    board = state.board
    for rep, feat in sorted(board.features.items()):
        if feat.kind is FeatureKind.FIELD or not feat.meeples:
            continue
        cpos = _cloister_pos(board, rep) if feat.kind is FeatureKind.CLOISTER else None
        _score_feature(state, rep, events, final=True, cloister_pos=cpos)
    if state.setup.farm_scoring == "city_supply_1st_ed":
        _farms_first_edition(state, events)
    else:
        _farms_per_farm(state, events)
    for e in state.exps:
        events.extend(e.final_scoring(state))
    scores = state.scores
    best = max(scores)
    winners = tuple(Seat(i) for i, s in enumerate(scores) if s == best)
    events.append(GameEnded(scores, winners))


def _completed_cities(board: Board, field: Feature) -> list[int]:
    out = set()
    for seg in field.cities:
        rep = board.root[seg]
        if board.features[rep].open == 0:
            out.add(rep)
    return sorted(out)


def _farms_per_farm(state: GameState, events: list[Event]) -> None:
    board = state.board
    for rep, feat in sorted(board.features.items()):
        if feat.kind is not FeatureKind.FIELD or not feat.meeples:
            continue
        cities = _completed_cities(board, feat)
        n = len(cities)
        item = ScoreItem(
            "farm",
            3 * n,
            False,
            True,
            tiles=len(feat.tiles),
            parts=(f"{n} completed {'city' if n == 1 else 'cities'} × 3",),
            winners=feat.winners(),
            where=tuple(sorted(feat.tiles)),
            units=n,
        )
        for e in state.exps:
            item = e.score_feature(state, feat, item)
        if item.points and item.winners:
            award(state, item, events, (feat,))
        _return(state, rep, events)


def _farms_first_edition(state: GameState, events: list[Event]) -> None:
    """Edition A (seed 000): each completed city pays 3 to the seats with most farmers
    across all the farms that supply it."""
    board = state.board
    farms = [
        (rep, f)
        for rep, f in sorted(board.features.items())
        if f.kind is FeatureKind.FIELD and f.meeples
    ]
    supplied: dict[int, list[Feature]] = {}
    for _, f in farms:
        for city in _completed_cities(board, f):
            supplied.setdefault(city, []).append(f)
    for city, fs in sorted(supplied.items()):
        strength: dict[Seat, int] = {}
        for f in fs:
            for s, v in f.strength().items():
                strength[s] = strength.get(s, 0) + v
        if not strength:
            continue
        best = max(strength.values())
        winners = tuple(sorted(s for s, v in strength.items() if v == best))
        cfeat = board.features[city]
        item = ScoreItem(
            "farm",
            3,
            False,
            True,
            tiles=len(cfeat.tiles),
            parts=(f"supplies a completed city of {len(cfeat.tiles)} tiles: 3",),
            winners=winners,
            where=tuple(sorted(cfeat.tiles)),
            units=1,
        )
        award(state, item, events, tuple(fs))
    for rep, _ in farms:
        _return(state, rep, events)


# ---------------------------------------------------------------------------- turn flow
def _draw(state: GameState, events: list[Event]) -> None:
    """Draw the next tile that fits somewhere; discard those that fit nowhere."""
    limit = state.setup.draw_limit
    while state.pile_pos < len(state.pile) and (limit is None or state.pile_pos < limit):
        tid = state.pile[state.pile_pos]
        state.pile_pos += 1
        if _has_placement(state.board, tile(tid)):
            state.drawn = tid
            state.step = "place"
            state.placed = None
            events.append(TileDrawn(state.current, tid))
            return
        state.discarded = state.discarded + (tid,)
        events.append(TileDiscarded(state.current, tid))
    state.drawn = None
    state.placed = None
    state.step = "over"
    final_scoring(state, events)


def _end_turn(state: GameState, events: list[Event]) -> None:
    extra = False
    if state.setup.expansions:
        extra = any([e.extra_turn(state) for e in state.exps])
    if not extra:
        state.current = Seat((state.current + 1) % state.setup.players)
    state.turn += 1
    _draw(state, events)


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
