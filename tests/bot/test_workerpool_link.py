"""The drawing workers' socket protocol (app/workerpool._Link): whole frames, however the
bytes arrive; a closed socket answers every waiting and later call as lost."""

from __future__ import annotations

import asyncio
import os

import pytest

from app.workerpool import _HEADER, _LOST, _RAW, _RESULT, _Link
from bot import eventloop


def frame(kind: int, payload: bytes) -> bytes:
    return _HEADER.pack(kind, len(payload)) + payload


async def test_a_frame_in_one_chunk_in_pieces_or_two_at_once() -> None:
    link = _Link()
    png = bytes(range(256)) * 400  # ~100 KB, as a turn picture
    first = link.next_frame()
    link.data_received(frame(_RAW, png))  # the usual case: one chunk
    assert first.result() == (_RAW, png)

    second = link.next_frame()
    data = frame(_RESULT, b"pickled")
    for i in range(len(data)):  # byte by byte, the header split too
        assert not second.done()
        link.data_received(data[i : i + 1])
    assert second.result() == (_RESULT, b"pickled")

    third = link.next_frame()
    link.data_received(frame(_RAW, b"a") + frame(_RAW, b"") + frame(_RAW, b"ccc")[:5])
    assert third.result() == (_RAW, b"a")
    assert link.next_frame().result() == (_RAW, b"")  # kept until asked
    fourth = link.next_frame()
    assert not fourth.done()
    link.data_received(frame(_RAW, b"ccc")[5:])
    assert fourth.result() == (_RAW, b"ccc")


async def test_a_closed_link_answers_lost() -> None:
    link = _Link()
    waiting = link.next_frame()
    link.connection_lost(None)
    assert waiting.result() == (_LOST, b"")
    assert link.closed
    assert link.next_frame().result() == (_LOST, b"")


async def test_frames_through_a_real_socket_pair() -> None:
    import socket

    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    loop = asyncio.get_running_loop()
    _, link = await loop.create_connection(_Link, sock=ours)
    payload = b"x" * 3_000_000  # larger than any socket buffer: many chunks
    got = link.next_frame()
    theirs.setblocking(False)
    data = memoryview(frame(_RAW, payload))
    while data:
        try:
            n = theirs.send(data)
        except BlockingIOError:
            await asyncio.sleep(0.001)
            continue
        data = data[n:]
    assert await asyncio.wait_for(got, 10) == (_RAW, payload)
    theirs.close()
    assert await asyncio.wait_for(link.next_frame(), 10) == (_LOST, b"")
    link.close()


async def _pool_round() -> str:
    from functools import partial

    from app.painters import ProcessPainter

    p = ProcessPainter(1, name="link")
    try:
        pid = await p.paint(os.getpid)
        assert pid != os.getpid() and p.pids() == [pid]  # drawn by the worker, not here
        assert await p.paint(partial(bytes, 200_000)) == bytes(200_000)  # raw, in chunks
        assert await p.paint(partial(divmod, 7, 2)) == (3, 1)  # pickled back
    finally:
        await p.close()
    return type(asyncio.get_running_loop()).__module__


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
def test_workers_answer_on_either_loop(loop: eventloop.LoopName) -> None:
    """The bot runs on uvloop, whose transports are not asyncio's classes."""
    if loop == "uvloop":
        pytest.importorskip("uvloop")

    async def bounded() -> str:  # a pool that never starts fails here instead of hanging
        return await asyncio.wait_for(_pool_round(), 60)

    assert eventloop.run(bounded(), loop).startswith(loop)
