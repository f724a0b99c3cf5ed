"""Bridges, Castles & Bazaars (RULES.md §13, rulebook 003 "Mercados y Puentes"): 12 tiles (8
with a market), wooden bridges, castle tokens and market auctions.

The parts are switched separately (JCloisterZone does, and its saves may use castles without the
tiles): ``bcb.bridges``, ``bcb.castles``, ``bcb.markets``; ``bcb.bidding`` chooses how a market
hands out its tiles: ``sealed`` bids by direct message (the default, ARCHITECTURE.md decision 6),
``open`` bids in turn order (the rulebook), or ``no_auction`` (§13.1.5). Each part lives in its
own module: :mod:`.bridges`, :mod:`.castles`, :mod:`.market`; the model and events in
:mod:`.model`, the words in :mod:`.texts`, its part of the JCloisterZone import in :mod:`.jcz`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from engine.carcassonne.board import Feature, PlacedTile
from engine.carcassonne.events import Event
from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.flow import Slot, StepSpec
from engine.carcassonne.scoring import ScoreItem
from engine.carcassonne.state import GameState
from engine.core.decisions import Prompt
from engine.core.rng import Rng
from engine.core.seats import Seat

from . import bridges, castles, market
from .jcz import JCZ
from .model import BcbModel, model, put
from .texts import BIDDING, BRIDGES, CASTLES, ID, MARKETS

BIDDING_MODES = ("sealed", "open", "no_auction")


class BridgesCastlesBazaars(Expansion):
    id = ID
    name = "Bridges, Castles & Bazaars"
    tile_sets = ("bridges_castles_bazaars",)
    concepts = ("bridge", "castle", "bazaar", "market", "auction")
    jcz = JCZ
    options = (
        Option(BRIDGES, True, (True, False), "wooden bridges carry roads over fields"),
        Option(CASTLES, True, (True, False), "small cities of your own may become castles"),
        Option(MARKETS, True, (True, False), "market tiles reveal one tile per player"),
        Option(
            BIDDING,
            "sealed",
            BIDDING_MODES,
            "how a market hands out its tiles: sealed bids, open bids, or no auction",
        ),
    )

    def _tokens(self) -> int:
        """Bridges and castles per player: 3, or 2 with 5–6 players (§13.0)."""
        return 3 if self.setup.players <= 4 else 2

    def initial_model(self) -> BcbModel:
        n = self.setup.players
        k = self._tokens()
        return BcbModel(
            bridges_left=((k if self.option(BRIDGES) else 0),) * n,
            castles_left=((k if self.option(CASTLES) else 0),) * n,
        )

    def redact(self, model: Any, viewer: Seat | None) -> Any:
        assert isinstance(model, BcbModel)
        if model.market is None:
            return model
        return replace(model, market=market.redact(model.market, viewer))

    def resample(self, state: GameState, viewer: Seat, rng: Rng) -> None:
        market.resample(state, viewer, rng)

    def counters(self, model: Any, seat: Seat) -> Iterable[Prompt]:
        if not isinstance(model, BcbModel):
            return ()
        b, c = model.bridges_left[seat], model.castles_left[seat]
        if self.option(BRIDGES) and self.option(CASTLES):
            return (Prompt.of("bcb.left", bridges=b, castles=c),)
        if self.option(BRIDGES):
            return (Prompt.of("bcb.bridges_left", n=b),)
        if self.option(CASTLES):
            return (Prompt.of("bcb.castles_left", n=c),)
        return ()

    def steps(self) -> Iterable[StepSpec]:
        out = []
        if self.option(MARKETS):
            out += [
                StepSpec(Slot.DRAW, market.HandStep(), -10),
                StepSpec(Slot.CLEANUP, market.SetAsideStep(), 5),
                StepSpec(Slot.CLEANUP, market.MarketStep(), 20),
                StepSpec(Slot.CLEANUP, market.CloseStep(), 30),
            ]
        if self.option(BRIDGES):
            out += [
                StepSpec(Slot.AFTER_PLACE, bridges.BridgeStep(), 10),
                StepSpec(Slot.SCORE, bridges.BridgeScoreStep(), 10),
            ]
        if self.option(CASTLES):
            out += [
                StepSpec(Slot.AFTER_DEPLOY, castles.CastleStep(), 90),
                StepSpec(Slot.AFTER_SCORE, castles.CastleScoreStep(), 10),
            ]
        return out

    # ---- bridges: the hooks are the module's functions (asked on every placement: no
    # method between)
    extra_placements = staticmethod(bridges.extra_placements)  # type: ignore[assignment]
    settle_placement = staticmethod(bridges.settle_placement)  # type: ignore[assignment]

    # ---- markets
    on_placed_unless = ("", "bazaar")  # a market tile: no call on the other placements

    def on_placed(self, state: GameState, placed: PlacedTile) -> Iterable[Event]:
        if placed.rt.tile.symbol_map.get("bazaar") and self.option(MARKETS):
            m = model(state)
            if m.market is None:  # no market from a market (rule 7)
                put(state, market_due=True)
        return ()

    # ---- castles and scoring
    def on_completed(self, state: GameState, seat: Seat, feature: Feature) -> Iterable[Event]:
        if self.option(CASTLES):
            castles.note_completed(state, feature)
        return ()

    def score_feature(self, state: GameState, feature: Feature, item: ScoreItem) -> ScoreItem:
        if item.category == "road":
            return bridges.adjust_road(state, feature, item)
        if item.category == "farm":
            return castles.adjust_farm(state, feature, item)
        return item

    def seat_points(
        self, state: GameState, item: ScoreItem, seat: Seat, features: Sequence[Feature]
    ) -> tuple[int, str] | None:
        if item.category == "farm" and state.setup.farm_scoring == "city_supply_1st_ed":
            return castles.first_edition_bonus(state, item)
        return None

    def final_points(self, state: GameState) -> Sequence[int]:
        """A castle that never scored pays nothing at the end (rule 12)."""
        return ()

    def final_scoring(self, state: GameState) -> Iterable[Event]:
        return castles.final(state)


__all__ = ["BIDDING_MODES", "BcbModel", "BridgesCastlesBazaars"]


#: this package's expansion (engine/carcassonne/expansions/__init__.py registers it)
EXPANSION = BridgesCastlesBazaars

from . import de as _de  # noqa: E402, F401  (the German words)
