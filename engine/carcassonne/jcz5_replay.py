"""Walk a JCloisterZone 5.x save's replay messages through our engine (``shared/jcz5/README.md``
§3.6–3.12), recording our actions.

A 5.x message never says which prompt it answers: a bare ``PASS`` or ``COMMIT`` means what
JCloisterZone's phase order gives it. With the parts we play a turn is ``PLACE_TILE``, then the
action (``DEPLOY_MEEPLE`` or ``PASS``; nothing when no action is possible), then ``COMMIT``,
which scores. Our engine asks the same things as decisions (``core.place``, ``core.deploy``),
and the few decisions JCloisterZone never asks are answered the way it plays them
(:data:`ALWAYS`: the builder's second tile is always taken).

Abbey & Mayor (§3.8, §3.11): the abbey is offered before the tile (``PLACE_TILE AM/A``, or
``PASS`` + ``COMMIT`` to draw); a barn's ``DEPLOY_MEEPLE`` names the field of the cell south-east
of its corner; after the scoring each wagon that may move is ``DEPLOY_MEEPLE`` (then ``COMMIT``
once its owner has moved all it moves) or ``PASS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.carcassonne import jcz_bcb
from engine.carcassonne.actions import Action, Choose, Deploy, Pass, PlaceTile
from engine.carcassonne.expansions.abbey_mayor.abbey import AbbeyStep
from engine.carcassonne.expansions.abbey_mayor.model import ABBEY_TILE
from engine.carcassonne.expansions.abbey_mayor.wagon import WagonStep
from engine.carcassonne.expansions.traders_builders import BonusStep
from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.jcz import MEEPLES, parse_position
from engine.carcassonne.placement import CORNER_SPOTS
from engine.carcassonne.record import GameRecord, Recorder
from engine.carcassonne.rules import pending, spot_name
from engine.carcassonne.state import GameSetup, GameState
from engine.carcassonne.tiles import FeatureKind, RotatedTile, tile
from engine.core.errors import EngineError, RecordError
from engine.core.seats import Seat

PLACE, DEPLOY = "core.place", "core.deploy"
ABBEY, WAGON = AbbeyStep.id, WagonStep.id
#: decisions JCloisterZone never asks, with the option it always takes
ALWAYS: dict[str, str] = {BonusStep.id: "take"}

#: 5.x FeaturePointer ``feature`` -> our feature kind
FEATURES: dict[str, FeatureKind] = {
    "City": FeatureKind.CITY,
    "Road": FeatureKind.ROAD,
    "Field": FeatureKind.FIELD,
    "Monastery": FeatureKind.CLOISTER,
}
#: figures of parts we refuse in the setup, named if a save deploys one anyway
OTHER_FEATURES = {"FlyingMachine": "the flier (Flying Machines)", "Castle": "a castle"}
ROTATIONS = {"R0": Rotation.R0, "R90": Rotation.R90, "R180": Rotation.R180, "R270": Rotation.R270}
#: message types of parts we do not play yet, with the part
NOT_PLAYED = {
    "PLACE_TOKEN": "tokens (gold, castles, bridges …)",
    "MOVE_NEUTRAL_FIGURE": "neutral figures (mage, witch, fairy, dragon …)",
    "RETURN_MEEPLE": "returning figures (crop circles …)",
    "CIRCLE_REMOVE_OR_DEPLOY": "crop circles",
    "FLOCK_EXPAND_OR_SCORE": "the shepherd",
    "CAPTURE_FOLLOWER": "towers",
    "PAY_RANSOM": "towers",
    "EXCHANGE_FOLLOWER": "towers",
    "BAZAAR_BID": "bazaars",
    "BAZAAR_BUY_OR_SELL": "bazaars",
    "SCORE_ACROBATS": "acrobats",
}

_SIDES = {"N": 0, "E": 1, "S": 2, "W": 3}
_HALVES = {"NL": 0, "NR": 1, "EL": 2, "ER": 3, "SL": 4, "SR": 5, "WL": 6, "WR": 7}
_INNER = {"I": 1, "II": 2, "III": 3, "IV": 4}


@dataclass(frozen=True, slots=True)
class Message:
    """One replay message: ``n`` is its 1-based place in the file's ``replay`` list."""

    n: int
    kind: str
    payload: dict[str, Any]
    player: int | None


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
    placed = [
        m for m in msgs if m.kind == "PLACE_TILE" and m.payload.get("tileId") != ABBEY_TILE
    ]  # an abbey comes from its player's supply, not from the pile
    for m in placed[from_turn:]:
        tid = m.payload.get("tileId")
        try:
            out.append(tile(str(tid)).id)
        except EngineError:
            break  # the conversion reports it with its message number
    return out


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
    """The conversion's progress: the recorder, the turn, and whether a COMMIT is due."""

    def __init__(self, rec: Recorder, tile_sets: frozenset[str], forced: int, probe: bool) -> None:
        self.rec = rec
        self.tile_sets = tile_sets
        self.forced = forced
        self.probe = probe
        self.turn = 0
        self.commit_due = False
        self.actor = Seat(0)

    def step(self, m: Message) -> int | None:
        if jcz_bcb.ID in self.rec.state.ext and self._bcb(m):
            return None
        state = self.rec.state
        if m.kind == "COMMIT" and self.commit_due:  # the turn's action is already applied
            self._check_player(m, self.actor)
            self.commit_due = False
            return None
        if state.over:
            abbeys = "abbey_mayor" in state.setup.expansions and state.setup.option("am.abbey")
            if abbeys and (m.kind == "PASS" or m.payload.get("tileId") == ABBEY_TILE):
                raise RecordError(
                    f"{m.kind} after the last tile: JCloisterZone's end-of-game abbey round "
                    "is not supported (the game ends with the pile)",
                    move=m.n,
                )
            raise RecordError(f"{m.kind} after the game is over", move=m.n)
        if m.kind != "COMMIT":
            self._always(m)
        open_kinds = {d.kind for d in pending(self.rec.state)}
        if m.kind == "COMMIT":
            if DEPLOY not in open_kinds:
                raise RecordError("COMMIT with no placed tile to commit", move=m.n)
            self._apply(m, Pass(), DEPLOY)  # no action was possible: the commit ends the turn
            return None
        if m.kind == "DEPLOY_MEEPLE" and WAGON in open_kinds:
            self._apply(m, self._wagon(m), WAGON)  # a wagon moves on; COMMIT after its last
            self.commit_due = True
            return None
        if self.commit_due:
            raise RecordError(f"{m.kind} before the turn was committed", move=m.n)
        if m.kind == "PASS" and WAGON in open_kinds:
            self._apply(m, Pass(), WAGON)  # the wagon stays home; no COMMIT follows
            return None
        if m.kind == "PASS" and ABBEY in open_kinds:
            self._apply(m, Pass(), ABBEY)  # no abbey: draw; a COMMIT follows
            self.commit_due = True
            return None
        if m.kind == "PLACE_TILE":
            return self._place(m, open_kinds)
        if m.kind == "DEPLOY_MEEPLE":
            if DEPLOY not in open_kinds:
                raise RecordError("DEPLOY_MEEPLE before a tile was placed this turn", move=m.n)
            self._apply(m, self._deploy(m, state), DEPLOY)
            self.commit_due = True
            return None
        if m.kind == "PASS":
            if DEPLOY not in open_kinds:
                raise RecordError("PASS when a tile must be placed", move=m.n)
            self._apply(m, Pass(), DEPLOY)
            self.commit_due = True
            return None
        if m.kind in NOT_PLAYED:
            raise RecordError(
                f"replay message {m.kind} ({NOT_PLAYED[m.kind]}) is not supported", move=m.n
            )
        raise RecordError(f"unknown replay message type '{m.kind}'", move=m.n)

    def _bcb(self, m: Message) -> bool:
        """Bridges, Castles & Bazaars (:mod:`engine.carcassonne.jcz_bcb`): answer what it
        needs before this message, and the message itself when it is one of its own."""
        try:
            for _ in range(8):
                answers = jcz_bcb.before(self.rec.state, m.kind, m.payload)
                if not answers:
                    break
                for seat, act in answers:
                    self.rec.apply(seat, act)
            got = jcz_bcb.convert(self.rec.state, m.kind, m.payload, m.n)
            if got is None:
                return False
            if got is not True:
                seat, act = got  # type: ignore[misc]
                self._check_player(m, seat)
                self.rec.apply(seat, act)
                self.actor = seat
        except RecordError:
            raise
        except EngineError as e:
            raise RecordError(f"{m.kind}: {e}", move=m.n) from None
        return True

    def _always(self, m: Message) -> None:
        """Answer the open decisions JCloisterZone never asks, as it plays them."""
        for d in pending(self.rec.state):
            if d.kind in ALWAYS:
                take = next(o for o in d.options if o.id == ALWAYS[d.kind])
                self._check_player(m, d.seat)
                try:
                    self.rec.apply(d.seat, take.action)
                except EngineError as e:  # pragma: no cover - the engine offered it
                    raise RecordError(f"{m.kind}: {e}", move=m.n) from None

    def _place(self, m: Message, open_kinds: set[str]) -> int | None:
        if m.payload.get("tileId") == ABBEY_TILE:
            if ABBEY not in open_kinds:
                raise RecordError(
                    "PLACE_TILE AM/A: no abbey may be played now (the player has none left, "
                    "or no empty cell has tiles on all four sides)",
                    move=m.n,
                )
            pos = parse_position(m.payload.get("position"), "PLACE_TILE position", m.n)
            self._apply(m, Choose(ABBEY, pos.notation()), ABBEY)
            return None
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

    def _pointer(self, m: Message) -> tuple[Position, dict[str, Any]]:
        pointer = m.payload.get("pointer")
        if not isinstance(pointer, dict):
            raise RecordError('DEPLOY_MEEPLE has no "pointer"', move=m.n)
        return parse_position(pointer.get("position"), "DEPLOY_MEEPLE position", m.n), pointer

    def _part(self, m: Message, pos: Position, pointer: dict[str, Any]) -> tuple[RotatedTile, int]:
        """The placed tile at ``pos`` and the feature a pointer names on it."""
        placed = self.rec.state.board.cells.get(pos)
        feature, location = pointer.get("feature"), pointer.get("location")
        if not isinstance(feature, str) or not isinstance(location, str):
            raise RecordError(
                'DEPLOY_MEEPLE\'s pointer needs a "feature" and a "location"', move=m.n
            )
        kind = FEATURES.get(feature)
        if kind is None:
            what = OTHER_FEATURES.get(feature, f"a {feature}")
            raise RecordError(f"DEPLOY_MEEPLE on {what} is not supported", move=m.n)
        if placed is None:
            raise RecordError(f"DEPLOY_MEEPLE on {pos.notation()}, where no tile is", move=m.n)
        index = _feature_at(placed.rt, kind, location)
        if index is None:
            spots = ", ".join(placed.rt.spots)
            raise RecordError(
                f"DEPLOY_MEEPLE: the tile has no {feature}:{location}; its spots are {spots}",
                move=m.n,
            )
        return placed.rt, index

    def _wagon(self, m: Message) -> Choose:
        """The wagon move a DEPLOY_MEEPLE after the scoring names (any tile)."""
        pos, pointer = self._pointer(m)
        rt, index = self._part(m, pos, pointer)
        return Choose(WAGON, f"{pos.notation()}@{spot_name(rt, index)}")

    def _deploy(self, m: Message, state: GameState) -> Deploy:
        """Our Deploy for a DEPLOY_MEEPLE message, with the spot in our own notation."""
        placed = state.placed
        assert placed is not None
        pos, pointer = self._pointer(m)
        meeple = m.payload.get("meepleId")
        parts = meeple.split(".") if isinstance(meeple, str) else []
        if (
            len(parts) != 3
            or not parts[0].isdigit()
            or not parts[2].isdigit()
            or parts[1] not in MEEPLES
        ):
            raise RecordError(f"DEPLOY_MEEPLE: unknown meeple {meeple!r}", move=m.n)
        figure, owner = MEEPLES[parts[1]], int(parts[0])
        if owner != state.current:
            raise RecordError(
                f"DEPLOY_MEEPLE: meeple '{meeple}' belongs to player {owner + 1}, "
                f"but it is player {state.current + 1}'s turn",
                move=m.n,
            )
        if figure == "barn":  # it names the field of the cell south-east of its corner (§3.8)
            offset = (pos.x - placed.x, pos.y - placed.y)
            spot = next((k for k, v in CORNER_SPOTS.items() if v == offset), None)
            if spot is None:
                raise RecordError(
                    f"DEPLOY_MEEPLE: a barn at {pos.notation()} is on no corner of the tile "
                    f"just placed at {placed.notation()}",
                    move=m.n,
                )
            return Deploy(spot, figure)
        if pos != placed:
            raise RecordError(
                f"DEPLOY_MEEPLE on {pos.notation()}, but the tile just placed is at "
                f"{placed.notation()}",
                move=m.n,
            )
        rt, index = self._part(m, pos, pointer)
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
