"""Scenario helpers for the Robbers tests: a forced pile, tiles and followers laid by hand,
scores and robbers set on the track."""

from __future__ import annotations

from engine import Action, GameSetup, Seat, apply, new_game
from engine.carcassonne.board import Meeple
from engine.carcassonne.events import Event
from engine.carcassonne.expansions.robbers import ROBBER, RobbersModel
from engine.carcassonne.geometry import Position
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind, tile
from engine.carcassonne.track import TrackFigure, find, put

RB = ("robbers",)
BLUE, RED, YELLOW, GREEN = Seat(0), Seat(1), Seat(2), Seat(3)


def game(
    pile: tuple[str, ...], players: int = 2, tiny_city: int = 2, **options: object
) -> GameState:
    """A game of ``players`` whose pile is exactly ``pile`` (a 2-tile city scores 2 by
    default, RULES.md §0 ``tiny_city``)."""
    setup = GameSetup(
        players=players,
        tiny_city=tiny_city,
        expansions=RB,
        draw_order=pile,
        only_forced=True,
        options=tuple(options.items()),
    )
    return new_game(setup, seed=1).clone()


def do(s: GameState, move: str, seat: Seat | None = None) -> tuple[GameState, list[Event]]:
    who = pending(s)[0].seat if seat is None else seat
    tr = apply(s, who, Action.from_notation(move))
    return tr.state, list(tr.events)


def lay(s: GameState, *tiles: tuple[int, int, str, int]) -> None:
    """Lay tiles by hand: (x, y, tile id, quarter turns clockwise)."""
    for x, y, tid, r in tiles:
        s.board.place(Position(x, y), tile(tid).rotated(r))


def follower(s: GameState, seat: Seat, x: int, y: int, kind: FeatureKind, nth: int = 0) -> None:
    """Put ``seat``'s follower on the ``nth`` feature of ``kind`` of the tile at (x, y)."""
    pos = Position(x, y)
    placed = s.board.cells[pos]
    index = [f.index for f in placed.rt.tile.features if f.kind is kind][nth]
    s.board.add_meeple(Meeple(seat, "follower", placed.segs[index], pos))
    s.player(seat).supply["follower"] -= 1


def scores(s: GameState, *points: int) -> None:
    for seat, p in enumerate(points):
        s.player(Seat(seat)).score = p


def robber(s: GameState, seat: Seat, where: int) -> None:
    put(s, TrackFigure(seat, ROBBER, where))


def robber_at(s: GameState, seat: Seat) -> int | None:
    r = find(s, seat, ROBBER)
    return None if r is None else r.value


def model(s: GameState) -> RobbersModel:
    m = s.ext["robbers"]
    assert isinstance(m, RobbersModel)
    return m


def of(events: list[Event], kind: type) -> list[object]:
    return [e for e in events if isinstance(e, kind)]


def five_tile_road(s: GameState, owner: Seat) -> None:
    """A road of 4 tiles open at the start tile's west end: the start tile (0,0), two
    straight roads BA/RFr (west–east) at (1,0), (2,0), a cloister's road BA/LR turned 1 (road
    west) ending at (3,0); ``owner``'s thief on (1,0). BA/LR turned 3 at (-1,0) (its road east,
    into the cloister) closes it: 5 tiles."""
    lay(s, (1, 0, "BA/RFr", 0), (2, 0, "BA/RFr", 0), (3, 0, "BA/LR", 1))
    follower(s, owner, 1, 0, FeatureKind.ROAD)


def city_and_road(s: GameState, knight: Seat, thief: Seat) -> None:
    """(0,-1) is to take BA/CRr or RB/CRr turned 2 (road west and north, city south): it closes
    the start tile's city (2 tiles: 2 × 2 = 4, ``knight``'s) and a road of 3 tiles from the
    cloister at (-1,-1) (BA/LR turned 3, road east) to the cloister at (0,-2) (BA/LR, road
    south): 3 × 1 = 3, ``thief``'s on (0,-2)."""
    lay(s, (-1, -1, "BA/LR", 3), (0, -2, "BA/LR", 0))
    follower(s, knight, 0, 0, FeatureKind.CITY)
    follower(s, thief, 0, -2, FeatureKind.ROAD)
