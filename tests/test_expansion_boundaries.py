"""The core names no expansion (ARCHITECTURE.md decision 14), and expansions meet only through
the core's capabilities, never by importing each other.

``tests/boundaries.py`` says what counts as an expansion's concept and how code is read."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.carcassonne.expansions import BUILTIN, BUILTIN_IDS
from tests.boundaries import ROOT, concept_words, core_files, scan

REGISTRY = ROOT / "engine/carcassonne/expansions/__init__.py"


def test_the_concepts_are_known() -> None:
    words, prefixes = concept_words()
    owners = set(words.values())
    assert set(BUILTIN_IDS) <= owners, "every built expansion has concepts"
    assert {"flying_machines", "gold_mines", "ferries", "robbers"} <= owners, "and the unbuilt"
    assert ("inn",) in words and ("crop", "circle") in words and ("crop",) not in words
    assert prefixes["ic"] == "inns_cathedrals"


def test_no_core_file_names_an_expansion_or_its_concepts() -> None:
    concepts = concept_words()
    files = [p for p in core_files() if p != REGISTRY]
    hits = scan(files, concepts)
    found = "\n".join(str(h) for h in hits)
    assert not found, "expansion concepts in core code:\n" + found


def test_the_scan_sees_identifiers_and_keys_but_not_comments(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""A docstring may say inn and cathedral."""\n'
        "# so may a comment: goods, abbey\n"
        "has_inn = 1\n"
        'key = "tb.bonus"\n'
        "inner = 2\n"
        'crop_box = "crop"\n'
        "AbbeyStep = 3\n",
        encoding="utf-8",
    )
    hits = scan([sample], concept_words(), root=tmp_path)
    assert [(h.line, h.word) for h in hits] == [(3, "inn"), (4, "tb."), (7, "abbey")]


def test_each_expansion_is_one_registry_line() -> None:
    lines = REGISTRY.read_text(encoding="utf-8").splitlines()
    for cls in BUILTIN:
        naming = [line for line in lines if cls.id in line]
        assert naming == [f'    "{cls.id}",'], (cls.id, naming)
    hits = scan([REGISTRY], concept_words())
    assert {h.line for h in hits} == {
        n for n, line in enumerate(lines, 1) if line.strip().strip('",') in BUILTIN_IDS
    }


def _imported_modules(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


def test_expansions_and_overlays_never_import_another_expansion() -> None:
    problems = []
    for cls in BUILTIN:
        own = [
            *sorted((ROOT / "engine/carcassonne/expansions" / cls.id).rglob("*.py")),
            ROOT / "rendering/overlays" / f"{cls.id}.py",
        ]
        others = [i for i in BUILTIN_IDS if i != cls.id]
        for path in own:
            if not path.exists():
                continue
            for module in _imported_modules(path):
                for other in others:
                    if f"expansions.{other}" in module or f"overlays.{other}" in module:
                        problems.append(f"{path.relative_to(ROOT)} imports {module}")
    assert problems == []
