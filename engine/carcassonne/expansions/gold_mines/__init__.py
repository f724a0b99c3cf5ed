"""Gold Mines (*Minas de oro*, RULES.md §9): 8 tiles with the gold symbol and 16 gold bars.

A gold tile puts one bar on itself and one on a tile next to it, diagonals too, of its seat's
choice (a decision, before the follower step). A bar lies in every feature of its tile: when a
road, city or cloister is completed, the player(s) with the majority take the bars on the tiles
it covers (a cloister: its tile and the eight around it), shared out one at a time in turn
order from the active player when several are involved, several completed features pooling
their bars (:mod:`.bars`). At the end the bars left on tiles are removed and each player scores
every bar they hold at the value of the table for their total (:func:`.model.per_bar`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.carcassonne.board import Feature
from engine.carcassonne.events import Event
from engine.carcassonne.expansion import Expansion
from engine.carcassonne.flow import Slot, StepSpec
from engine.carcassonne.scoring import Part, ScoreItem, award
from engine.carcassonne.state import GameState
from engine.core.decisions import Prompt
from engine.core.seats import Seat

from .bars import BAR, SHARE, adjacent_tiles, claim, share
from .jcz import JCZ
from .model import (
    BAR_STEP,
    CATEGORY,
    ID,
    SHARE_STEP,
    SYMBOL,
    GoldModel,
    GoldPlaced,
    GoldRemoved,
    GoldTaken,
    model_of,
    per_bar,
)


class GoldMines(Expansion):
    id = ID
    name = "Gold Mines"
    tile_sets = ("gold_mines",)
    concepts = ("gold bar", "lingote")
    jcz = JCZ

    def initial_model(self) -> GoldModel:
        return GoldModel(held=(0,) * self.setup.players)

    def counters(self, model: Any, seat: Seat) -> Iterable[Prompt]:
        if not isinstance(model, GoldModel):
            return ()
        return (Prompt.of("gold.held", n=model.holding(seat)),)

    # ---- turn flow: the bars before the follower step, the sharing after scoring (§9.4);
    # the bars come first after the tile (RULES.md §18 step 1.2: before a mage, a robber or a
    # bridge), the sharing first after scoring (step 4.1)
    def steps(self) -> Iterable[StepSpec]:
        return (
            StepSpec(Slot.AFTER_PLACE, BAR, 1),
            StepSpec(Slot.AFTER_SCORE, SHARE, -100),
        )

    def on_completed(self, state: GameState, seat: Seat, feature: Feature) -> Iterable[Event]:
        claim(state, feature)
        return ()

    def final_points(self, state: GameState) -> Sequence[int] | None:
        """Each seat's bars at their value (``None`` while a pool waits to be shared: its
        sharing hands out bars first, which only the final scoring works out)."""
        m = model_of(state.ext)
        if m.pool:
            return None
        out = []
        for seat in range(state.setup.players):
            n = m.holding(Seat(seat))
            out.append(n * per_bar(n) if n else 0)
        return out

    def final_scoring(self, state: GameState) -> Iterable[Event]:
        events: list[Event] = []
        m = model_of(state.ext)
        if m.pool:  # completed after the last sharing step (never in a plain turn)
            share(state, state.current, events)
            m = model_of(state.ext)
        if m.bars.total:
            events.append(GoldRemoved(m.bars.total))
            state.ext[ID] = GoldModel(held=m.held)
        for seat in range(state.setup.players):
            n = m.holding(Seat(seat))
            if not n:
                continue
            k = per_bar(n)
            item = ScoreItem(
                CATEGORY,
                n * k,
                False,
                True,
                parts=(Part.plural("part.gold", n, k=k),),
                winners=(Seat(seat),),
            )
            award(state, item, events)
        return events

    def redact(self, model: Any, viewer: Seat | None) -> Any:
        return model


__all__ = [
    "BAR_STEP",
    "CATEGORY",
    "ID",
    "SHARE_STEP",
    "SYMBOL",
    "GoldMines",
    "GoldModel",
    "GoldPlaced",
    "GoldRemoved",
    "GoldTaken",
    "adjacent_tiles",
    "model_of",
    "per_bar",
]

#: this package's expansion (engine/carcassonne/expansions/__init__.py registers it)
EXPANSION = GoldMines

from . import de as _de  # noqa: E402, F401  (the German words)
