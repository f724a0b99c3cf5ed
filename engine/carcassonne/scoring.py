"""Itemised scoring: every point awarded carries the reason players can read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core import messages
from engine.core.seats import Seat

if TYPE_CHECKING:
    from engine.carcassonne.board import Feature
    from engine.carcassonne.events import Event
    from engine.carcassonne.state import GameState


class Part(messages.Phrase):
    """One piece of a score's arithmetic: its English text (so it reads, compares and stores as
    a plain string) carrying the message key and parameters a front end translates.

    >>> p = Part.plural("part.tiles", 3, k=2)
    >>> p, p.key, p.kwargs
    ('3 tiles × 2', 'part.tiles.many', {'k': 2, 'n': 3})
    """

    @classmethod
    def plural(cls, key: str, n: int, **params: Any) -> Part:
        """The singular (``key.one``) or plural (``key.many``) form for ``n``."""
        return cls(f"{key}.one" if n == 1 else f"{key}.many", n=n, **params)

    def __reduce__(self) -> Any:
        return (_part, (self.key, self.params))


def _part(key: str, params: tuple[tuple[str, Any], ...]) -> Part:
    return Part(key, **dict(params))


messages.register(
    {
        "part.tiles.one": ("1 tile × {k}", "1 pieza × {k}"),
        "part.tiles.many": ("{n} tiles × {k}", "{n} piezas × {k}"),
        "part.shields.one": ("1 shield × {k}", "1 escudo × {k}"),
        "part.shields.many": ("{n} shields × {k}", "{n} escudos × {k}"),
        "part.tiny_city": ("2-tile city: 2", "ciudad de 2 piezas: 2"),
        "part.cloister": ("cloister 1", "claustro 1"),
        "part.around.one": ("1 tile around × 1", "1 pieza alrededor × 1"),
        "part.around.many": ("{n} tiles around × 1", "{n} piezas alrededor × 1"),
        "part.cities.one": ("1 completed city × {k}", "1 ciudad completada × {k}"),
        "part.cities.many": ("{n} completed cities × {k}", "{n} ciudades completadas × {k}"),
        "part.supplies": (
            "supplies a completed city of {n} tiles: 3",
            "abastece una ciudad completada de {n} piezas: 3",
        ),
    }
)


def count(n: int, word: str) -> str:
    """``count(1, "tile") == "1 tile"``, ``count(3, "tile") == "3 tiles"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """Why points were given: one scored feature (or final-scoring line).

    ``category`` is ``road``, ``city``, ``cloister``, ``farm``, or an expansion's own
    (``goods`` ...). ``parts`` spells the arithmetic, e.g. ``("3 tiles × 2", "1 shield × 2")``.
    """

    category: str
    points: int
    complete: bool
    final: bool
    tiles: int = 0
    pennants: int = 0
    parts: tuple[str, ...] = ()
    winners: tuple[Seat, ...] = ()
    where: tuple[tuple[int, int], ...] = ()
    #: how many units the points were counted in (cities for a farm), for per-unit bonuses
    units: int = 0

    def describe(self) -> str:
        state = "completed" if self.complete else ("at game end" if self.final else "")
        detail = " + ".join(self.parts)
        head = f"{self.category} {state}".strip()
        return f"{head}: {detail} = {self.points}" if detail else f"{head}: {self.points}"


#: the kind of a seat's own scoring marker, the figure that takes an award's points unless the
#: award names another of the seat's scoring figures (:mod:`engine.carcassonne.track`)
MAIN = ""


@dataclass(frozen=True, slots=True)
class Award:
    """Points given to one seat for one :class:`ScoreItem`."""

    seat: Seat
    points: int
    item: ScoreItem
    #: reasons this seat got more than ``item.points`` (e.g. "pig +2")
    bonus: tuple[str, ...] = ()
    #: the seat's scoring figure that takes the points: its own marker (:data:`MAIN`) or a
    #: scoring figure an expansion put on the track (``track.TrackFigure``); left out of the
    #: text form while it is the marker, so awards read as they always have
    figure: str = field(default=MAIN, repr=False)

    def __repr__(self) -> str:
        head = f"Award(seat={self.seat!r}, points={self.points!r}, item={self.item!r}, "
        tail = f", figure={self.figure!r})" if self.figure else ")"
        return f"{head}bonus={self.bonus!r}{tail}"


#: how deep follow-up awards may chain (an award answering an award answering ...)
MAX_AWARD_DEPTH = 4


def award(
    state: GameState, item: ScoreItem, events: list[Event], features: Sequence[Feature] = ()
) -> None:
    """Give ``item.points`` (plus any expansion bonus) to each of ``item.winners``.

    The one points pipeline (ARCHITECTURE.md decision 12): every point enters a score here.
    It updates the (cloned) state, appends the awards to ``state.awards`` and a
    :class:`~engine.carcassonne.events.PointsScored` event to ``events``, then lets every
    expansion react (``Expansion.on_points_awarded``: take a share, watch a marker, open a
    decision by pushing a frame); follow-up awards pass through the pipeline again, at most
    :data:`MAX_AWARD_DEPTH` deep.
    """
    exps = state.hooks.seat_points
    awards = []
    for seat in item.winners:
        pts = item.points
        notes: list[str] = []
        for e in exps:
            extra = e.seat_points(state, item, seat, features)
            if extra is not None:
                pts += extra[0]
                notes.append(extra[1])
        awards.append(Award(seat, pts, item, tuple(notes)))
    give(state, tuple(awards), item, events)


def give(
    state: GameState,
    awards: tuple[Award, ...],
    item: ScoreItem,
    events: list[Event],
    depth: int = 0,
) -> None:
    """Enter ``awards`` (all for ``item``) into the scores and run the expansions' reactions:
    first each scoring figure's move on the track (``Expansion.on_track_moved``), then the
    points (``Expansion.on_points_awarded``)."""
    from engine.carcassonne.events import PointsScored

    moved = False
    for a in awards:
        state.player(a.seat).score += a.points
        if a.figure:
            moved = True
    if moved:
        from engine.carcassonne.track import advance

        for a in awards:
            if a.figure:
                advance(state, a, events)
    state.awards = state.awards + awards
    events.append(PointsScored(item, awards))
    if not state.setup.expansions or depth >= MAX_AWARD_DEPTH:
        return
    from engine.carcassonne.track import react

    react(state, awards, events, depth)
    for e in state.hooks.on_points_awarded:
        for a in awards:
            for follow in e.on_points_awarded(state, a, depth):
                give(state, (follow,), follow.item, events, depth + 1)
