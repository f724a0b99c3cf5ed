"""Process settings, read once from the environment (and ``.env``, loaded by cli/run.py).

The token is kept out of ``repr`` so that logging the settings never leaks it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATABASE = Path("data/carcabot.sqlite3")
DEFAULT_LOCAL_DATABASE = Path("data/local.sqlite3")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(ValueError):
    """A setting has a value that cannot be used; the message names it."""


@dataclass(frozen=True, slots=True)
class Settings:
    """``DISCORD_TOKEN``, ``DATABASE_PATH``, ``DEV_GUILD_ID``, ``LOG_LEVEL``,
    ``LOCAL_DATABASE_PATH`` (the console table's own database), ``DRAW_WORKERS`` (processes
    that draw the boards; default one per core, 0 = threads of the bot process),
    ``AI_WORKERS`` (processes where AI players think; default half the cores, 0 = threads),
    ``DATABASE_URL`` (``postgresql://…``: PostgreSQL instead of the SQLite file, shared by
    several processes), ``SHARD_IDS`` / ``SHARD_COUNT`` (this process runs those of Discord's
    shards: ``0-3`` of ``8``), ``CARCABOT_EVENT_LOOP`` (``uvloop`` or ``asyncio``; empty: uvloop
    where installed, see bot/eventloop.py)."""

    discord_token: str | None = field(default=None, repr=False)
    database_path: Path = DEFAULT_DATABASE
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    local_database_path: Path = DEFAULT_LOCAL_DATABASE
    draw_workers: int = field(default_factory=lambda: default_draw_workers())
    ai_workers: int = field(default_factory=lambda: default_ai_workers())
    database_url: str | None = field(default=None, repr=False)
    #: the shards this process connects (None: all of them, unsharded) of ``shard_count``
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    #: the bot's event loop: "uvloop", "asyncio" or "" (the best installed)
    event_loop: str = ""

    @property
    def database_target(self) -> Path | str:
        """The database the bot serves: ``DATABASE_URL`` when set, else ``DATABASE_PATH``."""
        return self.database_url or self.database_path

    @property
    def has_token(self) -> bool:
        return bool(self.discord_token)

    @property
    def log_level_number(self) -> int:
        return int(getattr(logging, self.log_level))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings; empty values count as unset.

        Raises:
            SettingsError: for a DEV_GUILD_ID that is not a number or an unknown LOG_LEVEL.
        """
        src = os.environ if env is None else env

        def get(name: str) -> str | None:
            value = src.get(name, "").strip()
            return value or None

        guild = get("DEV_GUILD_ID")
        if guild is not None and not guild.isdigit():
            raise SettingsError("DEV_GUILD_ID must be a server id (a number)")
        workers = get("DRAW_WORKERS")
        if workers is not None and not workers.isdigit():
            raise SettingsError("DRAW_WORKERS must be a number of processes (0 = threads)")
        thinkers = get("AI_WORKERS")
        if thinkers is not None and not thinkers.isdigit():
            raise SettingsError("AI_WORKERS must be a number of processes (0 = threads)")
        level = (get("LOG_LEVEL") or "INFO").upper()
        if level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        url = get("DATABASE_URL")
        if url is not None and not url.startswith(("postgresql://", "postgres://")):
            raise SettingsError("DATABASE_URL must be a postgresql:// URL")
        shard_ids, shard_count = parse_shards(get("SHARD_IDS"), get("SHARD_COUNT"))
        loop = (get("CARCABOT_EVENT_LOOP") or "").lower()
        if loop not in ("", "uvloop", "asyncio"):
            raise SettingsError("CARCABOT_EVENT_LOOP must be uvloop or asyncio")
        return cls(
            event_loop=loop,
            discord_token=get("DISCORD_TOKEN"),
            database_url=url,
            shard_ids=shard_ids,
            shard_count=shard_count,
            database_path=Path(get("DATABASE_PATH") or DEFAULT_DATABASE),
            dev_guild_id=int(guild) if guild is not None else None,
            log_level=level,
            local_database_path=Path(get("LOCAL_DATABASE_PATH") or DEFAULT_LOCAL_DATABASE),
            draw_workers=int(workers) if workers is not None else default_draw_workers(),
            ai_workers=int(thinkers) if thinkers is not None else default_ai_workers(),
        )


def parse_shards(ids: str | None, count: str | None) -> tuple[tuple[int, ...] | None, int | None]:
    """``SHARD_IDS`` (``0-3``, ``0,2,4`` or both: ``0-3,6``) and ``SHARD_COUNT`` read and
    checked together: every id below the count, ids only with a count.

    Raises:
        SettingsError: for anything else, naming the setting.
    """
    if count is None:
        if ids is not None:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (how many shards in all)")
        return None, None
    if not count.isdigit() or int(count) < 1:
        raise SettingsError("SHARD_COUNT must be a number of shards (1 or more)")
    total = int(count)
    if ids is None:
        return tuple(range(total)), total
    out: list[int] = []
    for part in ids.replace(" ", "").split(","):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise SettingsError("SHARD_IDS must be shard numbers or ranges: 0-3 or 0,2,4")
        out.extend(range(int(first), int(last or first) + 1))
    if not out or any(i >= total for i in out):
        raise SettingsError(f"SHARD_IDS must name shards from 0 to {total - 1}")
    return tuple(sorted(set(out))), total


def default_ai_workers() -> int:
    """Half the cores (at least one, at most 4) for AI players' searches: a table with AI
    seats plays as smoothly as one without, and the pictures keep their workers too."""
    return max(1, min(4, (os.cpu_count() or 1) // 2))


def default_draw_workers() -> int:
    """One drawing process per core (at most 8): the bot process keeps the event loop."""
    return max(1, min(8, os.cpu_count() or 1))
