"""Inns & Cathedrals in JCloisterZone saves: its three parts are switched separately (4.x
capabilities ``BigFollower``, ``Inn``, ``Cathedral``; 5.x elements ``big-follower``, ``inn``,
``cathedral``), and its large follower is the meeple type ``big``."""

from __future__ import annotations

from engine.carcassonne.expansions.inns_cathedrals import CATHEDRALS, INNS, LARGE_FOLLOWER
from engine.carcassonne.jczparts import JczImport, JczSwitch, on

#: our figure kind of the large follower
LARGE = "large"

JCZ = JczImport(
    capabilities={
        "Inn": JczSwitch(on(INNS)),
        "Cathedral": JczSwitch(on(CATHEDRALS)),
        "BigFollower": JczSwitch(on(LARGE_FOLLOWER)),
    },
    expansions={"INNS_AND_CATHEDRALS": JczSwitch()},
    sets={"inns-and-cathedrals:1": JczSwitch()},
    elements={
        "big-follower": JczSwitch(on(LARGE_FOLLOWER), figure=LARGE),
        "inn": JczSwitch(on(INNS)),
        "cathedral": JczSwitch(on(CATHEDRALS)),
    },
    meeples={"big": LARGE},
)
