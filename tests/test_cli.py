"""``carcabot replay`` and ``carcabot simulate`` run in-process through cli.main.main."""

from __future__ import annotations

import importlib
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from engine.carcassonne.record import loads, replay

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "jcz"
RANDOM_EXPECTED: dict[str, Any] = json.loads((FIXTURES / "random" / "expected.json").read_text())

BASE_FIXTURES: dict[str, tuple[int, ...]] = {
    "basic/scoring.jcz": (14, 11),
    "basic/scoringMultiTiles.jcz": (28, 13),
    "basic/scoringFarms.jcz": (9, 15),
    "random/base-2p-02.jcz": tuple(RANDOM_EXPECTED["base-2p-02.jcz"]["scores"]),
    "random/base-4p-02.jcz": tuple(RANDOM_EXPECTED["base-4p-02.jcz"]["scores"]),
}
NAMES = ("Alice", "Bob", "Carol", "Dave")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _text_scores(out: str, names: tuple[str, ...]) -> tuple[int, ...]:
    found = {}
    for line in out.splitlines():
        m = re.fullmatch(r"  (\S+)\s+(-?\d+)(   \(.*\))?", line)
        if m and m.group(1) in names:
            found[m.group(1)] = int(m.group(2))
    return tuple(found[n] for n in names)


@pytest.mark.parametrize("name", sorted(BASE_FIXTURES))
def test_replay_prints_jcloisterzone_scores(capsys: pytest.CaptureFixture[str], name: str) -> None:
    expected = BASE_FIXTURES[name]
    code, out, err = _run(capsys, "replay", str(FIXTURES / name))
    assert code == 0 and err == ""
    assert _text_scores(out, NAMES[: len(expected)]) == expected
    assert ("Final scores" in out) is (name != "basic/scoringMultiTiles.jcz")


def test_replay_text_itemises_every_award(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "replay", str(FIXTURES / "basic/scoring.jcz"))
    assert out.splitlines()[:3] == [
        "Final scores after 7 tiles:",
        "  Alice    14   (road 6, cloister 5, farm 3)",
        "  Bob      11   (city 11)",
    ]
    _, out, _ = _run(capsys, "replay", str(FIXTURES / "basic/scoringFarms.jcz"))
    scoring = out.split("Scoring:\n", 1)[1].splitlines()
    assert scoring == [
        "  farm at game end: 3 completed cities × 3 = 9  → Alice and Bob",
        "  farm at game end: 2 completed cities × 3 = 6  → Bob",
    ]


@pytest.mark.parametrize("name", sorted(BASE_FIXTURES))
def test_replay_json(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, err = _run(capsys, "replay", "--json", str(FIXTURES / name))
    assert code == 0 and err == ""
    data = json.loads(out)
    assert tuple(data["scores"]) == BASE_FIXTURES[name]
    assert data["players"] == list(NAMES[: len(data["scores"])])
    assert data["over"] is (name != "basic/scoringMultiTiles.jcz")
    per_seat = [0] * len(data["scores"])
    for a in data["awards"]:
        assert set(a) == {"seat", "points", "category", "complete", "final", "parts"}
        per_seat[a["seat"]] += a["points"]
    assert per_seat == data["scores"]


def test_simulate_records_replay_to_the_same_scores(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = _run(
        capsys, "simulate", "--games", "4", "--players", "3", "--seed", "40",
        "--record", str(tmp_path), "--json",
    )  # fmt: skip
    assert code == 0 and err == ""
    games = json.loads(out)["games"]
    assert [g["seed"] for g in games] == [40, 41, 42, 43]
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"game-{s}.json" for s in range(40, 44)]
    for g in games:
        path = tmp_path / f"game-{g['seed']}.json"
        assert loads(path.read_text()).seed == g["seed"]
        code, out, err = _run(capsys, "replay", "--json", str(path))
        assert code == 0, err
        replayed = json.loads(out)
        assert replayed["scores"] == g["scores"]
        assert replayed["over"] is True
        assert replayed["tiles_placed"] == g["placed"]


def test_simulate_is_reproducible_and_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    def lines(*extra: str) -> list[str]:
        code, out, _ = _run(capsys, "simulate", "--games", "3", "--seed", "7", *extra)
        assert code == 0
        return out.splitlines()

    first, again = lines(), lines()
    assert len(first) == 4 and first[-1].startswith("3 tiles games, 2 players:")
    assert "games/s" in first[-1]

    def strip_ms(rows: list[str]) -> list[str]:
        return [re.sub(r"\s+[\d.]+ ms$", "", r) for r in rows[:-1]]

    assert strip_ms(first) == strip_ms(again)
    assert first[0].startswith("seed      7  scores")
    # game i of a run is the same game as a run starting at its seed
    single = lines()[1]
    code, out, _ = _run(capsys, "simulate", "--games", "1", "--seed", "8")
    assert strip_ms([out.splitlines()[0], ""]) == strip_ms([single, ""])


def _write_record(tmp_path: Path, actions: list[dict[str, object]]) -> Path:
    path = tmp_path / "broken.json"
    data = {
        "format": "carcabot-record",
        "version": 1,
        "game": "carcassonne",
        "setup": {"players": 2, "draw_order": ["BA/C", "BA/RRRR"], "only_forced": True},
        "seed": 3,
        "actions": actions,
    }
    path.write_text(json.dumps(data))
    return path


def test_broken_record_exits_2_with_the_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _write_record(
        tmp_path,
        [
            {"seat": 0, "action": "place 0,-1 r180"},
            {"seat": 0, "action": "pass"},
            {"seat": 1, "action": "place 0,-1 r0"},
        ],
    )
    for extra in ([], ["--json"]):
        code, out, err = _run(capsys, "replay", *extra, str(path))
        assert code == 2
        assert out == ""
        assert (
            err
            == f"carcabot replay: {path}: move 3: 'place 0,-1 r0': There is already a tile at 0,-1.\n"
        )


def test_broken_jcz_exits_2_with_the_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = json.loads((FIXTURES / "basic/scoring.jcz").read_text())
    data["replay"][3]["payload"]["tileId"] = "BA.L"
    path = tmp_path / "broken.jcz"
    path.write_text(json.dumps(data))
    code, out, err = _run(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"carcabot replay: {path}: move 4: PLACE_TILE places BA.L")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{oops", "not valid JSON"),
        ('{"format": "x"}', "not a game record"),
        (None, "cannot read the file"),
    ],
)
def test_unreadable_files_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | None, reason: str
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content)
    code, out, err = _run(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"carcabot replay: {path}: ") and reason in err


def test_expansion_saves_replay_to_jcloisterzone_scores(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "replay", "--json", str(FIXTURES / "random/ictb-2p-02.jcz"))
    assert code == 0
    assert tuple(json.loads(out)["scores"]) == tuple(RANDOM_EXPECTED["ictb-2p-02.jcz"]["scores"])


def test_unsupported_save_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = json.loads((FIXTURES / "inns_and_cathedrals/innsScoring.jcz").read_text())
    data["setup"]["capabilities"].append("PigHerd")
    path = tmp_path / "pigherd.jcz"
    path.write_text(json.dumps(data))
    code, out, err = _run(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert "capability 'PigHerd' (Traders & Builders) is not supported yet" in err


def _has(module: str, name: str) -> bool:
    try:
        return hasattr(importlib.import_module(module), name)
    except ImportError:
        return False


def test_replay_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_png = tmp_path / "board.png"
    code, out, err = _run(
        capsys, "replay", "--png", str(out_png), str(FIXTURES / "basic/scoring.jcz")
    )
    if not _has("rendering", "render_board"):
        assert (code, out) == (2, "")
        assert "rendering.render_board" in err
        return
    from PIL import Image

    assert code == 0, err
    with Image.open(io.BytesIO(out_png.read_bytes())) as img:
        assert img.format == "PNG" and img.width > 100 and img.height > 100


def test_replay_animation(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_gif = tmp_path / "game.gif"
    code, out, err = _run(
        capsys, "replay", "--gif", str(out_gif), str(FIXTURES / "basic/scoring.jcz")
    )
    if not _has("rendering", "render_animation"):
        assert (code, out) == (2, "")
        assert "rendering.render_animation" in err
        return
    from PIL import Image

    assert code == 0, err
    with Image.open(io.BytesIO(out_gif.read_bytes())) as img:
        # one frame for the start and one per turn (7 turns); the renderer may add a closing frame
        assert img.format == "GIF" and getattr(img, "n_frames", 1) >= 8


def test_replay_animation_needs_a_known_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = _run(
        capsys, "replay", "--gif", str(tmp_path / "x.mp4"), str(FIXTURES / "basic/scoring.jcz")
    )
    assert (code, out) == (2, "")
    assert "a .gif or .webp file name" in err


def test_simulate_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "simulate", "--game", "cards", "--games", "2", "--seed", "5")
    if not _has("engine.cardgame.sim", "play_random"):
        assert (code, out) == (2, "")
        assert "card game simulator is not available yet" in err
        return
    assert code == 0, err
    rows = out.splitlines()
    assert rows[0].startswith("seed      5  scores") and "rounds" in rows[0]
    assert rows[-1].startswith("2 cards games")


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["--players", "9"], "2–6 players"),
        (["--games", "0"], "--games must be at least 1"),
        (["--expansions", "dragons"], "'dragons' is not playable yet"),
    ],
)
def test_simulate_bad_arguments_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], reason: str
) -> None:
    code, out, err = _run(capsys, "simulate", *argv)
    assert (code, out) == (2, "")
    assert err.startswith("carcabot simulate: ") and reason in err


def test_simulated_card_games_write_records_that_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Card games write records too: ``simulate --game cards --record`` and ``replay``."""
    code, out, err = _run(
        capsys, "simulate", "--game", "cards", "--games", "2", "--players", "3", "--seed", "9",
        "--record", str(tmp_path), "--json",
    )  # fmt: skip
    assert code == 0, err
    games = json.loads(out)["games"]
    for g in games:
        path = tmp_path / f"game-{g['seed']}.json"
        assert g["record"] == str(path)
        code, out, err = _run(capsys, "replay", "--json", str(path))
        assert code == 0, err
        replayed = json.loads(out)
        assert replayed["scores"] == g["scores"] and replayed["over"] is True
        assert replayed["game"] == "cardgame" and replayed["rounds"] == g["rounds"]
        code, out, err = _run(capsys, "replay", str(path))
        assert code == 0 and out.startswith("Card game, final scores after")
        assert "winner" in out and "Scoring:" in out
    saved = FIXTURES.parent / "records" / "cards-3p-1003.json"
    code, out, err = _run(capsys, "replay", "--json", str(saved))
    assert code == 0, err  # its recorded final scores are checked as it replays
    code, out, err = _run(capsys, "replay", str(saved), "--png", str(tmp_path / "t.png"))
    assert code == 2 and "card game" in err and not (tmp_path / "t.png").exists()


# ---------------------------------------------------------------------------- JCloisterZone 5.x
FIXTURES5 = FIXTURES.parent / "jcz5"
EXPECTED5: dict[str, Any] = json.loads((FIXTURES5 / "expected.json").read_text())
PLAYED5 = (
    "basic/city-and-road-scoring.jcz",
    "basic/monastery-scoring.jcz",
    "basic/tiny-city-rule.jcz",
    "inns-and-cathedrals/cathedrals-scoring.jcz",
    "traders-and-builders/pig-scoring.jcz",
    "traders-and-builders/wine-scoring.jcz",
)


@pytest.mark.parametrize("name", PLAYED5)
def test_replay_jcz5_prints_jcloisterzone_scores(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    expected = EXPECTED5[name]
    names = tuple(p["name"] for p in json.loads((FIXTURES5 / name).read_text())["players"])
    code, out, err = _run(capsys, "replay", str(FIXTURES5 / name))
    assert code == 0 and err == ""
    for got, want in zip(_text_scores(out, names), expected["scores"], strict=True):
        assert want is None or got == want
    head = "Final scores after" if expected["final"] else "Scores so far after"
    assert out.startswith(head)
    code, out, err = _run(capsys, "replay", "--json", str(FIXTURES5 / name))
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["source"] == "jcz5" and data["players"] == list(names)
    assert data["over"] is expected["final"]
    for got, want in zip(data["scores"], expected["scores"], strict=True):
        assert want is None or got == want


def test_replay_jcz5_mid_game_text(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "replay", str(FIXTURES5 / "basic/city-and-road-scoring.jcz"))
    assert out.splitlines()[:3] == [
        "Scores so far after 11 tiles (the game is not over):",
        "  David     7   (road 7)",
        "  Wendy    16   (city 16)",
    ]


def test_jcz5_save_is_recognised_by_content(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "saved-game.json"
    path.write_bytes((FIXTURES5 / "basic/field-scoring.jcz").read_bytes())
    code, out, err = _run(capsys, "replay", "--json", str(path))
    assert code == 0, err
    assert json.loads(out)["scores"] == [9, 0] and json.loads(out)["source"] == "jcz5"


def test_jcz5_save_of_the_last_box_built_replays(capsys: pytest.CaptureFixture[str]) -> None:
    """Mage & Witch was the last box refused as not built yet: its fixture now replays."""
    code, out, err = _run(capsys, "replay", str(FIXTURES5 / "mage-and-witch/mage.jcz"))
    assert (code, err) == (0, "") and "Alice" in out


def test_jcz5_save_with_a_box_no_issue_builds_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A copy of a played fixture that also names Princess & Dragon's princess: refused in one
    line naming the box, whatever expansions are built."""
    data = json.loads((FIXTURES5 / "basic/field-scoring.jcz").read_text())
    data["setup"]["elements"]["princess"] = True
    path = tmp_path / "princess.jcz"
    path.write_text(json.dumps(data))
    code, out, err = _run(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert err == (
        f"carcabot replay: {path}: JCloisterZone element 'princess' (Princess & Dragon: the "
        "princess) is not supported yet\n"
    )


def test_jcz5_castle_save_replays_with_its_castle_line(capsys: pytest.CaptureFixture[str]) -> None:
    path = FIXTURES5 / "bridge-bazaar-and-castles/castle-unoccupied-trigger.jcz"
    code, out, err = _run(capsys, "replay", str(path))
    assert code == 0, err
    assert "castle completed: first feature completed around it, a road: 3 = 3" in out


def _broken_jcz5(mutate: Any) -> Any:
    data = json.loads((FIXTURES5 / "basic/field-scoring.jcz").read_text())
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (
            lambda: (FIXTURES5 / "basic/field-scoring.jcz").read_text()[:700],
            "not valid JSON: ",
        ),
        (
            lambda: json.dumps(_broken_jcz5(lambda d: d["setup"].update(elements=[]))),
            '"setup.elements" must be an object',
        ),
        (
            lambda: json.dumps(
                _broken_jcz5(lambda d: d["replay"][0]["payload"].update(position="0,-1"))
            ),
            "move 1: PLACE_TILE position must be [x, y]",
        ),
        (
            lambda: json.dumps(
                _broken_jcz5(lambda d: d["replay"][0]["payload"].update(rotation="R0"))
            ),
            "move 1: PLACE_TILE: At 0° the south edge",
        ),
        (
            lambda: json.dumps(
                _broken_jcz5(lambda d: d["replay"][3]["payload"].update(tileId="BA/Nope"))
            ),
            "move 4: PLACE_TILE: unknown tile 'BA/Nope'",
        ),
    ],
    ids=["truncated", "wrong-type", "wrong-position-type", "illegal-move", "unknown-tile"],
)
def test_malformed_jcz5_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: Any, line: str
) -> None:
    path = tmp_path / "broken.jcz"
    path.write_text(content())
    for extra in ([], ["--json"]):
        code, out, err = _run(capsys, "replay", *extra, str(path))
        assert (code, out) == (2, "")
        assert err.startswith(f"carcabot replay: {path}: {line}")
        assert err.count("\n") == 1 and "Traceback" not in err


def test_replay_jcz5_png_and_animation(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A solo game (one player) draws like any other."""
    save = str(FIXTURES5 / "traders-and-builders/pigs-no-stack.jcz")
    out_png, out_gif = tmp_path / "board.png", tmp_path / "game.gif"
    code, out, err = _run(capsys, "replay", "--png", str(out_png), "--gif", str(out_gif), save)
    if not (_has("rendering", "render_board") and _has("rendering", "render_animation")):
        assert (code, out) == (2, "")
        return
    from PIL import Image

    assert code == 0, err
    assert _text_scores(out, ("Alice",)) == (4,)
    with Image.open(io.BytesIO(out_png.read_bytes())) as img:
        assert img.format == "PNG" and img.width > 100 and img.height > 100
    with Image.open(io.BytesIO(out_gif.read_bytes())) as img:
        # the start and one frame per turn (5 turns); the renderer may add a closing frame
        assert img.format == "GIF" and getattr(img, "n_frames", 1) >= 6


# ---------------------------------------------------------------------------- --plugin
@pytest.fixture
def no_oracle_after() -> Iterator[None]:
    """``--plugin`` installs the test expansion in this process: take it out afterwards."""
    yield
    from tests.expansions import oracle

    oracle.uninstall()


def test_simulate_plays_a_plugin_expansion_through_its_decisions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, no_oracle_after: None
) -> None:
    code, out, err = _run(
        capsys, "simulate", "--plugin", "tests.expansions.oracle", "--expansions", "oracle",
        "--games", "3", "--players", "3", "--seed", "11", "--record", str(tmp_path), "--json",
    )  # fmt: skip
    assert code == 0 and err == ""
    games = json.loads(out)["games"]
    assert [g["seed"] for g in games] == [11, 12, 13]
    for g in games:
        record = loads((tmp_path / f"game-{g['seed']}.json").read_text())
        assert record.setup.expansions == ("oracle",)
        notations = [a.notation for a in record.actions]
        # every seat guessed in secret, the owl moved or was passed: the random player
        # answered decisions it knows nothing of
        guesses = [n for n in notations if n.startswith("oracle.guess")]
        assert guesses and len(guesses) % 3 == 0
        assert any(n.startswith("oracle.owl") for n in notations)
        replayed = replay(record)
        assert replayed.over and list(replayed.scores) == g["scores"]
    # the record replays from the command line with the same plugin (and only with it)
    recorded = str(tmp_path / "game-11.json")
    code, out, err = _run(
        capsys, "replay", "--plugin", "tests.expansions.oracle", recorded, "--json"
    )
    assert code == 0 and json.loads(out)["scores"] == games[0]["scores"]
    from tests.expansions import oracle

    oracle.uninstall()
    code, out, err = _run(capsys, "replay", recorded)
    assert code == 2 and "the expansion 'oracle' is not playable yet" in err
    code, out, _ = _run(
        capsys, "simulate", "--plugin", "tests.expansions.oracle", "--expansions", "oracle",
        "--games", "2", "--seed", "11", "--players", "3",
    )  # fmt: skip
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("seed     11  scores") and "placed" in lines[0]
    assert lines[-1].startswith("2 tiles games, 3 players:")


@pytest.mark.parametrize("command", ["simulate", "local", "replay"])
@pytest.mark.parametrize(
    ("module", "reason"),
    [
        ("no_such_plugin_mod", "no module named 'no_such_plugin_mod'"),
        ("tests.expansions.nothing_here", "no module named 'tests.expansions.nothing_here'"),
        ("not a module", "not a module name"),
    ],
)
def test_an_unknown_plugin_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, module: str, reason: str
) -> None:
    extra = {"local": ["--db", str(tmp_path / "x.sqlite3")], "replay": ["x.json"]}.get(command, [])
    code, out, err = _run(capsys, command, "--plugin", module, *extra)
    assert (code, out) == (2, "")
    assert err.startswith(f"carcabot {command}: cannot load the plugin '{module}': ")
    assert reason in err and err.count("\n") == 1
    assert not (tmp_path / "x.sqlite3").exists()


def test_the_simulated_card_game_plays_through_its_decisions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not _has("engine.cardgame.sim", "play_random"):
        pytest.skip("no card game simulator in this build")
    code, out, err = _run(capsys, "simulate", "--game", "cards", "--games", "3", "--json")
    assert code == 0 and err == ""
    games = json.loads(out)["games"]
    assert len(games) == 3 and all(g["rounds"] > 0 and len(g["scores"]) == 2 for g in games)


# ---------------------------------------------------------------------------- one writer
def test_a_second_writer_on_the_same_database_refuses_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Another process holds the writer lock (a running bot): the local table refuses to
    start on that file, in one line, and leaves the database untouched."""
    import subprocess
    import sys
    import textwrap

    db = tmp_path / "bot.sqlite3"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import asyncio, sys
                from storage import Storage
                async def hold():
                    s = await Storage.open({str(db)!r}, writer=True)
                    print("ready", flush=True)
                    sys.stdin.readline()
                    await s.close()
                asyncio.run(hold())
                """
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        code, out, err = _run(capsys, "local", "--db", str(db), "--humans", "0")
        said = out + err
        assert code == 2 and said.count("\n") == 1, said
        assert "Cannot open the match database" in said and "another" in said
        assert "Traceback" not in said
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(timeout=10)
