"""The storage of one process: the database and its repositories, opened and closed together,
and the scheduled pruning of what only grows."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from storage.db import Database
from storage.direct import DmClosedRepo, PrivateSendsRepo, QuietPlayersRepo
from storage.foundcache import FoundCache
from storage.operations import SqliteOperations
from storage.ratings import RatingsRepo
from storage.repositories import (
    PRUNE_BATCH,
    ActionLogRepo,
    GuildSettingsRepo,
    MatchRepo,
    TimerRepo,
)
from storage.rows import PruneReport
from storage.units import Units
from storage.votes import VotesRepo

DAY = 86_400.0


class Storage(SqliteOperations):
    """The database and its repositories, opened and closed together; the SQLite backend of
    :class:`storage.port.Store` (its whole operations: :class:`SqliteOperations`)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.matches = MatchRepo(db)
        self.actions = ActionLogRepo(db)
        self.timers = TimerRepo(db)
        self.guilds = GuildSettingsRepo(db)
        self.dm_closed = DmClosedRepo(db)
        self.quiet = QuietPlayersRepo(db)
        self.votes = VotesRepo(db)
        self.private_sends = PrivateSendsRepo(db)
        #: finished games' results, ratings and their history (storage/ratings.py)
        self._ratings = RatingsRepo(db)
        #: a move's reads and writes, one trip to SQLite each (storage/units.py)
        self.units = Units(db)
        self.found_cache = FoundCache(db) if db.only_writer else None

    @classmethod
    async def open(cls, path: Path | str, *, writer: bool = False, **options: Any) -> Storage:
        """Open :class:`Database` ``path`` (see :meth:`Database.open` for ``writer`` and the
        other options) with its repositories.

        Raises:
            DatabaseInUse: ``writer`` and another process writes to this file already.
        """
        return cls(await Database.open(path, writer=writer, **options))

    async def close(self) -> None:
        await self.db.close()

    async def prune(
        self,
        *,
        now: float | None = None,
        lobby_days: float = 7.0,
        match_days: float | None = 30.0,
        dm_days: float | None = 30.0,
        batch: int = PRUNE_BATCH,
    ) -> PruneReport:
        """Delete what only grows and nobody will read again, in short transactions:
        reminders that can no longer fire, lobbies abandoned more than ``lobby_days`` ago,
        matches abandoned during play more than ``match_days`` ago, the votes and sent secret
        decisions of matches no longer running and closed-DM marks older than ``dm_days`` (``None``: keep them).
        Finished matches and their logs are kept. Safe to run while the bot plays.
        """
        now = time.time() if now is None else now
        reminders = lobbies = matches = 0
        while True:
            async with self.db.transaction() as tx:
                n = await self.timers.prune(tx, limit=batch)
            reminders += n
            if n < batch:
                break
        while True:
            async with self.db.transaction() as tx:
                n = await self.matches.prune_abandoned(
                    tx, before=now - lobby_days * DAY, started=False, limit=batch
                )
            lobbies += n
            if n < batch:
                break
        while match_days is not None:
            async with self.db.transaction() as tx:
                n = await self.matches.prune_abandoned(
                    tx, before=now - match_days * DAY, started=True, limit=batch
                )
            matches += n
            if n < batch:
                break
        for repo in (self.votes, self.private_sends):  # what matches no longer running kept
            while True:
                async with self.db.transaction() as tx:
                    if not await repo.prune(tx, limit=batch):
                        break
        dms = 0
        while dm_days is not None:
            async with self.db.transaction() as tx:
                n = await self.dm_closed.prune(tx, before=now - dm_days * DAY, limit=batch)
            dms += n
            if n < batch:
                break
        return PruneReport(reminders=reminders, lobbies=lobbies, matches=matches, dm_marks=dms)
