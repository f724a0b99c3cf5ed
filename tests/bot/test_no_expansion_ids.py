"""The bot knows no expansion by name (ARCHITECTURE.md decision 11): no registered expansion id
appears in any file under ``bot/``. Expansions reach the bot only through the engine's
registry, events' prompts and the message catalogue."""

from __future__ import annotations

import re
from pathlib import Path

from engine.carcassonne.registry import all_expansions

BOT = Path(__file__).resolve().parents[2] / "bot"


def test_the_bot_names_no_expansion() -> None:
    ids = [cls.id for cls in all_expansions()]
    assert ids, "the registry lists the expansions"
    pattern = re.compile("|".join(re.escape(i) for i in ids))
    files = [p for p in BOT.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert any(p.name == "presenters.py" for p in files), "the bot's sources were found"
    found = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), start=1):
            if pattern.search(line):
                found.append(f"{path.relative_to(BOT.parent)}:{n}: {line.strip()}")
    assert not found, "expansion ids in bot/:\n" + "\n".join(found)
