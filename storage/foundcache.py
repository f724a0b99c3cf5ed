"""The last read of each match and seats, kept by the process that alone writes its SQLite file.

A move reads its match row and seats about eight times (each autocomplete, the preview, the move
itself: ``benchmarks/tables.py``), each a trip to SQLite's reader thread and a decode of the
row, though nothing but this process can change them: it holds the file's writer lock
(``storage/lock.py``). So what was read is kept until this process writes again:

* each write says what it may change of the rows (:class:`storage.db.Wrote`): one match (a
  move, its turn message, a lobby's join, start or options) is forgotten wherever it was kept;
  a new lobby forgets its channel; writes of other tables (timers, votes, settings, ratings)
  forget nothing; a write that says nothing (a tool's transaction) forgets everything. A move's
  own read of the row as committed is then kept (:meth:`FoundCache.put`), and a turn message's
  id is written into what its own write made the cache forget (both right after their write is
  told, before any later write is: :meth:`storage.db.Database.write`'s ``then``, so several
  writes committed together are kept in their commit order);
* a read that was in flight while any write landed is not kept, as it may hold what that write
  changed (a write is told after it commits, so a read that started later sees it);
* reads inside a transaction (they see its uncommitted writes) are neither answered nor kept.

Answers are fresh copies (the row's decoded JSON is not shared between callers). Bounded:
``size`` matches and ``size`` channels, the least recently used forgotten first.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from storage.db import Database, Wrote
from storage.units import Found

#: matches (and channels) kept
SIZE = 4096

_OPEN = ("lobby", "active")


def _copy(found: Found | None) -> Found | None:
    if found is None:
        return None
    row, seats = found
    return dataclasses.replace(row, _decoded={}), list(seats)


class FoundCache:
    """What :meth:`load_match` and :meth:`load_open_match` read, until this process writes."""

    def __init__(self, db: Database, size: int = SIZE) -> None:
        self.db = db
        self.size = size
        #: bumped by every write: a read that saw it change while in flight is not kept
        self.writes = 0
        self._by_match: OrderedDict[int, Found] = OrderedDict()
        #: channel -> its open (lobby or active) match, or None when it has none
        self._by_channel: OrderedDict[int, Found | None] = OrderedDict()
        #: match -> the channel whose entry holds it
        self._channel_of: dict[int, int] = {}
        self.hits = 0
        self.misses = 0
        #: what the last write told made this forget of its match (for :meth:`forgotten`)
        self._forgot: tuple[int, Found] | None = None
        db.write_listeners.append(self._wrote)

    def _wrote(self, wrote: Wrote) -> None:
        self.writes += 1
        self._forgot = None
        if wrote.anything:
            self._by_match.clear()
            self._by_channel.clear()
            self._channel_of.clear()
            return
        if wrote.match_id is not None:
            found = self._by_match.pop(wrote.match_id, None)
            if found is not None:
                self._forgot = (wrote.match_id, found)
            channel = self._channel_of.pop(wrote.match_id, None)
            if channel is not None:
                self._by_channel.pop(channel, None)
        if wrote.channel_id is not None:
            self._drop_channel(wrote.channel_id)

    def put(self, found: Found) -> None:
        """Keep ``found``, just committed by this process (its write was told already)."""
        row, seats = found
        found = (row, list(seats))  # the caller keeps its own list
        self._keep_match(row.id, found)
        if row.status in _OPEN:
            self._keep_channel(row.channel_id, found)
        else:
            self._drop_channel(row.channel_id)

    def forgotten(self, match_id: int) -> Found | None:
        """What the write told last made this forget of ``match_id`` (not a copy; None:
        nothing kept then, or that write was of something else)."""
        if self._forgot is None or self._forgot[0] != match_id:
            return None
        return self._forgot[1]

    def _keep_match(self, match_id: int, found: Found) -> None:
        self._by_match[match_id] = found
        self._by_match.move_to_end(match_id)
        if len(self._by_match) > self.size:
            self._by_match.popitem(last=False)

    def _keep_channel(self, channel_id: int, found: Found | None) -> None:
        self._drop_channel(channel_id)
        self._by_channel[channel_id] = found
        if found is not None:
            self._channel_of[found[0].id] = channel_id
        if len(self._by_channel) > self.size:
            self._drop_channel(next(iter(self._by_channel)))

    def _drop_channel(self, channel_id: int) -> None:
        found = self._by_channel.pop(channel_id, None)
        if found is not None:
            self._channel_of.pop(found[0].id, None)

    async def load_match(
        self, match_id: int, read: Callable[[], Awaitable[Found | None]]
    ) -> Found | None:
        """The match ``match_id`` and its seats: kept, else ``read()`` (and kept)."""
        if self.db.in_transaction():
            return await read()
        found = self._by_match.get(match_id)
        if found is not None:
            self.hits += 1
            self._by_match.move_to_end(match_id)
            return _copy(found)
        self.misses += 1
        before = self.writes
        found = await read()
        if found is not None and self.writes == before:
            self._keep_match(match_id, found)
        return _copy(found)

    async def load_open_match(
        self, channel_id: int, read: Callable[[], Awaitable[Found | None]]
    ) -> Found | None:
        """The channel's lobby or active match and its seats (None: there is none): kept, else
        ``read()`` (and kept)."""
        if self.db.in_transaction():
            return await read()
        if channel_id in self._by_channel:
            self.hits += 1
            self._by_channel.move_to_end(channel_id)
            return _copy(self._by_channel[channel_id])
        self.misses += 1
        before = self.writes
        found = await read()
        if self.writes == before:
            self._keep_channel(channel_id, found)
        return _copy(found)
