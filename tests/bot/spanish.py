"""What "Spanish" means in the tests: a text whose words include none of the English words of
the catalogues.

Every catalogue (the engine's, the bot's, the card game's and the local table's) gives each
key an English and a Spanish text. The *English words* are every word of the English texts,
less the few words Spanish writes alike (:data:`SHARED`: "animal", "final", "no", proper
nouns). A Spanish text may not contain one. What a player types or reads as code is not
prose and is left out: ``code spans``, 'quoted notation', «names», {placeholders}, command-line
flags, identifiers with a dot, colon or slash (``tb.bonus``, ``city:N``, ``BA/L``), mentions
and links.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path

#: words Spanish writes as English does (each is Spanish too, or a name)
SHARED = frozenset(
    {
        "a",  # preposition: "a la fila"
        "animal",
        "b",  # a letter: "opción B" (Crop Circles), a list's "b)"
        "base",  # "base de datos"
        "carcabot",
        "carcassonne",
        "decide",  # "quién decide qué"
        "final",
        "jcloisterzone",  # a program's name
        "has",  # "la pieza que has colocado"
        "local",
        "min",  # minutes
        "neutral",
        "normal",  # "un seguidor normal o bien un seguidor grande" (001's turn summary)
        "portal",  # "portal mágico" (Mage & Witch)
        "total",  # "total" in the final table
        "no",
        "x",
        "y",
    }
)

_NOT_PROSE = (
    re.compile(r"<[@#]!?\d+>"),  # mentions
    re.compile(r"https?://\S+"),
    re.compile(r"`[^`]*`"),
    re.compile(r"'[^'\n]*'"),
    re.compile(r"«[^»]*»"),
    re.compile(r"\{[^}]*\}"),
    re.compile(r"(?<!\S)--?\w[\w-]*"),  # command-line flags
    re.compile(r"carcabot \w+"),
    re.compile(r"\S*[./:_\\]\S*[A-Za-z]\S*"),  # identifiers, paths, tile ids
    re.compile(r"\(s\)"),  # "carta(s)": a plural ending, in both languages
)
_WORD = re.compile(r"[A-Za-zÁÉÍÓÚÜÑáéíóúüñ]+")


def words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The prose words of ``text`` (lower case), without code, notation or player names."""
    for name in names:
        text = text.replace(name, " ")
    for pattern in _NOT_PROSE:
        text = pattern.sub(" ", text)
    return [w.lower() for w in _WORD.findall(text)]


_DUMP = """
import json
import words.i18n, words.i18n_cards, console.i18n, console.table, console.cards, words.places
import bot.ui.presenters, bot.ui.cardgame, engine.carcassonne.expansions, engine.cardgame
from engine.core import messages
print(json.dumps({
    "engine": messages.MESSAGES,
    "bot": words.i18n.TEXTS,
    "cards": words.i18n_cards.TEXTS,
    "local": console.i18n.TEXTS,
}))
"""


@cache
def catalogues() -> Mapping[str, Mapping[str, tuple[str, str]]]:
    """Every catalogue of player-facing texts, by name: read in a fresh interpreter, so the
    texts that tests register for their own toy expansions are not taken for the project's."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _DUMP], cwd=root, capture_output=True, text=True, check=True
    )
    data = json.loads(done.stdout)
    return {name: {k: (v[0], v[1]) for k, v in cat.items()} for name, cat in data.items()}


def entries() -> Iterator[tuple[str, str, str, str]]:
    """(catalogue, key, English, Spanish) for every entry."""
    for name, catalogue in catalogues().items():
        for key, (en, es) in catalogue.items():
            yield name, key, en, es


@cache
def english_words() -> frozenset[str]:
    """Every English word of the catalogues that Spanish does not write alike."""
    out: set[str] = set()
    for _, _, en, _ in entries():
        out.update(words(en))
    return frozenset(out - SHARED)


def english_in(
    text: str, names: Iterable[str] = (), english: frozenset[str] | None = None
) -> list[str]:
    """The English words of the catalogues found in ``text`` (empty: it reads Spanish)."""
    found = english if english is not None else english_words()
    return [w for w in words(text, names) if w in found]
