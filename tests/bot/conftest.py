"""Fixtures shared by the bot tests: the Discord table, and MatchService on a fresh file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.matches import MatchService
from tests.bot.matchservice import open_service
from tests.bot.tiletable import Table, close_table, open_table


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    """The real bot and MatchService on a fresh SQLite file, behind the fake Discord."""
    t = await open_table(tmp_path / "carc.sqlite3")
    try:
        yield t
    finally:
        await close_table(t)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "service.sqlite3"


@pytest.fixture
async def svc(db_path: Path) -> AsyncIterator[MatchService]:
    """MatchService with the tiny renderer and animator on ``db_path``."""
    s = await open_service(db_path)
    try:
        yield s
    finally:
        await s.close()
