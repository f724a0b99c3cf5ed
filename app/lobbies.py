"""The lobby of either game: opening a table (one open match per channel, across both games),
joining, leaving, the host's options, abandoning, and the checks before a start.

A collaborator of both game services (:class:`~app.base.GameService`); what differs by game
(its options type, its checks, its colours, how many must join) is given to it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Generic

from app.errors import (
    ERR_ALREADY_JOINED,
    ERR_ALREADY_STARTED,
    ERR_LOBBY_FULL,
    ERR_MATCH_EXISTS,
    ERR_NO_MATCH,
    ERR_NOT_HOST,
    ERR_NOT_IN_LOBBY,
    ERR_TOO_FEW,
    ServiceError,
    illegal,
    message_url,
)
from app.store import MatchStore
from app.types import LobbyInfo, Opts, SeatInfo
from engine.core.messages import Phrase
from engine.core.rng import Rng
from storage import AlreadySeated, ChannelBusy, MatchRow, SeatRow
from storage.errors import LobbyClosed, LobbyFull
from storage.repositories import OPEN_STATUSES

#: mixed into the match seed to shuffle the seat order (not the tile order)
SEAT_SALT = 0x5EA75EA7


class Lobbies(Generic[Opts]):
    """The lobbies of one game's matches (see the module docstring)."""

    def __init__(
        self,
        store: MatchStore[Any],
        *,
        options_from_json: Callable[[dict[str, Any]], Opts],
        validate: Callable[[Opts], None],
        colours: Sequence[str] = (),
        min_players: int = 2,
    ) -> None:
        self.store = store
        self.storage = store.storage
        self.options_from_json = options_from_json
        self.validate = validate
        self.colours = tuple(colours)
        self.min_players = min_players

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: Opts,
        *,
        seed: int,
    ) -> LobbyInfo[Opts]:
        """Open a lobby in a channel with the host as its first player.

        Raises:
            ServiceError: ERR_MATCH_EXISTS (params: url of its message if known, game),
                ERR_ILLEGAL.
        """
        self.validate(options)
        game = self.store.game
        try:
            match_id = await self.storage.create_lobby(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                host_name=host_name,
                options=options.to_json(),
                seed=seed,
                game=game,
            )
        except ChannelBusy:
            row = await self.storage.open_match(channel_id)
            url = None
            if row is not None:
                msg_id = row.turn_message_id if row.status == "active" else row.lobby_message_id
                url, game = message_url(row.guild_id, channel_id, msg_id), row.game
            raise ServiceError(
                ERR_MATCH_EXISTS, "A match is already open in this channel.", url=url, game=game
            ) from None
        return await self.info(match_id)

    async def join(self, channel_id: int, user_id: int, name: str) -> LobbyInfo[Opts]:
        """Raises:
        ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_ALREADY_JOINED, ERR_LOBBY_FULL.
        """
        async with self.in_lobby(channel_id) as (row, seats):
            if any(s.user_id == user_id for s in seats):
                raise ServiceError(ERR_ALREADY_JOINED, "You have already joined this match.")
            await self._seat(row.id, user_id, name)
        return await self.info(row.id)

    async def add_program(
        self, channel_id: int, user_id: int, controller: str, name: str
    ) -> LobbyInfo[Opts]:
        """The host seats a program (an AI: ``controller`` is its seat's ``ai:<level>``) named
        ``name`` with ``{n}`` its number; it gets the next free user id below zero.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_LOBBY_FULL.
        """
        async with self.in_lobby(channel_id) as (row, seats):
            self.require_host(row, user_id)
            taken = {s.user_id for s in seats}
            program = next(-n for n in range(1, len(seats) + 2) if -n not in taken)
            await self._seat(row.id, program, name.format(n=-program), controller)
        return await self.info(row.id)

    async def _seat(
        self, match_id: int, user_id: int, name: str, controller: str | None = None
    ) -> None:
        """Seat a player (or a program) in the lobby: the capacity check and the insert are one
        transaction (two processes, one seat)."""
        try:
            await self.storage.join_lobby(
                match_id,
                user_id,
                name,
                capacity=lambda o: self.options_from_json(o).players,
                controller=controller,
            )
        except AlreadySeated:
            raise ServiceError(ERR_ALREADY_JOINED, "You have already joined this match.") from None
        except LobbyFull as e:
            raise ServiceError(ERR_LOBBY_FULL, "This match is full.", players=e.capacity) from None
        except LobbyClosed:
            raise ServiceError(ERR_ALREADY_STARTED, "The match has already started.") from None

    async def remove_program(self, channel_id: int, user_id: int) -> LobbyInfo[Opts]:
        """The host takes the last program seat added out of the lobby.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_NOT_IN_LOBBY
                (no program seat).
        """
        async with self.in_lobby(channel_id) as (row, seats):
            self.require_host(row, user_id)
            programs = [s for s in seats if s.user_id <= 0]
            if not programs:
                raise ServiceError(ERR_NOT_IN_LOBBY, "There is no AI seat in this lobby.")
            await self.storage.remove_seats(row.id, [programs[-1].user_id])
        return await self.info(row.id)

    async def leave(self, channel_id: int, user_id: int) -> LobbyInfo[Opts]:
        """Leave a lobby. When the host leaves, the next player to have joined becomes host;
        when the last player leaves, the lobby is abandoned (status ``abandoned``).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED (resign instead), ERR_NOT_IN_LOBBY.
        """
        async with self.in_lobby(channel_id) as (row, seats):
            if not any(s.user_id == user_id for s in seats):
                raise ServiceError(ERR_NOT_IN_LOBBY, "You are not in this lobby.")
            rest = [s for s in seats if s.user_id != user_id and s.user_id > 0]
            programs = [s for s in seats if s.user_id <= 0]
            # no person left: the AI seats go with the table
            await self.storage.remove_seats(
                row.id,
                [user_id, *(p.user_id for p in programs)] if not rest else [user_id],
                abandon=not rest,
                new_host=rest[0].user_id if rest and row.host_id == user_id else None,
            )
        return await self.info(row.id)

    async def change_options(
        self, channel_id: int, user_id: int, change: Callable[[Opts], Opts]
    ) -> LobbyInfo[Opts]:
        """The host changes the lobby's options (``change`` maps the old ones to the new).

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_ILLEGAL (the new
                options are invalid, e.g. fewer seats than players joined).
        """
        async with self.in_lobby(channel_id) as (row, seats):
            self.require_host(row, user_id)
            options = change(self.options_from_json(row.options))
            self.validate(options)
            if options.players < len(seats):
                raise illegal(Phrase("svc.joined_already", n=len(seats)))
            await self.storage.set_lobby_options(row.id, options.to_json())
        return await self.info(row.id)

    async def of_channel(self, channel_id: int) -> LobbyInfo[Opts]:
        """The lobby (or running match) of this channel. Raises ServiceError ERR_NO_MATCH."""
        row = await self.store.open_row(channel_id)
        return await self.info(row.id)

    async def abandon(self, channel_id: int, user_id: int, *, can_manage: bool) -> LobbyInfo[Opts]:
        """End the lobby or match without a result (the host, or a member who can manage the
        channel). Raises ServiceError ERR_NO_MATCH, ERR_NOT_HOST."""
        row = await self.store.open_row(channel_id)
        async with self.store.lock(row.id):
            row = await self.store.reread(row.id)
            if row.status not in OPEN_STATUSES:
                raise ServiceError(ERR_NO_MATCH, "No match is running in this channel.")
            if not can_manage:
                self.require_host(row, user_id)
            await self.storage.abandon_match(row.id)
        return await self.info(row.id)

    @asynccontextmanager
    async def starting(
        self, channel_id: int, user_id: int
    ) -> AsyncIterator[tuple[MatchRow, list[SeatRow]]]:
        """Hold the match's lock while the host starts it: yields the lobby row and its seats.

        Raises:
            ServiceError: ERR_NO_MATCH, ERR_ALREADY_STARTED, ERR_NOT_HOST, ERR_TOO_FEW.
        """
        async with self.in_lobby(channel_id) as (row, seats):
            self.require_host(row, user_id)
            if len(seats) < self.min_players:
                raise ServiceError(
                    ERR_TOO_FEW,
                    f"At least {self.min_players} players are needed to start.",
                    minimum=self.min_players,
                )
            yield row, seats

    @asynccontextmanager
    async def in_lobby(self, channel_id: int) -> AsyncIterator[tuple[MatchRow, list[SeatRow]]]:
        """The channel's lobby, re-read under its lock (raises ERR_ALREADY_STARTED after start)."""
        row = await self.store.open_row(channel_id)
        async with self.store.lock(row.id):
            row = await self.store.reread(row.id)
            if row.status != "lobby":
                raise ServiceError(ERR_ALREADY_STARTED, "The match has already started.")
            yield row, await self.storage.seats(row.id)

    @staticmethod
    def seat_order(row: MatchRow, seats: Sequence[SeatRow], *, shuffle: bool) -> list[SeatRow]:
        """The seat order at start: shuffled from the match seed, or the join order."""
        order = list(seats)
        return Rng(row.seed ^ SEAT_SALT).shuffled(order) if shuffle else order

    @staticmethod
    def require_host(row: MatchRow, user_id: int) -> None:
        if row.host_id != user_id:
            raise ServiceError(ERR_NOT_HOST, "Only the host may do that.", host_id=row.host_id)

    async def info(self, match_id: int) -> LobbyInfo[Opts]:
        """The lobby (or match) ``match_id`` with its players and options."""
        row = await self.store.reread(match_id)
        seats = await self.storage.seats(match_id)
        colours = self.colours
        return LobbyInfo(
            match_id=row.id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            options=self.options_from_json(row.options),
            players=tuple(
                SeatInfo(
                    s.seat if s.seat is not None else i,
                    s.user_id,
                    s.name,
                    resigned=s.resigned,
                    colour=colours[s.seat % len(colours)] if colours and s.seat is not None else "",
                    controller=s.controller,
                )
                for i, s in enumerate(seats)
            ),
            status=row.status,
            message_id=row.lobby_message_id,
            guild_id=row.guild_id,
        )
