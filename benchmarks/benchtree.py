"""Which checkout a benchmark measures: ``--tree PATH`` (e.g. main before a change), else this
one. Imported first by a benchmark script, before any project module.

Run as a script, a benchmark has this folder first on ``sys.path``, where ``engine.py`` would
shadow the ``engine`` package: :func:`use_tree` puts the chosen checkout first and this folder
out of the way.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def chosen_tree(argv: list[str] | None = None) -> Path:
    """The checkout ``--tree`` names in ``argv`` (``sys.argv``), else this one."""
    args = sys.argv if argv is None else argv
    if "--tree" in args:
        return Path(args[args.index("--tree") + 1]).resolve()
    return ROOT


def use_tree(argv: list[str] | None = None) -> Path:
    """Import the project from :func:`chosen_tree`; returns it."""
    tree = chosen_tree(argv)
    sys.path[:] = [str(tree)] + [
        p for p in sys.path if Path(p or ".").resolve() not in (ROOT / "benchmarks", tree)
    ]
    return tree
