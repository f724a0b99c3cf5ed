"""Ferries at the console table, in Spanish: a whole game where a person at the keyboard puts
each lake's ferry and moves ferries against a random seat; the questions name the pairs of road
ends in words ("camino (este, oeste)"), the ferries are told in Spanish, and the record the
table saves replays to the printed scores."""

from __future__ import annotations

import io
import re
from pathlib import Path

from console.table import LocalOptions, play_local
from engine.carcassonne.record import replay
from tests.bot.test_local_decisions import Keyboard, record_in


class Barquero:
    """Answers any question the console asks in Spanish: the first choice, a move of a ferry
    whenever one is offered, no follower."""

    def __init__(self) -> None:
        self.questions: list[str] = []

    def __call__(self, prompt: str, fresh: str) -> str:
        low = prompt.lower()
        if "finales de camino" in low or "transbordador" in low:
            self.questions.append(prompt)
        if "(sí/no)" in low:
            return "no"
        if "(a-" in low:
            return "a"
        if "(1-" in low or "giro" in low:
            return "1"
        if "'pasar'" in low:
            return "pasar"
        raise AssertionError(f"unexpected question: {prompt!r}")


async def test_a_whole_game_with_ferries_on_the_console_in_spanish(tmp_path: Path) -> None:
    out = io.StringIO()
    player = Barquero()
    opts = LocalOptions(
        players=2, humans=1, names=("Ana",), seed=4, db=tmp_path / "f.sqlite3",
        out=tmp_path, expansions=("ferries",), lang="es",
    )  # fmt: skip
    code = await play_local(
        opts, stdin=Keyboard(out, player), stdout=out, renderer=None, animator=None
    )
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text and "Puntuación final:" in text
    record = record_in(tmp_path)
    result = replay(record)
    table = text.split("Puntuación final:")[1].split("Registro:")[0]
    printed = dict(re.findall(r"^\s*\d+\.\s+(.+?)\s{2,}(-?\d+)", table, flags=re.M))
    assert result.over and {k: int(v) for k, v in printed.items()} == dict(
        zip(record.player_names(), result.scores, strict=True)
    )
    assert player.questions, "Ana placed no ferry"
    assert "coloca el transbordador en el lago de" in text
    assert re.search(r"camino \((norte|este|sur|oeste), (norte|este|sur|oeste)\)", text)
    assert "Elige — par de finales de camino:" in text and "pair" not in text
    assert re.search(r"mueve el transbordador de -?\d+,-?\d+: unía los finales de camino", text)
