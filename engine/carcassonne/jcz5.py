"""Import JCloisterZone 5.x saved games (``.jcz``, the 5.x JSON format) as :class:`GameRecord`.

The format is described in ``shared/jcz5/README.md`` §3. As for 4.x saves
(:mod:`engine.carcassonne.jcz`), the replay messages are walked through the real engine, so every
move is checked as it is converted, and the result is an ordinary record that
:func:`engine.carcassonne.record.replay` replays. Errors are :class:`RecordError`: a setup we do
not play names the JCloisterZone set, element or rule in one line; a bad message names its
number in the file's ``replay`` list (1-based) and the reason.

This module reads the base game's part of the setup (``basic:1``, followers, farmers, the
tiny-city rule, the start); each expansion brings its tile sets, elements and rules
(``Expansion.jcz``, :mod:`engine.carcassonne.jczparts`). The replay itself is read in
:mod:`engine.carcassonne.jcz5_replay`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from engine.carcassonne.jcz import JczGame, import_jcz
from engine.carcassonne.jcz5_replay import (
    Message,
    check_tile,
    convert,
    placed_tiles,
    read_messages,
)
from engine.carcassonne.jczparts import (
    JczSwitch,
    bool_defaults,
    claim,
    convert_with,
    core_names,
    forced_of,
    known,
    parts_of,
    refusal,
    rule_of,
    tile_file_of,
)
from engine.carcassonne.record import GameRecord
from engine.carcassonne.registry import all_expansions, find_expansion
from engine.carcassonne.state import FIGURE_COUNT, MAX_PLAYERS, SOLO, GameSetup
from engine.carcassonne.tiles import tile_sets as all_tile_sets
from engine.core.errors import RecordError

#: the base game's tile set and elements (every other name is an expansion's)
BASE_SET = "basic:1"
BASE_ELEMENTS: dict[str, JczSwitch] = {
    "small-follower": JczSwitch(figure="follower"),
    "farmers": JczSwitch(),
}
#: the only start JCloisterZone's standard setup writes (and the only one we play)
STANDARD_START = [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}]
#: a save's tile set or element: the expansion it brings ("" for the base game) and its switch
Claimed = tuple[str, JczSwitch]


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
    setup = replace(
        setup,
        draw_order=order,
        draw_limit=end_turn,
        forced=forced_of(setup.expansions, data, 5),
    )
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

    def convert_all(setup: GameSetup) -> GameRecord:
        # Past the forced order JCloisterZone drew from its own shuffled pack, which we do not
        # reproduce; the save says which tiles came, so they join the forced order (as 4.x).
        first = convert(setup, seed, msgs, names, metadata, tile_sets, probe=True)
        if isinstance(first, GameRecord):
            return first
        extra = tuple(placed_tiles(msgs, first))
        setup = replace(setup, draw_order=order + extra)
        rec = convert(setup, seed, msgs, names, metadata, tile_sets, probe=False)
        assert isinstance(rec, GameRecord)
        return rec

    return JczGame(convert_with(setup, convert_all), names, ending)


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


def _sets(raw: Any) -> dict[str, Claimed]:
    """The save's tile sets, each checked: exactly one copy, and one we play."""
    if not isinstance(raw, dict):
        raise RecordError('"setup.sets" must be an object of tile sets')
    out: dict[str, Claimed] = {}
    for name, count in raw.items():
        got = ("", JczSwitch()) if name == BASE_SET else claim(name, lambda p: p.sets)
        if got is None:
            raise refusal(name, "tile set", f"JCloisterZone tile set '{name}' is not supported")
        if not _is_count(count):
            raise RecordError(f'"setup.sets.{name}" must be a number of copies')
        if count != 1:
            raise RecordError(f"{count} copies of the tile set '{name}' are not supported")
        out[name] = got
    if BASE_SET not in out:
        raise RecordError('only saves with the 1st-edition base game ("basic:1") are supported')
    return out


def _element(key: str, value: Any) -> Claimed | None:
    """What an element brings; ``None`` for one that changes nothing here (a null value of a
    part we know, an element JCloisterZone ignores).

    Raises:
        RecordError: naming the element, for one we do not play.
    """
    got = BASE_ELEMENTS.get(key)
    if got is not None:
        return "", got
    claimed = claim(key, lambda p: p.elements)
    if claimed is not None:
        return claimed
    if key in core_names().ignored_elements or (value is None and known(key)):
        return None  # JCloisterZone reads a null element as absent
    raise refusal(key, "element")


def _setup(raw: dict[str, Any], sets: dict[str, Claimed], names: tuple[str, ...]) -> GameSetup:
    """Our setup (without the draw order) for the save's sets, elements and rules."""
    elements = raw.get("elements", {})
    if not isinstance(elements, dict):
        raise RecordError('"setup.elements" must be an object')
    elements = dict(elements)
    for _, switch in sets.values():  # the client adds these itself and does not save them
        for element in switch.enforces:
            elements.setdefault(element, True)
    switches = list(sets.values())
    counts: dict[str, int] = {}
    for key, value in elements.items():
        got = _element(key, value)
        if got is None or value is None:
            continue  # JCloisterZone reads a null element as absent
        figure = got[1].figure
        if figure is not None:
            if not _is_count(value):
                raise RecordError(f'"setup.elements.{key}" must be a number of figures')
            counts[figure] = int(value)
            if value <= 0:
                continue
        switches.append(got)
    ours = {exp_id for exp_id, switch in switches if exp_id and switch.plays}
    expansions = tuple(cls.id for cls in all_expansions() if cls.id in ours)
    # an expansion's switchable parts are on only when the save lists their elements
    options = dict(bool_defaults(expansions, lambda p: p.elements))
    for _, switch in switches:
        options.update(switch.options)
    for figure, n in counts.items():
        if figure != "follower" and n > 1:
            options[FIGURE_COUNT + figure] = n
    if len(names) == 1:
        options[SOLO] = True
    tiny_city = 4  # a rule is saved only when not the default
    rules = raw.get("rules", {})
    if rules is None:
        rules = {}
    if not isinstance(rules, dict):
        raise RecordError('"setup.rules" must be an object')
    for part in parts_of(expansions):  # what a save without the part's rules means
        options.update(part.defaults5)
    for key, value in rules.items():
        if key == "tiny-city-scoring":
            tiny_city = _tiny_city(value)
            continue
        rule = rule_of(key, 5)
        if rule is not None:
            owner, read = rule
            got_options = read(value)
            if owner in expansions:  # (a rule of a part not in play: nothing)
                options.update(got_options)
        elif key not in core_names().ignored_rules and tile_file_of(key) is None:
            raise RecordError(f"unknown JCloisterZone rule '{key}'")
    return GameSetup(
        players=len(names),
        expansions=expansions,
        tiny_city=tiny_city,
        farm_scoring="per_farm",
        farmers="farmers" in elements,  # JCloisterZone: present = on, whatever the value
        followers=counts.get("follower", 0),
        names=names,
        options=tuple(sorted(options.items())),
    )


def _tiny_city(value: Any) -> int:
    """``tiny-city-scoring``: ``"4"`` (JCloisterZone's default) or ``"2"``."""
    if isinstance(value, bool) or str(value) not in ("2", "4"):
        raise RecordError(f"unknown tiny-city-scoring rule value '{value}'")
    return int(str(value))


def _check_start(raw: Any) -> None:
    if not isinstance(raw, list):
        raise RecordError('"setup.start" must be a list of start tiles')
    if raw != STANDARD_START:
        raise RecordError("only the standard start (BA/RCr at 0,0, not rotated) is supported")


def _tile_sets(sets: dict[str, Claimed]) -> list[str]:
    """Our tile sets of the save's sets: the tile files that claim the name (their
    ``jcz_names``), else every tile set of the expansion it brings."""
    out = ["base"]
    for name, (exp_id, _) in sets.items():
        files = [info.id for info in all_tile_sets() if name in info.jcz]
        if files:
            out.extend(files)
        elif exp_id:
            out.extend(find_expansion(exp_id).tile_sets)
    return out


def _annotations(raw: Any, sets: dict[str, Claimed]) -> tuple[tuple[str, ...], int | None]:
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
    "JczGame",
    "Message",
    "check_tile",
    "import_jcz5",
    "import_save",
    "jcz_version",
    "loads_jcz5",
]
