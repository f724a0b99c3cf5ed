"""How an expansion plugs into the rules (ARCHITECTURE.md §5.4).

An expansion is a subclass of :class:`Expansion` registered in ``expansions/__init__.py``. The
core calls its hooks at fixed points; a base-game match has none, so the hot path pays nothing.
Hook semantics: *fold* hooks thread a value through the enabled expansions in registry order;
*veto* hooks combine with ``all``; *collect* hooks concatenate.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from engine.core.seats import Seat

if TYPE_CHECKING:
    from engine.carcassonne.board import Feature
    from engine.carcassonne.events import Event
    from engine.carcassonne.scoring import ScoreItem
    from engine.carcassonne.state import GameSetup, GameState


class Expansion:
    """Base class: every hook does nothing."""

    id: ClassVar[str] = ""
    tile_sets: ClassVar[tuple[str, ...]] = ()

    def figures(self, setup: GameSetup) -> dict[str, int]:
        """Collect: extra figures each player starts with (e.g. ``{"large": 1}``)."""
        return {}

    def can_deploy(
        self, state: GameState, seat: Seat, figure: str, feature: Feature
    ) -> bool | None:
        """Veto/allow: ``None`` = no opinion; ``True`` allows a figure the core does not know."""
        return None

    def score_feature(self, state: GameState, feature: Feature, item: ScoreItem) -> ScoreItem:
        """Fold: adjust the points of a scored road/city/cloister."""
        return item

    def on_completed(self, state: GameState, seat: Seat, feature: Feature) -> Iterable[Event]:
        """React to a feature completed by ``seat``'s tile (may change the cloned state)."""
        return ()

    def final_scoring(self, state: GameState) -> Iterable[Event]:
        """Add final-scoring lines after farms (may change the cloned state)."""
        return ()
