"""Carcabot's rules engine: pure standard-library Python, no I/O.

The small public API of the tile game (ARCHITECTURE.md §5.3)::

    from engine import GameSetup, new_game, legal_actions, apply, view_for
"""

from engine.carcassonne import de as _de  # noqa: F401  (the base game's German words)
from engine.carcassonne.actions import Action, Deploy, Pass, PlaceTile
from engine.carcassonne.geometry import Position, Rotation, Side
from engine.carcassonne.randomplay import play_random_game
from engine.carcassonne.record import (
    GameRecord,
    RecordedAction,
    Recorder,
    ReplayResult,
    dumps,
    loads,
    record_of,
    replay,
)
from engine.carcassonne.rules import (
    Transition,
    apply,
    legal_actions,
    legal_deploys,
    legal_placements,
    lookahead,
    new_game,
    only_pass,
    passed_empty,
    pending,
    preview,
    revealed,
)
from engine.carcassonne.state import GameSetup, GameState
from engine.carcassonne.view import PublicView, SeatView, public_view, view_for
from engine.core.decisions import Decision, Option, Prompt, Visibility
from engine.core.errors import (
    EngineError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    RecordError,
    StaleStateError,
)
from engine.core.seats import Seat

__all__ = [
    "Action",
    "Decision",
    "Option",
    "Prompt",
    "Visibility",
    "Deploy",
    "EngineError",
    "GameOverError",
    "GameRecord",
    "GameSetup",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "NotYourTurnError",
    "Pass",
    "PlaceTile",
    "Position",
    "PublicView",
    "RecordError",
    "RecordedAction",
    "Recorder",
    "ReplayResult",
    "Rotation",
    "Seat",
    "SeatView",
    "Side",
    "StaleStateError",
    "Transition",
    "apply",
    "dumps",
    "legal_actions",
    "legal_deploys",
    "legal_placements",
    "loads",
    "new_game",
    "pending",
    "preview",
    "lookahead",
    "only_pass",
    "passed_empty",
    "revealed",
    "play_random_game",
    "public_view",
    "record_of",
    "replay",
    "view_for",
]
