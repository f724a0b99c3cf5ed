"""German texts of the local table (``carcabot local --lang de``): :mod:`bot.i18n_local`'s
catalogue, and the German words a player may type for the commands."""

from __future__ import annotations

#: key -> German (same keys as :data:`bot.i18n_local.TEXTS`)
TEXTS: dict[str, str] = {}

#: German typed words -> the English command they stand for
WORDS: dict[str, str] = {}
