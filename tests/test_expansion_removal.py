"""Deleting an expansion leaves a program that works without it (ARCHITECTURE.md decision 14).

For each built-in expansion, a copy of the tree loses its package, its overlay, its tile files
and its registry line; in that copy random games with the remaining expansions play to the end,
a JCloisterZone base game replays to JCloisterZone's scores and its final board is drawn, and
a person at the local table plays the first turns of a match with the rest through the match
service, SQLite and the pictures (a whole match through the table would cost a board picture
per turn and the replay animation, eleven times; the random games play whole ones)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from engine.carcassonne.expansion import Expansion
from engine.carcassonne.expansions import BUILTIN
from engine.carcassonne.expansions import __file__ as registry_file

ROOT = Path(__file__).resolve().parents[1]
SAVE = ROOT / "tests/fixtures/jcz/random/base-2p-02.jcz"
EXPECTED = json.loads((SAVE.parent / "expected.json").read_text())["base-2p-02.jcz"]["scores"]
_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".venv", ".git", "tests")


def _copy_without(tmp: Path, expansion_id: str, tile_sets: tuple[str, ...]) -> Path:
    tree = tmp / "tree"
    for layer in ("engine", "ai", "app", "bot", "console", "cli", "rendering", "storage"):
        shutil.copytree(ROOT / layer, tree / layer, ignore=_IGNORE)
    shutil.rmtree(tree / "engine/carcassonne/expansions" / expansion_id)
    (tree / "rendering/overlays" / f"{expansion_id}.py").unlink(missing_ok=True)
    for set_id in tile_sets:
        (tree / "engine/carcassonne/data/tiles" / f"{set_id}.toml").unlink()
    registry = tree / "engine/carcassonne/expansions/__init__.py"
    lines = registry.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if line.strip() != f'"{expansion_id}",']
    assert len(kept) == len(lines) - 1, "the expansion is one registry line"
    registry.write_text("".join(kept), encoding="utf-8")
    return tree


def _run(tree: Path, *args: str, stdin: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "PYTHONPATH")}
    done = subprocess.run(
        [sys.executable, *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        input=stdin,
    )
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


_CHECK = """
import pathlib, sys
import engine, rendering, storage, bot, app, console, cli
here = pathlib.Path.cwd()
for m in (engine, rendering, storage, bot, app, console, cli):
    assert pathlib.Path(m.__file__).resolve().is_relative_to(here), m.__file__
from engine.carcassonne.registry import all_expansions
from engine.carcassonne.tiles import all_tiles, tile_sets
ids = [c.id for c in all_expansions()]
gone = sys.argv[1]
assert gone not in ids, ids
assert all(t.set_id not in sys.argv[2:] for t in all_tiles().values())
import bot.app, bot.cogs.carcassonne, bot.cogs.turns, rendering.overlays
from rendering.warm import warm_up
warm_up(faces=False)
print(",".join(ids))
"""


def test_the_program_works_without_each_expansion(tmp_path: Path) -> None:
    """Every built-in expansion removed in turn, two removals at a time (each is its own tree
    and its own processes: the checks of one never see another's)."""
    assert Path(registry_file).resolve().is_relative_to(ROOT)
    workers = max(2, min(4, os.cpu_count() or 2))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        done = {pool.submit(_works_without, cls, tmp_path / cls.id): cls.id for cls in BUILTIN}
        failed = []
        for future, expansion_id in done.items():
            try:
                future.result()
            except AssertionError as e:
                failed.append(f"without {expansion_id}: {e}")
    assert not failed, "\n\n".join(failed)


def _works_without(cls: type[Expansion], tmp_path: Path) -> None:
    tmp_path.mkdir(parents=True)
    tree = _copy_without(tmp_path, cls.id, cls.tile_sets)
    rest = _run(tree, "-c", _CHECK, cls.id, *cls.tile_sets).strip().split(",")
    assert sorted(rest) == sorted(c.id for c in BUILTIN if c is not cls)

    games = json.loads(
        _run(
            tree,
            "-m",
            "cli",
            "simulate",
            "--games",
            "3",
            "--players",
            "3",
            "--expansions",
            *rest,
            "--json",
        )
    )
    assert len(games["games"]) == 3
    assert all(g["placed"] > 70 for g in games["games"]), games

    png = tmp_path / "final.png"
    replay = json.loads(_run(tree, "-m", "cli", "replay", "--json", "--png", str(png), str(SAVE)))
    assert replay["scores"] == EXPECTED and replay["over"] is True
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000

    # four turns of a person (the first cell and rotation, no figure), then the input ends:
    # the match is stored and every board so far was drawn
    out = _run(
        tree,
        "-m",
        "cli",
        "local",
        "--humans",
        "1",
        "--players",
        "2",
        "--opponents",
        "random",
        "--seed",
        "5",
        "--out",
        str(tmp_path / "out"),
        "--db",
        str(tmp_path / "local.sqlite"),
        "--expansions",
        *rest,
        stdin="1\n1\nnone\n" * 4,
    )
    assert "Traceback" not in out and "Input ended" in out, out[-2000:]
    pictures = list((tmp_path / "out").rglob("turn-*.png"))
    assert pictures, "the local table drew its boards"
