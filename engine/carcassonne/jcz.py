"""Import JCloisterZone 4.x saved games (``.jcz``) as :class:`GameRecord` objects.

The format is described in ``shared/jcz/README.md`` §4. The import walks the save's replay
messages through the real engine, so every move is checked as it is converted (the drawn tile
must match ``PLACE_TILE``'s ``tileId``, the follower must go on the tile just placed ...), and
the result replays through the same :func:`engine.carcassonne.record.replay` path as our own
records. Errors are :class:`RecordError` naming the replay message (1-based) and the reason.

This module knows the base game and the format; each expansion brings its capabilities,
expansion codes, rules, meeples and messages (``Expansion.jcz``, :mod:`.jczparts`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from engine.carcassonne.actions import Action, Deploy, Pass, PlaceTile
from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.jczparts import (
    JczContext,
    JczHooks,
    JczSwitch,
    Message,
    bool_defaults,
    claim,
    convert_with,
    forced_of,
    meeples,
    parse_position,
    parts_of,
    refusal,
    rule_of,
)
from engine.carcassonne.record import GameRecord, Recorder
from engine.carcassonne.registry import find_expansion
from engine.carcassonne.rules import parse_spot, spot_name
from engine.carcassonne.state import GameSetup, GameState
from engine.carcassonne.tiles import tile
from engine.core.errors import EngineError, RecordError

END_SENTINEL = "#END"
__all__ = ["JczGame", "import_jcz", "loads_jcz", "parse_position"]


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
        forced=forced_of(expansions, data, 4),
    )
    metadata = {
        "source": "jcloisterzone",
        "name": data.get("name"),
        "gameId": data.get("gameId"),
        "appVersion": data.get("appVersion"),
        "ending": ending,
    }
    metadata = {k: v for k, v in metadata.items() if v is not None}

    def convert(setup: GameSetup) -> GameRecord:
        # Tiles drawn after the forced order came from JCloisterZone's own random generator,
        # which we cannot reproduce; the save tells us which they were, so they join the
        # forced order.
        random_from = _convert(setup, seed, replay_msgs, names, metadata, probe=True)
        if isinstance(random_from, GameRecord):
            return random_from
        extra = tuple(_placed_tiles(replay_msgs, random_from))
        setup = replace(setup, draw_order=forced + extra)
        rec = _convert(setup, seed, replay_msgs, names, metadata, probe=False)
        assert isinstance(rec, GameRecord)
        return rec

    return JczGame(convert_with(setup, convert), names, ending)


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


def _check_parts(setup: dict[str, Any]) -> tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]:
    """Our expansion ids and options for the save's expansions, capabilities and rules."""
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
    switches: list[tuple[str, JczSwitch]] = []
    for c in caps:
        if str(c) != "StandardGame":
            switches.append(_claimed(str(c), "capability"))
    for name, count in exps.items():
        if name == "BASIC":
            continue
        exp_id, switch = _claimed(str(name), "expansion")
        if count != 1:
            raise RecordError(f"{count} copies of {find_expansion(exp_id).name} are not supported")
        switches.append((exp_id, switch))
    ours: list[str] = []
    for exp_id, switch in switches:
        if switch.plays and exp_id not in ours:
            ours.append(exp_id)
    # A rule a capability controls is on only when the save lists that capability (JCZ decides
    # figures and scoring by capability, independently of the tiles in the pack).
    options = dict(bool_defaults(ours, lambda part: part.capabilities))
    for _, switch in switches:
        options.update(switch.options)
    rules = setup.get("rules") or {}
    for key, value in rules.items() if isinstance(rules, dict) else ():
        rule = rule_of(str(key), 4)  # other 4.x rules never change a game we play
        if rule is not None:
            owner, read = rule
            got = read(value)
            if owner in ours:
                options.update(got)
    return tuple(ours), tuple(sorted(options.items()))


def _claimed(name: str, what: str) -> tuple[str, JczSwitch]:
    """The expansion and switch of a 4.x ``capability`` or ``expansion`` code.

    Raises:
        RecordError: naming it, for one no registered expansion plays.
    """
    table = (lambda p: p.capabilities) if what == "capability" else (lambda p: p.expansions)
    got = claim(name, table)
    if got is None:
        raise refusal(name, what)
    return got


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
    """Our ids of the tiles drawn and placed from turn ``from_turn`` (0-based) on (a tile from
    a player's supply, the abbey, is not drawn)."""
    out = []
    turn = 0
    for m in msgs:
        if isinstance(m, dict) and m.get("type") == "PLACE_TILE":
            try:
                t: Any = tile(str((m.get("payload") or {}).get("tileId")))
            except EngineError:
                t = None
            if t is not None and not t.in_pile:
                continue
            if turn >= from_turn:
                if t is None:
                    break  # the conversion reports it with its message number
                out.append(t.id)
            turn += 1
    return out


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
    ctx = JczContext(rec, 4, _feature)
    hooks = JczHooks(parts_of(setup.expansions), lambda m, seat: None)
    figures = meeples()
    forced = len(setup.draw_order)
    turn = 0
    for n, msg in enumerate(msgs, 1):
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise RecordError('a replay message must be an object with a "type"', move=n)
        kind = msg["type"]
        payload = msg.get("payload") or {}
        if not isinstance(payload, dict):
            raise RecordError(f'{kind}: "payload" must be an object', move=n)
        m = Message(n, kind, payload)
        hooks.before(ctx, m)
        if kind not in ("COMMIT", "GAME_OVER") and not rec.state.over:
            hooks.take_always(ctx, m)
        if hooks.convert(ctx, m) is not None:
            _track(ctx, kind)
            continue
        state = rec.state
        action: Action
        if kind == "GAME_OVER" or (kind == "COMMIT" and state.step != "deploy"):
            _track(ctx, kind)
            continue  # recorded only / the turn already ended with the deploy or pass
        if state.over:
            raise RecordError(f"{kind} after the game is over", move=n)
        seat = state.current
        if kind == "PLACE_TILE":
            if state.step != "place":
                raise RecordError("PLACE_TILE before the previous turn was committed", move=n)
            if probe and state.pile_pos > forced:
                return turn
            action = _place(m, state, turn)
            turn += 1
        elif kind == "DEPLOY_MEEPLE":
            action = _deploy(ctx, hooks, figures, m)
        elif kind == "PASS":
            if state.step != "deploy":
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
        _track(ctx, kind)
    return rec.record()


def _track(ctx: JczContext, kind: str) -> None:
    """Note a tile placed (the state its offers are read from) or a turn committed."""
    if kind == "PLACE_TILE":
        ctx.placed, ctx.committed = ctx.state, False
    elif kind == "COMMIT":
        ctx.committed = True


def _place(m: Message, state: GameState, turn: int) -> PlaceTile:
    """Our placement of the drawn tile a PLACE_TILE message names (turn ``turn``, 0-based)."""
    tid = m.payload.get("tileId")
    if not isinstance(tid, str):
        raise RecordError('PLACE_TILE has no "tileId"', move=m.n)
    try:
        placed_tile = tile(tid).id
    except EngineError:
        raise RecordError(f"PLACE_TILE: unknown tile '{tid}'", move=m.n) from None
    if placed_tile != state.drawn:
        raise RecordError(
            f"PLACE_TILE places {tid}, but the tile drawn in turn {turn + 1} is "
            f"{_jcz_id(state.drawn)}",
            move=m.n,
        )
    try:
        rot = Rotation.parse(str(m.payload.get("rotation")))
    except EngineError as e:
        raise RecordError(f"PLACE_TILE: {e}", move=m.n) from None
    return PlaceTile(parse_position(m.payload.get("position"), "PLACE_TILE position", m.n), rot)


def _feature(state: GameState, m: Message) -> tuple[Position, int]:
    """The tile and feature a message's pointer names: 4.x locations are board-frame spots of
    the tile at the pointer's position (any placed tile)."""
    pointer = m.payload.get("pointer")
    if not isinstance(pointer, dict):
        raise RecordError(f'{m.kind} has no "pointer"', move=m.n)
    pos = parse_position(pointer.get("position"), f"{m.kind} position", m.n)
    placed = state.board.cells.get(pos)
    location = pointer.get("location")
    if placed is None or not isinstance(location, str):
        raise RecordError(f"{m.kind}: the pointer must name a feature of a placed tile", move=m.n)
    try:
        return pos, parse_spot(placed.rt, location)
    except EngineError as e:
        raise RecordError(f"{m.kind}: {e}", move=m.n) from None


def _deploy(ctx: JczContext, hooks: JczHooks, figures: dict[str, str], m: Message) -> Deploy:
    """Our Deploy for a DEPLOY_MEEPLE message, with the spot in our own notation."""
    state, n = ctx.state, m.n
    placed, seat = state.placed, int(state.current)
    if state.step != "deploy" or placed is None:
        raise RecordError("DEPLOY_MEEPLE before a tile was placed this turn", move=n)
    pointer = m.payload.get("pointer")
    if not isinstance(pointer, dict):
        raise RecordError('DEPLOY_MEEPLE has no "pointer"', move=n)
    pos = parse_position(pointer.get("position"), "DEPLOY_MEEPLE position", n)
    meeple = str(m.payload.get("meepleId", ""))
    owner, _, rest = meeple.partition(".")
    figure = figures.get(rest.partition(".")[0])
    if figure is None or not owner.isdigit():
        raise RecordError(f"DEPLOY_MEEPLE: unknown meeple '{meeple}'", move=n)
    if int(owner) != seat:
        raise RecordError(
            f"DEPLOY_MEEPLE: meeple '{meeple}' belongs to player {int(owner) + 1}, "
            f"but it is player {seat + 1}'s turn",
            move=n,
        )
    elsewhere = hooks.deploy(ctx, m, figure, pos)  # a figure beside the tile's features
    if elsewhere is not None:
        return elsewhere
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
