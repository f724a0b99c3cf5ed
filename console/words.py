"""The local table's words for any decision: prompts, options, targets, in English or Spanish.

Seat numbers are shown as names, tiles by what is printed on them and features by kind and
where they lie (:mod:`words.places`): a field is "field north-west of the road", never its
half-edge code. The words come from the catalogues (:func:`console.i18n.tl`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from console.i18n import tl
from engine import PublicView
from engine.core import messages
from engine.core.decisions import (
    CardRef,
    Cell,
    Corner,
    FeatureRef,
    FigureRef,
    Option,
    Prompt,
    Target,
    TileChoice,
    TrackSpace,
)
from words.phrases import is_tile_param, is_tiles_param
from words.places import feature_words, spots_of, tile_words


def spot_words(spot: str, lang: str = "en", siblings: Sequence[str] = ()) -> str:
    """``city:NW`` -> ``city (north, west)``; a field by where it lies when the tile's other
    spots are known (``siblings``), else by the corners it touches: ``field:Es.Se`` ->
    ``field (south-east)``, ``field:En.Sw`` -> ``field (north-east, south-west)``."""
    return feature_words(spot, lang, siblings)


def figure_words(figure: str, lang: str = "en") -> str:
    key = f"fig.{figure}"
    return messages.text(key, lang) if messages.has(key) else figure


class Words:
    """Prompts, options and targets in ``lang``, with seat numbers shown as names; ``view``
    (set by the asker) names a feature by where it lies on its tile."""

    def __init__(self, names: Sequence[str], lang: str = "en") -> None:
        self.names = tuple(names)
        self.lang = lang
        self.view: PublicView | None = None

    def seat(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else tl(self.lang, "neutral")

    def prompt(self, prompt: Prompt) -> str:
        """A message key with its parameters in words (a Prompt parameter is translated
        too; ``seat`` / ``*_seat`` parameters become player names, ``tile`` ones the tile in
        words, ``tiles`` ones (a tuple of tile ids) each tile in words)."""
        params: dict[str, Any] = {}
        for name, value in prompt.params:
            if isinstance(value, Prompt):
                value = self.prompt(value)
            elif (name == "seat" or name.endswith("_seat")) and isinstance(value, int):
                value = self.seat(int(value))
            elif is_tile_param(name) and isinstance(value, str):
                value = tile_words(value, self.lang)
            elif is_tiles_param(name) and isinstance(value, tuple):
                value = "; ".join(tile_words(str(v), self.lang) for v in value)
            params[name] = value
        return messages.text(prompt.key, self.lang, **params)

    def siblings(self, x: int, y: int) -> tuple[str, ...]:
        """The spot names of the tile at ``x, y`` (empty when it is not known)."""
        if self.view is None:
            return ()
        for tv in self.view.tiles:
            if (tv.pos.x, tv.pos.y) == (x, y):
                return spots_of(tv.tile, int(tv.rotation))
        return ()

    def spot(self, spot: str, x: int, y: int) -> str:
        return spot_words(spot, self.lang, self.siblings(x, y))

    def target(self, t: Target | None, *, where: bool = True) -> str:
        """A target in words; ``where=False`` leaves out the cell of a feature (when every
        choice is on the tile just placed)."""
        lang = self.lang
        if isinstance(t, Cell):
            return f"{t.x},{t.y}"
        if isinstance(t, FeatureRef):
            at = tl(lang, "at", x=t.x, y=t.y) if where else ""
            return self.spot(t.spot, t.x, t.y) + at
        if isinstance(t, FigureRef):
            figure, spot = figure_words(t.figure, lang), self.spot(t.spot, t.x, t.y)
            if t.seat is None or t.seat < 0:
                return tl(lang, "neutral_figure", figure=figure, spot=spot, x=t.x, y=t.y)
            owner = self.seat(t.seat)
            return tl(lang, "owned", owner=owner, figure=figure, spot=spot, x=t.x, y=t.y)
        if isinstance(t, Corner):
            return tl(lang, "corner", x=t.x, y=t.y)
        if isinstance(t, TrackSpace):
            return tl(lang, "track", n=t.n)
        if isinstance(t, TileChoice):
            return tl(lang, "tile", tile=tile_words(t.tile, lang))
        if isinstance(t, CardRef):
            return tl(lang, "card", code=self.value("card", t.code) or t.code)
        return ""

    def value(self, facet: str, value: str) -> str | None:
        """A facet value's own words when the catalogue has them (``fig.<kind>``,
        ``facet.<facet>.<value>``, ``<facet>.<value>``), else None."""
        if facet == "figure" and messages.has(f"fig.{value}"):
            return messages.text(f"fig.{value}", self.lang)
        if facet == "rotation" and value[:1] == "r" and value[1:].isdigit():
            return f"{value[1:]}°"  # as the rotation picture heads each way
        for key in (f"facet.{facet}.{value}", f"{facet}.{value}"):
            if messages.has(key):
                return messages.text(key, self.lang)
        return None

    def facet(self, facet: str) -> str:
        key = f"facet.{facet}"
        return messages.text(key, self.lang) if messages.has(key) else facet

    def option(self, o: Option, *, where: bool = True) -> str:
        if o.label is not None:
            return self.prompt(o.label)
        if o.number is not None:
            hi = "" if o.number.max is None else f"-{o.number.max}"
            return tl(self.lang, "a_number", min=o.number.min, hi=hi)
        text = self.target(o.target, where=where)
        if text:
            return text
        if o.facets:
            return " · ".join(self.value(k, v) or v for k, v in o.facets)
        return o.id


__all__ = ["Words", "figure_words", "spot_words"]
