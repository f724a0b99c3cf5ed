"""Itemised scoring: every point awarded carries the reason players can read."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.seats import Seat


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
