"""What leaves the engine: the public view of a game, and each seat's own view.

Rendering and channel messages take a :class:`PublicView`; nothing hidden (the draw order,
the generator state, another seat's private decision) is in it. :func:`view_for` is the only
projection: it calls every expansion's ``redact`` for the viewer and keeps the decisions the
viewer may see (public ones, and a seat's own private ones). The named piles of the state
(``chance``: a deck of messages, forced rolls) are hidden like the draw order: no view holds them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.rules import pending, spot_name
from engine.carcassonne.state import GameSetup, GameState
from engine.carcassonne.track import TrackFigure
from engine.core.decisions import Decision, Prompt, decisions_of
from engine.core.seats import Seat


@dataclass(frozen=True, slots=True)
class TileView:
    pos: Position
    tile: str
    rotation: Rotation


@dataclass(frozen=True, slots=True)
class FigureView:
    """A figure on the board: owner, kind, tile, spot name and the feature index on that tile."""

    seat: Seat
    figure: str
    pos: Position
    spot: str
    feature: int


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: Seat
    name: str
    score: int
    supply: dict[str, int]
    #: each expansion's public per-seat counters in words (``Expansion.counters``), by id
    counters: dict[str, tuple[Prompt, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything every player may see."""

    setup: GameSetup
    version: int
    turn: int
    step: str
    current: Seat
    drawn: str | None
    placed: Position | None
    tiles_left: int
    tiles: tuple[TileView, ...]
    figures: tuple[FigureView, ...]
    players: tuple[PlayerView, ...]
    last_placed: dict[Seat, Position] = field(default_factory=dict)
    discarded: tuple[str, ...] = ()
    #: each enabled expansion's public data by expansion id (``Expansion.redact(model, None)``),
    #: read by that expansion's overlay
    ext: dict[str, Any] = field(default_factory=dict)
    #: the open public decisions (every seat's), as ``pending`` lists them
    decisions: tuple[Decision, ...] = ()
    #: the expansions' figures on the scoring track (a second marker, a robber); each seat's
    #: own marker stands on its score less its other scoring figures (``track.py``)
    track: tuple[TrackFigure, ...] = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled flat (a picture's view goes to a drawing worker with every turn): its tiles
        and figures as tuples of plain values, rebuilt by :func:`_public_view`. Dataclasses'
        own pickling runs Python code for every field of every tile, figure and position:
        130 µs to pickle a 41-tile view and 116 µs to load it, against 20 and 58 µs flat
        (``benchmarks/views.py``). A new field must be added here and in :func:`_public_view`."""
        tiles = tuple((t.pos[0], t.pos[1], t.tile, int(t.rotation)) for t in self.tiles)
        figures = tuple(
            (int(f.seat), f.figure, f.pos[0], f.pos[1], f.spot, f.feature) for f in self.figures
        )
        players = tuple((int(p.seat), p.name, p.score, p.supply, p.counters) for p in self.players)
        placed = tuple((int(s), p[0], p[1]) for s, p in self.last_placed.items())
        return (
            _public_view,
            (
                self.setup,
                self.version,
                self.turn,
                self.step,
                int(self.current),
                self.drawn,
                None if self.placed is None else tuple(self.placed),
                self.tiles_left,
                tiles,
                figures,
                players,
                placed,
                self.discarded,
                self.ext,
                self.decisions,
                self.track,
            ),
        )

    def for_pictures(self) -> PublicView:
        """This view as a picture needs it: no picture draws the open decisions, so a worker
        process that draws it is sent the view without them (smaller; they pickle too)."""
        return dataclasses.replace(self, decisions=()) if self.decisions else self

    @property
    def over(self) -> bool:
        return self.step == "over"

    @property
    def winners(self) -> tuple[Seat, ...]:
        if not self.over:
            return ()
        best = max(p.score for p in self.players)
        return tuple(p.seat for p in self.players if p.score == best)


_ROTATIONS = tuple(Rotation)


def _public_view(
    setup: GameSetup,
    version: int,
    turn: int,
    step: str,
    current: int,
    drawn: str | None,
    placed: tuple[int, int] | None,
    tiles_left: int,
    tiles: tuple[tuple[int, int, str, int], ...],
    figures: tuple[tuple[int, str, int, int, str, int], ...],
    players: tuple[tuple[int, str, int, dict[str, int], dict[str, tuple[Prompt, ...]]], ...],
    placed_by: tuple[tuple[int, int, int], ...],
    discarded: tuple[str, ...],
    ext: dict[str, Any],
    decisions: tuple[Decision, ...],
    track: tuple[TrackFigure, ...],
) -> PublicView:
    """A :class:`PublicView` from what its ``__reduce__`` pickled."""
    rot = _ROTATIONS
    return PublicView(
        setup,
        version,
        turn,
        step,
        Seat(current),
        drawn,
        None if placed is None else Position(*placed),
        tiles_left,
        tuple(TileView(Position(x, y), t, rot[r]) for x, y, t, r in tiles),
        tuple(FigureView(Seat(s), f, Position(x, y), sp, i) for s, f, x, y, sp, i in figures),
        tuple(PlayerView(Seat(s), n, sc, su, c) for s, n, sc, su, c in players),
        {Seat(s): Position(x, y) for s, x, y in placed_by},
        discarded,
        ext,
        decisions,
        track,
    )


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat's view: the public view plus what only that seat may see.

    ``ext`` holds each expansion's model as redacted for this seat; ``decisions`` the seat's
    own open decisions, private ones included (the public view's list has only public ones).
    """

    public: PublicView
    seat: Seat
    ext: dict[str, Any] = field(default_factory=dict)
    decisions: tuple[Decision, ...] = ()


def view_for(state: GameState, viewer: Seat | None = None) -> PublicView | SeatView:
    """Project ``state`` for ``viewer`` (``None`` = the public / channel view)."""
    pub = public_view(state)
    if viewer is None:
        return pub
    return SeatView(
        pub,
        viewer,
        ext={e.id: e.redact(state.ext[e.id], viewer) for e in state.exps if e.id in state.ext},
        decisions=tuple(d for d in pending(state) if d.seat == viewer),
    )


def public_view(state: GameState) -> PublicView:
    board = state.board
    rot = _ROTATIONS  # a tuple look-up: calling the enum costs more than the rest of a tile
    tiles = tuple(TileView(p.pos, p.rt.tile.id, rot[p.rt.rotation]) for p in board.cells.values())
    figures = []
    cells = board.cells
    seg_index: dict[int, tuple[Position, int]] | None = None
    for m in board.meeples():
        # a figure knows its tile; the whole board's segment index only if one did not
        placed = cells.get(m.pos)
        if placed is not None and m.seg in placed.segs:
            pos, idx = m.pos, placed.segs.index(m.seg)
        else:
            if seg_index is None:
                seg_index = {s: (p.pos, i) for p in cells.values() for i, s in enumerate(p.segs)}
            pos, idx = seg_index[m.seg]
        figures.append(FigureView(m.seat, m.figure, pos, spot_name(cells[pos].rt, idx), idx))
    names = state.setup.names
    public_ext = {e.id: e.redact(state.ext[e.id], None) for e in state.exps if e.id in state.ext}
    players = tuple(
        PlayerView(
            Seat(i),
            names[i] if i < len(names) else f"Player {i + 1}",
            p.score,
            dict(p.supply),
            {
                e.id: words
                for e in state.exps
                if e.id in public_ext and (words := tuple(e.counters(public_ext[e.id], Seat(i))))
            },
        )
        for i, p in enumerate(state.players)
    )
    return PublicView(
        setup=state.setup,
        version=state.version,
        turn=state.turn,
        step=state.step,
        current=state.current,
        drawn=state.drawn,
        placed=state.placed,
        tiles_left=state.tiles_left,
        tiles=tiles,
        figures=tuple(sorted(figures, key=_fig_key)),
        players=players,
        last_placed=dict(state.last_placed),
        discarded=state.discarded,
        ext=public_ext,
        decisions=decisions_of(pending(state), None),
        track=state.track,
    )


def _fig_key(f: FigureView) -> tuple[int, int, int, int]:
    return (f.pos.y, f.pos.x, f.seat, f.feature)
