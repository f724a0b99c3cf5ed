"""Carcassonne – the card game (RULES.md §17, seed 002): a pure, deterministic engine.

Same shape as the tile engine::

    from engine.cardgame import CardSetup, new_game, legal_actions, apply, view_for

    state = new_game(CardSetup(players=3), seed=7)
    seat = min(state.awaiting)
    state = apply(state, seat, legal_actions(state, seat)[0]).state
"""

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
from engine.cardgame.rules import Transition, apply, auto_action, legal_actions, new_game, replay
from engine.cardgame.scoring import Award, CardScoreItem, best_building_sets
from engine.cardgame.sim import CardGameResult, play_random
from engine.cardgame.state import CardSetup, CardState
from engine.cardgame.text import rules_summary
from engine.cardgame.view import CardPublicView, CardSeatView, public_view, seat_view, view_for

__all__ = [
    "ANIMAL_TABLE",
    "DECK",
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
    "apply",
    "auto_action",
    "best_building_sets",
    "legal_actions",
    "new_game",
    "play_random",
    "public_view",
    "replay",
    "rules_summary",
    "seat_view",
    "state_from_json",
    "state_to_json",
    "view_for",
]
