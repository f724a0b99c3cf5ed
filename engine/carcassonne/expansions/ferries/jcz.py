"""Ferries in JCloisterZone 4.x saves (``FerriesCapability``, ``PlaceFerryPhase``,
``ChangeFerriesPhase``).

* Setup: the 4.x capability ``Ferries`` and expansion ``FERRIES`` bring the expansion, with
  ``ferries.moves = placement``: JCloisterZone forgets the moved ferries after every tile
  placement (``onTurnPartCleanUp``), where the rulebook's "una vez por turno" is the whole turn.
* ``PLACE_TOKEN`` with the token ``FERRY`` and a pointer ``{position, location}`` whose location
  names the two road ends on the board (``NS``, ``WE``) answers our ``ferries.place`` decision
  (the new lake) or our ``ferries.move`` decision (a ferry moved to those ends).
* A ``PASS`` while a move is offered declines it; JCloisterZone offers a move exactly when we
  do (the nearest ferries of each road, not moved yet), so a save that goes on without one
  means we offer none.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.carcassonne.actions import Action, Choose, Pass
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
from engine.core.seats import Seat

from .model import MOVE_STEP, MOVES, PLACE_STEP

#: JCloisterZone's name of a ferry token
FERRY = "FERRY"


def _token(m: Message) -> object:
    token = m.payload.get("token")
    if isinstance(token, list) and token:
        return token[-1]
    return token


class FerryMessages(JczMessages):
    """``PLACE_TOKEN FERRY``: a ferry placed or moved; ``PASS``: no ferry moved."""

    def convert(self, ctx: JczContext, m: Message) -> Answer | None:
        asked = [d for d in pending(ctx.state) if d.kind in (PLACE_STEP, MOVE_STEP)]
        if m.kind == "PASS" and asked and asked[0].kind == MOVE_STEP:
            return Answer(asked[0].seat, Pass())
        if m.kind != "PLACE_TOKEN" or _token(m) != FERRY:
            return None
        pointer = m.payload.get("pointer")
        if not isinstance(pointer, dict) or not isinstance(pointer.get("location"), str):
            raise RecordError("PLACE_TOKEN FERRY has no pointer location", move=m.n)
        pos = parse_position(pointer.get("position"), "PLACE_TOKEN FERRY position", m.n)
        pair = str(pointer["location"])
        if not asked:
            raise RecordError("PLACE_TOKEN FERRY but no ferry is to be placed or moved", move=m.n)
        d = asked[0]
        value = pair if d.kind == PLACE_STEP else f"{pos.notation()}:{pair}"
        return Answer(d.seat, Choose(d.kind, value))

    def before(self, ctx: JczContext, m: Message) -> Iterable[tuple[Seat, Action]]:
        """A turn that goes on without a ``PLACE_TOKEN`` or ``PASS`` moved no ferry."""
        if m.kind in ("PLACE_TOKEN", "PASS"):
            return ()
        return tuple((d.seat, Pass()) for d in pending(ctx.state) if d.kind == MOVE_STEP)


JCZ = JczImport(
    capabilities={"Ferries": JczSwitch(options=((MOVES, "placement"),))},
    expansions={"FERRIES": JczSwitch()},
    messages=FerryMessages,
)

__all__ = ["FERRY", "JCZ", "FerryMessages"]
