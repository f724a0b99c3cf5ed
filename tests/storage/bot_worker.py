"""One bot process on the fake Discord, for tests/storage/test_pg_bot_processes.py.

    python -m tests.storage.bot_worker URL STATE FIRST_ID

It runs the real bot (discord.py's command tree, views, dynamic items) over the real match
service on the database ``URL``, behind a :class:`~tests.fakediscord.FakeDiscord` whose gateway
payloads it is told to feed in. Discord itself — the messages every process posted — lives in
the test: the worker starts from the messages in the JSON file ``STATE``, every command brings
the messages changed since, and every answer carries those the bot created or edited, so a
process killed with SIGKILL loses nothing Discord would have kept. Ids it makes start at
``FIRST_ID`` (each process its own range). On start it dispatches ``on_ready`` (the restart
recovery re-posts a turn message that a dead process never posted).

Commands, one JSON object a line on stdin (each may carry ``"messages"``); one JSON line out:

``{"move": {"user": U, "turn": M, "seed": S, "hold": H}}``  user ``U`` presses the opener on
    turn message ``M`` and answers its picker at random (seed ``S``) until the next turn
    message. With ``hold`` ``"before"`` the move stops just before it is stored (the match
    held against the other processes), with ``"after"`` just after: the worker prints
    ``{"holding": H}`` and waits there to be killed.
``{"fire": {"offset": S, "hold": B}}``  the upkeep fires every timer due ``S`` seconds from
    now; prints ``{"claimed": [[match, version, kind], ...]}`` (with ``hold``, then waits to be
    killed) and ``{"fired": [match, version, played]}`` for each deadline dealt with.

Each command ends with ``{"done": {..., "commits": [[before, after], ...]}, "messages": {...}}``:
the moves it stored (each one commit, from version ``before`` to ``after``).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

from app.matches import MatchService
from bot.app import CarcBot
from tests.bot.pickers import Answerer, components, verb
from tests.fakediscord import FakeDiscord, User

USERS = {100: User(100, "Ann"), 200: User(200, "Bob")}
DECIDER = re.compile(r"<@(\d+)>, your turn:")


def out(data: object) -> None:
    print(json.dumps(data), flush=True)


class Worker:
    """The bot, its service and its fake Discord; what it has told the test so far."""

    def __init__(self, service: MatchService, fake: FakeDiscord) -> None:
        self.service = service
        self.fake = fake
        self.told: dict[int, str] = {}  # message id -> its JSON as last told or heard
        #: the moves this process stored since it last said: [version before, version after]
        self.commits: list[list[int]] = []
        storage = service.storage
        commit = storage.commit_move

        async def counted(c: Any) -> Any:
            found = await commit(c)
            self.commits.append([c.expected_version, found[0].version])
            return found

        storage.commit_move = counted  # type: ignore[method-assign]

    def take(self, messages: dict[str, Any]) -> None:
        """Messages other processes posted or changed (Discord's copy)."""
        for key, msg in messages.items():
            self.fake.messages[int(key)] = msg
            self.told[int(key)] = json.dumps(msg, sort_keys=True)

    def changed(self) -> dict[str, Any]:
        """The messages this process created or edited since it last said."""
        delta = {}
        for mid, msg in self.fake.messages.items():
            text = json.dumps(msg, sort_keys=True)
            if self.told.get(mid) != text:
                self.told[mid] = text
                delta[str(mid)] = msg
        return delta

    def hold_moves(self, when: str) -> None:
        """Stop the next move just before (or after) it is stored, and wait to be killed."""
        storage = self.service.storage
        commit = storage.commit_move

        async def held(c: Any) -> Any:
            if when == "before":
                out({"holding": when})
                await asyncio.Event().wait()
            found = await commit(c)
            out({"holding": when, "version": found[0].version})
            await asyncio.Event().wait()
            return found

        storage.commit_move = held  # type: ignore[method-assign]

    async def move(self, user: int, turn: int, seed: int, hold: str | None) -> dict[str, Any]:
        if hold:
            self.hold_moves(hold)
        rng = random.Random(seed)
        answer = Answerer(self.fake, rng, pass_rate=0.1)
        buttons = [c for c in components(self.fake.message(turn)) if verb(c)]
        openers = [c for c in buttons if verb(c) == "o"]
        pick = openers[0] if openers else rng.choice(buttons)
        res = await answer.play(USERS[user], turn, pick["custom_id"])
        return {"text": res.text()[:2000]}

    async def fire(self, offset: float, hold: bool) -> dict[str, Any]:
        service = self.service
        due_timers, play_timeout = service.due_timers, service.play_timeout

        async def claimed(now: float) -> Any:
            due = await due_timers(now)
            out({"claimed": [[d.match_id, d.version, d.kind] for d in due]})
            if hold:
                await asyncio.Event().wait()
            return due

        async def played(match_id: int, user_id: int, version: int) -> Any:
            done = await play_timeout(match_id, user_id, version)
            out({"fired": [match_id, version, done is not None]})
            return done

        service.due_timers = claimed  # type: ignore[method-assign]
        service.play_timeout = played  # type: ignore[method-assign]
        try:
            cog: Any = self.fake.bot.cogs["Carcassonne"]
            return {"sent": await cog.upkeep.fire(time.time() + offset)}
        finally:
            service.due_timers, service.play_timeout = due_timers, play_timeout  # type: ignore[method-assign]


async def main(url: str, state: Path, first_id: int) -> None:
    service = await MatchService.open(url, renderer=None, animator=None)
    bot = CarcBot(service, background_tasks=False)
    fake = FakeDiscord(bot)
    fake._ids = itertools.count(first_id)
    worker = Worker(service, fake)
    if state.exists():
        worker.take(json.loads(state.read_text()))
    await fake.start()
    await fake.ready()
    out({"ready": True, "messages": worker.changed()})
    loop = asyncio.get_running_loop()
    try:
        while True:
            raw = await loop.run_in_executor(None, sys.stdin.readline)
            if not raw:
                break
            cmd = json.loads(raw)
            worker.take(cmd.get("messages", {}))
            if "move" in cmd:
                m = cmd["move"]
                done = await worker.move(m["user"], m["turn"], m["seed"], m.get("hold"))
            else:
                f = cmd["fire"]
                done = await worker.fire(f["offset"], bool(f.get("hold")))
            done["commits"], worker.commits = worker.commits, []
            out({"done": done, "messages": worker.changed()})
    finally:
        await fake.close()
        await service.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])))
