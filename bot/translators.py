"""The slash commands' names and descriptions for Discord, in every shipped language that has
them (:data:`words.i18n.NAMES`, :data:`words.i18n_cards.NAMES` ...): the one place the words meet
discord.py's ``app_commands.Translator``, so the catalogues themselves import no Discord."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from words.i18n import DESCRIPTIONS, NAMES, lang_of
from words.i18n_cards import DESCRIPTIONS as CARD_DESCRIPTIONS
from words.i18n_cards import NAMES as CARD_NAMES


class CarcTranslator(app_commands.Translator):
    """Names/descriptions for the slash commands in every shipped language that has them
    (:data:`NAMES` / :data:`DESCRIPTIONS`; Discord shows them to es-ES/es-419, de, ...)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = lang_of(locale)
        loc = context.location
        if loc in (
            app_commands.TranslationContextLocation.command_name,
            app_commands.TranslationContextLocation.group_name,
            app_commands.TranslationContextLocation.parameter_name,
        ):
            return NAMES.get(lang, {}).get(string.message)
        return DESCRIPTIONS.get(lang, {}).get(string.message)


class CardTranslator(app_commands.Translator):
    """Spanish for ``/cardgame``; everything else goes to the translator it wraps (the tile
    game's :class:`CarcTranslator`)."""

    def __init__(self, previous: app_commands.Translator | None) -> None:
        self.previous = previous

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = lang_of(locale)
        if lang in CARD_NAMES:
            loc = context.location
            names = (
                app_commands.TranslationContextLocation.command_name,
                app_commands.TranslationContextLocation.group_name,
                app_commands.TranslationContextLocation.parameter_name,
            )
            table = CARD_NAMES[lang] if loc in names else CARD_DESCRIPTIONS[lang]
            found = table.get(string.message)
            if found is not None and _is_card_command(context):
                return found
        if self.previous is None:
            return None
        return await self.previous.translate(string, locale, context)


def _is_card_command(context: app_commands.TranslationContextTypes) -> bool:
    """Whether the string belongs to ``/cardgame`` (the tile game keeps its own words)."""
    data: Any = context.data
    while data is not None:
        if getattr(data, "name", None) == "cardgame":
            return True
        data = getattr(data, "parent", None) or getattr(data, "command", None)
    return False
