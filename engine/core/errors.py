"""One error hierarchy for every engine failure.

Every message is written for players: the bot shows ``str(error)`` as it is.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidActionError(EngineError):
    """The action cannot be understood (bad notation, unknown tile or spot)."""


class IllegalActionError(EngineError):
    """The action is understood but the rules do not allow it now."""


class NotYourTurnError(IllegalActionError):
    """A seat acted while the game awaits another seat."""


class StaleStateError(EngineError):
    """The action was made against an older version of the game."""


class GameOverError(IllegalActionError):
    """The game has ended; no more actions are accepted."""


class TileDataError(EngineError):
    """A tile data file is malformed; the message names the file, tile and reason."""


class RecordError(EngineError):
    """A game record or imported save cannot be replayed; names the move and the reason."""

    def __init__(self, message: str, *, move: int | None = None) -> None:
        self.move = move
        super().__init__(f"move {move}: {message}" if move is not None else message)
