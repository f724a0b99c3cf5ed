"""Traders & Builders in JCloisterZone saves: goods, builder and pig are switched separately
(4.x capabilities ``TradeGoods``, ``Builder``, ``Pig``; 5.x elements ``traders``, ``builder``,
``pig``, whose value is the figures per player), and JCloisterZone always plays the builder's
second tile, so the import answers our ``tb.bonus`` offer with ``take``.

Pig herds: 4.x's ``PigHerd`` capability is refused; 5.x's ``pig-herd`` element changes nothing
(no tile of the sets we read has a pig herd, only GQ11's farm)."""

from __future__ import annotations

from engine.carcassonne.expansions.traders_builders import BUILDER, PIG, TRADE_GOODS, BonusStep
from engine.carcassonne.jczparts import JczImport, JczSwitch, on

_BOX = "Traders & Builders"

JCZ = JczImport(
    capabilities={
        "TradeGoods": JczSwitch(on(TRADE_GOODS)),
        "Builder": JczSwitch(on(BUILDER)),
        "Pig": JczSwitch(on(PIG)),
    },
    expansions={"TRADERS_AND_BUILDERS": JczSwitch()},
    sets={"traders-and-builders:1": JczSwitch()},
    elements={
        "builder": JczSwitch(on(BUILDER), figure="builder"),
        "pig": JczSwitch(on(PIG), figure="pig"),
        "traders": JczSwitch(on(TRADE_GOODS)),
        "pig-herd": JczSwitch(plays=False),
    },
    unsupported={"PigHerd": _BOX},
    meeples={"builder": "builder", "pig": "pig"},
    always={BonusStep.id: "take"},
)
