"""Several bot processes (issue 32): the shard settings read and checked, and the bot built on
the shards a process runs (discord.py's AutoShardedBot), unsharded without them."""

from __future__ import annotations

import pytest

from app.settings import Settings, SettingsError, parse_shards
from bot.app import CarcBot, ShardedCarcBot, make_bot
from cli.main import build_parser


@pytest.mark.parametrize(
    ("ids", "count", "expected"),
    [
        (None, None, (None, None)),
        ("0-3", "8", ((0, 1, 2, 3), 8)),
        ("0,2, 4-5", "8", ((0, 2, 4, 5), 8)),
        (None, "2", ((0, 1), 2)),
    ],
)
def test_shard_settings(ids: str | None, count: str | None, expected: object) -> None:
    assert parse_shards(ids, count) == expected


@pytest.mark.parametrize(
    ("ids", "count", "words"),
    [("0-3", None, "SHARD_COUNT"), ("0-8", "8", "0 to 7"), ("a", "8", "ranges"), (None, "0", "1 or more")],
)  # fmt: skip
def test_unusable_shard_settings_are_named(ids: str | None, count: str | None, words: str) -> None:
    with pytest.raises(SettingsError, match=words):
        parse_shards(ids, count)


def test_settings_from_the_environment() -> None:
    s = Settings.from_env(
        {"SHARD_IDS": "4-7", "SHARD_COUNT": "8", "DATABASE_URL": "postgresql://u:pw@db/carca"}
    )
    assert s.shard_ids == (4, 5, 6, 7) and s.shard_count == 8
    assert s.database_target == "postgresql://u:pw@db/carca" and "pw" not in repr(s)
    with pytest.raises(SettingsError, match="DATABASE_URL"):
        Settings.from_env({"DATABASE_URL": "mysql://db"})
    assert Settings.from_env({}).database_target == Settings().database_path


async def test_the_bot_runs_the_shards_it_is_given() -> None:
    bot = make_bot(None, shard_ids=(2, 3), shard_count=4, background_tasks=False)
    # never logged in: nothing to close (discord.py's sharded close needs a started client)
    assert isinstance(bot, ShardedCarcBot)
    assert bot.shard_ids == [2, 3] and bot.shard_count == 4
    plain = make_bot(None, background_tasks=False)
    try:
        assert type(plain) is CarcBot and plain.shard_count is None
    finally:
        await plain.close()


def test_run_takes_the_shards_on_the_command_line() -> None:
    args = build_parser().parse_args(["run", "--shards", "0-3", "--shard-count", "8"])
    assert args.shards == "0-3" and args.shard_count == 8
