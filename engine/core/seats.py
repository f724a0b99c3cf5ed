"""Seats: players are numbered from 0 in turn order."""

from __future__ import annotations

from typing import NewType

Seat = NewType("Seat", int)

#: the owner of a neutral figure (one no player owns, e.g. the mage or the witch)
NEUTRAL = Seat(-1)
