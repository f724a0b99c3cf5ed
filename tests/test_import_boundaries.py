"""ARCHITECTURE.md decision 1: the engine imports only the standard library, and the lower
layers never import the bot; the AI players (``ai/``) import the engine and nothing else."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "engine": {
        "discord",
        "PIL",
        "aiosqlite",
        "asyncpg",
        "asyncio",
        "sqlite3",
        "socket",
        "bot",
        "rendering",
        "storage",
        "app",
        "console",
        "cli",
        "ai",
    },
    "rendering": {"discord", "aiosqlite", "bot", "storage", "app", "console", "cli", "ai"},
    # the application layer under every front end knows none of them (ARCHITECTURE.md 15)
    "app": {"discord", "bot", "console", "cli", "PIL", "words"},
    "console": {"discord", "bot"},
    # the words every front end shares import no front end
    "words": {"discord", "bot", "console", "cli"},
    "storage": {"discord", "PIL", "bot", "rendering", "app", "console", "cli", "ai"},
    "ai": {
        "discord",
        "PIL",
        "aiosqlite",
        "asyncpg",
        "asyncio",
        "sqlite3",
        "socket",
        "bot",
        "rendering",
        "storage",
        "app",
        "words",
        "console",
        "cli",
    },
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def test_layers_import_only_what_they_may() -> None:
    bad = []
    for layer, forbidden in FORBIDDEN.items():
        for path in sorted((ROOT / layer).rglob("*.py")):
            hit = _imports(path) & forbidden
            if hit:
                bad.append(f"{path.relative_to(ROOT)} imports {sorted(hit)}")
    assert not bad, "\n".join(bad)


def test_the_check_would_catch_a_violation(tmp_path: Path) -> None:
    f = tmp_path / "x.py"
    f.write_text("import discord\nfrom PIL import Image\n")
    assert {"discord", "PIL"} <= _imports(f)


def test_the_console_and_the_tools_start_without_discord() -> None:
    """The local table and the command-line tools load no Discord library (the words they
    share with the bot import none): a newcomer's ``carcabot local`` starts faster, and a
    front end never leans on another's."""
    import subprocess
    import sys

    code = (
        "import sys, console.table, console.cards, cli.main, cli.replay, cli.simulate\n"
        "print(sorted(m for m in sys.modules if m == 'discord' or m.startswith('discord.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]", out.stdout


def test_the_ai_imports_the_engine_and_the_standard_library_only() -> None:
    import sys

    allowed = set(sys.stdlib_module_names) | {"engine", "ai", "__future__"}
    bad = [
        f"{path.relative_to(ROOT)} imports {sorted(_imports(path) - allowed)}"
        for path in sorted((ROOT / "ai").rglob("*.py"))
        if _imports(path) - allowed
    ]
    assert not bad, "\n".join(bad)
