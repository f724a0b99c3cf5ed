"""Traders & Builders: RULES.md §5 (builder double turn, pig, goods)."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.carcassonne.expansions.traders_builders import BuilderBonus, GoodsTaken
from engine.carcassonne.rules import legal_deploys, pending
from tests.engine.expansions.scenario import play, points

TB = ("traders_builders",)

BUILDER_PILE = ["BA/RFr", "BA/C", "BA/RFr", "BA/L", "BA/RFr", "BA/RFr", "BA/L"]
BUILDER_MOVES = [
    "place 1,0 r0",
    "deploy road:EW",  # blue: thief on the start road
    "place 0,-1 r180",
    "pass",  # red
    "place 2,0 r0",
    "deploy builder road:EW",  # blue: builder joins the thief's road
    "place 0,1 r0",
    "pass",  # red
    "place 3,0 r0",
    "pass",  # blue extends the builder's road -> a second tile is offered
    "tb.bonus take",  # the rulebook's "may": blue takes it
    "place 4,0 r0",
    "pass",  # blue's bonus tile extends it again: no third tile
    "place 0,2 r0",
    "pass",  # red
]


def test_builder_gives_one_extra_tile_and_never_a_chain() -> None:
    p = play(BUILDER_PILE, BUILDER_MOVES, expansions=TB)
    movers = [
        m for m, text in zip(p.movers, BUILDER_MOVES, strict=True) if text.startswith("place")
    ]
    assert movers == [0, 1, 0, 1, 0, 0, 1]
    assert sum(isinstance(e, BuilderBonus) for e in p.events) == 1


def test_builder_second_tile_is_an_optional_decision() -> None:
    # blue extends its builder's road: the engine asks before drawing the second tile
    p = play(BUILDER_PILE, BUILDER_MOVES[:10], expansions=TB)
    (d,) = pending(p.state)
    assert (d.kind, d.seat, d.optional) == ("tb.bonus", 0, True)
    assert [o.action.notation() for o in d.options] == ["tb.bonus take"]
    assert p.state.drawn is None  # nothing is revealed before the answer
    # declining passes the turn to red
    q = play(BUILDER_PILE, BUILDER_MOVES[:10] + ["pass"], expansions=TB)
    assert q.state.current == 1 and q.state.step == "place"
    assert q.state.turn == p.state.turn + 1


def test_builder_second_tile_automatic_as_an_option_and_in_old_records() -> None:
    moves = [m for m in BUILDER_MOVES if not m.startswith("tb.")]
    auto = play(BUILDER_PILE, moves, expansions=TB, options=(("tb.builder_bonus", "auto"),))
    old = play(BUILDER_PILE, moves, expansions=TB, flow=1)
    asked = play(BUILDER_PILE, BUILDER_MOVES, expansions=TB)
    assert auto.state.scores == old.state.scores == asked.state.scores
    assert auto.state.board.cells.keys() == asked.state.board.cells.keys()


def test_builder_needs_an_own_follower_in_the_feature() -> None:
    p = play(BUILDER_PILE[:2], BUILDER_MOVES[:2] + ["place 0,-1 r180"], expansions=TB)
    # red has no follower anywhere: no builder spot is offered, and naming one is refused
    assert not [d for d in legal_deploys(p.state) if d.figure == "builder"]
    with pytest.raises(IllegalActionError):
        play(
            BUILDER_PILE[:2],
            BUILDER_MOVES[:2] + ["place 0,-1 r180", "deploy builder city:S"],
            expansions=TB,
        )
    # blue's builder is offered on the road with its thief, never on a field
    q = play(BUILDER_PILE[:3], BUILDER_MOVES[:4] + ["place 2,0 r0"], expansions=TB)
    spots = {d.spot for d in legal_deploys(q.state) if d.figure == "builder"}
    assert spots == {"road:EW"}


def test_builder_returns_with_the_scored_road() -> None:
    # close the road with crossings at both ends: the thief scores, thief and builder return
    p = play(
        ["BA/RFr", "BA/C", "BA/RFr", "BA/RRR", "BA/RRR"],
        [
            "place 1,0 r0",
            "deploy road:EW",
            "place 0,-1 r180",
            "pass",
            "place 2,0 r0",
            "deploy builder road:EW",
            "place 3,0 r0",
            "pass",
            "place -1,0 r0",
            "pass",
        ],
        expansions=TB,
    )
    assert points(p, "road") == [(0, 5)]
    assert p.state.players[0].supply == {"follower": 7, "builder": 1, "pig": 1}


PIG_PILE = ["BA/CFC.2", "BA/C", "BA/L"]
PIG_MOVES = [
    "place 0,-1 r0",
    "deploy field:En.Es.Ws.Wn",  # closes the start city (2 tiles)
    "place 0,-2 r180",
    "pass",  # closes the second city
    "place 1,-1 r0",
    "deploy pig field:Nw.Ne.En.Es.Se.Sw.Ws.Wn",
]


def test_pig_makes_each_city_worth_four_to_its_farm_owner() -> None:
    p = play(PIG_PILE, PIG_MOVES, expansions=TB)
    assert p.state.over
    assert points(p, "farm") == [(0, 8)]  # 2 completed cities × (3 + 1)
    (award,) = [a for a in p.state.awards if a.item.category == "farm"]
    assert award.bonus == ("pig +2",)


def test_pig_in_first_edition_farm_scoring() -> None:
    p = play(PIG_PILE, PIG_MOVES, expansions=TB, farm_scoring="city_supply_1st_ed")
    assert points(p, "farm") == [(0, 4), (0, 4)]


def test_no_pig_no_bonus_and_pig_needs_a_farmer() -> None:
    p = play(PIG_PILE, PIG_MOVES[:4] + ["place 1,-1 r0", "pass"], expansions=TB)
    assert points(p, "farm") == [(0, 6)]
    q = play(PIG_PILE, PIG_MOVES[:2] + ["place 0,-2 r180"], expansions=TB)
    assert not [d for d in legal_deploys(q.state) if d.figure == "pig"]  # red has no farmer


def test_goods_go_to_the_player_who_completes_the_city() -> None:
    # blue puts a knight on the wine city; red closes it: blue scores, red takes the wine
    p = play(
        ["TB/Cc.w", "BA/C"],
        ["place 0,-1 r180", "deploy city:ES", "place 1,-1 r270", "pass"],
        expansions=TB,
    )
    assert points(p, "city") == [(0, 6)]
    assert [e for e in p.events if isinstance(e, GoodsTaken)] == [GoodsTaken(1, (1, 0, 0))]
    assert points(p, "goods") == [(1, 10)]
    assert p.state.scores == (6, 10)


def test_goods_ties_pay_everyone_and_nobody_scores_an_empty_kind() -> None:
    p = play(
        ["TB/Cc.w", "BA/C", "TB/CFc.w", "BA/C", "BA/C"],
        [
            "place 0,-1 r180",
            "pass",
            "place 1,-1 r270",
            "pass",  # red takes 1 wine
            "place 0,1 r0",
            "pass",  # the wine city on the S side stays open ...
            "place 1,1 r270",
            "pass",
            "place -1,1 r90",
            "pass",
        ],  # ... until blue closes it
        expansions=TB,
    )
    goods = [e for e in p.events if isinstance(e, GoodsTaken)]
    assert goods == [GoodsTaken(1, (1, 0, 0)), GoodsTaken(0, (1, 0, 0))]
    assert sorted(points(p, "goods")) == [(0, 10), (1, 10)]
