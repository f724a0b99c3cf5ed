"""German texts of the card game (``/cardgame``): :mod:`bot.i18n_cards`'s catalogue, its
decision words and the German slash-command names and descriptions."""

from __future__ import annotations

#: key -> German (same keys as :data:`bot.i18n_cards.TEXTS`)
TEXTS: dict[str, str] = {}

#: the decision words (same keys as :data:`bot.i18n_cards.DECISION_WORDS`)
DECISION_WORDS: dict[str, str] = {}

#: ``/cardgame`` command and option names -> German (lower-case, ≤ 32 chars).
NAMES: dict[str, str] = {}

#: ``/cardgame`` descriptions -> German (≤ 100 chars).
DESCRIPTIONS: dict[str, str] = {}
