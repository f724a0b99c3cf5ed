"""Private delivery, the service side: who cannot be sent direct messages (decision 5).

Private content (a card-game hand, later a private decision of the tile game) goes to its
player by DM first. When a DM fails with 403 the player is remembered here as "DMs closed",
told once in the channel, and from then on served through an ephemeral answer instead; a
failing DM is never retried. The set survives a restart inside each match's snapshot
(``"dm_closed"``), so it needs no table of its own. The Discord side is
:mod:`bot.ui.private`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: the snapshot key that keeps the closed-DM users of a match's players
SNAPSHOT_KEY = "dm_closed"


@dataclass(slots=True)
class DmRegistry:
    """Users whose DMs are closed; one per process, shared by both game services."""

    closed: set[int] = field(default_factory=set)

    def is_closed(self, user_id: int) -> bool:
        return user_id in self.closed

    def note_closed(self, user_id: int) -> bool:
        """Remember a failed DM; ``True`` the first time (the channel is told once)."""
        if user_id in self.closed:
            return False
        self.closed.add(user_id)
        return True

    def remember(self, snapshot: Mapping[str, Any] | None) -> None:
        """Take the closed-DM users a stored match snapshot names."""
        if snapshot:
            self.closed.update(int(u) for u in snapshot.get(SNAPSHOT_KEY, ()))

    def snapshot_part(self, users: Iterable[int]) -> list[int]:
        """The value to store under :data:`SNAPSHOT_KEY` for a match with these players."""
        return sorted(u for u in users if u in self.closed)
