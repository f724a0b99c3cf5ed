"""Actions a seat can take, with a short text notation that round-trips.

>>> Action.from_notation("place 3,-1 r90")
PlaceTile(pos=Position(x=3, y=-1), rotation=<Rotation.R90: 1>)
>>> Action.from_notation("deploy city:N").notation()
'deploy city:N'
>>> Action.from_notation("deploy large field:En.Wn")
Deploy(spot='field:En.Wn', figure='large')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.carcassonne.geometry import Position, Rotation
from engine.core.errors import InvalidActionError

#: Figures a Deploy may name. Later expansions add their own kinds here.
FIGURES = ("follower", "large", "builder", "pig", "mayor", "wagon", "barn")


class Action:
    """Base class of all actions."""

    kind: ClassVar[str] = ""

    def notation(self) -> str:
        raise NotImplementedError

    @staticmethod
    def from_notation(text: str) -> Action:
        """Parse ``place X,Y rR``, ``deploy [FIGURE] SPOT`` or ``pass``.

        Raises:
            InvalidActionError: when the text is not an action.
        """
        parts = text.split()
        if not parts:
            raise InvalidActionError("empty action")
        head = parts[0].lower()
        if head == "place" and len(parts) == 3:
            return PlaceTile(Position.parse(parts[1]), Rotation.parse(parts[2]))
        if head == "deploy" and len(parts) in (2, 3):
            figure = parts[1].lower() if len(parts) == 3 else "follower"
            if figure not in FIGURES:
                raise InvalidActionError(f"unknown figure '{figure}'")
            return Deploy(parts[-1], figure)
        if head == "pass" and len(parts) == 1:
            return Pass()
        raise InvalidActionError(
            f"'{text}' is not an action; use 'place X,Y r90', 'deploy SPOT' or 'pass'"
        )


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
