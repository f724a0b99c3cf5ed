"""The engine's message catalogue: the words behind prompt keys, event keys and score parts.

The engine never puts player-facing prose into a decision or an event: it names a key and its
parameters (:class:`engine.core.decisions.Prompt`). Each rules module and each expansion
registers the English and Spanish text of its own keys here, so a front end can show a
decision or an event of an expansion it has never heard of; the bot's own catalogue only adds
its interface words.

>>> register({"demo.hello": ("Hello {name}", "Hola {name}")})
>>> text("demo.hello", "es", name="Ana")
'Hola Ana'
>>> text("no.such.key", "en")
'no.such.key'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: key -> (English, Spanish)
MESSAGES: dict[str, tuple[str, str]] = {}

LANGS = ("en", "es")


def register(messages: Mapping[str, tuple[str, str]]) -> None:
    """Add (or replace) texts; call at import time of the module that owns the keys."""
    MESSAGES.update(messages)


def has(key: str) -> bool:
    return key in MESSAGES


def text(key: str, lang: str = "en", **params: Any) -> str:
    """The text of ``key`` in ``lang`` (``"en"``/``"es"``) with ``params`` filled in.

    Unknown keys come back as the key itself, and a template whose parameters are missing
    comes back unfilled, so a front end never fails on a message."""
    pair = MESSAGES.get(key)
    if pair is None:
        return key
    template = pair[1] if str(lang).lower().startswith("es") else pair[0]
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template
