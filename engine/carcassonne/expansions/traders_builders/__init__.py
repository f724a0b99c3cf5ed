"""Traders & Builders (RULES.md §5): 24 tiles, the builder, the pig and goods.

* Builder: goes only on a road or city where its owner already has a follower. When a later
  tile of its owner extends that feature, the owner plays one more tile the same turn — never a
  chain, never from the bonus tile itself, not when the pile is empty (OQ-TB-1). It leaves with
  its owner's last follower (when the feature scores). It never counts for majority.
* Pig: goes only in a farm where its owner has a farmer; when its owner owns that farm, each
  city pays +1 (4 instead of 3). Under the 1st-edition farm rule the owner who wins a city and
  has the pig in any farm supplying it gets 4 (OQ-FARM-2). It returns with the farmers.
* Goods: whoever completes a city takes one token per goods symbol in it, knights or not;
  at the end each kind pays 10 to every player with the most of it (at least 1; OQ-TB-3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine.carcassonne.actions import Action, Choose, register_action
from engine.carcassonne.board import Feature, PlacedTile, has_follower
from engine.carcassonne.events import Event
from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.figures import FigureSpec
from engine.carcassonne.flow import (
    BONUS_TURN,
    Ask,
    Frame,
    Result,
    Slot,
    Step,
    StepSpec,
    new_ask,
    push_subturn,
)
from engine.carcassonne.scoring import Part, ScoreItem, award
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.core import messages
from engine.core.decisions import Decision, Prompt
from engine.core.decisions import Option as Answer
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

BUILDER = "tb.builder"
#: ``ask`` (the rulebook's "may": the owner chooses) or ``auto`` (JCloisterZone 4.x)
BUILDER_BONUS = "tb.builder_bonus"
#: the frame parameter that marks the builder's second tile (no chain from it)
BONUS = "tb.bonus"
PIG = "tb.pig"
TRADE_GOODS = "tb.goods"
#: the goods printed on cities (the tile symbol ``goods``), in token order
GOODS = ("wine", "grain", "cloth")


messages.register(
    {
        "exp.traders_builders": ("Traders & Builders", "Constructores y Comerciantes"),
        f"opt.{BUILDER}": ("Builder", "Constructor"),
        f"opt.{PIG}": ("Pig", "Cerdo"),
        f"opt.{TRADE_GOODS}": ("Goods", "Mercancías"),
        f"help.{BUILDER}": (
            "each player has a builder (a second tile)",
            "cada jugador tiene un constructor (una segunda pieza)",
        ),
        f"help.{PIG}": (
            "each player has a pig (+1 per city in its farm)",
            "cada jugador tiene un cerdo (+1 por ciudad en su granja)",
        ),
        f"opt.{BUILDER_BONUS}": ("Builder's second tile", "Segunda pieza del constructor"),
        f"help.{BUILDER_BONUS}": (
            "ask: the owner may decline the second tile; auto: always played",
            "preguntar: el dueño puede rechazar la segunda pieza; automática: se juega siempre",
        ),
        "choice.ask": ("ask", "preguntar"),
        "choice.auto": ("automatic", "automática"),
        "tb.bonus": (
            "Your builder earns you a second tile: play it?",
            "Tu constructor te da una segunda pieza: ¿la juegas?",
        ),
        "opt.tb.bonus.take": ("Play the second tile", "Jugar la segunda pieza"),
        f"help.{TRADE_GOODS}": (
            "goods tokens for completing cities",
            "fichas de mercancía por completar ciudades",
        ),
        "tb.builder_bonus": (
            "{seat}'s builder earns a second tile this turn.",
            "El constructor de {seat} le da una segunda pieza este turno.",
        ),
        "tb.goods_taken": (
            "{seat} takes goods: {wine} wine, {grain} grain, {cloth} cloth.",
            "{seat} recibe fichas de mercancía: {wine} de vino, {grain} de grano, {cloth} de tela.",
        ),
        "tb.goods_held": (
            "{wine} wine, {grain} grain, {cloth} cloth",
            "{wine} de vino, {grain} de grano, {cloth} de tela",
        ),
        "fig.builder": ("builder", "constructor"),
        "part.most_wine.one": ("most wine (1 token): 10", "mayoría de vino (1 ficha): 10"),
        "part.most_wine.many": (
            "most wine ({n} tokens): 10",
            "mayoría de vino ({n} fichas): 10",
        ),
        "part.most_grain.one": ("most grain (1 token): 10", "mayoría de grano (1 ficha): 10"),
        "part.most_grain.many": (
            "most grain ({n} tokens): 10",
            "mayoría de grano ({n} fichas): 10",
        ),
        "part.most_cloth.one": ("most cloth (1 token): 10", "mayoría de tela (1 ficha): 10"),
        "part.most_cloth.many": (
            "most cloth ({n} tokens): 10",
            "mayoría de tela ({n} fichas): 10",
        ),
        "part.pig": ("pig +{n}", "cerdo +{n}"),
        "symbol.goods.wine": ("wine", "vino"),
        "symbol.goods.grain": ("grain", "grano"),
        "symbol.goods.cloth": ("cloth", "tela"),
        "score.goods": ("goods", "mercancías"),
        "tb.err.take_or_pass": (
            "Answer 'tb.bonus take' or pass.",
            "Responde 'tb.bonus take' o pasa.",
        ),
        "tb.err.bonus_first": (
            "Your builder offers a second tile first: take it or pass.",
            "Antes tu constructor te ofrece una segunda pieza: juégala o pasa.",
        ),
        "fig.pig": ("pig", "cerdo"),
    }
)


@dataclass(frozen=True, slots=True)
class TradersModel:
    """Goods tokens per seat (wine, grain, cloth) and the builder's bonus-tile state:
    ``""`` none, ``"pending"`` earned this turn (offered at the end of the turn)."""

    goods: tuple[tuple[int, int, int], ...]
    bonus: str = ""


@dataclass(frozen=True, slots=True)
class GoodsTaken(Event):
    seat: Seat
    goods: tuple[int, int, int]

    def prompt(self) -> Prompt:
        wine, grain, cloth = self.goods
        return Prompt.of("tb.goods_taken", seat=self.seat, wine=wine, grain=grain, cloth=cloth)


@dataclass(frozen=True, slots=True)
class BuilderBonus(Event):
    """The builder earned its owner a second tile this turn."""

    seat: Seat

    def prompt(self) -> Prompt:
        return Prompt.of("tb.builder_bonus", seat=self.seat)


class TradersBuilders(Expansion):
    id = "traders_builders"
    name = "Traders & Builders"
    tile_sets = ("traders_builders",)
    concepts = ("trader", "goods", "wine", "grain", "cloth")
    figure_specs = (
        FigureSpec(
            "builder", stands_on=frozenset({FeatureKind.ROAD, FeatureKind.CITY}), joins=True
        ),
        FigureSpec("pig", lying=True, stands_on=frozenset({FeatureKind.FIELD}), joins=True),
    )
    options = (
        Option(BUILDER, True, (True, False), "each player has a builder (a second tile)"),
        Option(PIG, True, (True, False), "each player has a pig (+1 per city in its farm)"),
        Option(TRADE_GOODS, True, (True, False), "goods tokens for completing cities"),
        Option(
            BUILDER_BONUS,
            "ask",
            ("ask", "auto"),
            "the builder's second tile: the owner may decline it (ask) or always plays it",
        ),
    )

    def figures(self) -> dict[str, int]:
        out = {}
        if self.option(BUILDER):
            out["builder"] = 1
        if self.option(PIG):
            out["pig"] = 1
        return out

    def initial_model(self) -> TradersModel:
        return TradersModel(goods=((0, 0, 0),) * self.setup.players)

    @staticmethod
    def model(state: GameState) -> TradersModel:
        m = state.ext["traders_builders"]
        assert isinstance(m, TradersModel)
        return m

    def counters(self, model: Any, seat: Seat) -> Iterable[Prompt]:
        if not isinstance(model, TradersModel) or not self.option(TRADE_GOODS):
            return ()
        wine, grain, cloth = model.goods[seat]
        return (Prompt.of("tb.goods_held", wine=wine, grain=grain, cloth=cloth),)

    deploy_opinions = frozenset({"builder", "pig"})

    def can_deploy(
        self, state: GameState, seat: Seat, figure: str, feature: Feature
    ) -> bool | None:
        if not feature.meeples:  # nobody's follower there: neither figure may join it
            return False if figure == "builder" or figure == "pig" else None
        if figure == "builder":
            return feature.kind in (FeatureKind.ROAD, FeatureKind.CITY) and has_follower(
                feature, seat
            )
        if figure == "pig":
            return feature.kind is FeatureKind.FIELD and has_follower(feature, seat)
        return None

    def steps(self) -> Iterable[StepSpec]:
        return (StepSpec(Slot.CLEANUP, BONUS_STEP),)

    def on_placed(self, state: GameState, placed: PlacedTile) -> Iterable[Event]:
        seat = state.current
        if state.players[seat].supply.get("builder", 0) > 0:
            return ()  # the seat's builder is not on the board
        # the seat's builder on a road or city of the tile (read first: no calls), then the rest
        board = state.board
        root, features, segs = board.root, board.features, placed.segs
        for index in placed.rt.closables:  # its roads and cities
            meeples = features[root[segs[index]]].meeples
            if meeples and any(x.seat == seat and x.figure == "builder" for x in meeples):
                break
        else:
            return ()
        m = self.model(state)
        if m.bonus or not self.option(BUILDER) or state.flow[-1].param(BONUS):
            return ()
        state.ext[self.id] = replace(m, bonus="pending")
        return (BuilderBonus(seat),)

    def on_completed(self, state: GameState, seat: Seat, feature: Feature) -> Iterable[Event]:
        if feature.kind is not FeatureKind.CITY or not self.option(TRADE_GOODS):
            return ()
        got = tuple(feature.mod(g) for g in GOODS)
        if not any(got):
            return ()
        m = self.model(state)
        goods = list(m.goods)
        goods[seat] = (goods[seat][0] + got[0], goods[seat][1] + got[1], goods[seat][2] + got[2])
        state.ext[self.id] = replace(m, goods=tuple(goods))
        return (GoodsTaken(seat, (got[0], got[1], got[2])),)

    def seat_points(
        self, state: GameState, item: ScoreItem, seat: Seat, features: Sequence[Feature]
    ) -> tuple[int, str] | None:
        if item.category != "farm" or not item.units or not self.option(PIG):
            return None
        if any(x.seat == seat and x.figure == "pig" for f in features for x in f.meeples):
            return item.units, Part("part.pig", n=item.units)
        return None

    def final_points(self, state: GameState) -> Sequence[int]:
        """10 to each seat with the most of a kind of goods (at least one)."""
        if not self.option(TRADE_GOODS):
            return ()
        goods = self.model(state).goods
        out = [0] * len(goods)
        for k in range(len(GOODS)):
            best = max(g[k] for g in goods)
            if best < 1:
                continue
            for s, g in enumerate(goods):
                if g[k] == best:
                    out[s] += 10
        return out

    def final_scoring(self, state: GameState) -> Iterable[Event]:
        if not self.option(TRADE_GOODS):
            return ()
        events: list[Event] = []
        goods = self.model(state).goods
        for k, kind in enumerate(GOODS):
            best = max(g[k] for g in goods)
            if best < 1:
                continue
            winners = tuple(Seat(s) for s, g in enumerate(goods) if g[k] == best)
            item = ScoreItem(
                "goods",
                10,
                False,
                True,
                parts=(Part.plural(f"part.most_{kind}", best),),
                winners=winners,
            )
            award(state, item, events)
        return events


class BonusStep(Step):
    """End of turn: a builder that was extended offers its owner a second tile (a sub-turn),
    never from the second tile itself and not when the pile is empty (OQ-TB-1)."""

    id: ClassVar[str] = "tb.bonus"
    idle_unless = (TradersBuilders.id, "bonus")
    changes_flow = True
    accepts = (Choose,)

    def enter(self, s: GameState, frame: Frame, depth: int, events: list[Event]) -> Result:
        m = s.ext.get(TradersBuilders.id)
        if not isinstance(m, TradersModel) or m.bonus != "pending":
            return None
        s.ext[TradersBuilders.id] = replace(m, bonus="")
        if s.tiles_left <= 0:
            return None
        auto = s.setup.flow < 2 or s.setup.option(BUILDER_BONUS, "ask") == "auto"
        if auto:
            _second_tile(s, frame.seat)
            return None
        return (new_ask(s, self, depth, frame.seat),)

    def optional(self, s: GameState, ask: Ask) -> bool:
        return True

    def handle(self, s: GameState, ask: Ask, action: Action, events: list[Event]) -> Result:
        if isinstance(action, Choose):
            if action.value != "take":
                raise IllegalActionError.keyed("tb.err.take_or_pass")
            _second_tile(s, ask.seat)
        return None

    def refuse(self, s: GameState, action: Action) -> IllegalActionError:
        return IllegalActionError.keyed("tb.err.bonus_first")

    def decision(self, s: GameState, ask: Ask) -> Decision:
        take = Answer("take", Choose(self.id, "take"), label=Prompt.of("opt.tb.bonus.take"))
        return self.passable(ask, (take,))


def _second_tile(s: GameState, seat: Seat) -> None:
    s.turn += 1
    push_subturn(s, seat, params=((BONUS, True), (BONUS_TURN, True)))


BONUS_STEP = BonusStep()
register_action(BonusStep.id, ("take",))


# its part of the JCloisterZone import reads this module's keys, so it comes last
from engine.carcassonne.expansions.traders_builders.jcz import JCZ  # noqa: E402

TradersBuilders.jcz = JCZ

#: this package's expansion (engine/carcassonne/expansions/__init__.py registers it)
EXPANSION = TradersBuilders

from . import de as _de  # noqa: E402, F401  (the German words)
