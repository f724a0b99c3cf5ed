"""The strong search's parameters for more than two players: a lookahead that does not grow
with the seats, the candidates cut to what the budget can sample, and two-player games searched
as before."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from ai import choose, levels, search
from ai.evaluate import full_values
from ai.games import TILES
from ai.search import Budget, lookahead_plies
from engine.carcassonne import rules
from engine.carcassonne.state import GameSetup, GameState
from engine.core.seats import Seat

#: one recorded call: positional and keyword arguments
Call = tuple[tuple[Any, ...], dict[str, Any]]


def _opened(players: int, seed: int, moves: int) -> GameState:
    """A base game after ``moves`` greedy answers."""
    s = rules.new_game(GameSetup(players=players), seed=seed)
    for _ in range(moves):
        d = rules.pending(s)[0]
        key, action = choose(s, d.seat, level="greedy")
        s = rules.apply(s, d.seat, action, key=key).state
    return s


def _calls(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[Call]:
    """Records every call of ``module.name`` (its arguments) and lets it run."""
    calls: list[Call] = []
    real = getattr(module, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return calls


def test_the_lookahead_reaches_the_seats_own_turn_only_when_the_replies_do() -> None:
    assert lookahead_plies(2, None) == 3  # the other's turn, then the seat's (one to spare)
    assert lookahead_plies(2, 1) == 3  # two players: the same
    assert lookahead_plies(4, None) == 5
    assert lookahead_plies(3, 1) == 1
    assert lookahead_plies(4, 1) == 1
    assert lookahead_plies(4, 3) == 5


def test_a_rollout_plays_only_the_replies_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _opened(4, 7, 8)
    seat = rules.pending(s)[0].seat
    after = search.best_turn(TILES, s, seat, rules.pending(s)[0], full_values, Budget()).state
    calls = _calls(monkeypatch, search, "best_turn")
    search.rollout(TILES, after, seat, full_values, Budget(), lookahead_plies(4, 1))
    assert [a[2] for a, _ in calls] == [(seat + 1) % 4]
    calls.clear()
    search.rollout(TILES, after, seat, full_values, Budget(), lookahead_plies(4, None))
    assert [a[2] for a, _ in calls] == [(seat + k) % 4 for k in (1, 2, 3, 0)]


def _own_less_mean(values: Sequence[float], seat: Seat) -> float:
    others = [v for i, v in enumerate(values) if i != seat]
    return values[seat] - sum(others) / len(others)


def test_two_players_are_searched_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    # one reply reaches the seat's own turn, and against one other seat its mean is the best
    s = _opened(2, 3, 10)
    seat = rules.pending(s)[0].seat
    now = [choose(s, seat, level="strong", nodes=1500, seed=k) for k in range(3)]
    monkeypatch.setattr(levels, "STRONG_REPLIES", 1)
    monkeypatch.setattr(levels, "STRONG_JUDGE", _own_less_mean)
    assert [choose(s, seat, level="strong", nodes=1500, seed=k) for k in range(3)] == now


def test_the_multi_player_settings_answer_legally(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "STRONG_REPLIES", 1)
    monkeypatch.setattr(levels, "STRONG_MIN_SAMPLES", 2)
    monkeypatch.setattr(levels, "STRONG_JUDGE", _own_less_mean)
    s = _opened(4, 9, 6)
    for _ in range(8):
        d = rules.pending(s)[0]
        key, action = choose(s, d.seat, level="strong", nodes=2000, seed=1)
        s = rules.apply(s, d.seat, action, key=key).state
    assert s.version > 0  # eight answers the engine took: all legal


def test_the_candidates_are_cut_to_what_the_budget_samples() -> None:
    budget = Budget(nodes=4000)
    before = budget.fraction()
    budget.spend(400)  # one rollout took a tenth of the budget: 9 more fit
    assert search._affordable_width(budget, before, 8, 3) == 3
    assert search._affordable_width(budget, before, 8, 1) == 8
    assert search._affordable_width(budget, before, 8, 20) == 2


def test_a_work_budget_with_a_time_limit_stops_at_whichever_comes_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``nodes`` and ``budget_s`` together (the arena measuring play at the default budget):
    the search gets both limits, and with no time at all it cannot sample and plays its first
    ranking, the one-ply (normal) choice."""
    import ai

    s = _opened(4, 11, 12)
    seat = rules.pending(s)[0].seat
    calls = _calls(monkeypatch, ai, "_decide")
    capped = choose(s, seat, level="strong", nodes=200_000, budget_s=0.0, seed=5)
    first: Budget = calls[0][1]["budget"]
    assert first.nodes == 200_000 and first.deadline is not None
    assert first.used < 1_000  # stopped by the clock, not by the work budget
    assert capped == choose(s, seat, level="normal", nodes=200_000, seed=5)
    choose(s, seat, level="strong", nodes=300, seed=5)
    last: Budget = calls[-1][1]["budget"]
    assert last.nodes == 300 and last.deadline is None  # a work budget alone


def test_the_other_seats_reply_by_their_own_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    """``others``: the evaluation the other seats' replies in a rollout are chosen by; the
    seat's own turn keeps its evaluation."""
    from ai.evaluate import simple_values

    s = _opened(4, 7, 8)
    seat = rules.pending(s)[0].seat
    after = search.best_turn(TILES, s, seat, rules.pending(s)[0], full_values, Budget()).state
    calls = _calls(monkeypatch, search, "best_turn")
    plies = lookahead_plies(4, None)
    search.rollout(TILES, after, seat, full_values, Budget(), plies, others=simple_values)
    used = [(a[2], a[4]) for a, _ in calls]
    assert used == [((seat + k) % 4, simple_values) for k in (1, 2, 3)] + [(seat, full_values)]
    calls.clear()
    search.rollout(TILES, after, seat, full_values, Budget(), plies)  # by default, the same
    assert [a[4] for a, _ in calls] == [full_values] * 4


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_replies_only_from_the_table_size_set(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    from ai.evaluate import simple_values

    assert levels.STRONG_GREEDY_REPLIES_FROM == 4  # as measured (docs/ai.md)
    calls = _calls(monkeypatch, levels, "strong_turn")
    s = _opened(players, 3, 6)
    choose(s, rules.pending(s)[0].seat, level="strong", nodes=200, seed=1)
    assert [kw["others"] for _, kw in calls] == [simple_values if players >= 4 else None]
    monkeypatch.setattr(levels, "STRONG_GREEDY_REPLIES_FROM", None)
    choose(s, rules.pending(s)[0].seat, level="strong", nodes=200, seed=1)
    assert calls[-1][1]["others"] is None
