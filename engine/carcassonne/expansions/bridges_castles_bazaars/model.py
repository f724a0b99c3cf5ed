"""The state of Bridges, Castles & Bazaars (``state.ext["bridges_castles_bazaars"]``) and its
events.

Everything is a frozen dataclass replaced, never changed (clones share it). The model holds each
seat's bridges and castles left, the bridges and castles on the board, the features completed
around castles in the current scoring, and the market under way. The secrets are the market's
face-down tiles (set aside before a builder's second tile) and the sealed bids: ``redact`` hides
them (ARCHITECTURE.md §5.5).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, TypeVar

from engine.carcassonne.events import Event
from engine.carcassonne.geometry import Position
from engine.carcassonne.state import GameState
from engine.core.decisions import Prompt
from engine.core.seats import Seat

from .texts import ID

#: a sealed bid not given (yet), and a pass
NO_BID, PASSED = -2, -1
#: the highest bid any player may make (the rulebook sets none; a cap keeps a slip of the
#: finger from ending a game: docs/decisions.md)
MAX_BID = 100
LETTERS = "ABCDEFGH"


@dataclass(frozen=True, slots=True)
class Bridge:
    """A wooden bridge: its tile, its axis (``NS`` or ``WE``), its builder and its road segment."""

    pos: Position
    axis: str
    seat: Seat
    seg: int


@dataclass(frozen=True, slots=True)
class Castle:
    """A castle token on a small city: owner, its two tiles (sorted), a segment of the city it
    stands on, the follower on top (``""`` once it scored: the follower went home) and the
    points it scored (``None``: not yet)."""

    owner: Seat
    tiles: tuple[Position, Position]
    seg: int
    figure: str
    points: int | None = None

    @property
    def vicinity(self) -> frozenset[Position]:
        """The 6 surrounding tiles: its two tiles and the tiles beside each, at right angles
        to the line joining them (RULES.md §13.3, a 3 × 2 block)."""
        a, b = self.tiles
        # one above the other: the columns west and east; side by side: the rows N and S
        side = ((-1, 0), (1, 0)) if a.x == b.x else ((0, -1), (0, 1))
        out = {a, b}
        for p in (a, b):
            for dx, dy in side:
                out.add(Position(p.x + dx, p.y + dy))
        return frozenset(out)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A feature completed in a castle's surroundings in this scoring: which castle (index), its
    points, what it was (``road``, ``city``, ``cloister``, ``castle``) and where to point at it."""

    castle: int
    points: int
    kind: str
    pos: Position
    spot: str


@dataclass(frozen=True, slots=True)
class Market:
    """A market under way (RULES.md §13.1).

    ``tiles`` in the order they were revealed; ``owners`` the seat that obtained each (-1:
    nobody yet); ``placed`` whether it was played. ``active`` held the market in a turn at frame
    ``depth``. During an auction: ``lot`` (the tile on offer), ``chooser``, ``price`` (the bid
    to beat) and ``leader`` (who made it); ``bids`` each seat's sealed bid (:data:`NO_BID`,
    :data:`PASSED` or a number: secret until revealed) and ``answered`` who has answered.
    """

    tiles: tuple[str, ...]
    owners: tuple[int, ...]
    active: Seat
    depth: int
    revealed: bool = False
    placed: tuple[bool, ...] = ()
    lot: int = -1
    chooser: int = -1
    price: int = 0
    leader: int = -1
    bids: tuple[int, ...] = ()
    answered: tuple[Seat, ...] = ()

    def free(self) -> tuple[int, ...]:
        """Indices of the tiles nobody has obtained yet, in market order."""
        return tuple(i for i, o in enumerate(self.owners) if o < 0)

    def letter(self, index: int) -> str:
        """The letter tile ``index`` has among the free ones (A for the first): the letters
        the strip under the board and every picker show."""
        free = self.free()
        return LETTERS[free.index(index)] if index in free else "–"

    def has_tile(self, seat: int) -> bool:
        return seat in self.owners


@dataclass(frozen=True, slots=True)
class BcbModel:
    """Bridges and castles left per seat, the pieces on the board, this scoring's castle
    candidates, whether this placement has built its bridge, a market due (a market tile was
    just placed) and the market under way."""

    bridges_left: tuple[int, ...]
    castles_left: tuple[int, ...]
    bridges: tuple[Bridge, ...] = ()
    castles: tuple[Castle, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    bridged_at: Position | None = None
    market_due: bool = False
    market: Market | None = None


_T = TypeVar("_T")


def model(s: GameState) -> BcbModel:
    m = s.ext[ID]
    assert isinstance(m, BcbModel)
    return m


def _changed(obj: _T, changes: dict[str, Any]) -> _T:
    """``dataclasses.replace`` for these frozen slotted records, without its per-call field
    introspection (a market changes several times a turn): every field read by one
    ``attrgetter`` call, the changed ones set, the record built by its own constructor."""
    cls = type(obj)
    fields = _FIELDS.get(cls)
    if fields is None:
        names = cls.__slots__  # type: ignore[attr-defined]  # the fields, in order
        get = attrgetter(*names) if len(names) > 1 else lambda o: (getattr(o, names[0]),)
        fields = _FIELDS[cls] = ({n: i for i, n in enumerate(names)}, get)
    index, get = fields
    values = list(get(obj))
    for name, value in changes.items():
        i = index.get(name)
        if i is None:
            raise TypeError(f"unknown fields in {sorted(changes)}")
        values[i] = value
    return cls(*values)


#: per record class: each field's position in the constructor, and a getter of all fields
_FIELDS: dict[type, tuple[dict[str, int], Callable[[Any], tuple[Any, ...]]]] = {}


def put(s: GameState, **changes: Any) -> BcbModel:
    """Replace the model in the (cloned) state with ``changes``; return the new one."""
    m = _changed(s.ext[ID], changes)
    assert isinstance(m, BcbModel)
    s.ext[ID] = m
    return m


def put_market(s: GameState, **changes: Any) -> Market:
    market = s.ext[ID].market
    assert isinstance(market, Market)
    new = _changed(market, changes)
    put(s, market=new)
    return new


def tile_word(market: Market, index: int) -> str:
    """A market tile named in events: its id (letters change as tiles are taken; the strip
    under the board shows which tile is on offer)."""
    return market.tiles[index]


# --------------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class BridgeBuilt(Event):
    seat: Seat
    pos: Position
    axis: str

    def prompt(self) -> Prompt:
        return Prompt.of(
            "bcb.bridge_built",
            seat=self.seat,
            x=self.pos.x,
            y=self.pos.y,
            axis=Prompt.of(f"bcb.axis.{self.axis}"),
        )


@dataclass(frozen=True, slots=True)
class CastleBuilt(Event):
    seat: Seat
    pos: Position

    def prompt(self) -> Prompt:
        return Prompt.of("bcb.castle_built", seat=self.seat, x=self.pos.x, y=self.pos.y)


@dataclass(frozen=True, slots=True)
class MarketEvent(Event):
    """A market event players read: its message key and parameters (seats as ``seat`` /
    ``*_seat``, shown as names)."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    def prompt(self) -> Prompt:
        return Prompt(self.key, self.params)


def market_event(key: str, **params: Any) -> MarketEvent:
    return MarketEvent(key, tuple(sorted(params.items())))
