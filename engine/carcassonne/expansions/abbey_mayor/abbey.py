"""The abbey (RULES.md §14.1, OQ-ABB-1, OQ-ABB-2): played instead of drawing, into a hole.

At the start of a turn — and of the builder's second tile, which is also a draw of the
player's own turn — a seat that still holds its abbey and sees a hole (an empty cell with tiles
on all four sides) is asked: play the abbey into one of the holes, or pass and draw. Played,
the abbey takes the place of the drawn tile: the draw and place steps are skipped and the turn
goes on with the tile just placed (a monk may go on it, it scores what it completes). A
market's tiles are never replaced (markets run their own sub-turns, not listed here).

Once the pile is empty nothing is offered: the game ends and unplayed abbeys are worth nothing
— unless the match option ``am.final_abbeys`` (RULES.md §14.1 rule 6) is on. Then, before the
game ends, each seat in turn order from the one after the last tile's player, ending with that
player, is asked once (if it still holds its abbey and a hole is open): a placement is an
ordinary abbey turn of that seat, a pass asks the next seat.
"""

from __future__ import annotations

from dataclasses import replace

from engine.carcassonne.actions import Action, Choose, Pass, register_action
from engine.carcassonne.board import Board
from engine.carcassonne.events import Event, TilePlaced
from engine.carcassonne.expansions.abbey_mayor.model import (
    ABBEY,
    ABBEY_TILE,
    FINAL_ABBEYS,
    ID,
    AbbeyPlayed,
    model_of,
)
from engine.carcassonne.flow import BONUS_TURN, Ask, Frame, Result, Slot, Step, new_ask, skip_to
from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import tile
from engine.core.decisions import Cell, Decision, Option, Prompt
from engine.core.errors import IllegalActionError, InvalidActionError
from engine.core.seats import Seat


def holes(board: Board) -> list[Position]:
    """Empty cells with a tile on each of their four sides, north first."""
    cells = board.cells
    out = []
    for pos in board.frontier:
        x, y = pos
        if (
            (x, y - 1) in cells
            and (x + 1, y) in cells
            and (x, y + 1) in cells
            and (x - 1, y) in cells
        ):
            out.append(pos)
    out.sort(key=lambda p: (p.y, p.x))
    return out


#: frontier codes with an edge on each of the four sides: cells with a tile on every side
_SURROUNDED = frozenset(c for c in range(256) if all(c >> (2 * side) & 3 for side in range(4)))


def _has_hole(board: Board, abbey_placed: bool) -> bool:
    """Whether :func:`holes` is not empty (asked at the start of every turn). A frontier
    code names the edge on each side, so a cell coded on all four sides is a hole; only an
    abbey's edges code as nothing, so only with an abbey on the board are the cells looked at."""
    if not _SURROUNDED.isdisjoint(board.frontier.values()):
        return True
    if not abbey_placed:
        return False
    cells = board.cells
    for x, y in board.frontier:
        if (
            (x, y - 1) in cells
            and (x + 1, y) in cells
            and (x, y + 1) in cells
            and (x - 1, y) in cells
        ):
            return True
    return False


def place_abbey(s: GameState, seat: int, pos: Position, events: list[Event]) -> None:
    """Put ``seat``'s abbey at ``pos`` (a hole; checked by the caller) as the tile just placed."""
    abbey = tile(ABBEY_TILE)
    s.board.place(pos, abbey.rotated(Rotation.R0))
    s.placed = pos
    s.drawn = None
    s.last_placed[seat] = pos  # type: ignore[index]
    m = model_of(s.ext)
    abbeys = list(m.abbeys)
    abbeys[seat] -= 1
    s.ext[ID] = replace(m, abbeys=tuple(abbeys))
    events.append(TilePlaced(seat, abbey.id, pos, Rotation.R0))  # type: ignore[arg-type]
    events.append(AbbeyPlayed(seat, pos))  # type: ignore[arg-type]


class AbbeyStep(Step):
    """Before the draw: the seat may play its abbey into a hole instead (optional)."""

    id = "am.abbey"
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if depth and not frame.param(BONUS_TURN):  # a bonus turn's draw is the seat's own
            return None
        abbeys = s.ext[ID].abbeys  # every turn: no call for the model
        if abbeys[frame.seat] <= 0 and s.pile_pos < len(s.pile) and s.setup.draw_limit is None:
            return None  # the usual turn: no abbey in hand, tiles left (no option looked up)
        if not s.setup.option(ABBEY, True):
            return None
        if s.tiles_left <= 0:
            if depth or not s.setup.option(FINAL_ABBEYS, False):
                return None
            return self._final_round(s, frame.seat, depth)
        if abbeys[frame.seat] <= 0 or not _has_hole(s.board, 0 in abbeys):
            return None
        return (new_ask(s, self, depth, frame.seat),)

    def _final_round(self, s: GameState, seat: Seat, depth: int) -> Result:
        """The pile is empty: begin the end-of-game round with ``seat`` (the one after the last
        tile's player), or go on with it after a placement; ``None`` once every seat has had
        its chance (the draw then ends the game)."""
        m = model_of(s.ext)
        end = m.round_end
        if end is None:
            end = (seat - 1) % s.setup.players
            s.ext[ID] = replace(m, round_end=end)
        elif seat == (end + 1) % s.setup.players:
            return None
        return self._round_ask(s, seat, end, depth)

    def _round_ask(self, s: GameState, first: int, end: int, depth: int) -> Result:
        """Ask the first seat from ``first`` to ``end`` (turn order) that still holds its abbey,
        while a hole is open (it is the seat to move); ``None`` when there is none."""
        abbeys = model_of(s.ext).abbeys
        if not _has_hole(s.board, 0 in abbeys):
            return None
        seat = first
        while abbeys[seat] <= 0:
            if seat == end:
                return None
            seat = (seat + 1) % s.setup.players
        s.current = Seat(seat)
        return (new_ask(s, self, depth, Seat(seat), round_end=end),)

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        end = ask.get("round_end")
        if isinstance(action, Pass):
            if end is None or ask.seat == end:  # draw; after the round's last seat: the end
                return None
            return self._round_ask(s, (ask.seat + 1) % s.setup.players, end, ask.depth)
        assert isinstance(action, Choose)
        try:
            pos = Position.parse(action.value)
        except InvalidActionError:
            raise IllegalActionError.keyed("am.err.abbey_answer") from None
        if model_of(s.ext).abbeys[ask.seat] <= 0:  # pragma: no cover - not asked then
            raise IllegalActionError.keyed("am.err.no_abbey")
        if pos not in holes(s.board):
            raise IllegalActionError.keyed("am.err.not_a_hole", cell=pos.notation())
        frame = s.flow[ask.depth]
        if frame.seat != ask.seat:  # the round asked a later seat: its turn it is
            s.flow = (*s.flow[: ask.depth], frame._replace(seat=ask.seat), *s.flow[ask.depth + 1 :])
        place_abbey(s, ask.seat, pos, events)
        skip_to(s, ask.depth, Slot.AFTER_PLACE)
        return None

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("am.err.wait_abbey")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        def options() -> tuple[Option, ...]:
            out = []
            for pos in holes(s.board):
                cell = pos.notation()
                out.append(
                    Option(cell, Choose(self.id, cell), Cell(pos.x, pos.y), (("cell", cell),))
                )
            return tuple(out)

        if ask.get("round_end") is None:
            return self.passable(ask, options)
        return Decision(
            ask.key,
            ask.seat,
            self.id,
            Prompt.of("am.abbey.final"),
            options,
            optional=True,
            pass_action=Pass(),
        )


ABBEY_STEP = AbbeyStep()
#: before the core's draw (order 0) in the draw slot, so the builder's sub-turn runs it too
ABBEY_ORDER = -10
register_action(AbbeyStep.id)
