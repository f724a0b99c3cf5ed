"""Itemised scoring: every point awarded carries the reason players can read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.seats import Seat

if TYPE_CHECKING:
    from engine.carcassonne.board import Feature
    from engine.carcassonne.events import Event
    from engine.carcassonne.state import GameState


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


@dataclass(frozen=True, slots=True)
class Award:
    """Points given to one seat for one :class:`ScoreItem`."""

    seat: Seat
    points: int
    item: ScoreItem
    #: reasons this seat got more than ``item.points`` (e.g. "pig +2")
    bonus: tuple[str, ...] = ()


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
    exps = state.exps
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
    """Enter ``awards`` (all for ``item``) into the scores and run the expansions' reactions."""
    from engine.carcassonne.events import PointsScored

    for a in awards:
        state.players[a.seat].score += a.points
    state.awards = state.awards + awards
    events.append(PointsScored(item, awards))
    if not state.setup.expansions or depth >= MAX_AWARD_DEPTH:
        return
    for e in state.exps:
        for a in awards:
            for follow in e.on_points_awarded(state, a, depth):
                give(state, (follow,), follow.item, events, depth + 1)
