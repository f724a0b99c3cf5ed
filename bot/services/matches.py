"""MatchService: the only place that does load -> apply -> save -> render (ARCHITECTURE.md §5.6).

Both front ends — the Discord cogs and the local console — call this service with primitive ids
(guild, channel, user) and get back plain result objects; they never touch the engine's state or SQL.

INTERFACE CONTRACT (shared by the storage/service and the Discord engineers): keep these names and
signatures; add to them freely, but change them only together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import Action, PublicView
from engine.carcassonne.events import Event


class ServiceError(Exception):
    """A user-caused problem the front end shows as a friendly ephemeral message.

    ``key`` picks the localised text (bot/i18n.py); ``params`` fill it in; ``str()`` is English.
    """

    def __init__(self, key: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


# keys used with ServiceError (each has an English and a Spanish text in bot/i18n.py)
ERR_MATCH_EXISTS = "match_exists"  # a lobby or match already runs in this channel (params: url?)
ERR_NO_MATCH = "no_match"  # nothing running in this channel
ERR_NOT_SEATED = "not_seated"  # user is not a player of this match
ERR_NOT_YOUR_TURN = "not_your_turn"  # params: current_user_id
ERR_LOBBY_FULL = "lobby_full"
ERR_ALREADY_JOINED = "already_joined"
ERR_NOT_IN_LOBBY = "not_in_lobby"
ERR_NOT_HOST = "not_host"
ERR_TOO_FEW = "too_few_players"
ERR_STALE = "stale"  # params: message_url (link to the current turn message) if known
ERR_ILLEGAL = "illegal"  # params: reason (engine's player-readable text, English)
ERR_NO_UNDO = "no_undo"
ERR_ALREADY_STARTED = "already_started"


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """Lobby options (RULES.md §0.3)."""

    players: int = 2  # seats wanted (2–6); start is allowed with >= 2 joined
    farm_scoring: str = "per_farm"  # or "city_supply_1st_ed"
    tiny_city: int = 2  # or 4
    reminder_minutes: int = 0  # 0 = no turn reminders
    random_seats: bool = True  # shuffle seat order at start (else join order)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    user_id: int  # 0 for a local random-move seat
    name: str


@dataclass(frozen=True, slots=True)
class LobbyInfo:
    match_id: int
    channel_id: int
    host_id: int
    options: MatchOptions
    players: tuple[SeatInfo, ...]  # joined so far, in join order
    status: str  # "lobby" | "active" | "finished" | "abandoned"
    message_id: int | None = None  # the lobby message, if the front end stored it


@dataclass(frozen=True, slots=True)
class Outcome:
    """What changed after a successful call; the front end turns it into messages."""

    match_id: int
    version: int
    view: PublicView
    seats: tuple[SeatInfo, ...]
    events: tuple[Event, ...] = ()
    png: bytes | None = None  # the board after the change (public view), when it changed
    finished: bool = False
    record_json: str | None = None  # the game record, when finished
    animation: bytes | None = None  # replay GIF, when finished
    turn_message_id: int | None = None  # the current turn message, if stored
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def current_user_id(self) -> int:
        return self.seats[self.view.current].user_id


class MatchService:
    """See module docstring. Constructed once per process with a storage backend."""

    async def create_lobby(
        self, guild_id: int, channel_id: int, host_id: int, host_name: str, options: MatchOptions
    ) -> LobbyInfo:
        raise NotImplementedError

    async def join(self, channel_id: int, user_id: int, name: str) -> LobbyInfo:
        raise NotImplementedError

    async def leave(self, channel_id: int, user_id: int) -> LobbyInfo:
        raise NotImplementedError

    async def lobby(self, channel_id: int) -> LobbyInfo:
        raise NotImplementedError

    async def start(self, channel_id: int, user_id: int) -> Outcome:
        raise NotImplementedError

    async def submit(
        self,
        channel_id: int,
        user_id: int,
        actions: list[Action],
        expected_version: int | None = None,
    ) -> Outcome:
        """Apply one or more actions atomically (e.g. place + deploy from one slash command):
        all are applied and stored in one transaction, or none (ServiceError ERR_ILLEGAL)."""
        raise NotImplementedError

    async def undo(self, channel_id: int, user_id: int) -> Outcome:
        """Take back your own placement while you are still in the deploy step."""
        raise NotImplementedError

    async def resign(self, channel_id: int, user_id: int) -> Outcome:
        raise NotImplementedError

    async def abandon(self, channel_id: int, user_id: int, *, can_manage: bool) -> LobbyInfo:
        raise NotImplementedError

    async def current(self, channel_id: int, *, render: bool = True) -> Outcome:
        """The match in this channel as it stands (board PNG included when ``render``)."""
        raise NotImplementedError

    async def set_turn_message(self, match_id: int, version: int, message_id: int) -> None:
        raise NotImplementedError

    async def active_matches(self) -> list[Outcome]:
        """Every active match, for restart recovery (re-post boards that were not posted)."""
        raise NotImplementedError

    async def due_reminders(self, now: float) -> list[tuple[int, int, int]]:
        """(match_id, channel_id, user_id) whose turn reminder is due; marks them sent."""
        raise NotImplementedError
