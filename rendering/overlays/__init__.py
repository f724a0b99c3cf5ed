"""Per-expansion drawing, found by expansion id (ARCHITECTURE.md decision 11).

An expansion's own pieces are drawn by ``rendering/overlays/<expansion id>.py``; nothing else in
``rendering/`` names an expansion. Such a module defines a subclass of :class:`Overlay` and
exposes one instance as ``OVERLAY``. The module is imported lazily (``importlib``) the first time
a view's ``setup.expansions`` names its id, or when a figure kind nobody has drawn yet is asked
for; an expansion without a module simply has nothing of its own to draw (its figures still show,
as lettered discs).

An overlay can

* draw its figure kinds (:attr:`Overlay.figures`: kind -> :class:`FigureArt`),
* keep cells it draws on in the turn picture's region (:meth:`Overlay.focus`: a flight's
  landing square),
* add a line of icons with counts to every player's row in the side panel or strip
  (:meth:`Overlay.panel_items`, from ``view.ext[<its id>]``), and
* draw tokens on the board after tiles and figures (:meth:`Overlay.draw_board`), or under the
  figures (:meth:`Overlay.draw_under`), and
* add a strip under the board picture (:meth:`Overlay.strip`),
* move where a figure stands and a spot's label goes on a tile it lays something on
  (:meth:`Overlay.anchor`) and keep labels off what it lays there (:meth:`Overlay.covers`), and
* draw the symbols its tile file declares (:attr:`Overlay.symbols`: symbol key ->
  :class:`SymbolArt`, where the symbol stands and how it is painted).

Symbols are not found through a view: a tile is drawn without one. Every module of this package
is an overlay (:func:`overlay_modules`, found with ``pkgutil``), and the first symbol drawn
imports them all and indexes their symbols by key (:func:`symbol_art`); deleting an overlay's
file simply stops drawing its symbols (roads that ran to one run to the tile's centre).

Tests (and expansions that live outside the package, e.g. a test-only one) may put an overlay in
place with :func:`register` and take it out with :func:`unregister`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from PIL import Image

if TYPE_CHECKING:
    from engine.carcassonne.geometry import Position
    from engine.carcassonne.view import PublicView, TileView
    from engine.core.seats import Seat
    from rendering.frame import Frame
    from rendering.layout import Symbol
    from rendering.pen import Pen
    from rendering.style import SeatStyle

#: draws a figure: ``(seat style, follower sprite side in px, lying) -> RGBA sprite``
Drawer = Callable[["SeatStyle", int, bool], Image.Image]
#: an icon and the count printed after it (figures left, goods held ...)
PanelItem = tuple[Image.Image, int]
#: paints a printed symbol where the layout put it: ``(pen on the tile, symbol) -> None``
Painter = Callable[["Pen", "Symbol"], None]
#: a point in unit tile coordinates (``0..1``, x east, y south, the board's orientation)
Point = tuple[float, float]
#: a box in unit tile coordinates: ``(x0, y0, x1, y1)``
UnitBox = tuple[float, float, float, float]


class Place(Enum):
    """Where the layout puts a printed symbol on its tile."""

    #: the symbol is the whole tile: nothing else is drawn, every feature stands in the centre
    WHOLE = "whole"
    #: in the tile's centre
    CENTRE = "centre"
    #: on the free grass nearest the centre (the centre itself when the symbol fits there)
    FREE = "free"
    #: on its feature: inside its city beside the shields, or beside its road
    FEATURE = "feature"
    #: a small icon on free grass or city towards the south-east corner
    CORNER = "corner"


@dataclass(frozen=True, slots=True)
class RoadEnd:
    """The mark drawn where a road that runs to a symbol meets it: ``at`` the share of the road
    from the tile's edge, ``size`` a share of the tile, painted with the symbol's value."""

    at: float
    size: float
    paint: Painter


@dataclass(frozen=True, slots=True)
class SymbolArt:
    """How an overlay draws one printed symbol (a tile file's ``[symbols.<key>]``).

    ``size`` is a share of the tile side. ``ground``: the symbol lies on the grass (drawn under
    the cities, and no field covers its disc); ``upright``: a building or a figure that stands
    upright at its turned place whatever the tile's rotation (else it turns with the tile).
    ``ends``: the road ends (a tile file's ``ends``) that run to this symbol, marked by
    ``road_end`` where they meet it. ``paint`` gets the :class:`~rendering.layout.Symbol` the
    layout placed: its ``at``, ``size`` and ``arg`` (the symbol's value: a good, a heading).
    """

    paint: Painter
    place: Place
    size: float
    ground: bool = False
    upright: bool = False
    ends: frozenset[str] = frozenset()
    road_end: RoadEnd | None = None


@dataclass(frozen=True, slots=True)
class FigureArt:
    """How a figure kind is drawn.

    ``follower``: a follower keeps its feature's anchor, lies down on a field and is pasted
    last, so no other figure on the feature hides it. ``order`` sorts the kinds in a player's
    row (the base follower is 0; kinds nobody drew come after every known kind, by name).
    """

    draw: Drawer
    follower: bool = False
    order: int = 100


class Overlay:
    """What one expansion draws. Subclass it, override what applies, expose ``OVERLAY``."""

    #: the expansion id (``engine.carcassonne.registry``) this overlay draws for
    id: ClassVar[str] = ""
    #: figure kind -> its art, for the kinds this expansion adds
    figures: ClassVar[Mapping[str, FigureArt]] = MappingProxyType({})
    #: symbol key (its tile file's ``[symbols.<key>]``) -> how it is drawn on the tiles
    symbols: ClassVar[Mapping[str, SymbolArt]] = MappingProxyType({})
    #: the expansion's own words besides its id, figure kinds and symbol keys (its tokens, its
    #: symbols' values): none of them may name anything in ``rendering/`` outside the overlays
    words: ClassVar[frozenset[str]] = frozenset()

    def focus(self, view: PublicView) -> Sequence[Position]:
        """Cells the turn picture must show with their neighbours, besides every player's
        last tile (:func:`rendering.region.focus_box`): where this overlay draws something that
        matters this turn away from the tile just placed (a flight's landing square). Like
        :meth:`draw_board`, they may depend on the view only through this expansion's model."""
        return ()

    def panel_items(self, view: PublicView, seat: Seat, icon: int) -> Sequence[PanelItem] | None:
        """Icons with counts shown on a line of their own in ``seat``'s row (icons ``icon`` px
        high), or ``None`` when this overlay shows no line in ``view`` (then for every seat)."""
        return None

    def draw_board(self, img: Image.Image, view: PublicView, frame: Frame) -> None:
        """Draw this expansion's tokens on the board (after tiles and figures). Use
        ``frame.cell_xy(pos)``, ``frame.tile`` and ``rendering.layout.spot_anchor``.

        What it and :meth:`draw_under` draw must depend on the view only through this
        expansion's model (``view.ext[id]``) and the frame: the replay redraws an overlay's
        tokens only when its model changes (:mod:`rendering.canvas`)."""
        return None

    def draw_under(self, img: Image.Image, view: PublicView, frame: Frame) -> None:
        """Draw what lies on the tiles under the figures (a wooden bridge a follower may
        stand on): after the tiles, before any figure. Cells outside ``frame`` are skipped."""
        return None

    def strip(self, view: PublicView, width: int, lang: str = "en") -> Image.Image | None:
        """A strip of ``width`` px shown under the board picture (a market's tiles), its words
        in ``lang``, or ``None`` when this overlay has nothing to show there in ``view``."""
        return None

    def anchor(self, view: PublicView, tv: TileView, feature: int, spot: str, at: Point) -> Point:
        """Where a figure on ``spot`` of the tile ``tv`` stands and that spot's label goes, in
        unit tile coordinates of the board's orientation; ``at`` is where the core puts it.
        ``feature`` is the spot's index among the printed tile's features, or ``-1`` (or an
        index past them) for a road or city an expansion laid on the tile. An overlay that
        lays something on tiles (a bridge deck) moves the spots it covers; like
        :meth:`draw_board`, what it returns may depend on the view only through its model."""
        return at

    def covers(self, view: PublicView, tv: TileView) -> Sequence[UnitBox]:
        """The parts of the tile ``tv`` this overlay lays something on (a bridge deck), in unit
        tile coordinates of the board's orientation: labels of other spots keep off them."""
        return ()


#: expansion id -> its overlay, or None once its module was found missing
_LOADED: dict[str, Overlay | None] = {}
#: overlays put in place by :func:`register` (they win over a module of the same id)
_REGISTERED: dict[str, Overlay] = {}
#: symbol key -> its art, over every overlay (built by :func:`symbol_arts`)
_SYMBOLS: dict[str, SymbolArt] | None = None


def register(overlay: Overlay) -> Overlay:
    """Put ``overlay`` in place for its id (tests; expansions kept outside this package).

    Raises:
        ValueError: for an overlay without an id, or one drawing a symbol another overlay
            draws (then nothing changes).
    """
    if not overlay.id:
        raise ValueError("an overlay needs the id of its expansion")
    before = _REGISTERED.get(overlay.id)
    _REGISTERED[overlay.id] = overlay
    try:
        symbols_changed()
    except ValueError:
        if before is None:
            del _REGISTERED[overlay.id]
        else:
            _REGISTERED[overlay.id] = before
        symbols_changed()
        raise
    return overlay


def unregister(expansion_id: str) -> None:
    """Take out an overlay put in place by :func:`register`."""
    if _REGISTERED.pop(expansion_id, None) is not None:
        symbols_changed()


def overlay_for(expansion_id: str) -> Overlay | None:
    """The overlay of ``expansion_id``: a registered one, else ``OVERLAY`` of the module
    ``rendering.overlays.<expansion_id>`` (imported once), else None."""
    got = _REGISTERED.get(expansion_id)
    if got is not None:
        return got
    if expansion_id in _LOADED:
        return _LOADED[expansion_id]
    found: Overlay | None = None
    if expansion_id.isidentifier():
        name = f"{__name__}.{expansion_id}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:  # the overlay exists but something it imports does not
                raise
        else:
            found = getattr(module, "OVERLAY", None)
            if not isinstance(found, Overlay):
                raise TypeError(f"{name} must define OVERLAY, an Overlay instance")
    _LOADED[expansion_id] = found
    return found


def overlays_of(view: PublicView) -> tuple[Overlay, ...]:
    """The overlays of the expansions ``view`` plays, in the setup's order."""
    out = []
    for exp in view.setup.expansions:
        ov = overlay_for(exp)
        if ov is not None:
            out.append(ov)
    return tuple(out)


def overlay_modules() -> tuple[str, ...]:
    """The names of this package's overlay modules (each an expansion id), sorted."""
    return tuple(
        sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    )


def symbol_arts() -> Mapping[str, SymbolArt]:
    """Every symbol an overlay draws, by key: the overlay of every module here (or the one
    registered for its id) and every registered overlay, imported on the first call.

    Raises:
        ValueError: when two overlays draw the same symbol (its owner would be a guess).
    """
    global _SYMBOLS
    if _SYMBOLS is None:
        found: dict[str, SymbolArt] = {}
        owner: dict[str, str] = {}
        for exp in sorted({*overlay_modules(), *_REGISTERED}):
            ov = overlay_for(exp)
            for key, art in ov.symbols.items() if ov is not None else ():
                if key in owner:
                    raise ValueError(f"symbol '{key}' is drawn by both {owner[key]} and {exp}")
                found[key], owner[key] = art, exp
        _SYMBOLS = found
    return _SYMBOLS


def symbol_art(key: str) -> SymbolArt | None:
    """How symbol ``key`` is drawn, or None when no overlay draws it (then it is not drawn)."""
    return symbol_arts().get(key)


def symbols_changed() -> None:
    """Index the symbols again (an overlay was registered or taken out; tests that hide an
    overlay module); when they differ, forget every tile drawn before (layouts and pictures
    of tiles are cached).

    Raises:
        ValueError: when two overlays draw the same symbol.
    """
    global _SYMBOLS
    before, _SYMBOLS = _SYMBOLS, None
    after = symbol_arts()  # before any symbol was drawn (None), nothing drawn depends on them
    if before is not None and dict(after) != before:
        from rendering import cache

        cache.clear()


def _known() -> list[Overlay]:
    return [*_REGISTERED.values(), *(ov for ov in _LOADED.values() if ov is not None)]


def figure_art(kind: str) -> FigureArt | None:
    """The art of figure ``kind`` from any overlay; overlays of every registered expansion are
    loaded on the first miss (a sprite may be wanted before any view of that expansion)."""
    for ov in _known():
        art = ov.figures.get(kind)
        if art is not None:
            return art
    from engine.carcassonne.registry import all_expansions

    missing = [e.id for e in all_expansions() if e.id not in _LOADED]
    if not missing:
        return None
    for exp in missing:
        overlay_for(exp)
    for ov in _known():
        art = ov.figures.get(kind)
        if art is not None:
            return art
    return None


__all__ = [
    "Drawer",
    "FigureArt",
    "Overlay",
    "Painter",
    "PanelItem",
    "Place",
    "Point",
    "RoadEnd",
    "SymbolArt",
    "UnitBox",
    "figure_art",
    "overlay_for",
    "overlay_modules",
    "overlays_of",
    "register",
    "symbol_art",
    "symbol_arts",
    "symbols_changed",
    "unregister",
]
