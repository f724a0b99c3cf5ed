"""Crop Circles in JCloisterZone saves (its ``CornCircle`` capability, ``corn-circles`` sets).

* Setup: the 4.x capability ``CornCircle`` and expansions ``CORN_CIRCLES`` (set I) and
  ``CORN_CIRCLES_II`` (set II), the 5.x sets ``corn-circles/1`` and ``corn-circles/2`` and the
  element ``corn-circle`` (enforced by the sets, not saved) bring the expansion and its sets.
  The capability, read before the expansions, turns set II off so each listed set turns
  itself on.
* ``CIRCLE_REMOVE_OR_DEPLOY`` (``REMOVE`` = option B, ``DEPLOY`` = option A) answers our
  ``cc.choose``; in the round, ``RETURN_MEEPLE`` with source ``CORN_CIRCLE`` (B),
  ``DEPLOY_MEEPLE`` (A) and ``PASS`` (A declined) answer the ``cc.round`` of the seat asked.
  A seat with nothing to do is skipped by both programs.
"""

from __future__ import annotations

from engine.carcassonne.actions import Choose, Pass
from engine.carcassonne.jczparts import (
    Answer,
    JczContext,
    JczImport,
    JczMessages,
    JczSwitch,
    Message,
    meeples,
)
from engine.carcassonne.placement import spot_name
from engine.carcassonne.rules import pending
from engine.core.decisions import Decision
from engine.core.errors import RecordError

from .model import ADD, CHOOSE_STEP, REMOVE, ROUND_STEP, SET_I, SET_II

#: JCloisterZone's option names
MODES = {"DEPLOY": ADD, "REMOVE": REMOVE}


def _asked(ctx: JczContext, kind: str) -> Decision | None:
    return next((d for d in pending(ctx.state) if d.kind == kind), None)


class CropMessages(JczMessages):
    """The option chosen and every seat's answer in the round."""

    def convert(self, ctx: JczContext, m: Message) -> Answer | None:
        if m.kind == "CIRCLE_REMOVE_OR_DEPLOY":
            asked = _asked(ctx, CHOOSE_STEP)
            mode = MODES.get(str(m.payload.get("value")))
            if asked is None or mode is None:
                raise RecordError("CIRCLE_REMOVE_OR_DEPLOY but no crop circle to answer", move=m.n)
            return Answer(asked.seat, Choose(CHOOSE_STEP, mode))
        asked = _asked(ctx, ROUND_STEP)
        if asked is None:
            return None
        if m.kind == "PASS":
            return Answer(asked.seat, Pass())
        if m.kind == "RETURN_MEEPLE" and m.payload.get("source") == "CORN_CIRCLE":
            pointer = m.payload.get("pointer")
            if not isinstance(pointer, dict):
                raise RecordError('RETURN_MEEPLE has no "pointer"', move=m.n)
            # 4.x nests the feature's pointer; a pointer naming the feature itself reads too
            feature = pointer.get("featurePointer", pointer)
            inner = Message(m.n, m.kind, {"pointer": feature}, m.player)
            return Answer(asked.seat, self._answer(ctx, inner, str(pointer.get("meepleId"))))
        if m.kind == "DEPLOY_MEEPLE":
            return Answer(asked.seat, self._answer(ctx, m, str(m.payload.get("meepleId"))))
        return None

    def _answer(self, ctx: JczContext, m: Message, meeple: str) -> Choose:
        """The round's answer naming the figure ``meeple`` (its type) at ``m``'s pointer."""
        pos, index = ctx.feature(m)
        kind = meeple.split(".")[1] if meeple.count(".") >= 2 else ""
        figure = meeples().get(kind)
        if figure is None:
            raise RecordError(f"{m.kind}: unknown meeple '{meeple}'", move=m.n)
        spot = spot_name(ctx.state.board.cells[pos].rt, index)
        return Choose(ROUND_STEP, f"{pos.notation()}/{spot}/{figure}")


JCZ = JczImport(
    capabilities={"CornCircle": JczSwitch(options=((SET_II, False),))},
    expansions={
        "CORN_CIRCLES": JczSwitch(options=((SET_I, True),)),
        "CORN_CIRCLES_II": JczSwitch(options=((SET_II, True),)),
    },
    sets={
        "corn-circles/1": JczSwitch(
            options=((SET_I, True), (SET_II, False)), enforces=("corn-circle",)
        ),
        "corn-circles/2": JczSwitch(options=((SET_II, True),), enforces=("corn-circle",)),
    },
    elements={"corn-circle": JczSwitch()},
    messages=CropMessages,
)

__all__ = ["JCZ", "MODES", "CropMessages"]
