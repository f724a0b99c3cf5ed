"""The bot's event loop (bot/eventloop.py): uvloop when installed, asyncio's on request, and a
whole game through the real discord.py stack on uvloop as on asyncio's loop."""

from __future__ import annotations

import asyncio
import random
import sys
import types
from pathlib import Path

import pytest

from bot import eventloop
from cli.main import main as cli_main
from tests.bot.tiletable import (
    assert_final,
    close_table,
    open_table,
    png_of,
    posted,
    score_lines,
    start_match,
    typed_move,
    whose_turn,
)


def test_uvloop_is_chosen_where_installed_and_asyncio_on_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("uvloop")  # a dependency on Linux and macOS
    monkeypatch.delenv(eventloop.ENV, raising=False)
    assert eventloop.choose() == "uvloop"
    monkeypatch.setenv(eventloop.ENV, "asyncio")
    assert eventloop.choose() == "asyncio"
    monkeypatch.setenv(eventloop.ENV, " UVLOOP ")
    assert eventloop.choose() == "uvloop"
    assert eventloop.choose("asyncio") == "asyncio"  # an argument wins over the environment


def test_a_loop_name_that_is_not_one_is_refused_with_the_setting_named() -> None:
    with pytest.raises(eventloop.EventLoopError, match="CARCABOT_EVENT_LOOP"):
        eventloop.choose("trio")


def test_uvloop_asked_for_where_it_is_missing_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(eventloop, "_uvloop_factory", lambda: None)
    assert eventloop.choose("") == "asyncio"  # the default falls back quietly
    with pytest.raises(eventloop.EventLoopError, match="not installed"):
        eventloop.choose("uvloop")


async def _whole_game(db: Path) -> str:
    """A 2-player game through slash commands with autocomplete; returns the loop's module."""
    t = await open_table(db)
    try:
        fake = t.fake
        rng = random.Random(5)
        turn = await start_match(fake)
        png_of(turn.file("board.png"))
        announced: dict[str, int] = {}
        for _ in range(200):
            if "🏁" in turn.content:
                break
            res = await typed_move(fake, whose_turn(turn), rng)
            turn = posted(res)
            for name, pts in score_lines(turn.text()).items():
                announced[name] = announced.get(name, 0) + pts
        else:
            pytest.fail("the game did not end")
        outcome = await t.service.match(1)
        assert outcome.finished
        assert_final(res.channel_sends, announced, {p.name: p.score for p in outcome.view.players})
        return type(asyncio.get_running_loop()).__module__
    finally:
        await close_table(t)


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
def test_a_whole_game_on_either_loop(tmp_path: Path, loop: eventloop.LoopName) -> None:
    if loop == "uvloop":
        pytest.importorskip("uvloop")
    module = eventloop.run(_whole_game(tmp_path / f"{loop}.sqlite3"), loop)
    assert module.startswith(loop), module


def test_carcabot_run_starts_the_bot_on_the_chosen_loop_and_refuses_a_bad_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("uvloop")
    loops: list[str] = []

    async def run_bot(settings: object) -> None:
        loops.append(type(asyncio.get_running_loop()).__module__)

    fake = types.ModuleType("bot.app")
    fake.run_bot = run_bot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.app", fake)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "MTIz.token")
    monkeypatch.delenv(eventloop.ENV, raising=False)
    assert cli_main(["run"]) == 0
    monkeypatch.setenv(eventloop.ENV, "asyncio")
    assert cli_main(["run"]) == 0
    assert [m.split(".")[0] for m in loops] == ["uvloop", "asyncio"]
    monkeypatch.setenv(eventloop.ENV, "trio")
    assert cli_main(["run"]) != 0
    err = capsys.readouterr().err
    assert "CARCABOT_EVENT_LOOP must be uvloop or asyncio" in err and "Traceback" not in err
