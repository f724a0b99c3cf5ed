"""Every key of every catalogue exists in every shipped language (issue 29), with the same
placeholders as its English; the slash commands have a name and a description in every
language that localises them.

The catalogues are read in a fresh interpreter (as :mod:`tests.bot.spanish` does), so the
texts tests register for their own toy expansions are not taken for the project's."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path

_DUMP = """
import json
import words.i18n, words.i18n_cards, console.i18n, console.table, console.cards, words.places
import bot.ui.presenters, bot.ui.cardgame, engine.carcassonne.expansions, engine.cardgame
import engine.cardgame.text, rendering.words, app.errors
from engine.core import messages
print(json.dumps({
    "langs": messages.LANGS,
    "catalogues": {name: c.texts for name, c in messages.CATALOGUES.items()},
    "commands": {
        "tiles": {
            lang.value: [sorted(words.i18n.NAMES[lang]), sorted(words.i18n.DESCRIPTIONS[lang])]
            for lang in words.i18n.NAMES
        },
        "cards": {
            lang.value: [
                sorted(words.i18n_cards.NAMES[lang]), sorted(words.i18n_cards.DESCRIPTIONS[lang])
            ]
            for lang in words.i18n_cards.NAMES
        },
    },
}))
"""
_PLACEHOLDER = re.compile(r"\{(\w+)")


@cache
def _dump() -> Mapping[str, object]:
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", _DUMP], cwd=root, capture_output=True, text=True, check=True
    )
    data: Mapping[str, object] = json.loads(done.stdout)
    return data


def _catalogues() -> Mapping[str, Mapping[str, Mapping[str, str]]]:
    cats = _dump()["catalogues"]
    assert isinstance(cats, dict)
    return cats


def _langs() -> list[str]:
    langs = _dump()["langs"]
    assert isinstance(langs, list)
    return langs


def test_the_shipped_languages_are_english_spanish_and_german() -> None:
    assert _langs() == ["en", "es", "de"]
    assert {"engine", "bot", "cards", "local", "cardgame.rules"} <= set(_catalogues())


def test_every_key_exists_in_every_shipped_language_of_every_catalogue() -> None:
    """Fails listing, per catalogue and language, the keys English has and it lacks."""
    problems = []
    for name, texts in sorted(_catalogues().items()):
        english = texts["en"]
        for lang in _langs():
            have = texts.get(lang, {})
            missing = sorted(k for k in english if k not in have and not k.startswith("demo."))
            if missing:
                problems.append(f"{name} [{lang}] lacks {len(missing)}: " + ", ".join(missing))
            extra = sorted(k for k in have if k not in english)
            if extra:
                problems.append(f"{name} [{lang}] has keys English lacks: " + ", ".join(extra))
    assert not problems, "\n".join(problems)


def test_every_translation_keeps_the_placeholders_of_its_english() -> None:
    problems = []
    for name, texts in sorted(_catalogues().items()):
        for lang in _langs():
            for key, text in texts.get(lang, {}).items():
                en = texts["en"].get(key, "")
                if set(_PLACEHOLDER.findall(en)) != set(_PLACEHOLDER.findall(text)):
                    problems.append(f"{name} [{lang}] {key}: {en!r} / {text!r}")
                if not text.strip():
                    problems.append(f"{name} [{lang}] {key}: empty")
    assert not problems, "\n".join(problems)


def test_every_localised_language_names_and_describes_every_slash_command() -> None:
    commands = _dump()["commands"]
    assert isinstance(commands, dict)
    problems = []
    for game, by_lang in commands.items():
        assert set(by_lang) == {"es", "de"}, game
        spanish = by_lang["es"]
        for lang, tables in by_lang.items():
            for what, table, reference in zip(
                ("names", "descriptions"), tables, spanish, strict=True
            ):
                missing = sorted(set(reference) - set(table))
                if missing:
                    problems.append(f"{game} {what} [{lang}] lacks: " + ", ".join(missing))
    assert not problems, "\n".join(problems)
