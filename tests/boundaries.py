"""Which words name an expansion's concepts, and where core code uses them (ARCHITECTURE.md
decision 14: the core names no expansion and no expansion's concept).

An expansion's words are its id, the prefixes of its option keys and step ids (``ic`` of
``ic.inns``), its figure kinds, the symbol keys its tile files declare and the ``concepts`` it
lists. A tile file that no registered expansion reads (an expansion still to build) gives its
set id and symbol keys. Core code is scanned token by token: identifiers and string literals
count, comments and docstrings do not. An identifier is split into its words (``snake_case``,
``camelCase``, dots), so ``has_inn`` and ``"tile.inn"`` name the inn and ``inner`` does not.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the layers whose code is core, and the places inside them that belong to one expansion
CORE = ("engine", "bot", "rendering", "storage", "ai")


@dataclass(frozen=True, slots=True)
class Hit:
    path: str
    line: int
    word: str
    owner: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: '{self.word}' ({self.owner}) in {self.text!r}"


def _words_of(text: str) -> tuple[str, ...]:
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)
    return tuple(w for w in re.split(r"[^a-z0-9]+", text.lower()) if w)


#: figure kinds that are everyday words (the large follower): a size, not a concept
GENERIC = frozenset({"large"})
#: a key such as ``ic.inns`` or ``tb.bonus``: its prefix names the expansion
_KEY = re.compile(r"""^[rbfu]*['"]([a-z0-9_]+)\.[a-z0-9_.{}]""")

Concepts = tuple[dict[tuple[str, ...], str], dict[str, str]]


def concept_words() -> Concepts:
    """Each concept (as its tuple of words) -> the expansion or tile set it belongs to, and each
    key prefix (``ic`` of the option ``ic.inns``) -> its expansion."""
    from engine.carcassonne.registry import all_expansions
    from engine.carcassonne.state import GameSetup
    from engine.carcassonne.tiles import tile_sets

    out: dict[tuple[str, ...], str] = {}

    def add(owner: str, words: Iterable[str]) -> None:
        for w in words:
            key = _words_of(w)
            if key:
                out.setdefault(key, owner)

    prefixes: dict[str, str] = {}
    claimed: set[str] = set()
    sets = {s.id: s for s in tile_sets()}
    for cls in all_expansions():
        if cls.id.startswith("test_") or cls.id == "oracle":
            continue
        add(cls.id, (cls.id, *cls.concepts))
        add(cls.id, (f.kind for f in cls.figure_specs if f.kind not in GENERIC))
        steps = cls(GameSetup(players=2, expansions=(cls.id,))).steps()
        for key in (*(o.key for o in cls.options), *(spec.step.id for spec in steps)):
            if "." in key:
                prefixes[key.partition(".")[0]] = cls.id
        for set_id in cls.tile_sets:
            claimed.add(set_id)
            if set_id in sets:
                add(cls.id, (sym.key for sym in sets[set_id].symbols))
    for s in sets.values():
        if s.id != "base" and s.id not in claimed:
            add(s.id, (s.id, *(sym.key for sym in s.symbols)))
    return out, prefixes


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                end = body[0].end_lineno or body[0].lineno
                lines.update(range(body[0].lineno, end + 1))
    return lines


def _tokens(source: str) -> Iterator[tuple[int, str]]:
    docs = _docstring_lines(ast.parse(source))
    kinds = {tokenize.NAME, tokenize.STRING}
    fstring_middle = getattr(tokenize, "FSTRING_MIDDLE", None)
    if fstring_middle is not None:
        kinds.add(fstring_middle)
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in kinds and tok.start[0] not in docs:
            yield tok.start[0], tok.string


def scan(files: Iterable[Path], concepts: Concepts, root: Path = ROOT) -> list[Hit]:
    """Every use of a concept in ``files`` (plural forms ``-s``/``-es`` count too), and every
    string key with an expansion's prefix."""
    words_of, prefixes = concepts
    concepts_by_words = words_of
    firsts: dict[str, list[tuple[str, ...]]] = {}
    for key in concepts_by_words:
        firsts.setdefault(key[0], []).append(key)
    hits = []
    for path in files:
        rel = path.relative_to(root).as_posix()
        for line, text in _tokens(path.read_text(encoding="utf-8")):
            m = _KEY.match(text)
            if m and m.group(1) in prefixes:
                hits.append(Hit(rel, line, m.group(1) + ".", prefixes[m.group(1)], text[:60]))
            words = _words_of(text)
            for i, w in enumerate(words):
                stems = {w, w[:-1] if w.endswith("s") else w, w[:-2] if w.endswith("es") else w}
                for stem in stems:
                    for key in firsts.get(stem, ()):
                        if words[i + 1 : i + len(key)] == key[1:]:
                            owner = concepts_by_words[key]
                            hits.append(Hit(rel, line, "_".join(key), owner, text[:60]))
    return hits


def core_files(root: Path = ROOT) -> list[Path]:
    """The Python files of the core: every layer but the expansions' packages and overlays."""
    out = []
    for layer in CORE:
        for path in sorted((root / layer).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel.startswith("engine/carcassonne/expansions/") and rel.count("/") > 3:
                continue  # an expansion's own package
            if rel.startswith("rendering/overlays/") and path.name != "__init__.py":
                continue  # an expansion's overlay
            out.append(path)
    return out
