"""The renderer draws any expansion without knowing it: only ``rendering/overlays/<id>.py`` may
name an expansion id or the figure kinds an expansion adds (ARCHITECTURE.md decision 11)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from engine import GameSetup, new_game, public_view
from engine.carcassonne.registry import all_expansions
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
