"""Whole games through the services on both backends, and two services on one database (two
processes' view of it): a move answered by both applies once, a deadline fires once, and
``carcabot copy-db`` copies SQLite to PostgreSQL and back, checked."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from app.cardgame import CardMatchService
from app.errors import ERR_STALE, ServiceError
from app.matches import MatchOptions, MatchService
from cli.copydb import copy_db
from cli.main import main
from storage.backends import open_store
from storage.copy import CopyError, counts
from tests.bot.matchservice import ANN, BOB, CHANNEL, GUILD, play, random_move, two_player_match
from tests.pgserver import Server

CARD_CHANNEL = 77


async def card_game(svc: CardMatchService, *, moves: int | None = None) -> int:
    info = await svc.create_lobby(GUILD, CARD_CHANNEL, 10, "Ana", 2)
    await svc.join(CARD_CHANNEL, 20, "Ben")
    await svc.start(CARD_CHANNEL, 10)
    n = 0
    while moves is None or n < moves:
        cur = await svc.match(info.match_id)
        if cur.finished:
            break
        uid = cur.awaiting_users[0]
        _, view = await svc.private_view(info.match_id, uid)
        await svc.submit(info.match_id, uid, view.legal[0])
        n += 1
    return info.match_id


async def test_whole_games_on_either_backend(store_target: str, backend: str) -> None:
    tiles = await MatchService.open(
        store_target, writer=backend == "sqlite-writer", renderer=None, animator=None
    )
    cards = CardMatchService(tiles.storage, renderer=None, seeds=lambda: 3)
    try:
        out = await play(tiles, await two_player_match(tiles, seed=5), random.Random(5))
        assert out.finished
        mid = await card_game(cards)
        assert (await cards.match(mid)).finished
        await tiles.ratings.settle()
        board = await tiles.ratings.leaderboard(GUILD)
        assert sorted(s.user_id for s in board) == sorted({ANN, BOB, 10, 20})
    finally:
        await tiles.close()


async def test_one_move_from_two_services_applies_once(pg_url: str) -> None:
    """Two processes (two services, two pools) receive the same click: one applies it."""
    one = await MatchService.open(pg_url, renderer=None, animator=None)
    two = await MatchService.open(pg_url, renderer=None, animator=None)
    try:
        out = await two_player_match(one, seed=9)
        rng = random.Random(9)
        for _ in range(6):
            action = random_move(out, rng)
            got = await asyncio.gather(
                one.submit(CHANNEL, out.current_user_id, action, out.version),
                two.submit(CHANNEL, out.current_user_id, action, out.version),
                return_exceptions=True,
            )
            stale = [g for g in got if isinstance(g, ServiceError)]
            assert len(stale) == 1 and stale[0].key == ERR_STALE, got
            out = next(g for g in got if not isinstance(g, BaseException))
        entries = await two.storage.log_entries(out.match_id)
        assert [e.seq for e in entries] == list(range(1, out.version + 1))
        # the other process's cache is only a cache: it reads the match at its new version
        assert (await two.match(out.match_id)).version == out.version
    finally:
        await one.close()
        await two.close()


async def test_a_picker_session_reads_again_after_another_process_moved(pg_url: str) -> None:
    """A process's picker session (its memory of a seat's open decisions) does not outlive a
    move another process made: the next click there reads the new decisions, instead of
    refusing the new turn message's buttons as out of date."""
    from app.picking import PickerSessions

    one = await MatchService.open(pg_url, renderer=None, animator=None)
    two = await MatchService.open(pg_url, renderer=None, animator=None)
    try:
        out = await two_player_match(one, seed=9)
        sessions = PickerSessions(one, 8)
        for user in (ANN, BOB):  # both seats' sessions read at this version
            assert (await sessions.open(out.match_id, user))[0].version == out.version
        out = await play(two, out, random.Random(9), moves=1)  # through the other process
        read, mine = await sessions.open(out.match_id, out.current_user_id)
        assert read.version == out.version and mine
        assert [d.key for d in mine] == [d.key for d in out.decisions]
    finally:
        await one.close()
        await two.close()


async def test_a_deadline_fires_in_one_process(pg_url: str) -> None:
    clock = [1000.0]
    one = await MatchService.open(pg_url, renderer=None, animator=None, clock=lambda: clock[0])
    two = await MatchService.open(pg_url, renderer=None, animator=None, clock=lambda: clock[0])
    try:
        await two_player_match(one, seed=4, clock="live")
        due = await one.storage.next_timer_due()
        assert due is not None
        fired = await asyncio.gather(one.due_timers(due + 1), two.due_timers(due + 1))
        kinds = sorted(d.kind for got in fired for d in got)
        assert len(kinds) == len(set(kinds)) >= 1  # each timer in one process only
        assert await one.due_timers(due + 1) == [] and await two.due_timers(due + 1) == []
    finally:
        await one.close()
        await two.close()


async def test_copy_db_sqlite_to_postgres_and_back(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "source.sqlite3"
    tiles = await MatchService.open(source, renderer=None, animator=None)
    cards = CardMatchService(tiles.storage, renderer=None, seeds=lambda: 3)
    try:
        await play(tiles, await two_player_match(tiles, seed=2), random.Random(2))
        await tiles.ratings.settle()
        await play(tiles, await two_player_match(tiles, seed=3, channel=11), random.Random(3),
                   moves=7, channel=11)  # fmt: skip
        await tiles.create_lobby(GUILD, 12, ANN, "Ann", MatchOptions())
        await tiles.join(12, BOB, "Bob")
        await card_game(cards, moves=5)
        await tiles.set_guild_defaults(GUILD, MatchOptions(players=3))
        await tiles.dm.note_closed(BOB)
    finally:
        await tiles.close()
    back = tmp_path / "back.sqlite3"
    assert await copy_db(str(source), pg_url) == 0
    assert await copy_db(pg_url, str(back)) == 0
    with pytest.raises(CopyError):  # never into a database with rows
        await copy_db(str(source), pg_url)
    stores = [await open_store(t) for t in (source, pg_url, back)]
    try:
        found = [await counts(s) for s in stores]
        assert found[0] == found[1] == found[2] and found[0]["actions"] > 0
        rows = [[(m.id, m.version, m.snapshot_json) for m in await s.matches_in_channel(c)]
                for s in stores for c in (CHANNEL, 11, 12, CARD_CHANNEL)]  # fmt: skip
        assert rows[:4] == rows[4:8] == rows[8:]
        # the copy keeps working: a new lobby gets a fresh id after the copied ones
        pg = stores[1]
        new = await pg.create_lobby(
            guild_id=GUILD, channel_id=99, host_id=ANN, host_name="Ann", options={}, seed=1,
            game="carcassonne",
        )  # fmt: skip
        assert new > max(m.id for m in await pg.matches_with_status("finished"))
    finally:
        for s in stores:
            await s.close()


@pytest.mark.parametrize("argv", [["migrate"], ["copy-db", "nowhere.sqlite3", "x.sqlite3"]])
def test_cli_database_commands(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pg_url: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", pg_url)
    assert main(argv) == (0 if argv == ["migrate"] else 2)


async def test_a_move_waits_while_another_process_holds_the_match(pg_url: str) -> None:
    """A move reaching a second process (a DM answered on shard 0's) waits while the first
    process works on the match, then is computed on what the first stored."""
    one = await MatchService.open(pg_url, renderer=None, animator=None)
    two = await MatchService.open(pg_url, renderer=None, animator=None)
    try:
        out = await two_player_match(one, seed=6)
        action = random_move(out, random.Random(6))
        async with one.store.lock(out.match_id):
            waiting = asyncio.create_task(
                two.submit(CHANNEL, out.current_user_id, action, out.version)
            )
            for _ in range(20):
                await asyncio.sleep(0.01)
                assert not waiting.done(), "it went in while the match was held"
        moved = await waiting
        assert moved.version == out.version + 1
    finally:
        await one.close()
        await two.close()


def test_an_unusable_database_url_is_one_line(
    pg_server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """A database that does not exist (or a refused password) is one line naming the server,
    never the password, for `carcabot migrate` and the bot alike."""
    monkeypatch.chdir(tmp_path)
    url = pg_server.url("nowhere").replace("postgres@", "postgres:secret@")
    assert main(["migrate", url]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nowhere" in err and "secret" not in err


async def test_a_vote_out_is_kept_through_a_restart(store_target: str) -> None:
    """Votes to hand a silent seat to an AI are stored: the first voter's process restarts
    (or another process takes the next vote) and the second vote still makes the majority."""
    import time

    from tests.bot.matchservice import CAT

    now = [time.time()]
    svc = await MatchService.open(store_target, renderer=None, animator=None)
    try:
        await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", MatchOptions(players=3), seed=2)
        await svc.join(CHANNEL, BOB, "Bob")
        await svc.join(CHANNEL, CAT, "Cat")
        out = await svc.start(CHANNEL, ANN)
        silent = out.user_of(out.decisions[0].seat)
        a, b = [u for u in (ANN, BOB, CAT) if u != silent]
        now[0] += 301  # five silent minutes on their move
        svc.clock = lambda: now[0]
        first = await svc.vote_out(CHANNEL, a, silent)
        assert (first.votes, first.needed, first.outcome) == (1, 2, None)
    finally:
        await svc.close()
    again = await MatchService.open(store_target, renderer=None, animator=None)
    again.clock = lambda: now[0]
    try:
        second = await again.vote_out(CHANNEL, b, silent)
        assert second.votes == 2 and second.outcome is not None
        seat = next(s for s in second.outcome.seats if s.user_id == silent)
        assert seat.controller == "away:normal"
    finally:
        await again.close()
