"""A small LRU of rebuilt games, keyed by (match id, state version).

Both services rebuild a match from its action log on a cache miss; with one entry per live
match, a busy bot never replays a log on each click. Only the newest version of a match is
kept: an older one can only be asked for by a stale button, which is refused anyway.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A mapping that keeps its ``size`` most recently used entries: what a cog remembers per
    match (a language, the secret decisions it sent) stays bounded however many matches are
    played, and a forgotten entry only costs a default (English, a DM sent twice at worst)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, default: V) -> V:
        if key not in self._items:
            return default
        self._items.move_to_end(key)
        return self._items[key]

    def __setitem__(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def setdefault(self, key: K, value: V) -> V:
        if key in self._items:
            return self.get(key, value)
        self[key] = value
        return value

    def pop(self, key: K) -> None:
        self._items.pop(key, None)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)


class GameCache(Generic[T]):
    """LRU of at most ``size`` games, one version per match."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int], T] = OrderedDict()

    def get(self, match_id: int, version: int) -> T | None:
        key = (match_id, version)
        game = self._items.get(key)
        if game is not None:
            self._items.move_to_end(key)
        return game

    def put(self, match_id: int, version: int, game: T) -> None:
        """Remember ``game`` as the current version of ``match_id`` (older versions go)."""
        for k in [k for k in self._items if k[0] == match_id]:
            del self._items[k]
        self._items[(match_id, version)] = game
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def drop(self, match_id: int, version: int) -> None:
        self._items.pop((match_id, version), None)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
