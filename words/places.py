"""Tiles and their features named for people, in English or Spanish.

A tile is described by what is printed on it (``city on the north side · road from east to
west``) rather than by its data id (``BA/RCr``); a feature of a placed tile by its kind and
where it lies: a city or road by the sides it reaches, a field by where it lies on the tile,
next to the road when there is one (``field north-west of the road``, ``field in the south-east
corner``), never by half-edge codes (``field:En.Sw``). Pure words: nothing here draws or talks
to Discord; the words live in the engine's catalogue (:mod:`engine.core.messages`), so both the
bot (:func:`words.i18n.t` falls back to it) and the console read them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from engine.carcassonne.geometry import HALF_NAMES, SIDE_NAMES
from engine.carcassonne.tiles import FeatureKind, tile
from engine.core import messages

_SIDE_KEYS = {"N": "north", "E": "east", "S": "south", "W": "west"}
#: compass points counter-clockwise from east (the order of ``atan2`` sectors)
_COMPASS = (
    "east",
    "north_east",
    "north",
    "north_west",
    "west",
    "south_west",
    "south",
    "south_east",
)
#: where each half-edge and each side midpoint lies on a unit tile (x east, y north)
_HALF_XY = {
    "Nw": (-0.25, 0.5),
    "Ne": (0.25, 0.5),
    "En": (0.5, 0.25),
    "Es": (0.5, -0.25),
    "Se": (0.25, -0.5),
    "Sw": (-0.25, -0.5),
    "Ws": (-0.5, -0.25),
    "Wn": (-0.5, 0.25),
}
_SIDE_XY = {"N": (0.0, 0.5), "E": (0.5, 0.0), "S": (0.0, -0.5), "W": (-0.5, 0.0)}
#: the two half-edges at each corner
_CORNER_HALVES = {
    "north_west": frozenset({"Nw", "Wn"}),
    "north_east": frozenset({"Ne", "En"}),
    "south_east": frozenset({"Es", "Se"}),
    "south_west": frozenset({"Sw", "Ws"}),
}
_CORNER_OF = {h: c for c, hs in _CORNER_HALVES.items() for h in hs}

WORDS: dict[str, tuple[str, str]] = {
    "place.dir.north": ("north", "norte"),
    "place.dir.east": ("east", "este"),
    "place.dir.south": ("south", "sur"),
    "place.dir.west": ("west", "oeste"),
    "place.dir.north_east": ("north-east", "noreste"),
    "place.dir.south_east": ("south-east", "sureste"),
    "place.dir.south_west": ("south-west", "suroeste"),
    "place.dir.north_west": ("north-west", "noroeste"),
    "place.kind.city": ("city", "ciudad"),
    "place.kind.road": ("road", "camino"),
    "place.kind.field": ("field", "campo"),
    "place.kind.cloister": ("cloister", "claustro"),
    "place.sides": ("{kind} ({sides})", "{kind} ({sides})"),
    "place.middle": ("{kind} (middle)", "{kind} (centro)"),
    "place.middle_n": ("{kind} (middle, {n})", "{kind} (centro, {n})"),
    "place.field_alone": ("field", "campo"),
    "place.field_corner": ("field in the {dir} corner", "campo de la esquina {dir}"),
    "place.field_of_road": ("field {dir} of the road", "campo al {dir} del camino"),
    "place.field_dir": ("field to the {dir}", "campo al {dir}"),
    "place.field_all": ("field (all around)", "campo (todo alrededor)"),
    "place.half": ("{side} edge, {part} half", "borde {side}, mitad {part}"),
    # a tile in words
    "tile.city.one": ("city on the {sides} side", "ciudad en el lado {sides}"),
    "tile.city.many": ("city on the {sides} sides", "ciudad en los lados {sides}"),
    "tile.city.all": ("city on all four sides", "ciudad en los cuatro lados"),
    "tile.road.end": ("road to the {side}", "camino hacia el {side}"),
    "tile.road.through": ("road from {a} to {b}", "camino de {a} a {b}"),
    "tile.road.many": ("road on the {sides} sides", "camino en los lados {sides}"),
    "tile.crossroads": ("crossroads ({sides})", "cruce de caminos ({sides})"),
    "tile.cloister": ("cloister", "claustro"),
    "tile.fields": ("fields only", "solo campo"),
    "tile.shield.one": ("1 shield", "1 escudo"),
    "tile.shield.many": ("{n} shields", "{n} escudos"),
    "words.and": ("{a} and {b}", "{a} y {b}"),
    # what a follower is called by the feature it stands on (RULES.md §1)
    "role.road": ("thief", "ladrón"),
    "role.city": ("knight", "caballero"),
    "role.cloister": ("monk", "monje"),
    "role.field": ("farmer", "granjero"),
}
messages.register(WORDS)
messages.register_lang(
    "de",
    {
        "place.dir.north": "Norden",
        "place.dir.east": "Osten",
        "place.dir.south": "Süden",
        "place.dir.west": "Westen",
        "place.dir.north_east": "Nordosten",
        "place.dir.south_east": "Südosten",
        "place.dir.south_west": "Südwesten",
        "place.dir.north_west": "Nordwesten",
        "place.kind.city": "Stadt",
        "place.kind.road": "Straße",
        "place.kind.field": "Wiese",
        "place.kind.cloister": "Kloster",
        "place.sides": "{kind} ({sides})",
        "place.middle": "{kind} (Mitte)",
        "place.middle_n": "{kind} (Mitte, {n})",
        "place.field_alone": "Wiese",
        "place.field_corner": "Wiese in der Ecke im {dir}",
        "place.field_of_road": "Wiese im {dir} der Straße",
        "place.field_dir": "Wiese im {dir}",
        "place.field_all": "Wiese (rundherum)",
        "place.half": "Kante im {side}, Hälfte im {part}",
        "tile.city.one": "Stadt im {sides}",
        "tile.city.many": "Stadt im {sides}",
        "tile.city.all": "Stadt an allen vier Seiten",
        "tile.road.end": "Straße nach {side}",
        "tile.road.through": "Straße von {a} nach {b}",
        "tile.road.many": "Straßen im {sides}",
        "tile.crossroads": "Kreuzung ({sides})",
        "tile.cloister": "Kloster",
        "tile.fields": "nur Wiesen",
        "tile.shield.one": "1 Wappen",
        "tile.shield.many": "{n} Wappen",
        "words.and": "{a} und {b}",
        "role.road": "Wegelagerer",
        "role.city": "Ritter",
        "role.cloister": "Mönch",
        "role.field": "Bauer",
    },
)


def _w(key: str, lang: str, **params: object) -> str:
    return messages.text(key, lang, **params)


def _listed(words: Sequence[str], lang: str) -> str:
    """``north, east and west`` / ``norte, este y oeste``."""
    if len(words) <= 1:
        return "".join(words)
    return _w("words.and", lang, a=", ".join(words[:-1]), b=words[-1])


def _side(letter: str, lang: str) -> str:
    return _w(f"place.dir.{_SIDE_KEYS[letter]}", lang)


def _direction(x: float, y: float) -> str | None:
    """The compass point of a vector (``None`` when it is too short to point anywhere)."""
    if math.hypot(x, y) < 0.05:
        return None
    sector = round(math.atan2(y, x) / (math.pi / 4)) % 8
    return _COMPASS[sector]


def _mean(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _field_name(spot: str, siblings: Sequence[str], lang: str) -> str | None:
    """A field by where it lies (corner, side of the road, compass point), or ``None`` when
    that does not tell it apart from the tile's other fields."""
    halves = [h for h in spot.partition(":")[2].split(".") if h in _HALF_XY]
    if not halves:
        return None
    fields = [s for s in siblings if s.startswith("field:")]
    if len(halves) == len(HALF_NAMES):
        return _w("place.field_all", lang)
    if len(fields) <= 1:
        return _w("place.field_alone", lang)
    corners = {_CORNER_OF[h] for h in halves}
    if len(corners) == 1:
        return _w("place.field_corner", lang, dir=_w(f"place.dir.{corners.pop()}", lang))
    fx, fy = _mean([_HALF_XY[h] for h in halves])
    roads = [s for s in siblings if s.startswith("road:")]
    if len(roads) == 1:
        sides = [c for c in roads[0].partition(":")[2] if c in _SIDE_XY]
        if sides:
            rx, ry = _mean([_SIDE_XY[c] for c in sides])
            d = _direction(fx - rx, fy - ry)
            if d is not None:
                return _w("place.field_of_road", lang, dir=_w(f"place.dir.{d}", lang))
    d = _direction(fx, fy)
    return None if d is None else _w("place.field_dir", lang, dir=_w(f"place.dir.{d}", lang))


def _by_sides(spot: str, lang: str) -> str:
    """A feature by the sides (or, for a field, the corners) it touches."""
    kind, _, where = spot.partition(":")
    word = _w(f"place.kind.{kind}", lang) if messages.has(f"place.kind.{kind}") else kind
    if where.startswith("inner"):
        n = where.removeprefix("inner")  # a tile with several inner areas: inner, inner2 …
        if n.isdigit():
            return _w("place.middle_n", lang, kind=word, n=n)
        return _w("place.middle", lang, kind=word)
    if kind == "field":
        halves = {h for h in where.split(".") if h in _CORNER_OF}
        if len(halves) == len(HALF_NAMES):
            return _w("place.field_all", lang)
        corners = [c for c in _CORNER_HALVES if halves & _CORNER_HALVES[c]]
        names = [_w(f"place.dir.{c}", lang) for c in corners]
        return _w("place.sides", lang, kind=word, sides=", ".join(names)) if names else word
    if kind not in _FEATURE_KINDS and where in _DIAGONALS:  # a printed thing's heading
        heading = _w(f"place.dir.{_DIAGONALS[where]}", lang)
        return _w("place.sides", lang, kind=word, sides=heading)
    sides = [_side(c, lang) for c in where if c in _SIDE_KEYS]
    return _w("place.sides", lang, kind=word, sides=", ".join(sides)) if sides else word


#: the kinds of the core's features; a spot of another kind names a printed symbol
_FEATURE_KINDS = frozenset(k.value for k in FeatureKind)
_DIAGONALS = {"NE": "north_east", "SE": "south_east", "SW": "south_west", "NW": "north_west"}


def feature_words(spot: str, lang: str = "en", siblings: Sequence[str] = ()) -> str:
    """A spot of a placed tile in words: ``city (north, west)``, ``cloister``, ``field
    north-west of the road``. ``siblings`` are the spot names of every feature of the same
    tile (:func:`spots_of`): with them a field is named by where it lies, so the tile's fields
    never read alike; without them, by the corners it touches."""
    if spot == "cloister":
        return _w("place.kind.cloister", lang)
    inner = [s for s in siblings if s.startswith("field:inner")]
    if spot.startswith("field:inner") and len(inner) > 1:  # areas that touch no edge, numbered
        n = spot.removeprefix("field:inner") or "1"
        return _w("place.middle_n", lang, kind=_w("place.kind.field", lang), n=n)
    if spot.startswith("field:") and siblings:
        fields = [s for s in siblings if s.startswith("field:")]
        names = {s: _field_name(s, siblings, lang) for s in fields}
        mine = names.get(spot) or _field_name(spot, siblings, lang)
        if mine is not None and list(names.values()).count(mine) <= 1:
            return mine
        plain = _by_sides(spot, lang)
        if [_by_sides(s, lang) for s in fields].count(plain) > 1:
            return _by_halves(spot, lang)  # small fields sharing a corner (walls split them)
        return plain
    return _by_sides(spot, lang)


def _by_halves(spot: str, lang: str) -> str:
    """A field by each half-edge it touches: ``field (south edge, east half)``."""
    kind = _w("place.kind.field", lang)
    halves = [h for h in spot.partition(":")[2].split(".") if h in _HALF_XY]
    named = [
        _w("place.half", lang, side=_side(h[0], lang), part=_side(h[1].upper(), lang))
        for h in halves
    ]
    return _w("place.sides", lang, kind=kind, sides="; ".join(named))


def role_words(spot: str, lang: str = "en") -> str | None:
    """What a follower on ``spot`` is called: thief, knight, monk or farmer (ladrón,
    caballero, monje, granjero); ``None`` for a feature of another kind."""
    kind = "cloister" if spot == "cloister" else spot.partition(":")[0]
    key = f"role.{kind}"
    return _w(key, lang) if messages.has(key) else None


def spots_of(tile_id: str, rotation: int = 0) -> tuple[str, ...]:
    """The spot names of every feature of a tile turned by ``rotation`` quarter turns."""
    try:
        return tile(tile_id).rotated(rotation % 4).spots
    except Exception:  # an unknown tile (an old record): no context, plain names
        return ()


def tile_words(tile_id: str | None, lang: str = "en", rotation: int = 0) -> str:
    """What is printed on a tile, turned by ``rotation`` quarter turns: ``city on the north
    side (1 shield) · road from east to west``; ``—`` for no tile, the id for an unknown one."""
    if tile_id is None:
        return "—"
    try:
        td = tile(tile_id)
    except Exception:
        return tile_id
    rt = td.rotated(rotation % 4)
    parts: list[str] = []
    one_sided_roads: list[str] = []
    for f in td.features:
        where = rt.spots[f.index].partition(":")[2]
        sides = [c for c in where if c in _SIDE_KEYS]
        extras: list[str] = []
        if f.pennants:
            n = f.pennants
            extras.append(_w("tile.shield.one" if n == 1 else "tile.shield.many", lang, n=n))
        for key, value in f.symbols:  # worded by the expansion that reads the symbol
            word = f"symbol.{key}" if value is True else f"symbol.{key}.{value}"
            if messages.has(word):
                extras.append(_w(word, lang))
        more = f" ({', '.join(extras)})" if extras else ""
        if f.kind is FeatureKind.CITY and sides:
            named = _listed([_side(c, lang) for c in sides], lang)
            key = "tile.city.all" if len(sides) == 4 else "tile.city.one"
            if 1 < len(sides) < 4:
                key = "tile.city.many"
            parts.append(_w(key, lang, sides=named) + more)
        elif f.kind is FeatureKind.ROAD and sides:
            if len(sides) == 2:
                a, b = (_side(c, lang) for c in sides)
                parts.append(_w("tile.road.through", lang, a=a, b=b) + more)
            elif len(sides) == 1 and not more:
                one_sided_roads.append(sides[0])
            elif len(sides) == 1:
                parts.append(_w("tile.road.end", lang, side=_side(sides[0], lang)) + more)
            else:
                named = _listed([_side(c, lang) for c in sides], lang)
                parts.append(_w("tile.road.many", lang, sides=named) + more)
        elif f.kind is FeatureKind.CLOISTER:
            parts.append(_w("tile.cloister", lang) + more)
    ends = sorted(one_sided_roads, key=SIDE_NAMES.index)
    if len(ends) >= 3:  # the roads meet in a crossroads (RULES.md §1: cruce de caminos)
        named = ", ".join(_side(c, lang) for c in ends)
        parts.append(_w("tile.crossroads", lang, sides=named))
    else:
        parts += [_w("tile.road.end", lang, side=_side(c, lang)) for c in ends]
    for key, value in td.symbols:  # what is printed on the tile itself, worded by its expansion
        word = f"symbol.{key}" if value is True or td.directed else f"symbol.{key}.{value}"
        if messages.has(word):
            parts.append(_w(word, lang))
    return " · ".join(parts) or _w("tile.fields", lang)


def part_words(part: str, lang: str = "en", names: Mapping[int, str] | None = None) -> str:
    """One piece of a score's arithmetic in ``lang``: the engine's :class:`Phrase` (a score
    ``Part``) in the catalogue's words, a tile it names (a parameter ``tile`` or ``*_tile``, as
    in events) in words too, never by its id, and a seat it names (``seat`` or ``*_seat``) by
    its player's name from ``names``; anything else as it is."""
    if not isinstance(part, messages.Phrase):
        return part
    params: dict[str, object] = {}
    for k, v in part.kwargs.items():
        if (k == "tile" or k.endswith("_tile")) and isinstance(v, str):
            v = tile_words(v, lang)
        elif (k == "seat" or k.endswith("_seat")) and isinstance(v, int) and names:
            v = names.get(v, v)
        params[k] = v
    return _w(part.key, lang, **params)


__all__ = ["WORDS", "feature_words", "part_words", "role_words", "spots_of", "tile_words"]
