"""What players read names things in words, with the right word forms, in both languages
(issue 21): no tile id in a market payment, no card code in the card game's lines, a payment
says who paid whom, counts of one are singular, and the animal table's assumed values are said
once in the rules text, not in every score line."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from cli.main import main
from console.i18n import tl
from console.table import LocalOptions, play_local
from engine.cardgame.cards import FACE_BY_CODE
from engine.cardgame.text import rules_summary
from engine.core import messages
from words.i18n import Lang, t
from words.i18n_cards import tc

ROOT = Path(__file__).resolve().parents[2]
#: a tile id (``BA/RFr``, ``TB/CcR!.w``) in a line
TILE_ID = re.compile(r"\b[A-Z]{2}(\.\d)?/\S")
#: a card code as typed (``blue-2``, ``yellow-building``, ``building-joker``, ``azul-2``)
CARD_CODE = re.compile(
    "|".join(
        re.escape(c)
        for face in FACE_BY_CODE.values()
        for c in sorted({face.code, face.code_es}, key=len, reverse=True)
        if "-" in c
    )
)


async def _local(tmp_path: Path, lang: str, **kw: object) -> str:
    out = io.StringIO()
    opts = LocalOptions(
        humans=0, db=tmp_path / f"{lang}.sqlite3", out=tmp_path / lang, lang=lang, **kw
    )  # type: ignore[arg-type]
    code = await play_local(opts, stdout=out, renderer=None, animator=None)
    assert code == 0
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_market_payments_name_the_tile_in_words(tmp_path: Path, lang: str) -> None:
    text = await _local(tmp_path, lang, players=4, seed=3, expansions=("bridges_castles_bazaars",))
    market = "market" if lang == "en" else "mercado"
    payments = [line for line in text.splitlines() if f"• {market}:" in line]
    assert payments, "the game had a market"
    assert not [line for line in text.splitlines() if TILE_ID.search(line)]
    tile = "the tile (" if lang == "en" else "la pieza ("
    assert all(tile in line for line in payments), payments
    # who paid whom: the payer's points go down, the payee's up
    assert any(re.search(r"-> Bot \d -\d+, Bot \d \+\d+$", line) for line in payments)


def test_a_replayed_payment_says_who_paid_whom(capsys: pytest.CaptureFixture[str]) -> None:
    save = ROOT / "tests" / "fixtures" / "jcz" / "random" / "bcb-3p-02.jcz"
    assert main(["replay", str(save)]) == 0
    out = capsys.readouterr().out
    payments = [line for line in out.splitlines() if line.startswith("  market:")]
    assert payments
    for line in payments:
        assert not TILE_ID.search(line), line
        assert re.search(r"→ \w+ -\d+(, \w+ \+\d+)?$", line), line
    # a shared scoring still reads "A and B"
    assert "Scoring:" in out


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_card_game_lines_name_cards_in_words(tmp_path: Path, lang: str) -> None:
    text = await _local(tmp_path, lang, players=3, seed=5, game="cards")
    lines = [line for line in text.splitlines() if "/" not in line]  # not the file paths
    assert not [line for line in lines if CARD_CODE.search(line)], "a card code reached players"
    assert "(s)" not in text
    assert "assumed" not in text and "supuesto" not in text
    assert not re.search(r"\b1 (cards|cartas|animals|animales)\b", text)
    named = "🃏 building joker" if lang == "en" else "🃏 comodín de edificio"
    assert named in text, "cards are named as the rules name them"


def test_counts_of_one_are_singular() -> None:
    import engine.carcassonne.expansions.bridges_castles_bazaars  # noqa: F401  (its words)

    def w(key: str, lang: str, **params: object) -> str:
        return messages.text(key, lang, **params)

    import rendering.words  # noqa: F401  (the pictures' words)

    assert w("pic.tiles_left", "en", n=1) == "1 tile left"
    assert w("pic.tiles_left", "es", n=1) == "Queda 1 pieza"
    assert w("pic.tiles_left", "es", n=5) == "Quedan 5 piezas"
    assert w("bcb.bridges_left", "en", n=1) == "1 bridge left"
    assert w("bcb.bridges_left", "es", n=1) == "le queda 1 puente"
    assert w("bcb.castles_left", "en", n=2) == "2 castles left"
    assert w("bcb.left", "en", bridges=1, castles=2) == "1 bridge, 2 castles left"
    assert w("bcb.left", "es", bridges=2, castles=1) == "le quedan 2 puentes y 1 castillo"
    assert w("bcb.bid", "en", tile="x", price=3, leader_seat=0, score=1).endswith(
        "You have 1 point."
    )
    assert w("bcb.sealed", "es", tile="x", price=3, chooser_seat=0, score=-1).endswith(
        "Tienes -1 punto."
    )
    assert t(Lang.EN, "winner", names="Ana", points=1) == "Winner: Ana with 1 point!"
    assert t(Lang.ES, "winners", names="Ana, Bo", points=7).endswith("con 7 puntos!")
    assert tc(Lang.EN, "ev_chest", who="Ana", n=1) == "Ana puts 1 building card under the chest."
    assert tc(Lang.ES, "ev_follower", who="Ana", row="x", n=1).endswith("asegura 1 carta.")
    assert tc(Lang.EN, "ev_round_end", round=2, who="Bo", left=1).endswith(
        "1 card stays in the rows."
    )
    assert tc(Lang.ES, "ev_round_end", round=2, who="Bo", left=3).endswith(
        "Quedan 3 cartas en las filas."
    )
    assert w("cards.part.count", "en", n=1) == "× 1 card"
    assert tl("en", "bad_names", n=2, humans=1).startswith("--names gives 2 names for 1 human seat")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_assumed_animal_values_are_said_once_in_the_rules(lang: str) -> None:
    text = rules_summary(lang)
    assert text.count("*") >= 2 and ("assumed" in text or "supuesto" in text)
    assert not messages.has("cards.part.animals_assumed")
    decisions = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8")
    assert "1 → 3, 3 → 8, 4 → 11" in decisions


@pytest.mark.parametrize(
    ("lang", "middle", "last"),
    [
        (Lang.EN, "1 card stays in the rows.", "3 cards leave the game from the rows."),
        (Lang.ES, "Queda 1 carta en las filas.", "salen del juego 3 cartas de las filas."),
    ],
)
def test_the_last_rounds_cards_leave_the_game_in_words(lang: Lang, middle: str, last: str) -> None:
    # RULES §17.5: after the last round the cards left in the rows leave the game; after any
    # other round they stay for the next one
    from app.base import SeatInfo
    from bot.ui.cardgame import event_lines
    from engine.cardgame.events import GameEnded, RoundEnded
    from engine.core.seats import Seat

    seats = [SeatInfo(0, 1, "Ana"), SeatInfo(1, 2, "Bo")]
    (line,) = event_lines([RoundEnded(1, Seat(1), 1)], seats, lang)
    assert line.endswith(middle) and "Bo" in line
    end = event_lines(
        [RoundEnded(4, Seat(0), 3), GameEnded((5, 7), (Seat(1),), (0, 1))], seats, lang
    )
    assert end[0].endswith(last), end
