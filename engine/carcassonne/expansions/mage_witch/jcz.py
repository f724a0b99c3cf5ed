"""Mage & Witch in JCloisterZone saves.

* Setup: the 4.x capability ``MageAndWitch`` and expansion ``MAGE_AND_WITCH``, the 5.x tile
  set ``mage-and-witch:1`` and its elements ``mage`` and ``witch`` bring the expansion.
* ``MOVE_NEUTRAL_FIGURE`` with ``figureId`` ``mage.1`` or ``witch.1`` and a pointer ``to`` (4.x:
  ``position`` and ``location``; 5.x: ``feature`` too) answers our magic decision (``mw.move``)
  or the move forced by a tile joining the two (``mw.join``).
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
)
from engine.carcassonne.rules import pending
from engine.core.errors import RecordError

from .magic import value_of
from .model import FIGURES, JOIN_STEP, MOVE_STEP

#: JCloisterZone's ids of the two figures
FIGURE_IDS = {f"{f}.1": f for f in FIGURES}


class MageWitchMessages(JczMessages):
    """``MOVE_NEUTRAL_FIGURE mage.1|witch.1 to``: where the figure goes."""

    def convert(self, ctx: JczContext, m: Message) -> Answer | None:
        if m.kind != "MOVE_NEUTRAL_FIGURE":
            return None
        figure = FIGURE_IDS.get(str(m.payload.get("figureId")))
        if figure is None:
            return None
        asked = [d for d in pending(ctx.state) if d.kind in (MOVE_STEP, JOIN_STEP)]
        if not asked:
            raise RecordError(f"{m.kind} {figure} but no figure is to be moved", move=m.n)
        pointer = Message(m.n, m.kind, {"pointer": m.payload.get("to")}, m.player)
        spot = ctx.feature(pointer)
        value = value_of(ctx.state.board, figure, spot)
        return Answer(asked[0].seat, Choose(asked[0].kind, value))


JCZ = JczImport(
    capabilities={"MageAndWitch": JczSwitch()},
    expansions={"MAGE_AND_WITCH": JczSwitch()},
    sets={"mage-and-witch:1": JczSwitch()},
    elements={"mage": JczSwitch(), "witch": JczSwitch()},
    messages=MageWitchMessages,
)

__all__ = ["FIGURE_IDS", "JCZ", "MageWitchMessages"]
