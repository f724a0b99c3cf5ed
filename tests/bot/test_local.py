"""The console table (``carcabot local``) and ``carcabot`` startup, run in-process on real
SQLite files."""

from __future__ import annotations

import asyncio
import io
import json
import re
import sys
import types
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from app.matches import MatchService
from app.settings import Settings, SettingsError
from cli.main import main as cli_main
from console.table import LocalOptions, play_local
from engine.carcassonne.record import GameRecord, replay
from tests.bot.matchservice import tiny_animator, tiny_renderer

PAIR = "1\nnone\n"  # cell 1, then (after a refused rotation when one is asked) no figure


def final_scores(text: str) -> dict[str, int]:
    """Name -> score from the printed final table."""
    table = text.split("Final scores:")[1].split("Record:")[0]
    out = {}
    for line in table.strip().splitlines():
        m = re.match(r"\s*\d+\.\s+(.+?)\s+(-?\d+)(\s+winner)?(\s+\(resigned\))?\s*$", line)
        assert m is not None, line
        out[m.group(1)] = int(m.group(2))
    return out


def record_in(folder: Path) -> GameRecord:
    (path,) = folder.glob("local-*/record.json")
    return GameRecord.from_json(json.loads(path.read_text()))


def test_local_plays_a_whole_random_match_unattended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli_main(
        ["local", "--humans", "0", "--players", "3", "--seed", "5",
         "--db", str(tmp_path / "l.sqlite3"), "--out", str(tmp_path / "out")]
    )  # fmt: skip
    text = capsys.readouterr().out
    assert code == 0 and "Traceback" not in text
    assert "Final scores:" in text and "winner" in text
    record = record_in(tmp_path / "out")
    result = replay(record)
    assert result.over
    printed = final_scores(text)
    assert sorted(printed.values()) == sorted(result.scores)
    assert dict(zip(record.player_names(), result.scores, strict=True)) == printed
    # every point scored is itemised on its own line
    assert text.count(" -> ") == len(result.scored())
    # the real renderer drew a board per turn
    (folder,) = (tmp_path / "out").glob("local-*")
    with Image.open(folder / "final.png") as img:
        img.load()
        assert img.format == "PNG" and img.width > 200
    assert len(list(folder.glob("turn-*.png"))) == result.state.turn


async def test_the_same_seed_gives_the_same_local_match(tmp_path: Path) -> None:
    records = []
    for run in ("a", "b"):
        opts = LocalOptions(
            players=3, humans=0, seed=5, db=tmp_path / f"{run}.sqlite3", out=tmp_path / run
        )
        code = await play_local(opts, stdout=io.StringIO(), renderer=None, animator=None)
        assert code == 0
        records.append(record_in(tmp_path / run))
    assert records[0] == records[1] and records[0].actions


async def test_local_writes_a_board_png_after_every_turn(tmp_path: Path) -> None:
    out = io.StringIO()
    opts = LocalOptions(humans=0, seed=9, db=tmp_path / "x.sqlite3", out=tmp_path / "img")
    code = await play_local(
        opts, stdin=io.StringIO(""), stdout=out, renderer=tiny_renderer, animator=tiny_animator
    )
    assert code == 0
    (folder,) = (tmp_path / "img").glob("local-*")
    turns = sorted(folder.glob("turn-*.png"))
    result = replay(record_in(tmp_path / "img"))
    assert len(turns) == result.state.turn  # one per turn played (1..N)
    assert turns[0].name == "turn-001.png"
    with Image.open(turns[0]) as first:
        assert first.size[0] == 1  # the start tile only
    with Image.open(folder / "final.png") as final:
        assert final.size[0] == len(result.state.board.cells)
    assert (folder / "replay.gif").read_bytes()
    assert f"Board: {folder / 'final.png'}" in out.getvalue()


async def test_a_human_with_bad_input_gets_friendly_lines_then_finishes(tmp_path: Path) -> None:
    script = "hello\n99\n0\nplace 50,50 r0\nfrobnicate x\n\nhelp\n" + PAIR * 200
    out = io.StringIO()
    opts = LocalOptions(humans=1, seed=4, names=("Ana",), db=tmp_path / "h.sqlite3", out=tmp_path)
    code = await play_local(opts, stdin=io.StringIO(script), stdout=out, renderer=None)
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text
    assert "I did not understand that ('hello'" in text
    assert "Pick a cell from 1 to" in text
    assert "50,50 does not touch any tile" in text
    assert "'frobnicate x' is not an action" in text
    assert "Final scores:" in text
    record = record_in(tmp_path)
    assert "Ana" in record.player_names()
    ana = record.player_names().index("Ana")
    mine = [a.notation for a in record.actions if a.seat == ana]
    assert mine and all(a.startswith("place") or a == "pass" for a in mine)
    assert final_scores(text) == dict(
        zip(record.player_names(), replay(record).scores, strict=True)
    )


async def test_end_of_input_stops_cleanly_and_resume_finishes_the_match(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    out = io.StringIO()
    opts = LocalOptions(humans=2, seed=6, db=db, out=tmp_path)
    code = await play_local(opts, stdin=io.StringIO(PAIR * 3 + "1\n"), stdout=out, renderer=None)
    assert code == 0
    assert "Input ended: the match is stored" in out.getvalue()
    svc = await MatchService.open(db, renderer=None, animator=None)
    try:
        now = await svc.current(1)
        assert not now.finished and now.version >= 2
    finally:
        await svc.close()

    out = io.StringIO()
    resume = LocalOptions(humans=0, db=db, out=tmp_path, resume=True)
    code = await play_local(resume, stdin=io.StringIO(PAIR * 200), stdout=out, renderer=None)
    text = out.getvalue()
    assert code == 0 and "Resuming local match" in text and "Final scores:" in text
    # the first moves are the ones typed before the input ended
    record = record_in(tmp_path)
    assert record.actions[0].notation.startswith("place") and replay(record).over


async def test_undo_and_resign_from_the_console(tmp_path: Path) -> None:
    # place on cell 1 (first rotation), take it back, place again, pass; then resign
    script = "1\nr0\nr90\nr180\nr270\nundo\n" + "1\nnone\n" * 2 + "resign\n"
    out = io.StringIO()
    opts = LocalOptions(humans=1, seed=12, db=tmp_path / "u.sqlite3", out=tmp_path)
    code = await play_local(opts, stdin=io.StringIO(script), stdout=out, renderer=None)
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text
    assert "Placement taken back" in text
    assert "resigns" in text and "Final scores:" in text
    table = text.split("Final scores:")[1].strip().splitlines()
    assert "Bot 1" in table[0] and "winner" in table[0]  # the winner heads the table
    assert "(resigned)" in table[1]


async def test_bad_table_sizes_are_refused(tmp_path: Path) -> None:
    out = io.StringIO()
    assert await play_local(LocalOptions(players=7, db=tmp_path / "a"), stdout=out) == 2
    assert await play_local(LocalOptions(humans=3, db=tmp_path / "a"), stdout=out) == 2
    assert "--players must be 2 to 6" in out.getvalue()
    assert not (tmp_path / "a").exists()


# ---------------------------------------------------------------------------- startup
def test_settings_from_the_environment() -> None:
    s = Settings.from_env({"DISCORD_TOKEN": " abc.def ", "DEV_GUILD_ID": "42"})
    assert s.discord_token == "abc.def" and s.has_token and s.dev_guild_id == 42
    assert "abc.def" not in repr(s)
    empty = Settings.from_env({"DISCORD_TOKEN": "", "DATABASE_PATH": "x/y.db"})
    assert not empty.has_token and str(empty.database_path) == "x/y.db"
    assert Settings.from_env({}).database_path == Path("data/carcabot.sqlite3")
    with pytest.raises(SettingsError, match="DEV_GUILD_ID"):
        Settings.from_env({"DEV_GUILD_ID": "abc"})
    with pytest.raises(SettingsError, match="LOG_LEVEL"):
        Settings.from_env({"LOG_LEVEL": "loud"})


def test_without_a_token_carcabot_plays_the_local_table_unattended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("LOCAL_DATABASE_PATH", str(tmp_path / "db" / "local.sqlite3"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # not a terminal: no human seat
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\n")
    assert cli_main([]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].startswith("DISCORD_TOKEN is not set")
    assert "Final scores:" in text and "Human" not in text
    assert (tmp_path / "db" / "local.sqlite3").exists()
    assert list((tmp_path / "out").glob("local-*/record.json"))


def test_with_a_token_carcabot_runs_the_bot_and_never_shows_the_token(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[Settings] = []

    async def run_bot(settings: Settings) -> None:
        await asyncio.sleep(0)
        seen.append(settings)

    fake = types.ModuleType("bot.app")
    fake.run_bot = run_bot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.app", fake)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    secret = "MTIz.secret-token.value"
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={secret}\nDATABASE_PATH=db/bot.sqlite3\n")
    caplog.set_level("DEBUG")
    assert cli_main(["run"]) == 0
    assert len(seen) == 1 and seen[0].discord_token == secret
    assert seen[0].database_path == Path("db/bot.sqlite3")
    captured = capsys.readouterr()
    assert secret not in captured.out + captured.err + caplog.text


async def test_an_unusable_database_path_is_a_friendly_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    out = io.StringIO()
    opts = LocalOptions(humans=0, db=tmp_path / "file" / "x.sqlite3", out=tmp_path)
    assert await play_local(opts, stdout=out) == 2
    assert out.getvalue().startswith("Cannot open the match database")


async def test_local_rules_reach_the_game_and_bad_ones_are_refused(tmp_path: Path) -> None:
    out = io.StringIO()
    opts = LocalOptions(
        humans=0,
        seed=3,
        db=tmp_path / "r.sqlite3",
        out=tmp_path / "r",
        expansions=("traders_builders",),
        rules=("tb.pig=off", "tb.goods=no"),
    )
    assert await play_local(opts, stdout=out, renderer=None, animator=None) == 0
    record = record_in(tmp_path / "r")
    assert record.setup.option("tb.pig") is False and record.setup.option("tb.goods") is False
    assert replay(record).over
    for bad in ("tb.pig=maybe", "tb.dragon=on", "tb.pig"):
        out = io.StringIO()
        bad_opts = LocalOptions(
            humans=0, seed=3, db=tmp_path / "b.sqlite3", out=tmp_path / "b",
            expansions=("traders_builders",), rules=(bad,),
        )  # fmt: skip
        assert await play_local(bad_opts, stdout=out, renderer=None, animator=None) != 0
        assert "Final scores" not in out.getvalue()


async def test_the_console_plays_against_ai_opponents(tmp_path: Path) -> None:
    """``--opponents easy``: the other seats are AI players of the service (app.seats), named
    "AI 1" ..., and a resumed match keeps them (their seats say who plays them)."""
    script = "1\n1\nnone\n" * 3  # a cell, its rotation (or a refused spot), no figure
    out = io.StringIO()
    opts = LocalOptions(
        players=3, humans=1, seed=8, db=tmp_path / "a.sqlite3", out=tmp_path, opponents="easy"
    )
    code = await play_local(opts, stdin=io.StringIO(script), stdout=out, renderer=None)
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text
    assert "AI 1" in text and "AI 2" in text and "Bot 1" not in text
    assert re.search(r"AI \d places the tile", text), text[-2000:]
    again = io.StringIO()
    resumed = replace(opts, resume=True)
    await play_local(resumed, stdin=io.StringIO(script), stdout=again, renderer=None)
    assert re.search(r"AI \d places the tile", again.getvalue())


async def test_a_match_nobody_types_for_is_played_by_the_opponents_level(tmp_path: Path) -> None:
    """``--humans 0 --opponents easy`` (the newcomer's demo plays normal AIs): every move is the
    easy AI's own answer to its position, not a random one (random seats only with
    ``--opponents random``)."""
    from ai import choose

    opts = LocalOptions(
        players=3, humans=0, seed=6, db=tmp_path / "e.sqlite3", out=tmp_path, opponents="easy"
    )
    out = io.StringIO()
    assert await play_local(opts, stdout=out, renderer=None, animator=None) == 0
    record = GameRecord.from_json(
        json.loads(next(tmp_path.glob("local-*/record.json")).read_text())
    )
    played = replay(record, keep_states=True)
    assert played.over and len(record.actions) > 100
    for state, move in zip(played.states, record.actions, strict=False):
        key, action = choose(state, int(move.seat), level="greedy")
        assert action == move.action(), (state.version, move.notation)
    assert max(played.scores) > 40, played.scores  # a random match scores far less


def test_the_local_card_game_plays_against_an_ai(tmp_path: Path) -> None:
    """``--game cards --opponents easy``: the other seat is an AI of the service (app.seats),
    and a whole game ends with the final scores."""
    lines = [("a", "1")[i % 2] for i in range(3000)]
    out = io.StringIO()
    opts = LocalOptions(
        players=2, humans=1, seed=5, out=tmp_path / "out", db=tmp_path / "c.sqlite3",
        game="cards", opponents="easy",
    )  # fmt: skip
    script = io.StringIO("\n".join(lines) + "\n")
    assert asyncio.run(play_local(opts, stdin=script, stdout=out)) == 0
    text = out.getvalue()
    assert "Traceback" not in text and "Final scores:" in text, text[-1500:]
    assert "AI 1 played" in text
