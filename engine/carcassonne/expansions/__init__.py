"""The built-in expansions, in hook order (see :mod:`engine.carcassonne.registry`).

Each line names an expansion's package, ``engine/carcassonne/expansions/<id>/``, whose
``EXPANSION`` is its class. Adding an expansion is one line here; deleting its line, its package,
its overlay (``rendering/overlays/<id>.py``), its tile files and its tests removes it
(``tests/test_expansion_removal.py`` does exactly that).
"""

from __future__ import annotations

import importlib

from engine.carcassonne.expansion import Expansion
from engine.carcassonne.registry import all_expansions, find_expansion, register

BUILTIN_IDS: tuple[str, ...] = (
    "inns_cathedrals",
    "traders_builders",
    "abbey_mayor",
    "bridges_castles_bazaars",
    "flying_machines",
    "gold_mines",
    "robbers",
    "dispatches",
    "ferries",
    "crop_circles",
    "mage_witch",
)

BUILTIN: tuple[type[Expansion], ...] = tuple(
    importlib.import_module(f"{__name__}.{_id}").EXPANSION for _id in BUILTIN_IDS
)
for _cls in BUILTIN:
    register(_cls)

#: the built-in expansions (tests may register more: use ``registry.all_expansions()``)
ALL_EXPANSIONS = BUILTIN

__all__ = [
    "ALL_EXPANSIONS",
    "BUILTIN",
    "BUILTIN_IDS",
    "all_expansions",
    "find_expansion",
    "register",
]
