"""``carcabot sync``: what it registers with Discord (recorded, no network) and its refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import CarcBot
from bot.cli import main
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
