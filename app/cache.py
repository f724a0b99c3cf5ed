"""Bounded, O(1) caches of a service: rebuilt games and board pictures, one entry per match.

Both services rebuild a match from its action log on a cache miss; with one entry per live
match, a busy bot never replays a log on each click. Only the newest version of a match is
kept: an older one can only be asked for by a stale button, which is refused anyway. Every
operation is O(1) (an ordered dict keyed by match id), and both caches are bounded by entries
and by bytes (a game's bytes are estimated by the service's ``weigh``; a picture's are exact).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
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
    """LRU of at most ``size`` games (and, with ``weigh``, about ``max_bytes``), one version
    per match."""

    def __init__(
        self,
        size: int,
        *,
        max_bytes: int | None = None,
        weigh: Callable[[T], int] | None = None,
    ) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self._weigh = weigh
        #: match id -> (version, game, estimated bytes), least recently used first
        self._items: OrderedDict[int, tuple[int, T, int]] = OrderedDict()
        self._bytes = 0

    def get(self, match_id: int, version: int) -> T | None:
        item = self._items.get(match_id)
        if item is None or item[0] != version:
            return None
        self._items.move_to_end(match_id)
        return item[1]

    def put(self, match_id: int, version: int, game: T) -> None:
        """Remember ``game`` as the current version of ``match_id`` (older versions go)."""
        weight = self._weigh(game) if self._weigh is not None else 0
        old = self._items.pop(match_id, None)
        if old is not None:
            self._bytes -= old[2]
        self._items[match_id] = (version, game, weight)
        self._bytes += weight
        self._evict()

    def drop(self, match_id: int, version: int) -> None:
        item = self._items.get(match_id)
        if item is not None and item[0] == version:
            del self._items[match_id]
            self._bytes -= item[2]

    def clear(self) -> None:
        self._items.clear()
        self._bytes = 0

    @property
    def bytes(self) -> int:
        """The estimated bytes of the games held (0 without ``weigh``)."""
        return self._bytes

    def _evict(self) -> None:
        limit = self.max_bytes
        while len(self._items) > self.size or (
            limit is not None and self._bytes > limit and len(self._items) > 1
        ):
            _, (_, _, weight) = self._items.popitem(last=False)
            self._bytes -= weight

    def __len__(self) -> int:
        return len(self._items)


class PictureCache:
    """The pictures of each match's newest version, by key ``(match_id, version, ...)`` (the
    rest tells pictures of one version apart: language, whole map or turn picture): a version
    fixes the view, so it fixes the image, and older versions are never asked for again. At
    most ``max_items`` matches and ``max_bytes`` bytes, least recently used out first."""

    def __init__(self, max_items: int, max_bytes: int) -> None:
        self.max_items = max_items
        self.max_bytes = max_bytes
        #: match id -> its newest version's pictures by key
        self._items: OrderedDict[Hashable, dict[tuple[Hashable, ...], bytes]] = OrderedDict()
        self._bytes = 0

    def get(self, key: tuple[Hashable, ...]) -> bytes | None:
        pictures = self._items.get(key[0])
        if pictures is None or key not in pictures:
            return None
        self._items.move_to_end(key[0])
        return pictures[key]

    def put(self, key: tuple[Hashable, ...], png: bytes) -> None:
        if len(png) > self.max_bytes:
            return
        pictures = self._items.pop(key[0], None)
        if pictures is not None:
            same_version = next(iter(pictures))[1:2] == key[1:2]
            old = pictures.pop(key, None) if same_version else None
            if old is not None:
                self._bytes -= len(old)
            if not same_version:
                self._bytes -= sum(len(v) for v in pictures.values())
                pictures = None
        pictures = pictures or {}
        pictures[key] = png
        self._items[key[0]] = pictures
        self._bytes += len(png)
        while len(self._items) > self.max_items or self._bytes > self.max_bytes:
            _, dropped = self._items.popitem(last=False)
            self._bytes -= sum(len(v) for v in dropped.values())

    @property
    def bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        """The matches with pictures kept."""
        return len(self._items)
