"""One error hierarchy for every engine failure.

Every message is written for players: the bot shows ``str(error)`` as it is.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Self

#: Longest message an error keeps; text quoted from a save or a command is cut to fit.
MAX_MESSAGE = 400


def one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` as one printable line: control and format characters escaped, cut to ``limit``.

    Error messages quote what players and saves send; a newline, an escape sequence or a
    bidirectional override in them must not break the console, a log line or a Discord message.
    """
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            out.append(ch.encode("unicode_escape").decode("ascii"))
        else:
            out.append(ch)
    line = "".join(out)
    return line if len(line) <= limit else line[: limit - 1] + "…"


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input; its message is one clean line.

    An error made with :meth:`keyed` also carries a message key and its parameters, so a front
    end shows it in the player's language (:meth:`text`); ``str(error)`` stays English.
    """

    key: str | None = None
    params: dict[str, Any]

    def __init__(self, *args: object) -> None:
        self.params = {}
        if len(args) == 1 and isinstance(args[0], str):
            super().__init__(one_line(args[0]))
        else:
            super().__init__(*args)

    @classmethod
    def keyed(cls, key: str, **params: Any) -> Self:
        """An error whose words are the catalogue text of ``key`` (engine/core/messages.py)."""
        from engine.core.messages import text

        error = cls(text(key, "en", **params))
        error.key = key
        error.params = dict(params)
        return error

    def text(self, lang: str = "en") -> str:
        """The message in ``lang``: the catalogue's words for a keyed error, else ``str(self)``."""
        if self.key is None:
            return str(self)
        from engine.core.messages import text

        return one_line(text(self.key, lang, **self.params))


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
