"""``carcabot local`` at its edges (issue 21): every argument is checked before the saved
matches are touched, so a mistyped one neither sets the unfinished match aside nor leaves a
broken one; ``--names`` counts the humans; ``--resume`` continues the unfinished match of
either game in its own language. Run through the command line on real SQLite files."""

from __future__ import annotations

import io
import re
import sqlite3
from pathlib import Path

import pytest

from cli.main import main


def _local(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    db: Path,
    *argv: str,
    typed: str = "",
) -> tuple[int, str]:
    """``carcabot local --db DB ARGV...`` with ``typed`` as its input; (exit code, output)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["local", "--db", str(db), *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


def _open_matches(db: Path) -> list[tuple[int, str, str]]:
    """(id, game, status) of the lobbies and matches still open in the local database."""
    with sqlite3.connect(db) as con:
        rows = con.execute(
            "SELECT id, game, status FROM matches WHERE status IN ('lobby', 'active')"
        ).fetchall()
    return [(int(i), str(g), str(s)) for i, g, s in rows]


@pytest.fixture
def unfinished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A database holding one unfinished local tile match (the human's input ended)."""
    db = tmp_path / "local.sqlite3"
    code, out = _local(capsys, monkeypatch, db, "--seed", "3", "--out", str(tmp_path / "o"))
    assert code == 0 and "Input ended" in out
    assert _open_matches(db) == [(1, "carcassonne", "active")]
    return db


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--rule", "foo=bar"], ["There is no rule 'foo'", "choose one with --expansions"]),
        (
            ["--expansions", "traders_builders", "--rule", "foo=bar"],
            ["There is no rule 'foo'", "tb.pig=on|off", "tb.builder_bonus=ask|auto"],
        ),
        (
            ["--expansions", "traders_builders", "--rule", "tb.pig=maybe"],
            ["tb.pig is on or off, not 'maybe'."],
        ),
        (["--rule", "tb.pig=off"], ["tb.pig belongs to traders_builders"]),
        (["--expansions", "traders_builders", "--rule", "tb.pig"], ["--rule takes KEY=VALUE"]),
        (["--names", "Ana", "Bea", "Cris", "--humans", "1"], ["--names gives 3 names for 1"]),
        (["--game", "cards", "--expansions", "inns_cathedrals"], ["belong to the tile game"]),
        (["--players", "9"], ["--players must be 2 to 6"]),
    ],
    ids=[
        "unknown",
        "unknown-listed",
        "not-on-off",
        "other-expansion",
        "no-value",
        "names",
        "cards-expansion",
        "players",
    ],  # fmt: skip
)
def test_a_bad_argument_leaves_the_unfinished_match_alone(
    unfinished: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    said: list[str],
) -> None:
    code, out = _local(capsys, monkeypatch, unfinished, *argv, "--out", str(tmp_path / "o"))
    assert code == 2 and out.count("\n") == 1, out
    for words in said:
        assert words in out, out
    assert "set aside" not in out
    assert _open_matches(unfinished) == [(1, "carcassonne", "active")]
    code, out = _local(capsys, monkeypatch, unfinished, "--resume", "--out", str(tmp_path / "o"))
    assert code == 0 and "Resuming local match 1" in out


def test_a_bad_rule_is_refused_in_spanish_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "es.sqlite3"
    code, out = _local(
        capsys, monkeypatch, db, "--lang", "es", "--expansions", "traders_builders",
        "--rule", "tb.pig=quizá",
    )  # fmt: skip
    assert code == 2 and out == "tb.pig admite on u off, no 'quizá'.\n"
    code, out = _local(capsys, monkeypatch, db, "--lang", "es", "--rule", "x.y=1")
    assert code == 2 and out.startswith("No existe la regla 'x.y'.")


def test_out_naming_a_file_is_one_line_and_starts_nothing(
    unfinished: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    blocker = tmp_path / "pictures.png"
    blocker.write_bytes(b"not a folder")
    for where in (blocker, blocker / "inside"):
        code, out = _local(capsys, monkeypatch, unfinished, "--out", str(where))
        assert code == 2 and out.count("\n") == 1, out
        assert "--out must be a folder" in out or "Cannot write the pictures" in out
        assert _open_matches(unfinished) == [(1, "carcassonne", "active")]
    code, out = _local(capsys, monkeypatch, unfinished, "--resume", "--out", str(tmp_path / "o"))
    assert code == 0 and "Resuming local match 1" in out


def test_names_give_the_number_of_humans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "n.sqlite3"
    code, out = _local(
        capsys, monkeypatch, db, "--names", "Ana", "Bea", "Cris", "--seed", "1",
        "--out", str(tmp_path / "o"),
    )  # fmt: skip
    assert code == 0
    order = next(line for line in out.splitlines() if "Seat order" in line)
    assert all(name in order for name in ("Ana", "Bea", "Cris")), order
    assert "Bot" not in order, "three names: three human seats (and three seats)"


def test_resume_continues_a_card_game_in_its_own_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, pictures = tmp_path / "c.sqlite3", str(tmp_path / "o")
    code, out = _local(
        capsys, monkeypatch, db, "--game", "cards", "--lang", "es", "--seed", "4", "--out", pictures
    )
    assert code == 0 and "Fin de la entrada" in out
    assert "carcabot local --resume'" in out, "the hint needs neither --game nor --lang"
    code, out = _local(capsys, monkeypatch, db, "--resume", "--out", pictures)
    assert code == 0, out
    assert "Se reanuda la partida local 1" in out and "other game" not in out
    assert "Fin de la entrada" in out, "the card game went on in Spanish"
    # --lang chooses another language for the rest of the match
    code, out = _local(capsys, monkeypatch, db, "--resume", "--lang", "en", "--out", pictures)
    assert code == 0 and "Resuming local match 1" in out and "Input ended" in out
    assert _open_matches(db) == [(1, "cardgame", "active")]


def test_resume_keeps_the_language_of_a_tile_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, pictures = tmp_path / "t.sqlite3", str(tmp_path / "o")
    code, out = _local(capsys, monkeypatch, db, "--lang", "es", "--seed", "2", "--out", pictures)
    assert code == 0 and "Fin de la entrada" in out
    code, out = _local(capsys, monkeypatch, db, "--resume", "--out", pictures)
    assert code == 0 and "Se reanuda la partida local 1" in out and "Turno" in out


def test_a_local_card_game_writes_a_record_that_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, pictures = tmp_path / "r.sqlite3", tmp_path / "o"
    code, out = _local(
        capsys, monkeypatch, db, "--game", "cards", "--humans", "0", "--players", "3",
        "--seed", "6", "--out", str(pictures),
    )  # fmt: skip
    assert code == 0 and "Record:" in out
    (record,) = pictures.glob("cards-*/record.json")
    assert main(["replay", str(record)]) == 0
    replayed = capsys.readouterr().out
    for line in out.split("Final scores:")[1].splitlines():
        found = re.match(r"\s+\d+\.\s+(.+?)\s+(-?\d+)\s", line)
        if found:  # the printed final table agrees with the replay
            name, score = found.groups()
            assert re.search(rf"^  {re.escape(name)}\s+{score}\b", replayed, flags=re.M), line
