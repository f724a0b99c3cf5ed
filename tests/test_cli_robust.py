"""The command-line tools at their edges (issues 13 and 14).

* ``carcabot replay`` answers any file — nested thousands deep, numbers with thousands of
  digits, control characters, text without end, a save corrupted anywhere — with its report,
  or with one printable line on stderr and exit code 2; never a traceback or exit 1 (fuzzed);
* piping ``replay`` or ``simulate`` into ``head`` ends quietly;
* ``render-tiles`` and ``--png`` refuse a bad path or a name that is not ``.png`` in one line;
* ``--expansions`` takes ids separated by commas or spaces in ``local`` and ``simulate``, and
  an unknown id lists the playable ones; ``--farm-scoring`` and ``--tiny-city`` have help;
* a count in a score line takes the right word form ("1 token", "2 tokens").
"""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import SIGPIPE_EXIT, build_parser, main
from engine.core import messages
from tests.engine.corrupt import corrupted, json_paths

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "fixtures" / "records" / "base-2p-1001.json"
JCZ = ROOT / "tests" / "fixtures" / "jcz" / "basic" / "scoring.jcz"
JCZ5 = ROOT / "tests" / "fixtures" / "jcz5" / "basic" / "tiny-city-rule.jcz"
CARDS = ROOT / "tests" / "fixtures" / "records" / "cards-3p-1003.json"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _printable(text: str) -> bool:
    return all(unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp") for ch in text)


def _clean_failure(code: int, out: str, err: str) -> None:
    """The replay failed the one allowed way: one printable, short line on stderr, exit 2."""
    assert code == 2, (code, err[:300])
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err[:300]
    line = err[:-1]
    assert _printable(line), repr(line[:300])
    assert len(line) <= 700, len(line)
    assert "Traceback" not in err and "internal error" not in err


def _replay(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> tuple[int, str, str]:
    code, out, err = _run(capsys, "replay", *extra, str(path))
    if code != 0:
        _clean_failure(code, out, err)
    else:
        assert err == ""
        assert all(_printable(line) for line in out.splitlines()), out[:300]
    return code, out, err


# ------------------------------------------------------------------------------ replay
NASTY: dict[str, str | bytes] = {
    "deep-array": "[" * 100_000 + "]" * 100_000,
    "deep-object": '{"a":' * 5_000 + "1" + "}" * 5_000,
    "deep-in-record": '{"format": "carcabot-record", "setup": ' + "[" * 900 + "]" * 900 + "}",
    "int-5000-digits": '{"format": "carcabot-record", "seed": ' + "9" * 5000 + "}",
    "int-1000-digits": '{"format": "carcabot-record", "seed": ' + "7" * 1000 + "}",
    "int-huge-seed": json.dumps(
        {**json.loads(RECORD.read_text()), "seed": 10**38}, ensure_ascii=False
    ),
    "float-5000-digits": '{"seed": 1.' + "3" * 5000 + "}",
    "exponent": '{"seed": 1e999999}',
    "nan": '{"format": "carcabot-record", "seed": NaN}',
    "raw-control": '{"format": "\x1b[31m\x07' + "x" * 5000 + '"}',
    "escaped-control": '{"format": "\\u001b[2J\\u0000\\n\\u202e' + "y" * 20_000 + '"}',
    "long-key": json.dumps({"format": "carcabot-record", "z" * 100_000: 1}),
    "not-utf8": b'{"format": "\xff\xfe\x80"}',
    "empty": "",
    "bom": "\ufeff" + RECORD.read_text(),
    "a-number": "12",
    "a-string": '"\\u0007' + "w" * 50_000 + '"',
    "null": "null",
    "jcz-position-3000-digits": json.dumps(json.loads(JCZ.read_text())).replace(
        '"position": [0, -1]', '"position": [' + "9" * 3000 + ", -1]", 1
    ),
    "action-3000-digits": RECORD.read_text().replace(
        '"place 0,-1 r180"', '"place ' + "9" * 3000 + ',-1 r180"', 1
    ),
}


@pytest.mark.parametrize("name", sorted(NASTY))
def test_replay_of_a_nasty_file_is_one_clean_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    content = NASTY[name]
    path = tmp_path / f"{name}.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    for extra in ([], ["--json"]):
        code, _, _ = _replay(capsys, path, *extra)
        if name != "bom":
            assert code == 2, name


def test_a_file_name_with_control_characters_is_printed_clean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "evil\x1b[2J\nname.json"
    path.write_text("{oops")
    _replay(capsys, path)


def test_names_with_control_characters_are_printed_clean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = json.loads(RECORD.read_text())
    data["names"] = ["\x1b[31mAnn\x07", "Bo\nB"] if "names" in data else None
    if data["names"] is None:
        data.pop("names")
        data["setup"]["names"] = ["\x1b[31mAnn\x07", "Bo\nB"]
    path = tmp_path / "names.json"
    path.write_text(json.dumps(data))
    code, out, _ = _replay(capsys, path)
    assert code == 0 and "\\x1b[31mAnn" in out


VALUES = st.one_of(
    st.integers(min_value=-(10**60), max_value=10**60),
    st.floats(allow_nan=False),
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=3).map(lambda s: s * 500),
    st.none(),
    st.booleans(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.integers(min_value=10, max_value=2_000).map(lambda n: ["x"] * n),
)


def _fuzz_sources() -> list[tuple[str, Any, list[tuple[Any, ...]]]]:
    out = []
    for path in (RECORD, JCZ, JCZ5, CARDS):
        data = json.loads(path.read_text())
        out.append((path.suffix, data, json_paths(data, items=3)))
    return out


SOURCES = _fuzz_sources()


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_saves_and_records_replay_or_fail_in_one_clean_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: st.DataObject
) -> None:
    suffix, source, paths = data.draw(st.sampled_from(SOURCES), label="source")
    where = data.draw(st.sampled_from(paths), label="path")
    value = data.draw(VALUES, label="value")
    path = tmp_path / f"fuzzed{suffix}"
    path.write_text(json.dumps(corrupted(source, where, value)))
    _replay(capsys, path)


def test_deep_nesting_in_a_real_process_exits_2(tmp_path: Path) -> None:
    """The console script in a process of its own: a stack overflow would kill it."""
    path = tmp_path / "deep.json"
    path.write_text("[" * 1_000_000 + "]" * 1_000_000)
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    _clean_failure(done.returncode, done.stdout, done.stderr)


# ------------------------------------------------------------------------------ pipes
@pytest.mark.parametrize(
    "argv",
    [["replay", str(RECORD)], ["simulate", "--games", "400", "--json"]],
    ids=["replay", "simulate"],
)
def test_a_closed_pipe_ends_quietly(argv: list[str]) -> None:
    """``carcabot ... | head -c 1``: the reader goes away at once; no BrokenPipeError."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(1)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=120)
    assert "Error" not in err and "Traceback" not in err, err
    assert code in (0, SIGPIPE_EXIT)


# ------------------------------------------------------------------------------ pictures
def test_render_tiles_to_a_missing_folder_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = _run(capsys, "render-tiles", str(tmp_path / "nope" / "a.png"))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "cannot write" in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["sheet.jpg", "sheet.webp", "sheet"])
def test_a_picture_is_refused_under_a_name_that_is_not_png(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    out_file = tmp_path / name
    code, out, err = _run(capsys, "render-tiles", str(out_file))
    assert (code, out) == (2, "") and ".png" in err and not out_file.exists()
    code, out, err = _run(capsys, "replay", str(RECORD), "--png", str(out_file))
    assert (code, out) == (2, "") and ".png" in err and not out_file.exists()


def test_replay_png_still_writes_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "board.PNG"
    code, _, _ = _run(capsys, "replay", str(RECORD), "--png", str(out_file))
    assert code == 0 and out_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------------------ arguments
@pytest.mark.parametrize(
    "given",
    [
        ["inns_cathedrals,traders_builders"],
        ["inns_cathedrals", "traders_builders"],
        ["inns_cathedrals, traders_builders"],
        ["inns_cathedrals", "--expansions", "traders_builders"],
    ],
)
def test_expansions_take_commas_or_spaces(
    capsys: pytest.CaptureFixture[str], given: list[str]
) -> None:
    code, out, err = _run(capsys, "simulate", "--games", "1", "--json", "--expansions", *given)
    assert code == 0, err
    args = build_parser().parse_args(["local", "--expansions", *given])
    from cli.args import expansion_ids

    assert expansion_ids(args.expansions) == ("inns_cathedrals", "traders_builders")


@pytest.mark.parametrize("command", ["simulate", "local"])
def test_an_unknown_expansion_lists_the_playable_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    extra = ["--db", str(tmp_path / "l.sqlite3"), "--humans", "0"] if command == "local" else []
    code, out, err = _run(capsys, command, *extra, "--expansions", "foo,inns_cathedrals")
    assert (code, out) == (2, "")
    assert "'foo'" in err and "inns_cathedrals" in err and "traders_builders" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", ["simulate", "local"])
def test_rule_editions_have_help(command: str) -> None:
    sub = build_parser()._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    helps = {a.dest: a.help for a in sub._actions}
    assert helps["farm_scoring"] and "per_farm" in helps["farm_scoring"]
    assert helps["tiny_city"] and "2-tile" in helps["tiny_city"]
    assert "comma" in (helps["expansions"] or "")


def test_counts_take_the_right_word_form() -> None:
    import engine.carcassonne.expansions.traders_builders  # noqa: F401  (registers its words)
    from engine.carcassonne.scoring import Part

    def words(part: Part, lang: str) -> str:
        return messages.text(part.key, lang, **dict(part.params))

    assert words(Part.plural("part.most_wine", 1), "en") == "most wine (1 token): 10"
    assert words(Part.plural("part.most_wine", 3), "en") == "most wine (3 tokens): 10"
    assert words(Part.plural("part.most_cloth", 1), "es") == "mayoría de tela (1 ficha): 10"
    assert words(Part.plural("part.most_grain", 2), "es") == "mayoría de grano (2 fichas): 10"
