"""How an expansion plugs into the rules (ARCHITECTURE.md §5.4).

An expansion is a subclass of :class:`Expansion` registered in ``expansions/__init__.py``. The
core calls its hooks at fixed points; a base-game match has none, so the hot path pays nothing.
Hook semantics: *fold* hooks thread a value through the enabled expansions in registry order;
*veto* hooks combine (any ``False`` forbids; a figure the core does not know needs a ``True``);
*collect* hooks concatenate.

Hooks that receive the state during ``apply`` get the *cloned* state and may change it (never
the input state). Per-expansion data lives in ``state.ext[<expansion id>]`` and must be replaced,
not mutated in place, because clones share it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from engine.core.decisions import Prompt
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

if TYPE_CHECKING:
    from engine.carcassonne.actions import Deploy
    from engine.carcassonne.board import Feature, PlacedTile
    from engine.carcassonne.events import Event
    from engine.carcassonne.figures import FigureSpec
    from engine.carcassonne.flow import StepSpec
    from engine.carcassonne.geometry import Position, Rotation
    from engine.carcassonne.jczparts import JczImport
    from engine.carcassonne.scoring import Award, ScoreItem
    from engine.carcassonne.state import GameSetup, GameState
    from engine.carcassonne.tiles import FeatureKind, TileDef
    from engine.carcassonne.track import TrackMove
    from engine.core.rng import Rng


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Option:
    """A rule variant of one expansion: ``key`` is stored in ``GameSetup.options``."""

    key: str
    default: Any
    choices: tuple[Any, ...]
    help: str


class Expansion:
    """Base class: every hook does nothing."""

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    tile_sets: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[tuple[Option, ...]] = ()
    #: the figure kinds this expansion brings (registered with the expansion)
    figure_specs: ClassVar[tuple[FigureSpec, ...]] = ()
    #: words naming this expansion's things beyond its id, option and step prefixes, figure
    #: kinds and tile symbols: no core file may use them (``tests/test_expansion_boundaries.py``)
    concepts: ClassVar[tuple[str, ...]] = ()

    # ---- JCloisterZone import (issue 20) ------------------------------------------------
    #: this expansion's part of the JCloisterZone 4.x and 5.x import, kept in its package's
    #: ``jcz.py`` (:mod:`engine.carcassonne.jczparts`); ``None``: saves that use it are refused
    jcz: ClassVar[JczImport | None] = None
    # ---- end of the JCloisterZone block ----------------------------------------------------

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        #: option values already looked up (a match's options never change)
        self._values: dict[str, Any] = {}

    def option(self, key: str) -> Any:
        """This match's value of one of this expansion's options."""
        try:
            return self._values[key]
        except KeyError:
            pass
        for o in self.options:
            if o.key == key:
                value = self._values[key] = self.setup.option(key, o.default)
                return value
        raise KeyError(key)

    # ---- setup
    def tile_sets_in_play(self) -> tuple[str, ...]:
        """The tile sets this match puts in the pile: by default every set in
        :attr:`tile_sets`; an expansion with alternative boxes (two editions of its tiles)
        picks by its options."""
        return self.tile_sets

    def figures(self) -> dict[str, int]:
        """Collect: extra figures each player starts with (e.g. ``{"large": 1}``)."""
        return {}

    def initial_model(self) -> Any:
        """The value stored in ``state.ext[self.id]`` at the start, or ``None`` for nothing."""
        return None

    def redact(self, model: Any, viewer: Seat | None) -> Any:
        """What ``viewer`` (``None`` = everyone) may see of this expansion's model."""
        return model

    def resample(self, state: GameState, viewer: Seat, rng: Rng) -> None:
        """Replace on the cloned ``state`` what ``viewer`` may not see of this expansion's
        secrets (face-down tiles, others' sealed bids) with values drawn from ``rng`` that
        depend only on what ``viewer`` sees (an AI's determinisation:
        :func:`engine.carcassonne.hidden.resample`). Its hidden piles (``chance``) are
        reshuffled by the core."""

    def counters(self, model: Any, seat: Seat) -> Iterable[Prompt]:
        """Collect: the public per-seat counters of ``model`` (already redacted for everyone)
        in words, for score lists (goods tokens, gold ...)."""
        return ()

    # ---- placing figures
    #: the figure kinds :meth:`can_deploy` may have an opinion on (``None``: any kind); the
    #: follower step, which asks for every figure on every spot, skips the others
    deploy_opinions: ClassVar[frozenset[str] | None] = None
    #: the feature kinds :meth:`can_deploy` may have an opinion on (``None``: any kind); on
    #: the others it answers ``None`` (or ``False`` where the figure's own spec, its
    #: ``stands_on`` or ``joins``, already refuses it): the follower step skips it there
    deploy_kinds: ClassVar[frozenset[FeatureKind] | None] = None

    def can_deploy(
        self, state: GameState, seat: Seat, figure: str, feature: Feature
    ) -> bool | None:
        """Veto: ``None`` = no opinion; ``False`` forbids; ``True`` allows a figure only this
        expansion knows (builder, pig ...)."""
        return None

    def deploy_refusal(
        self, state: GameState, seat: Seat, figure: str, feature: Feature | None
    ) -> IllegalActionError | None:
        """Why this expansion forbids ``figure`` on ``feature`` (``None``: a spot beside the
        tile's features, a corner), as a keyed error the player reads in their language;
        ``None`` when it does not forbid it."""
        return None

    def extra_deploys(self, state: GameState, seat: Seat, placed: PlacedTile) -> Iterable[Deploy]:
        """Collect: figures ``seat`` may put on the tile just placed somewhere other than one of
        its features, e.g. a barn on one of its corners (``Deploy("corner:SE", "barn")``,
        ``placement.CORNER_SPOTS``); :meth:`deploy_extra` carries them out."""
        return ()

    #: as :attr:`on_placed_unless`, for :meth:`extra_deploys`: ``("", symbol)`` says it offers
    #: nothing unless the tile just placed carries ``symbol`` (the core then skips the call)
    extra_deploys_unless: ClassVar[tuple[str, str] | None] = None

    def deploy_extra(
        self, state: GameState, seat: Seat, placed: PlacedTile, deploy: Deploy
    ) -> Iterable[Event] | None:
        """Carry out one of this expansion's :meth:`extra_deploys` on the cloned state (take the
        figure from the supply); ``None`` when ``deploy`` is not one of its own."""
        return None

    # ---- turn flow
    def steps(self) -> Iterable[StepSpec]:
        """Collect: steps this expansion adds to the turn, each in a slot (``flow.Slot``)."""
        return ()

    def extra_placements(
        self, state: GameState, t: TileDef
    ) -> Mapping[Position, tuple[Rotation, ...]] | None:
        """Collect: where the seat to move may put ``t`` besides where its edges match (a road
        meeting a field that a bridge will carry on). An expansion that allows one makes it
        whole in :meth:`settle_placement`. ``None``: nothing more."""
        return None

    def settle_placement(self, state: GameState, placed: PlacedTile) -> Iterable[Event]:
        """Right after a tile is put down, before anything reacts to it: make whole a placement
        that :meth:`extra_placements` allowed (lay the bridge it needs)."""
        return ()

    def on_placed(self, state: GameState, placed: PlacedTile) -> Iterable[Event]:
        """React to the tile just placed (before the deploy step)."""
        return ()

    #: ``(key, attribute)``: :meth:`on_placed` does nothing (returns no event, changes
    #: nothing) while ``state.ext[key]`` is absent or its ``attribute`` is false; ``("",
    #: symbol)``: unless the tile just placed carries ``symbol`` (``TileDef.symbol_map``). The
    #: core then skips the call, as the flow loop skips a step (``Step.idle_unless``)
    on_placed_unless: ClassVar[tuple[str, str] | None] = None

    def on_completed(self, state: GameState, seat: Seat, feature: Feature) -> Iterable[Event]:
        """React to a feature completed by ``seat``'s tile, before it is scored."""
        return ()

    # ---- scoring
    def score_feature(self, state: GameState, feature: Feature, item: ScoreItem) -> ScoreItem:
        """Fold: adjust the points of a scored road, city, cloister or farm."""
        return item

    def seat_points(
        self, state: GameState, item: ScoreItem, seat: Seat, features: Sequence[Feature]
    ) -> tuple[int, str] | None:
        """Extra points one winner gets for ``item``, with the reason (the pig's +1 per city),
        or ``None``. ``features`` are the features the item scored (the farms, for a farm)."""
        return None

    def on_points_awarded(self, state: GameState, award: Award, depth: int) -> Iterable[Award]:
        """Intercept: react to points just given (may change the cloned state, push a frame
        that opens a decision, or return follow-up awards, which pass through the pipeline
        again with ``depth + 1``)."""
        return ()

    def final_scoring(self, state: GameState) -> Iterable[Event]:
        """Add final-scoring lines after farms (may change the cloned state)."""
        return ()

    def final_points(self, state: GameState) -> Sequence[int] | None:
        """The points :meth:`final_scoring` would add to each seat (by seat index; empty: none)
        if the game ended now, after the roads, cities, cloisters and farms scored and their
        figures went home, *without changing* ``state``; with any points this expansion's
        reactions to final-scoring awards would add. An AI's evaluation reads it instead of
        running the whole final scoring on a copy (:mod:`engine.carcassonne.projection`).
        ``None``: not known here (the caller then runs the final scoring on a copy). Asked
        only of the expansions that override :meth:`final_scoring`."""
        return None

    # ---- capabilities for the expansions still to come (issue 20; docs/expansions.md,
    # "Capabilities for what is still to come"). Both hooks cost nothing to a match whose
    # expansions do not override them.
    def on_start(self, state: GameState) -> None:
        """Prepare the new game's state once, after every model is in place and before the
        first draw: put figures on the scoring track (``track.put``), make a hidden pile of
        cards (``chance.new_pile``)."""

    def on_track_moved(self, state: GameState, move: TrackMove, depth: int) -> Iterable[Award]:
        """Intercept: a scoring figure moved on the scoring track (``move``: whose, which, its
        points before and after, for which award). May change the cloned state and return
        follow-up awards, given with ``depth + 1`` as for :meth:`on_points_awarded`."""
        return ()

    # ---- end of the capabilities block


class _PerSetup(Generic[T]):
    """Memoise a function of a setup: first by identity (a dict lookup, no hashing of the
    whole setup on the hot path), then by equality."""

    def __init__(self, fn: Callable[[GameSetup], T]) -> None:
        self.fn = fn
        self.by_id: dict[int, tuple[GameSetup, T]] = {}
        self.by_eq: dict[GameSetup, T] = {}

    def __call__(self, setup: GameSetup) -> T:
        hit = self.by_id.get(id(setup))
        if hit is not None and hit[0] is setup:
            return hit[1]
        value = self.by_eq.get(setup)
        if value is None:
            value = self.fn(setup)
            if len(self.by_eq) > 256:
                self.by_eq.clear()
            self.by_eq[setup] = value
        if len(self.by_id) > 256:
            self.by_id.clear()
        self.by_id[id(setup)] = (setup, value)
        return value

    def cache_clear(self) -> None:
        self.by_id.clear()
        self.by_eq.clear()


def per_setup(fn: Callable[[GameSetup], T]) -> _PerSetup[T]:
    return _PerSetup(fn)


class Hooks:
    """For each hot hook, the enabled expansions that override it (registry order): the core
    calls only those, not every expansion's do-nothing default, several times a move."""

    __slots__ = (
        "extra_deploys",
        "extra_placements",
        "settle_placement",
        "on_placed",
        "on_completed",
        "score_feature",
        "seat_points",
        "on_points_awarded",
        "on_placed_guarded",
        "extra_deploys_guarded",
    )
    extra_deploys: tuple[Expansion, ...]
    extra_placements: tuple[Expansion, ...]
    settle_placement: tuple[Expansion, ...]
    on_placed: tuple[Expansion, ...]
    on_completed: tuple[Expansion, ...]
    score_feature: tuple[Expansion, ...]
    seat_points: tuple[Expansion, ...]
    on_points_awarded: tuple[Expansion, ...]
    #: ``on_placed``'s expansions, each with its :attr:`Expansion.on_placed_unless`
    on_placed_guarded: tuple[tuple[Expansion, tuple[str, str] | None], ...]
    #: ``extra_deploys``' expansions, each with its :attr:`Expansion.extra_deploys_unless`
    extra_deploys_guarded: tuple[tuple[Expansion, tuple[str, str] | None], ...]

    def __init__(self, exps: tuple[Expansion, ...]) -> None:
        for name in Hooks.__slots__[:-2]:
            default = getattr(Expansion, name)
            setattr(self, name, tuple(e for e in exps if getattr(type(e), name) is not default))
        self.on_placed_guarded = tuple((e, e.on_placed_unless) for e in self.on_placed)
        self.extra_deploys_guarded = tuple((e, e.extra_deploys_unless) for e in self.extra_deploys)


def guard_passes(state: Any, guard: tuple[str, str] | None, placed: Any) -> bool:
    """Whether a guarded hook must run for ``placed`` (``Expansion.on_placed_unless`` /
    ``extra_deploys_unless``): its declared test — a model attribute of the expansion's, or a
    symbol on the placed tile — made without calling the hook. ``None``: always."""
    if guard is None:
        return True
    key, name = guard
    if key:
        m = state.ext.get(key)
        return m is not None and bool(getattr(m, name))
    return bool(placed.rt.tile.symbol_map.get(name))


@per_setup
def hooks_of(setup: GameSetup) -> Hooks:
    """The :class:`Hooks` of a setup's enabled expansions."""
    return Hooks(expansions_of(setup))


@per_setup
def deploy_vetoes(setup: GameSetup) -> tuple[Expansion, ...]:
    """The enabled expansions that override ``can_deploy`` (the others never have an opinion,
    so the deploy check, which runs for every figure on every spot, skips them)."""
    return tuple(e for e in expansions_of(setup) if type(e).can_deploy is not Expansion.can_deploy)


@per_setup
def expansions_of(setup: GameSetup) -> tuple[Expansion, ...]:
    """The enabled expansions of a setup, in registry order (hook order).

    Raises:
        IllegalActionError: for an unknown expansion id.
    """
    from engine.carcassonne.registry import all_expansions, find_expansion

    for e in setup.expansions:
        find_expansion(e)
    return tuple(cls(setup) for cls in all_expansions() if cls.id in setup.expansions)
