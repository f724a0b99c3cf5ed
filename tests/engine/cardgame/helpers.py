"""Builders for card-game test positions: real engine states with chosen cards in place."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from engine.cardgame.actions import CardAction
from engine.cardgame.cards import DECK, ROWS, Colour
from engine.cardgame.events import CardEvent
from engine.cardgame.rules import apply, new_game
from engine.cardgame.state import (
    STEP_PLAY,
    CardSetup,
    CardState,
    HeldAnimal,
    RowCard,
    RowFollower,
    RowItem,
)
from engine.core.seats import Seat


class Cards:
    """Hands out distinct card ids by code (``blue-2``), as a dealer would from the box."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, code: str) -> int:
        for i, face in enumerate(DECK):
            if face.code == code and i not in self.used:
                self.used.add(i)
                return i
        raise AssertionError(f"no {code} left in the box")

    def many(self, codes: Iterable[str]) -> tuple[int, ...]:
        return tuple(self(c) for c in codes)


def up(cards: Cards, code: str, by: int | None = None) -> RowCard:
    return RowCard(cards(code), False, None if by is None else Seat(by))


def down(cards: Cards, code: str, by: int) -> RowCard:
    return RowCard(cards(code), True, Seat(by))


def follower(seat: int) -> RowFollower:
    return RowFollower(Seat(seat))


def table(
    players: int = 2,
    *,
    rows: Mapping[Colour, Sequence[RowItem]] | None = None,
    hands: Mapping[int, Sequence[int]] | None = None,
    played: Mapping[int, int] | None = None,
    followers: Mapping[int, Colour] | None = None,
    animals: Mapping[int, Sequence[HeldAnimal]] | None = None,
    chests: Mapping[int, Sequence[int]] | None = None,
    scores: Sequence[int] | None = None,
    current: int = 0,
    dealer: int = 1,
    round: int = 1,
    names: Sequence[str] = (),
) -> CardState:
    """A mid-round position in step ``play``: whatever is not given is empty."""
    base = new_game(CardSetup(players=players, dealer=dealer, names=tuple(names)), seed=0)
    rows = rows or {}
    hands = hands or {}
    followers = followers or {}
    animals = animals or {}
    chests = chests or {}
    played = played or {}
    return replace(
        base,
        step=STEP_PLAY,
        round=round,
        rows=tuple(tuple(rows.get(c, ())) for c in ROWS),
        hands=tuple(tuple(sorted(hands.get(s, ()))) for s in range(players)),
        played=tuple(played.get(s, 1) for s in range(players)),
        follower_row=tuple(followers.get(s) for s in range(players)),
        animals=tuple(tuple(animals.get(s, ())) for s in range(players)),
        chests=tuple(tuple(chests.get(s, ())) for s in range(players)),
        scores=tuple(scores) if scores is not None else (0,) * players,
        current=Seat(current),
        dealer=Seat(dealer),
        awaiting=frozenset({Seat(current)}),
        last_follower=None,
    )


def act(state: CardState, seat: int, notation: str) -> tuple[CardState, tuple[CardEvent, ...]]:
    tr = apply(state, Seat(seat), CardAction.from_notation(notation))
    return tr.state, tr.events


def run(state: CardState, script: Iterable[tuple[int, str]]) -> tuple[CardState, list[CardEvent]]:
    """Apply ``(seat, notation)`` moves in order; return the last state and all events."""
    events: list[CardEvent] = []
    for seat, text in script:
        state, ev = act(state, seat, text)
        events.extend(ev)
    return state, events


def of_type(events: Iterable[CardEvent], kind: type[CardEvent]) -> list[CardEvent]:
    return [e for e in events if isinstance(e, kind)]
