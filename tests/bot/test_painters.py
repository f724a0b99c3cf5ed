"""Pictures drawn in worker processes: the same pixels as in the bot process, views that
pickle for every expansion, a thread for what does not pickle, and new workers after one dies.

The workers are real processes (forkserver or spawn); one painter is shared by the module so
that its start-up is paid once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import pickle
import random
import signal
import time
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

import pytest
from PIL import Image

from app.matches import MatchOptions, MatchService
from app.painters import Painter, ProcessPainter, replay_animation, start_painter
from engine import GameSetup, apply, new_game, pending, public_view
from engine.carcassonne.expansions import all_expansions
from rendering import render_animation, render_board


@pytest.fixture
async def painter() -> AsyncIterator[ProcessPainter]:
    p = ProcessPainter(1, name="test")
    try:
        yield p
    finally:
        await p.close()


async def test_a_worker_draws_in_another_process(painter: ProcessPainter) -> None:
    pid = await painter.paint(os.getpid)
    assert pid != os.getpid() and painter.pids() == [pid]


async def test_what_does_not_pickle_is_drawn_in_a_thread(painter: ProcessPainter) -> None:
    here = os.getpid()
    assert await painter.paint(lambda: os.getpid()) == here


async def test_a_worker_error_reaches_the_caller(painter: ProcessPainter) -> None:
    with pytest.raises(ZeroDivisionError):
        await painter.paint(partial(divmod, 1, 0))


async def test_boards_from_workers_are_the_boards_drawn_here(
    painter: ProcessPainter, tmp_path: Path
) -> None:
    svc = await MatchService.open(tmp_path / "w.sqlite3", painter=painter, animator=None)
    try:
        await svc.create_lobby(1, 10, 100, "Ann", MatchOptions(), seed=3)
        await svc.join(10, 200, "Bob")
        out = await svc.start(10, 100)
        rng = random.Random(1)
        for _ in range(8):
            (d,) = out.decisions
            out = await svc.submit(10, out.current_user_id, [rng.choice(list(d.actions()))])
        assert out.png is not None
        here = render_board(out.view, placements=out.placements or None)
        assert out.png == here  # the same view, the same bytes
        assert Image.open(io.BytesIO(out.png)).format == "PNG"
    finally:
        await svc.close()


async def test_the_replay_is_replayed_and_drawn_in_a_worker(
    painter: ProcessPainter, tmp_path: Path
) -> None:
    svc = await MatchService.open(tmp_path / "a.sqlite3", renderer=None, animation_painter=painter)
    try:
        await svc.create_lobby(1, 10, 100, "Ann", MatchOptions(), seed=4)
        await svc.join(10, 200, "Bob")
        out = await svc.start(10, 100)
        for _ in range(10):
            (d,) = out.decisions
            out = await svc.submit(10, out.current_user_id, [next(iter(d.actions()))])
        gif = await svc.animation(out.match_id)
        assert gif is not None
        img = Image.open(io.BytesIO(gif))
        assert img.format == "GIF" and getattr(img, "n_frames", 1) == out.view.turn + 1
        game = (await svc.store.load(out.match_id)).game
        here = replay_animation(render_animation, game.setup, game.seed, game.moves)
        assert gif == here
    finally:
        await svc.close()


async def test_new_workers_replace_one_that_died() -> None:
    p = ProcessPainter(1, name="doomed")
    try:
        first = await p.paint(os.getpid)
        os.kill(first, signal.SIGKILL)
        # the picture asked for meanwhile is drawn here; the next ones by a new worker
        assert await p.paint(os.getpid) == os.getpid()
        second = await p.paint(os.getpid)
        assert second not in (first, os.getpid()) and p.pids() == [second]
    finally:
        await p.close()
    assert p.pids() == []


async def test_a_worker_killed_mid_picture_fails_only_that_picture() -> None:
    """Two workers: one is killed while drawing; its picture is drawn here, the other
    worker's call is answered, and a new worker takes the dead one's place."""
    p = ProcessPainter(2, name="two")
    try:
        await p.start()
        a, b = p.pids()
        slow = asyncio.ensure_future(p.paint(partial(_sleep_then_pid, 1.0)))
        other = asyncio.ensure_future(p.paint(partial(_sleep_then_pid, 0.3)))
        await asyncio.sleep(0.2)
        os.kill(a, signal.SIGKILL)
        results = {await slow, await other}
        assert os.getpid() in results and b in results  # one here, one by the live worker
        for _ in range(50):  # the replacement starts in the background
            if len(p.pids()) == 2:
                break
            await asyncio.sleep(0.1)
        assert len(p.pids()) == 2 and a not in p.pids()
        assert len({await p.paint(os.getpid) for _ in range(4)} - {b}) <= 1
    finally:
        await p.close()


def _sleep_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


async def test_a_caller_cancelled_while_the_workers_start_leaves_them_starting(
    painter: ProcessPainter,
) -> None:
    """The first picture starts the workers; its caller cancelled then (a busy machine makes
    the start slow) must not leave the painter without workers."""
    first = asyncio.ensure_future(painter.paint(os.getpid))
    await asyncio.sleep(0)  # the start has begun
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    pid = await painter.paint(os.getpid)
    assert pid != os.getpid() and painter.pids() == [pid]


async def test_a_cancelled_caller_leaves_the_worker_usable(painter: ProcessPainter) -> None:
    call = asyncio.ensure_future(painter.paint(partial(_sleep_then_pid, 0.3)))
    await asyncio.sleep(0.05)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    pid = await painter.paint(os.getpid)  # waits for the worker to finish, then is served
    assert pid == painter.pids()[0] != os.getpid()
    assert await painter.paint(partial(bytes, 3)) == b"\x00\x00\x00"  # raw bytes back


async def test_no_workers_means_threads() -> None:
    p = await start_painter(0)
    assert type(p) is Painter and p.processes == 0 and p.pids() == []
    assert await p.paint(os.getpid) == os.getpid()
    await p.close()


def test_every_expansions_view_pickles_without_its_decisions() -> None:
    """What a worker is sent: the public view without its decisions (they hold closures)."""
    exps = tuple(sorted(e.id for e in all_expansions()))
    state = new_game(GameSetup(players=3, names=("a", "b", "c"), expansions=exps), seed=9)
    from engine.carcassonne.randomplay import choose_answer
    from engine.core.rng import Rng

    rng = Rng(9)  # answers any decision, numbers (a market's bids) included
    checked = 0
    while state.step != "over":
        if state.turn % 7 == 0:
            view = dataclasses.replace(public_view(state), decisions=())
            assert pickle.loads(pickle.dumps(view)) == view
            checked += 1
        d = pending(state)[0]
        state = apply(state, d.seat, choose_answer(d, rng), key=d.key).state
    view = public_view(state)
    assert pickle.loads(pickle.dumps(view)) == view
    assert checked > 10


async def test_pickers_are_drawn_by_workers(painter: ProcessPainter) -> None:
    """The cell picker and, after a cell, the rotation picker of a real decision pickle and a
    worker draws the bytes this process would."""
    from app.base import SeatInfo
    from app.choices import ROOT, Token, walk
    from bot.ui.decisions import picker
    from words.i18n import Lang

    state = new_game(GameSetup(players=2, names=("a", "b")), seed=4)
    rng = random.Random(4)
    for _ in range(12):
        d = pending(state)[0]
        state = apply(state, d.seat, rng.choice(list(d.actions())), key=d.key).state
    (decision,) = [d for d in pending(state) if "cell" in d.facet_names()]
    seats = (SeatInfo(0, 1, "a"), SeatInfo(1, 2, "b"))
    view = public_view(state)
    drawn = 0
    for path in (ROOT, ((Token("o", 0),),)):
        shown = picker(1, decision, path, walk(decision, path[-1]), view, seats, Lang.EN)
        if shown.draw is None:
            continue
        pickle.dumps(shown.draw)
        assert await painter.paint(shown.draw) == shown.draw()
        drawn += 1
    assert drawn
