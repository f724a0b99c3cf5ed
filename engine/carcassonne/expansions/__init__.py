"""Registry of expansions, in hook order (ARCHITECTURE.md §5.4)."""

from __future__ import annotations

from engine.carcassonne.expansion import Expansion
from engine.carcassonne.expansions.inns_cathedrals import InnsCathedrals
from engine.carcassonne.expansions.traders_builders import TradersBuilders
from engine.core.errors import IllegalActionError

ALL_EXPANSIONS: tuple[type[Expansion], ...] = (InnsCathedrals, TradersBuilders)


def find_expansion(expansion_id: str) -> type[Expansion]:
    """Raises:
    IllegalActionError: for an expansion that is not (yet) playable.
    """
    for cls in ALL_EXPANSIONS:
        if cls.id == expansion_id:
            return cls
    raise IllegalActionError(f"the expansion '{expansion_id}' is not playable yet")
