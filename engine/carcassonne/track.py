"""The scoring track: each seat's own marker, and the figures expansions put beside it.

A seat's score (``PlayerState.score``) is its total. Its own marker (:data:`MAIN`) stands on
that total, less whatever the seat's other *scoring* figures hold. An expansion may put figures
on the track (``state.track``, public, in every view):

* a **scoring** figure of a seat (a second marker): its ``value`` is points, part of the seat's
  score; an award that names it (``Award.figure``) moves it instead of the marker;
* a **standing** figure (a robber beside another seat's marker): its ``value`` is a space
  0–49 and it scores nothing.

Every move of a scoring figure by the points pipeline (``scoring.give``) or by :func:`transfer`
is shown to the expansions that override ``Expansion.on_track_moved`` as a :class:`TrackMove`
(whose figure, from where to where, for which award), and they may answer with follow-up
awards. A figure *lands* on ``space(move.after)`` and *leaves* ``space(move.before)``.
Spaces are ``value mod 50``, floor-mod, so a debt of −3 stands on 47 (RULES.md OQ-ROB-4).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

from engine.carcassonne.events import TrackFigureMoved
from engine.carcassonne.expansion import Expansion, expansions_of, per_setup
from engine.carcassonne.scoring import MAIN, Award
from engine.core.seats import Seat

if TYPE_CHECKING:
    from engine.carcassonne.events import Event
    from engine.carcassonne.state import GameSetup, GameState

__all__ = ["MAIN", "SPACES", "TrackFigure", "TrackMove", "space"]

#: spaces on the track: a score of 50 or more goes round again
SPACES = 50


class TrackFigure(NamedTuple):
    """A figure on the scoring track: its owner, its kind (namespaced by its expansion), its
    value (points for a scoring figure, a space 0–49 for a standing one)."""

    seat: Seat
    kind: str
    value: int
    scoring: bool = False


@dataclass(frozen=True, slots=True)
class TrackMove:
    """A scoring figure moved: ``before`` and ``after`` are its points; ``award`` is what
    moved it (after a :func:`transfer`, the award as it was for the figure going back and as
    it is now for the figure going forward)."""

    seat: Seat
    figure: str
    before: int
    after: int
    award: Award


def space(value: int) -> int:
    """The space a value stands on (floor-mod 50: −3 → 47)."""
    return value % SPACES


def figures(
    state: GameState, *, seat: Seat | None = None, kind: str | None = None
) -> tuple[TrackFigure, ...]:
    """The expansions' figures on the track (not the seats' own markers), filtered."""
    return tuple(
        f
        for f in state.track
        if (seat is None or f.seat == seat) and (kind is None or f.kind == kind)
    )


def find(state: GameState, seat: Seat, kind: str) -> TrackFigure | None:
    for f in state.track:
        if f.seat == seat and f.kind == kind:
            return f
    return None


def value(state: GameState, seat: Seat, kind: str = MAIN) -> int:
    """The points of ``seat``'s scoring figure ``kind`` (its own marker by default: its score
    less its other scoring figures).

    Raises:
        KeyError: the seat has no such figure on the track.
    """
    if kind == MAIN:
        others = 0
        for t in state.track:  # a loop, not sum(genexpr): asked on every score
            if t.seat == seat and t.scoring:
                others += t.value
        return state.players[seat].score - others
    f = find(state, seat, kind)
    if f is None or not f.scoring:
        raise KeyError(f"seat {seat} has no scoring figure '{kind}' on the track")
    return int(f.value)


def at_space(state: GameState, where: int) -> tuple[tuple[Seat, str], ...]:
    """The scoring figures standing on space ``where``, markers included, as (seat, kind)."""
    out = [
        (Seat(seat), MAIN)
        for seat in range(len(state.players))
        if space(value(state, Seat(seat), MAIN)) == where
    ]
    out += [(f.seat, f.kind) for f in state.track if f.scoring and space(f.value) == where]
    return tuple(out)


def put(state: GameState, figure: TrackFigure, events: list[Event] | None = None) -> None:
    """Put ``figure`` on the track, or move the seat's figure of that kind there (a robber).
    The score never changes here: a scoring figure's value is part of it, taken from the seat's
    own marker (put a second marker at 0; move points with the pipeline or :func:`transfer`)."""
    old = find(state, figure.seat, figure.kind)
    rest = tuple(f for f in state.track if f is not old)
    state.track = (*rest, figure)
    if events is not None:
        events.append(TrackFigureMoved(figure.seat, figure.kind, space(figure.value)))


def take(
    state: GameState, seat: Seat, kind: str, events: list[Event] | None = None
) -> TrackFigure | None:
    """Take ``seat``'s figure ``kind`` off the track (a scoring figure's points go to the
    seat's own marker: the score does not change); return it, or ``None``."""
    old = find(state, seat, kind)
    if old is None:
        return None
    state.track = tuple(f for f in state.track if f is not old)
    if events is not None:
        events.append(TrackFigureMoved(seat, kind, None))
    return old


def advance(state: GameState, award: Award, events: list[Event]) -> None:
    """Move the scoring figure ``award.figure`` by its points (``scoring.give``: the score is
    already counted)."""
    f = find(state, award.seat, award.figure)
    if f is None or not f.scoring:
        raise ValueError(f"seat {award.seat} has no scoring figure '{award.figure}'")
    moved = f._replace(value=f.value + award.points)
    state.track = tuple(moved if g is f else g for g in state.track)
    events.append(TrackFigureMoved(award.seat, award.figure, space(moved.value)))


def transfer(
    state: GameState, award: Award, figure: str, events: list[Event], depth: int = 0
) -> Award:
    """Move an award's points, already given, to another scoring figure of its seat (a player
    choosing after the fact which figure takes them): the score does not change, the award in
    ``state.awards`` names its new figure, and both moves are shown to ``on_track_moved``.
    Return the award as it now is."""
    src = value(state, award.seat, award.figure)
    dst = value(state, award.seat, figure)
    new = replace(award, figure=figure)
    ledger = list(state.awards)
    for i in range(len(ledger) - 1, -1, -1):
        if ledger[i] is award or ledger[i] == award:
            ledger[i] = new
            break
    state.awards = tuple(ledger)
    if award.figure:
        f = find(state, award.seat, award.figure)
        assert f is not None
        back = f._replace(value=f.value - award.points)
        state.track = tuple(back if g is f else g for g in state.track)
        events.append(TrackFigureMoved(award.seat, award.figure, space(back.value)))
    if figure:
        advance(state, new, events)
    moves = (
        TrackMove(award.seat, award.figure, src, src - award.points, award),
        TrackMove(award.seat, figure, dst, dst + award.points, new),
    )
    _react(state, moves, events, depth)
    return new


@per_setup
def track_hooks(setup: GameSetup) -> tuple[Expansion, ...]:
    """The enabled expansions that override ``on_track_moved``."""
    return tuple(
        e for e in expansions_of(setup) if type(e).on_track_moved is not Expansion.on_track_moved
    )


def react(state: GameState, awards: tuple[Award, ...], events: list[Event], depth: int) -> None:
    """Show the moves of ``awards`` (just given) to the expansions watching the track."""
    if not track_hooks(state.setup):
        return
    moves = []
    later: dict[tuple[Seat, str], int] = {}
    for a in reversed(awards):  # the same figure twice in one item: the later one moved last
        if not a.points:
            continue
        key = (a.seat, a.figure)
        after = value(state, a.seat, a.figure) - later.get(key, 0)
        later[key] = later.get(key, 0) + a.points
        moves.append(TrackMove(a.seat, a.figure, after - a.points, after, a))
    _react(state, tuple(reversed(moves)), events, depth)


def _react(state: GameState, moves: tuple[TrackMove, ...], events: list[Event], depth: int) -> None:
    from engine.carcassonne.scoring import MAX_AWARD_DEPTH, give

    if depth >= MAX_AWARD_DEPTH:
        return
    for e in track_hooks(state.setup):
        for m in moves:
            for follow in e.on_track_moved(state, m, depth):
                give(state, (follow,), follow.item, events, depth + 1)
