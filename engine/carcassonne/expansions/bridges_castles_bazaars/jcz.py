"""Bridges, Castles & Bazaars in JCloisterZone saves (4.x and 5.x).

Setup: bridges, castles and bazaars are switched separately (4.x capabilities, 5.x elements);
JCloisterZone's only auction is the rulebook's open one (``bcb.bidding = open``), or none
(4.x rule ``BAZAAR_NO_AUCTION``, 5.x ``bazaar-no-auction``).

The replay: JCloisterZone asks less than our engine, and in its own order
(``shared/jcz5/README.md`` §3.11): a bridge comes as ``PLACE_TOKEN BRIDGE`` in the action step
(our ``bcb.bridge`` decision comes before the deploy; no token means we pass it), a castle as
``PLACE_TOKEN CASTLE`` or ``PASS`` after the action, before ``COMMIT`` (our ``bcb.castle``; a
``COMMIT`` declines it too), and the castle always takes the highest of several completed
features (our owner's ``bcb.castle_pick``). A bazaar is ``BAZAAR_BID`` (the opening bid of the
tile selected, then each bid), ``PASS`` and ``BAZAAR_BUY_OR_SELL``; the last tile's selection is
a ``BAZAAR_BID`` too, which our engine does without asking. A mandatory bridge is laid with the
tile in both (JCloisterZone: ``PlacementOption.mandatoryBridge``).

JCloisterZone also offers a castle to a seat other than the one to move (a small city of that
seat's that the tile completed); RULES.md §13.3 (OQ-CAS-1) lets only the active player build one.
Such an offer declined (``PASS`` before the turn's ``COMMIT``) changes nothing; taken, the save
is refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.carcassonne.actions import Action, Choose, Pass
from engine.carcassonne.geometry import Position
from engine.carcassonne.jczparts import (
    Answer,
    JczContext,
    JczImport,
    JczMessages,
    JczSwitch,
    Message,
    Options,
)
from engine.carcassonne.placement import parse_spot
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.core.decisions import Decision
from engine.core.errors import EngineError, RecordError
from engine.core.seats import Seat

from .castles import eligible
from .model import model
from .texts import BIDDING, BRIDGES, CASTLES, ID, MARKETS

BRIDGE, CASTLE, OFFER, BID, DEAL, PICK, PICK_CASTLE = (
    "bcb.bridge",
    "bcb.castle",
    "bcb.offer",
    "bcb.bid",
    "bcb.deal",
    "bcb.pick",
    "bcb.castle_pick",
)
#: the core's deploy decision (a 4.x PASS answers it before any castle)
_DEPLOY = "core.deploy"
BRIDGE_TOKEN, CASTLE_TOKEN = "BRIDGE", "CASTLE"
__all__ = ["JCZ", "BcbMessages", "token_name"]


def _open(state: GameState) -> dict[str, Decision]:
    return {d.kind: d for d in pending(state)}


def token_name(payload: dict[str, Any]) -> str:
    """``BRIDGE``/``CASTLE``/``GOLD``…: 5.x writes the name, 4.x ``[class, name]``."""
    token = payload.get("token")
    if isinstance(token, list) and token:
        token = token[-1]
    return str(token) if isinstance(token, str) else ""


def _points(label: Any) -> int:
    value = label.param("points", 0) if label is not None else 0
    return int(value)


def _pointer(payload: dict[str, Any], n: int) -> tuple[tuple[int, int], str]:
    pointer = payload.get("pointer")
    if not isinstance(pointer, dict):
        raise RecordError('PLACE_TOKEN has no "pointer"', move=n)
    pos = pointer.get("position")
    loc = pointer.get("location")
    if (
        not isinstance(pos, list)
        or len(pos) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in pos)
        or not isinstance(loc, str)
    ):
        raise RecordError("PLACE_TOKEN's pointer needs a position [x, y] and a location", move=n)
    return (pos[0], pos[1]), loc


class BcbMessages(JczMessages):
    """Tokens, bazaars and castle offers, for one conversion (see the module docstring)."""

    def __init__(self) -> None:
        #: the placement the castle offers to other seats were found for, and those seats
        self._placed: GameState | None = None
        self._offers: list[Seat] = []

    def before(self, ctx: JczContext, m: Message) -> Iterable[tuple[Seat, Action]]:
        """No bridge token: pass the bridge; a ``COMMIT`` over an open castle choice: score the
        city; several features around a castle: the highest."""
        ds = _open(ctx.state)
        bridge = ds.get(BRIDGE)
        if bridge is not None and not (
            m.kind == "PLACE_TOKEN" and token_name(m.payload) == BRIDGE_TOKEN
        ):
            return [(bridge.seat, Pass())]
        castle = ds.get(CASTLE)
        if castle is not None and m.kind == "COMMIT":
            return [(castle.seat, Pass())]
        pick = ds.get(PICK_CASTLE)
        if pick is not None:
            best = max(pick.options, key=lambda o: _points(o.label))
            return [(pick.seat, best.action)]
        return []

    def convert(self, ctx: JczContext, m: Message) -> Answer | None:
        state, kind, payload, n = ctx.state, m.kind, m.payload, m.n
        ds = _open(state)
        if kind == "PLACE_TOKEN" and token_name(payload) == BRIDGE_TOKEN:
            d = ds.get(BRIDGE)
            if d is None:
                raise RecordError("PLACE_TOKEN BRIDGE when no bridge may be built", move=n)
            (x, y), loc = _pointer(payload, n)
            return Answer(d.seat, Choose(BRIDGE, f"{x},{y}:{loc}"))
        if kind == "PLACE_TOKEN" and token_name(payload) == CASTLE_TOKEN:
            d = ds.get(CASTLE)
            if d is None:
                self._refuse_foreign_castle(ctx, m)
                raise RecordError("PLACE_TOKEN CASTLE when no castle may be built", move=n)
            (x, y), loc = _pointer(payload, n)
            _check_castle(state, d, x, y, loc, n)
            return Answer(d.seat, Choose(CASTLE, "build"))
        if kind == "PASS":
            for k in (CASTLE, BID):
                d = ds.get(k)
                if d is not None:
                    return Answer(d.seat, Pass())
            return self._foreign_decline(ctx, m, ds)
        if kind == "BAZAAR_BID":
            index, price = payload.get("supplyIndex"), payload.get("price")
            if not isinstance(index, int) or not isinstance(price, int):
                raise RecordError("BAZAAR_BID needs a supplyIndex and a price", move=n)
            if OFFER in ds:
                return Answer(ds[OFFER].seat, Choose(OFFER, f"{index}@{price}"))
            if BID in ds:
                return Answer(ds[BID].seat, Choose(BID, str(price)))
            if PICK in ds:
                return Answer(ds[PICK].seat, Choose(PICK, str(index)))
            market = model(state).market
            if market is not None and market.revealed and 0 <= index < len(market.owners):
                return Answer()  # the last tile: ours went to the one player left already
            raise RecordError("BAZAAR_BID when no market is held", move=n)
        if kind == "BAZAAR_BUY_OR_SELL":
            d = ds.get(DEAL)
            value = str(payload.get("value", "")).lower()
            if d is None or value not in ("buy", "sell"):
                raise RecordError("BAZAAR_BUY_OR_SELL does not answer the market here", move=n)
            return Answer(d.seat, Choose(DEAL, value))
        return None

    # ---- castles offered to a seat other than the one to move
    def _foreign(self, ctx: JczContext) -> list[Seat]:
        """The seats other than the one to move that JCloisterZone still offers a castle for
        the latest tile, before its ``COMMIT``: a small city of theirs that it completed."""
        placed = ctx.placed
        if placed is None or ctx.committed or ID not in placed.ext:
            return []
        if placed is not self._placed:
            self._placed = placed
            n, active = placed.setup.players, placed.current
            left = model(placed).castles_left
            seats = (Seat((active + i) % n) for i in range(1, n))
            self._offers = [s for s in seats if left[s] > 0 and eligible(placed, s)]
        return self._offers

    def _foreign_decline(
        self, ctx: JczContext, m: Message, ds: dict[str, Decision]
    ) -> Answer | None:
        """A ``PASS`` that declines such an offer: it changes nothing (4.x, which names no
        player: once the action is answered)."""
        offers = self._foreign(ctx)
        if not offers:
            return None
        if m.player is None:
            if _DEPLOY in ds:
                return None
            offers.pop(0)
        elif m.player in offers:
            offers.remove(Seat(m.player))
        else:
            return None
        return Answer()

    def _refuse_foreign_castle(self, ctx: JczContext, m: Message) -> None:
        offers = self._foreign(ctx)
        if not offers:
            return
        seat = Seat(m.player) if m.player in offers else offers[0]
        active = ctx.placed.current if ctx.placed is not None else ctx.state.current
        raise RecordError(
            f"PLACE_TOKEN CASTLE builds a castle for player {seat + 1} in player {active + 1}'s "
            "turn: only the active player builds castles (RULES.md §13.3, OQ-CAS-1)",
            move=m.n,
        )


def _check_castle(state: GameState, d: Decision, x: int, y: int, loc: str, n: int) -> None:
    """The castle must be on the small city our engine offers."""
    (option,) = d.options
    target = option.target
    pos = Position(x, y)
    cell = state.board.cells.get(pos)
    if cell is None or target is None:
        raise RecordError(f"PLACE_TOKEN CASTLE on an empty square {pos.notation()}", move=n)
    try:
        index = parse_spot(cell.rt, loc)
    except EngineError as e:
        raise RecordError(f"PLACE_TOKEN CASTLE: {e}", move=n) from None
    root = state.board.root
    want = state.board.cells[Position(target.x, target.y)]  # type: ignore[union-attr]
    spot_index = parse_spot(want.rt, target.spot)  # type: ignore[union-attr]
    if root[cell.segs[index]] != root[want.segs[spot_index]]:
        raise RecordError("PLACE_TOKEN CASTLE names another city than the one completed", move=n)


#: JCloisterZone's only bazaar auction is the rulebook's open one (unless it has none)
_OPEN: Options = ((BIDDING, "open"),)


def _no_auction_4(value: Any) -> Options:
    return ((BIDDING, "no_auction"),) if value is True else ()


def _no_auction_5(value: Any) -> Options:
    return ((BIDDING, "no_auction" if value is True else "open"),)


JCZ = JczImport(
    capabilities={
        "Bridge": JczSwitch(((BRIDGES, True), *_OPEN)),
        "Castle": JczSwitch(((CASTLES, True), *_OPEN)),
        "Bazaar": JczSwitch(((MARKETS, True), *_OPEN)),
    },
    expansions={"BRIDGES_CASTLES_AND_BAZAARS": JczSwitch(_OPEN)},
    sets={"bridges-castles-and-bazaars:1": JczSwitch(_OPEN)},
    elements={
        "bridge": JczSwitch(((BRIDGES, True), *_OPEN)),
        "castle": JczSwitch(((CASTLES, True), *_OPEN)),
        "bazaar": JczSwitch(((MARKETS, True), *_OPEN)),
    },
    rules4={"BAZAAR_NO_AUCTION": _no_auction_4},
    rules5={"bazaar-no-auction": _no_auction_5},
    messages=BcbMessages,
)
