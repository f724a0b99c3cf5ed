"""Markets (RULES.md §13.1, ARCHITECTURE.md decision 6 and §5.5).

A market tile placed outside a market holds a market once its turn is over: as many tiles as
players are set aside face down (before a builder's second tile, OQ-BAZ-4), unless the pile
holds fewer (OQ-BAZ-2: no market); then they are revealed and every player obtains one:

* ``sealed`` (default): the chooser — the next player after the active one who has no tile —
  picks a tile and an opening bid (``bcb.offer``, public); every other player without a tile
  answers at once and in secret (``bcb.sealed``: a private decision of one group, a bid above
  the opening bid or a pass); the bids are revealed together, the highest (ties: the earliest
  in turn order from the chooser) is the bid to beat, and the chooser buys or sells
  (``bcb.deal``); nobody outbidding, the chooser pays the bank;
* ``open`` (the rulebook): after the opening bid, each other player without a tile in turn
  order from the chooser bids higher or passes (``bcb.bid``, public);
* ``no_auction`` (§13.1.5): each player in turn takes a tile (``bcb.pick``) and plays it at once.

The last tile goes free to the one player left. Then every player places the tile obtained, in
turn order from the player after the active one, each placement a sub-turn with every option of
a normal turn (the ``bcb.hand`` step hands the tile to the core draw step). A market tile
revealed or placed in a market starts no market (rule 7); after the market, play goes on with
the player after the active one (OQ-BAZ-3). Payments go through the points pipeline as
``market`` lines, not as scoring (OQ-BAZ-5); scores may go negative.
"""

from __future__ import annotations

from dataclasses import replace

from engine.carcassonne.actions import Action, Choose, NumberedChoice, Pass, register_action
from engine.carcassonne.events import Event
from engine.carcassonne.flow import Ask, Frame, Result, Step, new_ask, push_subturn
from engine.carcassonne.scoring import Award, Part, ScoreItem, give
from engine.carcassonne.state import GameState
from engine.core.decisions import Decision, IntRange, Option, Prompt, TileChoice, Visibility
from engine.core.errors import IllegalActionError
from engine.core.rng import Rng
from engine.core.seats import Seat

from .model import (
    MAX_BID,
    NO_BID,
    PASSED,
    Market,
    market_event,
    model,
    put,
    put_market,
    tile_word,
)
from .texts import BIDDING, ID

#: the frame parameter of a market placement sub-turn
HAND = "bcb.hand"


def mode(s: GameState) -> str:
    return str(s.setup.option(BIDDING, "sealed"))


def _order_from(s: GameState, first: int) -> list[int]:
    n = s.setup.players
    return [(first + k) % n for k in range(n)]


def _pay(
    s: GameState,
    payer: int,
    payee: int | None,
    price: int,
    tile: str,
    why: str,
    events: list[Event],
) -> None:
    """``payer`` pays ``price`` to ``payee`` (``None``: the bank), through the pipeline."""
    if price <= 0:
        return
    seats = (Seat(payer),) if payee is None else (Seat(payer), Seat(payee))
    item = ScoreItem(
        "market", price, False, False, parts=(Part(why, tile=tile, price=price),), winners=seats
    )
    awards = tuple(Award(seat, -price if seat == payer else price, item) for seat in item.winners)
    give(s, awards, item, events)


def _assign(s: GameState, index: int, seat: int) -> Market:
    market = model(s).market
    assert market is not None
    owners = list(market.owners)
    owners[index] = seat
    return put_market(s, owners=tuple(owners))


# ------------------------------------------------------------------------------- set aside
class SetAsideStep(Step):
    """After a market tile's turn (before a builder's second tile): set the market's tiles
    aside, face down, or say there is no market."""

    id = "bcb.set_aside"
    idle_unless = (ID, "market_due")

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if not s.setup.expansions or not model(s).market_due:
            return None
        put(s, market_due=False)
        n = s.setup.players
        if s.tiles_left < n:
            events.append(market_event("bcb.market_skipped"))
            return None
        tiles = s.pile[s.pile_pos : s.pile_pos + n]
        s.pile_pos += n
        market = Market(
            tiles,
            (-1,) * n,
            frame.seat,
            depth,
            placed=(False,) * n,
            bids=(NO_BID,) * n,
        )
        put(s, market=market)
        return None


# ------------------------------------------------------------------------------- auction
class MarketStep(Step):
    """Reveal the market's tiles and run the auction (see the module docstring)."""

    id = "bcb.market"
    idle_unless = (ID, "market")
    changes_flow = True
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        market = model(s).market if s.setup.expansions else None
        if market is None or market.revealed or market.depth != depth:
            return None
        market = put_market(s, revealed=True)
        events.append(
            market_event(
                "bcb.market_opened",
                seat=market.active,
                n=len(market.tiles),
                tiles=tuple(tile_word(market, i) for i in range(len(market.tiles))),
            )
        )
        if mode(s) == "no_auction":
            _push_placements(s)
            return None
        return self._round(s, depth, events)

    def _round(self, s: GameState, depth: int, events: list[Event]) -> Result:
        """The next auction, or the free last tile and the placements."""
        market = model(s).market
        assert market is not None
        without = [p for p in _order_from(s, market.active + 1) if not market.has_tile(p)]
        if len(without) <= 1:
            for p in without:
                (last,) = market.free()
                events.append(market_event("bcb.free", seat=p, tile=tile_word(market, last)))
                _assign(s, last, p)
            put_market(s, lot=-1, chooser=-1, price=0, leader=-1, answered=())
            _push_placements(s)
            return None
        chooser = without[0]
        put_market(s, lot=-1, chooser=chooser, price=0, leader=-1, answered=())
        return (new_ask(s, self, depth, Seat(chooser), stage="offer"),)

    def _bidders(self, s: GameState, market: Market) -> list[int]:
        """The other players without a tile, in turn order from the chooser."""
        return [p for p in _order_from(s, market.chooser)[1:] if not market.has_tile(p)]

    def optional(self, s: GameState, ask: Ask) -> bool:
        return ask.get("stage") in ("sealed", "bid")

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        stage = ask.get("stage")
        market = model(s).market
        assert market is not None
        if stage == "offer":
            return self._offer(s, ask, action, market, events)
        if stage == "sealed":
            return self._sealed(s, ask, action, market, events)
        if stage == "bid":
            return self._open_bid(s, ask, action, market, events)
        return self._deal(s, ask, action, market, events)

    def _offer(
        self, s: GameState, ask: Ask, action: Action, market: Market, events: list[Event]
    ) -> Result:
        index, price = -1, -1
        if isinstance(action, Choose) and action.head == "bcb.offer":
            i, _, p = action.value.partition("@")
            if i.isdigit() and p.isdigit():
                index, price = int(i), int(p)
        if index not in market.free() or not 0 <= price < MAX_BID:
            raise IllegalActionError.keyed("bcb.err.offer", max=MAX_BID - 1)
        events.append(
            market_event("bcb.offered", seat=ask.seat, tile=tile_word(market, index), price=price)
        )
        market = put_market(
            s, lot=index, price=price, leader=market.chooser, bids=(NO_BID,) * len(market.tiles)
        )
        bidders = self._bidders(s, market)
        if mode(s) == "open":
            return self._next_bidder(s, ask.depth, market, bidders, events)
        group = f"bcb.sealed@{s.asks_made}"
        return tuple(
            new_ask(s, self, ask.depth, Seat(b), stage="sealed", group=group) for b in bidders
        )

    def _sealed(
        self, s: GameState, ask: Ask, action: Action, market: Market, events: list[Event]
    ) -> Result:
        bid = _bid_value(action, "bcb.sealed", market.price)
        bids = list(market.bids)
        bids[ask.seat] = bid
        market = put_market(s, bids=tuple(bids), answered=(*market.answered, ask.seat))
        rest = tuple(a for a in s.asks if a.key != ask.key)
        if rest:
            return rest
        # every bid is in: reveal them together, in turn order from the chooser
        best, leader = market.price, market.chooser
        for p in self._bidders(s, market):
            b = market.bids[p]
            if b >= 0:
                events.append(market_event("bcb.bid_sealed", seat=p, price=b))
            else:
                events.append(market_event("bcb.bid_sealed_pass", seat=p))
            if b > best:
                best, leader = b, p
        market = put_market(s, price=best, leader=leader, bids=(NO_BID,) * len(market.tiles))
        return self._settle_bids(s, ask.depth, market, events)

    def _next_bidder(
        self, s: GameState, depth: int, market: Market, queue: list[int], events: list[Event]
    ) -> Result:
        """Ask the next open bidder of ``queue`` who can still outbid (the others pass)."""
        for p in queue:
            if market.price < MAX_BID:
                return (new_ask(s, self, depth, Seat(p), stage="bid", queue=tuple(queue)),)
            events.append(market_event("bcb.bid_passed", seat=p))
        return self._settle_bids(s, depth, market, events)

    def _open_bid(
        self, s: GameState, ask: Ask, action: Action, market: Market, events: list[Event]
    ) -> Result:
        bid = _bid_value(action, "bcb.bid", market.price)
        if bid >= 0:
            events.append(market_event("bcb.bid_made", seat=ask.seat, price=bid))
            market = put_market(s, price=bid, leader=ask.seat)
        else:
            events.append(market_event("bcb.bid_passed", seat=ask.seat))
        queue = list(ask.get("queue", ()))
        rest = queue[queue.index(ask.seat) + 1 :] if ask.seat in queue else []
        return self._next_bidder(s, ask.depth, market, rest, events)

    def _settle_bids(self, s: GameState, depth: int, market: Market, events: list[Event]) -> Result:
        """Nobody outbid the chooser: it takes the tile and pays the bank; else it buys or
        sells."""
        if market.leader == market.chooser:
            lot, chooser = market.lot, market.chooser
            word = tile_word(market, lot)
            events.append(market_event("bcb.bank", seat=chooser, tile=word, price=market.price))
            _pay(s, chooser, None, market.price, word, "part.market_bank", events)
            _assign(s, lot, chooser)
            return self._round(s, depth, events)
        return (new_ask(s, self, depth, Seat(market.chooser), stage="deal"),)

    def _deal(
        self, s: GameState, ask: Ask, action: Action, market: Market, events: list[Event]
    ) -> Result:
        if not isinstance(action, Choose) or action.value not in ("buy", "sell"):
            raise IllegalActionError.keyed("bcb.err.deal")
        lot, chooser, leader, price = market.lot, market.chooser, market.leader, market.price
        word = tile_word(market, lot)
        if action.value == "buy":
            events.append(
                market_event("bcb.bought", seat=chooser, leader_seat=leader, tile=word, price=price)
            )
            _pay(s, chooser, leader, price, word, "part.market_buy", events)
            _assign(s, lot, chooser)
        else:
            events.append(
                market_event("bcb.sold", seat=chooser, leader_seat=leader, tile=word, price=price)
            )
            _pay(s, leader, chooser, price, word, "part.market_sell", events)
            _assign(s, lot, leader)
        return self._round(s, ask.depth, events)

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("bcb.err.market_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        market = model(s).market
        assert market is not None
        stage = str(ask.get("stage"))
        kind = f"bcb.{stage}"
        tile = tile_word(market, market.lot) if market.lot >= 0 else ""
        if stage == "offer":
            return Decision(ask.key, ask.seat, kind, Prompt.of(kind), _offer_options(market))
        if stage == "deal":
            leader, price = Seat(market.leader), market.price
            opts = tuple(
                Option(
                    v,
                    Choose("bcb.deal", v),
                    label=Prompt.of(f"opt.bcb.{v}", leader_seat=leader, price=price),
                )
                for v in ("buy", "sell")
            )
            prompt = Prompt.of(kind, leader_seat=leader, price=price, tile=tile)
            return Decision(ask.key, ask.seat, kind, prompt, opts)
        score = s.players[ask.seat].score
        head = "bcb.sealed" if stage == "sealed" else "bcb.bid"
        opts = ()
        if market.price < MAX_BID:
            opts = (
                Option(
                    "bid",
                    None,
                    label=Prompt.of("bcb.bid.option", score=score),
                    number=IntRange(market.price + 1, MAX_BID),
                    make=NumberedChoice(head),
                ),
            )
        if stage == "sealed":
            prompt = Prompt.of(
                kind, tile=tile, chooser_seat=Seat(market.chooser), price=market.price, score=score
            )
            return Decision(
                ask.key,
                ask.seat,
                kind,
                prompt,
                opts,
                optional=True,
                visibility=Visibility.PRIVATE,
                group=ask.get("group"),
                pass_action=Choose(head, "pass"),
                answered=market.answered,
            )
        prompt = Prompt.of(
            kind, tile=tile, leader_seat=Seat(market.leader), price=market.price, score=score
        )
        return Decision(ask.key, ask.seat, kind, prompt, opts, optional=True, pass_action=Pass())


def _offer_options(market: Market) -> tuple[Option, ...]:
    return tuple(
        Option(
            market.letter(i),
            None,
            TileChoice(market.tiles[i]),
            label=Prompt.of("bcb.tile", letter=market.letter(i), tile=market.tiles[i]),
            number=IntRange(0, MAX_BID - 1),
            make=NumberedChoice("bcb.offer", f"{i}@"),
        )
        for i in market.free()
    )


def _bid_value(action: Action, head: str, price: int) -> int:
    """A bid's number (:data:`PASSED` for a pass), checked against the bid to beat."""
    if isinstance(action, Pass) or (
        isinstance(action, Choose) and action.head == head and action.value == "pass"
    ):
        return PASSED
    if isinstance(action, Choose) and action.head == head and action.value.isdigit():
        n = int(action.value)
        if price < n <= MAX_BID:
            return n
    raise IllegalActionError.keyed("bcb.err.bid", price=price, max=MAX_BID)


def _push_placements(s: GameState) -> None:
    """Every player's market placement, in turn order from the player after the active one
    (pushed last first: the top frame runs first)."""
    market = model(s).market
    assert market is not None
    order = _order_from(s, market.active + 1)
    for p in reversed(order):
        push_subturn(s, Seat(p), params=((HAND, True),))


# ------------------------------------------------------------------------------- placements
class HandStep(Step):
    """At the start of a market placement: hand the seat its market tile (``no_auction``: the
    seat first takes one of the tiles left)."""

    id = "bcb.hand"
    name = "bcb.pick"
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        if not frame.params or not frame.param(HAND):  # most frames have no parameters
            return None
        market = model(s).market
        assert market is not None
        mine = [i for i, o in enumerate(market.owners) if o == frame.seat and not market.placed[i]]
        if mine:
            _take(s, frame.seat, mine[0], events)
            return None
        free = market.free()
        if len(free) == 1:
            events.append(
                market_event("bcb.free", seat=frame.seat, tile=tile_word(market, free[0]))
            )
            _assign(s, free[0], frame.seat)
            _take(s, frame.seat, free[0], events)
            return None
        if not free:  # pragma: no cover - every player has a tile to place
            return None
        return (new_ask(s, self, depth, frame.seat),)

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        market = model(s).market
        assert market is not None and isinstance(action, Choose)
        index = int(action.value) if action.value.isdigit() else -1
        if index not in market.free():
            raise IllegalActionError.keyed("bcb.err.pick")
        events.append(market_event("bcb.picked", seat=ask.seat, tile=tile_word(market, index)))
        _assign(s, index, ask.seat)
        _take(s, ask.seat, index, events)
        return None

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("bcb.err.pick_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        market = model(s).market
        assert market is not None
        opts = tuple(
            Option(
                market.letter(i),
                Choose("bcb.pick", str(i)),
                TileChoice(market.tiles[i]),
                label=Prompt.of("bcb.tile", letter=market.letter(i), tile=market.tiles[i]),
            )
            for i in market.free()
        )
        return Decision(ask.key, ask.seat, "bcb.pick", Prompt.of("bcb.pick"), opts)


def _take(s: GameState, seat: Seat, index: int, events: list[Event]) -> None:
    """The seat's market placement begins with tile ``index`` in hand."""
    market = model(s).market
    assert market is not None
    placed = list(market.placed)
    placed[index] = True
    put_market(s, placed=tuple(placed))
    s.drawn = market.tiles[index]
    s.turn += 1
    events.append(market_event("bcb.hand", seat=seat, tile=market.tiles[index]))


class CloseStep(Step):
    """After the market's placements: the market is over (a new one may come)."""

    id = "bcb.market_close"
    idle_unless = (ID, "market")

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        market = model(s).market if s.setup.expansions else None
        if market is not None and market.revealed and market.depth == depth:
            put(s, market=None)
        return None


def redact(market: Market, viewer: Seat | None) -> Market:
    """The market as ``viewer`` may see it: face-down tiles hidden, sealed bids only one's own."""
    if not market.revealed:
        market = replace(market, tiles=("",) * len(market.tiles))
    if any(b != NO_BID for b in market.bids):
        market = replace(
            market,
            bids=tuple(
                b if viewer is not None and i == viewer else NO_BID
                for i, b in enumerate(market.bids)
            ),
        )
    return market


def resample(s: GameState, viewer: Seat, rng: Rng) -> None:
    """Draw afresh what ``viewer`` may not see of the market (a determinisation,
    ``Expansion.resample``): its face-down tiles, dealt again with the pile's unseen tiles,
    and the sealed bids of the others that have answered (a pass or a bid a little above
    the price)."""
    market = model(s).market
    if market is None:
        return
    tiles = market.tiles
    if not market.revealed:
        n, pos = len(tiles), s.pile_pos
        pool = rng.shuffled(sorted((*tiles, *s.pile[pos:])))
        tiles = tuple(pool[:n])
        s.pile = (*s.pile[:pos], *pool[n:])
    bids = tuple(
        b
        if i == viewer or b == NO_BID
        else (PASSED if rng.below(2) else min(MAX_BID, market.price + 1 + rng.below(3)))
        for i, b in enumerate(market.bids)
    )
    put_market(s, tiles=tiles, bids=bids)


register_action("bcb.offer")
register_action("bcb.sealed", private=True)
register_action("bcb.bid")
register_action("bcb.deal", ("buy", "sell"))
register_action("bcb.pick")
