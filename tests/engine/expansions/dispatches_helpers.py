"""Scenarios for the Messages tests: a forced pile of tiles and of messages, figures put on the
scoring track by hand, followers put on pre-placed tiles.

The board most tests use (start tile at 0,0: city north, road west–east):

* ``(1,0)`` ``BA/CRRR`` unturned: a city north (1 tile, open), roads east and south (1 tile
  each, ending at its junction) and west (joining the start road: 2 tiles, open west);
* the active player (red) holds the start city; red then places ``BA/C`` turned 180° at
  ``(0,-1)``, which completes the start city: 2 tiles → 2 points (RULES.md §2, rulebook 001's
  2-tile city), taken by red's main figure standing on 3 → it lands on 5, a dark space, and red
  draws the top message.
"""

from __future__ import annotations

from engine import Action, GameSetup, Seat, apply, new_game
from engine.carcassonne import track
from engine.carcassonne.board import Meeple
from engine.carcassonne.events import Event
from engine.carcassonne.expansions.dispatches import DECK, MESSENGER, MessagesModel
from engine.carcassonne.geometry import Position
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind, tile
from engine.carcassonne.track import TrackFigure
from engine.core.decisions import Decision

RED, BLUE, YELLOW = Seat(0), Seat(1), Seat(2)
START = Position(0, 0)
EAST = Position(1, 0)
NORTH = Position(0, -1)


def game(
    pile: tuple[str, ...] = ("BA/C", "BA/L", "BA/L"),
    deck: tuple[str, ...] = (),
    *,
    players: int = 2,
    choice: str = "ask",
    expansions: tuple[str, ...] = (),
) -> GameState:
    setup = GameSetup(
        players=players,
        expansions=("dispatches", *expansions),
        draw_order=pile,
        only_forced=True,
        forced=((DECK, deck),) if deck else (),
        options=(("dispatches.choice", choice),),
    )
    return new_game(setup, seed=1).clone()


def model(s: GameState) -> MessagesModel:
    m = s.ext["dispatches"]
    assert isinstance(m, MessagesModel)
    return m


def figures(s: GameState, seat: Seat) -> tuple[int, int]:
    """(main figure, messenger) of ``seat``."""
    return track.value(s, seat), track.value(s, seat, MESSENGER)


def prime(s: GameState, seat: Seat, main: int, messenger: int) -> None:
    """Stand ``seat``'s main figure on ``main`` and its messenger on ``messenger``."""
    s.player(seat).score = main + messenger
    track.put(s, TrackFigure(seat, MESSENGER, messenger, True))


def follower(
    s: GameState,
    seat: Seat,
    pos: Position,
    kind: FeatureKind,
    nth: int = 0,
    figure: str = "follower",
) -> None:
    """Put ``seat``'s figure on the ``nth`` feature of ``kind`` of the tile at ``pos``."""
    placed = s.board.cells[pos]
    index = [f.index for f in placed.rt.tile.features if f.kind is kind][nth]
    s.board.add_meeple(Meeple(seat, figure, placed.segs[index], pos))
    s.player(seat).supply[figure] -= 1


def lay(s: GameState, pos: Position, tile_id: str, turns: int = 0) -> None:
    """Put a tile on the board by hand (turned ``turns`` quarters clockwise)."""
    s.board.place(pos, tile(tile_id).rotated(turns))


def east_board(s: GameState) -> None:
    """``BA/CRRR`` at (1,0) and red on the start city (the trigger of :func:`trigger`)."""
    lay(s, EAST, "BA/CRRR")
    follower(s, RED, START, FeatureKind.CITY)


def do(s: GameState, move: str | Action, seat: Seat | None = None) -> tuple[GameState, list[Event]]:
    who = pending(s)[0].seat if seat is None else seat
    action = Action.from_notation(move) if isinstance(move, str) else move
    tr = apply(s, who, action)
    return tr.state, list(tr.events)


def trigger(s: GameState) -> tuple[GameState, list[Event]]:
    """Red (main figure on 3) completes the start city with ``BA/C`` at (0,-1): 2 points on the
    main figure, 3 + 2 = 5, a dark space: red draws the top message."""
    prime(s, RED, 3, 0)
    out: list[Event] = []
    for move in ("place 0,-1 r180", "pass", "dispatches.figure main"):
        if move.startswith("dispatches.") and pending(s)[0].kind != "dispatches.figure":
            break  # a standing choice placed it
        s, events = do(s, move)
        out += events
    return s, out


def decision(s: GameState, kind: str) -> Decision:
    (d,) = [d for d in pending(s) if d.kind == kind]
    return d


def option_ids(s: GameState, kind: str) -> list[str]:
    return [o.id for o in decision(s, kind).options]


def of_type(events: list[Event], cls: type) -> list[Event]:
    return [e for e in events if isinstance(e, cls)]
