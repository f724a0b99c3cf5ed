"""Gold Mines in JCloisterZone saves (``shared/jcz5/README.md``: the gold step).

* Setup: the 4.x capability ``Goldmines`` and expansion ``GOLDMINES``, the 5.x tile set
  ``goldmines`` and its element ``gold`` bring the expansion.
* The second bar: ``PLACE_TOKEN`` with the token ``GOLD`` (4.x: ``[class, "GOLD"]``) and a bare
  position ``[x, y]`` as its pointer answers our ``gold.bar`` decision. With a single tile next
  to the gold tile JCloisterZone places it by itself, as we do: no message, no decision.
"""

from __future__ import annotations

from engine.carcassonne.actions import Choose
from engine.carcassonne.jczparts import (
    Answer,
    JczContext,
    JczImport,
    JczMessages,
    JczSwitch,
    Message,
    parse_position,
)
from engine.carcassonne.rules import pending
from engine.core.errors import RecordError

from .model import BAR_STEP

#: JCloisterZone's name of a gold bar token
GOLD = "GOLD"


def _token(m: Message) -> object:
    token = m.payload.get("token")
    if isinstance(token, list) and token:
        return token[-1]
    return token


class GoldMessages(JczMessages):
    """``PLACE_TOKEN GOLD [x, y]``: where the second bar goes."""

    def convert(self, ctx: JczContext, m: Message) -> Answer | None:
        if m.kind != "PLACE_TOKEN" or _token(m) != GOLD:
            return None
        pos = parse_position(m.payload.get("pointer"), "PLACE_TOKEN GOLD pointer", m.n)
        asked = [d for d in pending(ctx.state) if d.kind == BAR_STEP]
        if not asked:
            raise RecordError("PLACE_TOKEN GOLD but no gold bar is to be placed", move=m.n)
        return Answer(asked[0].seat, Choose(BAR_STEP, pos.notation()))


JCZ = JczImport(
    capabilities={"Goldmines": JczSwitch()},
    expansions={"GOLDMINES": JczSwitch()},
    sets={"goldmines": JczSwitch()},
    elements={"gold": JczSwitch()},
    messages=GoldMessages,
)

__all__ = ["GOLD", "JCZ", "GoldMessages"]
