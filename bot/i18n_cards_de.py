"""German texts of the card game (``/cardgame``): :mod:`bot.i18n_cards`'s catalogue, its
decision words and the German slash-command names and descriptions."""

from __future__ import annotations

#: key -> German (same keys as :data:`bot.i18n_cards.TEXTS`)
TEXTS: dict[str, str] = {}

#: the decision words (same keys as :data:`bot.i18n_cards.DECISION_WORDS`)
DECISION_WORDS: dict[str, str] = {
    "open.cards.play": "Karte spielen",
    "open.cards.follower": "Meinen Gefolgsmann stellen",
    "open.cards.lay_joker": "Joker auslegen",
    "open.cards.wrong_row": "Behalten oder kassieren",
    "open.cards.joker": "Art des Jokers",
    "facet.card": "Karte",
    "facet.row": "Reihe",
    "facet.choice": "Wahl",
    "facet.kind": "Art",
    "facet.choice.keep": "behalten",
    "facet.choice.cash": "für 10 kassieren",
    "facet.row.yellow": "🟨 Kloster",
    "facet.row.red": "🟥 Straße",
    "facet.row.green": "🟩 Wiese",
    "facet.row.blue": "🟦 Stadt",
    "cards.typed": "{name} (`{code}`)",
}

#: ``/cardgame`` command and option names -> German (lower-case, ≤ 32 chars).
NAMES: dict[str, str] = {}

#: ``/cardgame`` descriptions -> German (≤ 100 chars).
DESCRIPTIONS: dict[str, str] = {}
