"""Seat controllers (app.seats): a seat a program plays is answered by the service itself, as
that seat, through the same submission as a person's click — so an AI seat, a console's random
seat or a stand-in needs no code in any front end."""

from __future__ import annotations

from pathlib import Path

from app.results import auto_move
from app.seats import RandomMover, StandIn
from engine import GameState
from engine.carcassonne.actions import Action
from engine.carcassonne.record import loads, replay
from engine.core.decisions import Decision
from engine.core.rng import Rng
from engine.core.seats import Seat
from tests.bot.matchservice import ANN, BOB, CHANNEL, open_service, two_player_match


async def test_a_stand_in_answers_its_seat_and_waits_for_the_person(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "c.sqlite3")
    try:
        out = await two_player_match(svc, seed=5)
        first = out.user_of(out.decisions[0].seat)
        program = BOB if first == ANN else ANN
        svc.controllers.set(out.match_id, program, StandIn())
        # the person to move is nobody's program: nothing is played for them
        assert await svc.play_controlled(out.match_id) is None
        person = out.decisions[0]
        out = await svc.submit(CHANNEL, first, [person.pass_action or person.options[0].action])
        while out.user_of(out.decisions[0].seat) == first:  # the person's follower step
            out = await svc.submit(CHANNEL, first, [out.decisions[0].pass_action])
        loaded = await svc.store.load(out.match_id)
        expected = auto_move(loaded.game.state)  # what a stand-in answers: the first cell
        played = await svc.play_controlled(out.match_id)
        assert played is not None and played.action == expected[2]
        assert played.decision.key == expected[1]
        stored = [e.action for e in await svc.storage.actions.entries(out.match_id)]
        assert stored[-1] == expected[2].notation()  # stored as the seat's own move
        assert played.outcome.version == len(stored)
    finally:
        await svc.close()


class Counting:
    """A controller that records what it was asked (the seat and the decision's own seat)."""

    kind = "counting"

    def __init__(self) -> None:
        self.inner = RandomMover(Rng(7))
        self.asked: list[tuple[Seat, Seat]] = []

    async def answer(self, state: GameState, seat: Seat, decision: Decision) -> Action:
        self.asked.append((seat, decision.seat))
        return await self.inner.answer(state, seat, decision)


async def test_two_program_seats_play_a_whole_match_that_replays(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "w.sqlite3", renderer=None)
    try:
        out = await two_player_match(svc, seed=9)
        ann, bob = Counting(), Counting()
        svc.controllers.set(out.match_id, ANN, ann)
        svc.controllers.set(out.match_id, BOB, bob)
        moves = 0
        while True:
            played = await svc.play_controlled(out.match_id)
            if played is None:
                break
            moves += 1
            out = played.outcome
        assert out.finished and moves > 70  # 71 tiles, and their follower steps
        # each controller only ever answered its own seat's decisions
        assert all(a == b for a, b in ann.asked + bob.asked)
        assert {a for a, _ in ann.asked}.isdisjoint({b for b, _ in bob.asked})
        record = (await svc.match(out.match_id)).record_json
        assert record is not None
        assert replay(loads(record)).scores == tuple(p.score for p in out.view.players)
        # the finished match's controllers are forgotten
        assert svc.controllers.of(out.match_id, ANN) is None
    finally:
        await svc.close()
