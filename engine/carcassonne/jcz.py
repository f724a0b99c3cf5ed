"""Import JCloisterZone 4.x saved games (``.jcz``) as :class:`GameRecord` objects.

The format is described in ``shared/jcz/README.md`` §4. The import walks the save's replay
messages through the real engine, so every move is checked as it is converted (the drawn tile
must match ``PLACE_TILE``'s ``tileId``, the follower must go on the tile just placed ...), and
the result replays through the same :func:`engine.carcassonne.record.replay` path as our own
records. Errors are :class:`RecordError` naming the replay message (1-based) and the reason.

Which JCloisterZone capabilities and expansions are understood is the table
:data:`CAPABILITIES` / :data:`EXPANSIONS`: supporting a new one is one line there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.carcassonne import jcz_bcb
from engine.carcassonne.actions import Action, Choose, Deploy, Pass, PlaceTile
from engine.carcassonne.expansions.abbey_mayor.abbey import AbbeyStep
from engine.carcassonne.expansions.abbey_mayor.wagon import WagonStep
from engine.carcassonne.expansions.traders_builders import BonusStep
from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.placement import CORNER_SPOTS
from engine.carcassonne.record import GameRecord, Recorder
from engine.carcassonne.rules import parse_spot, spot_name
from engine.carcassonne.state import GameSetup, GameState
from engine.carcassonne.tiles import tile
from engine.core.errors import EngineError, RecordError

END_SENTINEL = "#END"
#: the abbey (Abbey & Mayor), placed from the player's supply instead of a drawn tile
ABBEY_TILE = "AM.A"


@dataclass(frozen=True, slots=True)
class JczPart:
    """How one JCloisterZone capability or expansion maps onto ours.

    ``label`` is the box name players know. ``expansion`` is our expansion id once supported
    (``""`` = part of the base game, ``None`` = not supported yet). ``options`` are the setup
    options (``GameSetup.options`` pairs) it sets; a capability's options are set to ``False``
    when its expansion is in play but the save does not list the capability.
    """

    label: str
    expansion: str | None
    options: tuple[tuple[str, Any], ...] = ()


_IC, _TB, _AM = "Inns & Cathedrals", "Traders & Builders", "Abbey & Mayor"
_BCB, _BCB_ID = "Bridges, Castles & Bazaars", "bridges_castles_bazaars"
#: JCloisterZone's only bazaar auction is the rulebook's open one (unless BAZAAR_NO_AUCTION)
_OPEN = ("bcb.bidding", "open")

#: JCloisterZone capability (class name minus ``Capability``) -> our support.
CAPABILITIES: dict[str, JczPart] = {
    "StandardGame": JczPart("base game", ""),
    "Inn": JczPart(_IC, "inns_cathedrals", (("ic.inns", True),)),
    "Cathedral": JczPart(_IC, "inns_cathedrals", (("ic.cathedrals", True),)),
    "BigFollower": JczPart(_IC, "inns_cathedrals", (("ic.large_follower", True),)),
    "TradeGoods": JczPart(_TB, "traders_builders", (("tb.goods", True),)),
    "Builder": JczPart(_TB, "traders_builders", (("tb.builder", True),)),
    "Pig": JczPart(_TB, "traders_builders", (("tb.pig", True),)),
    "PigHerd": JczPart(_TB, None),
    "Abbey": JczPart(_AM, "abbey_mayor", (("am.abbey", True),)),
    "Mayor": JczPart(_AM, "abbey_mayor", (("am.mayor", True),)),
    "Barn": JczPart(_AM, "abbey_mayor", (("am.barn", True),)),
    "Wagon": JczPart(_AM, "abbey_mayor", (("am.wagon", True),)),
    "Bridge": JczPart(_BCB, _BCB_ID, (("bcb.bridges", True), _OPEN)),
    "Castle": JczPart(_BCB, _BCB_ID, (("bcb.castles", True), _OPEN)),
    "Bazaar": JczPart(_BCB, _BCB_ID, (("bcb.markets", True), _OPEN)),
}

#: JCloisterZone expansion code (``setup.expansions`` key) -> our support.
EXPANSIONS: dict[str, JczPart] = {
    "BASIC": JczPart("base game", ""),
    "INNS_AND_CATHEDRALS": JczPart(_IC, "inns_cathedrals"),
    "TRADERS_AND_BUILDERS": JczPart(_TB, "traders_builders"),
    "ABBEY_AND_MAYOR": JczPart(_AM, "abbey_mayor"),
    "BRIDGES_CASTLES_AND_BAZAARS": JczPart(_BCB, _BCB_ID, (_OPEN,)),
}

#: Meeple id type (``0.small.1`` -> ``small``) -> our figure name.
MEEPLES: dict[str, str] = {
    "small": "follower",
    "big": "large",
    "builder": "builder",
    "pig": "pig",
    "mayor": "mayor",
    "wagon": "wagon",
    "barn": "barn",
}


@dataclass(frozen=True, slots=True)
class JczGame:
    """An imported save: the record, the players' names and how the save's draw pile ends.

    ``ending`` is ``"end"`` (``#END``: the game ends when the forced tiles run out),
    ``"limit"`` (``drawLimit``) or ``"open"`` (the pile goes on; the save stops mid-game).
    """

    record: GameRecord
    names: tuple[str, ...]
    ending: str


def loads_jcz(text: str | bytes) -> JczGame:
    """Import a ``.jcz`` file's text.

    Raises:
        RecordError: for text that is not JSON, an unsupported setup or an illegal move.
    """
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise RecordError(f"not valid JSON: {e}") from None
    return import_jcz(data)


def import_jcz(data: Any) -> JczGame:
    """Import a parsed ``.jcz`` object (see the module docstring).

    Raises:
        RecordError: for an unsupported setup, or naming the first bad replay message.
    """
    if not isinstance(data, dict):
        raise RecordError("a JCloisterZone save must be a JSON object")
    if "players" in data and "slots" not in data:
        raise RecordError("JCloisterZone 5.x saves are not supported yet (only 4.x)")
    names = _players(data)
    raw_setup = data.get("setup")
    if not isinstance(raw_setup, dict):
        raise RecordError('the save has no "setup" object')
    expansions, options = _check_parts(raw_setup)
    _check_rules(raw_setup)
    forced, limit, ending = _tile_pack(data)
    seed = data.get("initialSeed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        seed = 0
    replay_msgs = data.get("replay")
    if not isinstance(replay_msgs, list):
        raise RecordError('the save has no "replay" list')
    setup = GameSetup(
        players=len(names),
        expansions=expansions,
        tiny_city=_tiny_city(raw_setup),
        farm_scoring="per_farm",
        farmers=_farmers(raw_setup),
        draw_order=forced,
        draw_limit=limit,
        only_forced=ending == "end",
        names=names,
        options=options,
    )
    metadata = {
        "source": "jcloisterzone",
        "name": data.get("name"),
        "gameId": data.get("gameId"),
        "appVersion": data.get("appVersion"),
        "ending": ending,
    }
    metadata = {k: v for k, v in metadata.items() if v is not None}
    # Tiles drawn after the forced order came from JCloisterZone's own random generator, which
    # we cannot reproduce; the save tells us which they were, so they join the forced order.
    random_from = _convert(setup, seed, replay_msgs, names, metadata, probe=True)
    if isinstance(random_from, GameRecord):
        return JczGame(random_from, names, ending)
    extra = tuple(_placed_tiles(replay_msgs, random_from))
    setup = replace(setup, draw_order=forced + extra)
    rec = _convert(setup, seed, replay_msgs, names, metadata, probe=False)
    assert isinstance(rec, GameRecord)
    return JczGame(rec, names, ending)


def _players(data: dict[str, Any]) -> tuple[str, ...]:
    slots = data.get("slots")
    if not isinstance(slots, list):
        raise RecordError('the save has no "slots" list of players')
    taken = [s for s in slots if isinstance(s, dict) and isinstance(s.get("serial"), int)]
    taken.sort(key=lambda s: s["serial"])
    names = tuple(str(s.get("nickname") or f"Player {i + 1}") for i, s in enumerate(taken))
    if not 2 <= len(names) <= 6:
        raise RecordError(f"the save has {len(names)} players; Carcassonne needs 2–6")
    return names


def _part(table: Mapping[str, JczPart], name: str, what: str) -> JczPart:
    part = table.get(name)
    if part is None:
        raise RecordError(f"unknown JCloisterZone {what} '{name}'")
    if part.expansion is None:
        raise RecordError(f"JCloisterZone {what} '{name}' ({part.label}) is not supported yet")
    return part


def _check_parts(setup: dict[str, Any]) -> tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]:
    """Our expansion ids and options for the save's expansions and capabilities."""
    exps = setup.get("expansions", {"BASIC": 1})
    if isinstance(exps, list):  # pre-release drafts list the names
        exps = dict.fromkeys(exps, 1)
    if not isinstance(exps, dict):
        raise RecordError('"setup.expansions" must be an object')
    caps = setup.get("capabilities", ["StandardGame"])
    if not isinstance(caps, list):
        raise RecordError('"setup.capabilities" must be a list')
    if exps.get("BASIC") != 1:
        raise RecordError('only saves with exactly one base game ("BASIC": 1) are supported')
    ours: list[str] = []
    options: dict[str, Any] = {}
    parts = [_part(CAPABILITIES, str(c), "capability") for c in caps]
    for name, count in exps.items():
        part = _part(EXPANSIONS, str(name), "expansion")
        if count != 1:
            raise RecordError(f"{count} copies of {part.label} are not supported")
        parts.append(part)
    # A rule a capability controls is on only when the save lists that capability (JCZ decides
    # figures and scoring by capability, independently of the tiles in the pack).
    for cap in CAPABILITIES.values():
        if cap.expansion and cap.expansion in {p.expansion for p in parts}:
            options.update((key, False) for key, v in cap.options if isinstance(v, bool))
    for part in parts:
        if part.expansion and part.expansion not in ours:
            ours.append(part.expansion)
        options.update(part.options)
    rules = setup.get("rules") or {}
    if isinstance(rules, dict) and rules.get("BAZAAR_NO_AUCTION") is True:
        options["bcb.bidding"] = "no_auction"
    return tuple(ours), tuple(sorted(options.items()))


def _check_rules(setup: dict[str, Any]) -> None:
    """4.x rules that would change a game we play are refused (the others are harmless)."""
    rules = setup.get("rules") or {}
    if isinstance(rules, dict) and rules.get("MULTI_BARN_ALLOWED") is True:
        raise RecordError(
            "the rule MULTI_BARN_ALLOWED (a barn in a farm that has one) is not supported"
        )


def _tiny_city(setup: dict[str, Any]) -> int:
    """4.x always scores a 2-tile city 4; 5.x's ``tiny-city-scoring`` rule may say 2."""
    rules = setup.get("rules") or {}
    value = rules.get("tiny-city-scoring", "4") if isinstance(rules, dict) else "4"
    if str(value) not in ("2", "4"):
        raise RecordError(f"unknown tiny-city-scoring rule value '{value}'")
    return int(str(value))


def _farmers(setup: dict[str, Any]) -> bool:
    """4.x always allows farmers; 5.x's ``elements.farmers`` may turn them off."""
    elements = setup.get("elements") or {}
    return not (isinstance(elements, dict) and elements.get("farmers") is False)


def _tile_pack(data: dict[str, Any]) -> tuple[tuple[str, ...], int | None, str]:
    """The forced draw order (our tile ids), the draw limit and how the pile ends."""
    annotations = data.get("annotations") or {}
    pack = annotations.get("tilePack") if isinstance(annotations, dict) else None
    params = pack.get("params") if isinstance(pack, dict) else None
    if params is None:
        return (), None, "open"
    if isinstance(params, list):  # pre-release drafts: a bare list ending in "."
        params = {"drawOrder": [p for p in params if p != "."]}
    if not isinstance(params, dict):
        raise RecordError('"annotations.tilePack.params" must be an object')
    order = params.get("drawOrder") or []
    limit = params.get("drawLimit")
    if not isinstance(order, list) or not all(isinstance(t, str) for t in order):
        raise RecordError('"drawOrder" must be a list of tile ids')
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 0):
        raise RecordError('"drawLimit" must be a whole number')
    ending = "limit" if limit is not None else "open"
    if order and order[-1] == END_SENTINEL:
        order = order[:-1]
        ending = "end"
    ids = []
    for i, tid in enumerate(order, 1):
        try:
            ids.append(tile(tid).id)
        except EngineError:
            raise RecordError(f"draw order entry {i}: unknown tile '{tid}'") from None
    return tuple(ids), limit, ending


def _placed_tiles(msgs: list[Any], from_turn: int) -> list[str]:
    """Our ids of the tiles placed from turn ``from_turn`` (0-based) on."""
    out = []
    turn = 0
    for m in msgs:
        if isinstance(m, dict) and m.get("type") == "PLACE_TILE":
            tid = (m.get("payload") or {}).get("tileId")
            if tid == ABBEY_TILE:
                continue  # from the player's supply, not drawn
            if turn >= from_turn:
                try:
                    out.append(tile(str(tid)).id)
                except EngineError:
                    break  # the conversion reports it with its message number
            turn += 1
    return out


def parse_position(value: Any, what: str, n: int) -> Position:
    """A save's ``[x, y]`` (4.x and 5.x alike); ``n`` is the replay message for errors."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise RecordError(f"{what} must be [x, y]", move=n)
    return Position(value[0], value[1])


def _convert(
    setup: GameSetup,
    seed: int,
    msgs: list[Any],
    names: tuple[str, ...],
    metadata: dict[str, Any],
    *,
    probe: bool,
) -> GameRecord | int:
    """Walk the replay messages through the engine and record our actions.

    With ``probe``, stop and return the turn number (0-based) where the engine first draws from
    its own random pile instead of the save's forced order (the caller then forces the save's
    tiles from there and converts again).
    """
    try:
        rec = Recorder(setup, seed, names=names, metadata=metadata)
    except EngineError as e:
        raise RecordError(f"bad setup: {e}") from None
    forced = len(setup.draw_order)
    turn = 0
    for n, msg in enumerate(msgs, 1):
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise RecordError('a replay message must be an object with a "type"', move=n)
        kind = msg["type"]
        payload = msg.get("payload") or {}
        if not isinstance(payload, dict):
            raise RecordError(f'{kind}: "payload" must be an object', move=n)
        state = rec.state
        action: Action
        if _BCB_ID in setup.expansions:
            done = _bcb_message(rec, kind, payload, n)
            if done:
                continue
            state = rec.state
        if kind == "GAME_OVER" or (kind == "COMMIT" and state.step != "deploy"):
            continue  # recorded only / the turn already ended with the deploy or pass
        if state.over:
            raise RecordError(f"{kind} after the game is over", move=n)
        if kind == "PLACE_TILE" and state.step == BonusStep.id:
            # JCloisterZone always plays the builder's second tile: take the offer
            rec.apply(state.current, Choose(BonusStep.id, "take"))
            state = rec.state
        seat = state.current
        if kind == "PLACE_TILE" and payload.get("tileId") == ABBEY_TILE:
            if state.step != AbbeyStep.id:
                raise RecordError(
                    "PLACE_TILE AM.A: no abbey may be played now (the player has none left, or "
                    "no empty cell has tiles on all four sides)",
                    move=n,
                )
            pos = parse_position(payload.get("position"), "PLACE_TILE position", n)
            action = Choose(AbbeyStep.id, pos.notation())
        elif kind == "PLACE_TILE":
            if state.step != "place":
                raise RecordError("PLACE_TILE before the previous turn was committed", move=n)
            if probe and state.pile_pos > forced:
                return turn
            tid = payload.get("tileId")
            if not isinstance(tid, str):
                raise RecordError('PLACE_TILE has no "tileId"', move=n)
            try:
                placed_tile = tile(tid).id
            except EngineError:
                raise RecordError(f"PLACE_TILE: unknown tile '{tid}'", move=n) from None
            if placed_tile != state.drawn:
                raise RecordError(
                    f"PLACE_TILE places {tid}, but the tile drawn in turn {turn + 1} is "
                    f"{_jcz_id(state.drawn)}",
                    move=n,
                )
            try:
                rot = Rotation.parse(str(payload.get("rotation")))
            except EngineError as e:
                raise RecordError(f"PLACE_TILE: {e}", move=n) from None
            action = PlaceTile(
                parse_position(payload.get("position"), "PLACE_TILE position", n), rot
            )
            turn += 1
        elif kind == "DEPLOY_MEEPLE" and state.step == WagonStep.id:
            seat = state.asks[0].seat  # a wagon's owner moves it on after the scoring
            action = _wagon_move(payload, state, n)
        elif kind == "DEPLOY_MEEPLE":
            action = _deploy(payload, state, n)
        elif kind == "PASS":
            if state.step not in ("deploy", AbbeyStep.id, WagonStep.id):
                raise RecordError("PASS instead of placing the tile is not supported", move=n)
            seat = state.asks[0].seat
            action = Pass()
        elif kind == "COMMIT":
            action = Pass()  # a commit straight after the placement deploys nothing
        else:
            raise RecordError(f"replay message {kind} is not supported", move=n)
        try:
            rec.apply(seat, action)
        except EngineError as e:
            raise RecordError(f"{kind}: {e}", move=n) from None
    return rec.record()


def _wagon_move(payload: dict[str, Any], state: GameState, n: int) -> Choose:
    """The wagon move a DEPLOY_MEEPLE after the scoring names (a feature on any tile)."""
    pointer = payload.get("pointer")
    if not isinstance(pointer, dict):
        raise RecordError('DEPLOY_MEEPLE has no "pointer"', move=n)
    pos = parse_position(pointer.get("position"), "DEPLOY_MEEPLE position", n)
    placed = state.board.cells.get(pos)
    location = pointer.get("location")
    if placed is None or not isinstance(location, str):
        raise RecordError("DEPLOY_MEEPLE: a wagon move must name a feature of a tile", move=n)
    try:
        index = parse_spot(placed.rt, location)
    except EngineError as e:
        raise RecordError(f"DEPLOY_MEEPLE: {e}", move=n) from None
    return Choose(WagonStep.id, f"{pos.notation()}@{spot_name(placed.rt, index)}")


def _bcb_message(rec: Recorder, kind: str, payload: dict[str, Any], n: int) -> bool:
    """Answer what Bridges, Castles & Bazaars needs before and for this message
    (:mod:`engine.carcassonne.jcz_bcb`); ``True`` when the message is fully handled."""
    try:
        for _ in range(8):
            answers = jcz_bcb.before(rec.state, kind, payload)
            if not answers:
                break
            for seat, act in answers:
                rec.apply(seat, act)
        got = jcz_bcb.convert(rec.state, kind, payload, n)
        if got is None:
            return False
        if got is not True:
            seat, act = got  # type: ignore[misc]
            rec.apply(seat, act)
    except RecordError:
        raise
    except EngineError as e:
        raise RecordError(f"{kind}: {e}", move=n) from None
    return True


def _deploy(payload: dict[str, Any], state: GameState, n: int) -> Deploy:
    """Our Deploy for a DEPLOY_MEEPLE message, with the spot in our own notation."""
    placed, seat = state.placed, int(state.current)
    if state.step != "deploy" or placed is None:
        raise RecordError("DEPLOY_MEEPLE before a tile was placed this turn", move=n)
    pointer = payload.get("pointer")
    if not isinstance(pointer, dict):
        raise RecordError('DEPLOY_MEEPLE has no "pointer"', move=n)
    pos = parse_position(pointer.get("position"), "DEPLOY_MEEPLE position", n)
    meeple = str(payload.get("meepleId", ""))
    owner, _, rest = meeple.partition(".")
    kind = rest.partition(".")[0]
    figure = MEEPLES.get(kind)
    if figure is None or not owner.isdigit():
        raise RecordError(f"DEPLOY_MEEPLE: unknown meeple '{meeple}'", move=n)
    if int(owner) != seat:
        raise RecordError(
            f"DEPLOY_MEEPLE: meeple '{meeple}' belongs to player {int(owner) + 1}, "
            f"but it is player {seat + 1}'s turn",
            move=n,
        )
    if figure == "barn":  # it names the field of the cell south-east of its corner
        corner = next(
            (k for k, v in CORNER_SPOTS.items() if v == (pos.x - placed.x, pos.y - placed.y)),
            None,
        )
        if corner is None:
            raise RecordError(
                f"DEPLOY_MEEPLE: a barn at {pos.notation()} is on no corner of the tile just "
                f"placed at {placed.notation()}",
                move=n,
            )
        return Deploy(corner, figure)
    if pos != placed:
        raise RecordError(
            f"DEPLOY_MEEPLE on {pos.notation()}, but the tile just placed is at "
            f"{placed.notation()}",
            move=n,
        )
    location = pointer.get("location")
    if not isinstance(location, str):
        raise RecordError('DEPLOY_MEEPLE has no "location"', move=n)
    try:
        index = parse_spot(state.board.cells[placed].rt, location)
    except EngineError as e:
        raise RecordError(f"DEPLOY_MEEPLE: {e}", move=n) from None
    return Deploy(spot_name(state.board.cells[placed].rt, index), figure)


def _jcz_id(tile_id: str | None) -> str:
    if tile_id is None:
        return "nothing"
    return tile(tile_id).jcz or tile_id
