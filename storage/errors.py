"""The storage layer's own errors: the service turns each into a player message or one log line.

No raw ``sqlite3`` error about locking leaves :mod:`storage`: a write that cannot get the
database file's write lock in time is :class:`StorageBusy`.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class of storage failures the service turns into player messages."""


class ChannelBusy(StorageError):
    """A lobby or active match already exists in this channel."""


class AlreadySeated(StorageError):
    """The user already has a seat in this match."""


class StaleVersion(StorageError):
    """The match moved on since it was read (compare-and-set on ``version`` failed)."""


class LobbyFull(StorageError):
    """The lobby has no free seat (checked in the same transaction as the insert)."""

    def __init__(self, seated: int, capacity: int) -> None:
        super().__init__(f"the lobby is full ({seated} of {capacity} seats taken)")
        self.seated = seated
        self.capacity = capacity


class LobbyClosed(StorageError):
    """The match is no longer a lobby (it started or was abandoned meanwhile)."""


class StorageBusy(StorageError):
    """Another process held the database's write lock for longer than a write may wait.

    The write was not made (its transaction rolled back); trying again later is safe.
    """


class DatabaseUnavailable(StorageError):
    """The database server cannot be used: not reachable, the database missing, the password
    refused. ``str()`` is one line for the terminal (no password in it)."""


class DatabaseInUse(StorageError):
    """Another process already writes to this database file (the writer lock is taken).

    ``str()`` is one line meant for the terminal of the process that refused to start.
    """
