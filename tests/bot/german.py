"""What "German" means in the tests: a text whose words include none of the English and none
of the Spanish words of the catalogues.

Every catalogue gives each key an English, a Spanish and a German text
(:data:`engine.core.messages.CATALOGUES`). The *foreign words* are every word of the English
and the Spanish texts, less the few words German writes alike (:data:`SHARED`: "in", "die",
"Joker", proper nouns). A German text may not contain one. What a player types or reads as
code is not prose and is left out, as in :mod:`tests.bot.spanish`: ``code spans``, 'quoted
notation', «names», {placeholders}, command-line flags, identifiers with a dot, colon or
slash, mentions and links.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path

from tests.bot.spanish import _NOT_PROSE

#: words German writes as English or Spanish does (each is German too, or a name)
SHARED = frozenset(
    {
        "a",  # the letter: "von a bis c"
        "b",  # the letter: "Option B", "z. B."
        "am",  # "am Zug"
        "an",  # "an der Zugnachricht"
        "animation",
        "bank",  # "an die Bank"
        "carcabot",
        "carcassonne",
        "diagonal",
        "die",  # the article
        "es",  # the pronoun
        "gold",
        "hand",
        "in",
        "jcloisterzone",  # a program's name
        "joker",
        "jokers",  # "Art des Jokers"
        "links",  # Discord's permission "Links einbetten"
        "min",  # minutes
        "neutral",
        "option",  # "Option A oder B" (Kornkreise)
        "per",  # "per Direktnachricht"
        "rest",
        "rosa",
        "see",  # the lake: "der See"
        "server",
        "so",
        "threads",  # Discord's permission "Nachrichten in Threads senden"
        "was",
        "west",  # "West–Ost"
        "x",
        "y",
    }
)

_WORD = re.compile(r"[A-Za-zÁÉÍÓÚÜÑáéíóúüñÄÖäöß]+")


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
import engine.cardgame.text, rendering.words, app.errors
from engine.core import messages
print(json.dumps({name: c.texts for name, c in messages.CATALOGUES.items()}))
"""


@cache
def catalogues() -> Mapping[str, Mapping[str, Mapping[str, str]]]:
    """Every catalogue by name, ``{language: {key: text}}``: read in a fresh interpreter, so
    the texts that tests register for their own toy expansions are not taken for the
    project's."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _DUMP], cwd=root, capture_output=True, text=True, check=True
    )
    data: Mapping[str, Mapping[str, Mapping[str, str]]] = json.loads(done.stdout)
    return data


def entries(lang: str = "de") -> Iterator[tuple[str, str, str]]:
    """(catalogue, key, text in ``lang``) for every entry that language has."""
    for name, texts in catalogues().items():
        for key, text in texts.get(lang, {}).items():
            yield name, key, text


@cache
def foreign_words() -> frozenset[str]:
    """Every English and Spanish word of the catalogues that German does not write alike."""
    out: set[str] = set()
    for lang in ("en", "es"):
        for _, key, text in entries(lang):
            if not key.startswith("demo."):
                out.update(words(text))
    return frozenset(out - SHARED)


def foreign_in(
    text: str, names: Iterable[str] = (), foreign: frozenset[str] | None = None
) -> list[str]:
    """The English or Spanish words of the catalogues found in ``text`` (empty: German)."""
    found = foreign if foreign is not None else foreign_words()
    return [w for w in words(text, names) if w in found]
