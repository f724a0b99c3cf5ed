"""Abbey & Mayor in JCloisterZone saves (``shared/jcz/README.md`` §5.1, ``shared/jcz5/README.md``
§3.8, §3.11).

* Setup: abbey, mayor, barn and wagon are switched separately (4.x capabilities, 5.x elements
  whose value is the figures per player); 5.x's ``wagon-move`` rule chooses ``am.wagon_move``
  (a 5.x save without it means JCloisterZone's "C2", our ``near``); a second barn in a farm
  (4.x ``MULTI_BARN_ALLOWED``, 5.x ``barn-placement: occupied``) is refused.
* The abbey is offered before the tile: ``PLACE_TILE AM.A`` (5.x ``AM/A``) plays it, ``PASS``
  declines it (a ``COMMIT`` follows, then the drawn tile).
* A barn's ``DEPLOY_MEEPLE`` names the field of the cell south-east of its corner.
* After the scoring each wagon that may move is ``DEPLOY_MEEPLE`` (5.x: then ``COMMIT`` once its
  owner has moved all it moves) or ``PASS``.
* JCloisterZone always plays its end-of-game abbey round (RULES.md §14.1 rule 6). A save whose
  round places an abbey is converted with ``am.final_abbeys`` on; without one, its passes are
  declines of an offer our game never made and change nothing.
"""

from __future__ import annotations

from typing import Any

from engine.carcassonne.actions import Choose, Deploy, Pass
from engine.carcassonne.expansions.abbey_mayor.abbey import AbbeyStep, holes
from engine.carcassonne.expansions.abbey_mayor.model import (
    ABBEY,
    ABBEY_TILE,
    BARN,
    BARN_FIG,
    FINAL_ABBEYS,
    MAYOR,
    MAYOR_FIG,
    WAGON,
    WAGON_FIG,
    WAGON_MOVE,
    model_of,
)
from engine.carcassonne.expansions.abbey_mayor.wagon import WagonStep
from engine.carcassonne.geometry import Position
from engine.carcassonne.jczparts import (
    Answer,
    JczContext,
    JczImport,
    JczMessages,
    JczRetry,
    JczSwitch,
    Message,
    Options,
    on,
)
from engine.carcassonne.placement import CORNER_SPOTS, spot_name
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import tile
from engine.core.errors import RecordError
from engine.core.seats import Seat

_ABBEY_STEP, _WAGON_STEP = AbbeyStep.id, WagonStep.id
#: 5.x ``wagon-move`` -> ``am.wagon_move``: C1 along the features a road links (ours), C2 any
#: feature on the same or a neighbouring tile (JCloisterZone 5's default)
_WAGON_MOVES = {"C1": "road", "C2": "near"}


def _wagon_move(value: Any) -> Options:
    if not isinstance(value, str) or value not in _WAGON_MOVES:
        raise RecordError(f"unknown wagon-move rule value '{value}'")
    return ((WAGON_MOVE, _WAGON_MOVES[value]),)


def _barn_placement(value: Any) -> Options:
    """Only ``not-occupied`` (no second barn in a farm) is played."""
    if value != "not-occupied":
        raise RecordError(
            f"the barn-placement rule '{value}' (a barn in a farm that has one) is not supported"
        )
    return ()


def _multi_barn(value: Any) -> Options:
    if value is True:
        raise RecordError(
            "the rule MULTI_BARN_ALLOWED (a barn in a farm that has one) is not supported"
        )
    return ()


class AbbeyMayorMessages(JczMessages):
    """The abbey's ``PLACE_TILE`` and ``PASS``, wagon moves, barns on corners and the
    end-of-game abbey round, for one conversion."""

    def __init__(self) -> None:
        #: the seats still to decline in JCloisterZone's end-of-game round (ours plays none)
        self.round: list[Seat] | None = None

    def convert(self, ctx: JczContext, m: Message) -> Answer | None:
        s = ctx.state
        if s.over:
            return self._after_the_end(ctx, m)
        asks = {d.kind: d for d in pending(s)}
        wagon, abbey = asks.get(_WAGON_STEP), asks.get(_ABBEY_STEP)
        if m.kind == "DEPLOY_MEEPLE" and wagon is not None:  # a wagon moves on (any tile)
            pos, index = ctx.feature(m)
            spot = spot_name(s.board.cells[pos].rt, index)
            return Answer(wagon.seat, Choose(_WAGON_STEP, f"{pos.notation()}@{spot}"), commit=True)
        if ctx.commit_due or (m.kind == "PASS" and not ctx.committed):
            return None  # a PASS of the turn's action or castle comes before its COMMIT
        if m.kind == "PASS" and wagon is not None:  # the wagon stays home; no COMMIT follows
            return Answer(wagon.seat, Pass())
        if m.kind == "PASS" and abbey is not None:  # no abbey: a COMMIT, then the draw
            return Answer(abbey.seat, Pass(), commit=s.tiles_left > 0)
        if m.kind == "PLACE_TILE" and _is_abbey(ctx, m):
            if abbey is None:
                raise RecordError(
                    f"PLACE_TILE {m.payload['tileId']}: no abbey may be played now (the player "
                    "has none left, or no empty cell has tiles on all four sides)",
                    move=m.n,
                )
            return Answer(abbey.seat, Choose(_ABBEY_STEP, ctx.position(m).notation()))
        return None

    def deploy(self, ctx: JczContext, m: Message, figure: str, pos: Position) -> Deploy | None:
        """A barn names the field of the cell south-east of its corner (4.x and 5.x alike)."""
        placed = ctx.state.placed
        if figure != BARN_FIG or placed is None:
            return None
        offset = (pos.x - placed.x, pos.y - placed.y)
        corner = next((k for k, v in CORNER_SPOTS.items() if v == offset), None)
        if corner is None:
            raise RecordError(
                f"DEPLOY_MEEPLE: a barn at {pos.notation()} is on no corner of the tile just "
                f"placed at {placed.notation()}",
                move=m.n,
            )
        return Deploy(corner, figure)

    def _after_the_end(self, ctx: JczContext, m: Message) -> Answer | None:
        """JCloisterZone's end-of-game abbey round in a game ours already ended: an abbey
        placed there converts the save again with the round on; a pass changes nothing."""
        s = ctx.state
        if not s.setup.option(ABBEY, True) or s.setup.option(FINAL_ABBEYS, False):
            return None  # no abbeys, or our game played the round already
        if m.kind == "PLACE_TILE" and _is_abbey(ctx, m):
            raise JczRetry(
                f"PLACE_TILE {m.payload['tileId']} after the last tile: JCloisterZone's "
                f"end-of-game abbey round (RULES.md §14.1 rule 6, option {FINAL_ABBEYS})",
                move=m.n,
                options=((FINAL_ABBEYS, True),),
            )
        if m.kind != "PASS" or not ctx.committed:  # the round comes after the last COMMIT
            return None
        if self.round is None:
            self.round = _round_seats(s)
        if not self.round:
            return None  # nobody was asked: "PASS after the game is over"
        seat = self.round.pop(0)
        if m.player is not None and m.player != seat:
            raise RecordError(
                f"PASS is marked as player {m.player + 1}'s, but JCloisterZone's end-of-game "
                f"abbey round asks player {seat + 1}",
                move=m.n,
            )
        return Answer()


def _is_abbey(ctx: JczContext, m: Message) -> bool:
    """Whether ``m`` places the abbey (``AM/A``; ``AM.A`` in 4.x saves)."""
    tid = m.payload.get("tileId")
    return tid == ABBEY_TILE or (ctx.version == 4 and tid == tile(ABBEY_TILE).jcz)


def _round_seats(s: GameState) -> list[Seat]:
    """The seats JCloisterZone asks in its end-of-game round of a game over: from the one after
    the last tile's player (our seat to move), each that still holds its abbey, while a hole is
    open (a pass leaves the board as it is)."""
    abbeys = model_of(s.ext).abbeys
    if not holes(s.board):
        return []
    n = s.setup.players
    return [Seat((s.current + i) % n) for i in range(n) if abbeys[(s.current + i) % n] > 0]


JCZ = JczImport(
    capabilities={
        "Abbey": JczSwitch(on(ABBEY)),
        "Mayor": JczSwitch(on(MAYOR)),
        "Barn": JczSwitch(on(BARN)),
        "Wagon": JczSwitch(on(WAGON)),
    },
    expansions={"ABBEY_AND_MAYOR": JczSwitch()},
    sets={"abbey-and-mayor:1": JczSwitch()},
    elements={
        "abbey": JczSwitch(on(ABBEY)),
        "barn": JczSwitch(on(BARN), figure=BARN_FIG),
        "wagon": JczSwitch(on(WAGON), figure=WAGON_FIG),
        "mayor": JczSwitch(on(MAYOR), figure=MAYOR_FIG),
    },
    meeples={"mayor": MAYOR_FIG, "wagon": WAGON_FIG, "barn": BARN_FIG},
    rules4={"MULTI_BARN_ALLOWED": _multi_barn},
    rules5={"wagon-move": _wagon_move, "barn-placement": _barn_placement},
    defaults5=((WAGON_MOVE, "near"),),
    messages=AbbeyMayorMessages,
)
