"""AI turns in flight share the AI processes (app/seats.py ``SharedThinking``): alone a search
gets its level's whole budget; with more searches than processes each gets its share, never
below a fifth, so an AI's turn takes about its budget instead of queueing behind the others."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

from app.seats import MIN_SHARE, THINKING, AiController, SharedThinking
from engine import GameSetup, new_game, pending


def test_the_budget_is_shared_between_searches_in_flight() -> None:
    shared = SharedThinking()
    two = ThreadPoolExecutor(max_workers=2)
    try:
        assert shared.budget(2.0, two) == 2.0  # alone: the whole budget
        shared.in_flight = 1
        assert shared.budget(2.0, two) == 2.0  # two searches, two processes
        shared.in_flight = 3
        assert shared.budget(2.0, two) == 1.0  # four searches share two processes
        shared.in_flight = 50
        assert shared.budget(2.0, two) == 2.0 * MIN_SHARE  # never below a fifth
        shared.in_flight = 1
        assert shared.budget(2.0, None) == 1.0  # a thread of the bot: one at a time
    finally:
        two.shutdown()


class Recording(Executor):
    """Runs the AI's search in this thread and keeps the requests it was given."""

    def __init__(self) -> None:
        self.requests: list[Any] = []
        self.in_flight: list[int] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.requests.append(args[0])
        self.in_flight.append(THINKING.in_flight)
        fut: Future[Any] = Future()
        fut.set_result(fn(*args, **kwargs))
        return fut


async def test_an_ai_turn_asks_for_its_share_and_counts_itself_in_flight() -> None:
    state = new_game(GameSetup(), seed=3)
    decision = pending(state)[0]
    seat = decision.seat
    rec = Recording()
    ai = AiController("normal", executor=rec)
    key, _ = await ai.answer(state, seat, decision)
    assert key == decision.key
    assert rec.requests[0].budget_s == 0.5  # normal's whole budget: nobody else thinks
    assert rec.in_flight == [1] and THINKING.in_flight == 0
    THINKING.in_flight = 3  # three other AI turns think now
    try:
        await ai.answer(state, seat, decision)
    finally:
        THINKING.in_flight = 0
    assert rec.requests[1].budget_s == 0.5 / 4  # one process shared by four searches
    await asyncio.sleep(0)
