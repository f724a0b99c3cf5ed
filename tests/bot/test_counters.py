"""/score's per-seat expansion counters, read without knowing any expansion (bot/ui/counters.py).

Views come from a real Traders & Builders game; the models in ``PublicView.ext`` and the
players' engine-worded counters are swapped for test ones, as a new expansion would bring.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from app.base import SeatInfo
from bot.ui.counters import counters, counters_fields
from engine import GameSetup, PublicView, new_game, public_view
from engine.carcassonne.view import PlayerView
from engine.core import messages
from engine.core.decisions import Prompt
from words.i18n import Lang

SEATS = (SeatInfo(0, 1, "Ann", colour="red"), SeatInfo(1, 2, "Bob", colour="blue"))


def _view() -> PublicView:
    setup = GameSetup(players=2, expansions=("traders_builders",), names=("Ann", "Bob"))
    return public_view(new_game(setup, seed=4))


@dataclass(frozen=True, slots=True)
class GoldModel:
    gold: tuple[int, ...]
    bags: dict[int, tuple[int, int]]
    phase: str = "quiet"
    flags: tuple[bool, ...] = (True, False)


def test_the_traders_goods_are_worded_by_the_engine() -> None:
    view = _view()
    (name, per_seat), *_ = counters(view, SEATS, Lang.EN)
    assert name == "Traders & Builders" and per_seat == ["0 wine, 0 grain, 0 cloth"] * 2
    (name, per_seat), *_ = counters(view, SEATS, Lang.ES)
    assert per_seat == ["0 de vino, 0 de grano, 0 de tela"] * 2


def _unworded(view: PublicView) -> PublicView:
    """The view as if no expansion worded its counters (the generic reading applies)."""
    return replace(view, players=tuple(replace(p, counters={}) for p in view.players))


def test_any_expansion_model_with_per_seat_fields_is_shown() -> None:
    messages.register({"test_gold.gold": ("gold", "oro"), "exp.test_gold": ("Gold", "Oro")})
    model = GoldModel(gold=(3, 0), bags={1: (2, 5)})
    view = replace(_unworded(_view()), ext={"test_gold": model})
    assert counters(view, SEATS, Lang.ES) == [("Oro", ["oro 3, bags 0 · 0", "oro 0, bags 2 · 5"])]
    fields = counters_fields(view, SEATS, Lang.EN)
    assert fields == [("Gold", "🔴 Ann: gold 3, bags 0 · 0\n🔵 Bob: gold 0, bags 2 · 5")]


def test_a_model_without_per_seat_numbers_shows_nothing() -> None:
    view = replace(_unworded(_view()), ext={"test_quiet": GoldModel(gold=(1,), bags={7: (1, 1)})})
    assert counters(view, SEATS, Lang.EN) == []


@dataclass(frozen=True, slots=True)
class WordedPlayer(PlayerView):
    """A player view with the engine hook the bot asks for: prompts per expansion id."""

    counters: dict[str, tuple[Prompt, ...]] = field(default_factory=dict)


def test_counters_worded_by_the_engine_are_preferred() -> None:
    messages.register({"test_gold.held": ("{n} gold, given by {giver_seat}", "{n} de oro")})
    view = _view()
    players = tuple(
        WordedPlayer(
            p.seat,
            p.name,
            p.score,
            p.supply,
            counters={"traders_builders": (Prompt.of("test_gold.held", n=p.seat, giver_seat=1),)},
        )
        for p in view.players
    )
    view = replace(view, players=players)
    assert counters(view, SEATS, Lang.EN) == [
        ("Traders & Builders", ["0 gold, given by Bob", "1 gold, given by Bob"])
    ]
