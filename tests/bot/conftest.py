"""Fixtures shared by the Discord tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.test_discord_e2e import Table, close_table, open_table


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    """The real bot and MatchService on a fresh SQLite file, behind the fake Discord."""
    t = await open_table(tmp_path / "carc.sqlite3")
    try:
        yield t
    finally:
        await close_table(t)
