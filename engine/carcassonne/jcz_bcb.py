"""Bridges, Castles & Bazaars in JCloisterZone saves (4.x and 5.x), for both importers.

JCloisterZone asks less than our engine, and in its own order (``shared/jcz5/README.md``
§3.11): a bridge comes as ``PLACE_TOKEN BRIDGE`` in the action step (our ``bcb.bridge``
decision comes before the deploy; no token means we pass it), a castle as ``PLACE_TOKEN
CASTLE`` or ``PASS`` after the action, before ``COMMIT`` (our ``bcb.castle``; a ``COMMIT``
declines it too), and the castle always takes the highest of several completed features (our
owner's ``bcb.castle_pick``). A bazaar is ``BAZAAR_BID`` (the opening bid of the tile selected,
then each bid), ``PASS`` and ``BAZAAR_BUY_OR_SELL``; the last tile's selection is a
``BAZAAR_BID`` too, which our engine does without asking. A mandatory bridge is laid with the
tile in both (JCloisterZone: ``PlacementOption.mandatoryBridge``).

:func:`before` answers our decisions that the next message shows JCloisterZone did not ask;
:func:`convert` turns a message into our answer when it is one of these.
"""

from __future__ import annotations

from typing import Any

from engine.carcassonne.actions import Action, Choose, Pass
from engine.carcassonne.expansions.bridges_castles_bazaars.model import model
from engine.carcassonne.expansions.bridges_castles_bazaars.texts import ID
from engine.carcassonne.geometry import Position
from engine.carcassonne.placement import parse_spot
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.core.decisions import Decision
from engine.core.errors import EngineError, RecordError
from engine.core.seats import Seat

BRIDGE, CASTLE, OFFER, BID, DEAL, PICK, PICK_CASTLE = (
    "bcb.bridge",
    "bcb.castle",
    "bcb.offer",
    "bcb.bid",
    "bcb.deal",
    "bcb.pick",
    "bcb.castle_pick",
)
__all__ = ["ID", "KINDS", "before", "convert", "token_name"]

#: message types this module reads
KINDS = ("PLACE_TOKEN", "BAZAAR_BID", "BAZAAR_BUY_OR_SELL")


def _open(state: GameState) -> dict[str, Decision]:
    return {d.kind: d for d in pending(state)}


def token_name(payload: dict[str, Any]) -> str:
    """``BRIDGE``/``CASTLE``/``GOLD``…: 5.x writes the name, 4.x ``[class, name]``."""
    token = payload.get("token")
    if isinstance(token, list) and token:
        token = token[-1]
    return str(token) if isinstance(token, str) else ""


def before(state: GameState, kind: str, payload: dict[str, Any]) -> list[tuple[Seat, Action]]:
    """Answers to our open decisions that JCloisterZone did not ask before this message: no
    bridge token (pass the bridge), a ``COMMIT`` over an open castle choice (score the city),
    several features around a castle (the highest)."""
    if ID not in state.ext:
        return []
    ds = _open(state)
    bridge = ds.get(BRIDGE)
    if bridge is not None and not (kind == "PLACE_TOKEN" and token_name(payload) == "BRIDGE"):
        return [(bridge.seat, Pass())]
    castle = ds.get(CASTLE)
    if castle is not None and kind == "COMMIT":
        return [(castle.seat, Pass())]
    pick = ds.get(PICK_CASTLE)
    if pick is not None:
        best = max(pick.options, key=lambda o: _points(o.label))
        return [(pick.seat, best.action)]
    return []


def _points(label: Any) -> int:
    value = label.param("points", 0) if label is not None else 0
    return int(value)


def _pointer(payload: dict[str, Any], n: int) -> tuple[Position, str]:
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
    return Position(pos[0], pos[1]), loc


def convert(
    state: GameState, kind: str, payload: dict[str, Any], n: int
) -> tuple[Seat, Action] | None | bool:
    """Our answer to this message when it is a BCB one: ``(seat, action)``; ``True`` when the
    message needs no answer (the last bazaar tile, which our engine gives out by itself);
    ``None`` when it is not ours to read.

    Raises:
        RecordError: for a message that does not fit the game (naming message ``n``).
    """
    if ID not in state.ext:
        return None
    ds = _open(state)
    if kind == "PLACE_TOKEN" and token_name(payload) == "BRIDGE":
        d = ds.get(BRIDGE)
        if d is None:
            raise RecordError("PLACE_TOKEN BRIDGE when no bridge may be built", move=n)
        pos, loc = _pointer(payload, n)
        return d.seat, Choose(BRIDGE, f"{pos.x},{pos.y}:{loc}")
    if kind == "PLACE_TOKEN" and token_name(payload) == "CASTLE":
        d = ds.get(CASTLE)
        if d is None:
            raise RecordError("PLACE_TOKEN CASTLE when no castle may be built", move=n)
        pos, loc = _pointer(payload, n)
        _check_castle(state, d, pos, loc, n)
        return d.seat, Choose(CASTLE, "build")
    if kind == "PASS":
        for k in (CASTLE, BID):
            d = ds.get(k)
            if d is not None:
                return d.seat, Pass()
        return None
    if kind == "BAZAAR_BID":
        index, price = payload.get("supplyIndex"), payload.get("price")
        if not isinstance(index, int) or not isinstance(price, int):
            raise RecordError("BAZAAR_BID needs a supplyIndex and a price", move=n)
        if OFFER in ds:
            return ds[OFFER].seat, Choose(OFFER, f"{index}@{price}")
        if BID in ds:
            return ds[BID].seat, Choose(BID, str(price))
        if PICK in ds:
            return ds[PICK].seat, Choose(PICK, str(index))
        market = model(state).market
        if market is not None and market.revealed and 0 <= index < len(market.owners):
            return True  # the last tile: ours went to the one player left already
        raise RecordError("BAZAAR_BID when no market is held", move=n)
    if kind == "BAZAAR_BUY_OR_SELL":
        d = ds.get(DEAL)
        value = str(payload.get("value", "")).lower()
        if d is None or value not in ("buy", "sell"):
            raise RecordError("BAZAAR_BUY_OR_SELL does not answer the market here", move=n)
        return d.seat, Choose(DEAL, value)
    return None


def _check_castle(state: GameState, d: Decision, pos: Position, loc: str, n: int) -> None:
    """The castle must be on the small city our engine offers."""
    (option,) = d.options
    target = option.target
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
