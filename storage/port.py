"""The storage port: every whole operation the services ask of a database.

The services (app/) see only this protocol, never a driver type, a connection or a transaction
(issue 32). Each write is one whole operation that is its own transaction, with the checks
that guard it made inside that transaction: a lobby's free seats, its status, a match's
version. Two backends implement it: SQLite (:class:`storage.store.Storage`, the default, one
process) and PostgreSQL (:class:`storage.postgres.PgStorage`, several processes sharing one
server). The contract tests (tests/storage/test_contract.py) run the same checks on both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from storage.ratings import GameResult, Rate, RatingChange, RatingRow
from storage.rows import ActionRow, MatchRow, PruneReport, SeatRow, TimerRow
from storage.units import Found, MoveCommit, Reminder

#: a lobby's seats: a number, or a function of its stored options read in the same transaction
Capacity = int | Callable[[dict[str, Any]], int]


class RatingsStore(Protocol):
    """Finished games' results, the players' ratings and their history."""

    async def apply(self, result: GameResult, rate: Rate) -> bool: ...
    async def pending(self) -> list[GameResult]: ...
    async def result(self, match_id: int) -> GameResult | None: ...
    async def results(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[GameResult]: ...
    async def count(self, *, guild_id: int | None = None, channel_id: int | None = None) -> int: ...
    async def rating(self, scope: int, user_id: int) -> RatingRow | None: ...
    async def top(self, scope: int, *, limit: int, offset: int = 0) -> list[RatingRow]: ...
    async def rated_players(self, scope: int) -> int: ...
    async def changes(self, scope: int, user_id: int, *, limit: int) -> list[RatingChange]: ...
    async def totals(self, user_id: int, guild_id: int) -> tuple[int, int, float]: ...
    async def seconds_per_move(self, user_id: int, guild_id: int) -> float | None: ...
    async def expansion_counts(self, user_id: int, guild_id: int) -> list[tuple[str, int]]: ...


class Store(Protocol):
    """A database behind whole operations (see the module docstring)."""

    @property
    def ratings(self) -> RatingsStore: ...

    @property
    def shared(self) -> bool:
        """Whether other processes use this database too (then nothing a process keeps in
        memory may stand for what is stored: caches are checked, locks taken in the database)."""
        ...

    def match_lock(self, match_id: int) -> AbstractAsyncContextManager[None]:
        """Hold one match against the other processes while a move is computed and stored
        (a no-op when :attr:`shared` is False)."""
        ...

    async def close(self) -> None: ...

    async def prune(
        self,
        *,
        now: float | None = None,
        lobby_days: float = 7.0,
        match_days: float | None = 30.0,
        dm_days: float | None = 30.0,
        batch: int = ...,
    ) -> PruneReport: ...

    # ------------------------------------------------------------------ reads
    async def match(self, match_id: int) -> MatchRow | None: ...
    async def open_match(self, channel_id: int) -> MatchRow | None:
        """The channel's lobby or active match."""
        ...

    async def matches_with_status(self, status: str) -> list[MatchRow]: ...
    async def matches_in_channel(self, channel_id: int, *, limit: int = -1) -> list[MatchRow]:
        """Newest first (all of them when ``limit`` is -1)."""
        ...

    async def seats(self, match_id: int) -> list[SeatRow]: ...
    async def load_match(self, match_id: int) -> Found | None:
        """The match row and its seats, read together."""
        ...

    async def load_open_match(self, channel_id: int) -> Found | None: ...
    async def log_entries(self, match_id: int) -> list[ActionRow]: ...
    async def guild_defaults(self, guild_id: int) -> dict[str, Any]: ...
    async def pending_timers(self, match_id: int) -> list[TimerRow]: ...
    async def next_timer_due(self) -> float | None: ...
    async def is_dm_closed(self, user_id: int) -> bool: ...
    async def dm_closed_among(self, user_ids: list[int]) -> set[int]: ...
    async def quiet_players(self) -> set[int]: ...

    # ------------------------------------------------------------------ lobby writes
    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        seed: int,
        game: str,
    ) -> int:
        """A lobby with its host seated; its id. Raises ChannelBusy."""
        ...

    async def join_lobby(
        self,
        match_id: int,
        user_id: int,
        name: str,
        *,
        capacity: Capacity,
        controller: str | None = None,
    ) -> int:
        """Seat a player if a seat is free; the seats taken now.

        Raises LobbyClosed, AlreadySeated, LobbyFull."""
        ...

    async def remove_seats(
        self,
        match_id: int,
        user_ids: Sequence[int],
        *,
        abandon: bool = False,
        new_host: int | None = None,
    ) -> None:
        """Take players out of a lobby; then abandon it, or hand it to ``new_host``."""
        ...

    async def set_lobby_options(self, match_id: int, options: dict[str, Any]) -> bool: ...
    async def abandon_match(self, match_id: int) -> None:
        """Status ``abandoned``, its pending timers cancelled."""
        ...

    async def start_match(
        self,
        match_id: int,
        *,
        seat_order: Sequence[int],
        setup: dict[str, Any],
        snapshot: dict[str, Any],
        compact: bool = False,
        timers: Sequence[Reminder] = (),
    ) -> None:
        """Lobby -> active with seats given in ``seat_order`` and the first turn's timers.

        Raises StaleVersion (no longer a lobby, or its players changed)."""
        ...

    async def set_lobby_message(self, match_id: int, message_id: int) -> None: ...
    async def set_turn_message(self, match_id: int, version: int, message_id: int) -> bool: ...
    async def put_guild_defaults(self, guild_id: int, defaults: dict[str, Any]) -> None: ...
    async def set_quiet(self, user_id: int, quiet: bool) -> None: ...
    async def note_dm_closed(self, user_id: int, now: float | None = None) -> bool: ...

    # ------------------------------------------------------------------ match writes
    async def commit_move(self, c: MoveCommit) -> Found:
        """One move, compare-and-set on the version. Raises StaleVersion."""
        ...

    async def set_controller(self, match_id: int, user_id: int, controller: str | None) -> bool: ...

    async def add_vote(self, match_id: int, target_id: int, version: int, voter_id: int) -> int:
        """``voter_id`` votes (once) to hand ``target_id``'s seat to an AI at match version
        ``version``; how many have voted so. The match's votes of other versions go."""
        ...

    async def clear_votes(self, match_id: int, target_id: int) -> None:
        """The votes against ``target_id`` in the match are spent (their seat was handed)."""
        ...

    async def claim_private_sends(
        self, match_id: int, sends: Sequence[tuple[int, str]]
    ) -> set[tuple[int, str]]:
        """Mark ``(user, decision key)`` pairs of the match as sent by direct message; the
        pairs not marked before, which the caller sends (each once, whatever process)."""
        ...

    async def replace_timers(self, match_id: int, timers: Sequence[Reminder]) -> None:
        """Every pending timer of the match replaced by ``timers``."""
        ...

    async def claim_due_timers(
        self, now: float, game: str | None = None
    ) -> list[tuple[TimerRow, int]]:
        """Every unsent timer of an active match due at ``now``, claimed in the same
        transaction (by one process), with its channel id: a reminder marked sent, a move
        deadline leased until :meth:`finish_timer` (due again if its claimer died)."""
        ...

    async def finish_timer(self, match_id: int, kind: str, version: int) -> None:
        """A leased timer of ``match_id`` set at ``version`` was dealt with: never again."""
        ...
