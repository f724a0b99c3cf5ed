"""The renderer draws any expansion without knowing it: only ``rendering/overlays/<id>.py`` may
name an expansion id, the figure kinds an expansion adds, the symbols its tile file declares or
any other concept of it (ARCHITECTURE.md decisions 11 and 14)."""

from __future__ import annotations

import ast
import dataclasses
import io
import re
import tokenize
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from engine import GameSetup, new_game, public_view
from engine.carcassonne.registry import all_expansions
from engine.carcassonne.tiles import tile_sets
from rendering import overlays
from rendering.board import board_image
from rendering.header import chip_height as row_height
from rendering.overlays import FigureArt, Overlay, overlay_for

RENDERING = Path(__file__).resolve().parents[2] / "rendering"
#: every module of the renderer outside the overlays package
MODULES = sorted(RENDERING.glob("*.py"))


def test_the_scan_sees_the_renderer() -> None:
    names = {p.name for p in MODULES}
    assert {"board.py", "figures.py", "targets.py", "sheet.py"} <= names
    assert not any(p.parent.name == "overlays" for p in MODULES)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_expansion_id_outside_the_overlays(path: Path) -> None:
    ids = [e.id for e in all_expansions()]
    assert ids, "the registry lists the built-in expansions"
    text = path.read_text(encoding="utf-8")
    found = [i for i in ids if i in text]
    assert not found, f"{path.name} names {found}: move that into rendering/overlays/<id>.py"


def _overlay_kinds() -> set[str]:
    kinds: set[str] = set()
    for exp in all_expansions():
        ov = overlay_for(exp.id)
        if ov is not None:
            kinds |= set(ov.figures)
    return kinds


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_expansion_figure_kind_outside_the_overlays(path: Path) -> None:
    """Figure kinds an overlay draws ("large", "builder", "pig" ...) are not quoted elsewhere,
    so no closed list of kinds (order, followers) lives outside the overlays."""
    kinds = _overlay_kinds()
    assert {"large", "builder", "pig"} <= kinds
    text = path.read_text(encoding="utf-8")
    found = sorted(k for k in kinds if re.search(rf"[\"']{re.escape(k)}[\"']", text))
    assert not found, f"{path.name} quotes figure kinds {found}"


# ------------------------------------------------------------------------------ concepts
def parts(text: str) -> list[str]:
    """The lower-case words of an identifier or a string: split on anything not a letter or a
    digit (``_``, spaces, dots) and on camelCase (``GOLD_BAR``, ``goldBar``, "gold bar" and
    ``gold_bars`` all hold the words ``gold`` and ``bar``/``bars``)."""
    out: list[str] = []
    for chunk in re.findall(r"[A-Za-z0-9]+", text):
        out += [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", chunk)]
    return out


def names(words: list[str], concept: list[str]) -> bool:
    """Whether ``words`` hold ``concept``'s words in a row, each whole (or with a plural
    ``s``/``es``): ``crop_circle`` is in ``CROP_CIRCLES`` but not in ``crop_box``."""
    n = len(concept)
    for i in range(len(words) - n + 1):
        if all(words[i + k] in (c, c + "s", c + "es") for k, c in enumerate(concept)):
            return True
    return False


@cache
def concepts() -> dict[str, list[str]]:
    """Every expansion concept, by its spelling: the registered expansions' ids and figure
    kinds, every symbol key a tile file declares, and every overlay module's id, figure kinds,
    symbol keys and declared words (the seven expansions still to come have overlays too)."""
    found: set[str] = set()
    for exp in all_expansions():
        found.add(exp.id)
        found |= {spec.kind for spec in exp.figure_specs}
    for info in tile_sets():
        found |= {d.key for d in info.symbols}
    for mod in overlays.overlay_modules():
        ov = overlay_for(mod)
        assert ov is not None, mod
        found |= {ov.id, *ov.figures, *ov.symbols, *ov.words}
    return {c: parts(c) for c in sorted(found)}


def code_words(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """``(line, token, its words)`` of every name and string of a module that is code: comments
    and docstrings (any statement that is only a string) are skipped."""
    text = path.read_text(encoding="utf-8")
    docs = {
        (node.lineno, node.col_offset)
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NAME or (tok.type == tokenize.STRING and tok.start not in docs):
            yield tok.start[0], tok.string, parts(tok.string)


def test_the_concept_words_match_whole_words_only() -> None:
    assert names(parts("CROP_CIRCLES"), ["crop", "circle"])
    assert names(parts("cropCircle"), ["crop", "circle"])
    assert names(parts('"crop circle"'), ["crop", "circle"])
    assert not names(parts("crop_box"), ["crop", "circle"])
    assert not names(parts("img.crop"), ["crop", "circle"])
    assert names(parts("st.GOLD"), ["gold"]) and names(parts("goldBars"), ["gold"])
    assert not names(parts("golden"), ["gold"]) and not names(parts("images"), ["mage"])
    assert names(parts("inns_left"), ["inn"]) and not names(parts("inner"), ["inn"])
    words = concepts()
    assert {"inns_cathedrals", "large", "inn", "goods", "abbey", "bazaar", "lake"} <= set(words)
    assert {"flier", "gold", "mage", "robber", "crop_circle", "bridge", "market"} <= set(words)
    assert "crop" not in words, "image cropping is no expansion's concept"


def test_the_code_scan_skips_comments_and_docstrings(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text(
        '"""A lake."""\n'
        "# a lake\n"
        "def f() -> str:\n"
        '    """The lake."""\n'
        '    return "lake"  # lake\n'
        "LAKE_SIZE = 1\n"
    )
    hits = [(line, tok) for line, tok, ws in code_words(src) if names(ws, ["lake"])]
    assert hits == [(5, '"lake"'), (6, "LAKE_SIZE")]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_expansion_concept_outside_the_overlays(path: Path) -> None:
    """No identifier or string of the drawing core names an expansion's concept: what an
    expansion prints on its tiles, its tokens and its figures are drawn by its overlay."""
    found = sorted(
        {
            f"line {line}: {tok} ({concept})"
            for line, tok, ws in code_words(path)
            for concept, cw in concepts().items()
            if names(ws, cw)
        }
    )
    assert not found, f"{path.name} names expansion concepts: {found}"


def test_overlays_are_found_by_id_and_a_missing_one_is_harmless() -> None:
    ic = overlay_for("inns_cathedrals")
    tb = overlay_for("traders_builders")
    assert isinstance(ic, Overlay) and ic.id == "inns_cathedrals" and "large" in ic.figures
    assert isinstance(tb, Overlay) and {"builder", "pig"} <= set(tb.figures)
    assert overlay_for("inns_cathedrals") is ic  # imported once
    assert overlay_for("no_such_expansion") is None
    assert overlay_for("not an id!") is None
    # a view naming an expansion without an overlay module draws like the base game
    base = public_view(new_game(GameSetup(players=2), seed=5))
    odd = dataclasses.replace(
        base, setup=dataclasses.replace(base.setup, expansions=("no_such_expansion",))
    )
    assert board_image(odd).tobytes() == board_image(base).tobytes()


def test_a_registered_overlay_draws_its_figures_and_panel_line() -> None:
    """An overlay put in place for an id is used for that id's views, then taken out."""
    from PIL import Image

    from engine.carcassonne.view import PublicView
    from engine.core.seats import Seat
    from rendering.figures import figure_sprite
    from rendering.style import Mark, SeatStyle

    def square(style: SeatStyle, size: int, lying: bool) -> Image.Image:
        return Image.new("RGBA", (size, size), (*style.fill, 255))

    class Test(Overlay):
        id = "no_such_expansion"
        figures = {"crate": FigureArt(square, order=5)}  # noqa: RUF012

        def panel_items(
            self, view: PublicView, seat: Seat, icon: int
        ) -> list[tuple[Image.Image, int]]:
            return [(square(SeatStyle("x", (1, 2, 3), (0, 0, 0), Mark.CIRCLE), icon, False), 4)]

    base = public_view(new_game(GameSetup(players=2), seed=5))
    view = dataclasses.replace(
        base, setup=dataclasses.replace(base.setup, expansions=("no_such_expansion",))
    )
    before = figure_sprite("crate", 0, 30)
    overlays.register(Test())
    try:
        assert overlay_for("no_such_expansion") is not None
        assert figure_sprite("crate", 0, 30).getpixel((15, 15)) == (214, 40, 40, 255)
        assert row_height(view) > row_height(base)
        img = board_image(view)
        assert (1, 2, 3) in {c for _n, c in img.getcolors(1 << 20) or []}
    finally:
        overlays.unregister("no_such_expansion")
    assert overlay_for("no_such_expansion") is None
    # without it, the crate is the lettered disc again
    assert figure_sprite("crate", 0, 30).tobytes() == before.tobytes()
