"""Bridges, Castles & Bazaars — markets (RULES.md §13.1, OQ-BAZ-1 … 5, ARCHITECTURE.md
decision 6): every rule and example of the rulebook as a named test, the 3-player example of rule
8 both with sealed bids (our default) and with open bids (the rulebook's), and no_auction."""

from __future__ import annotations

import pytest

from engine import IllegalActionError, view_for
from engine.carcassonne.events import TileDiscarded
from engine.carcassonne.expansions.bridges_castles_bazaars.model import NO_BID, BcbModel
from engine.core.decisions import TileChoice, Visibility
from tests.engine.expansions.bcb_helpers import (
    BCB,
    NO_BRIDGES,
    NO_CASTLES,
    Played,
    play,
)

QUIET = (NO_BRIDGES, NO_CASTLES)
SEALED = (*QUIET, ("bcb.bidding", "sealed"))
OPEN = (*QUIET, ("bcb.bidding", "open"))
NO_AUCTION = (*QUIET, ("bcb.bidding", "no_auction"))
RED, BLUE, GREEN = 0, 1, 2
FIELD = "field:Nw.Ne.En.Es.Se.Sw.Ws.Wn"
#: red's turn: the market tile and a follower on it (rule 8: "coloca un seguidor en ella")
MARKET_TURN = ["place 0,1 r0", f"deploy {FIELD}"]
#: three road tiles revealed; two more in the pile for the turns after the market
PILE3 = ["BB/F.b", "BA/RFr", "BA/RFr", "BA/RFr", "BA/L", "BA/L"]
#: the market's three placements: blue, green, red (each may deploy; they pass)
PLACEMENTS3 = ["place 1,0 r0", "pass", "place -1,0 r0", "pass", "place 2,0 r0", "pass"]


def market(p: Played) -> BcbModel:
    return p.model


# ------------------------------------------------------------------------------ rule 8
RULE8_SEALED = [
    *MARKET_TURN,
    "@1 bcb.offer 0@2",  # blue chooses tile A and bids 2
    "@2 bcb.sealed pass",  # green passes (sealed)
    "@0 bcb.sealed 3",  # red bids 3 (sealed)
    "@1 bcb.deal buy",  # blue buys: pays red 3
    "@2 bcb.offer 1@2",  # green chooses a tile and bids 2
    "@0 bcb.sealed 3",  # red bids 3
    "@2 bcb.deal sell",  # green sells to red: red pays green 3
]

RULE8_OPEN = [
    *MARKET_TURN,
    "@1 bcb.offer 0@2",
    "@2 pass",  # green passes
    "@0 bcb.bid 3",  # red bids 3
    "@1 bcb.deal buy",
    "@2 bcb.offer 1@2",
    "@0 bcb.bid 3",
    "@2 bcb.deal sell",
]


@pytest.mark.parametrize(("moves", "options"), [(RULE8_SEALED, SEALED), (RULE8_OPEN, OPEN)])
def test_rule_8_three_player_market_example(moves: list[str], options: tuple) -> None:
    p = play(PILE3, moves, players=3, options=options)
    m = market(p).market
    assert m is not None
    # blue bought tile A, red bought tile B from green, green got the last tile C for free
    assert m.owners == (BLUE, RED, GREEN)
    assert p.state.scores == (0, -3, 3)  # red +3 −3, blue −3, green +3
    assert p.awards("market") == [(BLUE, -3), (RED, 3), (RED, -3), (GREEN, 3)]
    lines = p.lines()
    assert "2 takes the last tile, BA/RFr, for free." in lines
    # placement order: blue, green, red — each a normal turn with every option
    p.then(PLACEMENTS3)
    assert p.placers() == [RED, BLUE, GREEN, RED]
    assert [p.state.board.cells[pos].tile.id for pos in p.state.board.cells][-3:] == ["BA/RFr"] * 3
    # then play goes on with the player after the active one (OQ-BAZ-3)
    assert (p.state.step, p.state.current, p.state.drawn) == ("place", BLUE, "BA/L")
    assert market(p).market is None


def test_rule_8_sealed_bids_are_private_simultaneous_and_revealed_together() -> None:
    p = play(PILE3, RULE8_SEALED[:3], players=3, options=SEALED)
    ds = p.decisions()
    assert sorted((d.kind, int(d.seat)) for d in ds) == [("bcb.sealed", RED), ("bcb.sealed", GREEN)]
    assert all(d.visibility is Visibility.PRIVATE and d.optional for d in ds)
    assert len({d.group for d in ds}) == 1 and ds[0].group is not None
    (number,) = ds[0].options
    assert number.number is not None and number.number.min == 3  # more than the opening 2
    # green answers: nobody learns what, everyone learns that green has answered
    p.then(["@2 bcb.sealed pass"])
    (red,) = p.decisions()
    assert red.seat == RED and red.answered == (GREEN,)
    assert not [line for line in p.lines() if "sealed bid" in line]
    public = view_for(p.state).ext[BCB].market
    assert public.bids == (NO_BID,) * 3
    assert view_for(p.state, GREEN).ext[BCB].market.bids[GREEN] == -1  # its own pass
    assert view_for(p.state, RED).ext[BCB].market.bids == (NO_BID,) * 3
    p.then(["@0 bcb.sealed 3"])
    revealed = [line for line in p.lines() if "sealed bid" in line]
    assert revealed == ["2's sealed bid: pass.", "0's sealed bid: 3."]
    (deal,) = p.decisions()
    assert deal.kind == "bcb.deal" and deal.seat == BLUE
    assert [o.id for o in deal.options] == ["buy", "sell"]


def test_rule_8_open_bids_are_public_one_each_in_turn_order_from_the_chooser() -> None:
    p = play(PILE3, RULE8_OPEN[:3], players=3, options=OPEN)
    assert p.kinds() == [("bcb.bid", GREEN)]
    p.then(["@2 pass"])
    assert p.kinds() == [("bcb.bid", RED)]
    (bid,) = p.decisions()
    assert bid.visibility is Visibility.PUBLIC and bid.options[0].number.min == 3
    with pytest.raises(IllegalActionError, match="more than 2"):
        p.then(["@0 bcb.bid 2"])
    p.then(["@0 bcb.bid 3"])
    assert "0 bids 3." in p.lines() and "2 passes." in p.lines()


# ------------------------------------------------------------------------------ rules 1–7
def test_rules_1_2_market_after_the_turn_reveals_one_tile_per_player() -> None:
    p = play(PILE3, MARKET_TURN, players=3, options=SEALED)
    # the follower went on the market tile first; then the market opened
    assert any(f.seat == RED for f in view_for(p.state).figures)
    m = market(p).market
    assert m is not None and m.revealed and m.tiles == ("BA/RFr",) * 3
    assert "Market! 0 reveals 3 tiles: BA/RFr, BA/RFr, BA/RFr." in p.lines()
    (offer,) = p.decisions()
    assert (offer.kind, offer.seat) == ("bcb.offer", BLUE)
    assert [o.target for o in offer.options] == [TileChoice("BA/RFr")] * 3
    assert offer.options[0].number is not None and offer.options[0].number.min == 0


def test_rule_3_1_chooser_is_the_next_player_without_a_tile_and_may_open_at_0() -> None:
    p = play(PILE3, [*MARKET_TURN, "@1 bcb.offer 2@0"], players=3, options=SEALED)
    assert sorted(int(d.seat) for d in p.decisions()) == [RED, GREEN]
    with pytest.raises(IllegalActionError):  # not blue's choice any more
        p.then(["@1 bcb.offer 1@0"])


def test_rule_3_4_a_lone_chooser_pays_the_bank() -> None:
    p = play(
        PILE3,
        [*MARKET_TURN, "@1 bcb.offer 0@4", "@2 bcb.sealed pass", "@0 bcb.sealed pass"],
        players=3,
        options=SEALED,
    )
    assert p.awards("market") == [(BLUE, -4)]
    assert "Nobody outbids 1: 1 takes tile BA/RFr and pays 4 to the bank." in p.lines()
    assert p.kinds() == [("bcb.offer", GREEN)]


def test_rule_3_5_a_chooser_who_sold_chooses_again() -> None:
    p = play(
        PILE3,
        [*MARKET_TURN, "@1 bcb.offer 0@1", "@2 bcb.sealed 2", "@0 bcb.sealed pass"],
        players=3,
        options=SEALED,
    )
    p.then(["@1 bcb.deal sell"])
    assert p.awards("market") == [(GREEN, -2), (BLUE, 2)]
    assert p.kinds() == [("bcb.offer", BLUE)]  # still without a tile: blue chooses again


def test_rule_4_the_last_tile_goes_free_and_rule_5_scores_may_go_negative() -> None:
    p = play(
        PILE3,
        [*MARKET_TURN, "@1 bcb.offer 0@7", "@2 bcb.sealed pass", "@0 bcb.sealed pass"],
        players=3,
        options=SEALED,
    )
    p.then(["@2 bcb.offer 1@0", "@0 bcb.sealed pass"])
    assert p.state.scores[BLUE] == -7  # scores may go negative
    m = market(p).market
    assert m is not None and m.owners == (BLUE, GREEN, RED)
    assert "0 takes the last tile, BA/RFr, for free." in p.lines()


def test_rule_6_each_player_places_in_turn_order_with_every_option_of_a_turn() -> None:
    p = play(PILE3, RULE8_SEALED, players=3, options=SEALED)
    assert p.kinds() == [("core.place", BLUE)]
    assert p.state.drawn == "BA/RFr"
    p.then(["place 1,0 r0", "deploy road:EW"])  # blue puts a follower on its market tile
    assert any(f.seat == BLUE and f.pos == (1, 0) for f in view_for(p.state).figures)
    assert p.kinds() == [("core.place", GREEN)]


def test_rule_7_no_chain_reaction_then_a_new_market_is_possible() -> None:
    pile = ["BB/F.b", "BB/RFR.b", "BA/RFr", "BA/RFr", "BA/L"]
    moves = [
        "place 0,1 r0",
        "pass",  # red: market tile -> market of BB/RFR.b and BA/RFr
        "@1 bcb.offer 0@0",
        "@0 bcb.bid 1",
        "@1 bcb.deal buy",  # blue has the market tile, red the road
        "place 1,0 r90",
        "pass",  # blue places a market tile during the market: no new market
        "place -1,0 r0",
        "pass",  # red
    ]
    p = play(pile, moves, options=OPEN)
    assert sum("Market!" in line for line in p.lines()) == 1
    assert market(p).market is None and p.kinds() == [("core.place", BLUE)]
    # later, a market tile placed outside a market starts one again
    q = play(
        ["BA/RFr", "BB/F.b", "BA/RFr", "BA/L"],
        ["place 1,0 r0", "pass", "place 0,1 r0", "pass"],
        options=SEALED,
    )
    assert sum("Market!" in line for line in q.lines()) == 1


# ------------------------------------------------------------------------------ §13.1.5
def test_market_variant_each_player_in_turn_takes_a_tile_and_plays_it_at_once() -> None:
    pile = ["BB/F.b", "BA/RFr", "BA/L", "BA/Rr", "BA/L"]
    p = play(pile, MARKET_TURN, players=3, options=NO_AUCTION)
    (pick,) = p.decisions()
    assert (pick.kind, pick.seat) == ("bcb.pick", BLUE) and not pick.optional
    assert [o.target for o in pick.options] == [TileChoice(t) for t in ("BA/RFr", "BA/L", "BA/Rr")]
    p.then(["bcb.pick 1"])  # blue takes the cloister and plays it straight away
    assert p.kinds() == [("core.place", BLUE)] and p.state.drawn == "BA/L"
    p.then(["place -1,1 r0", "pass"])
    assert p.kinds() == [("bcb.pick", GREEN)]
    p.then(["bcb.pick 2", "place 1,0 r0", "pass"])
    # red, the active player, takes the last one without choosing
    assert p.kinds() == [("core.place", RED)] and p.state.drawn == "BA/RFr"
    p.then(["place -1,0 r0", "pass"])
    assert p.placers() == [RED, BLUE, GREEN, RED]
    assert p.state.scores == (0, 0, 0) and p.awards("market") == []
    assert p.kinds() == [("core.place", BLUE)]


# ------------------------------------------------------------------------------ OQ-BAZ
def test_oq_baz_1_two_players_one_auction_then_the_free_tile() -> None:
    pile = ["BB/F.b", "BA/RFr", "BA/RFr", "BA/L"]
    p = play(
        pile, ["place 0,1 r0", "pass", "@1 bcb.offer 1@3", "@0 bcb.sealed pass"], options=SEALED
    )
    assert p.awards("market") == [(1, -3)]  # the active player passed: the chooser pays the bank
    m = market(p).market
    assert m is not None and m.owners == (0, 1)
    assert "0 takes the last tile, BA/RFr, for free." in p.lines()
    p.then(["place 1,0 r0", "pass", "place -1,0 r0", "pass"])
    assert p.placers() == [0, 1, 0]
    assert p.kinds() == [("core.place", 1)]


def test_oq_baz_1_two_players_sealed_bid_and_sell() -> None:
    pile = ["BB/F.b", "BA/RFr", "BA/RFr", "BA/L"]
    p = play(
        pile,
        ["place 0,1 r0", "pass", "@1 bcb.offer 0@1", "@0 bcb.sealed 5", "@1 bcb.deal sell"],
        options=SEALED,
    )
    assert p.awards("market") == [(0, -5), (1, 5)]
    m = market(p).market
    assert m is not None and m.owners == (0, 1)


def test_oq_baz_2_no_market_when_the_pile_holds_fewer_tiles_than_players() -> None:
    p = play(["BB/F.b", "BA/RFr", "BA/L"], MARKET_TURN, players=3, options=SEALED)
    assert "No market: fewer tiles are left than there are players." in p.lines()
    assert market(p).market is None
    assert (p.state.step, p.state.current, p.state.drawn) == ("place", BLUE, "BA/RFr")


def test_oq_baz_4_builder_bonus_first_with_the_market_tiles_set_aside_face_down() -> None:
    pile = ["BA/RFr", "BA/L", "BA/RFr", "BA/L", "BB/R.bi", "BA/RFr", "BA/Rr", "BA/L", "BA/L"]
    moves = [
        "place 1,0 r0",
        "deploy road:EW",  # red: thief
        "place 0,1 r0",
        "pass",  # blue
        "place 2,0 r0",
        "deploy builder road:EW",  # red: builder joins the thief's road
        "place 0,2 r0",
        "pass",  # blue
        "place 3,0 r90",
        "pass",  # red: the market tile extends the builder's road
    ]
    exps = (BCB, "traders_builders")
    p = play(pile, moves, expansions=exps, options=SEALED)
    # the two market tiles were set aside face down before the builder's second tile
    assert p.kinds() == [("tb.bonus", 0)]
    m = market(p).market
    assert m is not None and not m.revealed and m.tiles == ("BA/RFr", "BA/Rr")
    hidden = view_for(p.state).ext[BCB].market
    assert hidden.tiles == ("", "") and "Market!" not in " ".join(p.lines())
    p.then(["tb.bonus take"])
    assert p.state.drawn == "BA/L"  # the tile after the set-aside ones
    p.then(["place 0,3 r0", "pass"])
    # then the tiles are revealed and the auction is held
    assert "Market! 0 reveals 2 tiles: BA/RFr, BA/Rr." in p.lines()
    assert p.kinds() == [("bcb.offer", 1)]


def test_oq_baz_4_a_market_tile_drawn_as_a_bonus_tile_in_a_market_starts_nothing() -> None:
    pile = ["BA/RFr", "BA/L", "BA/RFr", "BA/L", "BB/R.bi", "BA/RFr", "BA/Rr", "BB/F.b", "BA/L"]
    moves = [
        "place 1,0 r0",
        "deploy road:EW",
        "place 0,1 r0",
        "pass",
        "place 2,0 r0",
        "deploy builder road:EW",
        "place 0,2 r0",
        "pass",
        "place 3,0 r90",
        "pass",
        "tb.bonus take",
        "place 0,3 r0",
        "pass",  # the bonus tile is a market tile: ignored
    ]
    p = play(pile, moves, expansions=(BCB, "traders_builders"), options=SEALED)
    assert sum("Market!" in line for line in p.lines()) == 1
    assert market(p).market is not None and market(p).market_due is False


def test_oq_baz_4_an_unplaceable_market_tile_is_discarded_and_replaced_from_the_pile() -> None:
    pile = ["BA/C", "BB/F.b", "BA/Cccc+", "BA/RFr", "BA/RFr", "BA/L"]
    moves = [
        "place 0,-1 r180",
        "pass",  # seat 0 closes the only open city edge
        "place 0,1 r0",
        "pass",  # seat 1: market
        "@0 bcb.offer 0@0",
        "@1 bcb.sealed pass",  # seat 0 keeps the all-city tile, seat 1 gets the road
    ]
    p = play(pile, moves, options=SEALED)
    assert [e.tile for e in p.events if isinstance(e, TileDiscarded)] == ["BA/Cccc+"]
    assert (p.state.current, p.state.drawn) == (0, "BA/RFr")  # the replacement from the pile


def test_oq_baz_5_market_payments_are_market_lines_not_scoring() -> None:
    p = play(PILE3, RULE8_SEALED, players=3, options=SEALED)
    items = [a.item for a in p.state.awards]
    assert {i.category for i in items} == {"market"}
    assert not any(i.complete or i.final for i in items)
    assert sum(a.points for a in p.state.awards) == 0  # payments between players sum to 0


# ------------------------------------------------------------------------------ ties, refusals
def test_sealed_tie_goes_to_the_earliest_in_turn_order_from_the_chooser() -> None:
    pile = ["BB/F.b", "BA/RFr", "BA/RFr", "BA/RFr", "BA/RFr", "BA/L"]
    p = play(
        pile,
        [
            "place 0,1 r0",
            "pass",
            "@1 bcb.offer 0@1",
            "@0 bcb.sealed 6",
            "@2 bcb.sealed 2",
            "@3 bcb.sealed 6",
        ],
        players=4,
        options=SEALED,
    )
    m = market(p).market
    assert m is not None and m.leader == 3  # seat 3 comes before seat 0 after chooser 1
    assert p.kinds() == [("bcb.deal", 1)]


def test_bids_out_of_range_and_unknown_tiles_are_refused_in_words() -> None:
    p = play(PILE3, MARKET_TURN, players=3, options=SEALED)
    with pytest.raises(IllegalActionError, match="still on offer"):
        p.then(["@1 bcb.offer 7@0"])
    with pytest.raises(IllegalActionError, match="from 0 to 99"):
        p.then(["@1 bcb.offer 0@100"])
    p.then(["@1 bcb.offer 0@5"])
    with pytest.raises(IllegalActionError, match="more than 5"):
        p.then(["@2 bcb.sealed 5"])
    err = pytest.raises(IllegalActionError, p.then, ["@2 bcb.sealed 4"]).value
    assert err.key == "bcb.err.bid" and "Puja más de 5" in err.text("es")


def test_the_bid_modal_says_what_the_score_would_become() -> None:
    p = play(PILE3, [*MARKET_TURN, "@1 bcb.offer 0@5"], players=3, options=SEALED)
    red = next(d for d in p.decisions() if d.seat == RED)
    (option,) = red.options
    assert option.label is not None and option.label.key == "bcb.bid.option"
    assert option.label.param("score") == p.state.scores[RED]
    assert red.prompt.param("score") == p.state.scores[RED]
