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

Every catalogue is keyed by language (:class:`Catalogue`), English the fallback: pairs fill
"en" and "es", and one language's texts come with :func:`register_lang`. A language code may
be a locale (``de-DE``, ``es-419``) or a ``Lang``; a text missing in it reads English.

>>> register_lang("de", {"demo.hello": "Hallo {name}"})
>>> text("demo.hello", "de-DE", name="Ana"), text("demo.side", "de")
('Hallo Ana', 'north')
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Self

#: the languages shipped: every key of every catalogue exists in each (one test checks it)
LANGS = ("en", "es", "de")


@lru_cache(maxsize=64)
def lang_code(lang: object) -> str:
    """``"de"`` for ``"de"``, ``"de-DE"``, ``"DE_at"`` or a ``Lang`` whose value is ``"de"``."""
    value = str(getattr(lang, "value", lang)).lower()
    return value.replace("_", "-").split("-", 1)[0]


class Catalogue:
    """Texts keyed by language: ``{language: {key: text}}``, English the fallback.

    ``register`` takes ``{key: (English, Spanish)}`` pairs (the way every module has always
    registered its words); ``register_lang`` one language's ``{key: text}``. Every catalogue
    is listed in :data:`CATALOGUES` under its name, for the test that every key exists in
    every shipped language."""

    def __init__(self, name: str, pairs: Mapping[str, tuple[str, str]] | None = None) -> None:
        self.name = name
        self.texts: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
        CATALOGUES[name] = self
        if pairs:
            self.register(pairs)

    def register(self, pairs: Mapping[str, tuple[str, str]]) -> None:
        en, es = self.texts["en"], self.texts["es"]
        for key, (en_text, es_text) in pairs.items():
            en[key] = en_text
            es[key] = es_text

    def register_lang(self, lang: str, texts: Mapping[str, str]) -> None:
        self.texts.setdefault(lang_code(lang), {}).update(texts)

    def __contains__(self, key: object) -> bool:
        return key in self.texts["en"]

    def template(self, key: str, lang: object = "en") -> str | None:
        """The raw text of ``key`` in ``lang`` (English when that language lacks it)."""
        found = self.texts.get(lang_code(lang), {}).get(key)
        return found if found is not None else self.texts["en"].get(key)

    def missing(self, lang: str) -> list[str]:
        """The keys English has and ``lang`` lacks, sorted."""
        have = self.texts.get(lang_code(lang), {})
        return sorted(k for k in self.texts["en"] if k not in have)

    def fill(self, key: str, lang: object, params: Mapping[str, Any]) -> str | None:
        """``key``'s text in ``lang`` with ``params`` filled in; None for an unknown key."""
        template = self.template(key, lang)
        if template is None:
            return None
        return fill(template, lang, params)


#: every catalogue by name (the engine's, the bot's, the card game's, ...)
CATALOGUES: dict[str, Catalogue] = {}

#: the engine's catalogue: rules, expansions, pictures' words
ENGINE = Catalogue("engine")

#: key -> (English, Spanish), as registered (kept for readers of the pairs)
MESSAGES: dict[str, tuple[str, str]] = {}


def fill(template: str, lang: object, params: Mapping[str, Any]) -> str:
    """``template`` with ``params`` put in ``lang`` (phrases translated, counts worded)."""
    if not params:
        return template
    code = lang_code(lang)
    values = {k: localize(v, code) for k, v in params.items()}
    counted = {k: Count(v) if type(v) is int else v for k, v in values.items()}
    try:
        return template.format(**counted)
    except (KeyError, IndexError, ValueError):
        return template


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
    """Add (or replace) ``{key: (English, Spanish)}`` texts; call at import time of the
    module that owns the keys."""
    MESSAGES.update(messages)
    ENGINE.register(messages)
    _PHRASES.clear()


def register_lang(lang: str, texts: Mapping[str, str]) -> None:
    """Add (or replace) one language's ``{key: text}`` (e.g. ``register_lang("de", {...})``)."""
    ENGINE.register_lang(lang, texts)
    _PHRASES.clear()


def has(key: str) -> bool:
    return key in ENGINE


def localize(value: Any, lang: str) -> Any:
    """A parameter in ``lang``: a Phrase translated, a tuple of words joined with commas."""
    if isinstance(value, Phrase):
        return value.text(lang)
    if isinstance(value, tuple):
        return ", ".join(str(localize(v, lang)) for v in value)
    return value


def text(key: str, lang: str = "en", **params: Any) -> str:
    """The text of ``key`` in ``lang`` (``"en"``/``"es"``/``"de"``, English the fallback)
    with ``params`` filled in.

    Unknown keys come back as the key itself, and a template whose parameters are missing
    comes back unfilled, so a front end never fails on a message."""
    template = ENGINE.template(key, lang)
    if template is None:
        return key
    return fill(template, lang, params)


class Count(int):
    """An int parameter of a message: ``{n}`` is the number, ``{n:token|tokens}`` the word for
    that many (singular for 1 and -1, else plural); any other format spec is int's."""

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            one, _, many = spec.partition("|")
            return one if abs(int(self)) == 1 else many
        return int.__format__(int(self), spec)
