"""Walk a JCloisterZone 5.x save's replay messages through our engine (``shared/jcz5/README.md``
§3.6–3.12), recording our actions.

A 5.x message never says which prompt it answers: a bare ``PASS`` or ``COMMIT`` means what
JCloisterZone's phase order gives it. With the base game a turn is ``PLACE_TILE``, then the
action (``DEPLOY_MEEPLE`` or ``PASS``; nothing when no action is possible), then ``COMMIT``,
which scores. Our engine asks the same things as decisions (``core.place``, ``core.deploy``).
What an expansion adds — its messages, the decisions JCloisterZone never asks and the answer it
always takes, figures beside a tile's features — each expansion converts itself
(``Expansion.jcz``, :mod:`engine.carcassonne.jczparts`): its hooks see every message first.
"""

from __future__ import annotations

from typing import Any

from engine.carcassonne.actions import Action, Deploy, Pass, PlaceTile
from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.jczparts import (
    JczContext,
    JczHooks,
    Message,
    core_names,
    meeples,
    parse_position,
    parts_of,
)
from engine.carcassonne.record import GameRecord, Recorder
from engine.carcassonne.rules import pending, spot_name
from engine.carcassonne.state import GameSetup, GameState
from engine.carcassonne.tiles import FeatureKind, RotatedTile, tile
from engine.core.errors import EngineError, RecordError
from engine.core.seats import Seat

PLACE, DEPLOY = "core.place", "core.deploy"

#: 5.x FeaturePointer ``feature`` -> our feature kind
FEATURES: dict[str, FeatureKind] = {
    "City": FeatureKind.CITY,
    "Road": FeatureKind.ROAD,
    "Field": FeatureKind.FIELD,
    "Monastery": FeatureKind.CLOISTER,
}
ROTATIONS = {"R0": Rotation.R0, "R90": Rotation.R90, "R180": Rotation.R180, "R270": Rotation.R270}

_SIDES = {"N": 0, "E": 1, "S": 2, "W": 3}
_HALVES = {"NL": 0, "NR": 1, "EL": 2, "ER": 3, "SL": 4, "SR": 5, "WL": 6, "WR": 7}
_INNER = {"I": 1, "II": 2, "III": 3, "IV": 4}
__all__ = ["Message", "check_tile", "convert", "placed_tiles", "read_messages"]


def read_messages(raw: Any) -> list[Message]:
    """The replay messages, type-checked, with every ``UNDO`` applied (§3.12): an ``UNDO``
    removes the latest message it may undo (one without a ``random``, since the last one that
    had one).

    Raises:
        RecordError: for a malformed message or an ``UNDO`` with nothing to undo.
    """
    if not isinstance(raw, list):
        raise RecordError('the save has no "replay" list')
    out: list[Message] = []
    undo_floor = 0
    for n, msg in enumerate(raw, 1):
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise RecordError('a replay message must be an object with a "type"', move=n)
        kind = _printable(msg["type"])
        payload = msg.get("payload", {})
        if not isinstance(payload, dict):
            raise RecordError(f'{kind}: "payload" must be an object', move=n)
        player = msg.get("player")
        if player is not None and (not isinstance(player, int) or isinstance(player, bool)):
            raise RecordError(f'{kind}: "player" must be a player number', move=n)
        if kind == "UNDO":
            if len(out) <= undo_floor:
                raise RecordError("UNDO with nothing that may be undone", move=n)
            out.pop()
            continue
        out.append(Message(n, kind, payload, player))
        if payload.get("random") is not None:
            undo_floor = len(out)
    return out


def check_tile(tile_id: Any, tile_sets: frozenset[str], what: str, n: int | None = None) -> str:
    """Our id of a 5.x tile id, which must be in one of the save's tile sets.

    Raises:
        RecordError: naming ``what`` (and message ``n``) for a bad or unknown id.
    """
    if not isinstance(tile_id, str):
        raise RecordError(f"{what} has no tile id", move=n)
    try:
        t = tile(tile_id)
    except EngineError:
        raise RecordError(f"{what}: unknown tile '{tile_id}'", move=n) from None
    if t.id != tile_id:  # a 4.x-style id ("BA.C") in a 5.x save
        raise RecordError(f"{what}: unknown tile '{tile_id}'", move=n)
    if t.set_id not in tile_sets:
        raise RecordError(f"{what}: tile '{tile_id}' is not in the save's tile sets", move=n)
    return t.id


def placed_tiles(msgs: list[Message], from_turn: int) -> list[str]:
    """Our ids of the tiles drawn and placed from turn ``from_turn`` (0-based) on."""
    out = []
    placed = [m for m in msgs if m.kind == "PLACE_TILE" and _drawn(m.payload.get("tileId"))]
    for m in placed[from_turn:]:
        tid = m.payload.get("tileId")
        try:
            out.append(tile(str(tid)).id)
        except EngineError:
            break  # the conversion reports it with its message number
    return out


def _drawn(tile_id: Any) -> bool:
    """Whether a placed tile came from the pile (a tile from a player's supply, the abbey,
    did not); an unknown id counts as drawn, for the conversion to report."""
    try:
        return tile(str(tile_id)).in_pile
    except EngineError:
        return True


def convert(
    setup: GameSetup,
    seed: int,
    msgs: list[Message],
    names: tuple[str, ...],
    metadata: dict[str, Any],
    tile_sets: frozenset[str],
    *,
    probe: bool,
) -> GameRecord | int:
    """Walk the messages through the engine and record our actions.

    With ``probe``, stop and return the turn (0-based) in which the engine first draws past the
    forced order (the caller then forces the save's own tiles from there and converts again).

    Raises:
        RecordError: naming the first message that is malformed or illegal.
    """
    try:
        rec = Recorder(setup, seed, names=names, metadata=metadata)
    except EngineError as e:
        raise RecordError(f"bad setup: {e}") from None
    walk = _Walk(rec, tile_sets, len(setup.draw_order), probe)
    for m in msgs:
        stop = walk.step(m)
        if stop is not None:
            return stop
    return rec.record()


class _Walk:
    """The conversion's progress: the recorder, the expansions' hooks and the turn."""

    def __init__(self, rec: Recorder, tile_sets: frozenset[str], forced: int, probe: bool) -> None:
        self.rec = rec
        self.tile_sets = tile_sets
        self.forced = forced
        self.probe = probe
        self.turn = 0
        self.actor = Seat(0)
        self.ctx = JczContext(rec, 5, _feature)
        self.hooks = JczHooks(parts_of(rec.setup.expansions), self._check_player)
        self.figures = meeples()

    def step(self, m: Message) -> int | None:
        ctx = self.ctx
        self.hooks.before(ctx, m)
        if m.kind == "COMMIT" and ctx.commit_due:  # the turn's action is already applied
            self._check_player(m, self.actor)
            ctx.commit_due, ctx.committed = False, True
            return None
        if m.kind != "COMMIT" and not self.rec.state.over:
            self.hooks.take_always(ctx, m)
        got = self.hooks.convert(ctx, m)
        if got is not None:
            if got.seat is not None and got.action is not None:
                self.actor = got.seat
            ctx.commit_due = ctx.commit_due or got.commit
            self._track(m)
            return None
        state = self.rec.state
        if state.over:
            raise RecordError(f"{m.kind} after the game is over", move=m.n)
        open_kinds = {d.kind for d in pending(state)}
        if m.kind == "COMMIT":
            if DEPLOY not in open_kinds:
                raise RecordError("COMMIT with no placed tile to commit", move=m.n)
            self._apply(m, Pass(), DEPLOY)  # no action was possible: the commit ends the turn
            ctx.committed = True
            return None
        if ctx.commit_due:
            raise RecordError(f"{m.kind} before the turn was committed", move=m.n)
        if m.kind == "PLACE_TILE":
            stop = self._place(m, open_kinds)
            self._track(m)
            return stop
        if m.kind == "DEPLOY_MEEPLE":
            if DEPLOY not in open_kinds:
                raise RecordError("DEPLOY_MEEPLE before a tile was placed this turn", move=m.n)
            self._apply(m, self._deploy(m, state), DEPLOY)
            ctx.commit_due = True
            return None
        if m.kind == "PASS":
            if DEPLOY not in open_kinds:
                raise RecordError("PASS when a tile must be placed", move=m.n)
            self._apply(m, Pass(), DEPLOY)
            ctx.commit_due = True
            return None
        part = core_names().messages.get(m.kind)
        if part is not None:
            raise RecordError(f"replay message {m.kind} ({part}) is not supported", move=m.n)
        raise RecordError(f"unknown replay message type '{m.kind}'", move=m.n)

    def _track(self, m: Message) -> None:
        """Note a tile placed: the state its offers are read from."""
        if m.kind == "PLACE_TILE":
            self.ctx.placed, self.ctx.committed = self.rec.state, False

    def _place(self, m: Message, open_kinds: set[str]) -> int | None:
        if PLACE not in open_kinds:
            raise RecordError(
                "PLACE_TILE before the action of the tile just placed (DEPLOY_MEEPLE, PASS "
                "or COMMIT)",
                move=m.n,
            )
        state = self.rec.state
        if self.probe and state.pile_pos > self.forced:
            return self.turn
        placed = check_tile(m.payload.get("tileId"), self.tile_sets, "PLACE_TILE", m.n)
        if placed != state.drawn:
            raise RecordError(
                f"PLACE_TILE places {placed}, but the tile drawn in turn {self.turn + 1} is "
                f"{state.drawn or 'nothing'}",
                move=m.n,
            )
        rotation = m.payload.get("rotation")
        if not isinstance(rotation, str) or rotation not in ROTATIONS:
            raise RecordError(
                f"PLACE_TILE: rotation must be R0, R90, R180 or R270, not {rotation!r}", move=m.n
            )
        pos = parse_position(m.payload.get("position"), "PLACE_TILE position", m.n)
        self.turn += 1
        self._apply(m, PlaceTile(pos, ROTATIONS[rotation]), PLACE)
        return None

    def _deploy(self, m: Message, state: GameState) -> Deploy:
        """Our Deploy for a DEPLOY_MEEPLE message, with the spot in our own notation."""
        placed = state.placed
        assert placed is not None
        pos, pointer = _pointer(m)
        meeple = m.payload.get("meepleId")
        parts = meeple.split(".") if isinstance(meeple, str) else []
        if (
            len(parts) != 3
            or not parts[0].isdigit()
            or not parts[2].isdigit()
            or parts[1] not in self.figures
        ):
            raise RecordError(f"DEPLOY_MEEPLE: unknown meeple {meeple!r}", move=m.n)
        figure, owner = self.figures[parts[1]], int(parts[0])
        if owner != state.current:
            raise RecordError(
                f"DEPLOY_MEEPLE: meeple '{meeple}' belongs to player {owner + 1}, "
                f"but it is player {state.current + 1}'s turn",
                move=m.n,
            )
        elsewhere = self.hooks.deploy(self.ctx, m, figure, pos)  # beside the tile's features
        if elsewhere is not None:
            return elsewhere
        if pos != placed:
            raise RecordError(
                f"DEPLOY_MEEPLE on {pos.notation()}, but the tile just placed is at "
                f"{placed.notation()}",
                move=m.n,
            )
        rt, index = _part(state, m, pos, pointer)
        return Deploy(spot_name(rt, index), figure)

    def _apply(self, m: Message, action: Action, decision: str) -> None:
        """Answer the open ``decision`` with ``action`` for the seat it belongs to."""
        seat = next(d.seat for d in pending(self.rec.state) if d.kind == decision)
        self._check_player(m, seat)
        try:
            self.rec.apply(seat, action)
        except EngineError as e:
            raise RecordError(f"{m.kind}: {e}", move=m.n) from None
        self.actor = seat

    @staticmethod
    def _check_player(m: Message, seat: Seat) -> None:
        """The mover a message names (when it names one) must be the seat that moves."""
        if m.player is not None and m.player != seat:
            raise RecordError(
                f"{m.kind} is marked as player {m.player + 1}'s, but it is player "
                f"{seat + 1}'s move",
                move=m.n,
            )


def _pointer(m: Message) -> tuple[Position, dict[str, Any]]:
    pointer = m.payload.get("pointer")
    if not isinstance(pointer, dict):
        raise RecordError(f'{m.kind} has no "pointer"', move=m.n)
    return parse_position(pointer.get("position"), f"{m.kind} position", m.n), pointer


def _part(
    state: GameState, m: Message, pos: Position, pointer: dict[str, Any]
) -> tuple[RotatedTile, int]:
    """The placed tile at ``pos`` and the feature a pointer names on it."""
    placed = state.board.cells.get(pos)
    feature, location = pointer.get("feature"), pointer.get("location")
    if not isinstance(feature, str) or not isinstance(location, str):
        raise RecordError(f'{m.kind}\'s pointer needs a "feature" and a "location"', move=m.n)
    kind = FEATURES.get(feature)
    if kind is None:
        what = core_names().features.get(feature, f"a {feature}")
        raise RecordError(f"{m.kind} on {what} is not supported", move=m.n)
    if placed is None:
        raise RecordError(f"{m.kind} on {pos.notation()}, where no tile is", move=m.n)
    index = _feature_at(placed.rt, kind, location)
    if index is None:
        spots = ", ".join(placed.rt.spots)
        raise RecordError(
            f"{m.kind}: the tile has no {feature}:{location}; its spots are {spots}",
            move=m.n,
        )
    return placed.rt, index


def _feature(state: GameState, m: Message) -> tuple[Position, int]:
    """The tile and feature a message's pointer names (any placed tile; 5.x notation)."""
    pos, pointer = _pointer(m)
    return pos, _part(state, m, pos, pointer)[1]


def _feature_at(rt: RotatedTile, kind: FeatureKind, location: str) -> int | None:
    """The feature of ``kind`` a 5.x location names on a placed tile (board frame, §3.7)."""
    features = [f for f in rt.tile.features if f.kind is kind]
    if kind is FeatureKind.CLOISTER:
        return features[0].index if location == "I" and features else None
    if kind is FeatureKind.FIELD:
        if location in _INNER:
            inner = [f for f in features if rt.halves[f.index] == 0]
            inner.sort(key=lambda f: max(f.inner, 1))
            i = _INNER[location] - 1
            return inner[i].index if i < len(inner) else None
        parts = location.split(".")
        if not all(p in _HALVES for p in parts) or len(set(parts)) != len(parts):
            return None
        mask = sum(1 << _HALVES[p] for p in parts)
        return next((f.index for f in features if rt.halves[f.index] == mask), None)
    names = {"NS": 0b0101, "WE": 0b1010, "NWSE": 0b1111}
    if location in names:
        mask = names[location]
    elif len(location) == 2 and location[0] == "_" and location[1] in _SIDES:
        mask = 0b1111 & ~(1 << _SIDES[location[1]])
    elif location and all(c in _SIDES for c in location) and len(set(location)) == len(location):
        mask = sum(1 << _SIDES[c] for c in location)
    else:
        return None
    return next((f.index for f in features if rt.sides[f.index] == mask), None)


def _printable(text: str, limit: int = 40) -> str:
    """``text`` safe for a one-line error: control characters shown as ``?``, cut at ``limit``."""
    clean = "".join(c if c.isprintable() else "?" for c in text)
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"
