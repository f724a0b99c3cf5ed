"""Starting the bot with a token (issue 14): each log line once, no voice warnings, and one line
— not a traceback — when Discord cannot be reached or refuses the token. No network is used:
the login request itself is replaced by the failure."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import discord
import pytest

from bot import logs
from cli.run import run


@pytest.fixture
def clean_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield
    finally:
        for h in list(root.handlers):
            if h not in handlers:
                root.removeHandler(h)
        root.setLevel(level)


def _start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: BaseException) -> int:
    async def login(self: object, token: str) -> None:
        raise failure

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", login)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "bot.sqlite3"))
    monkeypatch.setenv("LOG_LEVEL", "INFO")
    return run(argparse.Namespace(env_file=tmp_path / "no.env", out=tmp_path / "out"))


@pytest.mark.parametrize(
    "failure",
    [
        aiohttp.ClientConnectionError("Cannot connect to host discord.com:443"),
        aiohttp.ServerDisconnectedError(),
        TimeoutError(),
    ],
    ids=["no-connection", "disconnected", "timeout"],
)
def test_no_network_is_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    clean_logging: None,
    failure: BaseException,
) -> None:
    code = _start(tmp_path, monkeypatch, failure)
    out, err = capsys.readouterr()
    said = out + err
    assert code == 1
    assert "Traceback" not in said and 'File "' not in said, said
    errors = [line for line in said.splitlines() if line.startswith("carcabot:")]
    assert len(errors) == 1 and "cannot reach Discord" in errors[0], said
    assert said.count("starting the Discord bot") == 1, "every log line prints once"
    assert "voice will NOT be supported" not in said


def test_a_refused_token_is_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    clean_logging: None,
) -> None:
    code = _start(tmp_path, monkeypatch, discord.LoginFailure("Improper token has been passed."))
    out, err = capsys.readouterr()
    said = out + err
    assert code == 1 and "Traceback" not in said
    assert [x for x in said.splitlines() if x.startswith("carcabot:")] == [
        "carcabot: Discord refused the token: check DISCORD_TOKEN (the bot's token in the "
        "developer portal)"
    ]
    assert "not-a-real-token" not in said


def test_an_unusable_database_path_is_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    clean_logging: None,
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(blocker / "bot.sqlite3"))
    code = run(argparse.Namespace(env_file=tmp_path / "no.env", out=tmp_path / "out"))
    said = "".join(capsys.readouterr())
    errors = [x for x in said.splitlines() if x.startswith("carcabot:")]
    assert code == 1 and len(errors) == 1 and "Traceback" not in said
    assert "a-file" in errors[0] and "Discord" not in errors[0]


def test_setting_logging_up_twice_keeps_one_handler(clean_logging: None) -> None:
    before = len(logging.getLogger().handlers)
    logs.setup(logging.INFO)
    logs.setup(logging.DEBUG)
    assert len(logging.getLogger().handlers) == before + 1
    assert logging.getLogger().level == logging.DEBUG


def test_a_reconnect_is_logged_in_one_line(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("discord.client")
    logger.addFilter(logs.OneLineReconnect())
    try:
        try:
            raise OSError("Network is unreachable")
        except OSError:
            logger.exception("Attempting a reconnect in %.2fs", 1.5)
    finally:
        logger.filters.clear()
    (record,) = [r for r in caplog.records if r.name == "discord.client"]
    assert record.exc_info is None
    assert (
        record.getMessage() == "Attempting a reconnect in 1.50s (OSError: Network is unreachable)"
    )


def test_a_failed_start_gives_the_collector_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_logging: None
) -> None:
    """run_bot freezes what survives full collections (bot/gcpause.py) only while it runs."""
    import gc

    from bot import gcpause

    _start(tmp_path, monkeypatch, aiohttp.ClientConnectionError("no network"))
    assert gc.get_freeze_count() == 0 and gcpause._freeze_promoted not in gc.callbacks


def test_the_bot_shortens_the_interpreter_switches_only_while_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_logging: None
) -> None:
    """While run_bot runs, SQLite's threads get the interpreter within 1 ms (bot/eventloop.py);
    a stopped bot gives the process its interval back."""
    import sys

    from bot import eventloop

    seen: list[float] = []

    async def login(self: object, token: str) -> None:
        seen.append(sys.getswitchinterval())
        raise aiohttp.ClientConnectionError("no network")

    before = sys.getswitchinterval()
    monkeypatch.setattr(discord.http.HTTPClient, "static_login", login)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "bot.sqlite3"))
    run(argparse.Namespace(env_file=tmp_path / "no.env", out=tmp_path / "out"))
    assert seen == [eventloop.SWITCH_INTERVAL_S] != [before]
    assert sys.getswitchinterval() == before


def test_an_autocomplete_answered_too_late_is_one_warning_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Past capacity an autocomplete's choices can reach Discord after its 3 s: discord.py's
    traceback at ERROR becomes one warning; any other autocomplete failure keeps its own."""
    logger = logging.getLogger("discord.app_commands.tree")
    logger.addFilter(logs.OneLineLateAutocomplete())

    class _Response:
        status = 404
        reason = "Not Found"

    try:
        for error in (
            discord.NotFound(_Response(), {"code": 10062, "message": "Unknown interaction"}),
            ValueError("a real bug"),
        ):
            try:
                raise error
            except Exception:
                logger.exception("Ignoring exception in autocomplete for %r", "carcassonne place")
    finally:
        logger.filters.clear()
    late, bug = [r for r in caplog.records if r.name == "discord.app_commands.tree"]
    assert late.levelno == logging.WARNING and late.exc_info is None
    assert late.getMessage() == (
        "Ignoring exception in autocomplete for 'carcassonne place': "
        "answered after Discord's 3 s (10062)"
    )
    assert bug.levelno == logging.ERROR and bug.exc_info is not None
