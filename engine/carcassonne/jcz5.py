"""Import JCloisterZone 5.x saved games (``.jcz``, the 5.x JSON format) as :class:`GameRecord`.

The format is described in ``shared/jcz5/README.md`` §3. As for 4.x saves
(:mod:`engine.carcassonne.jcz`), the replay messages are walked through the real engine, so every
move is checked as it is converted, and the result is an ordinary record that
:func:`engine.carcassonne.record.replay` replays. Errors are :class:`RecordError`: a setup we do
not play names the JCloisterZone set, element or rule in one line; a bad message names its
number in the file's ``replay`` list (1-based) and the reason.

The save's setup becomes ours through three tables: :data:`SETS` (tile sets → expansions),
:data:`ELEMENTS` (figures and switches → expansions, options and figure counts) and
:data:`RULES`. Supporting a new expansion means filling in its lines there and turning its
fixtures on in ``tests/engine/test_jcz5.py``. The replay itself is read in
:mod:`engine.carcassonne.jcz5_replay`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engine.carcassonne.jcz import JczGame, JczPart, import_jcz
from engine.carcassonne.jcz5_replay import (
    Message,
    check_tile,
    convert,
    placed_tiles,
    read_messages,
)
from engine.carcassonne.record import GameRecord
from engine.carcassonne.registry import all_expansions, find_expansion
from engine.carcassonne.state import FIGURE_COUNT, MAX_PLAYERS, SOLO, GameSetup
from engine.core.errors import RecordError

_IC, _TB, _AM = "Inns & Cathedrals", "Traders & Builders", "Abbey & Mayor"
_BCB, _PD = "Bridges, Castles & Bazaars", "Princess & Dragon"
_BCB_ID = "bridges_castles_bazaars"
#: JCloisterZone's bazaar auction is the rulebook's open one (rule ``bazaar-no-auction``: none)
_OPEN = ("bcb.bidding", "open")

#: JCloisterZone tile set id (``setup.sets`` key) -> our support (``""`` = the base game).
SETS: dict[str, JczPart] = {
    "basic:1": JczPart("base game", ""),
    "basic:2": JczPart("base game, 2nd edition (with gardens)", None),
    "inns-and-cathedrals:1": JczPart(_IC, "inns_cathedrals"),
    "traders-and-builders:1": JczPart(_TB, "traders_builders"),
    "traders-and-builders:2": JczPart(f"{_TB}, 2nd edition (with gardens)", None),
    "abbey-and-mayor:1": JczPart(_AM, "abbey_mayor"),
    "bridges-castles-and-bazaars:1": JczPart(_BCB, _BCB_ID, (_OPEN,)),
    "goldmines": JczPart("Gold Mines", None),
    "mage-and-witch:1": JczPart("Mage & Witch", None),
    "corn-circles/1": JczPart("Crop Circles", None),
    "corn-circles/2": JczPart("Crop Circles II", None),
    "flier:1": JczPart("Flying Machines", None),
    "ferries": JczPart("Ferries", None),
}

#: Elements a tile set switches on without saving them (the client's ``getFullSetup``).
ENFORCED: dict[str, str] = {"flier": "flier", "corn-circles": "corn-circle"}


@dataclass(frozen=True, slots=True)
class JczElement:
    """One ``setup.elements`` key: the part it belongs to, and for a figure our figure kind
    (its value is then a count per player; otherwise only the key's presence counts)."""

    part: JczPart
    figure: str | None = None


def _unsupported(label: str) -> JczElement:
    return JczElement(JczPart(label, None))


#: JCloisterZone element -> our support. A ``""`` expansion changes nothing in our games:
#: ``pig-herd`` (no tile of the sets we read has a pig herd), ``witch`` (JCloisterZone reads
#: only ``mage``) and ``escape`` (Cathars' siege tiles only).
ELEMENTS: dict[str, JczElement] = {
    "small-follower": JczElement(JczPart("followers", ""), "follower"),
    "farmers": JczElement(JczPart("farmers", "")),
    "big-follower": JczElement(
        JczPart(_IC, "inns_cathedrals", (("ic.large_follower", True),)), "large"
    ),
    "inn": JczElement(JczPart(_IC, "inns_cathedrals", (("ic.inns", True),))),
    "cathedral": JczElement(JczPart(_IC, "inns_cathedrals", (("ic.cathedrals", True),))),
    "builder": JczElement(JczPart(_TB, "traders_builders", (("tb.builder", True),)), "builder"),
    "pig": JczElement(JczPart(_TB, "traders_builders", (("tb.pig", True),)), "pig"),
    "traders": JczElement(JczPart(_TB, "traders_builders", (("tb.goods", True),))),
    "pig-herd": JczElement(JczPart(f"{_TB}: pig herds", "")),
    "witch": JczElement(JczPart("Mage & Witch: the witch", "")),
    "escape": JczElement(JczPart("Cathars: escape", "")),
    "abbey": JczElement(JczPart(_AM, "abbey_mayor", (("am.abbey", True),))),
    "barn": JczElement(JczPart(_AM, "abbey_mayor", (("am.barn", True),)), "barn"),
    "wagon": JczElement(JczPart(_AM, "abbey_mayor", (("am.wagon", True),)), "wagon"),
    "mayor": JczElement(JczPart(_AM, "abbey_mayor", (("am.mayor", True),)), "mayor"),
    "bridge": JczElement(JczPart(_BCB, _BCB_ID, (("bcb.bridges", True), _OPEN))),
    "castle": JczElement(JczPart(_BCB, _BCB_ID, (("bcb.castles", True), _OPEN))),
    "bazaar": JczElement(JczPart(_BCB, _BCB_ID, (("bcb.markets", True), _OPEN))),
    "gold": _unsupported("Gold Mines"),
    "mage": _unsupported("Mage & Witch"),
    "flier": _unsupported("Flying Machines"),
    "corn-circle": _unsupported("Crop Circles"),
    "ferry": _unsupported("Ferries"),
    "fairy": _unsupported(f"{_PD}: the fairy"),
    "dragon": _unsupported(f"{_PD}: the dragon"),
    "princess": _unsupported(f"{_PD}: the princess"),
    "portal": _unsupported(f"{_PD}: magic portals"),
    "garden": _unsupported("gardens (2nd edition)"),
    "abbot": _unsupported("the abbot (2nd edition)"),
    "phantom": _unsupported("the phantom"),
    "shepherd": _unsupported("Hills & Sheep: the shepherd"),
    "hill": _unsupported("Hills & Sheep: hills"),
    "vineyard": _unsupported("Hills & Sheep: vineyards"),
    "ringmaster": _unsupported("Under the Big Top: the ringmaster"),
    "count": _unsupported("Count of Carcassonne"),
    "tower": _unsupported("The Tower"),
    "tunnel": _unsupported("Tunnels"),
    "little-buildings": _unsupported("Little Buildings"),
    "king": _unsupported("King & Robber Baron"),
    "robber": _unsupported("King & Robber Baron"),
    "shrine": _unsupported("Cult, Siege & Creativity: shrines"),
    "siege": _unsupported("Cult, Siege & Creativity: sieges"),
    "festival": _unsupported("The Festival"),
    "river": _unsupported("The River"),
    "church": _unsupported("Darmstadt: churches"),
    "labyrinth": _unsupported("The Labyrinth"),
    "wind-rose": _unsupported("Wind Roses"),
    "monastery": _unsupported("Monasteries"),
    "yaga": _unsupported("Russian promos: Baba Yaga"),
    "russian-trap": _unsupported("Russian promos: traps"),
    "well": _unsupported("wells"),
}

#: JCloisterZone rules (``setup.rules``): how each becomes our setup — a ``GameSetup`` field, or
#: ``option:<key>`` for an expansion's option; the function returns ``None`` for a value that
#: changes nothing. ``None`` = the rule only matters with a module whose elements we refuse
#: anyway, so it never changes a game we play.
RULES: dict[str, Callable[[Any], tuple[str, Any] | None] | None] = {
    "tiny-city-scoring": lambda v: ("tiny_city", _tiny_city(v)),
    "wagon-move": lambda v: ("option:am.wagon_move", _wagon_move(v)),
    "barn-placement": lambda v: _barn_placement(v),
    "bazaar-no-auction": lambda v: ("option:bcb.bidding", "no_auction" if v is True else "open"),
    "princess-action": None,
    "fairy-placement": None,
    "dragon-move": None,
    "hill-tiebreaker": None,
    "espace-variant": None,
    "gq11-pig-herd": None,
    "tunnelize-other-expansions": None,
    "more-tunnel-tokens": None,
    "festival-return": None,
    "keep-monasteries": None,
    "labyrinth-variant": None,
    "little-buildings-scoring": None,
    "king-and-robber-scoring": None,
    "coc-final-scoring": None,
    "count-move": None,
}

#: The only start JCloisterZone's standard setup writes (and the only one we play).
STANDARD_START = [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}]


def jcz_version(data: Any) -> int | None:
    """Which JCloisterZone save format ``data`` (a parsed JSON value) is, by its content:
    ``5`` (``players``, ``setup.sets``/``elements``, ``gameAnnotations``, ``initialRandom``),
    ``4`` (``slots``, ``setup.expansions``/``capabilities``, ``annotations``), or ``None``."""
    if not isinstance(data, dict) or "format" in data:
        return None
    setup = data.get("setup")
    keys = set(setup) if isinstance(setup, dict) else set()
    if "slots" in data or "annotations" in data or keys & {"expansions", "capabilities"}:
        return 4
    if keys & {"sets", "elements"} or data.keys() & {"players", "gameAnnotations", "initialRandom"}:
        return 5
    return 4 if "replay" in data else None


def import_save(data: Any) -> JczGame:
    """Import a parsed JCloisterZone save of either format (see :func:`jcz_version`).

    Raises:
        RecordError: as :func:`import_jcz5` or :func:`engine.carcassonne.jcz.import_jcz`.
    """
    version = jcz_version(data)
    if version == 5:
        return import_jcz5(data)
    if version == 4:
        return import_jcz(data)
    if not isinstance(data, dict):
        raise RecordError("a JCloisterZone save must be a JSON object")
    raise RecordError("not a JCloisterZone save (neither the 4.x nor the 5.x format)")


def loads_jcz5(text: str | bytes) -> JczGame:
    """Import the text of a 5.x ``.jcz`` file.

    Raises:
        RecordError: for text that is not JSON, a setup we do not play or a bad message.
    """
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise RecordError(f"not valid JSON: {e}") from None
    return import_jcz5(data)


def import_jcz5(data: Any) -> JczGame:
    """Import a parsed 5.x save (see the module docstring).

    Raises:
        RecordError: for a setup we do not play, or naming the first bad replay message.
    """
    if not isinstance(data, dict):
        raise RecordError("a JCloisterZone save must be a JSON object")
    names = _players(data.get("players"))
    raw_setup = data.get("setup")
    if not isinstance(raw_setup, dict):
        raise RecordError('the save has no "setup" object')
    sets = _sets(raw_setup.get("sets"))
    setup = _setup(raw_setup, sets, names)
    _check_start(raw_setup.get("start", STANDARD_START))
    order, end_turn = _annotations(data.get("gameAnnotations"), sets)
    seed = _seed(data.get("initialRandom", 0.0))
    msgs = read_messages(data.get("replay"))
    setup = replace(setup, draw_order=order, draw_limit=end_turn)
    ending = "limit" if end_turn is not None else "open"
    metadata = {
        "source": "jcloisterzone",
        "format": "5.x",
        "name": data.get("name"),
        "gameId": data.get("gameId"),
        "appVersion": data.get("appVersion"),
        "initialRandom": data.get("initialRandom"),
        "ending": ending,
    }
    metadata = {
        k: v
        for k, v in metadata.items()
        if isinstance(v, str | int | float) and not isinstance(v, bool)
    }
    tile_sets = frozenset(_tile_sets(sets))
    # Past the forced order JCloisterZone drew from its own shuffled pack, which we do not
    # reproduce; the save says which tiles came, so they join the forced order (as for 4.x).
    first = convert(setup, seed, msgs, names, metadata, tile_sets, probe=True)
    if isinstance(first, GameRecord):
        return JczGame(first, names, ending)
    extra = tuple(placed_tiles(msgs, first))
    setup = replace(setup, draw_order=order + extra)
    rec = convert(setup, seed, msgs, names, metadata, tile_sets, probe=False)
    assert isinstance(rec, GameRecord)
    return JczGame(rec, names, ending)


# ---------------------------------------------------------------------------- setup
def _players(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise RecordError('the save has no "players" list')
    names = []
    for i, p in enumerate(raw):
        if not isinstance(p, dict):
            raise RecordError(f"player {i + 1} must be an object with a name")
        name = p.get("name")
        if name is not None and not isinstance(name, str):
            raise RecordError(f'player {i + 1}\'s "name" must be a text')
        names.append(name or f"Player {i + 1}")
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise RecordError(f"the save has {len(names)} players; we play 1–{MAX_PLAYERS}")
    return tuple(names)


def _is_count(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and value.is_integer()
    )


def _sets(raw: Any) -> dict[str, JczPart]:
    """The save's tile sets, each checked: exactly one copy, and one we play."""
    if not isinstance(raw, dict):
        raise RecordError('"setup.sets" must be an object of tile sets')
    out = {}
    for name, count in raw.items():
        part = SETS.get(name)
        if part is None:
            raise RecordError(f"JCloisterZone tile set '{name}' is not supported")
        if part.expansion is None:
            raise RecordError(
                f"JCloisterZone tile set '{name}' ({part.label}) is not supported yet"
            )
        if not _is_count(count):
            raise RecordError(f'"setup.sets.{name}" must be a number of copies')
        if count != 1:
            raise RecordError(f"{count} copies of the tile set '{name}' are not supported")
        out[name] = part
    if "basic:1" not in out:
        raise RecordError('only saves with the 1st-edition base game ("basic:1") are supported')
    return out


def _setup(raw: dict[str, Any], sets: dict[str, JczPart], names: tuple[str, ...]) -> GameSetup:
    """Our setup (without the draw order) for the save's sets, elements and rules."""
    elements = raw.get("elements", {})
    if not isinstance(elements, dict):
        raise RecordError('"setup.elements" must be an object')
    elements = dict(elements)
    for name in sets:  # the client adds these itself and does not save them
        family = name.partition(":")[0].partition("/")[0]
        if family in ENFORCED:
            elements.setdefault(ENFORCED[family], True)
    parts = list(sets.values())
    counts: dict[str, int] = {}
    for key, value in elements.items():
        element = ELEMENTS.get(key)
        if element is None:
            raise RecordError(f"unknown JCloisterZone element '{key}'")
        if value is None:
            continue  # JCloisterZone reads a null element as absent
        if element.figure is not None:
            if not _is_count(value):
                raise RecordError(f'"setup.elements.{key}" must be a number of figures')
            counts[element.figure] = int(value)
            if value <= 0:
                continue
        if element.part.expansion is None:
            raise RecordError(
                f"JCloisterZone element '{key}' ({element.part.label}) is not supported yet"
            )
        parts.append(element.part)
    ours = {e.expansion for e in parts if e.expansion}
    expansions = tuple(cls.id for cls in all_expansions() if cls.id in ours)
    missing = sorted(ours - set(expansions))  # the tables name built expansions only
    if missing:
        raise RecordError(f"the expansion '{missing[0]}' is not playable yet")
    options: dict[str, Any] = {}
    # an expansion's switchable parts are on only when the save lists their elements
    for element in ELEMENTS.values():
        if element.part.expansion in expansions:
            options.update((k, False) for k, v in element.part.options if isinstance(v, bool))
    for part in parts:
        options.update(part.options)
    for figure, n in counts.items():
        if figure != "follower" and n > 1:
            options[FIGURE_COUNT + figure] = n
    if len(names) == 1:
        options[SOLO] = True
    fields: dict[str, Any] = {"tiny_city": 4}  # a rule is saved only when not the default
    rules = raw.get("rules", {})
    if rules is None:
        rules = {}
    if not isinstance(rules, dict):
        raise RecordError('"setup.rules" must be an object')
    if "abbey_mayor" in expansions:
        options["am.wagon_move"] = "near"  # JCloisterZone 5's default wagon move ("C2")
    for key, value in rules.items():
        if key not in RULES:
            raise RecordError(f"unknown JCloisterZone rule '{key}'")
        rule = RULES[key]
        setting = rule(value) if rule is not None else None
        if setting is not None:
            field, ours_value = setting
            if field.startswith("option:"):
                option = field.removeprefix("option:")
                if any(o.key == option for e in expansions for o in find_expansion(e).options):
                    options[option] = ours_value  # (an option of a part not in play: nothing)
            else:
                fields[field] = ours_value
    return GameSetup(
        players=len(names),
        expansions=expansions,
        farm_scoring="per_farm",
        farmers="farmers" in elements,  # JCloisterZone: present = on, whatever the value
        followers=counts.get("follower", 0),
        names=names,
        options=tuple(sorted(options.items())),
        **fields,
    )


def _tiny_city(value: Any) -> int:
    """``tiny-city-scoring``: ``"4"`` (JCloisterZone's default) or ``"2"``."""
    if isinstance(value, bool) or str(value) not in ("2", "4"):
        raise RecordError(f"unknown tiny-city-scoring rule value '{value}'")
    return int(str(value))


def _wagon_move(value: Any) -> str:
    """``wagon-move``: ``"C1"`` (along the features a road links: ours) or ``"C2"`` (any
    feature on the same or a neighbouring tile; JCloisterZone 5's default)."""
    moves = {"C1": "road", "C2": "near"}
    if not isinstance(value, str) or value not in moves:
        raise RecordError(f"unknown wagon-move rule value '{value}'")
    return moves[value]


def _barn_placement(value: Any) -> None:
    """``barn-placement``: only ``"not-occupied"`` (no second barn in a farm) is played."""
    if value != "not-occupied":
        raise RecordError(
            f"the barn-placement rule '{value}' (a barn in a farm that has one) is not supported"
        )


def _check_start(raw: Any) -> None:
    if not isinstance(raw, list):
        raise RecordError('"setup.start" must be a list of start tiles')
    if raw != STANDARD_START:
        raise RecordError("only the standard start (BA/RCr at 0,0, not rotated) is supported")


def _tile_sets(sets: dict[str, JczPart]) -> list[str]:
    out = ["base"]
    for part in sets.values():
        if part.expansion:
            out.extend(find_expansion(part.expansion).tile_sets)
    return out


def _annotations(raw: Any, sets: dict[str, JczPart]) -> tuple[tuple[str, ...], int | None]:
    """The forced draw order (our tile ids) and ``endTurn`` (the pack's size), if any."""
    if raw is None:
        return (), None
    if not isinstance(raw, dict):
        raise RecordError('"gameAnnotations" must be an object')
    order = raw.get("drawOrder", [])
    if not isinstance(order, list):
        raise RecordError('"gameAnnotations.drawOrder" must be a list of tile ids')
    tile_sets = frozenset(_tile_sets(sets))
    ids = tuple(check_tile(t, tile_sets, f"draw order entry {i}") for i, t in enumerate(order, 1))
    end = raw.get("endTurn")
    if end is not None and not (isinstance(end, int) and not isinstance(end, bool) and end >= 0):
        raise RecordError('"gameAnnotations.endTurn" must be a whole number')
    return ids, end


def _seed(value: Any) -> int:
    """Our seed for JCloisterZone's ``initialRandom`` (only the tiles after the save's last
    message depend on it: every tile the save places is forced)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1:
        raise RecordError('"initialRandom" must be a number from 0 up to 1')
    return int(value * (1 << 53))


__all__ = [
    "ELEMENTS",
    "RULES",
    "SETS",
    "JczGame",
    "Message",
    "check_tile",
    "import_jcz5",
    "import_save",
    "jcz_version",
    "loads_jcz5",
]
