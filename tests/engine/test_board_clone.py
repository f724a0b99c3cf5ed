"""Board clones share their dictionaries until one side changes them (copy on write): whatever
changes a clone, through any of the board's methods, never shows in its parent, and the other
way round."""

from __future__ import annotations

from typing import Any

from engine.carcassonne.board import Board, Meeple
from engine.carcassonne.geometry import Position
from engine.carcassonne.tiles import load_tile_set
from engine.core.seats import Seat


def _tiles() -> dict[str, Any]:
    return {t.id: t for t in load_tile_set("base")}


def _board() -> Board:
    tiles = _tiles()
    b = Board()
    b.place(Position(0, 0), tiles["BA/CRr"].rotated(0))  # the start tile: city, road, fields
    b.place(Position(1, 0), tiles["BA/CRr"].rotated(0))
    return b


def _picture(b: Board) -> tuple[Any, ...]:
    """Everything a board holds, by value."""
    return (
        dict(b.cells),
        dict(b.frontier),
        list(b.order),
        list(b.root),
        {
            r: (f.segs, f.tiles, f.open, f.meeples, f.cities, dict(f.mods))
            for r, f in b.iter_features()
        },
        b.next_seg,
    )


def _changes(b: Board) -> None:
    """One change through each of the board's changing methods."""
    tiles = _tiles()
    b.place(Position(0, 1), tiles["BA/C"].rotated(2))
    pos = Position(0, 0)
    seg = b.cells[pos].segs[0]
    b.add_meeple(Meeple(Seat(0), "follower", seg, pos))
    b.remove_meeples(b.root[seg])
    rep, feat = b.feature_at(pos, 1)
    b.set_feature(rep, feat.copy())


def test_changing_a_clone_leaves_its_parent_as_it_was() -> None:
    parent = _board()
    before = _picture(parent)
    child = parent.clone()
    _changes(child)
    assert _picture(parent) == before
    assert _picture(child) != before


def test_changing_a_parent_after_cloning_leaves_the_clone_as_it_was() -> None:
    parent = _board()
    child = parent.clone()
    before = _picture(child)
    _changes(parent)
    assert _picture(child) == before
    # and the clone still changes on its own afterwards
    _changes(child)
    assert _picture(child) == _picture(parent)


def test_a_clone_of_a_clone_is_independent_of_both() -> None:
    a = _board()
    b = a.clone()
    c = b.clone()
    pa, pb = _picture(a), _picture(b)
    _changes(c)
    assert _picture(a) == pa and _picture(b) == pb


def test_taking_one_of_two_equal_figures_leaves_the_other() -> None:
    """A seat's two followers on one spot (a crop circle's option A puts one beside the other)
    are equal values: taking one (message 8, option B) leaves the other standing."""
    b = _board()
    seg = next(s for s, r in enumerate(b.root) if b.features[r].kind.value == "road")
    twin = Meeple(Seat(1), "follower", seg, Position(0, 0))
    b.add_meeple(twin)
    b.add_meeple(twin)
    rep = b.root[seg]
    assert b.remove_meeples(rep, (twin,)) == (twin,)
    assert b.features[rep].meeples == (twin,)
    assert b.remove_meeples(rep, (twin, twin)) == (twin,)  # only what stands is taken
    assert b.features[rep].meeples == ()
