"""Determinised copies of the position an AI must answer (ARCHITECTURE.md decision 16).

Every level reads the position only through :class:`Dets`: copies of the real state in which
all the seat may not see is drawn afresh from the AI's seed (``Rules.determinise``: the engine's
``hidden.resample`` of each game). Copy ``i`` depends only on the seat's view, the seed and
``i``, so two positions the seat cannot tell apart give the same copies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ai.games import Rules
from engine.core.rng import Rng
from engine.core.seats import Seat


@dataclass(slots=True)
class Dets:
    """Determinised copies of one real state for one seat, made on demand from one seed."""

    rules: Rules
    state: Any
    seat: Seat
    seed: int
    made: list[Any] = field(default_factory=list)

    def __getitem__(self, i: int) -> Any:
        while len(self.made) <= i:
            rng = Rng(self.seed * 1_000_003 + len(self.made))
            self.made.append(self.rules.determinise(self.state, self.seat, rng))
        return self.made[i]
