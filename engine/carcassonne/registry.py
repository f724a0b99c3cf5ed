"""The registry of playable expansions, in hook order (ARCHITECTURE.md §5.4).

Front ends list expansions and their rule options from here (the lobby's select menu and rules
picker), so a new expansion needs one line in ``expansions/__init__.py`` and no front-end edit.
Tests may :func:`register` an expansion of their own and :func:`unregister` it afterwards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import messages
from engine.core.errors import IllegalActionError

if TYPE_CHECKING:
    from engine.carcassonne.expansion import Expansion

_REGISTRY: list[type[Expansion]] = []

messages.register(
    {
        "err.unknown_expansion": (
            "the expansion '{id}' is not playable yet",
            "la expansión '{id}' todavía no se puede jugar",
        ),
    }
)


def register(cls: type[Expansion]) -> type[Expansion]:
    """Add an expansion class at the end of the hook order (idempotent; usable as decorator)."""
    if not cls.id:
        raise ValueError("an expansion needs an id")
    from engine.carcassonne.figures import register_figure

    for spec in cls.figure_specs:
        register_figure(spec)
    for i, known in enumerate(_REGISTRY):
        if known.id == cls.id:
            _REGISTRY[i] = cls
            break
    else:
        _REGISTRY.append(cls)
    _changed()
    return cls


def unregister(expansion_id: str) -> None:
    """Remove an expansion (tests only)."""
    _REGISTRY[:] = [c for c in _REGISTRY if c.id != expansion_id]
    _changed()


def all_expansions() -> tuple[type[Expansion], ...]:
    """Every registered expansion class, in hook order."""
    _load_builtin()
    return tuple(_REGISTRY)


def find_expansion(expansion_id: str) -> type[Expansion]:
    """Raises:
    IllegalActionError: for an expansion that is not (yet) playable.
    """
    _load_builtin()
    for cls in _REGISTRY:
        if cls.id == expansion_id:
            return cls
    raise IllegalActionError.keyed("err.unknown_expansion", id=expansion_id)


def _changed() -> None:
    from engine.carcassonne.expansion import deploy_vetoes, expansions_of
    from engine.carcassonne.flow import program_of

    expansions_of.cache_clear()
    deploy_vetoes.cache_clear()
    program_of.cache_clear()


def _load_builtin() -> None:
    # the built-in expansions register themselves when their package is imported
    import engine.carcassonne.expansions  # noqa: F401
