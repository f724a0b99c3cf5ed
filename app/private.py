"""Private delivery, the service side: who cannot be sent direct messages (decision 5).

Private content (a card-game hand, a private decision of the tile game) goes to its player by
DM first. When a DM fails with 403 the player is remembered as "DMs closed" — stored in the
database at that moment (``dm_closed``, migration 0003), so a restart right after cannot try
the DM again or repeat the notice — told once in the channel, and from then on served through
an ephemeral answer instead; a failing DM is not retried. Nothing of it is kept in memory, so
it cannot grow with the number of players. The Discord side is :mod:`bot.cogs.private`.
"""

from __future__ import annotations

from storage.port import Store


class DmRegistry:
    """Users whose DMs are closed, and who asked not to be pinged on their turn; one per
    process, shared by both game services."""

    def __init__(self, storage: Store) -> None:
        self.storage = storage
        self._quiet: frozenset[int] | None = None

    async def quiet(self) -> frozenset[int]:
        """Who asked not to be pinged on their turn: read once and kept up to date by
        :meth:`set_pings` when this process is the database's only one; read each time from a
        database that other processes share (one of them may have changed it)."""
        if self._quiet is None or self.storage.shared:
            self._quiet = frozenset(await self.storage.quiet_players())
        return self._quiet

    async def set_pings(self, user_id: int, on: bool) -> None:
        await self.storage.set_quiet(user_id, not on)
        quiet = set(await self.quiet())
        (quiet.discard if on else quiet.add)(user_id)
        self._quiet = frozenset(quiet)

    async def is_closed(self, user_id: int) -> bool:
        return user_id > 0 and await self.storage.is_dm_closed(user_id)

    async def closed_among(self, user_ids: list[int]) -> set[int]:
        return await self.storage.dm_closed_among([u for u in user_ids if u > 0])

    async def note_closed(self, user_id: int) -> bool:
        """Remember a refused DM at once; ``True`` the first time (the channel is told once)."""
        return await self.storage.note_dm_closed(user_id)
