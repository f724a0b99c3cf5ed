"""Several bot processes (issue 32): the shard settings read and checked, and the bot built on
the shards a process runs (discord.py's AutoShardedBot), unsharded without them."""

from __future__ import annotations

from pathlib import Path

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


async def test_each_process_recovers_its_own_shards_matches(tmp_path: Path) -> None:
    """At start, a process re-posts the boards of its shards' servers only (another process
    recovers the rest); Discord's rule: shard = (guild_id >> 22) % shard_count."""
    from app.matches import MatchOptions, MatchService
    from app.store import on_shards

    svc = await MatchService.open(tmp_path / "s.sqlite3", renderer=None, animator=None)
    try:
        guilds = {shard: (shard << 22) + 17 for shard in range(4)}
        for shard, guild in guilds.items():
            await svc.create_lobby(guild, 100 + shard, 1, "Ann", MatchOptions(), seed=shard)
            await svc.join(100 + shard, 2, "Bob")
            await svc.start(100 + shard, 1)
        assert len(await svc.active_matches()) == 4
        svc.store.serves = on_shards((1, 3), 4)
        assert sorted(o.guild_id for o in await svc.active_matches()) == [guilds[1], guilds[3]]
        assert on_shards((0,), 4)(0)  # the local table and DMs: shard 0
    finally:
        await svc.close()
