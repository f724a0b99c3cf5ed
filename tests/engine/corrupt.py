"""Fuzzing saved games and records: every field path of a JSON object, and a copy of it with one
field replaced (shared by the record, JCloisterZone 4.x and 5.x robustness tests)."""

from __future__ import annotations

import copy
from typing import Any


def json_paths(
    obj: Any, prefix: tuple[Any, ...] = (), *, items: int | None = None
) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``obj`` (dict keys and list indexes); ``items`` caps how many
    entries of each list are visited."""
    out = [prefix] if prefix else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += json_paths(v, (*prefix, k), items=items)
    elif isinstance(obj, list):
        for i, v in enumerate(obj if items is None else obj[:items]):
            out += json_paths(v, (*prefix, i), items=items)
    return out


def corrupted(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A deep copy of ``data`` with the value at ``path`` replaced by ``value``."""
    out = copy.deepcopy(data)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out
