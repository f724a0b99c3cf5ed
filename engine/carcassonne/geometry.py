"""Board geometry: positions, sides, half-edges and rotations.

Coordinates follow JCloisterZone: ``x`` grows to the east and ``y`` grows to the **south**, so the
northern neighbour of ``(x, y)`` is ``(x, y - 1)``. Rotations are clockwise quarter turns.

Half-edges (where fields meet) are numbered clockwise from the north-west corner, as in TILES.md::

    0 Nw  1 Ne  2 En  3 Es  4 Se  5 Sw  6 Ws  7 Wn

JCloisterZone names the same eight halves ``NL NR EL ER SL SR WL WR``.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import NamedTuple

from engine.core import messages
from engine.core.errors import InvalidActionError

messages.register(
    {
        "err.bad_rotation": (
            "'{text}' is not a rotation; use 0, 90, 180 or 270",
            "'{text}' no es un giro; usa 0, 90, 180 o 270",
        ),
        "err.bad_position": (
            "'{text}' is not a board position; write it as x,y (e.g. 2,-1)",
            "'{text}' no es una posición del tablero; escríbela como x,y (p. ej. 2,-1)",
        ),
    }
)


class Side(IntEnum):
    """A tile edge, clockwise from north."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Side:
        return Side((self + 2) % 4)

    def rotated(self, rotation: Rotation) -> Side:
        """The side this one becomes when the tile turns by ``rotation`` (clockwise)."""
        return Side((self + rotation) % 4)


class Rotation(IntEnum):
    """A clockwise quarter-turn count: R0, R90, R180, R270."""

    R0 = 0
    R90 = 1
    R180 = 2
    R270 = 3

    @property
    def degrees(self) -> int:
        return int(self) * 90

    def notation(self) -> str:
        """``'r90'`` style.

        >>> Rotation.R270.notation()
        'r270'
        """
        return f"r{self.degrees}"

    @classmethod
    def parse(cls, text: str) -> Rotation:
        """Parse ``r90``, ``R90``, ``90`` or ``1`` style text.

        >>> Rotation.parse("R180")
        <Rotation.R180: 2>
        """
        t = text.strip().upper().lstrip("R")
        try:
            n = int(t)
        except ValueError:
            raise InvalidActionError.keyed("err.bad_rotation", text=text) from None
        if n in (0, 90, 180, 270):
            return cls(n // 90)
        if n in (1, 2, 3):
            return cls(n)
        raise InvalidActionError.keyed("err.bad_rotation", text=text)


HALF_NAMES = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
JCZ_HALF_NAMES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
SIDE_NAMES = ("N", "E", "S", "W")

_DELTAS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def rotate_half(half: int, rotation: int) -> int:
    """Rotate a half-edge index clockwise.

    >>> HALF_NAMES[rotate_half(HALF_NAMES.index("Wn"), 1)]
    'Ne'
    """
    return (half + 2 * rotation) % 8


def facing_half(half: int) -> int:
    """The neighbour's half-edge that touches ``half`` across the shared border.

    >>> HALF_NAMES[facing_half(0)], HALF_NAMES[facing_half(2)]
    ('Sw', 'Wn')
    """
    side = half // 2
    return ((side + 2) % 4) * 2 + (1 - half % 2)


def rotate_side_mask(mask: int, rotation: int) -> int:
    """Rotate a 4-bit side mask (bit i = side i) clockwise."""
    r = rotation % 4
    return ((mask << r) | (mask >> (4 - r))) & 0xF


def rotate_half_mask(mask: int, rotation: int) -> int:
    """Rotate an 8-bit half-edge mask clockwise."""
    r = (2 * rotation) % 8
    return ((mask << r) | (mask >> (8 - r))) & 0xFF


class Position(NamedTuple):
    """A board cell. ``Position(0, 0)`` holds the start tile; ``y`` grows to the south."""

    x: int
    y: int

    def neighbour(self, side: Side | int) -> Position:
        dx, dy = _DELTAS[side]
        return Position(self.x + dx, self.y + dy)

    def notation(self) -> str:
        """``'3,-1'`` style.

        >>> Position(3, -1).notation()
        '3,-1'
        """
        return f"{self.x},{self.y}"

    @classmethod
    def parse(cls, text: str) -> Position:
        """Parse ``'3,-1'`` (spaces and parentheses allowed).

        >>> Position.parse("(3, -1)")
        Position(x=3, y=-1)
        """
        m = re.fullmatch(r"\s*\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?\s*", text)
        if not m:
            raise InvalidActionError.keyed("err.bad_position", text=text)
        return cls(int(m.group(1)), int(m.group(2)))


def side_mask_name(mask: int) -> str:
    """Name a side mask in N,E,S,W order, e.g. ``'NW'`` for N+W.

    >>> side_mask_name(0b1001)
    'NW'
    """
    return "".join(SIDE_NAMES[i] for i in range(4) if mask >> i & 1)


def half_mask_name(mask: int) -> str:
    """Name a half-edge mask in clockwise order, e.g. ``'En.Wn'``."""
    return ".".join(HALF_NAMES[i] for i in range(8) if mask >> i & 1)
