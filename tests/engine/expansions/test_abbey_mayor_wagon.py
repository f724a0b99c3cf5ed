"""Abbey & Mayor: RULES.md §14.4 (the wagon), §14.5 (the new tiles) and the expansion's words;
§14.1–§14.3 are in ``test_abbey_mayor.py``. Seat 0 is "blue", seat 1 "red"."""

from __future__ import annotations

from engine.carcassonne.expansions.abbey_mayor import WagonMoved
from engine.carcassonne.rules import legal_deploys, pending
from engine.carcassonne.tiles import FeatureKind
from engine.core.decisions import FeatureRef
from tests.engine.expansions.scenario import play, points
from tests.engine.expansions.test_abbey_mayor import (
    ABBEY_MOVES,
    ABBEY_PILE,
    AM,
    BARN_MOVES,
    BARN_PILE,
    MAYOR_MOVES,
    MAYOR_PILE,
    options,
    refused,
)

# ------------------------------------------------------------------------------------ wagon
#: §14.4.5 example 1: blue's wagon on a road from a junction to a cloister; the junction's
#: other roads: the far-left one (red's thief) and one running down (empty)
WAGON1_PILE = ["BA/RFr", "BA/RRR", "BA/RFr", "BA/RFr", "BA/LR", "BA/L"]
WAGON1_MOVES = [
    "place 1,0 r0",
    "deploy wagon road:EW",
    "place -1,0 r0",
    "deploy road:W",  # red: thief on the junction's west road
    "place -1,1 r90",
    "pass",  # the road down from the junction
    "place -2,0 r0",
    "pass",
    "place 2,0 r90",
    "pass",  # blue closes the road at the cloister
]


def test_wagon_example_1_cloister_or_the_road_down_not_reds_road() -> None:
    """§14.4.5 (1): blue scores 4 for the road; the wagon may move to the cloister on the right
    or to the road at the bottom end; not to the far-left road (red's follower)."""
    p = play(WAGON1_PILE, WAGON1_MOVES, expansions=AM)
    assert points(p, "road") == [(0, 4)]
    assert p.state.step == "am.wagon"
    (d,) = pending(p.state)
    assert (d.seat, d.optional) == (0, True)
    assert {o.id: o.target for o in d.options} == {
        "-1,0@road:S": FeatureRef(-1, 0, "road:S"),
        "2,0@cloister": FeatureRef(2, 0, "cloister"),
    }
    q = play(WAGON1_PILE, [*WAGON1_MOVES, "am.wagon 2,0@cloister"], expansions=AM)
    assert WagonMoved(0, (2, 0), "cloister", "cloister") in q.events  # type: ignore[arg-type]
    assert q.state.players[0].supply["wagon"] == 0
    assert [m.figure for m in q.state.board.meeples() if m.seat == 0] == ["wagon"]
    assert sum(1 for _ in q.state.awards) == 1  # moving scores nothing (OQ-WAG-2)
    err = refused(WAGON1_PILE, [*WAGON1_MOVES, "am.wagon -2,0@road:EW"], expansions=AM)
    assert err.key == "am.err.wagon_target"
    # passing keeps it home
    r = play(WAGON1_PILE, [*WAGON1_MOVES, "pass"], expansions=AM)
    assert r.state.players[0].supply["wagon"] == 1 and r.state.step == "place"


WAGON2_PILE = ["BA/RRR", "BA/RFr", "BA/RFr", "BA/LR", "BA/CccR", "BA/L"]
WAGON2_MOVES = [
    "place 1,0 r90",
    "deploy wagon road:S",  # blue: wagon on the junction's road down
    "place -1,0 r0",
    "deploy road:EW",  # red: thief on the road left of the junction
    "place 1,-1 r90",
    "pass",
    "place 1,-2 r0",
    "pass",  # the long top road is completed (by nobody)
    "place 1,1 r180",
    "pass",  # blue's road ends at a city gate: 2 tiles
]


def test_wagon_example_2_only_the_city_at_the_bottom_end() -> None:
    """§14.4.5 (2): blue scores 2 for a road; the wagon may move to the city at the bottom end,
    not to the left road (red) nor to the long top road (already complete)."""
    p = play(WAGON2_PILE, WAGON2_MOVES, expansions=AM)
    assert points(p, "road") == [(0, 2)]
    assert options(p, "am.wagon") == ["1,1@city:ESW"]


WAGON3_PILE = ["BA/CccR+", "BA/LR", "BA/C", "BA/RrC", "BA/C", "BA/RFr", "BA/CccR", "BA/L"]
WAGON3_MOVES = [
    "place 0,-1 r180",
    "deploy wagon city:ESW",  # blue: wagon in the city above the start
    "place 0,-2 r0",
    "pass",  # the road at the top ends at a cloister: complete
    "place -1,-1 r90",
    "pass",
    "place 1,0 r0",
    "pass",
    "place 1,-2 r180",
    "pass",
    "place -1,0 r0",
    "pass",
    "place 1,-1 r270",
    "pass",  # blue completes the city; its tile has a road leaving the gate to the right
]


def test_wagon_example_3_from_the_city_to_the_road_on_the_right() -> None:
    """§14.4.5 (3): blue scores 14 for a city; the wagon may move to the road on the right that
    leaves the city, not to the completed road at the top."""
    p = play(WAGON3_PILE, WAGON3_MOVES, expansions=AM)
    assert points(p, "city") == [(0, 14)]
    assert options(p, "am.wagon") == ["1,-1@road:E"]


#: two roads completed by one tile, each with a wagon: red's scores first (its feature comes
#: first on the tile), blue is the active player
ORDER_PILE = ["BA/Rr", "BA/RRR", "BA/Rr", "BA/RFr", "BA/RRR", "BA/L"]
ORDER_MOVES = [
    "place 1,0 r0",
    "deploy wagon road:SW",
    "place -1,0 r0",
    "deploy wagon road:S",
    "place -1,1 r180",
    "pass",
    "place 0,1 r0",
    "pass",
    "place 1,1 r180",
    "pass",
]


def test_wagons_move_in_turn_order_from_the_active_player() -> None:
    """OQ-WAG-2: after all the scoring, wagons move in turn order starting with the active
    player; a target taken by the first is no longer offered to the next."""
    p = play(ORDER_PILE, ORDER_MOVES, expansions=AM)
    assert p.state.scores == (4, 4)
    (d,) = pending(p.state)
    assert d.seat == 0 and [o.id for o in d.options] == ["-1,0@road:W", "1,1@road:E"]
    q = play(ORDER_PILE, [*ORDER_MOVES, "am.wagon -1,0@road:W"], expansions=AM)
    (d,) = pending(q.state)
    assert d.seat == 1 and [o.id for o in d.options] == ["1,1@road:E"]
    r = play(ORDER_PILE, [*ORDER_MOVES, "am.wagon -1,0@road:W", "pass"], expansions=AM)
    assert r.state.step == "place" and r.state.current == 1
    assert r.state.players[1].supply["wagon"] == 1


def test_wagon_moves_without_the_majority() -> None:
    """OQ-WAG-2: the wagon may move whether or not its owner won the feature: red's two knights
    beat blue's wagon in the 18-point city, and blue's wagon still moves on."""
    moves = [m.replace("deploy mayor", "deploy wagon") for m in MAYOR_MOVES]
    p = play(MAYOR_PILE, moves, expansions=AM, options=(("am.wagon_move", "near"),))
    assert points(p, "city") == [(1, 18)]
    (d,) = pending(p.state)
    assert (d.kind, d.seat) == ("am.wagon", 0) and d.options


def test_wagon_never_on_a_field_and_never_beside_a_follower() -> None:
    p = play(["BA/RFr", "BA/L"], ["place 1,0 r0"], expansions=AM)
    wagons = {d.spot for d in legal_deploys(p.state) if d.figure == "wagon"}
    assert wagons == {"road:EW"}  # the start city is not on this tile; no field
    err = refused(
        ["BA/RFr", "BA/L"], ["place 1,0 r0", "deploy wagon field:Nw.Ne.En.Wn"], expansions=AM
    )
    assert err.key == "am.err.wagon_field"
    # a road with a follower takes no wagon (§14.4.1)
    q = play(
        ["BA/RFr", "BA/RFr", "BA/L"],
        ["place 1,0 r0", "deploy road:EW", "place 2,0 r0"],
        expansions=AM,
    )
    assert not [d for d in legal_deploys(q.state) if d.figure == "wagon"]


def test_wagon_move_near_is_jcloisterzones_variant() -> None:
    """Match option ``am.wagon_move=near`` (JCloisterZone 5's default): any unfinished empty
    feature on the wagon's tile or the 8 around it, linked or not."""
    p = play(WAGON2_PILE, WAGON2_MOVES, expansions=AM, options=(("am.wagon_move", "near"),))
    # the wagon stood at (1,0): the start city beside it qualifies though no road leads there;
    # red's road is occupied and the top road complete
    assert sorted(options(p, "am.wagon")) == ["0,0@city:N", "1,1@city:ESW"]


# ------------------------------------------------------------------------------------ tiles
def test_new_tiles_the_tunnel_the_well_and_the_split_fields() -> None:
    """§14.5: the tunnel's road is one road and splits the field only in its upper part; the
    well's road goes on in three directions; the curves touching the city wall make 3 fields."""
    from engine.carcassonne.tiles import tile

    tunnel = tile("AM/CRcr+")
    roads = [f for f in tunnel.features if f.kind is FeatureKind.ROAD]
    assert len(roads) == 1 and roads[0].tunnel
    halves = {f.halves for f in tunnel.features if f.kind is FeatureKind.FIELD}
    assert halves == {0b1, 0b10, 0b110000}  # Nw and Ne apart (the upper part), Se+Sw one
    well = tile("AM/Rrr")
    (road,) = [f for f in well.features if f.kind is FeatureKind.ROAD]
    assert bin(road.sides).count("1") == 3 and road.ends is None
    for tid in ("AM/CRr", "AM/RrC"):
        assert sum(f.kind is FeatureKind.FIELD for f in tile(tid).features) == 3
    dead_end = tile("AM/R")
    assert [f.ends for f in dead_end.features if f.kind is FeatureKind.ROAD] == ["dead end"]


# ---------------------------------------------------------------------------------- words
def test_every_prompt_event_option_and_refusal_has_english_and_spanish_words() -> None:
    from engine.carcassonne.expansions.abbey_mayor import AbbeyMayor
    from engine.core import messages

    keys = {"exp.abbey_mayor", "kind_corner", "fig.mayor", "fig.barn", "fig.wagon"}
    for o in AbbeyMayor.options:
        keys |= {f"opt.{o.key}", f"help.{o.key}"}
    keys |= {f"choice.am.wagon_move.{v}" for v in ("road", "near")}
    seen_prompts: set[str] = set()
    for pile, moves in (
        ([*ABBEY_PILE, "BA/Rr"], [*ABBEY_MOVES, "am.abbey 1,-2", "pass"]),
        (WAGON1_PILE, [*WAGON1_MOVES, "am.wagon 2,0@cloister"]),
        (BARN_PILE, [*BARN_MOVES, "deploy barn corner:NW"]),
    ):
        for n in range(len(moves) + 1):
            p = play(pile, moves[:n], expansions=AM)
            seen_prompts |= {d.prompt.key for d in pending(p.state)}
            for prompt in [d.prompt for d in pending(p.state)]:
                seen_prompts |= {v.key for _, v in prompt.params if hasattr(v, "key")}
        for e in p.events:
            prompt = e.prompt()
            if prompt is not None:
                seen_prompts.add(prompt.key)
                seen_prompts |= {v.key for _, v in prompt.params if hasattr(v, "key")}
        for a in p.state.awards:
            seen_prompts |= {part.key for part in a.item.parts if hasattr(part, "key")}
    keys |= {k for k in seen_prompts if k.startswith(("am.", "part.barn", "part.mayor"))}
    assert {"am.abbey", "am.wagon", "am.abbey_played", "am.wagon_moved"} <= keys
    keys |= {k for k in messages.MESSAGES if k.startswith("am.err.")}
    for key in sorted(keys):
        assert messages.has(key), key
        en, es = messages.MESSAGES[key]
        assert en and es and en != es, key
