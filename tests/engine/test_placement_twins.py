"""Rotations that place the very same tile are offered once (issue 14).

A straight road at 0° and at 180°, a crossroads at any turn: the same edges, features,
symbols and follower spots. The engine offers the first of such twins only; the others stay
legal (old records and JCloisterZone saves name them), and playing a twin is playing the same
game: the property test branches random games at every such placement and plays both branches
on with the same choices to the end — the same options at every step, the same scores.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GameSetup, new_game
from engine.carcassonne.actions import PlaceTile
from engine.carcassonne.fits import canonical_rotations, fits_table, offered_table
from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.placement import legal_placements
from engine.carcassonne.randomplay import CHOICE_SALT
from engine.carcassonne.rules import apply, pending
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind, all_tiles, load_tile_set, tile
from engine.core.rng import Rng

SETS = ("base", "inns_cathedrals", "traders_builders")
ALL_TILES = [t for s in SETS for t in load_tile_set(s)]


def test_symmetric_tiles_are_offered_once_per_distinct_turn() -> None:
    expect = {
        "BA/RRRR": 1,  # crossroads
        "BA/L": 1,  # a lone cloister
        "BA/Cccc+": 1,  # the full city
        "BA/RFr": 2,  # a straight road: 0° and 90°
        "BA/CFc+": 2,  # a city across the tile
    }
    for tid, n in expect.items():
        assert len(set(canonical_rotations(tile(tid)))) == n, tid
    # a tile whose every turn differs keeps its four
    assert len(set(canonical_rotations(tile("BA/C")))) == 4


@pytest.mark.parametrize("t", ALL_TILES, ids=lambda t: t.id)
def test_twins_have_the_same_edges_features_and_spots(t: object) -> None:
    from engine.carcassonne.tiles import TileDef

    assert isinstance(t, TileDef)
    canon = canonical_rotations(t)
    for r in Rotation:
        c = canon[r]
        assert canon[c] == c and c <= r
        a, b = t.rotated(r), t.rotated(c)
        assert a.edge_code == b.edge_code
        assert sorted(a.spots) == sorted(b.spots), "the same follower spots, by name"
        for i, f in enumerate(t.features):
            # each feature has a twin with the same reach and the same symbols
            j = b.spots.index(a.spots[i])
            g = t.features[j]
            assert (f.kind, f.pennants, f.symbols, f.well) == (
                g.kind,
                g.pennants,
                g.symbols,
                g.well,
            )
            assert (a.sides[i], a.halves[i]) == (b.sides[j], b.halves[j])
        # what is offered is exactly the first of each set of twins that fits
        for code in range(256):
            fits = fits_table(t)[code]
            assert offered_table(t)[code] == tuple(r for r in fits if canon[r] == r)
            assert {canon[r] for r in fits} == set(offered_table(t)[code])


def test_a_tile_with_a_direction_keeps_every_turn() -> None:
    fliers = [t for t in all_tiles().values() if t.directed]
    assert len(fliers) == 8  # the flying machines
    for t in fliers:
        assert canonical_rotations(t) == tuple(Rotation)
    roads = [t for t in ALL_TILES if any(f.kind is FeatureKind.ROAD for f in t.features)]
    assert roads  # the property below meets real roads


def _step(state: GameState, rng: Rng) -> GameState:
    """A random answer, chosen among the answers in notation order (twins list a placed
    tile's spots in another order)."""
    d = pending(state)[0]
    answers = sorted(d.actions(), key=lambda a: str(a.notation()))
    action = answers[rng.below(len(answers))]
    return apply(state, d.seat, action, key=d.key).state


def _options(state: GameState) -> list[tuple[int, str, tuple[str, ...]]]:
    return [
        (int(d.seat), d.kind, tuple(sorted(str(a.notation()) for a in d.actions())))
        for d in pending(state)
    ]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10_000),
    expansions=st.sampled_from([(), ("inns_cathedrals",), ("traders_builders",)]),
    players=st.integers(min_value=2, max_value=4),
)
def test_a_twin_placement_plays_the_same_game(
    seed: int, expansions: tuple[str, ...], players: int
) -> None:
    state = new_game(GameSetup(players=players, expansions=expansions), seed=seed)
    rng = Rng(seed ^ CHOICE_SALT)
    branched = 0
    while not state.over and branched < 3:
        if state.step == "place" and state.drawn is not None:
            t = tile(state.drawn)
            canon = canonical_rotations(t)
            offered = legal_placements(state)
            for pos, code in state.board.frontier.items():
                for r in fits_table(t)[code]:
                    if canon[r] != r:
                        assert canon[r] in offered[pos] and r not in offered[pos]
                        _compare(state, pos, canon[r], r, seed)
                        branched += 1
                        break
                if branched:
                    break
        state = _step(state, rng)
    assert branched or state.over


def _compare(state: GameState, pos: Position, first: Rotation, twin: Rotation, seed: int) -> None:
    """Place ``first`` and ``twin`` at ``pos`` and play both games on alike: the same options
    at every step, the same scores at the end (each branch draws its own random choices from
    the same stream, so the same index picks the same option)."""
    seat = state.current
    a = apply(state, seat, PlaceTile(pos, first)).state
    b = apply(state, seat, PlaceTile(pos, twin)).state
    rng_a, rng_b = Rng(seed), Rng(seed)
    for _ in range(400):
        assert _options(a) == _options(b)
        assert a.scores == b.scores
        if a.over:
            break
        a, b = _step(a, rng_a), _step(b, rng_b)
    assert a.scores == b.scores and a.over == b.over
