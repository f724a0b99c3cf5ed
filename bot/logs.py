"""The bot process's logging: one console handler, and no secret in any record at any level.

:func:`setup` gives the root logger one handler (a second call, or a handler set up earlier,
never makes every line print twice) and the levels the bot wants.

:func:`install_redaction` (called by :class:`bot.app.CarcBot` and :func:`setup`) makes every
log record — of any logger, at any level, whichever handler or test capture receives it —
pass through :func:`redact` when it is made:

* ``discord.*`` records: an argument that is a payload — a gateway event, a request or
  response body, JSON text, form data, bytes — becomes a summary that keeps what helps to
  debug (gateway op, event name, sequence, the object's id and type; a body's keys and size)
  and drops the contents. At DEBUG discord.py logs every incoming event and every request in
  full: a card-game hand is the content of a DM, the card chosen is a select value, the
  interaction carries the hand message it was clicked on.
* ``aiosqlite`` records: the SQL call's parameters are dropped (the log row of a face-down
  play names the card).
* every record: the bot's component custom ids are cut to ``prefix:match:…`` (a decision's
  path or a row button names what was chosen), and the interaction or webhook token in a URL
  (a 15-minute credential) is replaced — in the message, its arguments and the traceback.

The token itself never reaches discord.py's log: discord.py sends it in a header it does not
log.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import traceback
from collections.abc import Callable, Mapping
from typing import Any

#: the bot's component custom-id prefixes (bot/ui/components.py, bot/ui/cardgame.py)
CUSTOM_ID = re.compile(
    r"\b(carcds|carcd|carcs|carcm|carc|cardds|cardd|cardgs|cardg):(\d+)((?::[^\s:'\",)}\]>]*)+)"
)
#: an interaction or webhook token in a URL path
TOKEN_URL = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s'\"?]+")
#: the loggers whose arguments are redacted structurally (payloads become summaries)
PAYLOAD_LOGGERS = ("discord", "aiosqlite")
#: gateway event fields kept in a summary (ids and kinds, never contents)
KEPT_FIELDS = ("id", "type", "component_type", "guild_id", "channel_id")

_MARK = "__carcabot_redaction__"


def redact_text(text: str) -> str:
    """``text`` with the bot's custom ids cut to their match and URL tokens replaced."""
    text = CUSTOM_ID.sub(r"\1:\2:…", text)
    return TOKEN_URL.sub(r"\1<token>", text)


def summary(value: Any) -> Any:
    """What a discord.py log argument may show of itself (see the module docstring)."""
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, Mapping):
        if "op" in value and ("d" in value or "t" in value):  # a gateway frame
            return (
                f"{{op: {value.get('op')}, t: {value.get('t')}, s: {value.get('s')}, "
                f"d: {_fields(value.get('d'))}}}"
            )
        return _fields(value)
    if isinstance(value, list | tuple):
        return f"<{len(value)} items, contents not logged>"
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(value)} bytes, not logged>"
    if isinstance(value, str):
        stripped = value.lstrip()
        if stripped.startswith(("{", "[")):
            try:
                return summary(json.loads(value))
            except ValueError:
                return f"<{len(value)} characters of a body, not logged>"
        return redact_text(value)
    if type(value).__name__ == "FormData":
        return "<form data, not logged>"
    if isinstance(value, functools.partial):
        return f"<call of {getattr(value.func, '__name__', 'a function')}, arguments not logged>"
    return redact_text(str(value))


def _fields(value: Any) -> str:
    if not isinstance(value, Mapping):
        return f"<{type(value).__name__}>" if value is not None else "None"
    kept = {k: value[k] for k in KEPT_FIELDS if isinstance(value.get(k), int | str)}
    hidden = sorted(str(k) for k in value if k not in kept)
    shown = ", ".join(f"{k}: {v}" for k, v in kept.items())
    rest = f"{len(hidden)} more fields not logged ({', '.join(hidden[:12])})" if hidden else ""
    return "{" + ", ".join(x for x in (shown, rest) if x) + "}"


def _payload_logger(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in PAYLOAD_LOGGERS)


def redact(record: logging.LogRecord) -> logging.LogRecord:
    """Make ``record`` safe to write anywhere (see the module docstring); returns it."""
    try:
        if record.args and _payload_logger(record.name):
            args = record.args
            if isinstance(args, Mapping):
                record.args = {k: summary(v) for k, v in args.items()}
            else:
                record.args = tuple(summary(a) for a in args)
        if not isinstance(record.msg, str) and _payload_logger(record.name):
            record.msg = str(summary(record.msg))
        message = record.getMessage()
    except Exception:  # a message that cannot be formatted: show its template only
        message = f"{record.msg!s} (arguments not logged)"
    record.msg = redact_text(message)
    record.args = None
    if record.exc_info and not record.exc_text:
        record.exc_text = redact_text("".join(traceback.format_exception(*record.exc_info)))
        record.exc_text = record.exc_text.rstrip("\n")
    if record.stack_info:
        record.stack_info = redact_text(record.stack_info)
    return record


def install_redaction() -> None:
    """Pass every log record made from now on through :func:`redact` (idempotent)."""
    current: Callable[..., logging.LogRecord] = logging.getLogRecordFactory()
    if getattr(current, _MARK, False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return redact(current(*args, **kwargs))

    setattr(factory, _MARK, True)
    logging.setLogRecordFactory(factory)


#: what marks the console handler :func:`setup` made
_HANDLER_NAME = "carcabot-console"
_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
_DATE = "%Y-%m-%d %H:%M:%S"


class RedactingFormatter(logging.Formatter):
    """Formats with ``inner`` and redacts the whole text, traceback included (a formatter
    that recomputes the traceback from the exception, as discord.py's colour one does, would
    otherwise show it unredacted)."""

    def __init__(self, inner: logging.Formatter) -> None:
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        return redact_text(self.inner.format(record))


class OneLineReconnect(logging.Filter):
    """discord.py logs a whole traceback each time it retries a lost connection; the reason
    in one line says as much (the network is down, Discord is not answering)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Attempting a reconnect"):
            error = record.exc_info[1]
            record.msg = f"{record.msg} ({type(error).__name__}: {error})"
            record.exc_info = None
            record.exc_text = None
        return True


#: Discord's "Unknown interaction": the interaction was answered too late (after 3 s)
UNKNOWN_INTERACTION = 10062


class OneLineLateAutocomplete(logging.Filter):
    """discord.py logs a whole traceback at ERROR when an autocomplete's choices reach Discord
    after its 3 s (404 "Unknown interaction", 10062): on a bot past its capacity that is a
    known, harmless outcome (the player's client shows no choices and they type again), so it
    becomes one warning line. Any other autocomplete failure keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if (
            str(record.msg).startswith("Ignoring exception in autocomplete")
            and getattr(error, "code", None) == UNKNOWN_INTERACTION
        ):
            record.msg = f"{record.msg}: answered after Discord's 3 s (10062)"
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = None
            record.exc_text = None
        return True


def setup(level: int) -> None:
    """One console handler on the root logger at ``level`` (calling this again replaces it,
    so no line ever prints twice), discord.http at WARNING, aiosqlite at INFO, redaction on;
    colours as discord.py's own when the console shows them."""
    import discord

    install_redaction()
    root = logging.getLogger()
    for handler in list(root.handlers):
        if handler.get_name() == _HANDLER_NAME:
            root.removeHandler(handler)
    handler = logging.StreamHandler()
    inner: logging.Formatter
    if discord.utils.stream_supports_colour(handler.stream):
        inner = discord.utils._ColourFormatter()
    else:
        inner = logging.Formatter(_FORMAT, _DATE, style="{")
    handler.setFormatter(RedactingFormatter(inner))
    handler.set_name(_HANDLER_NAME)
    root.addHandler(handler)
    root.setLevel(level)
    client = logging.getLogger("discord.client")
    if not any(isinstance(f, OneLineReconnect) for f in client.filters):
        client.addFilter(OneLineReconnect())
    tree = logging.getLogger("discord.app_commands.tree")
    if not any(isinstance(f, OneLineLateAutocomplete) for f in tree.filters):
        tree.addFilter(OneLineLateAutocomplete())
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    # aiosqlite logs every statement with its parameters at DEBUG: useless noise, and
    # redacted anyway (a card-game action row names a face-down card)
    logging.getLogger("aiosqlite").setLevel(logging.INFO)
