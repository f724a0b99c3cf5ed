"""German texts for everything the bot says (:mod:`bot.i18n`'s catalogue) and the German
slash-command names and descriptions (Discord locale ``de``).

The terms are the German rulebooks': Gefolgsleute, Wegelagerer, Ritter, Mönch, Bauer,
Landschaftskarte, Wertung, Zählleiste."""

from __future__ import annotations

#: key -> German (same keys as :data:`bot.i18n.TEXTS`)
TEXTS: dict[str, str] = {}

#: English command/option names -> German names (Discord: lower-case, ≤ 32 chars).
NAMES: dict[str, str] = {}

#: English descriptions and choice names -> German (≤ 100 chars).
DESCRIPTIONS: dict[str, str] = {}
