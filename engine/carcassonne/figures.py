"""The figure registry: every kind of figure described once (ARCHITECTURE.md §5.8).

The core reads a figure's majority strength, whether it counts as a follower (may stand alone on
an empty feature and returns to its owner's supply), whether it is neutral (no owner: the mage,
the witch) and whether it lies down (a farmer in the 1st-edition drawings, the abbot ...) from
here; expansions register their own kinds through ``Expansion.figure_specs``, so no closed list
of kinds lives in the board, the actions or the renderer.

>>> strength("follower"), is_follower("large"), strength("pig")
(1, True, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.carcassonne.tiles import FeatureKind


@dataclass(frozen=True, slots=True)
class FigureSpec:
    """One kind of figure.

    ``strength``: how much it counts in majorities (0: not at all); ``follower``: it may be
    deployed alone on an unoccupied feature and is a follower for rules that say so;
    ``neutral``: it belongs to no seat; ``lying``: drawn lying down. ``strength_on``, when
    set, gives the strength from the feature the figure stands on (a ``board.Feature``: the
    mayor counts the city's pennants) and replaces ``strength`` in that feature's majority.
    ``on_features``: False for a figure that never stands on a tile's feature (a barn stands
    on a corner, offered by its expansion's ``extra_deploys``). ``stands_on``, when set: the
    only feature kinds it may ever stand on (the mayor: cities); ``joins``: it only joins a
    feature on which its seat has a follower (the builder, the pig). The core refuses the
    figure elsewhere (a feature nobody stands on, for ``joins``) without asking any
    expansion's ``can_deploy``, so those need not answer there (their answer would be
    ``False``: what the figure's expansion declares here, its veto must agree with).
    """

    kind: str
    strength: int = 0
    follower: bool = False
    neutral: bool = False
    lying: bool = False
    strength_on: Callable[[Any], int] | None = field(default=None, compare=False)
    on_features: bool = True
    stands_on: frozenset[FeatureKind] | None = None
    joins: bool = False


FOLLOWER = FigureSpec("follower", strength=1, follower=True)

FIGURES: dict[str, FigureSpec] = {FOLLOWER.kind: FOLLOWER}

#: figures the core describes before any expansion registers (kept for the bot's labels)
_UNKNOWN = FigureSpec("?")


def register_figure(spec: FigureSpec) -> None:
    """Describe a figure kind (idempotent)."""
    FIGURES[spec.kind] = spec


def spec(kind: str) -> FigureSpec:
    """The description of ``kind`` (an unknown kind counts for nothing)."""
    return FIGURES.get(kind, _UNKNOWN)


def strength(kind: str) -> int:
    return FIGURES.get(kind, _UNKNOWN).strength


def is_follower(kind: str) -> bool:
    return FIGURES.get(kind, _UNKNOWN).follower


def is_neutral(kind: str) -> bool:
    return FIGURES.get(kind, _UNKNOWN).neutral
