"""Actions a seat can take, with a short text notation that round-trips.

>>> Action.from_notation("place 3,-1 r90")
PlaceTile(pos=Position(x=3, y=-1), rotation=<Rotation.R90: 1>)
>>> Action.from_notation("deploy city:N").notation()
'deploy city:N'
>>> Action.from_notation("deploy large field:En.Wn")
Deploy(spot='field:En.Wn', figure='large')

Expansions add namespaced actions (``tb.bonus take``, ``gold.bar 1,0``) with
:func:`register_action`; they parse to :class:`Choose` and round-trip. A private action (a
sealed bid) is stored in full and shown to others by :meth:`Action.public_notation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.carcassonne.geometry import Position, Rotation
from engine.core import messages
from engine.core.errors import InvalidActionError

messages.register(
    {
        "err.empty_action": ("empty action", "acción vacía"),
        "err.unknown_figure": ("unknown figure '{figure}'", "figura desconocida: '{figure}'"),
        "err.action_usage": ("use '{usage}'", "usa '{usage}'"),
        "err.not_an_action": (
            "'{text}' is not an action; use 'place X,Y r90', 'deploy SPOT' or 'pass'",
            "'{text}' no es una acción; usa 'place X,Y r90', 'deploy LUGAR' o 'pass'",
        ),
    }
)


def _known_figure(kind: str) -> bool:
    from engine.carcassonne.figures import FIGURES

    if kind not in FIGURES:
        from engine.carcassonne.registry import all_expansions

        all_expansions()  # the built-in expansions register their figures on import
    return kind in FIGURES


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """A namespaced action head: the values it takes (empty: any one word) and whether
    it is private (shown to others as ``HEAD ?``)."""

    head: str
    values: tuple[str, ...] = ()
    private: bool = False


#: namespaced action heads (``"tb.bonus"``) registered by expansions
ACTIONS: dict[str, ActionSpec] = {}


def register_action(head: str, values: tuple[str, ...] = (), *, private: bool = False) -> None:
    """Register a namespaced action ``HEAD VALUE`` (``values`` empty: any word or number).

    Raises:
        ValueError: for a head without a namespace (``ns.verb``).
    """
    if "." not in head:
        raise ValueError(f"an expansion action needs a namespace: '{head}'")
    ACTIONS[head] = ActionSpec(head, values, private)


class Action:
    """Base class of all actions."""

    kind: ClassVar[str] = ""

    def notation(self) -> str:
        raise NotImplementedError

    @property
    def private(self) -> bool:
        """Whether only the acting seat may see this action in full."""
        return False

    def public_notation(self) -> str:
        """The notation others may see (a private action hides its value)."""
        return self.notation()

    @staticmethod
    def from_notation(text: str) -> Action:
        """Parse ``place X,Y rR``, ``deploy [FIGURE] SPOT`` or ``pass``.

        Raises:
            InvalidActionError: when the text is not an action.
        """
        parts = text.split()
        if not parts:
            raise InvalidActionError.keyed("err.empty_action")
        head = parts[0].lower()
        if head == "place" and len(parts) == 3:
            return PlaceTile(Position.parse(parts[1]), Rotation.parse(parts[2]))
        if head == "deploy" and len(parts) in (2, 3):
            figure = parts[1].lower() if len(parts) == 3 else "follower"
            if not _known_figure(figure):
                raise InvalidActionError.keyed("err.unknown_figure", figure=figure)
            return Deploy(parts[-1], figure)
        if head == "pass" and len(parts) == 1:
            return Pass()
        spec = ACTIONS.get(head)
        if spec is not None:
            if len(parts) != 2 or (spec.values and parts[1] not in spec.values):
                allowed = " | ".join(spec.values) or "VALUE"
                raise InvalidActionError.keyed("err.action_usage", usage=f"{head} {allowed}")
            return Choose(head, parts[1])
        raise InvalidActionError.keyed("err.not_an_action", text=text)


@dataclass(frozen=True, slots=True)
class PlaceTile(Action):
    """Place the drawn tile at ``pos`` turned clockwise by ``rotation``."""

    pos: Position
    rotation: Rotation
    kind: ClassVar[str] = "place"

    def notation(self) -> str:
        return f"place {self.pos.notation()} {self.rotation.notation()}"


@dataclass(frozen=True, slots=True)
class Deploy(Action):
    """Put a figure from the supply on a spot of the tile just placed.

    ``spot`` names a feature in the board frame: ``city:NW``, ``road:EW``, ``field:En.Wn``,
    ``field:inner``, ``cloister`` (see :func:`engine.carcassonne.rules.spot_name`).
    """

    spot: str
    figure: str = "follower"
    kind: ClassVar[str] = "deploy"

    def notation(self) -> str:
        if self.figure == "follower":
            return f"deploy {self.spot}"
        return f"deploy {self.figure} {self.spot}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Deploy nothing this turn."""

    kind: ClassVar[str] = "pass"

    def notation(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """A namespaced answer ``HEAD VALUE`` to an expansion's decision (``tb.bonus take``)."""

    head: str
    value: str
    kind: ClassVar[str] = "choose"

    def notation(self) -> str:
        return f"{self.head} {self.value}"

    @property
    def private(self) -> bool:
        spec = ACTIONS.get(self.head)
        return spec is not None and spec.private

    def public_notation(self) -> str:
        return f"{self.head} ?" if self.private else self.notation()


@dataclass(frozen=True, slots=True)
class NumberedChoice:
    """The action of a numeric option: ``n`` -> ``Choose(head, prefix + n)`` (a bid ``bcb.bid
    3``, an offer ``bcb.offer 1@3``). A template, not a closure, so a decision and a view
    holding it pickle and compare as plain data."""

    head: str
    prefix: str = ""

    def __call__(self, n: int) -> Choose:
        return Choose(self.head, f"{self.prefix}{n}")
