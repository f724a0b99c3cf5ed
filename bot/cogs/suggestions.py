"""The open decisions autocomplete suggests from, kept a few seconds per player.

A move is typed as ``/carcassonne place cell: rotation: follower:``, and the Discord client
asks for suggestions as each option is filled: three or more autocompletes a move, each of
which read the match from the database and presented it (about a quarter of the bot's CPU
per move, and under overload the work that starved the moves themselves: BENCHMARKS.md "Full is
not broken"). Suggestions only suggest — the move is checked in full when it is sent — so a
player's open decisions are kept here for :data:`TTL_S` and read again when the channel's
board changes (:meth:`Suggestions.forget`, called when a new turn message is posted). A read
that started before the board changed is not kept (each channel's generation is counted).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")

#: how long a player's suggestions are reused (another process may have changed the match)
TTL_S = 3.0
#: players kept at most (the least recently asked go first)
KEPT = 4096


class Suggestions(Generic[T]):
    """``read(channel_id, user_id)`` kept per player until the channel's board changes or
    :data:`TTL_S` passes."""

    def __init__(
        self,
        read: Callable[[int, int], Awaitable[T]],
        *,
        ttl_s: float = TTL_S,
        kept: int = KEPT,
    ) -> None:
        self._read = read
        self.ttl_s = ttl_s
        self.kept = kept
        self._kept: OrderedDict[tuple[int, int], tuple[float, int, T]] = OrderedDict()
        self._generation: dict[int, int] = {}
        self.hits = 0
        self.misses = 0

    async def get(self, channel_id: int, user_id: int) -> T:
        """The player's suggestions: kept ones while fresh, else read now (and kept)."""
        key = (channel_id, user_id)
        now = time.monotonic()
        generation = self._generation.get(channel_id, 0)
        found = self._kept.get(key)
        if found is not None and found[1] == generation and now - found[0] <= self.ttl_s:
            self._kept.move_to_end(key)
            self.hits += 1
            return found[2]
        self.misses += 1
        value = await self._read(channel_id, user_id)
        if self._generation.get(channel_id, 0) == generation:  # the board did not change
            self._kept[key] = (now, generation, value)
            self._kept.move_to_end(key)
            while len(self._kept) > self.kept:
                self._kept.popitem(last=False)
        return value

    def forget(self, channel_id: int) -> None:
        """The channel's board changed: every player's suggestions there are read again."""
        self._generation[channel_id] = self._generation.get(channel_id, 0) + 1
        if len(self._generation) > 4 * self.kept:  # bounded: old channels start over
            self._generation.clear()
            self._kept.clear()
