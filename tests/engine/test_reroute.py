"""Features re-routed after placement (``Board.reconnect``, issue 20): a ferry joins two road
ends of its lake, or is moved to join two others, and the roads split and join again.

Hand-derived cases on a crossing of the base game (its four road ends stand in for a lake's),
copy on write, and the property that matters: after any sequence of reconnections the board
holds exactly the features of a board built with the final links from the start.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameSetup, play_random_game
from engine.carcassonne.board import Board, Meeple
from engine.carcassonne.geometry import Position
from engine.carcassonne.tiles import FeatureKind, tile
from engine.core.seats import NEUTRAL, Seat

CROSSING = "BA/RRRR"  # roads r1 N, r2 E, r3 S, r4 W, each ending at the junction
STRAIGHT = "BA/RFr"  # a road from east to west
N, E, S, W = 0, 1, 2, 3  # the crossing's road features, by the side each leaves from


def _road(b: Board, pos: Position, index: int) -> Any:
    return b.feature_at(pos, index)[1]


def _crossing_with_two_arms() -> Board:
    """A crossing at the origin with a straight road west of it and one east of it."""
    b = Board()
    b.place(Position(0, 0), tile(CROSSING).rotated(0))
    b.place(Position(-1, 0), tile(STRAIGHT).rotated(0))
    b.place(Position(1, 0), tile(STRAIGHT).rotated(0))
    return b


def test_linking_two_road_ends_joins_the_roads_and_unlinking_splits_them_again() -> None:
    b = _crossing_with_two_arms()
    west, east = _road(b, Position(0, 0), W), _road(b, Position(0, 0), E)
    # each arm: the straight tile and the crossing's end, one open end far out
    assert (len(west.tiles), west.open, len(east.tiles), east.open) == (2, 1, 2, 1)
    follower = Meeple(Seat(1), "follower", b.cells[Position(-1, 0)].segs[0], Position(-1, 0))
    assert b.cells[Position(-1, 0)].rt.tile.features[0].kind is FeatureKind.ROAD
    b.add_meeple(follower)

    reps = b.reconnect(Position(0, 0), [(E, W)])
    joined = _road(b, Position(0, 0), W)
    assert len(reps) == 1 and joined is _road(b, Position(0, 0), E)
    assert joined.tiles == {Position(-1, 0), Position(0, 0), Position(1, 0)}
    assert joined.open == 2 and joined.meeples == (follower,)
    assert b.links == {Position(0, 0): ((E, W),)}
    # the north and south ends were not touched
    assert _road(b, Position(0, 0), N).open == 1

    b.reconnect(Position(0, 0), ())
    west, east = _road(b, Position(0, 0), W), _road(b, Position(0, 0), E)
    assert west is not east and (west.open, east.open) == (1, 1)
    assert west.meeples == (follower,) and east.meeples == ()
    assert b.links == {}


def test_moving_a_link_reroutes_the_road_and_its_figures() -> None:
    b = _crossing_with_two_arms()
    b.reconnect(Position(0, 0), [(E, W)])
    owl = Meeple(NEUTRAL, "oracle.owl", b.cells[Position(1, 0)].segs[0], Position(1, 0))
    b.add_meeple(owl)
    b.reconnect(Position(0, 0), [(N, W)])  # the ferry moves: west now goes north
    west = _road(b, Position(0, 0), W)
    assert west is _road(b, Position(0, 0), N)
    assert west.tiles == {Position(-1, 0), Position(0, 0)} and west.open == 2
    east = _road(b, Position(0, 0), E)
    assert east.tiles == {Position(0, 0), Position(1, 0)} and east.open == 1
    assert east.meeples == (owl,) and east.neutrals() == (owl,)


def test_a_scored_road_stays_scored_unless_joined_to_one_that_is_not() -> None:
    b = _crossing_with_two_arms()
    for index in (W, E):
        rep, f = b.feature_at(Position(0, 0), index)
        done = f.copy()
        done.done = True
        b.set_feature(rep, done)
    b.reconnect(Position(0, 0), [(E, W)])
    assert _road(b, Position(0, 0), W).done  # both parts were scored
    b.reconnect(Position(0, 0), [(N, W)])
    assert not _road(b, Position(0, 0), W).done  # joined onto the unscored north end
    assert _road(b, Position(0, 0), E).done  # split off, still scored (RULES.md OQ-FER-3)


def test_a_clone_never_sees_its_parents_reconnection_nor_the_other_way() -> None:
    parent = _crossing_with_two_arms()
    child = parent.clone()
    child.reconnect(Position(0, 0), [(E, W)])
    assert parent.links == {} and _road(parent, Position(0, 0), W).open == 1
    assert _road(child, Position(0, 0), W).open == 2
    grandchild = child.clone()
    child.reconnect(Position(0, 0), ())
    assert _road(grandchild, Position(0, 0), W).open == 2
    assert grandchild.links == {Position(0, 0): ((E, W),)} and child.links == {}


@pytest.mark.parametrize(
    "groups",
    [[(E,)], [(E, W), (W, N)], [(E, 9)], [(0, 4)]],
    ids=["one", "twice", "no-such-index", "road-and-field"],
)
def test_bad_groups_are_refused(groups: list[tuple[int, ...]]) -> None:
    b = _crossing_with_two_arms()
    with pytest.raises(ValueError):
        b.reconnect(Position(0, 0), groups)
    assert b.links == {}


# ------------------------------------------------------------------------------ property
def _where(b: Board) -> dict[int, tuple[Position, int]]:
    return {sg: (p.pos, i) for p in b.cells.values() for i, sg in enumerate(p.segs)}


def _features(b: Board) -> set[Any]:
    """Every feature as plain values keyed by (tile, feature index), independent of the
    segment numbers and representatives a board happens to use."""
    where = _where(b)
    for sg, rep in enumerate(b.root):  # the union-find itself is consistent
        assert sg in b.features[rep].segs
    out = set()
    for f in b.live_features():
        parts = frozenset(where[sg] for sg in f.segs)
        cities = frozenset(
            frozenset(where[s] for s in b.features[b.root[c]].segs) for c in f.cities
        )
        meeples = frozenset(Counter((m.seat, m.figure, where[m.seg]) for m in f.meeples).items())
        mods = frozenset((k, v) for k, v in f.mods.items() if v)
        out.add((f.kind, parts, f.tiles, f.open, f.pennants, cities, mods, meeples))
    return out


def _built_with(b: Board, links: dict[Position, tuple[tuple[int, ...], ...]]) -> Board:
    """A new board with ``b``'s tiles (in the order they were placed), its figures, and
    ``links`` joined from the start (the union-find only merges: trusted)."""
    fresh = Board()
    for p in b.cells.values():
        fresh.place(p.pos, p.rt)
    where = _where(b)
    for m in b.meeples():
        pos, i = where[m.seg]
        fresh.add_meeple(Meeple(m.seat, m.figure, fresh.cells[pos].segs[i], pos))
    for pos, groups in links.items():
        segs = fresh.cells[pos].segs
        for g in groups:
            for j in g[1:]:
                fresh.union(segs[g[0]], segs[j])
    return fresh


MIXES = ((), ("inns_cathedrals", "traders_builders"), ("bridges_castles_bazaars",))


@given(seed=st.integers(0, 2**32), mix=st.sampled_from(MIXES), data=st.data())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_reconnections_give_the_features_of_a_board_built_with_those_links(
    seed: int, mix: tuple[str, ...], data: st.DataObject
) -> None:
    game = play_random_game(GameSetup(expansions=mix), seed, max_moves=60)
    board = game.state.board
    # tiles with two or more features of one kind (roads, cities or fields) may be linked
    choices = []
    for p in board.cells.values():
        for kind in (FeatureKind.ROAD, FeatureKind.CITY, FeatureKind.FIELD):
            idx = [f.index for f in p.rt.tile.features if f.kind is kind]
            if len(idx) >= 2:
                choices.append((p.pos, tuple(idx)))
    if not choices:
        return
    before = _features(board)
    work = board.clone()
    for _ in range(data.draw(st.integers(1, 6))):
        pos, idx = data.draw(st.sampled_from(choices))
        picked = data.draw(st.lists(st.sampled_from(idx), unique=True, max_size=len(idx)))
        cut = data.draw(st.integers(0, len(picked)))
        groups = [g for g in (picked[:cut], picked[cut:]) if len(g) >= 2]
        work.reconnect(pos, groups)
        assert _features(work) == _features(_built_with(work, dict(work.links)))
    assert _features(board) == before  # the game's own board never changed
    work.reconnect(pos, ())
    for p in list(work.links):
        work.reconnect(p, ())
    assert _features(work) == _features(_built_with(work, {}))
