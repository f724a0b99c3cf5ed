"""``carcabot sync``: what it registers with Discord (recorded, no network) and its refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import CarcBot
from cli.main import main
from tests.fakediscord import GUILD_ID, FakeDiscord


async def test_sync_registers_the_localised_group_globally_and_per_guild() -> None:
    bot = CarcBot(None, background_tasks=False)
    fake = FakeDiscord(bot)
    await fake.start()
    try:
        await bot.sync_commands()
        put = [r for r in fake.requests if r.method == "PUT"]
        assert len(put) == 1 and put[0].path.endswith("/commands")
        assert "/guilds/" not in put[0].path
        body = put[0].payload
        assert isinstance(body, list) and [c["name"] for c in body] == ["carcassonne", "cardgame"]
        group = body[0]
        subs = {o["name"]: o for o in group["options"]}
        assert subs["place"]["name_localizations"]["es-ES"] == "colocar"
        assert subs["place"]["name_localizations"]["es-419"] == "colocar"
        cell = next(o for o in subs["place"]["options"] if o["name"] == "cell")
        assert cell["autocomplete"] is True and cell["name_localizations"]["es-ES"] == "casilla"
        assert group["contexts"] == [0], "guild channels only"
        defaults = subs["defaults"]  # the server managers' command (issue 21)
        assert defaults["name_localizations"]["es-ES"] == "predeterminados"
        assert {o["name"] for o in defaults["options"]} >= {"players", "expansions", "reset"}
        await bot.sync_commands(GUILD_ID)
        put = [r for r in fake.requests if r.method == "PUT"]
        assert put[-1].path == f"/applications/{bot.application_id}/guilds/{GUILD_ID}/commands"
    finally:
        await fake.close()


def test_sync_without_a_token_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["sync", "--guild", "123"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def _dns_failure() -> BaseException:
    """What aiohttp raises when the machine has no network (the name does not resolve)."""
    import socket

    import aiohttp
    from aiohttp.client_reqrep import ConnectionKey

    key = ConnectionKey("discord.com", 443, True, True, None, None, None)
    return aiohttp.ClientConnectorDNSError(key, socket.gaierror(-2, "Name or service not known"))


@pytest.mark.parametrize(
    ("failure", "said"),
    [
        (_dns_failure(), "cannot reach Discord (Cannot connect to host discord.com:443"),
        (TimeoutError(), "cannot reach Discord (TimeoutError)"),
    ],
    ids=["no-network", "timeout"],
)
def test_sync_without_network_is_one_friendly_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    failure: BaseException,
    said: str,
) -> None:
    """``carcabot sync`` says what the bot says when Discord cannot be reached: one line, no
    exception class, no token (the login request itself is replaced by the failure)."""
    import discord

    async def login(self: object, token: str) -> None:
        raise failure

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(discord.http.HTTPClient, "static_login", login)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    assert main(["sync", "--guild", "123"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert err.startswith(f"carcabot sync: {said}"), err
    assert "check the network connection" in err
    assert "ClientConnectorDNSError" not in err and "not-a-real-token" not in err


def test_sync_with_a_refused_token_is_one_friendly_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import discord

    async def login(self: object, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(discord.http.HTTPClient, "static_login", login)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    assert main(["sync"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "carcabot sync: Discord refused the token: check DISCORD_TOKEN (the bot's token in "
        "the developer portal)\n"
    )
