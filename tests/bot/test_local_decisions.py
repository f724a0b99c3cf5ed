"""The console table presents any decision (issue 9): whole games with the test-only Oracle
expansion (owl moves, passes, private guesses from several seats at once) and with Traders &
Builders (the builder's second tile offered, taken and declined), played by scripted players
that read what the console printed and answer it, as a person at the keyboard would."""

from __future__ import annotations

import io
import json
import os
import pty
import random
import re
import select
import termios
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from app import matches
from app.matches import MatchService
from app.options import MatchOptions, game_setup
from cli.main import main as cli_main
from console.ask import Console, spot_words
from console.table import LocalOptions, play_local
from engine.carcassonne.record import GameRecord, replay
from tests.bot.matchservice import tiny_animator, tiny_renderer
from tests.bot.test_local import final_scores
from tests.expansions import oracle

#: answers a prompt (the last, unfinished line printed) given everything printed since the
#: last answer
Policy = Callable[[str, str], str]


class Keyboard(io.StringIO):
    """stdin whose every line is the policy's answer to what the console has just asked."""

    def __init__(self, out: io.StringIO, policy: Policy, limit: int = 4000) -> None:
        super().__init__()
        self.out = out
        self.policy = policy
        self.limit = limit
        self.seen = 0
        self.typed: list[tuple[str, str]] = []  # (prompt, answer)

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        text = self.out.getvalue()
        fresh, self.seen = text[self.seen :], len(text)
        # the last unfinished line holds the prompts answered before it (input is not
        # echoed): the question is the last of them
        prompt = text.rsplit("\n", 1)[-1].split("> ")[-2] + "> "
        if len(self.typed) >= self.limit:
            return ""  # end of input: a policy that loops must not hang the test
        answer = self.policy(prompt, fresh)
        self.typed.append((prompt, answer))
        return answer + "\n"


def record_in(folder: Path) -> GameRecord:
    (path,) = folder.glob("local-*/record.json")
    return GameRecord.from_json(json.loads(path.read_text()))


async def stored_moves(db: Path) -> list[str]:
    """The notations stored for the local match so far (the match need not be finished)."""
    svc = await MatchService.open(db, renderer=None, animator=None)
    try:
        return [e.action for e in await svc.storage.actions.entries(1)]
    finally:
        await svc.close()


def listed(fresh: str) -> dict[str, str]:
    """The choices the console just listed: key -> line."""
    return dict(re.findall(r"^\s+([a-z]|\d+)\) (.*)$", fresh, flags=re.M))


@pytest.fixture
def with_oracle() -> Iterator[None]:
    oracle.install()
    yield
    oracle.uninstall()


# --------------------------------------------------------------------------- Oracle
class OraclePlayers:
    """Humans who place on the first cell, put no figure, move the owl every other time it
    is offered (to the second road or city listed) and guess the roll secretly — the first
    guess of all out of range, to see it refused."""

    def __init__(self) -> None:
        self.owl_answers: list[str] = []
        self.guesses: dict[str, list[int]] = {}
        self.refused_once = False

    def __call__(self, prompt: str, fresh: str) -> str:
        who = prompt.split(" (", 1)[0]
        if "a number from 1 to 6" in prompt:
            if not self.refused_once:
                self.refused_once = True
                return "7"
            mine = self.guesses.setdefault(who, [])
            mine.append(1 + (len(mine) * 2 + len(who)) % 6)
            return str(mine[-1])
        if "feature (" in prompt:  # the owl's question, by its facet
            answer = "b" if len(self.owl_answers) % 2 == 0 and "b" in listed(fresh) else "pass"
            self.owl_answers.append(answer)
            return answer
        if "cell (" in prompt or prompt.lstrip().startswith("Rotation"):
            return "1"
        if "spot (" in prompt or "'pass'" in prompt:
            return "pass"
        raise AssertionError(f"unexpected question: {prompt!r}")


_SECRET_ROUND_LINES = (
    r"",
    r"  \w+, your private choice — others look away\.",
    r"  Guess the next roll \(1–6\)\.",
    r"(\w+ \(\w+\): a number from 1 to 6> )+  (\w+ has chosen \(kept secret\)|Pick a number from"
    r" 1 to 6)\.",
    r"  Bot \d has chosen \(kept secret\)\.",
    # an owl move answered just before the secret guess it led to is submitted with it
    r"\w+ \(\w+\): a number from 1 to 6, 'back'> \w+ (chooses \w+ .*|passes\.)",
)


async def test_a_whole_oracle_game_on_the_console_with_owl_moves_and_private_guesses(
    tmp_path: Path, with_oracle: None
) -> None:
    out = io.StringIO()
    players = OraclePlayers()
    keys = Keyboard(out, players)
    opts = LocalOptions(
        players=3, humans=2, names=("Ana", "Ben"), seed=4, db=tmp_path / "o.sqlite3",
        out=tmp_path, expansions=("oracle",), rules=("oracle.guess_every=2",),
    )  # fmt: skip
    code = await play_local(opts, stdin=keys, stdout=out, renderer=None, animator=None)
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text and "Final scores:" in text
    record = record_in(tmp_path)
    result = replay(record)
    assert result.over and record.setup.expansions == ("oracle",)
    names = record.player_names()
    by_seat: dict[str, list[str]] = {n: [] for n in names}
    for a in record.actions:
        by_seat[names[a.seat]].append(a.notation)

    # every guessing round asks every seat, the humans by the console, one after the other
    rounds = text.count("Guesses revealed")
    assert rounds >= 10
    assert text.count("Ana, your private choice — others look away.") == rounds
    assert text.count("Ben, your private choice — others look away.") == rounds
    assert text.count("Bot 1 has chosen (kept secret).") == rounds
    assert "Pick a number from 1 to 6." in text  # the 7 was refused
    for who in ("Ana", "Ben"):
        stored = [int(n.split()[1]) for n in by_seat[who] if n.startswith("oracle.guess")]
        assert stored == players.guesses[who] and len(stored) == rounds
    # nothing but the announcements, the question and "has chosen" while a round is open:
    # no guess of one seat is printed while another seat's is pending
    open_round = False
    for line in text.splitlines():
        if line.endswith("your private choice — others look away."):
            open_round = True
        elif line.startswith("  * Guesses revealed"):
            open_round = False
        if open_round:
            assert any(re.fullmatch(p, line) for p in _SECRET_ROUND_LINES), line
    assert "oracle.guess" not in text

    # the owl was offered to the humans, who moved it and passed
    assert "b" in players.owl_answers and "pass" in players.owl_answers
    human_owls = [n for who in ("Ana", "Ben") for n in by_seat[who] if n.startswith("oracle.owl")]
    assert len(human_owls) == players.owl_answers.count("b")
    assert "Move the owl to a road or city, or pass." in text
    # random seats answer too, and their owl moves read as words, not notation
    assert re.search(r"^Bot 1 chooses (road|city) .+\.$", text, flags=re.M)
    assert not re.search(r"^(Ana|Ben|Bot 1) (chooses|passes) .* — ", text, flags=re.M)
    # the dice and the points of right guesses come from the events
    assert re.search(r"^  \* (Ana|Ben|Bot 1) rolls a [1-6]\.$", text, flags=re.M)
    assert final_scores(text) == dict(zip(names, result.scores, strict=True))


async def test_oracle_choices_are_drawn_with_the_letters_the_console_lists(
    tmp_path: Path, with_oracle: None
) -> None:
    """With a renderer, a question whose options are places on the board writes a picture
    of them labelled as listed (the owl's features, the spots of the placed tile)."""
    out = io.StringIO()
    players = OraclePlayers()
    keys = Keyboard(out, players, limit=40)
    opts = LocalOptions(
        players=2, humans=2, seed=8, db=tmp_path / "p.sqlite3", out=tmp_path,
        expansions=("oracle",),
    )  # fmt: skip
    await play_local(opts, stdin=keys, stdout=out, renderer=tiny_renderer, animator=tiny_animator)
    text = out.getvalue()
    named = re.findall(r"\(lettered as on (\S+choice-\d+-\d+\.png)\):", text)
    assert named and "Input ended" in text
    for path in named:
        with Image.open(path) as img:
            img.load()
            assert img.format == "PNG" and img.width > 100  # the real targets picture


# --------------------------------------------------------------------------- Traders & Builders
class BuilderPlayers:
    """Humans who put a follower on a road or city, place beside their figures to extend
    those, put the builder out whenever they can, and take the builder's second tile every
    other time it is offered."""

    def __init__(self) -> None:
        self.bonus_answers: list[str] = []
        self.builders: set[tuple[int, int]] = set()
        self.followers: set[tuple[int, int]] = set()
        self.cell = (0, 0)

    def __call__(self, prompt: str, fresh: str) -> str:
        if "second tile: play it?" in fresh:
            answer = "yes" if len(self.bonus_answers) % 2 == 0 else "no"
            self.bonus_answers.append(answer)
            return answer
        choices = listed(fresh)
        if "cell (" in prompt:
            if not choices:
                return "board"  # lists them again
            cells = {k: _xy(line.split()[0]) for k, line in choices.items()}
            key = next(
                (k for mine in (self.builders, self.followers) for k in cells
                 if any(_beside(cells[k], c) for c in mine)),
                str(1 + len(self.followers) % len(cells)),
            )  # fmt: skip
            self.cell = cells[key]
            return key
        if prompt.lstrip().startswith("Rotation"):
            return "1"
        if prompt.lstrip().startswith("Figure"):
            m = re.search(r"(\d)\) builder", prompt)
            (self.builders if m else self.followers).add(self.cell)
            return m.group(1) if m else "1"
        if "spot (" in prompt:
            for key, line in choices.items():
                if "builder" in line:
                    self.builders.add(self.cell)
                    return key
            for key, line in choices.items():
                if line.startswith(("road", "city")):
                    self.followers.add(self.cell)
                    return key
            return "pass"
        if "'pass'" in prompt:
            return "pass"
        raise AssertionError(f"unexpected question: {prompt!r}")


def _xy(text: str) -> tuple[int, int]:
    x, y = text.split(",")
    return int(x), int(y)


def _beside(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def honour_lobby_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start matches with exactly the rules the lobby chose. (Until the Discord side can show
    the builder's optional second tile, the service forces it to be automatic; the console can
    show it already. Once the service stops forcing it this patch changes nothing.)"""

    def setup(options: MatchOptions, names: Any) -> Any:
        made = game_setup(options, names)
        rules = {**dict(made.options), **dict(options.rules)}
        return replace(made, options=tuple(sorted(rules.items())))

    monkeypatch.setattr(matches, "game_setup", setup)


async def test_a_traders_and_builders_game_offers_the_second_tile_to_take_or_decline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    honour_lobby_rules(monkeypatch)
    out = io.StringIO()
    players = BuilderPlayers()
    opts = LocalOptions(
        players=2, humans=2, names=("Ana", "Ben"), seed=27, db=tmp_path / "tb.sqlite3",
        out=tmp_path, expansions=("traders_builders",), rules=("tb.builder_bonus=ask",),
    )  # fmt: skip
    code = await play_local(
        opts, stdin=Keyboard(out, players), stdout=out, renderer=None, animator=None
    )
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text and "Final scores:" in text
    assert "Your builder earns you a second tile: play it?" in text
    assert "yes" in players.bonus_answers and "no" in players.bonus_answers
    record = record_in(tmp_path)
    assert record.setup.option("tb.builder_bonus") == "ask" and replay(record).over
    actions = [(a.seat, a.notation) for a in record.actions]
    taken = [i for i, (_, n) in enumerate(actions) if n == "tb.bonus take"]
    assert len(taken) == players.bonus_answers.count("yes")
    for i in taken:  # the same seat then places its second tile
        assert actions[i + 1][0] == actions[i][0] and actions[i + 1][1].startswith("place")
    # each offer shows as the prompt and its one option, with yes/no accepted
    assert "a) Play the second tile" in text
    assert text.count("second tile: play it?") == len(players.bonus_answers)


# --------------------------------------------------------------------------- pieces
def test_spot_words_tell_two_fields_of_a_tile_apart() -> None:
    assert spot_words("field:En.Sw") == "field (north-east, south-west)"
    assert spot_words("field:Es.Se") == "field (south-east)"
    assert spot_words("city:NW") == "city (north, west)"
    assert spot_words("field:Nw.Ne.En.Es.Se.Sw.Ws.Wn") == "field (all around)"


def test_a_private_answer_typed_at_a_terminal_is_not_echoed() -> None:
    master, slave = pty.openpty()

    def typed_when_asked(answer: bytes, *, echo: bool) -> bytes:
        """Type ``answer`` once the console waits (echo off for a secret), return the echo."""
        for _ in range(500):
            if bool(termios.tcgetattr(slave)[3] & termios.ECHO) is echo:
                break
            time.sleep(0.01)
        os.write(master, answer)
        seen = b""
        while select.select([master], [], [], 0.2)[0]:
            seen += os.read(master, 100)
        return seen

    try:
        with open(slave, closefd=False) as tty_in, ThreadPoolExecutor(1) as pool:
            shown = io.StringIO()
            con = Console(tty_in, shown)
            asked = pool.submit(con.ask, "guess> ", hidden=True)
            time.sleep(0.05)
            assert b"4" not in typed_when_asked(b"4\n", echo=False)
            assert asked.result(timeout=5) == "4"
            asked = pool.submit(con.ask, "cell> ")
            assert b"5" in typed_when_asked(b"5\n", echo=True)  # an ordinary answer shows
            assert asked.result(timeout=5) == "5"
        assert shown.getvalue() == "guess> (hidden)\ncell> "
        assert termios.tcgetattr(slave)[3] & termios.ECHO  # echo is back on
    finally:
        os.close(master)
        os.close(slave)


# --------------------------------------------------------------------------- the command
def test_local_with_the_oracle_plugin_plays_unattended_and_resumes_only_with_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # small real pictures: the whole games are the point here, not the drawing
    monkeypatch.setattr(matches, "default_renderer", lambda: tiny_renderer)
    monkeypatch.setattr(matches, "default_animator", lambda: tiny_animator)
    monkeypatch.setattr("rendering.render_targets", lambda view, targets, labels, **kw: b"png")
    db, img = str(tmp_path / "l.sqlite3"), str(tmp_path / "out")
    try:
        code = cli_main(
            ["local", "--plugin", "tests.expansions.oracle", "--expansions", "oracle",
             "--humans", "0", "--players", "3", "--seed", "2", "--db", db, "--out", img]
        )  # fmt: skip
        text = capsys.readouterr().out
        assert code == 0 and "Expansions: Oracle (test)." in text and "Final scores:" in text
        assert "has chosen (kept secret)." in text and "Guesses revealed" in text
        record = record_in(tmp_path / "out")
        assert record.setup.expansions == ("oracle",) and replay(record).over

        # a match stopped half-way is stored; resuming it needs the plugin again
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
        argv = ["local", "--plugin", "tests.expansions.oracle", "--expansions", "oracle",
                "--humans", "1", "--seed", "3", "--db", db, "--out", img]  # fmt: skip
        assert cli_main(argv) == 0
        text = capsys.readouterr().out
        hint = "carcabot local --resume --plugin tests.expansions.oracle"
        assert f"Continue it with '{hint}'." in text
    finally:
        oracle.uninstall()
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli_main(["local", "--resume", "--db", db, "--out", img]) == 2
    text = capsys.readouterr().out
    assert "The unfinished local match cannot be loaded" in text
    assert "resume with the same one" in text and "set aside" not in text
    try:
        # the human seat goes on: a cell and no figure, a guess of 1, never the owl
        monkeypatch.setattr("sys.stdin", io.StringIO("1\nnone\n" * 400))
        argv = ["local", "--resume", "--plugin", "tests.expansions.oracle", "--db", db,
                "--out", img]  # fmt: skip
        assert cli_main(argv) == 0
        text = capsys.readouterr().out
        assert re.match(r"Resuming local match 2 at turn \d+\.", text) and "Final scores:" in text
    finally:
        oracle.uninstall()


async def test_several_answers_on_one_line_and_going_back(tmp_path: Path) -> None:
    """'2 1 a' answers cell, rotation and spot at once (the words of each are shown);
    'back' returns to the previous question; what a line leaves unused is said."""
    out = io.StringIO()
    script = "3\nback\n2 1 a\n" + "1 1 pass extra words\n" + "quit\n"
    opts = LocalOptions(players=2, humans=2, seed=5, db=tmp_path / "k.sqlite3", out=tmp_path)
    code = await play_local(opts, stdin=io.StringIO(script), stdout=out, renderer=None)
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text
    assert text.count("Choose a cell (numbered as on the board image):") >= 3  # listed again
    first = await stored_moves(tmp_path / "k.sqlite3")
    assert first[0].startswith("place") and first[1].startswith("deploy")
    assert "Rotation for cell -1,0: 1) 0° 2) 180° (or 'back')> 1\n    → 0°\n" in text
    # the follower step offers 'back': nothing is stored until it is answered
    assert re.search(r"spot \(a-[a-z]\), 'pass', 'back' or a move> a\n    → \w+ \(", text)
    assert first[2].startswith("place") and first[3] == "pass"
    assert "(The rest of the line was not used: extra words)" in text


async def test_back_from_the_follower_step_returns_to_the_rotation(tmp_path: Path) -> None:
    """The tile and its follower are one chain, submitted together (as on Discord): 'back' at
    the follower step asks the rotation again, and 'undo' there starts the turn over; neither
    stores anything."""
    out = io.StringIO()
    # seed 5: cell 2 (-1,0) takes 0° or 180°; go back from the spot to turn it 180°, back
    # again to turn it 0°, undo at the spot, then place it at 0° with a knight on its city
    script = "2 1 back 2 back 1 undo 2 1 a\nquit\n"
    opts = LocalOptions(players=2, humans=2, seed=5, db=tmp_path / "b.sqlite3", out=tmp_path)
    code = await play_local(opts, stdin=io.StringIO(script), stdout=out, renderer=None)
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text
    assert text.count("Rotation for cell -1,0: 1) 0° 2) 180° (or 'back')>") == 4
    assert "Placement taken back: place the tile again." in text
    moves = await stored_moves(tmp_path / "b.sqlite3")
    assert moves[:2] == ["place -1,0 r0", "deploy city:N"], moves


async def test_a_typed_ahead_rotation_goes_to_its_step_when_only_one_fits(tmp_path: Path) -> None:
    """'6 1 pass' on a cell where one rotation fits: the console says it fits and the "1" is
    that step's answer, so "pass" answers the follower step from the same line (the "1" used to
    reach the spot step, which refused it and dropped the rest of the line: "pass")."""
    out = io.StringIO()
    singles: list[str] = []
    asked_again: list[str] = []

    def policy(prompt: str, fresh: str) -> str:
        if "spot (" in prompt:
            asked_again.append(fresh)
        if "cell (" in prompt:
            one = [k for k, line in listed(fresh).items() if line.count("°") == 1]
            if one:
                singles.append(one[0])
                return f"{one[0]} 1 pass"
            return "1 1 pass"
        return "quit" if len(singles) >= 3 else "pass"

    keys = Keyboard(out, policy, limit=400)
    opts = LocalOptions(players=2, humans=2, seed=5, db=tmp_path / "t.sqlite3", out=tmp_path)
    code = await play_local(opts, stdin=keys, stdout=out, renderer=None)
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text
    assert len(singles) >= 3, "cells where only one rotation fits came up"
    assert text.count(" fits for cell ") >= 3  # "Only 90° fits for cell 0,-1." for each
    assert not asked_again, asked_again[0]  # "pass" came from the line typed ahead
    assert "Pick a letter" not in text and "rest of the line" not in text
    moves = await stored_moves(tmp_path / "t.sqlite3")
    # every human placement was followed by its "pass": never a follower from the stray "1"
    assert not [m for m in moves if m.startswith("deploy")], moves


# --------------------------------------------------------------------------- Abbey & Mayor
class AbbeyPlayers:
    """Humans who play their abbey into the first hole offered (keeping what the console said
    when it offered the holes), and otherwise take the first cell and rotation and put no
    figure out."""

    def __init__(self) -> None:
        self.holes: list[tuple[str, dict[str, str]]] = []
        self.rng = random.Random(3)
        self.cells: dict[str, str] = {}

    def __call__(self, prompt: str, fresh: str) -> str:
        if "Play your abbey" in fresh and ("cell (" in prompt or "(yes/no)" in prompt):
            self.holes.append((fresh, listed(fresh)))
            return "1" if "cell (" in prompt else "yes"
        if "cell (" in prompt:  # anywhere, so that holes open up
            self.cells = listed(fresh) or self.cells
            return self.rng.choice(sorted(self.cells)) if self.cells else "1"
        if prompt.lstrip().startswith(("Rotation", "Figure")):
            return "1"
        if "(yes/no)" in prompt:
            return "no"
        if "'pass'" in prompt:
            return "pass"
        raise AssertionError(f"unexpected question: {prompt!r}")


def boxes_of(img: Image.Image, colour: tuple[int, int, int]) -> list[tuple[int, int, int, int]]:
    """The bounding boxes of the connected patches of ``colour`` (a numbered cell's frame)."""
    w, h = img.size
    data = img.load()
    assert data is not None
    seen: set[tuple[int, int]] = set()
    out = []
    for y in range(0, h, 2):
        for x in range(0, w, 2):
            if (x, y) in seen or data[x, y] != colour:
                continue
            stack, box = [(x, y)], [x, y, x, y]
            seen.add((x, y))
            while stack:
                cx, cy = stack.pop()
                box = [min(box[0], cx), min(box[1], cy), max(box[2], cx), max(box[3], cy)]
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    inside = 0 <= nx < w and 0 <= ny < h
                    if inside and (nx, ny) not in seen and data[nx, ny] == colour:
                        seen.add((nx, ny))
                        stack.append((nx, ny))
            out.append((box[0], box[1], box[2], box[3]))
    return out


async def test_an_abbeys_holes_are_numbered_on_a_picture_of_their_own(tmp_path: Path) -> None:
    """The board image numbers the drawn tile's cells only: the holes an abbey may fill get a
    picture of their own, each hole listed numbered in a box wholly inside it (issue 21)."""
    from rendering.board import CELL_FRAME

    out = io.StringIO()
    players = AbbeyPlayers()
    keys = Keyboard(out, players, limit=400)
    opts = LocalOptions(
        players=2, humans=2, seed=3, db=tmp_path / "a.sqlite3", out=tmp_path,
        expansions=("abbey_mayor",),
    )  # fmt: skip
    await play_local(opts, stdin=keys, stdout=out)
    assert players.holes, "no abbey was offered"
    for fresh, choices in players.holes:
        asked = fresh.split("Play your abbey")[-1]
        assert "numbered as on the board image" not in asked
        (path,) = re.findall(r"\(numbered as on (\S+choice-\d+-\d+\.png)\)", asked)
        with Image.open(path) as img:
            pic = img.convert("RGB")
        frames = [b for b in boxes_of(pic, CELL_FRAME) if b[2] - b[0] > 20]
        assert len(frames) == max(1, len(choices)), (path, frames, choices)
        for x0, y0, x1, y1 in frames:
            assert x0 > 0 and y0 > 0 and x1 < pic.width - 1 and y1 < pic.height - 1
