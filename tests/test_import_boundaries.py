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
        "ai",
    },
    "rendering": {"discord", "aiosqlite", "bot", "storage", "ai"},
    "storage": {"discord", "PIL", "bot", "rendering", "ai"},
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


def test_the_ai_imports_the_engine_and_the_standard_library_only() -> None:
    import sys

    allowed = set(sys.stdlib_module_names) | {"engine", "ai", "__future__"}
    bad = [
        f"{path.relative_to(ROOT)} imports {sorted(_imports(path) - allowed)}"
        for path in sorted((ROOT / "ai").rglob("*.py"))
        if _imports(path) - allowed
    ]
    assert not bad, "\n".join(bad)
