"""The symbols printed on the tiles are drawn by the overlays (ARCHITECTURE.md decision 14): the
layout places what an overlay draws, and an overlay module that is gone draws nothing, while the
tile still draws (its roads run to the centre)."""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType

import pytest

from engine.carcassonne.tiles import all_tiles, tile_sets
from rendering import overlays
from rendering.geometry import CENTRE
from rendering.layout import Symbol, tile_layout
from rendering.overlays import Overlay, Place, SymbolArt, overlay_for, symbol_art, symbol_arts
from rendering.pen import Pen
from rendering.tiles import tile_image

#: symbols a tile file declares that nothing prints (a rule's marker, not art)
UNDRAWN = {"no_castle"}


def keys_of(tile_id: str) -> set[str]:
    t = all_tiles()[tile_id]
    return {k for k, _ in t.symbols} | {k for f in t.features for k, _ in f.symbols}


def test_every_declared_symbol_has_its_overlay_and_every_overlay_symbol_is_declared() -> None:
    declared = {d.key for info in tile_sets() for d in info.symbols}
    drawn = set(symbol_arts())
    assert declared - drawn == UNDRAWN
    assert drawn <= declared
    for mod in overlays.overlay_modules():
        ov = overlay_for(mod)
        assert ov is not None and ov.id == mod, mod


def test_the_layout_places_each_symbol_as_its_overlay_says() -> None:
    for tid in all_tiles():
        lay = tile_layout(tid)
        for sym in lay.symbols:
            art = symbol_art(sym.kind)
            if art is None or sym.paint is not art.paint:  # core marks, road-end marks
                continue
            assert (sym.size, sym.ground, sym.upright) == (art.size, art.ground, art.upright)
            if art.place in (Place.CENTRE, Place.WHOLE):
                assert sym.at == CENTRE, (tid, sym)
        placed = {s.kind for s in lay.symbols}
        assert keys_of(tid) - UNDRAWN <= placed, tid
        assert lay.whole == any(
            (a := symbol_art(k)) is not None and a.place is Place.WHOLE for k in keys_of(tid)
        )


def test_roads_run_to_the_symbol_that_claims_their_end() -> None:
    """A road that ends at a lake, a market or a crop circle ends where that symbol is."""
    checked = 0
    for tid, t in all_tiles().items():
        lay = tile_layout(tid)
        for rp in lay.roads:
            end = t.features[rp.feature].ends
            claimed = [
                s
                for s in lay.symbols
                if (a := symbol_art(s.kind)) is not None and s.paint is a.paint and end in a.ends
            ]
            if claimed:
                assert rp.arms[0][-1] == claimed[0].at, (tid, rp)
                checked += 1
    assert checked >= 20


@pytest.fixture
def without() -> Iterator[list[str]]:
    """Hide overlay modules (as if their files were deleted) for one test, then show them."""
    hidden: list[str] = []
    real = overlays.overlay_modules

    def fewer() -> tuple[str, ...]:
        return tuple(m for m in real() if m not in hidden)

    overlays.overlay_modules = fewer
    try:
        yield hidden
    finally:
        overlays.overlay_modules = real
        overlays.symbols_changed()


def drawing_symbols() -> list[str]:
    """The overlay modules that draw symbols."""
    return [m for m in overlays.overlay_modules() if (ov := overlay_for(m)) and ov.symbols]


@pytest.mark.parametrize("module", drawing_symbols())
def test_a_deleted_overlay_stops_drawing_its_symbols_and_nothing_else(
    module: str, without: list[str]
) -> None:
    ov = overlay_for(module)
    assert ov is not None
    keys = set(ov.symbols)
    tiles = sorted(t for t in all_tiles() if keys & keys_of(t))[:4]
    assert tiles, module
    before = {t: tile_image(t, 1, 64).tobytes() for t in tiles}
    other = next(t for t in sorted(all_tiles()) if keys_of(t) and not keys & keys_of(t))
    other_before = tile_image(other, 0, 64).tobytes()
    without.append(module)
    overlays.symbols_changed()
    assert not keys & set(symbol_arts())
    for t in tiles:
        lay = tile_layout(t)
        assert not keys & {s.kind for s in lay.symbols}, t
        ends = {f.ends for f in all_tiles()[t].features}
        for rp in lay.roads:  # a road that ran to the symbol runs to the centre
            if rp.end in ends and any(rp.end in a.ends for a in ov.symbols.values()):
                assert rp.arms[0][-1] == CENTRE, (t, rp)
        assert tile_image(t, 1, 64).tobytes() != before[t], t
    assert tile_image(other, 0, 64).tobytes() == other_before


def test_a_registered_overlay_draws_a_symbol_in_place_of_the_module() -> None:
    """An overlay registered for an id replaces that module's symbols too, and taking it out
    brings the module's art back (the cached tiles are forgotten both times)."""
    ferries = overlay_for("ferries")
    assert ferries is not None
    real = ferries.symbols["lake"]
    tid = next(t for t in sorted(all_tiles()) if "lake" in keys_of(t))
    before = tile_image(tid, 0, 64).tobytes()

    def magenta(pen: Pen, sym: Symbol) -> None:
        pen.disc(sym.at, sym.size / 2, (255, 0, 255))

    class Paint(Overlay):
        id = "ferries"
        symbols = MappingProxyType({"lake": SymbolArt(magenta, Place.CENTRE, 0.5, ends=real.ends)})

    overlays.register(Paint())
    try:
        assert tile_image(tid, 0, 64).getpixel((32, 32)) == (255, 0, 255)
    finally:
        overlays.unregister("ferries")
    assert tile_image(tid, 0, 64).tobytes() == before


def test_two_overlays_may_not_draw_one_symbol() -> None:
    inn = symbol_art("inn")
    assert inn is not None
    twin: SymbolArt = inn

    class Twin(Overlay):
        id = "no_such_expansion"
        symbols = MappingProxyType({"inn": twin})

    with pytest.raises(ValueError, match="'inn' is drawn by both"):
        overlays.register(Twin())
    assert overlay_for("no_such_expansion") is None
    assert symbol_art("inn") is inn
