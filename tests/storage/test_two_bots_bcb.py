"""A whole Bridges, Castles & Bazaars game through two bot processes on one real PostgreSQL
database (tests/storage/two_discords.py): every interaction in the channel reaches one of the two
bots at random, and every sealed bid answered in a direct message reaches the bot on shard 0 —
often about a market the other bot opened and DMed. Every move is applied exactly once (a double
click reaching the other bot is refused), each sealed bid is asked by DM once, and the final
scores the channel is shown are those of a fresh replay of the stored log."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from app import matches
from app.matches import MatchService
from bot.app import CarcBot
from tests.bot.cardtable import CardDiscord
from tests.bot.pickers import Answerer
from tests.bot.test_discord_bcb import (
    ALICE,
    BCB,
    BOB,
    CAROL,
    SEED,
    USERS,
    Rounds,
    public_move,
    sealed_round,
    secret_users,
)
from tests.bot.test_discord_decisions import start
from tests.fakediscord import Request
from tests.storage.two_discords import Router

FINAL = re.compile(r"(\w+) — \*\*(-?\d+)\*\*")


async def _version(service: MatchService, match_id: int) -> int:
    row = await service.storage.match(match_id)
    assert row is not None
    return row.version


def count_commits(service: MatchService, name: str, into: list[tuple[str, int, int]]) -> None:
    """Note every move ``service`` stores: (bot, version before, version after)."""
    storage = service.storage
    commit = storage.commit_move

    async def counted(c: Any) -> Any:
        found = await commit(c)
        into.append((name, c.expected_version, found[0].version))
        return found

    storage.commit_move = counted  # type: ignore[method-assign]


async def test_a_sealed_bid_game_through_two_bot_processes(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(matches.secrets, "randbelow", lambda n: SEED)
    services = [await MatchService.open(pg_url, animator=None) for _ in range(2)]
    bots = [CarcBot(s, background_tasks=False) for s in services]
    users = list(USERS.values())
    fakes = [CardDiscord(b, users, {CAROL.id}) for b in bots]  # Carol's DMs are closed
    rng = random.Random(18)
    router = Router(fakes[0], fakes[1], rng)
    commits: list[tuple[str, int, int]] = []
    count_commits(services[0], "zero", commits)
    count_commits(services[1], "one", commits)
    for f in fakes:
        await f.start()
    try:
        answer = Answerer(router, rng, pass_rate=0.5)  # type: ignore[arg-type]
        rounds = Rounds()
        turn = await start(router, [ALICE, BOB, CAROL], [BCB])  # type: ignore[arg-type]
        match_id = int(re.findall(r"carcd:(\d+):", str(turn.data))[0])
        moves = doubled = last = 0
        by: Counter[str] = Counter()  # moves stored by each bot
        for _ in range(900):
            if "🏁" in turn.content:
                break
            before = await _version(services[0], match_id)
            del commits[:]
            if secret_users(turn):
                answered = len(rounds.bids)
                turn = await sealed_round(router, answer, turn, rounds)  # type: ignore[arg-type]
                done = len(rounds.bids[answered])
            else:
                turn = await public_move(answer, turn)
                done = 1
                if rng.random() < 0.2:  # the move's last click again, on the other bot
                    again = await router.double_click()
                    refused = ("This choice is out of date.", "This match is over.")
                    assert again.text().startswith(refused), again.text()
                    doubled += 1
            # each answer is one move (a tile and its follower may be one), stored once by
            # whichever bot took it, one after the other; a double click stores nothing
            assert len(commits) == done, commits
            assert [v for _, v, _ in commits] == [before] + [w for _, _, w in commits[:-1]]
            assert await _version(services[1], match_id) == commits[-1][2]
            moves, last = moves + done, commits[-1][2]
            by.update(name for name, _, _ in commits)
        else:
            pytest.fail("the game did not end")
        assert len(rounds.bids) >= 3 and doubled > 3, (rounds, doubled)
        assert router.served["zero"] > 20 and router.served["one"] > 20, router.served
        assert by["zero"] > 5 and by["one"] > 5, by
        assert router.dm_clicks > 0 and router.cross_dms > 0, (router.dm_clicks, router.cross_dms)
        assert rounds.by_decide, "Carol bid through Decide"
        for u in (ALICE, BOB):  # each sealed bid DMed once, whichever bot posted the next state
            asked = [m for m in router.dms(u.id) if "Sealed bid for tile" in m["content"]]
            assert len(asked) == sum(1 for bids in rounds.bids if u.name in bids), u
        await _check_final(pg_url, match_id, last, turn)
    finally:
        for f in fakes:
            await f.close()
        for s in services:
            await s.close()


async def _check_final(url: str, match_id: int, version: int, final: Request) -> None:
    """The match ends at the version of its last stored move, its log holds each entry once,
    in order, and a fresh service's replay of it gives the scores the final message shows."""
    fresh = await MatchService.open(url, renderer=None, animator=None)
    try:
        row = await fresh.storage.match(match_id)
        assert row is not None and row.status == "finished"
        entries = await fresh.storage.log_entries(match_id)
        assert [e.seq for e in entries] == list(range(1, version + 1)) and row.version == version
        game = fresh.replay_log(row, entries)
        seats = await fresh.storage.seats(match_id)
        replayed = {USERS[s.user_id].name: game.state.scores[s.seat] for s in seats}
        shown = {name: int(score) for name, score in FINAL.findall(final.text())}
        assert shown == replayed, (shown, replayed)
    finally:
        await fresh.close()
