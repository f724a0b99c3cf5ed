"""The built-in expansions, registered in hook order (see :mod:`engine.carcassonne.registry`).

Adding an expansion is one line here."""

from __future__ import annotations

from engine.carcassonne.expansion import Expansion
from engine.carcassonne.expansions.abbey_mayor import AbbeyMayor
from engine.carcassonne.expansions.bridges_castles_bazaars import BridgesCastlesBazaars
from engine.carcassonne.expansions.inns_cathedrals import InnsCathedrals
from engine.carcassonne.expansions.traders_builders import TradersBuilders
from engine.carcassonne.registry import all_expansions, find_expansion, register

BUILTIN: tuple[type[Expansion], ...] = (
    InnsCathedrals,
    TradersBuilders,
    AbbeyMayor,
    BridgesCastlesBazaars,
)
for _cls in BUILTIN:
    register(_cls)

#: the built-in expansions (tests may register more: use ``registry.all_expansions()``)
ALL_EXPANSIONS = BUILTIN

__all__ = ["ALL_EXPANSIONS", "BUILTIN", "all_expansions", "find_expansion", "register"]
