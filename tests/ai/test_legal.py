"""Every level answers every decision legally: whole games of the base game, of each expansion
alone, of all of them, and of the card game, with the levels taking turns at the answers (small
work budgets keep it quick). The engine refuses any illegal answer, so a finished game is the
proof."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from ai import LEVELS, Request, choose, choose_request
from engine.carcassonne import rules
from engine.carcassonne.registry import all_expansions
from engine.carcassonne.state import GameSetup
from engine.cardgame import rules as card_rules
from engine.cardgame.decisions import pending as card_pending
from engine.cardgame.state import CardSetup

ALL = tuple(c.id for c in all_expansions())
#: answers per game at most (the strong level is the slow one: small budgets)
NODES = {"random": None, "greedy": None, "normal": None, "strong": 40}


def _tile_game(setup: GameSetup, seed: int, *, max_moves: int) -> int:
    s = rules.new_game(setup, seed=seed)
    kinds: set[str] = set()
    for n in range(max_moves):
        if s.over:
            break
        d = rules.pending(s)[0]
        level = LEVELS[(n + seed) % len(LEVELS)]
        key, action = choose(s, d.seat, level=level, nodes=NODES[level] or 10**9, seed=n)
        assert key in {x.key for x in rules.pending(s) if x.seat == d.seat}
        kinds.add(d.kind)
        s = rules.apply(s, d.seat, action, key=key).state
    return len(kinds)


@pytest.mark.parametrize("expansion", ["base", *ALL, "all"])
def test_every_level_answers_legally_in_the_tile_game(expansion: str) -> None:
    exps = () if expansion == "base" else ALL if expansion == "all" else (expansion,)
    players = 3 if expansion == "all" else 2
    kinds = _tile_game(GameSetup(players=players, expansions=exps), 11, max_moves=140)
    assert kinds >= 2


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_level_answers_legally_in_the_card_game(players: int) -> None:
    s = card_rules.new_game(CardSetup(players=players), seed=players)
    n = 0
    while not s.over:
        d = card_pending(s)[0]
        level = LEVELS[n % len(LEVELS)]
        key, action = choose(s, d.seat, level=level, nodes=60, seed=n)
        s = card_rules.answer(s, d.seat, key, action).state
        n += 1
    assert n > 20


def test_the_same_seed_and_budget_give_the_same_answer() -> None:
    s = rules.new_game(GameSetup(expansions=ALL), seed=2)
    for level in LEVELS:
        assert choose(s, 0, level=level, nodes=120, seed=5) == choose(
            s, 0, level=level, nodes=120, seed=5
        )


def test_a_worker_process_answers_from_a_pickled_request() -> None:
    s = rules.new_game(GameSetup(expansions=ALL), seed=3)
    for _ in range(5):
        d = rules.pending(s)[0]
        s = rules.apply(s, d.seat, choose(s, d.seat, level="greedy")[1]).state
    request = Request(s, rules.pending(s)[0].seat, level="strong", nodes=60, seed=1)
    assert pickle.loads(pickle.dumps(request)).state.version == s.version
    with ProcessPoolExecutor(max_workers=1) as pool:
        key, action = pool.submit(choose_request, request).result(timeout=120)
    assert (key, action) == choose_request(request)


def test_unknown_levels_and_seats_not_asked_are_refused() -> None:
    s = rules.new_game(GameSetup(), seed=1)
    with pytest.raises(ValueError, match="level"):
        choose(s, 0, level="genius")
    with pytest.raises(ValueError, match="no open decision"):
        choose(s, 1, level="greedy")
    with pytest.raises(TypeError):
        choose(object(), 0)
