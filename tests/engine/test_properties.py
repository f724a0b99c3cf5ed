"""Property tests: random legal base games (2–6 players) to the end never break the invariants.

Hypothesis draws the setup and two seeds (the pile's shuffle and the players' choices); each game
is played to the end with every invariant checked at every step. Kept under about a minute.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Action,
    Deploy,
    GameSetup,
    GameState,
    IllegalActionError,
    Pass,
    PlaceTile,
    Position,
    Rotation,
    apply,
    legal_actions,
    legal_placements,
    new_game,
    public_view,
)
from engine.carcassonne.events import Event, PointsScored
from engine.carcassonne.fits import canonical_rotations
from engine.carcassonne.geometry import facing_half
from engine.carcassonne.rules import parse_spot, pending, spot_name
from engine.carcassonne.tiles import FeatureKind, tile
from engine.core.rng import Rng

FOLLOWERS = 7
BASE_PILE = 71  # 72 tiles minus the start tile

setups = st.builds(
    GameSetup,
    players=st.integers(2, 6),
    tiny_city=st.sampled_from((2, 4)),
    farm_scoring=st.sampled_from(("per_farm", "city_supply_1st_ed")),
)
seeds = st.integers(0, 2**63 - 1)
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything a state holds, as plain values: equal snapshots mean equal states."""
    board = state.board
    features = {
        rep: (
            f.kind,
            f.segs,
            f.tiles,
            f.open,
            f.pennants,
            f.meeples,
            f.cities,
            dict(f.mods),
            f.done,
        )
        for rep, f in board.iter_features()
    }
    cells = {pos: (p.rt.tile.id, p.rt.rotation, p.segs) for pos, p in board.cells.items()}
    return (
        public_view(state),
        cells,
        dict(board.frontier),
        list(board.root),
        features,
        board.next_seg,
        [(p.score, dict(p.supply)) for p in state.players],
        state.pile,
        state.pile_pos,
        state.version,
        state.turn,
        state.current,
        state.step,
        state.drawn,
        state.placed,
        state.discarded,
        state.awards,
        dict(state.last_placed),
        dict(state.ext),
    )


def choose(state: GameState, rng: Rng) -> Action:
    options = sorted(legal_actions(state, state.current), key=lambda a: a.notation())
    assert options, f"no legal action at step {state.step}"
    return options[rng.below(len(options))]


def check_followers(state: GameState) -> None:
    on_board = [0] * state.setup.players
    for m in state.board.meeples():
        on_board[m.seat] += 1
    for seat, p in enumerate(state.players):
        assert p.supply["follower"] + on_board[seat] == FOLLOWERS, (seat, state.turn)
        assert p.supply["follower"] >= 0


def check_scores(before: GameState, after: GameState, events: tuple[Event, ...]) -> None:
    gained = [0] * after.setup.players
    for e in events:
        if isinstance(e, PointsScored):
            check_item_arithmetic(after.setup, e)
            for a in e.awards:
                assert a.points > 0
                gained[a.seat] += a.points
    for seat in range(after.setup.players):
        assert after.scores[seat] >= before.scores[seat]
        assert after.scores[seat] - before.scores[seat] == gained[seat]
        assert after.scores[seat] == sum(a.points for a in after.awards if a.seat == seat)


def check_item_arithmetic(setup: GameSetup, e: PointsScored) -> None:
    """Each scored item's points follow RULES.md §2.7 / §3 from its own tile and shield counts."""
    item = e.item
    n, p = item.tiles, item.pennants
    if item.category == "road":
        want = n
    elif item.category == "city" and item.complete:
        want = 2 + p if (n == 2 and setup.tiny_city == 2) else 2 * (n + p)
    elif item.category == "city":
        want = n + p
    elif item.category == "cloister":
        assert 1 <= n <= 9 and (n == 9 or not item.complete)
        want = n
    else:
        assert item.category == "farm" and item.final
        assert item.points % 3 == 0
        want = item.points
    assert item.points == want, item
    assert item.winners and {a.seat for a in e.awards} == set(item.winners)
    assert all(a.points == item.points for a in e.awards)
    # features score complete during play and incomplete at the end; farms only at the end
    assert item.complete is (not item.final) or (item.category == "farm" and not item.complete)


def check_unlisted_placements_rejected(state: GameState, rng: Rng) -> None:
    """Every placement not listed is refused, unless it is the twin of a listed one (a
    rotation that places the very same tile: listed once, legal still)."""
    legal = legal_placements(state)
    assert state.drawn is not None
    canon = canonical_rotations(tile(state.drawn))
    candidates: list[PlaceTile] = []
    for pos in state.board.frontier:
        for r in Rotation:
            if r not in legal.get(pos, ()) and canon[r] not in legal.get(pos, ()):
                candidates.append(PlaceTile(pos, r))
    occupied = list(state.board.cells)
    candidates.append(PlaceTile(occupied[rng.below(len(occupied))], Rotation.R0))
    candidates.append(PlaceTile(Position(1000, -1000), Rotation.R90))
    for i in range(min(6, len(candidates))):
        action = candidates[rng.below(len(candidates))] if i else candidates[-1]
        with pytest.raises(IllegalActionError):
            apply(state, state.current, action)


def check_unlisted_deploys_rejected(state: GameState, listed: list[Action]) -> None:
    """Every spot of the placed tile that is not listed (occupied, or no follower left) and
    every figure the base game has not got are refused."""
    assert state.placed is not None
    rt = state.board.cells[state.placed].rt
    for i in range(len(rt.tile.features)):
        spot = spot_name(rt, i)
        if Deploy(spot) not in listed:
            with pytest.raises(IllegalActionError):
                apply(state, state.current, Deploy(spot))
        with pytest.raises(IllegalActionError):
            apply(state, state.current, Deploy(spot, "large"))


def play_checked(
    setup: GameSetup, seed: int, choice_seed: int, *, exhaustive_every: int
) -> tuple[GameState, list[Action]]:
    """Play a whole random game checking every invariant; return the end state and the log."""
    state = new_game(setup, seed=seed)
    rng = Rng(choice_seed)
    log: list[Action] = []
    check_followers(state)
    steps = 0
    while not state.over:
        steps += 1
        assert steps < 10_000
        before = snapshot(state)
        check_answers_listed(state)
        options = list(legal_actions(state, state.current))
        if state.step == "deploy":
            assert Pass() in options
        if steps % exhaustive_every == 0:
            # every listed action is accepted, and leaves the input untouched
            for option in options:
                apply(state, state.current, option)
            if state.step == "place":
                check_unlisted_placements_rejected(state, rng)
            else:
                check_unlisted_deploys_rejected(state, options)
        action = choose(state, rng)
        tr = apply(state, state.current, action)
        assert snapshot(state) == before, f"apply changed its input at step {steps}"
        assert tr.state is not state
        assert tr.state.version == state.version + 1
        check_followers(tr.state)
        check_scores(state, tr.state, tr.events)
        if steps % exhaustive_every == 0:
            check_board_model(tr.state)
        log.append(action)
        if state.step == "deploy":
            played: Counter[tuple[int, str]] = Counter()
            for e in tr.events:
                if isinstance(e, PointsScored) and not e.item.final:
                    for a in e.awards:
                        played[(int(a.seat), e.item.category)] += a.points
            assert played == expected_play_points(state, action)
        if tr.state.over:
            got: Counter[tuple[int, str]] = Counter()
            for a in tr.state.awards:
                if a.item.final:
                    got[(int(a.seat), a.item.category)] += a.points
            assert got == expected_final_points(state, action)
        state = tr.state
    return state, log


Node = tuple[Position, int]  # (tile position, feature index on that tile)


@dataclass
class Flood:
    """Features rebuilt from scratch by flood fill, independent of the board's union-find."""

    members: dict[Node, list[Node]]  # component root -> its nodes
    root: dict[Node, Node]  # node -> component root
    open: dict[Node, int]  # component root -> road/city ends facing an empty cell
    bordered: dict[Node, set[Node]]  # field component root -> bordered city component roots


def flood(state: GameState) -> Flood:
    """A node per (tile, feature), joined across every shared edge: road/city by side, field by
    facing half-edges, and by the links set on a tile after placement (``Board.reconnect``: a
    ferry)."""
    cells = state.board.cells
    parent: dict[Node, Node] = {}

    def find(n: Node) -> Node:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for pos, p in cells.items():
        for f in p.tile.features:
            parent[(pos, f.index)] = (pos, f.index)
    ends: dict[Node, int] = {}
    for pos, p in cells.items():
        rt = p.rt
        for side in range(4):
            other = cells.get(pos.neighbour(side))
            fi = rt.side_feature[side]
            if other is None:
                if fi >= 0:
                    ends[(pos, fi)] = ends.get((pos, fi), 0) + 1
                continue
            oi = other.rt.side_feature[(side + 2) % 4]
            if fi >= 0 and oi >= 0:
                parent[find((pos, fi))] = find((other.pos, oi))
            for h in (2 * side, 2 * side + 1):
                a, b = rt.half_feature[h], other.rt.half_feature[facing_half(h)]
                if a >= 0 and b >= 0:
                    parent[find((pos, a))] = find((other.pos, b))
    for pos, groups in state.board.links.items():
        for group in groups:
            first, *rest = group
            for i in rest:
                parent[find((pos, i))] = find((pos, first))
    root = {n: find(n) for n in parent}
    members: dict[Node, list[Node]] = {}
    for n, r in root.items():
        members.setdefault(r, []).append(n)
    open_ = {r: sum(ends.get(n, 0) for n in nodes) for r, nodes in members.items()}
    bordered = {
        r: {root[(pos, c)] for pos, i in nodes for c in cells[pos].tile.features[i].cities}
        for r, nodes in members.items()
    }
    return Flood(members, root, open_, bordered)


def check_board_model(state: GameState) -> None:
    """The board's incremental union-find agrees with a flood fill of the placed tiles: each
    component is exactly one board feature, with the same tiles, open road/city ends, pennants
    and bordered cities."""
    board = state.board
    cells = board.cells
    model = flood(state)
    board_rep = {n: board.root[cells[n[0]].segs[n[1]]] for n in model.root}
    for r, nodes in model.members.items():
        reps = {board_rep[n] for n in nodes}
        assert len(reps) == 1, f"one component split over board features {reps}"
        (rep,) = reps
        feat = board.features[rep]
        assert len(feat.segs) == len(nodes)
        assert feat.tiles == frozenset(n[0] for n in nodes)
        defs = [cells[pos].tile.features[i] for pos, i in nodes]
        assert {d.kind for d in defs} == {feat.kind}
        if feat.kind in (FeatureKind.ROAD, FeatureKind.CITY):
            assert feat.open == model.open[r], (feat.kind, nodes)
            assert feat.pennants == sum(d.pennants for d in defs)
        if feat.kind is FeatureKind.FIELD:
            got = {board.root[s] for s in feat.cities}
            assert got == {board_rep[c] for c in model.bordered[r]}
    # and no board feature is left over
    assert {r for r, _ in board.iter_features()} == set(board_rep.values())
    # the frontier is every empty cell beside a tile, kept in north-first order
    around = {
        Position(p.x + dx, p.y + dy) for p in cells for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
    }
    assert set(board.frontier) == around - set(cells)
    assert board.order == sorted(board.frontier, key=lambda p: (p.y, p.x))


def check_answers_listed(state: GameState) -> None:
    """Every open decision's fast answer list (what a random player draws from) is exactly its
    options' actions, in option order."""
    for d, fresh in zip(pending(state), pending(state), strict=True):
        listed = tuple(o.action if o.number is None else None for o in d.options)
        assert fresh.answers() == listed, d.kind
        if d.kind == "core.place":  # the board's kept order against a sort of the rules' cells
            cells = legal_placements(state)
            want = [(p, r) for p in sorted(cells, key=lambda p: (p.y, p.x)) for r in cells[p]]
            assert [(a.pos, a.rotation) for a in listed] == want


def expected_play_points(before: GameState, last: Action) -> Counter[tuple[int, str]]:
    """In-play scoring of the tile just placed, computed independently: points per (seat,
    category) for the roads, cities and cloisters it completed (RULES.md §2.7)."""
    cells = before.board.cells
    assert before.placed is not None
    placed = cells[before.placed]
    model = flood(before)
    kind = {r: cells[r[0]].tile.features[r[1]].kind for r in model.members}
    strength: dict[Node, Counter[int]] = {}
    for m in before.board.meeples():
        node = (m.pos, cells[m.pos].segs.index(m.seg))
        strength.setdefault(model.root[node], Counter())[m.seat] += 1
    if isinstance(last, Deploy):
        node = (placed.pos, parse_spot(placed.rt, last.spot))
        strength.setdefault(model.root[node], Counter())[before.current] += 1
    done: list[Node] = []
    for f in placed.tile.features:
        r = model.root[(placed.pos, f.index)]
        if kind[r] in (FeatureKind.ROAD, FeatureKind.CITY) and model.open[r] == 0:
            done.append(r)
    x, y = placed.pos
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            cpos = Position(x + dx, y + dy)
            if cpos not in cells:
                continue
            ring = sum(
                Position(cpos.x + i, cpos.y + j) in cells
                for i in (-1, 0, 1)
                for j in (-1, 0, 1)
                if i or j
            )
            for f in cells[cpos].tile.features:
                if f.kind is FeatureKind.CLOISTER and ring == 8:
                    done.append(model.root[(cpos, f.index)])
    out: Counter[tuple[int, str]] = Counter()
    for r in set(done):
        c = strength.get(r)
        if not c:
            continue
        nodes = model.members[r]
        tiles = len({n[0] for n in nodes})
        if kind[r] is FeatureKind.ROAD:
            pts = tiles
        elif kind[r] is FeatureKind.CITY:
            pennants = sum(cells[p].tile.features[i].pennants for p, i in nodes)
            tiny = tiles == 2 and before.setup.tiny_city == 2
            pts = 2 + pennants if tiny else 2 * (tiles + pennants)
        else:
            pts = 9
        best = max(c.values())
        for seat, v in c.items():
            if v == best:
                out[(seat, kind[r].value)] += pts
    return out


def expected_final_points(before: GameState, last: Action) -> Counter[tuple[int, str]]:
    """Final scoring computed independently: points per (seat, category).

    ``before`` is the state before the game's last action (the last tile is on the board),
    ``last`` that action. The figures standing at final scoring are those on the board plus the
    last deploy, minus any on a completed road, city or cloister (those always score in play).
    """
    cells = before.board.cells
    model = flood(before)
    kind = {r: cells[r[0]].tile.features[r[1]].kind for r in model.members}
    figures: list[tuple[int, Node]] = []
    for m in before.board.meeples():
        figures.append((m.seat, (m.pos, cells[m.pos].segs.index(m.seg))))
    if isinstance(last, Deploy):
        placed = cells[before.placed] if before.placed else None
        assert placed is not None
        figures.append((before.current, (placed.pos, parse_spot(placed.rt, last.spot))))

    def neighbours(pos: Position) -> int:
        return sum(
            Position(pos.x + dx, pos.y + dy) in cells
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if dx or dy
        )

    def complete(r: Node) -> bool:
        if kind[r] is FeatureKind.CLOISTER:
            return neighbours(r[0]) == 8
        return kind[r] is not FeatureKind.FIELD and model.open[r] == 0

    strength: dict[Node, Counter[int]] = {}
    for seat, node in figures:
        r = model.root[node]
        if not complete(r):
            strength.setdefault(r, Counter())[seat] += 1

    def winners(c: Counter[int]) -> list[int]:
        best = max(c.values())
        return [s for s, v in c.items() if v == best]

    out: Counter[tuple[int, str]] = Counter()
    for r, c in strength.items():
        nodes = model.members[r]
        if kind[r] is FeatureKind.ROAD:
            pts = len({n[0] for n in nodes})
        elif kind[r] is FeatureKind.CITY:
            pts = len({n[0] for n in nodes}) + sum(
                cells[p].tile.features[i].pennants for p, i in nodes
            )
        elif kind[r] is FeatureKind.CLOISTER:
            pts = 1 + neighbours(r[0])
        else:
            continue
        for seat in winners(c):
            out[(seat, kind[r].value)] += pts
    farms = {r: c for r, c in strength.items() if kind[r] is FeatureKind.FIELD}
    if before.setup.farm_scoring == "per_farm":
        for r, c in farms.items():
            n = sum(1 for city in model.bordered[r] if complete(city))
            if n:
                for seat in winners(c):
                    out[(seat, "farm")] += 3 * n
    else:
        supply: dict[Node, Counter[int]] = {}
        for r, c in farms.items():
            for city in model.bordered[r]:
                if complete(city):
                    supply.setdefault(city, Counter()).update(c)
        for c in supply.values():
            for seat in winners(c):
                out[(seat, "farm")] += 3
    return out


@given(setup=setups, seed=seeds, choice_seed=seeds)
@PROPERTY
def test_random_games_keep_every_invariant(setup: GameSetup, seed: int, choice_seed: int) -> None:
    state, log = play_checked(setup, seed, choice_seed, exhaustive_every=3)
    # the pile is used up: every tile was placed or discarded
    assert state.pile_pos == len(state.pile) == BASE_PILE
    assert len(state.board.cells) - 1 + len(state.discarded) == BASE_PILE
    assert state.tiles_left == 0 and state.drawn is None
    # at the very end every figure is home
    assert list(state.board.meeples()) == []
    # every turn was one placement then one deploy-or-pass
    places = [a for a in log if isinstance(a, PlaceTile)]
    assert len(places) == len(state.board.cells) - 1
    assert len(log) == 2 * len(places)


@given(setup=setups, seed=seeds, choice_seed=seeds)
@settings(max_examples=20, deadline=None)
def test_replaying_the_same_actions_gives_the_same_game(
    setup: GameSetup, seed: int, choice_seed: int
) -> None:
    state, log = play_checked(setup, seed, choice_seed, exhaustive_every=10**9)
    again = new_game(setup, seed=seed)
    for action in log:
        again = apply(again, again.current, action).state
    assert again.over
    assert snapshot(again) == snapshot(state)
    assert again.scores == state.scores


@given(seed=seeds)
@settings(max_examples=20, deadline=None)
def test_same_seed_same_pile(seed: int) -> None:
    a = new_game(GameSetup(players=3), seed=seed)
    b = new_game(GameSetup(players=3), seed=seed)
    assert snapshot(a) == snapshot(b)
    assert len(a.pile) == BASE_PILE
