"""The local table in Spanish and the card game at the local table (issue 14).

A human plays from the first question to the final scores (lines typed from a fixed cycle;
a line a question does not take is refused in words and the next one tried). Whatever the
table prints in Spanish must read Spanish (:mod:`tests.bot.spanish`); in either language it
names tiles by what is printed on them and features by where they lie — never a tile id or
a half-edge code —, echoes the human's moves, and draws the rotation preview and the spot
picture Discord shows.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image

from cli.main import main as cli_main
from console.table import LocalOptions, play_local
from tests.bot.matchservice import tiny_animator, tiny_renderer
from tests.bot.spanish import english_in, english_words

#: a tile id (``BA/RCr``) or a half-edge code (``field:En.Sw``, ``Ws``) in a console line
_CODES = re.compile(r"\b(BA|IC|TB)/|\b(Nw|Ne|En|Es|Se|Sw|Ws|Wn)\b")
NAMES = ("Ana", "Bot 1", "Bot 2")


def _script(*first: str, cycle: tuple[str, ...] = ("1", "1", "a"), n: int = 3000) -> str:
    lines = list(first) + [cycle[i % len(cycle)] for i in range(n)]
    return "\n".join(lines) + "\n"


def _prose(text: str) -> list[str]:
    """The printed lines without file paths (a path may hold anything)."""
    return [line for line in text.splitlines() if "/" not in line]


def _pngs(folder: Path, pattern: str) -> list[Image.Image]:
    out = []
    for path in sorted(folder.glob(pattern)):
        with Image.open(path) as img:
            img.load()
            assert img.format == "PNG"
            out.append(img.copy())
    return out


async def _play_tiles(tmp_path: Path, lang: str, script: str) -> tuple[str, Path]:
    out = io.StringIO()
    opts = LocalOptions(
        players=2,
        humans=1,
        names=("Ana",),
        seed=4,
        out=tmp_path / "out",
        db=tmp_path / "t.sqlite3",
        expansions=("inns_cathedrals", "traders_builders"),
        lang=lang,
    )
    code = await play_local(
        opts, stdin=io.StringIO(script), stdout=out, renderer=tiny_renderer, animator=tiny_animator
    )
    assert code == 0
    (folder,) = (tmp_path / "out").glob("local-*")
    return out.getvalue(), folder


async def test_the_local_table_plays_a_whole_match_in_spanish(tmp_path: Path) -> None:
    script = _script("hola", "place 50,50 r0", "1")
    text, folder = await _play_tiles(tmp_path, "es", script)
    assert "Traceback" not in text and "Puntuación final:" in text
    assert "No lo he entendido" in text  # 'hola'
    assert "50,50 no toca ninguna pieza" in text  # the engine's reason, in Spanish
    # (a line typed from a pipe is not echoed: the echo follows the question on its line)
    placed = r"(^|> )Ana coloca la pieza \(.+\) en la casilla \d+ \(-?\d+,-?\d+\), girada \d+°\.$"
    assert re.search(placed, text, re.M)
    assert re.search(
        r"(^|> )Ana pone su seguidor como (ladrón|caballero|monje|granjero) en: ", text, re.M
    )
    assert re.search(r"^  \* .*(completad[oa]|al final).* -> ", text, re.M)
    assert not [ln for ln in _prose(text) if _CODES.search(ln)]
    english = english_words()
    bad = [(ln, w) for ln in _prose(text) if (w := english_in(ln, NAMES, english))]
    assert not bad, bad[:10]
    # the pictures Discord shows: each rotation preview and each spot picture is a real PNG
    previews = _pngs(folder, "rotations-*.png")
    spots = _pngs(folder, "choice-*.png")
    assert previews and spots
    assert all(img.width > 200 and img.height > 100 for img in previews + spots)
    assert f"La pieza girada de cada forma posible: {folder}" in text


async def test_the_local_table_in_english_names_tiles_and_fields_for_people(
    tmp_path: Path,
) -> None:
    text, folder = await _play_tiles(tmp_path, "en", _script())
    assert "Final scores:" in text
    placed = r"(^|> )Ana places the tile \(.+\) at cell \d+ \(-?\d+,-?\d+\), turned \d+°\.$"
    assert re.search(placed, text, re.M)
    assert re.search(
        r"(^|> )Ana puts a follower on the .+ as a (thief|knight|monk|farmer)\.", text, re.M
    )
    assert re.search(r"draws a tile: (city|road|cloister)", text)
    assert not [ln for ln in _prose(text) if _CODES.search(ln)]
    assert list(folder.glob("rotations-*.png")) and list(folder.glob("choice-*.png"))


def test_local_cards_plays_the_card_game_in_spanish_with_a_human(tmp_path: Path) -> None:
    script = _script(cycle=("a", "1"))
    out = io.StringIO()
    import asyncio

    opts = LocalOptions(
        players=3,
        humans=1,
        names=("Ana",),
        seed=5,
        out=tmp_path / "out",
        db=tmp_path / "c.sqlite3",
        lang="es",
        game="cards",
    )
    assert asyncio.run(play_local(opts, stdin=io.StringIO(script), stdout=out)) == 0
    text = out.getvalue()
    assert "Traceback" not in text and "Puntuación final:" in text
    assert "Mano: " in text and "¿Qué carta juegas?" in text
    assert re.search(r"^  \* .*Ana jugó ", text, re.M)  # her own moves are told
    assert re.search(r"personajes: .* = \d+", text) and "edificios: serie de" in text
    english = english_words()
    bad = [(ln, w) for ln in _prose(text) if (w := english_in(ln, NAMES, english))]
    assert not bad, bad[:10]
    (folder,) = (tmp_path / "out").glob("cards-*")
    assert _pngs(folder, "final.png") and _pngs(folder, "hand-*.png")


def test_carcabot_local_game_cards_runs_unattended_from_the_command_line(
    tmp_path: Path, capsys: object
) -> None:
    argv = ["local", "--game", "cards", "--humans", "0", "--players", "4", "--seed", "2",
            "--db", str(tmp_path / "c.sqlite3"), "--out", str(tmp_path / "out")]  # fmt: skip
    assert cli_main(argv) == 0
    text = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "Final scores:" in text and "winner" in text and "Round 1 of" in text
    ranked = re.findall(r"^  \d\. (Bot \d)\s+(\d+)", text, re.M)
    assert len(ranked) == 4
    scores = [int(s) for _, s in ranked]
    assert scores == sorted(scores, reverse=True) or "winner" in text


async def test_the_spanish_tables_pictures_are_drawn_in_spanish(tmp_path: Path) -> None:
    """Every board picture of a ``--lang es`` table is asked for in Spanish (its words —
    "Fin de la partida", the breakdown's headings — come from the picture catalogue)."""
    from typing import Any

    langs: list[str] = []

    def recording(view: Any, **kw: Any) -> bytes:
        langs.append(kw.get("lang", "en"))
        return tiny_renderer(view, **kw)

    opts = LocalOptions(
        players=2, humans=0, seed=3, out=tmp_path / "out", db=tmp_path / "l.sqlite3", lang="es"
    )
    code = await play_local(opts, stdin=io.StringIO(""), stdout=io.StringIO(), renderer=recording)
    assert code == 0 and langs and set(langs) == {"es"}
