"""MatchService around the game on real SQLite files: the lobby's rules, resigning, turn
reminders and the guild's default options."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from app.clocks import REMINDER, Due
from app.matches import (
    ERR_ALREADY_JOINED,
    ERR_ALREADY_STARTED,
    ERR_ILLEGAL,
    ERR_LOBBY_FULL,
    ERR_MATCH_EXISTS,
    ERR_NO_MATCH,
    ERR_NOT_HOST,
    ERR_NOT_IN_LOBBY,
    ERR_NOT_SEATED,
    ERR_TOO_FEW,
    SEAT_COLOURS,
    MatchOptions,
    MatchService,
    ServiceError,
)
from engine import Pass
from tests.bot.matchservice import (
    ANN,
    BOB,
    CAT,
    CHANNEL,
    GUILD,
    open_service,
    play,
    random_move,
    refused,
    two_player_match,
)


# ---------------------------------------------------------------------------- lobby
async def test_lobby_rules(svc: MatchService) -> None:
    lobby = await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", MatchOptions(players=2), seed=1)
    assert [p.user_id for p in lobby.players] == [ANN] and lobby.status == "lobby"
    await refused(ERR_MATCH_EXISTS, svc.create_lobby(GUILD, CHANNEL, BOB, "Bob", MatchOptions()))
    await refused(ERR_TOO_FEW, svc.start(CHANNEL, ANN))
    await refused(ERR_ALREADY_JOINED, svc.join(CHANNEL, ANN, "Ann"))
    await refused(ERR_NO_MATCH, svc.current(CHANNEL))  # not started yet
    await svc.join(CHANNEL, BOB, "Bob")
    await refused(ERR_LOBBY_FULL, svc.join(CHANNEL, CAT, "Cat"))
    await refused(ERR_NOT_HOST, svc.start(CHANNEL, BOB))
    left = await svc.leave(CHANNEL, ANN)  # the host leaves: Bob hosts
    assert left.host_id == BOB and [p.user_id for p in left.players] == [BOB]
    await svc.join(CHANNEL, CAT, "Cat")
    out = await svc.start(CHANNEL, BOB)
    assert {s.user_id for s in out.seats} == {BOB, CAT}
    await refused(ERR_ALREADY_STARTED, svc.start(CHANNEL, BOB))
    # both games' lobbies say the same: too late to join or leave (resign instead)
    await refused(ERR_ALREADY_STARTED, svc.join(CHANNEL, ANN, "Ann"))
    await refused(ERR_ALREADY_STARTED, svc.leave(CHANNEL, CAT))


async def test_invalid_options_are_refused(svc: MatchService) -> None:
    err = await refused(
        ERR_ILLEGAL, svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", MatchOptions(players=9))
    )
    assert "players" in err.params["reason"]
    await refused(ERR_NO_MATCH, svc.lobby(CHANNEL))


async def test_seat_order_is_shuffled_from_the_seed_or_kept_in_join_order(
    svc: MatchService,
) -> None:
    orders = set()
    for ch, seed in enumerate(range(8), start=50):
        out = await two_player_match(svc, seed=seed, channel=ch)
        orders.add(tuple(s.user_id for s in out.seats))
        again = await svc.current(ch)
        assert tuple(s.user_id for s in again.seats) == tuple(s.user_id for s in out.seats)
    assert orders == {(ANN, BOB), (BOB, ANN)}
    for ch in range(60, 64):
        out = await two_player_match(svc, seed=ch, channel=ch, random_seats=False)
        assert [s.user_id for s in out.seats] == [ANN, BOB]
        assert [p.name for p in out.view.players] == ["Ann", "Bob"]


async def test_abandon_needs_the_host_or_a_manager(svc: MatchService) -> None:
    await two_player_match(svc)
    await refused(ERR_NOT_HOST, svc.abandon(CHANNEL, BOB, can_manage=False))
    info = await svc.abandon(CHANNEL, BOB, can_manage=True)
    assert info.status == "abandoned"
    await refused(ERR_NO_MATCH, svc.current(CHANNEL))
    lobby = await svc.create_lobby(GUILD, CHANNEL, CAT, "Cat", MatchOptions())
    assert (await svc.abandon(CHANNEL, CAT, can_manage=False)).status == "abandoned"
    assert lobby.match_id != info.match_id


# ---------------------------------------------------------------------------- resign
async def test_resigning_a_two_player_match_ends_it_for_the_other_player(
    svc: MatchService,
) -> None:
    out = await play(svc, await two_player_match(svc), random.Random(4), moves=10)
    seat_of = {s.user_id: s.seat for s in out.seats}
    done = await svc.resign(CHANNEL, ANN)
    assert done.finished and done.winners == (seat_of[BOB],)
    assert [s.resigned for s in done.seats] == [s.user_id == ANN for s in done.seats]
    assert done.record_json is not None
    row = await svc.storage.matches.get(done.match_id)
    assert row is not None and row.status == "finished"
    assert row.snapshot is not None and row.snapshot["winners"] == [seat_of[BOB]]
    await refused(ERR_NO_MATCH, svc.submit(CHANNEL, BOB, [Pass()]))


async def test_with_three_players_a_resigned_seat_is_played_by_the_service(
    svc: MatchService, db_path: Path
) -> None:
    await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", MatchOptions(players=3), seed=8)
    await svc.join(CHANNEL, BOB, "Bob")
    await svc.join(CHANNEL, CAT, "Cat")
    out = await svc.start(CHANNEL, ANN)
    quitter = out.seats[(out.view.current + 1) % 3].user_id  # not the one to move
    res = await svc.resign(CHANNEL, quitter)
    assert not res.finished and res.current_user_id == out.current_user_id
    await refused(ERR_NOT_SEATED, svc.submit(CHANNEL, quitter, [Pass()]))
    rng = random.Random(6)
    out = res
    for _ in range(12):
        assert out.current_user_id != quitter  # its turns are played for it
        out = await svc.submit(CHANNEL, out.current_user_id, random_move(out, rng))
    log = await svc.storage.actions.entries(out.match_id)
    qseat = next(s.seat for s in out.seats if s.user_id == quitter)
    auto = [e.action for e in log if e.seat == qseat]
    assert auto[0] == "resign" and auto.count("pass") >= 2
    fresh = await open_service(db_path)
    try:
        assert (await fresh.current(CHANNEL)).view == out.view
        out = await play(fresh, await fresh.current(CHANNEL), rng)
    finally:
        await fresh.close()
    assert out.finished and out.view.over


# ---------------------------------------------------------------------------- reminders
async def test_turn_reminders_are_stored_fire_once_and_survive_a_restart(db_path: Path) -> None:
    now = [1000.0]
    svc = await open_service(db_path, clock=lambda: now[0])
    try:
        out = await two_player_match(svc, reminder_minutes=5)
        first = out.current_user_id
        assert await svc.due_timers(1000.0 + 299) == []
        out = await svc.submit(CHANNEL, first, random_move(out, random.Random(1)))
        assert await svc.due_timers(1000.0 + 299) == []  # same turn: same reminder
    finally:
        await svc.close()
    svc = await open_service(db_path, clock=lambda: now[0])
    try:
        assert await svc.due_timers(1000.0 + 301) == [
            Due(out.match_id, CHANNEL, first, REMINDER, 0)
        ]
        assert await svc.due_timers(1000.0 + 999) == []
        now[0] = 2000.0
        out = await svc.submit(CHANNEL, first, [Pass()])
        assert await svc.due_timers(2000.0 + 301) == [
            Due(out.match_id, CHANNEL, out.current_user_id, REMINDER, out.version)
        ]
        assert out.current_user_id != first
    finally:
        await svc.close()


async def test_no_reminders_without_the_option(svc: MatchService) -> None:
    out = await two_player_match(svc)
    assert await svc.due_timers(10**12) == []
    assert await svc.storage.timers.pending(out.match_id) == []


def test_seat_colour_names_match_the_renderer() -> None:
    style = pytest.importorskip("rendering.style")
    assert tuple(s.colour_name for s in style.SEAT_STYLES) == SEAT_COLOURS


async def test_two_lobbies_opened_at_once_in_one_channel_give_one(svc: MatchService) -> None:
    results = await asyncio.gather(
        svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", MatchOptions()),
        svc.create_lobby(GUILD, CHANNEL, BOB, "Bob", MatchOptions()),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, ServiceError)]
    assert len(errors) == 1 and errors[0].key == ERR_MATCH_EXISTS
    assert len(await svc.storage.matches.in_channel(CHANNEL)) == 1


async def test_the_last_player_leaving_a_lobby_closes_it(svc: MatchService) -> None:
    await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", MatchOptions())
    await refused(ERR_NOT_IN_LOBBY, svc.leave(CHANNEL, BOB))
    info = await svc.leave(CHANNEL, ANN)
    assert info.status == "abandoned" and info.players == ()
    await refused(ERR_NO_MATCH, svc.lobby(CHANNEL))


async def test_guild_defaults_are_stored_and_validated(db_path: Path) -> None:
    svc = await open_service(db_path)
    try:
        assert await svc.guild_defaults(GUILD) == MatchOptions()
        wanted = MatchOptions(
            players=4, tiny_city=4, reminder_minutes=30, expansions=("inns_cathedrals",)
        )
        await svc.set_guild_defaults(GUILD, wanted)
        await refused(ERR_ILLEGAL, svc.set_guild_defaults(GUILD, MatchOptions(tiny_city=3)))
    finally:
        await svc.close()
    svc = await open_service(db_path)
    try:
        assert await svc.guild_defaults(GUILD) == wanted
        assert await svc.guild_defaults(GUILD + 1) == MatchOptions()
    finally:
        await svc.close()
