"""Inns & Cathedrals (RULES.md §4): 18 tiles, the large follower, inns and cathedrals.

* The large follower counts 2 in every majority (roads, cities, cloisters, farms; OQ-IC-1) and
  returns like any follower — the core reads its strength from the figure registry.
* An inn on a road: a completed road scores 2 per tile; unfinished at the end it scores 0.
* A cathedral in a city: a completed city scores 3 per tile and 3 per shield; unfinished at the
  end, 0. The cathedral rate replaces the 2-tile city exception (OQ-IC-2).

JCloisterZone switches the three parts separately (capabilities ``BigFollower``, ``Inn``,
``Cathedral``), so they are options here too.
"""

from __future__ import annotations

from dataclasses import replace

from engine.carcassonne.board import Feature
from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.figures import FigureSpec
from engine.carcassonne.scoring import Part, ScoreItem
from engine.carcassonne.state import GameState
from engine.core import messages

LARGE_FOLLOWER = "ic.large_follower"
INNS = "ic.inns"
CATHEDRALS = "ic.cathedrals"


messages.register(
    {
        "exp.inns_cathedrals": ("Inns & Cathedrals", "Posadas y Catedrales"),
        f"opt.{LARGE_FOLLOWER}": ("Large follower", "Seguidor grande"),
        "fig.large": ("large follower", "seguidor grande"),
        "symbol.inn": ("inn", "posada"),
        "symbol.cathedral": ("cathedral", "catedral"),
        "part.inn.one": ("1 tile × 2 (inn)", "1 pieza × 2 (posada)"),
        "part.inn.many": ("{n} tiles × 2 (inn)", "{n} piezas × 2 (posada)"),
        "part.inn_unfinished": (
            "unfinished road with an inn: 0",
            "camino sin terminar con posada: 0",
        ),
        "part.cathedral.one": ("1 tile × 3 (cathedral)", "1 pieza × 3 (catedral)"),
        "part.cathedral.many": ("{n} tiles × 3 (cathedral)", "{n} piezas × 3 (catedral)"),
        "part.cathedral_unfinished": (
            "unfinished city with a cathedral: 0",
            "ciudad sin terminar con catedral: 0",
        ),
        f"opt.{INNS}": ("Inns", "Posadas"),
        f"opt.{CATHEDRALS}": ("Cathedrals", "Catedrales"),
        f"help.{LARGE_FOLLOWER}": (
            "each player has a large follower (counts 2)",
            "cada jugador tiene un seguidor grande (cuenta 2)",
        ),
        f"help.{INNS}": (
            "inns double a completed road, zero an unfinished one",
            "las posadas doblan un camino completado y anulan uno sin terminar",
        ),
        f"help.{CATHEDRALS}": (
            "cathedrals: completed city 3 per tile/shield",
            "catedrales: ciudad completada 3 por pieza/escudo",
        ),
    }
)


class InnsCathedrals(Expansion):
    id = "inns_cathedrals"
    name = "Inns & Cathedrals"
    tile_sets = ("inns_cathedrals",)
    concepts = ("inn", "cathedral")
    figure_specs = (FigureSpec("large", strength=2, follower=True),)
    options = (
        Option(LARGE_FOLLOWER, True, (True, False), "each player has a large follower (counts 2)"),
        Option(INNS, True, (True, False), "inns double a completed road, zero an unfinished one"),
        Option(CATHEDRALS, True, (True, False), "cathedrals: completed city 3 per tile/shield"),
    )

    def figures(self) -> dict[str, int]:
        return {"large": 1} if self.option(LARGE_FOLLOWER) else {}

    def score_feature(self, state: GameState, feature: Feature, item: ScoreItem) -> ScoreItem:
        if item.category == "road" and feature.mod("inn") and self.option(INNS):
            if item.complete:
                n = item.tiles
                return replace(item, points=2 * n, parts=(Part.plural("part.inn", n),))
            return replace(item, points=0, parts=(Part("part.inn_unfinished"),))
        if item.category == "city" and feature.mod("cathedral") and self.option(CATHEDRALS):
            if item.complete:
                n, p = item.tiles, item.pennants
                parts = [Part.plural("part.cathedral", n)]
                if p:
                    parts.append(Part.plural("part.shields", p, k=3))
                return replace(item, points=3 * (n + p), parts=tuple(parts))
            return replace(item, points=0, parts=(Part("part.cathedral_unfinished"),))
        return item


# its part of the JCloisterZone import reads this module's option keys, so it comes last
from engine.carcassonne.expansions.inns_cathedrals.jcz import JCZ  # noqa: E402

InnsCathedrals.jcz = JCZ

#: this package's expansion (engine/carcassonne/expansions/__init__.py registers it)
EXPANSION = InnsCathedrals

from . import de as _de  # noqa: E402, F401  (the German words)
