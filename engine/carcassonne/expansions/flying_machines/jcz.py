"""Flying Machines in JCloisterZone saves (``shared/jcz/README.md`` §5.1, ``shared/jcz5/README.md``
§3.10–3.11).

* Setup: the 4.x capability ``Flier`` and expansion ``FLIER``, the 5.x tile set ``flier:1`` and
  its element ``flier`` bring the expansion.
* 4.x: ``DEPLOY_FLIER`` (pointer ``FLYING_MACHINE`` on the tile just placed) boards the machine;
  when the flight can land, a ``DEPLOY_MEEPLE`` on the landing tile says where; then ``COMMIT``.
  5.x: the boarding is a ``DEPLOY_MEEPLE`` whose pointer's feature is ``FlyingMachine``, with the
  roll's ``random``; the landing is a second ``DEPLOY_MEEPLE``; then ``COMMIT``.
* The roll. JCloisterZone 4.x rolls ``random.nextInt(3) + 1`` from one ``java.util.Random`` made
  with the save's ``initialSeed``, which every random tile draw also uses
  (``nextInt(tiles left in the pack)``, only once the forced ``drawOrder`` is used up); a salt
  (``COMMIT``'s or ``DEPLOY_FLIER``'s ``salt``, set before the message is applied) shifts each
  result: ``(nextInt(n) + (int)(salt % n)) % n``, Java remainders. 5.x records the roll: the
  distance is ``(int)(random * 3) + 1``. :func:`forced_rolls` reproduces both, so the import's
  ``GameSetup.forced`` makes our die roll what JCloisterZone rolled.
* JCloisterZone lets a mayor or a wagon fly (RULES.md OQ-FM-1 says only normal and large
  followers): such a save is converted again with ``flier.figures`` = ``all``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.carcassonne.actions import Choose, Deploy
from engine.carcassonne.jczparts import (
    Answer,
    Forced,
    JczContext,
    JczImport,
    JczMessages,
    JczRetry,
    JczSwitch,
    Message,
    meeples,
    parse_position,
)
from engine.carcassonne.placement import spot_name
from engine.carcassonne.rules import pending
from engine.carcassonne.state import GameState
from engine.carcassonne.tiles import tile, tile_sets
from engine.core.errors import EngineError, RecordError
from engine.core.seats import Seat

from .flight import can_fly, heading_of
from .model import DIE, FIGURES, ID, SPOT

LAND = "flier.land"
#: the 4.x and 5.x names of a figure on the machine
FLYING_MACHINE_4, FLYING_MACHINE_5 = "FLYING_MACHINE", "FlyingMachine"
#: what JCloisterZone 4.x calls the base game's box (every other box is named by its tile file)
BASIC = "BASIC"
_MASK48 = (1 << 48) - 1
#: the 4.x messages that carry a salt (``WsSaltMessage``)
_SALTED = frozenset({"COMMIT", "DEPLOY_FLIER", "FLOCK"})


class JavaRandom:
    """``java.util.Random``: the 48-bit linear congruential generator, seeded as Java seeds it.

    >>> JavaRandom(0).next_int(), JavaRandom(42).next_int()
    (-1155484576, -1170105035)
    >>> [JavaRandom(703001).next_int(3) for _ in range(1)]
    [0]
    """

    MULTIPLIER, ADDEND = 0x5DEECE66D, 0xB

    def __init__(self, seed: int) -> None:
        self.seed = (seed ^ self.MULTIPLIER) & _MASK48

    def _next(self, bits: int) -> int:
        self.seed = (self.seed * self.MULTIPLIER + self.ADDEND) & _MASK48
        value = self.seed >> (48 - bits)
        return value - (1 << 32) if value >= 1 << 31 else value  # Java's int

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()`` (no bound: any int) or ``nextInt(bound)``, with Java's rejection of
        the biased top values for a bound that is no power of two."""
        if bound is None:
            return self._next(32)
        if bound <= 0:
            raise ValueError("bound must be positive")
        if bound & -bound == bound:
            return (bound * self._next(31)) >> 31
        while True:
            bits = self._next(31)
            value = bits % bound
            if bits - value + (bound - 1) < 1 << 31:  # no int overflow in Java
                return value


def java_rem(a: int, n: int) -> int:
    """Java's ``a % n`` (the sign of ``a``), for a long or an int."""
    r = abs(a) % n
    return -r if a < 0 else r


def salted(value: int, salt: int, bound: int) -> int:
    """JCloisterZone 4.x's ``RandomGenerator.nextInt``: ``(value + (int)(salt % bound)) %
    bound``, in Java's arithmetic."""
    return java_rem(value + java_rem(salt, bound), bound)


def _int(value: Any, what: str, n: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{what} must be a whole number", move=n)
    return value


def _pack_size(data: Mapping[str, Any]) -> int:
    """The tiles in a 4.x save's pack: every box it names (the base game without its start
    tile), as our tile files count them."""
    setup = data.get("setup") or {}
    boxes = setup.get("expansions") or {BASIC: 1}
    total = 0
    for info in tile_sets():
        names = (BASIC,) if info.id == "base" else info.jcz
        if any(name in boxes for name in names):
            total += info.count - (1 if info.id == "base" else 0)
    return total


def rolls_4x(data: Mapping[str, Any]) -> tuple[int, ...]:
    """The distance of every flight of a 4.x save, as JCloisterZone rolled it.

    Raises:
        RecordError: for a flight JCloisterZone made no die face gives (a negative salt made
            it 0 or −1 tiles).
    """
    seed = data.get("initialSeed", 0)
    rng = JavaRandom(seed if isinstance(seed, int) and not isinstance(seed, bool) else 0)
    pack = (data.get("annotations") or {}).get("tilePack") or {}
    params = pack.get("params") if isinstance(pack, dict) else None
    order = list(params.get("drawOrder") or []) if isinstance(params, dict) else []
    if order and order[-1] == "#END":
        order.pop()
    total = _pack_size(data)
    drawn = 0  # entries of the forced order used (discards included)
    random_draws = 0
    salt = 0
    rolls: list[int] = []
    for n, m in enumerate(data.get("replay") or [], 1):
        if not isinstance(m, dict):
            continue
        kind, payload = m.get("type"), m.get("payload") or {}
        if not isinstance(payload, dict):
            continue
        if kind in _SALTED:  # set before the message is applied; a missing salt reads as 0
            salt = _int(payload.get("salt", 0), f"{kind} salt", n)
        if kind == "PLACE_TILE" and _drawn(payload.get("tileId")):
            tid = payload.get("tileId")
            if tid in order[drawn:]:  # forced: the entries skipped were discarded
                drawn += order[drawn:].index(tid) + 1
                continue
            drawn = len(order)  # JCloisterZone draws from its own pack from here on
            rng.next_int(max(total - drawn - random_draws, 1))
            random_draws += 1
        elif kind == "DEPLOY_FLIER":
            distance = salted(rng.next_int(3), salt, 3) + 1
            if distance < 1:
                raise RecordError(
                    f"DEPLOY_FLIER: JCloisterZone rolled a flight of {distance} tiles (salt "
                    f"{salt}), which no face of the die gives",
                    move=n,
                )
            rolls.append(distance)
    return tuple(rolls)


def _drawn(tile_id: Any) -> bool:
    """Whether a placed tile came from the pack (the abbey does not)."""
    try:
        return bool(tile(str(tile_id)).in_pile)
    except EngineError:
        return True


def rolls_5x(data: Mapping[str, Any]) -> tuple[int, ...]:
    """The distance of every flight of a 5.x save: ``(int)(random * 3) + 1``, the ``random``
    each boarding message recorded.

    Raises:
        RecordError: for a boarding message without a ``random`` in [0, 1).
    """
    rolls: list[int] = []
    for n, m in enumerate(data.get("replay") or [], 1):
        if not isinstance(m, dict) or m.get("type") != "DEPLOY_MEEPLE":
            continue
        payload = m.get("payload") or {}
        pointer = payload.get("pointer") if isinstance(payload, dict) else None
        if not isinstance(pointer, dict) or pointer.get("feature") != FLYING_MACHINE_5:
            continue
        r = payload.get("random")
        if isinstance(r, bool) or not isinstance(r, int | float) or not 0 <= r < 1:
            raise RecordError(
                'DEPLOY_MEEPLE on the flying machine needs the roll\'s "random" (0 to 1)',
                move=n,
            )
        rolls.append(int(r * 3) + 1)
    return tuple(rolls)


def forced_rolls(data: Mapping[str, Any], version: int) -> Forced:
    """The flier die's rolls a save made (``JczImport.forced``)."""
    rolls = rolls_4x(data) if version == 4 else rolls_5x(data)
    return ((DIE, rolls),) if rolls else ()


class FlierMessages(JczMessages):
    """Boarding the machine and landing, for one conversion."""

    def __init__(self) -> None:
        #: a flight was boarded and nothing has answered where it lands yet
        self.flew = False

    def before(self, ctx: JczContext, m: Message) -> Iterable[tuple[Seat, Any]]:
        if m.kind == "COMMIT" and self.flew:
            self.flew = False
            if ctx.version == 5 and not _landing(ctx.state):
                ctx.commit_due = True  # the flight found nowhere to land: this ends the turn
        return ()

    def convert(self, ctx: JczContext, m: Message) -> Answer | None:
        s = ctx.state
        if s.over:
            return None
        landing = _landing(s)
        if m.kind == "DEPLOY_MEEPLE" and landing is not None:
            return self._land(ctx, m, landing)
        boarding = m.kind == "DEPLOY_FLIER" or (
            m.kind == "DEPLOY_MEEPLE" and _pointer_feature(m) == FLYING_MACHINE_5
        )
        if not boarding:
            return None
        self.flew = True
        seat, deploy = _board(ctx, m)
        return Answer(seat, deploy)

    def _land(self, ctx: JczContext, m: Message, seat: Seat) -> Answer:
        s = ctx.state
        pos, index = ctx.feature(m)
        flight = s.ext[ID].flight
        if flight is None or pos != flight.target:
            where = flight.target.notation() if flight is not None and flight.target else "?"
            raise RecordError(
                f"DEPLOY_MEEPLE on {pos.notation()}, but the flying follower lands on {where}",
                move=m.n,
            )
        self.flew = False
        spot = spot_name(s.board.cells[pos].rt, index)
        return Answer(seat, Choose(LAND, spot), commit=True)


def _landing(s: GameState) -> Seat | None:
    """The seat whose flying figure awaits its landing, if any."""
    for d in pending(s):
        if d.kind == LAND:
            return d.seat
    return None


def _pointer_feature(m: Message) -> Any:
    pointer = m.payload.get("pointer")
    return pointer.get("feature") if isinstance(pointer, dict) else None


def _board(ctx: JczContext, m: Message) -> tuple[Seat, Deploy]:
    """The seat and our deploy of a message putting a figure on the machine."""
    s = ctx.state
    placed_pos = s.placed
    if s.step != "deploy" or placed_pos is None:
        raise RecordError(f"{m.kind} on the flying machine before a tile was placed", move=m.n)
    pointer = m.payload.get("pointer")
    if not isinstance(pointer, dict):
        raise RecordError(f'{m.kind} has no "pointer"', move=m.n)
    pos = parse_position(pointer.get("position"), f"{m.kind} position", m.n)
    location = pointer.get("location")
    if ctx.version == 4 and location != FLYING_MACHINE_4:
        raise RecordError(f"DEPLOY_FLIER must point at {FLYING_MACHINE_4}", move=m.n)
    placed = s.board.cells[placed_pos]
    heading = heading_of(placed)
    if pos != placed_pos or heading is None:
        raise RecordError(
            f"{m.kind}: no flying machine at {pos.notation()} (the tile just placed is at "
            f"{placed_pos.notation()})",
            move=m.n,
        )
    meeple = str(m.payload.get("meepleId", ""))
    owner, _, rest = meeple.partition(".")
    figure = meeples().get(rest.partition(".")[0])
    if figure is None or not owner.isdigit():
        raise RecordError(f"{m.kind}: unknown meeple '{meeple}'", move=m.n)
    if int(owner) != s.current:
        raise RecordError(
            f"{m.kind}: meeple '{meeple}' belongs to player {int(owner) + 1}, but it is "
            f"player {s.current + 1}'s turn",
            move=m.n,
        )
    if not can_fly(s.setup, figure):
        raise JczRetry(
            f"{m.kind}: a {figure} flies (JCloisterZone lets every follower figure fly; "
            f"option {FIGURES})",
            move=m.n,
            options=((FIGURES, "all"),),
        )
    return s.current, Deploy(f"{SPOT}:{heading}", figure)


JCZ = JczImport(
    capabilities={"Flier": JczSwitch()},
    expansions={"FLIER": JczSwitch()},
    sets={"flier:1": JczSwitch()},
    elements={"flier": JczSwitch()},
    messages=FlierMessages,
    forced=forced_rolls,
)


__all__ = [
    "JCZ",
    "FlierMessages",
    "JavaRandom",
    "forced_rolls",
    "java_rem",
    "rolls_4x",
    "rolls_5x",
    "salted",
]
