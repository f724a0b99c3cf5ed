"""CardState <-> JSON-ready dicts, for storage snapshots (versioned, no pickle).

A snapshot holds the hidden parts too (pile order, hands, face-down cards): it is for the
database only. Players see :func:`engine.cardgame.view.view_for`. Actions are stored by their
notation (:meth:`CardAction.notation`), so a match is also its setup, seed and action log
(:func:`engine.cardgame.rules.replay`).
"""

from __future__ import annotations

from typing import Any

from engine.cardgame.cards import Colour
from engine.cardgame.scoring import Award, CardScoreItem
from engine.cardgame.state import (
    CardSetup,
    CardState,
    HeldAnimal,
    Receipt,
    RowCard,
    RowFollower,
    RowItem,
)
from engine.core.errors import RecordError
from engine.core.seats import Seat

SCHEMA = 1
GAME = "cardgame"


def state_to_json(state: CardState) -> dict[str, Any]:
    """A JSON-ready dict of the whole state (schema :data:`SCHEMA`)."""
    return {
        "schema": SCHEMA,
        "game": GAME,
        "setup": state.setup.to_json(),
        "seed": state.seed,
        "pile": list(state.pile),
        "pile_pos": state.pile_pos,
        "rows": [[_item_to_json(i) for i in row] for row in state.rows],
        "hands": [list(h) for h in state.hands],
        "animals": [[[a.card, a.kind] for a in held] for held in state.animals],
        "chests": [list(c) for c in state.chests],
        "scores": list(state.scores),
        "played": list(state.played),
        "follower_row": [None if r is None else r.value for r in state.follower_row],
        "dealer": state.dealer,
        "current": state.current,
        "step": state.step,
        "awaiting": sorted(state.awaiting),
        "version": state.version,
        "round": state.round,
        "last_follower": state.last_follower,
        "removed": list(state.removed),
        "awards": [_award_to_json(a) for a in state.awards],
        "receipts": [_receipt_to_json(r) for r in state.receipts],
        "winners": list(state.winners),
    }


def state_from_json(data: dict[str, Any]) -> CardState:
    """Rebuild a state written by :func:`state_to_json`.

    Raises:
        RecordError: for another game, an unknown schema or a malformed snapshot.
    """
    if data.get("game") != GAME or data.get("schema") != SCHEMA:
        raise RecordError(
            f"not a card-game snapshot of schema {SCHEMA} "
            f"(game {data.get('game')!r}, schema {data.get('schema')!r})"
        )
    try:
        return CardState(
            setup=CardSetup.from_json(data["setup"]),
            seed=int(data["seed"]),
            pile=tuple(int(c) for c in data["pile"]),
            pile_pos=int(data["pile_pos"]),
            rows=tuple(tuple(_item_from_json(i) for i in row) for row in data["rows"]),
            hands=tuple(tuple(int(c) for c in h) for h in data["hands"]),
            animals=tuple(
                tuple(HeldAnimal(int(c), None if k is None else str(k)) for c, k in held)
                for held in data["animals"]
            ),
            chests=tuple(tuple(int(c) for c in ch) for ch in data["chests"]),
            scores=tuple(int(s) for s in data["scores"]),
            played=tuple(int(p) for p in data["played"]),
            follower_row=tuple(None if r is None else Colour(r) for r in data["follower_row"]),
            dealer=Seat(int(data["dealer"])),
            current=Seat(int(data["current"])),
            step=str(data["step"]),
            awaiting=frozenset(Seat(int(s)) for s in data["awaiting"]),
            version=int(data["version"]),
            round=int(data["round"]),
            last_follower=_seat_or_none(data["last_follower"]),
            removed=tuple(int(c) for c in data["removed"]),
            awards=tuple(_award_from_json(a) for a in data["awards"]),
            receipts=tuple(_receipt_from_json(r) for r in data["receipts"]),
            winners=tuple(Seat(int(s)) for s in data["winners"]),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise RecordError(f"malformed card-game snapshot: {e!r}") from e


def _seat_or_none(value: Any) -> Seat | None:
    return None if value is None else Seat(int(value))


def _item_to_json(item: RowItem) -> dict[str, Any]:
    if isinstance(item, RowFollower):
        return {"follower": item.seat}
    return {"card": item.card, "down": item.face_down, "by": item.by}


def _item_from_json(data: dict[str, Any]) -> RowItem:
    if "follower" in data:
        return RowFollower(Seat(int(data["follower"])))
    return RowCard(int(data["card"]), bool(data["down"]), _seat_or_none(data["by"]))


def _award_to_json(a: Award) -> dict[str, Any]:
    i = a.item
    return {
        "seat": a.seat,
        "points": a.points,
        "category": i.category,
        "item_points": i.points,
        "parts": list(i.parts),
        "cards": list(i.cards),
        "round": i.round,
        "final": i.final,
    }


def _award_from_json(d: dict[str, Any]) -> Award:
    item = CardScoreItem(
        str(d["category"]),
        int(d["item_points"]),
        tuple(str(p) for p in d["parts"]),
        tuple(str(c) for c in d["cards"]),
        int(d["round"]),
        bool(d["final"]),
    )
    return Award(Seat(int(d["seat"])), int(d["points"]), item)


def _receipt_to_json(r: Receipt) -> dict[str, Any]:
    return {
        "seat": r.seat,
        "cards": [[c, row.value] for c, row in r.cards],
        "undecided": list(r.undecided),
        "kept": list(r.kept),
        "cashed": list(r.cashed),
        "jokers": list(r.jokers),
        "assigned": [[c, k] for c, k in r.assigned],
    }


def _receipt_from_json(d: dict[str, Any]) -> Receipt:
    return Receipt(
        seat=Seat(int(d["seat"])),
        cards=tuple((int(c), Colour(row)) for c, row in d["cards"]),
        undecided=tuple(int(c) for c in d["undecided"]),
        kept=tuple(int(c) for c in d["kept"]),
        cashed=tuple(int(c) for c in d["cashed"]),
        jokers=tuple(int(c) for c in d["jokers"]),
        assigned=tuple((int(c), str(k)) for c, k in d["assigned"]),
    )
