"""Abbey & Mayor (RULES.md §14): 12 tiles, and per player an abbey, a mayor, a barn, a wagon.

* Abbey (:mod:`.abbey`): played instead of drawing into a hole closed on all four sides; a
  cloister for every rule, it closes what it touches and has no field.
* Mayor: a follower only for cities without any follower; its strength is the city's pennants
  (none: it counts 0, and a player with strength 0 wins nothing — OQ-MAY-1).
* Barn (:mod:`.barn`): on a corner where four fields meet; scores its farm at once, then at the
  end; a farm joined to a barn's farm scores at once.
* Wagon (:mod:`.wagon`): a follower for roads, cities and cloisters; after its feature scores
  its owner may move it on.

The four are switched separately (JCloisterZone's elements ``abbey``, ``mayor``, ``barn``,
``wagon``), all on by default; ``am.wagon_move`` chooses where a wagon may move;
``am.final_abbeys`` (off) plays JCloisterZone's end-of-game abbey round. Its part of the
JCloisterZone import: :mod:`.jcz`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from engine.carcassonne.actions import Deploy
from engine.carcassonne.board import Feature, PlacedTile
from engine.carcassonne.events import Event
from engine.carcassonne.expansion import Expansion, Option
from engine.carcassonne.expansions.abbey_mayor.abbey import ABBEY_ORDER, ABBEY_STEP, holes
from engine.carcassonne.expansions.abbey_mayor.barn import (
    BARN_STEP,
    barn_deploys,
    deploy_barn,
    final_barn_points,
    final_barns,
    has_barn,
)
from engine.carcassonne.expansions.abbey_mayor.jcz import JCZ
from engine.carcassonne.expansions.abbey_mayor.model import (
    ABBEY,
    BARN,
    BARN_FIG,
    FINAL_ABBEYS,
    ID,
    MAYOR,
    MAYOR_FIG,
    WAGON,
    WAGON_FIG,
    WAGON_MOVE,
    WAGON_MOVES,
    AbbeyMayorModel,
    AbbeyPlayed,
    Barn,
    WagonMoved,
    WagonWaiting,
    model_of,
)
from engine.carcassonne.expansions.abbey_mayor.wagon import WAGON_STEP, targets, wagons_scored
from engine.carcassonne.figures import FigureSpec
from engine.carcassonne.flow import Slot, StepSpec
from engine.carcassonne.scoring import Part, ScoreItem
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import FeatureKind
from engine.core.decisions import Prompt
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat


def mayor_strength(feature: Any) -> int:
    """A mayor counts as many followers as its city has pennants (RULES.md §14.2.2)."""
    return int(feature.pennants) if feature.kind is FeatureKind.CITY else 0


class AbbeyMayor(Expansion):
    id = ID
    name = "Abbey & Mayor"
    tile_sets = ("abbey_mayor",)
    concepts = ("abbey",)
    figure_specs = (
        FigureSpec(
            MAYOR_FIG,
            follower=True,
            strength_on=mayor_strength,
            stands_on=frozenset({FeatureKind.CITY}),
        ),
        FigureSpec(
            WAGON_FIG,
            strength=1,
            follower=True,
            stands_on=frozenset(FeatureKind) - {FeatureKind.FIELD},
        ),
        FigureSpec(BARN_FIG, on_features=False),
    )
    jcz = JCZ
    options = (
        Option(ABBEY, True, (True, False), "each player has an abbey tile (fills a hole)"),
        Option(MAYOR, True, (True, False), "each player has a mayor (counts the pennants)"),
        Option(BARN, True, (True, False), "each player has a barn (a corner of four fields)"),
        Option(WAGON, True, (True, False), "each player has a wagon (moves on after scoring)"),
        Option(
            WAGON_MOVE,
            "road",
            WAGON_MOVES,
            "where a wagon moves: along a road (rulebook) or to a nearby tile (JCloisterZone)",
        ),
        Option(
            FINAL_ABBEYS,
            False,
            (True, False),
            "after the last tile each player may still play their abbey (JCloisterZone)",
        ),
    )

    def figures(self) -> dict[str, int]:
        out = {}
        for key, kind in ((MAYOR, MAYOR_FIG), (BARN, BARN_FIG), (WAGON, WAGON_FIG)):
            if self.option(key):
                out[kind] = 1
        return out

    def initial_model(self) -> AbbeyMayorModel:
        return AbbeyMayorModel(abbeys=(1 if self.option(ABBEY) else 0,) * self.setup.players)

    def counters(self, model: Any, seat: Seat) -> Iterable[Prompt]:
        if not isinstance(model, AbbeyMayorModel) or not self.option(ABBEY):
            return ()
        return (Prompt.of("am.abbeys_held", n=model.abbeys[seat]),)

    # ---- placing figures
    #: only fields (barns; the mayor's and the wagon's other refusals are their specs')
    deploy_kinds = frozenset({FeatureKind.FIELD})

    def can_deploy(
        self, state: GameState, seat: Seat, figure: str, feature: Feature
    ) -> bool | None:
        kind = feature.kind
        if kind is FeatureKind.FIELD:
            if figure in (WAGON_FIG, MAYOR_FIG):
                return False
            barns = state.ext[ID].barns
            if barns and has_barn(state.board, barns, feature):
                return False  # no figure in a farm with a barn (§14.3 rule 5)
        elif figure == MAYOR_FIG and kind is not FeatureKind.CITY:
            return False
        return None

    def deploy_refusal(
        self, state: GameState, seat: Seat, figure: str, feature: Feature | None
    ) -> IllegalActionError | None:
        if figure == BARN_FIG:
            return IllegalActionError.keyed("am.err.barn_corner")
        if feature is None:
            return None
        if figure == MAYOR_FIG and feature.kind is not FeatureKind.CITY:
            return IllegalActionError.keyed("am.err.mayor_city")
        if figure == WAGON_FIG and feature.kind is FeatureKind.FIELD:
            return IllegalActionError.keyed("am.err.wagon_field")
        barns = model_of(state.ext).barns
        if feature.kind is FeatureKind.FIELD and barns and has_barn(state.board, barns, feature):
            return IllegalActionError.keyed("am.err.barn_farm")
        return None

    def extra_deploys(self, state: GameState, seat: Seat, placed: PlacedTile) -> Iterable[Deploy]:
        if state.players[seat].supply.get(BARN_FIG, 0) <= 0:
            return ()
        return barn_deploys(state, seat, placed)

    def deploy_extra(
        self, state: GameState, seat: Seat, placed: PlacedTile, deploy: Deploy
    ) -> Iterable[Event] | None:
        if deploy.figure != BARN_FIG:
            return None
        return deploy_barn(state, seat, placed, deploy)

    # ---- turn flow
    def steps(self) -> Iterable[StepSpec]:
        return (
            StepSpec(Slot.DRAW, ABBEY_STEP, ABBEY_ORDER),
            StepSpec(Slot.SCORE, BARN_STEP),
            StepSpec(Slot.AFTER_SCORE, WAGON_STEP),
        )

    def on_completed(self, state: GameState, seat: Seat, feature: Feature) -> Iterable[Event]:
        if feature.meeples and self.option(WAGON):
            waiting = wagons_scored(feature)
            if waiting:
                m = model_of(state.ext)
                state.ext[ID] = replace(m, wagons=(*m.wagons, *waiting))
        return ()

    # ---- scoring
    def score_feature(self, state: GameState, feature: Feature, item: ScoreItem) -> ScoreItem:
        if item.category == "city" and not item.winners and feature.meeples:
            mayors = sorted({m.seat for m in feature.meeples if m.figure == MAYOR_FIG})
            if mayors:  # the city scores for nobody: say why (JCloisterZone logs city.empty)
                return replace(
                    item, points=0, winners=tuple(mayors), parts=(Part("part.mayor_no_pennants"),)
                )
        return item

    def final_points(self, state: GameState) -> Sequence[int]:
        """The barns' final payment (4 per completed city of their farm)."""
        if not model_of(state.ext).barns:
            return ()
        return final_barn_points(state)

    def final_scoring(self, state: GameState) -> Iterable[Event]:
        if not model_of(state.ext).barns:
            return ()
        return final_barns(state)


__all__ = [
    "ABBEY",
    "BARN",
    "FINAL_ABBEYS",
    "ID",
    "MAYOR",
    "WAGON",
    "WAGON_MOVE",
    "AbbeyMayor",
    "AbbeyMayorModel",
    "AbbeyPlayed",
    "Barn",
    "WagonMoved",
    "WagonWaiting",
    "holes",
    "mayor_strength",
    "targets",
]


#: this package's expansion (engine/carcassonne/expansions/__init__.py registers it)
EXPANSION = AbbeyMayor

from . import de as _de  # noqa: E402, F401  (the German words)
