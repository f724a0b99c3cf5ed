"""Bounded caches of the renderer, each with a count and a byte budget and a report of its size.

A bot drawing for hundreds of tables asks for tiles, figures and text at many sizes; a cache
that only grows would hold every one of them. :func:`memo` keeps the most recently used
results of a function, dropping the least recently used past ``entries`` results or past
``budget`` bytes (pictures are counted as Pillow stores them: 4 bytes a pixel for RGB and
RGBA, 1 for L). :func:`stats` lists every cache with what it holds, for benchmarks and tests.

The caches are safe to share between threads (the bot draws in worker threads): a lookup and
an insertion each take a lock; two threads missing the same key may both compute it.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, ParamSpec, TypeVar

from PIL import Image

P = ParamSpec("P")
R = TypeVar("R")

MiB = 1 << 20


@dataclass(frozen=True, slots=True)
class CacheStats:
    """What one cache holds: results and their bytes, against its limits; hits and misses
    since the process started (or the cache was cleared)."""

    name: str
    entries: int
    nbytes: int
    max_entries: int
    budget: int
    hits: int
    misses: int


def nbytes(value: object) -> int:
    """Memory a cached result holds, roughly: a picture's pixels as Pillow stores them, the
    sum over a tuple or list, ``sys.getsizeof`` for anything else."""
    if isinstance(value, Image.Image):
        per_pixel = 1 if value.mode in ("1", "L", "P") else 4
        return value.width * value.height * per_pixel + 200
    if isinstance(value, tuple | list):
        return sum(nbytes(v) for v in value) + sys.getsizeof(value)
    return sys.getsizeof(value)


class Memo(Generic[P, R]):
    """``fn`` with its results kept by argument, least recently used dropped first."""

    def __init__(
        self,
        fn: Callable[P, R],
        name: str,
        entries: int,
        budget: int,
        weigh: Callable[[object], int] | None = None,
    ) -> None:
        self.fn = fn
        self.weigh = weigh or nbytes
        self.name = name
        self.max_entries = entries
        self.budget = budget
        self._data: OrderedDict[Hashable, tuple[R, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        self.__wrapped__ = fn
        self.__doc__ = fn.__doc__
        self.__name__ = getattr(fn, "__name__", name)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        with self._lock:
            got = self._data.get(key)
            if got is not None:
                self._data.move_to_end(key)
                self.hits += 1
                return got[0]
            self.misses += 1
        value = self.fn(*args, **kwargs)
        self.keep(key, value)
        return value

    def lookup(self, key: Hashable) -> R | None:
        """The result kept for ``key`` (a cache filled by hand, see :func:`store`), or None."""
        with self._lock:
            got = self._data.get(key)
            if got is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return got[0]

    def keep(self, key: Hashable, value: R) -> None:
        """Keep ``value`` for ``key``, dropping the least recently used past the limits."""
        size = self.weigh(value)
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._data[key] = (value, size)
            self._bytes += size
            while len(self._data) > 1 and (
                len(self._data) > self.max_entries or self._bytes > self.budget
            ):
                _, (_, dropped) = self._data.popitem(last=False)
                self._bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._bytes = 0
            self.hits = self.misses = 0

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(
                self.name,
                len(self._data),
                self._bytes,
                self.max_entries,
                self.budget,
                self.hits,
                self.misses,
            )


#: every cache made by :func:`memo`, by name
CACHES: dict[str, Memo[Any, Any]] = {}


def memo(
    name: str, *, entries: int, budget: int, weigh: Callable[[object], int] | None = None
) -> Callable[[Callable[P, R]], Memo[P, R]]:
    """Decorator: keep at most ``entries`` results of the function and at most ``budget``
    bytes of them (``weigh``, by default :func:`nbytes`), least recently used dropped first."""

    def wrap(fn: Callable[P, R]) -> Memo[P, R]:
        m = Memo(fn, name, entries, budget, weigh)
        CACHES[name] = m
        return m

    return wrap


def store(
    name: str, *, entries: int, budget: int, weigh: Callable[[object], int] | None = None
) -> Memo[..., Any]:
    """A bounded cache filled by hand (:meth:`Memo.lookup`, :meth:`Memo.keep`), for results
    whose key is not the arguments of one function; listed by :func:`stats` like the others."""

    def unfilled(*args: object) -> Any:
        raise LookupError(f"cache {name} is filled by hand")

    m: Memo[..., Any] = Memo(unfilled, name, entries, budget, weigh)
    CACHES[name] = m
    return m


#: functools caches listed by :func:`stats` too: (function, bytes an entry holds, measured)
TRACKED: dict[str, tuple[Any, int]] = {}


def track(name: str, fn: Any, entry_bytes: int) -> None:
    """List a ``functools.lru_cache``/``cache`` function in :func:`stats`, each entry counted
    as ``entry_bytes`` (for small results the C cache is faster than :class:`Memo`)."""
    TRACKED[name] = (fn, entry_bytes)


def stats() -> list[CacheStats]:
    """What every cache holds now, by name."""
    out = {n: m.stats() for n, m in CACHES.items()}
    for n, (fn, each) in TRACKED.items():
        info = fn.cache_info()
        cap = info.maxsize if info.maxsize is not None else info.currsize
        out[n] = CacheStats(
            n, info.currsize, info.currsize * each, cap, cap * each, info.hits, info.misses
        )
    return [out[n] for n in sorted(out)]


def clear() -> None:
    """Empty every cache (tests; a process that wants its memory back)."""
    for m in CACHES.values():
        m.clear()
    for fn, _ in TRACKED.values():
        fn.cache_clear()


def paste(
    img: Image.Image,
    src: Image.Image | tuple[int, ...],
    xy: tuple[int, int],
    mask: Image.Image | None = None,
) -> None:
    """``img.paste(src, xy, mask)`` on Pillow's image cores: the same pixels without the
    wrapper's checks (a board picture pastes ~140 tiles, sprites and text masks, ~3 µs of
    checks each: issue 33). ``src`` is a picture of ``img``'s mode (or RGBA/LA onto RGB) or a
    colour with a ``mask``; anything else, and a read-only ``img``, go through Pillow's own."""
    if isinstance(src, Image.Image):
        size = src.size
        if src.mode != img.mode and not (img.mode == "RGB" and src.mode in ("RGBA", "LA")):
            img.paste(src, xy, mask)
            return
        source: Any = src.im
    elif mask is not None:
        size, source = mask.size, src
    else:
        img.paste(src, xy)
        return
    if img.readonly:
        img.paste(src, xy, mask)
        return
    box = (xy[0], xy[1], xy[0] + size[0], xy[1] + size[1])
    if mask is None:
        img.im.paste(source, box)
    else:
        img.im.paste(source, box, mask.im)
