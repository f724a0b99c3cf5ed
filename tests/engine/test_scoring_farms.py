"""Base-game farm scoring on exact boards: both editions (per farm; the 1st edition's city
supply), ties, majorities, and the rulebook's two-farm vectors (RULES.md §3.3).

Boards are built as in test_scoring_base.py (:func:`tests.engine.helpers.play`).
"""

from __future__ import annotations

import pytest

from engine import Seat
from tests.engine.helpers import SPARE, feature, on_board, play, setup, supply

# ---------------------------------------------------------------------------- farms
# City K = start city + BA/CFc.1 (N–S, fields on both sides) + BA/C closing from the north: a
# completed 3-tile city bordered by four separate farms.
#   X = west field of (0,-1)          seat 0's farmer
#   Y = the field of (0,-2)           seat 1's farmer
#   A = start's north field + (1,0)'s north field (+ (-1,0)'s)   seat 1's farmer
THREE_FARMS = [
    "place 0,-1 r90",
    "deploy field:Ws.Wn",
    "place 0,-2 r180",  # completes K (no knight)
    "deploy field:Nw.Ne.En.Es.Ws.Wn",
    "place -1,0 r0",
    "pass",
    "place 1,0 r0",
    "deploy field:Nw.Ne.En.Wn",
]
THREE_FARMS_DRAW = ["BA/CFc.1", "BA/C", "BA/RFr", "BA/RFr"]


def test_farms_per_farm_pays_each_owner_of_each_bordering_farm() -> None:
    game = play(setup(THREE_FARMS_DRAW, farm_scoring="per_farm"), THREE_FARMS)
    assert game.state.over
    assert game.points(final=True, category="farm") == {0: 3, 1: 6}
    assert game.scores == (3, 6)
    # farmers stood on three different farms
    farms = {id(feature(game.states[-2], *xy, spot)) for xy, spot in _farm_spots()}
    assert len(farms) == 3


def _farm_spots() -> list[tuple[tuple[int, int], str]]:
    return [
        ((0, -1), "field:Ws.Wn"),
        ((0, -2), "field:Nw.Ne.En.Es.Ws.Wn"),
        ((1, 0), "field:Nw.Ne.En.Wn"),
    ]


def test_farms_first_edition_pays_each_city_once_to_the_supply_majority() -> None:
    game = play(setup(THREE_FARMS_DRAW, farm_scoring="city_supply_1st_ed"), THREE_FARMS)
    assert game.state.over
    # seat 1 supplies K with 2 farmers (two farms), seat 0 with 1: only seat 1 scores, once
    assert game.points(final=True, category="farm") == {1: 3}
    assert game.scores == (0, 3)


def test_farmers_stay_on_the_board_until_the_end() -> None:
    game = play(setup([*THREE_FARMS_DRAW, SPARE]), THREE_FARMS)
    assert not game.state.over
    assert on_board(game.state, 0) == 1 and on_board(game.state, 1) == 2
    assert supply(game.state, 0) == 6 and supply(game.state, 1) == 5
    # K was completed during play, yet no farmer was returned and no farm scored
    assert game.returned() == []
    assert game.awards(category="farm") == []


# Tie: seat 0's farmer on the field of (0,-1) (wrapped round K2 = start city + BA/C), seat 1's on
# the start's north field through (1,0); the cloister at (1,-1) joins the two farms.
FARM_TIE = [
    "place 0,-1 r180",
    "deploy field:Nw.Ne.En.Es.Ws.Wn",
    "place 1,0 r0",
    "deploy field:Nw.Ne.En.Wn",
    "place 1,-1 r0",
    "pass",
]


@pytest.mark.parametrize("edition", ["per_farm", "city_supply_1st_ed"])
def test_farm_tie_both_owners_score(edition: str) -> None:
    game = play(setup(["BA/C", "BA/RFr", "BA/L"], farm_scoring=edition), FARM_TIE)
    assert game.state.over
    # the two farms became one: it borders K2 from several tiles but K2 counts once
    assert game.points(final=True, category="farm") == {0: 3, 1: 3}
    (ev,) = [e for e in game.scored() if e.item.category == "farm"]
    assert ev.item.winners == (Seat(0), Seat(1))


@pytest.mark.parametrize("edition", ["per_farm", "city_supply_1st_ed"])
def test_farm_majority_two_farmers_beat_one(edition: str) -> None:
    # Three separate farms, then the cloister at (1,-1) joins them: seat 0 ends with two
    # farmers (Y round K2, Z round K3), seat 1 with one (A, the start's north field).
    game = play(
        setup(["BA/C", "BA/RFr", "BA/L", "BA/RCr", "BA/C", "BA/L"], farm_scoring=edition),
        [
            "place 0,-1 r180",  # seat 0: closes K2 = start city + this cap; farmer Y
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place 1,0 r0",  # seat 1: farmer A
            "deploy field:Nw.Ne.En.Wn",
            "place 0,1 r0",  # seat 0: filler south of the road
            "pass",
            "place 2,0 r0",  # seat 1: city cap facing north, road on
            "pass",
            "place 2,-1 r180",  # seat 0: closes K3; farmer Z (walled off from A by K3)
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place 1,-1 r0",  # seat 1: cloister joins Y, A and Z
            "pass",
        ],
    )
    farm = feature(game.state, 1, -1, "field:Nw.Ne.En.Es.Se.Sw.Ws.Wn")
    assert farm is feature(game.state, 0, -1, "field:Nw.Ne.En.Es.Ws.Wn")
    assert farm is feature(game.state, 2, -1, "field:Nw.Ne.En.Es.Ws.Wn")
    merged = feature(game.states[-2], 1, -1, "field:Nw.Ne.En.Es.Se.Sw.Ws.Wn")
    assert merged.strength() == {Seat(0): 2, Seat(1): 1}
    assert game.points(final=True, category="farm") == {0: 6}
    assert game.scores == (6, 0)


def test_incomplete_city_never_scores_for_farmers() -> None:
    # seat 0 farms the start's north field: it borders only the (open) start city
    for edition in ("per_farm", "city_supply_1st_ed"):
        game = play(
            setup(["BA/RFr", "BA/RFr"], farm_scoring=edition),
            ["place 1,0 r0", "deploy field:Nw.Ne.En.Wn", "place -1,0 r0", "pass"],
        )
        assert game.state.over
        assert game.points(category="farm") == {}
        assert game.scores == (0, 0)
        # the farmer still went home at the end
        assert supply(game.state, 0) == 7


def test_city_inside_a_farm_scores_for_it() -> None:
    # K2 (start city + BA/C) ends up wholly inside one farm that wraps round it
    game = play(
        setup(["BA/C", "BA/RFr", "BA/L", "BA/RFr", "BA/L"]),
        [
            "place 0,-1 r180",
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place 1,0 r0",
            "pass",
            "place 1,-1 r0",
            "pass",
            "place -1,0 r0",
            "pass",
            "place -1,-1 r0",
            "pass",
        ],
    )
    farm = feature(game.state, 0, -1, "field:Nw.Ne.En.Es.Ws.Wn")
    assert farm is feature(game.state, 1, 0, "field:Nw.Ne.En.Wn")
    assert farm is feature(game.state, -1, 0, "field:Nw.Ne.En.Wn")
    assert game.points(final=True, category="farm") == {0: 3}


def test_farm_scores_every_bordering_completed_city() -> None:
    # a farm bordering two completed cities scores 6: start city closed by BA/C at (0,-1), and
    # a second 2-tile city: BA/C at (1,-1) facing north, closed by BA/C at (1,-2)
    game = play(
        setup(["BA/C", "BA/C", "BA/C", "BA/RFr"]),
        [
            "place 0,-1 r180",
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place 1,-1 r0",  # city N; its field touches (0,-1)'s field on the W edge
            "pass",
            "place 1,-2 r180",
            "pass",
            "place 1,0 r0",
            "pass",
        ],
    )
    assert game.points(final=True, category="farm") == {0: 6}


@pytest.mark.parametrize("edition", ["per_farm", "city_supply_1st_ed"])
def test_rulebook_two_farms_vector(edition: str) -> None:
    # RULES.md §3.3: red owns the large farm bordering cities A and B -> 6; blue owns the small
    # farm bordering A only -> 3. A = start city + cap (0,-1); B = caps (1,-1) + (1,-2).
    # Edition A gives the same here: A is tied 1-1 across its two farms, B is red's alone.
    game = play(
        setup(["BA/C", "BA/RFr", "BA/C", "BA/C"], farm_scoring=edition),
        [
            "place 0,-1 r180",  # red (seat 0): closes A, farmer in the large farm
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place -1,0 r0",  # blue (seat 1): farmer in the start's north field
            "deploy field:Nw.Ne.En.Wn",
            "place 1,-1 r0",  # the large farm reaches B's southern cap
            "pass",
            "place 1,-2 r180",  # closes B
            "pass",
        ],
    )
    large = feature(game.states[-2], 0, -1, "field:Nw.Ne.En.Es.Ws.Wn")
    small = feature(game.states[-2], -1, 0, "field:Nw.Ne.En.Wn")
    assert large is not small
    assert game.points(final=True, category="farm") == {0: 6, 1: 3}


@pytest.mark.parametrize("edition", ["per_farm", "city_supply_1st_ed"])
def test_rulebook_two_farms_tie_variant(edition: str) -> None:
    # RULES.md §3.3 tie variant: red (seat 0) and yellow (seat 1) tie in the large farm, which
    # borders cities A and B -> 6 each; blue (seat 2) owns the small farm bordering A -> 3.
    # A = start city + cap (0,-1); B = caps (2,-1) + (2,-2). Red farms round A's cap, yellow
    # the far side of the road at (1,-1); the cloister at (1,-2), where that road ends, joins
    # the two sides into the large farm.
    game = play(
        setup(
            ["BA/C", "BA/RFr", "BA/RFr", "BA/C", "BA/C", "BA/LR"], players=3, farm_scoring=edition
        ),
        [
            "place 0,-1 r180",  # red: closes A, farmer round it
            "deploy field:Nw.Ne.En.Es.Ws.Wn",
            "place 1,-1 r90",  # yellow: road N-S; its west field joins red's, east one is free
            "deploy field:Ne.En.Es.Se",
            "place -1,0 r0",  # blue: the start's north field, bordering A only
            "deploy field:Nw.Ne.En.Wn",
            "place 2,-1 r0",  # red: B's southern cap, its field joins yellow's
            "pass",
            "place 2,-2 r180",  # yellow: closes B
            "pass",
            "place 1,-2 r0",  # blue: the road ends at this cloister; the farms join round it
            "pass",
        ],
    )
    before_end = game.states[-2]
    large = feature(before_end, 1, -2, "field:Nw.Ne.En.Es.Se.Sw.Ws.Wn")
    assert large is feature(before_end, 0, -1, "field:Nw.Ne.En.Es.Ws.Wn")
    assert large.strength() == {Seat(0): 1, Seat(1): 1}
    assert feature(before_end, -1, 0, "field:Nw.Ne.En.Wn").strength() == {Seat(2): 1}
    assert game.points(final=True, category="farm") == {0: 6, 1: 6, 2: 3}
