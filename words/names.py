"""Players' names as message text, with no Discord import: the console and the command-line
tools share the words that name seats (:mod:`words.phrases`, :mod:`words.cards`).

A name is shown as typed: what Discord would read as markdown is escaped with a backslash and
nothing else changes (``**x**`` reads ``**x**``; ``Ana María`` and ``<@1>`` stay as they are —
mentions are stopped by the messages' allowed mentions, not here).
"""

from __future__ import annotations

import re

from engine.core.errors import one_line

#: characters that are markdown anywhere in a line: emphasis, strike, spoilers, code, links
_INLINE = re.compile(r"([\\*_~|`\[\]])")
#: markdown only at the start of a line (after spaces): headings, quotes, list items
_LINE_START = re.compile(r"^(\s*)([#>\-])", re.MULTILINE)


def escape_markdown(text: str) -> str:
    """``text`` with a backslash before every character Discord would read as markdown."""
    return _LINE_START.sub(r"\1\\\2", _INLINE.sub(r"\\\1", text))


def shown_name(name: str) -> str:
    """A player's name as message text: one line of at most 100 characters, shown, never
    interpreted (the one place a name becomes message text; button and menu labels take
    names as they are, Discord does not read markdown there)."""
    return escape_markdown(one_line(name, 100))
