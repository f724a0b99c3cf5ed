"""Seats: players are numbered from 0 in turn order."""

from __future__ import annotations

from typing import NewType

Seat = NewType("Seat", int)
