"""Seat controllers (app.seats): a seat a program plays is answered by the service itself, as
that seat, through the same submission as a person's click — so an AI seat, a console's random
seat or a stand-in needs no code in any front end."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.errors import ServiceError
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

    async def answer(self, state: GameState, seat: Seat, decision: Decision) -> tuple[str, Action]:
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


# ------------------------------------------------------------------------------- AI seats
async def test_an_ai_seat_added_in_the_lobby_plays_and_keeps_playing_after_a_restart(
    tmp_path: Path,
) -> None:
    """The host adds an AI seat; once started, the service plays it (as that seat, through
    submit); a new process on the same file reads who plays it from the seat row."""
    from app.matches import MatchOptions
    from tests.bot.matchservice import GUILD

    db = tmp_path / "ai.sqlite3"
    svc = await open_service(db, renderer=None)
    try:
        opts = MatchOptions(players=3, random_seats=False)
        await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", opts, seed=4)
        info = await svc.add_ai(CHANNEL, ANN, "easy")
        info = await svc.add_ai(CHANNEL, ANN, "normal")
        assert [p.name for p in info.players] == ["Ann", "AI 1", "AI 2"]
        assert [p.controller for p in info.players] == [None, "ai:easy", "ai:normal"]
        info = await svc.remove_ai(CHANNEL, ANN)
        assert [p.user_id for p in info.players] == [ANN, -1]
        with pytest.raises(ServiceError) as e:
            await svc.add_ai(CHANNEL, BOB, "easy")  # not the host
        assert e.value.key == "not_host"
        with pytest.raises(ServiceError) as e:
            await svc.add_ai(CHANNEL, ANN, "grandmaster")
        assert e.value.key == "illegal"
        out = await svc.start(CHANNEL, ANN)
        assert out.seats[1].program and not out.seats[0].program
        # Ann places her tile and passes; then the AI's turn is the service's to play
        assert await svc.play_controlled(out.match_id) is None  # Ann's turn: nobody plays it
        d = out.decisions[0]
        out = await svc.submit(CHANNEL, ANN, [d.options[0].action], key=d.key)
        while out.user_of(out.decisions[0].seat) == ANN:
            out = await svc.submit(CHANNEL, ANN, [out.decisions[0].pass_action])
        played = await svc.play_controlled(out.match_id)
        assert played is not None and played.decision.seat == 1
    finally:
        await svc.close()
    again = await open_service(db, renderer=None)  # a restart: nothing in memory
    try:
        out = await again.current(CHANNEL, render=False)
        while out.user_of(out.decisions[0].seat) != ANN:
            played = await again.play_controlled(out.match_id)
            assert played is not None, "the AI seat is played after the restart"
            out = played.outcome
        stored = await again.storage.matches.seats(out.match_id)
        assert [s.controller for s in stored] == [None, "ai:easy"]
    finally:
        await again.close()


async def test_an_away_player_is_stood_in_for_until_they_take_their_seat_back(
    tmp_path: Path,
) -> None:
    svc = await open_service(tmp_path / "away.sqlite3", renderer=None)
    try:
        out = await two_player_match(svc, seed=5)
        mover = out.user_of(out.decisions[0].seat)
        out = await svc.hand_over(CHANNEL, mover)
        assert out.seats[out.decisions[0].seat].controller == "away:normal"
        played = await svc.play_controlled(out.match_id)
        assert played is not None and played.outcome.version > out.version
        out = await svc.take_back(CHANNEL, mover)
        assert all(not s.program for s in out.seats)
        assert await svc.play_controlled(out.match_id) is None  # people again
        with pytest.raises(ServiceError) as e:
            await svc.hand_over(CHANNEL, 999)
        assert e.value.key == "not_seated"
    finally:
        await svc.close()


async def test_an_ai_thinks_in_a_worker_process(tmp_path: Path) -> None:
    """The bot's AI seats think in worker processes (AI_WORKERS): the state and the request
    pickle, and the answer is a legal move of the seat's decision."""
    from app.painters import start_thinkers
    from app.seats import AiController
    from engine import GameSetup, apply, new_game, pending

    state = new_game(GameSetup(players=2), seed=3)
    (d,) = pending(state)
    pool = start_thinkers(1)
    try:
        key, action = await AiController("easy", executor=pool).answer(state, d.seat, d)
    finally:
        pool.shutdown(wait=True)
    assert key == d.key
    assert apply(state, d.seat, action, key=d.key).state.version == state.version + 1


async def test_the_card_game_has_ai_seats_too(tmp_path: Path) -> None:
    """A card-game lobby gets an AI seat the same way; the service plays it through the card
    game's own submission until the person's turn, to the end of a whole game."""
    from app.cardgame import CardMatchService
    from engine.cardgame.decisions import seat_pending
    from tests.bot.matchservice import GUILD

    svc = await CardMatchService.open(tmp_path / "cards.sqlite3", renderer=None)
    try:
        await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", 2, seed=6)
        info = await svc.add_ai(CHANNEL, ANN, "easy")
        assert [p.controller for p in info.players] == [None, "ai:easy"]
        out = await svc.start(CHANNEL, ANN)
        ai_moves = 0
        for _ in range(2000):
            if out.finished or out.view.over:
                break
            played = await svc.play_controlled(out.match_id)
            if played is not None:
                ai_moves += 1
                out = played.outcome
                continue
            loaded = await svc.store.load(out.match_id)
            seat = loaded.seat_of(ANN)
            assert seat is not None
            (d, *_) = seat_pending(loaded.game, seat)
            out = await svc.submit(out.match_id, ANN, next(iter(d.actions())), key=d.key)
        assert out.view.over and ai_moves > 10
    finally:
        await svc.close()
