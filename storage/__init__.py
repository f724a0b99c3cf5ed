"""SQLite persistence (aiosqlite): connection, migrations and the repositories.

Nothing outside this package writes SQL (ARCHITECTURE.md decision 10).
"""

from storage.db import Database, database_path
from storage.migrate import MigrationError, migrate
from storage.repositories import (
    ActionLogRepo,
    ActionRow,
    AlreadySeated,
    ChannelBusy,
    GuildSettingsRepo,
    MatchRepo,
    MatchRow,
    NewAction,
    SeatRow,
    StaleVersion,
    Storage,
    StorageError,
    TimerRepo,
    TimerRow,
)

__all__ = [
    "ActionLogRepo",
    "ActionRow",
    "AlreadySeated",
    "ChannelBusy",
    "Database",
    "GuildSettingsRepo",
    "MatchRepo",
    "MatchRow",
    "MigrationError",
    "NewAction",
    "SeatRow",
    "StaleVersion",
    "Storage",
    "StorageError",
    "TimerRepo",
    "TimerRow",
    "database_path",
    "migrate",
]
