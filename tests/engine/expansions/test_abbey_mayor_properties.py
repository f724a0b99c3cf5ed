"""Property tests: random games with Abbey & Mayor, alone and with every other built expansion,
keep every invariant at every step.

Hypothesis draws the setup (players, farm edition, tiny-city rule, the wagon's move, which of
the four parts are in play) and two seeds; each game is played to the end by answering the first
open decision at random (whatever its kind: abbey, place, deploy, wagon, builder). Checked after
every action: the input state is unchanged; every figure is in a supply, on the board or a barn;
each seat's abbey is held or on the board; scores are the sum of the awards; mayors stand in
cities, wagons never in fields, no figure shares a farm with a barn once its scoring is done,
barns stand on corners of four fields; the abbey is offered exactly when its seat holds one and
a hole exists; wagon targets are unfinished, empty roads, cities and cloisters; the in-play
points of roads, cities and cloisters (mayor = pennants, wagon 1, large follower 2) and the
barns' final points match a recomputation from scratch. Kept well under a minute.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Deploy, GameSetup, GameState, apply, new_game
from engine.carcassonne.events import Event, FigureDeployed, PointsScored, TilePlaced
from engine.carcassonne.expansions.abbey_mayor import AbbeyMayorModel, holes
from engine.carcassonne.expansions.abbey_mayor.abbey import _has_hole
from engine.carcassonne.expansions.abbey_mayor.barn import corner_farm
from engine.carcassonne.geometry import Position
from engine.carcassonne.placement import CORNER_SPOTS, occupied, parse_spot
from engine.carcassonne.randomplay import choose_answer
from engine.carcassonne.rules import pending
from engine.carcassonne.scoring import Part
from engine.carcassonne.tiles import FeatureKind
from engine.core.rng import Rng
from tests.engine.test_properties import (
    Node,
    check_answers_listed,
    check_board_model,
    flood,
    snapshot,
)

AM = "abbey_mayor"
ALL = ("inns_cathedrals", "traders_builders", AM)
PARTS = ("am.abbey", "am.mayor", "am.barn", "am.wagon")
STRENGTH = {"follower": 1, "large": 2, "wagon": 1}
#: zero-point lines other rules write on purpose (they say why nothing was scored)
ZERO_PARTS = {"part.mayor_no_pennants", "part.inn_unfinished", "part.cathedral_unfinished"}


@st.composite
def setups(draw: st.DrawFn, expansions: tuple[str, ...]) -> GameSetup:
    options: dict[str, Any] = {"am.wagon_move": draw(st.sampled_from(("road", "near")))}
    if draw(st.booleans()):  # sometimes switch parts off, as JCloisterZone's elements do
        options.update({k: draw(st.booleans()) for k in PARTS})
    return GameSetup(
        players=draw(st.integers(2, 6)),
        expansions=expansions,
        tiny_city=draw(st.sampled_from((2, 4))),
        farm_scoring=draw(st.sampled_from(("per_farm", "city_supply_1st_ed"))),
        options=tuple(sorted(options.items())),
    )


seeds = st.integers(0, 2**63 - 1)
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def model(state: GameState) -> AbbeyMayorModel:
    m = state.ext[AM]
    assert isinstance(m, AbbeyMayorModel)
    return m


def play_checked(setup: GameSetup, seed: int, choice_seed: int) -> GameState:
    state = new_game(setup, seed=seed)
    rng = Rng(choice_seed)
    start = [dict(p.supply) for p in state.players]
    abbeys = 1 if setup.option("am.abbey", True) else 0
    barns: list[tuple[int, tuple[int, int]]] = []  # (seat, corner) of every barn placed
    placed_abbeys: Counter[int] = Counter()
    last_kind = ""
    steps = 0
    while not state.over:
        steps += 1
        assert steps < 20_000
        decisions = pending(state)
        check_decisions(state, decisions, last_kind)
        d = decisions[0]
        action = choose_answer(d, rng)
        before = snapshot(state)
        if steps % 5 == 0:
            check_answers_listed(state)
        tr = apply(state, d.seat, action, key=d.key)
        assert snapshot(state) == before, f"apply changed its input at step {steps}"
        after = tr.state
        for e in tr.events:
            if isinstance(e, FigureDeployed) and e.figure == "barn":
                dx, dy = CORNER_SPOTS[e.spot]
                barns.append((e.seat, (e.pos.x + dx, e.pos.y + dy)))
            if isinstance(e, TilePlaced) and e.tile == "AM/A":
                placed_abbeys[e.seat] += 1
        check_figures(after, start)
        check_scores(state, after, tr.events)
        assert all(
            model(after).abbeys[s] + placed_abbeys[s] == abbeys for s in range(setup.players)
        )
        check_places(after)
        if d.kind == "core.deploy":
            check_play_points(state, action, tr.events)
        if steps % 7 == 0:
            check_board_model(after)
        last_kind = d.kind
        if after.over:
            check_final_barns(after, barns)
        state = after
    # at the very end every figure is home, barns included
    assert list(state.board.meeples()) == [] and model(state).barns == ()
    for seat, p in enumerate(state.players):
        assert p.supply == start[seat]
    return state


def check_decisions(state: GameState, decisions: tuple[Any, ...], last_kind: str) -> None:
    m = model(state)
    seat = decisions[0].seat
    for d in decisions:
        if d.kind == "am.abbey":
            assert m.abbeys[d.seat] > 0 and state.tiles_left > 0
            assert [o.id for o in d.options] == [p.notation() for p in holes(state.board)]
        if d.kind == "am.wagon":
            check_wagon_targets(state, d)
    at_turn_start = len(state.flow) == 1 and last_kind != "am.abbey"
    if decisions[0].kind == "core.place" and at_turn_start and state.setup.option("am.abbey", True):
        # the abbey was not asked: its seat holds none, or there is no hole (§14.1.2)
        assert not (m.abbeys[seat] > 0 and holes(state.board))


def check_wagon_targets(state: GameState, d: Any) -> None:
    board = state.board
    assert d.options and d.optional
    for o in d.options:
        pos = Position(o.target.x, o.target.y)
        placed = board.cells[pos]
        feat = board.feature_of(placed.segs[parse_spot(placed.rt, o.target.spot)])
        assert feat.kind in (FeatureKind.ROAD, FeatureKind.CITY, FeatureKind.CLOISTER)
        assert not occupied(feat) and not feat.done
        if feat.kind is FeatureKind.CLOISTER:
            assert board.neighbours_count(pos) < 8
        else:
            assert feat.open > 0


def check_figures(state: GameState, start: list[dict[str, int]]) -> None:
    on_board: Counter[tuple[int, str]] = Counter()
    for m in state.board.meeples():
        on_board[(m.seat, m.figure)] += 1
    for b in model(state).barns:
        on_board[(b.seat, "barn")] += 1
    for seat, p in enumerate(state.players):
        for kind, n in start[seat].items():
            assert p.supply[kind] >= 0
            assert p.supply[kind] + on_board[(seat, kind)] == n, (seat, kind, state.turn)


def check_scores(before: GameState, after: GameState, events: tuple[Event, ...]) -> None:
    gained = [0] * after.setup.players
    for e in events:
        if isinstance(e, PointsScored):
            for a in e.awards:
                assert a.points >= 0
                if a.points == 0:
                    assert any(getattr(p, "key", "") in ZERO_PARTS for p in e.item.parts)
                gained[a.seat] += a.points
    for seat in range(after.setup.players):
        assert after.scores[seat] - before.scores[seat] == gained[seat]
        assert after.scores[seat] == sum(a.points for a in after.awards if a.seat == seat)


def check_places(state: GameState) -> None:
    """Where figures stand: mayors in cities, wagons never in fields; barns on corners of four
    fields, and (once its scoring step is over) no figure in a barn's farm."""
    board = state.board
    for m in board.meeples():
        kind = board.feature_of(m.seg).kind
        if m.figure == "mayor":
            assert kind is FeatureKind.CITY
        if m.figure == "wagon":
            assert kind is not FeatureKind.FIELD
        assert m.figure != "barn"
    for b in model(state).barns:
        seg = corner_farm(board, *b.corner)
        assert seg is not None and board.root[seg] == board.root[b.seg]
        if state.step != "deploy":  # a joined farm scores after the deploy step
            assert not any(m.seat >= 0 for m in board.feature_of(b.seg).meeples)
    # the start-of-turn hole check (by frontier codes) agrees with the holes listed
    abbeys = model(state).abbeys
    if abbeys and abbeys[0] <= 1:  # every seat starts with one abbey (or none)
        assert _has_hole(board, 0 in abbeys) == bool(holes(board))


def _components(state: GameState) -> tuple[Any, dict[Node, FeatureKind]]:
    cells = state.board.cells
    model_ = flood(state)
    kind = {r: cells[r[0]].tile.features[r[1]].kind for r in model_.members}
    return model_, kind


def check_play_points(before: GameState, action: Any, events: tuple[Event, ...]) -> None:
    """Roads, cities and cloisters the tile just placed completed, scored from scratch: majority
    by figure strength (a mayor counts its city's pennants), all tied winners score in full."""
    if "inns_cathedrals" in before.setup.expansions:
        return  # inns and cathedrals change the values; their own tests cover them
    cells = before.board.cells
    assert before.placed is not None
    placed = cells[before.placed]
    fl, kind = _components(before)
    figures: list[tuple[int, str, Node]] = []
    for m in before.board.meeples():
        figures.append((m.seat, m.figure, (m.pos, cells[m.pos].segs.index(m.seg))))
    if isinstance(action, Deploy) and action.spot not in CORNER_SPOTS:
        figures.append(
            (before.current, action.figure, (placed.pos, parse_spot(placed.rt, action.spot)))
        )
    done: set[Node] = set()
    x, y = placed.pos
    touching = [(placed.pos, f.index) for f in placed.tile.features]
    for side in range(4):  # an abbey closes what touches it
        other = cells.get(placed.pos.neighbour(side))
        if placed.tile.sealed and other is not None:
            fi = other.rt.side_feature[(side + 2) % 4]
            if fi >= 0:
                touching.append((other.pos, fi))
    for node in touching:
        r = fl.root[node]
        if kind[r] in (FeatureKind.ROAD, FeatureKind.CITY) and fl.open[r] == 0:
            done.add(r)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            cpos = Position(x + dx, y + dy)
            if cpos in cells and before.board.neighbours_count(cpos) == 8:
                for f in cells[cpos].tile.features:
                    if f.kind is FeatureKind.CLOISTER:
                        done.add(fl.root[(cpos, f.index)])
    want: Counter[tuple[int, str]] = Counter()
    for r in done:
        nodes = fl.members[r]
        tiles = len({n[0] for n in nodes})
        pennants = sum(cells[p].tile.features[i].pennants for p, i in nodes)
        strength: Counter[int] = Counter()
        for seat, figure, node in figures:
            if fl.root[node] == r:
                strength[seat] += pennants if figure == "mayor" else STRENGTH.get(figure, 0)
        strength = Counter({s: v for s, v in strength.items() if v > 0})
        if not strength:
            continue
        if kind[r] is FeatureKind.ROAD:
            pts = tiles
        elif kind[r] is FeatureKind.CITY:
            tiny = tiles == 2 and before.setup.tiny_city == 2
            pts = 2 + pennants if tiny else 2 * (tiles + pennants)
        else:
            pts = 9
        best = max(strength.values())
        for seat, v in strength.items():
            if v == best:
                want[(seat, kind[r].value)] += pts
    got: Counter[tuple[int, str]] = Counter()
    for e in events:
        if isinstance(e, PointsScored) and e.item.category in ("road", "city", "cloister"):
            if e.item.final:
                continue  # the last tile's deploy also runs the final scoring
            for a in e.awards:
                if a.points:
                    got[(int(a.seat), e.item.category)] += a.points
    assert got == want


def check_final_barns(state: GameState, barns: list[tuple[int, tuple[int, int]]]) -> None:
    """At the end each barn pays its owner 4 per completed city in its farm (once per seat and
    farm), recomputed from the final board."""
    cells = state.board.cells
    fl, kind = _components(state)

    def complete(r: Node) -> bool:
        return kind[r] is FeatureKind.CITY and fl.open[r] == 0

    want: Counter[int] = Counter()
    paid: set[tuple[int, Node]] = set()
    for seat, (cx, cy) in barns:
        se = cells[Position(cx, cy)]
        farm = fl.root[(se.pos, se.rt.half_feature[7])]  # its field at the north-west corner
        if (seat, farm) in paid:
            continue
        paid.add((seat, farm))
        want[seat] += 4 * sum(1 for c in fl.bordered[farm] if complete(c))
    got: Counter[int] = Counter()
    for a in state.awards:
        if a.item.final and any(
            isinstance(p, Part) and p.key.startswith("part.barn_final") for p in a.item.parts
        ):
            got[int(a.seat)] += a.points
    assert +got == +want


@given(setup=setups((AM,)), seed=seeds, choice_seed=seeds)
@settings(PROPERTY, max_examples=20)
def test_random_games_with_abbey_mayor_keep_every_invariant(
    setup: GameSetup, seed: int, choice_seed: int
) -> None:
    state = play_checked(setup, seed, choice_seed)
    assert state.tiles_left == 0 and state.drawn is None


@given(setup=setups(ALL), seed=seeds, choice_seed=seeds)
@settings(PROPERTY, max_examples=10)
def test_random_games_with_every_built_expansion_keep_every_invariant(
    setup: GameSetup, seed: int, choice_seed: int
) -> None:
    play_checked(setup, seed, choice_seed)


@given(seed=seeds, choice_seed=seeds)
@settings(PROPERTY, max_examples=6)
def test_replaying_a_random_game_gives_the_same_game(seed: int, choice_seed: int) -> None:
    setup = GameSetup(players=3, expansions=ALL)
    state = new_game(setup, seed=seed)
    rng = Rng(choice_seed)
    log = []
    while not state.over:
        d = pending(state)[0]
        action = choose_answer(d, rng)
        log.append((d.seat, action))
        state = apply(state, d.seat, action).state
    again = new_game(setup, seed=seed)
    for seat, action in log:
        again = apply(again, seat, action).state
    assert snapshot(again) == snapshot(state)
