"""Carcassonne – the card game (RULES.md §17, seed 002): a pure, deterministic engine.

Same shape as the tile engine::

    from engine.cardgame import CardSetup, new_game, legal_actions, apply, view_for

    state = new_game(CardSetup(players=3), seed=7)
    seat = min(state.awaiting)
    state = apply(state, seat, legal_actions(state, seat)[0]).state

Its choices are published as game-agnostic decisions (``engine.core.decisions``), as the tile
game's are: :func:`pending` lists every open one, and :func:`answer` applies an answer to one
by its key, refusing a key that is no longer open::

    d = pending(state)[0]
    state = answer(state, d.seat, d.key, d.options[0].action).state
"""

from engine.cardgame import de as _de  # noqa: F401  (the card game's German words)
from engine.cardgame.actions import (
    AssignJoker,
    CardAction,
    ChooseWrongRow,
    LayJoker,
    PlaceFollower,
    PlayCard,
)
from engine.cardgame.cards import ANIMAL_TABLE, DECK, CardFace, CardType, Colour, animal_points
from engine.cardgame.codec import state_from_json, state_to_json
from engine.cardgame.decisions import (
    KIND_FOLLOWER,
    KIND_JOKER,
    KIND_LAY_JOKER,
    KIND_PLAY,
    KIND_WRONG_ROW,
    KINDS,
    pending,
    seat_pending,
)
from engine.cardgame.rules import (
    Transition,
    answer,
    apply,
    auto_action,
    legal_actions,
    new_game,
    replay,
)
from engine.cardgame.scoring import Award, CardScoreItem, best_building_sets
from engine.cardgame.sim import CardGameResult, play_random
from engine.cardgame.state import CardSetup, CardState
from engine.cardgame.text import rules_summary
from engine.cardgame.view import CardPublicView, CardSeatView, public_view, seat_view, view_for

__all__ = [
    "ANIMAL_TABLE",
    "DECK",
    "KINDS",
    "KIND_FOLLOWER",
    "KIND_JOKER",
    "KIND_LAY_JOKER",
    "KIND_PLAY",
    "KIND_WRONG_ROW",
    "AssignJoker",
    "Award",
    "CardAction",
    "CardFace",
    "CardGameResult",
    "CardPublicView",
    "CardScoreItem",
    "CardSeatView",
    "CardSetup",
    "CardState",
    "CardType",
    "ChooseWrongRow",
    "Colour",
    "LayJoker",
    "PlaceFollower",
    "PlayCard",
    "Transition",
    "animal_points",
    "answer",
    "apply",
    "auto_action",
    "best_building_sets",
    "legal_actions",
    "new_game",
    "pending",
    "play_random",
    "public_view",
    "replay",
    "rules_summary",
    "seat_pending",
    "seat_view",
    "state_from_json",
    "state_to_json",
    "view_for",
]
