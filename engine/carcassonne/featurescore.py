"""Scoring features: completed roads, cities and cloisters during play, and final scoring.

Every point goes through :func:`engine.carcassonne.scoring.award`, the one points pipeline.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.carcassonne.board import RING, Board, Feature, PlacedTile, sorted_cells
from engine.carcassonne.events import (
    BoardFigure,
    Event,
    FiguresReturned,
    FinalScoringStarted,
    GameEnded,
)
from engine.carcassonne.geometry import Position
from engine.carcassonne.scoring import Part, ScoreItem, award
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.core.seats import Seat


def return_figures(state: GameState, rep: int, events: list[Event]) -> None:
    """Every owned figure on feature ``rep`` goes back to its owner's supply (neutral ones
    stay), with a :class:`FiguresReturned` event per seat and kind."""
    removed = state.board.remove_meeples(rep)
    counts: dict[tuple[Seat, str], int] = {}
    for m in removed:
        counts[(m.seat, m.figure)] = counts.get((m.seat, m.figure), 0) + 1
    for (seat, figure), n in sorted(counts.items()):
        p = state.player(seat)
        p.supply[figure] = p.supply.get(figure, 0) + n
        events.append(FiguresReturned(seat, figure, n))


def feature_item(
    state: GameState,
    feat: Feature,
    *,
    complete: bool,
    final: bool,
    cloister_pos: Position | None = None,
    detail: bool = True,
) -> ScoreItem:
    """The scoring of a road, city or cloister, with the expansions' adjustments.

    ``detail=False`` leaves out the words and the cells (``parts``, ``where``), which only
    a reader needs: the points and winners are the same (an AI projecting scores asks so)."""
    winners = feat.winners()
    if feat.kind is FeatureKind.ROAD:
        n = len(feat.tiles)
        item = ScoreItem(
            "road",
            n,
            complete,
            final,
            tiles=n,
            parts=(Part.plural("part.tiles", n, k=1),) if detail else (),
            winners=winners,
            where=sorted_cells(feat.tiles) if detail else (),
        )
    elif feat.kind is FeatureKind.CITY:
        n, p = len(feat.tiles), feat.pennants
        parts: list[Part] = []
        if complete and n == 2 and state.setup.tiny_city == 2:
            if detail:
                parts.append(Part("part.tiny_city"))
                if p:
                    parts.append(Part.plural("part.shields", p, k=1))
            pts = 2 + p
        else:
            k = 2 if complete else 1
            if detail:
                parts.append(Part.plural("part.tiles", n, k=k))
                if p:
                    parts.append(Part.plural("part.shields", p, k=k))
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
            where=sorted_cells(feat.tiles) if detail else (),
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
            parts=(Part("part.cloister"), Part.plural("part.around", around)) if detail else (),
            winners=winners,
            where=(cloister_pos,),
        )
    for e in state.hooks.score_feature:
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
        state.board.set_feature(rep, done)
        feat = done
    if feat.meeples:
        item = feature_item(state, feat, complete=complete, final=final, cloister_pos=cloister_pos)
        if item.winners:
            award(state, item, events, (feat,))
        return_figures(state, rep, events)


_AROUND = ((0, 0), *RING)


def score_completed(state: GameState, placed: PlacedTile, events: list[Event]) -> None:
    """Score every road, city and cloister that the tile just placed completed."""
    board = state.board
    seen: set[int] = set()
    completed: list[tuple[int, Position | None]] = []
    root = board.root
    features = board.features
    segs = placed.segs
    for index in placed.rt.closables:
        rep = root[segs[index]]
        if rep in seen:
            continue
        seen.add(rep)
        feat = features[rep]
        if feat.open == 0 and not feat.done:
            completed.append((rep, None))
    if placed.rt.tile.sealed:
        # sealed edges close the roads and cities they touch without joining them
        for side in range(4):
            other = board.cells.get(placed.pos.neighbour(side))
            fi = other.rt.side_feature[(side + 2) % 4] if other is not None else -1
            if other is None or fi < 0:
                continue
            rep = board.root[other.segs[fi]]
            if rep not in seen:
                seen.add(rep)
                feat = board.features[rep]
                if feat.open == 0 and not feat.done:
                    completed.append((rep, None))
    x, y = placed.pos
    cells = board.cells
    for dx, dy in _AROUND:
        other = cells.get((x + dx, y + dy))  # type: ignore[call-overload]
        if other is None:
            continue
        for index in other.rt.cloisters:
            rep = root[other.segs[index]]
            if not features[rep].done and board.neighbours_count(other.pos) == 8:
                completed.append((rep, other.pos))
    exps = state.hooks.on_completed
    for rep, where in completed:
        for e in exps:
            events.extend(e.on_completed(state, state.current, board.features[rep]))
        _score_feature(state, rep, events, final=False, cloister_pos=where)


def score_features(state: GameState, segs: Iterable[int], events: list[Event]) -> None:
    """Score, as :func:`score_completed` does, every road or city holding one of ``segs`` that
    is complete and not yet scored: what a re-routing completed away from the tile just placed
    (``Board.reconnect`` returns the features it rebuilt). Cloisters are scored by tiles
    around them, never by a re-routing."""
    board = state.board
    seen: set[int] = set()
    for seg in segs:
        rep = board.root[seg]
        if rep in seen:
            continue
        seen.add(rep)
        feat = board.features[rep]
        if feat.kind is FeatureKind.CLOISTER or feat.kind is FeatureKind.FIELD:
            continue
        if feat.open == 0 and not feat.done:
            for e in state.hooks.on_completed:
                events.extend(e.on_completed(state, state.current, board.features[rep]))
            _score_feature(state, rep, events, final=False)


def _cloister_pos(board: Board, rep: int) -> Position:
    feat = board.features[rep]
    (pos,) = feat.tiles
    return pos


def final_scoring(state: GameState, events: list[Event]) -> None:
    """RULES.md §3 / §19: incomplete features, farms, then expansion lines. Mutates ``state``."""
    board = state.board
    events.append(FinalScoringStarted(board_figures(board)))
    for rep, feat in board.iter_features():
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


def board_figures(board: Board) -> tuple[BoardFigure, ...]:
    """Every figure on ``board`` with its tile and feature index (tile by tile, then seat)."""
    cells = board.cells
    out = []
    for m in board.meeples():
        segs = cells[m.pos].segs  # a figure stands on a feature of its own tile
        out.append(BoardFigure(m.seat, m.figure, m.pos, segs.index(m.seg)))
    out.sort(key=lambda f: (f.pos.y, f.pos.x, int(f.seat), f.feature, f.figure))
    return tuple(out)


def _completed_cities(board: Board, field: Feature) -> list[int]:
    out = set()
    for seg in field.cities:
        rep = board.root[seg]
        if board.features[rep].open == 0:
            out.add(rep)
    return sorted(out)


def _farms_per_farm(state: GameState, events: list[Event]) -> None:
    board = state.board
    for rep, feat in board.iter_features():
        if feat.kind is not FeatureKind.FIELD or not feat.meeples:
            continue
        item = farm_item(state, feat)
        if item.points and item.winners:
            award(state, item, events, (feat,))
        return_figures(state, rep, events)


def farm_item(state: GameState, feat: Feature, *, detail: bool = True) -> ScoreItem:
    """What the farm ``feat`` scores at the end (per farm: 3 per completed city it supplies),
    after the expansions' adjustments (``detail``: as for :func:`feature_item`)."""
    n = len(_completed_cities(state.board, feat))
    item = ScoreItem(
        "farm",
        3 * n,
        False,
        True,
        tiles=len(feat.tiles),
        parts=(Part.plural("part.cities", n, k=3),) if detail else (),
        winners=feat.winners(),
        where=sorted_cells(feat.tiles) if detail else (),
        units=n,
    )
    for e in state.hooks.score_feature:
        item = e.score_feature(state, feat, item)
    return item


def _farms_first_edition(state: GameState, events: list[Event]) -> None:
    """Edition A (seed 000): each completed city pays 3 to the seats with most farmers
    across all the farms that supply it."""
    board = state.board
    farms = [
        (rep, f) for rep, f in board.iter_features() if f.kind is FeatureKind.FIELD and f.meeples
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
            parts=(Part("part.supplies", n=len(cfeat.tiles)),),
            winners=winners,
            where=sorted_cells(cfeat.tiles),
            units=1,
        )
        award(state, item, events, tuple(fs))
    for rep, _ in farms:
        return_figures(state, rep, events)
