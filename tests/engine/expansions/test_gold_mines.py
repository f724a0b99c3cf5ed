"""Gold Mines (RULES.md §9): the rulebook's examples, the placing of the second bar as a
decision, the sharing out in turn order (§9.3, OQ-GOLD-1, OQ-GOLD-2) and the final table
(§9.5). Numbers are derived by hand in each test."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Action, GameSetup, IllegalActionError, Seat, apply, new_game
from engine.carcassonne.actions import Choose, Pass
from engine.carcassonne.board import Meeple
from engine.carcassonne.events import PointsScored
from engine.carcassonne.expansions.gold_mines import (
    BAR_STEP,
    GoldMines,
    GoldModel,
    GoldPlaced,
    GoldRemoved,
    GoldTaken,
    per_bar,
)
from engine.carcassonne.geometry import Position
from engine.carcassonne.record import replay
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind, tile
from engine.core import messages
from engine.core.decisions import Cell
from engine.core.errors import EngineError, NotYourTurnError, StaleStateError
from tests.engine.expansions.scenario import play
from tests.engine.test_properties import snapshot

GM = ("gold_mines",)
RED, BLUE, YELLOW = Seat(0), Seat(1), Seat(2)


def model(s: GameState) -> GoldModel:
    m = s.ext["gold_mines"]
    assert isinstance(m, GoldModel)
    return m


def with_bars(s: GameState, *cells: tuple[Position, int]) -> None:
    m = model(s)
    bars = m.bars
    for pos, n in cells:
        bars = bars.add(pos, n)
    s.ext["gold_mines"] = replace(m, bars=bars)


def do(s: GameState, move: str, seat: Seat | None = None) -> tuple[GameState, list[object]]:
    who = pending(s)[0].seat if seat is None else seat
    tr = apply(s, who, Action.from_notation(move))
    return tr.state, list(tr.events)


def follower(s: GameState, seat: Seat, pos: Position, kind: FeatureKind, nth: int = 0) -> None:
    """Put ``seat``'s follower on the ``nth`` feature of ``kind`` of the tile at ``pos``."""
    placed = s.board.cells[pos]
    index = [f.index for f in placed.rt.tile.features if f.kind is kind][nth]
    s.board.add_meeple(Meeple(seat, "follower", placed.segs[index], pos))
    s.player(seat).supply["follower"] -= 1


def game(pile: tuple[str, ...], players: int = 2) -> GameState:
    setup = GameSetup(players=players, expansions=GM, draw_order=pile, only_forced=True)
    return new_game(setup, seed=1).clone()


def bar_targets(s: GameState) -> list[str]:
    (d,) = [d for d in pending(s) if d.kind == BAR_STEP]
    return [o.id for o in d.options]


# ---------------------------------------------------------------- §9.2 placing the bars
def test_rulebook_blue_places_the_gold_tile_a_bar_on_it_and_one_next_to_it_then_a_follower() -> (
    None
):
    """«El jugador azul coloca la pieza de oro. Coloca un lingote de oro en la pieza y otro en
    una pieza adyacente. A continuación coloca su seguidor en la ciudad.» Red places a city cap
    north of the start tile; blue puts GO/CcRr (city north and west, road east and south)
    turned 3 (city north and east, road west and south)... at (1,0): its neighbours are the
    start tile (west) and the cap (north-west, a diagonal)."""
    s = game(("BA/C", "GO/RrRr", "BA/L"))
    s, _ = do(s, "place 0,-1 r180")
    s, _ = do(s, "pass")
    s, events = do(s, "place 1,0 r0")
    assert model(s).bars.at(Position(1, 0)) == 1  # the first bar: on the gold tile itself
    assert [e for e in events if isinstance(e, GoldPlaced)] == [GoldPlaced(BLUE, Position(1, 0))]
    (d,) = pending(s)
    assert d.kind == BAR_STEP and d.seat == BLUE
    assert bar_targets(s) == ["0,-1", "0,0"]  # the diagonal too; never an empty square
    assert [o.target for o in d.options] == [Cell(0, -1), Cell(0, 0)]
    s, events = do(s, f"{BAR_STEP} 0,-1")
    assert [e for e in events if isinstance(e, GoldPlaced)] == [GoldPlaced(BLUE, Position(0, -1))]
    assert model(s).bars.total == 2 and model(s).bars.at(Position(0, -1)) == 1
    (d,) = pending(s)
    assert d.seat == BLUE and d.kind != BAR_STEP  # then the follower, as usual


def two_neighbours() -> GameState:
    """Red is to place GO/RrRr at (1,0): the start tile west of it, a city cap BA/C at (0,-1)
    north-west of it."""
    s = game(("GO/RrRr", "BA/L"))
    s.board.place(Position(0, -1), tile("BA/C").rotated(2))
    return s


def test_a_bar_may_go_on_a_tile_that_already_holds_bars() -> None:
    s = two_neighbours()
    with_bars(s, (Position(0, 0), 2))
    s, _ = do(s, "place 1,0 r0")
    s, _ = do(s, f"{BAR_STEP} 0,0")
    assert model(s).bars.at(Position(0, 0)) == 3 and model(s).bars.at(Position(1, 0)) == 1


def test_with_a_single_tile_next_to_it_the_second_bar_goes_there_unasked() -> None:
    """Nothing to choose (as JCloisterZone plays): GO/RrRr at (1,0) has only the start tile
    next to it."""
    s = game(("GO/RrRr", "BA/L"))
    s, events = do(s, "place 1,0 r0")
    assert [e for e in events if isinstance(e, GoldPlaced)] == [
        GoldPlaced(RED, Position(1, 0)),
        GoldPlaced(RED, Position(0, 0)),
    ]
    assert all(d.kind != BAR_STEP for d in pending(s))


def test_a_tile_without_gold_puts_no_bar() -> None:
    s = game(("BA/RFr", "BA/L"))
    s, events = do(s, "place 1,0 r0")
    assert model(s).bars.total == 0 and not [e for e in events if isinstance(e, GoldPlaced)]


def test_bad_answers_get_one_line_and_change_nothing() -> None:
    s = two_neighbours()
    s, _ = do(s, "place 1,0 r0")
    key = pending(s)[0].key
    before = snapshot(s)
    cases: list[tuple[Seat, Action, str | None, type[EngineError], str]] = [
        (RED, Choose(BAR_STEP, "5,5"), key, IllegalActionError, "'5,5' is not a tile next"),
        (RED, Choose(BAR_STEP, "1,0"), key, IllegalActionError, "choose one of '0,-1', '0,0'"),
        (RED, Choose(BAR_STEP, "nowhere"), key, IllegalActionError, "'nowhere'"),
        (BLUE, Choose(BAR_STEP, "0,0"), None, NotYourTurnError, "not your turn"),
        (RED, Pass(), key, IllegalActionError, "second gold bar first"),
    ]
    for seat, action, k, error, words in cases:
        with pytest.raises(error) as err:
            apply(s, seat, action, key=k)
        text = str(err.value)
        assert "\n" not in text and words in text, text
    assert snapshot(s) == before
    done = apply(s, RED, Choose(BAR_STEP, "0,0"), key=key).state
    with pytest.raises(StaleStateError):  # an answer after the decision closed
        apply(done, RED, Choose(BAR_STEP, "0,0"), key=key)


# ---------------------------------------------------------------- §9.3 sharing out
def city_of_three() -> GameState:
    """A city running north from the start tile through BA/CFc.1 turned 1 at (0,-1), open at
    its top; red's knight on the start tile's city. Red is to place BA/C turned 2 at (0,-2),
    which closes it: 3 tiles."""
    s = game(("BA/C", "BA/L"))
    s.board.place(Position(0, -1), tile("BA/CFc.1").rotated(1))
    s.board.place(Position(1, 0), tile("BA/RFr").rotated(0))
    follower(s, RED, Position(0, 0), FeatureKind.CITY)
    return s


def test_rulebook_red_completes_their_city_and_takes_the_three_bars_on_its_tiles() -> None:
    """«El jugador rojo completa su ciudad y toma los tres lingotes de oro de las piezas de
    ciudad.» 1 bar on the start tile, 2 on (0,-1): 1 + 2 = 3 to red; the bar on the road tile
    east of the start tile, no city tile, stays."""
    s = city_of_three()
    with_bars(s, (Position(0, 0), 1), (Position(0, -1), 2), (Position(1, 0), 1))
    s, _ = do(s, "place 0,-2 r180")
    s, events = do(s, "pass")
    assert model(s).held == (1 + 2, 0)
    assert model(s).bars.total == 1 and model(s).bars.at(Position(1, 0)) == 1
    gold = [e for e in events if isinstance(e, GoldTaken)]
    assert gold == [GoldTaken(RED, 3)]
    # order of §9.4: the city is scored (3 tiles × 2 = 6), then the gold is shared
    kinds = [type(e) for e in events if isinstance(e, PointsScored | GoldTaken)]
    assert kinds.index(PointsScored) < kinds.index(GoldTaken)
    assert s.scores == (3 * 2, 0)


def test_bars_stay_on_a_completed_feature_nobody_holds() -> None:
    """OQ-GOLD-1: no follower in the city: its bars stay where they lie."""
    s = game(("BA/C", "BA/L"))
    s.board.place(Position(0, -1), tile("BA/CFc.1").rotated(1))
    with_bars(s, (Position(0, 0), 1), (Position(0, -1), 2))
    s, _ = do(s, "place 0,-2 r180")
    s, events = do(s, "pass")
    assert model(s).bars.total == 3 and model(s).held == (0, 0)
    assert not [e for e in events if isinstance(e, GoldTaken)]


def road_of_three(players: int, holders: tuple[Seat, ...]) -> GameState:
    """The start tile's road runs west into a junction BA/RRR at (-1,0); the seat to move
    closes it with BA/RRR turned 2 at (1,0): a road of 3 tiles. ``holders`` have a follower on
    it, the first on the start tile, the second on the junction's east road."""
    s = game(("BA/RRR", "BA/L", "BA/L"), players)
    s.board.place(Position(-1, 0), tile("BA/RRR").rotated(0))
    follower(s, holders[0], Position(0, 0), FeatureKind.ROAD)
    if len(holders) > 1:
        placed = s.board.cells[Position(-1, 0)]
        root = s.board.root
        home = s.board.cells[Position(0, 0)]
        start = next(
            root[home.segs[f.index]] for f in home.rt.tile.features if f.kind is FeatureKind.ROAD
        )
        index = next(
            f.index
            for f in placed.rt.tile.features
            if f.kind is FeatureKind.ROAD and root[placed.segs[f.index]] == start
        )
        s.board.add_meeple(Meeple(holders[1], "follower", placed.segs[index], placed.pos))
        s.player(holders[1]).supply["follower"] -= 1
    return s


def test_rulebook_red_completes_a_road_shared_with_blue_red_takes_then_blue_then_red() -> None:
    """«Es el turno del jugador rojo y completa el camino. El jugador rojo y el jugador azul
    tienen derecho al oro ... el jugador rojo es el primero en tomar, luego sigue el jugador
    azul y por último el jugador rojo.» 3 bars: red 1 + 1 = 2, blue 1."""
    s = road_of_three(2, (RED, BLUE))
    with_bars(s, (Position(0, 0), 2), (Position(-1, 0), 1))
    s, _ = do(s, "place 1,0 r180")
    s, events = do(s, "pass")
    assert [e for e in events if isinstance(e, GoldTaken)] == [
        GoldTaken(RED, 2),
        GoldTaken(BLUE, 1),
    ]
    assert model(s).held == (2, 1) and model(s).bars.total == 0


def test_the_first_bar_goes_to_the_first_involved_player_after_the_active_one() -> None:
    """OQ-GOLD-2: red completes a road held by blue and yellow: 4 bars, blue first, then
    yellow, blue, yellow: 2 each; 5 bars: blue 3, yellow 2."""
    for bars, want in ((4, (0, 2, 2)), (5, (0, 3, 2))):
        s = road_of_three(3, (YELLOW, BLUE))
        with_bars(s, (Position(0, 0), bars))
        s, _ = do(s, "place 1,0 r180")
        s, events = do(s, "pass")
        assert model(s).held == want
        assert [e.seat for e in events if isinstance(e, GoldTaken)] == [BLUE, YELLOW]


def test_a_cloister_takes_the_bars_of_its_tile_and_the_eight_around_it() -> None:
    """A cloister at (0,1) south of the start tile, red's monk on it, with the 7 tiles around
    it placed; red closes the ring at (1,2). Bars: 1 on the start tile (north), 1 on (-1,2)
    (south-west) and 1 two tiles away at (0,3): 1 + 1 = 2 to red, the far one stays."""
    s = game(("BA/L", "BA/L"))
    b = s.board
    b.place(Position(0, 1), tile("BA/L").rotated(0))
    for pos in ((-1, 0), (1, 0)):
        b.place(Position(*pos), tile("BA/RFr").rotated(0))
    for pos in ((-1, 1), (1, 1), (-1, 2), (0, 2), (0, 3)):
        b.place(Position(*pos), tile("BA/L").rotated(0))
    follower(s, RED, Position(0, 1), FeatureKind.CLOISTER)
    with_bars(s, (Position(0, 0), 1), (Position(-1, 2), 1), (Position(0, 3), 1))
    s, _ = do(s, "place 1,2 r0")
    s, events = do(s, "pass")
    assert [e for e in events if isinstance(e, GoldTaken)] == [GoldTaken(RED, 1 + 1)]
    assert model(s).bars.total == 1 and model(s).bars.at(Position(0, 3)) == 1


# ---------------------------------------------------------------- §9.5 the final table
@pytest.mark.parametrize(
    ("bars", "points"),
    [(1, 1), (3, 3), (4, 4 * 2), (6, 6 * 2), (7, 7 * 3), (9, 9 * 3), (10, 10 * 4), (16, 16 * 4)],
)
def test_the_final_table_values_every_bar_by_the_row_of_the_total(bars: int, points: int) -> None:
    assert bars * per_bar(bars) == points


def test_rulebook_red_has_102_points_and_7_bars_and_ends_with_123() -> None:
    """«El jugador rojo ha conseguido 102 puntos y tiene 7 lingotes de oro. El oro vale 7 × 3 =
    21 puntos. La puntuación final del jugador rojo es de 123 puntos.» The bars left on tiles
    are removed; blue's 2 bars are worth 2 × 1."""
    s = game(("BA/L",))
    s.player(RED).score = 102
    with_bars(s, (Position(0, 0), 3))
    s.ext["gold_mines"] = replace(model(s), held=(7, 2))
    events = list(GoldMines(s.setup).final_scoring(s))
    assert GoldRemoved(3) in events and model(s).bars.total == 0
    assert s.scores == (102 + 7 * 3, 2 * 1)
    gold = [a for a in s.awards if a.item.category == "gold"]
    assert [(a.seat, a.points, a.item.final) for a in gold] == [(RED, 21, True), (BLUE, 2, True)]
    assert [str(p) for p in gold[0].item.parts] == ["7 gold bars × 3"]


def test_a_game_ends_with_the_gold_column_and_replays() -> None:
    p = play(
        ["GO/RrRr", "BA/L"],
        ["place 1,0 r0", "deploy road:NW", "place 0,1 r0", "pass"],
        expansions=GM,
    )
    assert p.state.over and GoldRemoved(2) in p.events and model(p.state).bars.total == 0


# ---------------------------------------------------------------- words
def test_words_in_english_and_spanish() -> None:
    assert messages.text("gold.held", "en", n=1) == "1 gold bar"
    assert messages.text("gold.held", "es", n=3) == "3 lingotes de oro"
    assert messages.text("score.gold", "es") == "oro"
    assert messages.text("exp.gold_mines", "es") == "Minas de oro"
    assert GoldTaken(RED, 2).prompt().key == "gold.took"


def test_a_random_record_replays_to_the_same_scores() -> None:
    from engine import play_random_game

    g = play_random_game(GameSetup(players=3, expansions=GM), 1)
    assert replay(g.record).scores == g.state.scores
