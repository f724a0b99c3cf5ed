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

A count takes the right word form with ``{n:singular|plural}``:

>>> register({"demo.goods": ("{n} {n:token|tokens}", "{n} {n:ficha|fichas}")})
>>> text("demo.goods", "en", n=1), text("demo.goods", "es", n=3)
('1 token', '3 fichas')
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
    counted = {k: Count(v) if type(v) is int else v for k, v in params.items()}
    try:
        return template.format(**counted)
    except (KeyError, IndexError, ValueError):
        return template


class Count(int):
    """An int parameter of a message: ``{n}`` is the number, ``{n:token|tokens}`` the word for
    that many (singular for 1 and -1, else plural); any other format spec is int's."""

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            one, _, many = spec.partition("|")
            return one if abs(int(self)) == 1 else many
        return int.__format__(int(self), spec)
