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

A parameter may itself be a :class:`Phrase` (a key with its own parameters): it is put in the
same language, so a reason can name "the north edge" or "a city" in the reader's words.

>>> register({"demo.side": ("north", "norte"), "demo.edge": ("the {side} edge", "el borde {side}")})
>>> text("demo.edge", "es", side=Phrase("demo.side"))
'el borde norte'

A tuple parameter is a list: its items (phrases or plain words) joined with commas.

A count takes the right word form with ``{n:singular|plural}``:

>>> register({"demo.goods": ("{n} {n:token|tokens}", "{n} {n:ficha|fichas}")})
>>> text("demo.goods", "en", n=1), text("demo.goods", "es", n=3)
('1 token', '3 fichas')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

#: key -> (English, Spanish)
MESSAGES: dict[str, tuple[str, str]] = {}

LANGS = ("en", "es")


class Phrase(str):
    """A catalogue text used as a value: it reads, compares and stores as its English words,
    and carries its key and parameters so a front end can put it in the reader's language.

    >>> register({"demo.tiles": ("{n} tiles", "{n} piezas")})
    >>> p = Phrase("demo.tiles", n=3)
    >>> p, p.key, p.kwargs, p.text("es")
    ('3 tiles', 'demo.tiles', {'n': 3}, '3 piezas')
    """

    key: str
    params: tuple[tuple[str, Any], ...]

    def __new__(cls, key: str, **params: Any) -> Self:
        ps = tuple(sorted(params.items()))
        try:
            hit = _PHRASES.get((cls, key, ps))
        except TypeError:  # a parameter that does not hash: not kept
            hit = None
            ps = ()
        if hit is not None:
            return hit  # type: ignore[return-value]
        obj = super().__new__(cls, text(key, "en", **params))
        obj.key = key
        obj.params = tuple(sorted(params.items()))
        if ps or not params:
            if len(_PHRASES) > 4096:
                _PHRASES.clear()
            _PHRASES[(cls, key, obj.params)] = obj
        return obj

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)

    def text(self, lang: str = "en") -> str:
        """These words in ``lang``."""
        return text(self.key, lang, **self.kwargs)

    def __reduce__(self) -> Any:
        return (_phrase, (type(self), self.key, self.params))


#: phrases already worded, by class, key and parameters (immutable values: scores and
#: prompts repeat the same few every turn, and wording one costs a template format)
_PHRASES: dict[tuple[type[Phrase], str, tuple[tuple[str, Any], ...]], Phrase] = {}


def _phrase(cls: type[Phrase], key: str, params: tuple[tuple[str, Any], ...]) -> Phrase:
    return cls(key, **dict(params))


def register(messages: Mapping[str, tuple[str, str]]) -> None:
    """Add (or replace) texts; call at import time of the module that owns the keys."""
    MESSAGES.update(messages)
    _PHRASES.clear()


def has(key: str) -> bool:
    return key in MESSAGES


def localize(value: Any, lang: str) -> Any:
    """A parameter in ``lang``: a Phrase translated, a tuple of words joined with commas."""
    if isinstance(value, Phrase):
        return value.text(lang)
    if isinstance(value, tuple):
        return ", ".join(str(localize(v, lang)) for v in value)
    return value


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
    params = {k: localize(v, lang) for k, v in params.items()}
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
