"""Game setup and state.

:class:`GameState` is immutable from the outside: :func:`engine.carcassonne.rules.apply` clones
it (:meth:`GameState.clone`, a handful of shallow dict copies) and changes only the clone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.carcassonne.board import Board
from engine.carcassonne.expansion import Expansion, Hooks, expansions_of, hooks_of
from engine.carcassonne.geometry import Position
from engine.carcassonne.scoring import Award
from engine.core import messages
from engine.core.errors import IllegalActionError
from engine.core.seats import Seat

if TYPE_CHECKING:
    from engine.carcassonne.flow import Ask, Frame
    from engine.carcassonne.track import TrackFigure

messages.register(
    {
        "err.players": (
            "Carcassonne needs {low}–{high} players",
            "Carcassonne necesita de {low} a {high} jugadores",
        ),
        "err.option_count": (
            "{option} must be a whole number from 0 to 99",
            "{option} debe ser un número entero de 0 a 99",
        ),
        "err.option_bool": ("{option} must be true or false", "{option} debe ser 'true' o 'false'"),
        "err.option_value": (
            "{option} must be one of {values}",
            "{option} debe ser uno de estos valores: {values}",
        ),
    }
)

TINY_CITY_VALUES = (2, 4)
FARM_SCORING_VALUES = ("per_farm", "city_supply_1st_ed")
MIN_PLAYERS, MAX_PLAYERS = 2, 6
FLOW_VERSION = 2
#: Core match options (``GameSetup.options`` keys no expansion owns). Lobbies do not offer
#: them; imported JCloisterZone saves select them to replay exactly what was played there.
#: ``SOLO``: True allows a 1-player game (the one player takes every turn).
SOLO = "core.solo"
#: ``FIGURE_COUNT + kind`` (e.g. ``core.figures.pig``): each player has that many figures of
#: an enabled kind instead of the rulebook's count.
FIGURE_COUNT = "core.figures."


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything that fixes a match before the first move (with the seed).

    ``tiny_city``: a completed 2-tile city scores 2 + 1 per shield (``2``, rulebook 001) or
    the full 4 + 2 per shield (``4``, first edition / JCloisterZone 4.x).
    ``farm_scoring``: ``per_farm`` (001) or ``city_supply_1st_ed`` (000), RULES.md §3.2–3.3.
    ``draw_order``: tile ids drawn first, in order (imports and tests); the rest is shuffled.
    ``draw_limit``: end the game after this many draws (JCloisterZone's debug pack).
    ``only_forced``: the pile holds only ``draw_order`` (JCloisterZone's ``#END``).
    ``forced``: what chance gives first, by source name, as ``draw_order`` does for tiles: the
    top cards of a named pile (``chance.new_pile``) or the first rolls of a named die
    (``chance.roll_die``), for imports that recorded them and for tests.
    """

    players: int = 2
    expansions: tuple[str, ...] = ()
    tiny_city: int = 2
    farm_scoring: str = "per_farm"
    farmers: bool = True
    followers: int = 7
    draw_order: tuple[str, ...] = ()
    draw_limit: int | None = None
    only_forced: bool = False
    names: tuple[str, ...] = ()
    #: expansion rule variants as sorted ``(key, value)`` pairs (see ``Expansion.options``)
    options: tuple[tuple[str, Any], ...] = ()
    #: the turn-flow generation the match was recorded with: 1 = before the decision core
    #: (the builder's second tile was automatic), 2 = now. Old setups read as 1.
    flow: int = FLOW_VERSION
    #: sorted ``(source name, values)`` pairs: see ``forced`` above and :meth:`forced_of`
    forced: tuple[tuple[str, tuple[Any, ...]], ...] = ()

    def forced_of(self, name: str) -> tuple[Any, ...]:
        """The forced first outcomes of the chance source ``name`` (none: ``()``)."""
        for k, v in self.forced:
            if k == name:
                return v
        return ()

    def option(self, key: str, default: Any = None) -> Any:
        for k, v in self.options:
            if k == key:
                return v
        return default

    def validate(self) -> None:
        """Raises:
        IllegalActionError: for an impossible setup, in words a lobby can show.
        """
        low = 1 if self.option(SOLO) else MIN_PLAYERS
        if not low <= self.players <= MAX_PLAYERS:
            raise IllegalActionError.keyed("err.players", low=MIN_PLAYERS, high=MAX_PLAYERS)
        for key, value in self.options:
            if key.startswith(FIGURE_COUNT) and not (
                isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 99
            ):
                raise IllegalActionError.keyed("err.option_count", option=key)
            if key == SOLO and not isinstance(value, bool):
                raise IllegalActionError.keyed("err.option_bool", option=SOLO)
        if self.flow not in (1, FLOW_VERSION):
            raise IllegalActionError.keyed(
                "err.option_value", option="flow", values=f"1, {FLOW_VERSION}"
            )
        if self.tiny_city not in TINY_CITY_VALUES:
            raise IllegalActionError.keyed("err.option_value", option="tiny_city", values="2, 4")
        if self.farm_scoring not in FARM_SCORING_VALUES:
            raise IllegalActionError.keyed(
                "err.option_value", option="farm_scoring", values=", ".join(FARM_SCORING_VALUES)
            )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "players": self.players,
            "expansions": list(self.expansions),
            "tiny_city": self.tiny_city,
            "farm_scoring": self.farm_scoring,
        }
        if self.flow != 1:
            out["flow"] = self.flow
        if not self.farmers:
            out["farmers"] = False
        if self.followers != 7:
            out["followers"] = self.followers
        if self.draw_order:
            out["draw_order"] = list(self.draw_order)
        if self.draw_limit is not None:
            out["draw_limit"] = self.draw_limit
        if self.only_forced:
            out["only_forced"] = True
        if self.names:
            out["names"] = list(self.names)
        if self.options:
            out["options"] = dict(self.options)
        if self.forced:
            out["forced"] = {k: list(v) for k, v in self.forced}
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSetup:
        return cls(
            players=int(data.get("players", 2)),
            expansions=tuple(data.get("expansions", ())),
            tiny_city=int(data.get("tiny_city", 2)),
            farm_scoring=str(data.get("farm_scoring", "per_farm")),
            farmers=bool(data.get("farmers", True)),
            followers=int(data.get("followers", 7)),
            draw_order=tuple(data.get("draw_order", ())),
            draw_limit=data.get("draw_limit"),
            only_forced=bool(data.get("only_forced", False)),
            names=tuple(data.get("names", ())),
            options=tuple(sorted(dict(data.get("options", {})).items())),
            flow=int(data.get("flow", 1)),
            forced=tuple(sorted((str(k), tuple(v)) for k, v in data.get("forced", {}).items())),
        )


class PlayerState:
    """A seat's score and figures in supply. Shared by a state and its clones: change it only
    through :meth:`GameState.player`, which copies it first."""

    __slots__ = ("score", "supply")

    def __init__(self, score: int, supply: dict[str, int]) -> None:
        self.score = score
        self.supply = supply

    def copy(self) -> PlayerState:
        return PlayerState(self.score, self.supply.copy())


@dataclass(slots=True, eq=False)
class GameState:
    """A whole game at one moment. Never mutate a state you did not just clone.

    ``step`` names what the game awaits: ``"place"`` (the current seat places ``drawn``),
    ``"deploy"`` (a figure on the tile at ``placed``, or pass), an expansion step's id, or
    ``"over"``. ``flow`` is the stack of running (sub-)turns and ``asks`` the open decisions
    (:mod:`engine.carcassonne.flow`); ``pending(state)`` describes them. Hidden from every
    view: ``pile`` from ``pile_pos`` on (the draw order) and ``rng``, the generator state for
    mid-game randomness (ARCHITECTURE.md decision 13), and ``piles``, the named piles of
    cards and forced rolls still to come (:mod:`engine.carcassonne.chance`). ``track`` holds
    the figures on the scoring track besides each seat's own marker (:mod:`.track`).
    """

    setup: GameSetup
    seed: int
    board: Board
    players: list[PlayerState]
    pile: tuple[str, ...]
    pile_pos: int = 0
    version: int = 0
    turn: int = 0
    current: Seat = Seat(0)
    step: str = "place"
    drawn: str | None = None
    placed: Position | None = None
    discarded: tuple[str, ...] = ()
    awards: tuple[Award, ...] = ()
    last_placed: dict[Seat, Position] = field(default_factory=dict)
    ext: dict[str, Any] = field(default_factory=dict)
    flow: tuple[Frame, ...] = ()
    asks: tuple[Ask, ...] = ()
    asks_made: int = 0
    rng: int = 0
    #: named hidden sequences (``chance``): replaced on change, never changed in place, so
    #: clones share it; no view shows it
    piles: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    #: the extra figures on the scoring track (``track.TrackFigure``), public
    track: tuple[TrackFigure, ...] = ()
    #: the enabled expansions' hook objects: derived from ``setup`` (never stored), found
    #: once per state and shared by clones (the hooks are read several times a move)
    exps: tuple[Expansion, ...] = field(init=False, repr=False)
    #: for each hot hook, the expansions that override it (``expansion.Hooks``)
    hooks: Hooks = field(init=False, repr=False)
    #: a bit per seat whose :class:`PlayerState` this state owns (may change); the others
    #: are shared with a clone and copied by :meth:`player` before any change
    owned: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.exps = expansions_of(self.setup)
        self.hooks = hooks_of(self.setup)
        self.owned = (1 << len(self.players)) - 1

    def player(self, seat: int) -> PlayerState:
        """``players[seat]`` to change (its score or supply): copied first if shared."""
        p = self.players[seat]
        if not self.owned >> seat & 1:
            p = self.players[seat] = p.copy()
            self.owned |= 1 << seat
        return p

    def clone(self) -> GameState:
        """An independent copy (the board copies on write; frozen values are shared)."""
        new = _new_state(GameState)
        new.setup = self.setup
        new.seed = self.seed
        new.board = self.board.clone()
        new.players = self.players.copy()  # the seats' states are copied on write
        new.owned = self.owned = 0
        new.pile = self.pile
        new.pile_pos = self.pile_pos
        new.version = self.version
        new.turn = self.turn
        new.current = self.current
        new.step = self.step
        new.drawn = self.drawn
        new.placed = self.placed
        new.discarded = self.discarded
        new.awards = self.awards
        new.last_placed = dict(self.last_placed)
        new.ext = dict(self.ext)
        new.flow = self.flow
        new.asks = self.asks
        new.asks_made = self.asks_made
        new.rng = self.rng
        new.piles = self.piles
        new.track = self.track
        new.exps = self.exps
        new.hooks = self.hooks
        return new

    @property
    def tiles_left(self) -> int:
        """Tiles still in the draw pile (not counting the one drawn)."""
        n = len(self.pile) - self.pile_pos
        if self.setup.draw_limit is not None:
            n = min(n, self.setup.draw_limit - self.draws_made)
        return max(n, 0)

    @property
    def draws_made(self) -> int:
        return self.pile_pos

    @property
    def over(self) -> bool:
        return self.step == "over"

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.score for p in self.players)


_new_state = object.__new__
