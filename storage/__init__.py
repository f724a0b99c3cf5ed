"""SQLite persistence (aiosqlite): connection, migrations, the repositories and their rules.

Nothing outside this package writes SQL (ARCHITECTURE.md decision 10).
"""

from storage.awaits import finish
from storage.db import SYNCHRONOUS, Database, database_path, is_busy
from storage.direct import DmClosedRepo
from storage.errors import (
    AlreadySeated,
    ChannelBusy,
    DatabaseInUse,
    DatabaseUnavailable,
    LobbyClosed,
    LobbyFull,
    StaleVersion,
    StorageBusy,
    StorageError,
)
from storage.lock import WriterLock, lock_path
from storage.migrate import MigrationError, migrate
from storage.ratings import (
    GLOBAL,
    GameResult,
    RatingChange,
    RatingRow,
    RatingsRepo,
    ResultSeat,
)
from storage.repositories import ActionLogRepo, GuildSettingsRepo, MatchRepo, TimerRepo
from storage.rows import (
    ActionRow,
    LeaveResult,
    MatchRow,
    NewAction,
    PruneReport,
    SeatRow,
    TimerRow,
)
from storage.snapshots import compact_snapshot, snapshot_names
from storage.store import Storage
from storage.units import MoveCommit, Reminder, Units

__all__ = [
    "ResultSeat",
    "RatingsRepo",
    "RatingRow",
    "RatingChange",
    "GameResult",
    "GLOBAL",
    "SYNCHRONOUS",
    "ActionLogRepo",
    "ActionRow",
    "AlreadySeated",
    "ChannelBusy",
    "Database",
    "DatabaseInUse",
    "DatabaseUnavailable",
    "DmClosedRepo",
    "GuildSettingsRepo",
    "LeaveResult",
    "LobbyClosed",
    "LobbyFull",
    "MatchRepo",
    "MatchRow",
    "MigrationError",
    "MoveCommit",
    "NewAction",
    "PruneReport",
    "Reminder",
    "SeatRow",
    "StaleVersion",
    "Storage",
    "StorageBusy",
    "StorageError",
    "TimerRepo",
    "TimerRow",
    "Units",
    "WriterLock",
    "compact_snapshot",
    "database_path",
    "finish",
    "is_busy",
    "lock_path",
    "migrate",
    "snapshot_names",
]
