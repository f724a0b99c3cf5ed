"""Bridges, Castles & Bazaars at the console table: a whole game where a person at the keyboard
places, builds bridges and castles, opens auctions and gives sealed bids, against two random
seats; a bid is typed privately and nothing of it is printed before the bids are revealed; the
random seats' numeric answers read as words ("Tile A (BA/C): 3"), payments as minus and plus."""

from __future__ import annotations

import io
import re
from pathlib import Path

from console.table import LocalOptions, play_local
from engine.carcassonne.record import replay
from tests.bot.test_local import final_scores
from tests.bot.test_local_decisions import Keyboard, record_in


class Player:
    """Answers any question the console asks: the first cell and rotation, a bridge and a castle
    whenever offered, no follower, tile A at an opening bid of 1, a sealed bid of 3 more than the
    least every other time (else a pass), buy."""

    def __init__(self) -> None:
        self.bids: list[str] = []

    def __call__(self, prompt: str, fresh: str) -> str:
        low = prompt.lower()
        m = re.search(r"a number from (\d+) to (\d+)", low)
        if m:
            lo = int(m.group(1))
            if "'pass'" in low:  # a sealed bid
                answer = str(lo + 3) if len(self.bids) % 2 == 0 else "pass"
                self.bids.append(answer)
                return answer
            return str(max(lo, 1))  # an opening bid
        if "(yes/no)" in low:
            return "yes"
        if "(a-" in low:
            return "a"
        if "(1-" in low or low.lstrip().startswith("rotation"):
            return "1"
        if "'pass'" in low:
            return "pass"
        raise AssertionError(f"unexpected question: {prompt!r}")


async def test_a_whole_game_with_markets_bridges_and_castles_on_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    player = Player()
    keys = Keyboard(out, player)
    opts = LocalOptions(
        players=3, humans=1, names=("Ana",), seed=4, db=tmp_path / "b.sqlite3",
        out=tmp_path, expansions=("bridges_castles_bazaars",),
    )  # fmt: skip
    code = await play_local(opts, stdin=keys, stdout=out, renderer=None, animator=None)
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text and "Final scores:" in text
    record = record_in(tmp_path)
    result = replay(record)
    assert result.over and final_scores(text) == dict(
        zip(record.player_names(), result.scores, strict=True)
    )
    assert text.count("Market!") >= 3 and player.bids, "Ana bid in secret"
    # the revealed tiles are named in words, not by their ids
    reveals = [line for line in text.splitlines() if "Market!" in line]
    assert all(not re.search(r"\b[A-Z]{2}/\w", line) for line in reveals), reveals
    assert any(re.search(r"tiles: (road|city|cloister)", line) for line in reveals), reveals
    assert "Ana builds a bridge" in text and "Ana builds a castle" in text
    # a bid is asked privately; until the reveal only "has chosen" is printed of it
    assert "Ana, your private choice — others look away." in text
    open_round = False
    for line in text.splitlines():
        if line.endswith("your private choice — others look away."):
            open_round = True
        elif "sealed bid:" in line or "Nobody outbids" in line:
            open_round = False
        if open_round:
            assert not re.search(r"sealed bid|bcb\.sealed", line), line
    assert "bcb.sealed" not in text
    # the random seats' auctions read as words, payments signed
    # a tile is named by what is printed on it
    assert re.search(
        r"^Bot \d chooses Tile [A-C] \([^)]+\): \d+ \(choose a market tile\)\.$", text, flags=re.M
    )
    # an echo line is one sentence: the answer, and the question's short name
    assert not re.search(r"^(Ana|Bot \d) (chooses|passes) .* — ", text, flags=re.M)
    assert re.search(r"^(Ana|Bot \d) passes \(no (bridge|follower)\)\.$", text, flags=re.M)
    assert "+-" not in text
    assert re.search(r"-> (Ana|Bot \d) -\d+", text), "a payment reads as minus"


class SpanishBidder:
    """Answers in Spanish, trying first what a newcomer types: 'pasar' and then 'pass' at an
    opening bid (where passing is not allowed), 'puja 15' and 'bid 15' at a sealed bid (not a
    number), then a real answer."""

    def __init__(self) -> None:
        self.offers = 0
        self.sealed = 0

    def __call__(self, prompt: str, fresh: str) -> str:
        low = prompt.lower()
        if re.search(r"un número de \d+", low):
            if "'pasar'" in low:  # a sealed bid
                self.sealed += 1
                return {1: "puja 15", 2: "bid 15"}.get(self.sealed, "pasar")
            self.offers += 1
            return {1: "pasar", 2: "pass"}.get(self.offers, "1")
        if "(sí/no)" in low:
            return "no"
        if "(a-" in low:
            return "a"
        if "(1-" in low or "giro" in low:
            return "1"
        if "'pasar'" in low:
            return "pasar"
        raise AssertionError(f"unexpected question: {prompt!r}")


async def test_spanish_words_at_the_market_are_understood_and_answered_in_spanish(
    tmp_path: Path,
) -> None:
    """In Spanish, 'pasar' and 'pass' at the opening bid are both answered — in Spanish —
    that passing is not allowed there; a sealed bid typed as words is answered with the
    number asked, without echoing it and without suggesting tile moves."""
    from tests.bot.spanish import english_in

    out = io.StringIO()
    bidder = SpanishBidder()
    opts = LocalOptions(
        players=3, humans=1, names=("Ana",), seed=4, db=tmp_path / "es.sqlite3",
        out=tmp_path, expansions=("bridges_castles_bazaars",), lang="es",
    )  # fmt: skip
    code = await play_local(
        opts, stdin=Keyboard(out, bidder), stdout=out, renderer=None, animator=None
    )
    text = out.getvalue()
    assert code == 0 and "Puntuación final:" in text
    assert bidder.offers >= 3 and bidder.sealed >= 3, "Ana opened a market and bid in secret"
    refused = [line for line in text.splitlines() if "Aquí no se puede pasar" in line]
    assert len(refused) == 2, refused
    assert all(not english_in(line.split("> ")[-1], ("Ana",)) for line in refused), refused
    assert "'pasar' no es una acción" not in text and "comes first" not in text
    # the words typed at a sealed bid are never printed, nor is a tile move suggested
    assert "puja 15" not in text and "bid 15" not in text
    assert text.count("Eso no es un número: escribe un número de ") == 2
    assert "usa 'place X,Y" not in text, "no tile move is suggested after the opening help"
