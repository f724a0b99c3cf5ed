"""The card game's record: everything needed to replay a game exactly, as JSON.

The same envelope as the tile game's record (:mod:`engine.carcassonne.record`), with
``"game": "cardgame"``::

    {"format": "carcabot-record", "version": 1, "game": "cardgame",
     "setup": {"players": 3}, "seed": 5,
     "actions": [{"seat": 0, "action": "follower blue"}, ...],
     "final_scores": [57, 41, 38]}

``carcabot simulate --game cards --record DIR`` and the local table write it;
``carcabot replay`` reads it back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.cardgame.actions import CardAction
from engine.cardgame.rules import replay
from engine.cardgame.state import CardSetup, CardState
from engine.core.errors import EngineError, RecordError
from engine.core.seats import Seat

RECORD_FORMAT = "carcabot-record"
RECORD_VERSION = 1
GAME = "cardgame"
#: the most actions a card game takes (130 cards, a follower and a few choices a round)
MAX_ACTIONS = 2_000


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_card_record(data: Any) -> bool:
    """Whether ``data`` is a record of the card game (checked no further)."""
    return (
        isinstance(data, dict) and data.get("format") == RECORD_FORMAT and data.get("game") == GAME
    )


@dataclass(frozen=True, slots=True)
class CardRecord:
    """A whole card game as data: replaying ``actions`` from ``new_game(setup, seed=seed)``."""

    setup: CardSetup
    seed: int
    actions: tuple[tuple[Seat, str], ...]
    final_scores: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": GAME,
            "setup": self.setup.to_json(),
            "seed": self.seed,
            "actions": [{"seat": int(s), "action": a} for s, a in self.actions],
        }
        if self.final_scores is not None:
            out["final_scores"] = list(self.final_scores)
        return out

    def player_names(self) -> tuple[str, ...]:
        return tuple(self.setup.name(Seat(s)) for s in range(self.setup.players))

    def replay(self) -> CardState:
        """The game after every action.

        Raises:
            RecordError: naming the first move (from 1) that cannot be read or applied.
        """
        log = []
        for i, (seat, text) in enumerate(self.actions, 1):
            try:
                log.append((seat, CardAction.from_notation(text)))
            except EngineError as e:
                raise RecordError(str(e), move=i) from None
        state = replay(self.setup, self.seed, log)
        if self.final_scores is not None and tuple(state.scores) != self.final_scores:
            raise RecordError(
                f"the replayed scores {list(state.scores)} differ from the recorded "
                f"{list(self.final_scores)}"
            )
        return state

    @classmethod
    def from_json(cls, data: Any) -> CardRecord:
        """Read a card-game record, checking every field's type.

        Raises:
            RecordError: for anything malformed; a bad action names its move (1-based).
        """
        if not is_card_record(data):
            raise RecordError("not a record of the card game")
        version = data.get("version")
        if not _is_int(version) or version < 1:
            raise RecordError('the record has no valid "version"')
        if version > RECORD_VERSION:
            raise RecordError(
                f"record version {version} is newer than this program reads ({RECORD_VERSION})"
            )
        raw = data.get("setup")
        if not isinstance(raw, dict):
            raise RecordError('the record has no "setup" object')
        players, dealer = raw.get("players", 2), raw.get("dealer")
        names, stack = raw.get("names", []), raw.get("stack", [])
        if not _is_int(players) or (dealer is not None and not _is_int(dealer)):
            raise RecordError('"players" and "dealer" must be integers')
        for field, value in (("names", names), ("stack", stack)):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise RecordError(f'"{field}" must be a list of texts')
        setup = CardSetup.from_json(raw)
        try:
            setup.validate()
        except EngineError as e:
            raise RecordError(f"bad setup: {e}") from None
        if dealer is not None and not 0 <= dealer < setup.players:
            raise RecordError(f"bad dealer {dealer!r}")
        seed = data.get("seed")
        if not _is_int(seed):
            raise RecordError('the record\'s "seed" must be an integer')
        raw_actions = data.get("actions", [])
        if not isinstance(raw_actions, list):
            raise RecordError('the record\'s "actions" must be a list')
        if len(raw_actions) > MAX_ACTIONS:
            raise RecordError(f"more than {MAX_ACTIONS} actions: not a card game")
        actions = []
        for i, item in enumerate(raw_actions, 1):
            if not isinstance(item, dict):
                raise RecordError('an action must be an object {"seat", "action"}', move=i)
            seat, text = item.get("seat"), item.get("action")
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise RecordError(f"bad seat {seat!r}", move=i)
            if not 0 <= seat < setup.players:
                raise RecordError(f"bad seat {seat!r}", move=i)
            if not isinstance(text, str) or len(text) > 100:
                raise RecordError('the action must be a text like "play blue-2 blue"', move=i)
            actions.append((Seat(seat), text))
        final = data.get("final_scores")
        final_scores: tuple[int, ...] | None = None
        if final is not None:
            if not isinstance(final, list) or not all(_is_int(s) for s in final):
                raise RecordError('"final_scores" must be a list of integers')
            final_scores = tuple(final)
        return cls(setup, seed, tuple(actions), final_scores)


def dumps(record: CardRecord) -> str:
    """The record as JSON text (one object, UTF-8 names kept)."""
    return json.dumps(record.to_json(), ensure_ascii=False)


__all__ = ["GAME", "CardRecord", "dumps", "is_card_record"]
