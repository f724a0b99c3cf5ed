"""MatchService end to end on real SQLite files: whole games, restarts, every refusal, undo,
atomic multi-action moves, resignations, reminders and restart recovery."""

from __future__ import annotations

import asyncio
import io
import json
import random
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.services.matches import (
    ERR_ALREADY_JOINED,
    ERR_ALREADY_STARTED,
    ERR_ILLEGAL,
    ERR_LOBBY_FULL,
    ERR_MATCH_EXISTS,
    ERR_NO_MATCH,
    ERR_NO_UNDO,
    ERR_NOT_HOST,
    ERR_NOT_IN_LOBBY,
    ERR_NOT_SEATED,
    ERR_NOT_YOUR_TURN,
    ERR_STALE,
    ERR_TOO_FEW,
    SEAT_COLOURS,
    MatchOptions,
    MatchService,
    Outcome,
    ServiceError,
)
from engine import Action, Deploy, Pass, PlaceTile, Position, PublicView, Rotation
from engine.carcassonne.events import PointsScored
from engine.carcassonne.record import GameRecord, replay
from storage import NewAction, Storage

GUILD, CHANNEL = 1, 10
ANN, BOB, CAT = 100, 200, 300


def tiny_renderer(
    view: PublicView,
    *,
    placements: Mapping[Position, tuple[Rotation, ...]] | None = None,
    **_kw: Any,  # lang, events, awards, whole: not drawn
) -> bytes:
    """A real PNG whose width counts the tiles and height counts the legal cells (+1)."""
    img = Image.new("RGB", (len(view.tiles), len(placements or {}) + 1), (10, 200, 30))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def tiny_animator(views: list[PublicView], *, fmt: str = "gif", **_kw: Any) -> bytes:
    """One line per frame: the turn and the number of tiles it shows."""
    return "\n".join(f"{v.turn} {len(v.tiles)}" for v in views).encode()


async def open_service(path: Path, **kw: Any) -> MatchService:
    kw.setdefault("renderer", tiny_renderer)
    kw.setdefault("animator", tiny_animator)
    return await MatchService.open(path, **kw)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "service.sqlite3"


@pytest.fixture
async def svc(db_path: Path) -> AsyncIterator[MatchService]:
    s = await open_service(db_path)
    try:
        yield s
    finally:
        await s.close()


async def two_player_match(
    svc: MatchService, *, seed: int = 11, channel: int = CHANNEL, **options: object
) -> Outcome:
    await svc.create_lobby(GUILD, channel, ANN, "Ann", MatchOptions(**options), seed=seed)  # type: ignore[arg-type]
    await svc.join(channel, BOB, "Bob")
    return await svc.start(channel, ANN)


def random_move(out: Outcome, rng: random.Random) -> list[Action]:
    """A random answer to the open decision (any option, or passing when allowed)."""
    (d,) = out.decisions
    answers = list(d.actions())
    return [rng.choice(answers)]


async def play(
    svc: MatchService,
    out: Outcome,
    rng: random.Random,
    *,
    moves: int | None = None,
    channel: int = CHANNEL,
) -> Outcome:
    n = 0
    while not out.finished and (moves is None or n < moves):
        out = await svc.submit(channel, out.current_user_id, random_move(out, rng), out.version)
        n += 1
    return out


async def refused(key: str, coro: object) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        await coro  # type: ignore[misc]
    assert info.value.key == key, str(info.value)
    return info.value


# ---------------------------------------------------------------------------- whole games
async def test_a_whole_two_player_game_to_the_final_scores(
    svc: MatchService, db_path: Path
) -> None:
    out = await two_player_match(svc)
    assert out.view.step == "place" and out.version == 0
    assert {s.user_id for s in out.seats} == {ANN, BOB}
    assert [s.colour for s in out.seats] == ["red", "blue"]
    rng, scored = random.Random(3), [0, 0]
    while not out.finished:
        out = await svc.submit(CHANNEL, out.current_user_id, random_move(out, rng), out.version)
        for e in out.events:
            if isinstance(e, PointsScored):
                for a in e.awards:
                    scored[a.seat] += a.points

    assert out.finished and out.view.over
    assert scored == [p.score for p in out.view.players]  # every point was announced
    # the last move does not wait for the replay animation: it is drawn when asked for
    assert out.record_json is not None and out.animation is None
    animation = await svc.animation(out.match_id)
    assert animation is not None
    record = GameRecord.from_json(json.loads(out.record_json))
    result = replay(record)
    assert result.over
    assert result.scores == tuple(p.score for p in out.view.players)
    assert sum(a.points for a in result.awards) == sum(result.scores)
    best = max(result.scores)
    assert out.winners == tuple(i for i, s in enumerate(result.scores) if s == best)
    assert record.names == tuple(s.name for s in out.seats)
    frames = [tuple(map(int, line.split())) for line in animation.decode().splitlines()]
    assert [t for t, _ in frames] == list(range(result.state.turn + 1))  # start + every turn
    assert frames[0][1] == 1 and frames[-1][1] == len(out.view.tiles)

    row = await svc.storage.matches.get(out.match_id)
    assert row is not None and row.status == "finished" and row.version == out.version
    assert row.snapshot is not None and row.snapshot["schema"] == 1
    assert row.snapshot["scores"] == list(result.scores)
    assert row.snapshot["record"] == record.to_json()
    assert len(await svc.storage.actions.entries(out.match_id)) == out.version
    await refused(ERR_NO_MATCH, svc.current(CHANNEL))  # the channel is free again
    await svc.create_lobby(GUILD, CHANNEL, BOB, "Bob", MatchOptions())


async def test_the_board_png_follows_every_move(svc: MatchService) -> None:
    out = await two_player_match(svc)
    assert out.png is not None
    img = Image.open(io.BytesIO(out.png))
    assert img.size == (1, len(out.placements) + 1)  # start tile; numbered legal cells
    pos = next(iter(out.placements))
    assert list(out.placements) == sorted(out.placements, key=lambda p: (p.y, p.x))
    out = await svc.submit(CHANNEL, out.current_user_id, [PlaceTile(pos, out.placements[pos][0])])
    assert out.png is not None
    assert Image.open(io.BytesIO(out.png)).size == (2, 1)  # deploy step: no cells to pick
    assert out.view.step == "deploy" and [d.kind for d in out.decisions] == ["core.deploy"]


async def test_a_restart_continues_with_results_identical_to_an_uninterrupted_run(
    tmp_path: Path,
) -> None:
    a = await open_service(tmp_path / "a.sqlite3")
    try:
        whole = await play(a, await two_player_match(a, seed=99), random.Random(5))
    finally:
        await a.close()

    rng = random.Random(5)
    b = await open_service(tmp_path / "b.sqlite3")
    try:
        half = await play(b, await two_player_match(b, seed=99), rng, moves=61)
        assert not half.finished
    finally:
        await b.close()
    c = await open_service(tmp_path / "b.sqlite3")  # new process: nothing cached
    try:
        again = await c.current(CHANNEL)
        assert again.version == half.version and again.view == half.view
        assert again.placements == half.placements and again.decisions == half.decisions
        rest = await play(c, again, rng)
    finally:
        await c.close()
    assert rest.finished
    assert rest.record_json == whole.record_json
    assert [p.score for p in rest.view.players] == [p.score for p in whole.view.players]
    assert rest.view == whole.view


# ---------------------------------------------------------------------------- refusals
async def test_moves_from_outside_the_match_or_out_of_turn_are_refused(svc: MatchService) -> None:
    out = await two_player_match(svc)
    cell = next(iter(out.placements))
    place = PlaceTile(cell, out.placements[cell][0])
    await refused(ERR_NOT_SEATED, svc.submit(CHANNEL, CAT, [place]))
    other = ANN if out.current_user_id == BOB else BOB
    err = await refused(ERR_NOT_YOUR_TURN, svc.submit(CHANNEL, other, [place]))
    assert err.params["current_user_id"] == out.current_user_id
    await refused(ERR_NO_MATCH, svc.submit(CHANNEL + 1, ANN, [place]))
    assert (await svc.current(CHANNEL)).version == 0


async def test_an_illegal_cell_is_refused_with_the_engine_reason(svc: MatchService) -> None:
    out = await two_player_match(svc)
    err = await refused(
        ERR_ILLEGAL,
        svc.submit(CHANNEL, out.current_user_id, [PlaceTile(Position(7, 7), Rotation.R0)]),
    )
    assert "does not touch" in err.params["reason"]
    assert await svc.storage.actions.entries(out.match_id) == []
    assert (await svc.current(CHANNEL)).version == 0


async def test_a_stale_version_is_refused_with_a_link_to_the_current_board(
    svc: MatchService,
) -> None:
    out = await two_player_match(svc)
    moved = await svc.submit(CHANNEL, out.current_user_id, random_move(out, random.Random(1)), 0)
    await svc.set_turn_message(moved.match_id, moved.version, 777)
    err = await refused(
        ERR_STALE, svc.submit(CHANNEL, out.current_user_id, [Pass()], expected_version=0)
    )
    assert err.params["message_url"] == f"https://discord.com/channels/{GUILD}/{CHANNEL}/777"
    assert (await svc.current(CHANNEL)).turn_message_id == 777


async def test_two_concurrent_submits_of_the_same_move_apply_once(svc: MatchService) -> None:
    out = await two_player_match(svc)
    move = random_move(out, random.Random(2))
    results = await asyncio.gather(
        svc.submit(CHANNEL, out.current_user_id, move, out.version),
        svc.submit(CHANNEL, out.current_user_id, move, out.version),
        return_exceptions=True,
    )
    ok = [r for r in results if isinstance(r, Outcome)]
    errors = [r for r in results if isinstance(r, ServiceError)]
    assert len(ok) == 1 and [e.key for e in errors] == [ERR_STALE]
    assert [e.action for e in await svc.storage.actions.entries(out.match_id)] == [
        move[0].notation()
    ]
    # without a version the second is simply illegal now (the tile is already placed)
    nxt = random_move(ok[0], random.Random(2))
    pair = await asyncio.gather(
        svc.submit(CHANNEL, out.current_user_id, nxt),
        svc.submit(CHANNEL, out.current_user_id, nxt),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Outcome) for r in pair) == 1
    assert len(await svc.storage.actions.entries(out.match_id)) == 2


async def test_place_and_deploy_together_store_both_or_nothing(svc: MatchService) -> None:
    out = await two_player_match(svc)
    cell = next(iter(out.placements))
    place = PlaceTile(cell, out.placements[cell][0])
    await refused(
        ERR_ILLEGAL, svc.submit(CHANNEL, out.current_user_id, [place, Deploy("city:NESW")])
    )
    assert await svc.storage.actions.entries(out.match_id) == []
    now = await svc.current(CHANNEL)
    assert now.version == 0 and now.view.step == "place" and now.view == out.view
    done = await svc.submit(CHANNEL, out.current_user_id, [place, Pass()], expected_version=0)
    assert done.version == 2 and done.view.turn == 1 and done.current_user_id != out.current_user_id
    log = await svc.storage.actions.entries(out.match_id)
    assert [(e.seq, e.action) for e in log] == [(1, place.notation()), (2, "pass")]


# ---------------------------------------------------------------------------- undo
async def test_undo_takes_back_only_your_own_placement_before_you_deploy(
    svc: MatchService, db_path: Path
) -> None:
    out = await two_player_match(svc)
    me = out.current_user_id
    other = ANN if me == BOB else BOB
    await refused(ERR_NO_UNDO, svc.undo(CHANNEL, me))  # nothing placed yet
    cell = list(out.placements)[-1]
    placed = await svc.submit(CHANNEL, me, [PlaceTile(cell, out.placements[cell][0])])
    await refused(ERR_NO_UNDO, svc.undo(CHANNEL, other))  # not theirs
    await refused(ERR_NOT_SEATED, svc.undo(CHANNEL, CAT))

    undone = await svc.undo(CHANNEL, me)
    assert undone.view.step == "place" and undone.view.drawn == out.view.drawn
    assert undone.view.tiles == out.view.tiles and undone.placements == out.placements
    assert undone.version == placed.version + 1 == 2  # versions never go back
    await refused(ERR_NO_UNDO, svc.undo(CHANNEL, me))  # one level only
    await refused(  # a button made for the placed board is stale now
        ERR_STALE, svc.submit(CHANNEL, me, [Pass()], expected_version=placed.version)
    )
    log = [e.action for e in await svc.storage.actions.entries(out.match_id)]
    assert log[-1] == "undo" and len(log) == 2

    # after the deploy step the next tile is drawn (revealed): no undo any more
    first = list(undone.placements)[0]
    turned = await svc.submit(CHANNEL, me, [PlaceTile(first, undone.placements[first][0]), Pass()])
    await refused(ERR_NO_UNDO, svc.undo(CHANNEL, me))
    assert turned.version == 4

    # a new service replays the log with the undo in it to the same game
    fresh = await open_service(db_path)
    try:
        again = await fresh.current(CHANNEL)
        assert again.view == turned.view and again.version == turned.version
        # the record holds only effective moves: the undone placement is gone
        loaded = await fresh._load(out.match_id)
        moves = [a["action"] for a in loaded.game.record_json(["Ann", "Bob"])["actions"]]
        assert moves == [
            f"place {first.notation()} {undone.placements[first][0].notation()}",
            "pass",
        ]
    finally:
        await fresh.close()


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
        assert await svc.due_reminders(1000.0 + 299) == []
        out = await svc.submit(CHANNEL, first, random_move(out, random.Random(1)))
        assert await svc.due_reminders(1000.0 + 299) == []  # same turn: same reminder
    finally:
        await svc.close()
    svc = await open_service(db_path, clock=lambda: now[0])
    try:
        assert await svc.due_reminders(1000.0 + 301) == [(out.match_id, CHANNEL, first)]
        assert await svc.due_reminders(1000.0 + 999) == []
        now[0] = 2000.0
        out = await svc.submit(CHANNEL, first, [Pass()])
        assert await svc.due_reminders(2000.0 + 301) == [
            (out.match_id, CHANNEL, out.current_user_id)
        ]
        assert out.current_user_id != first
    finally:
        await svc.close()


async def test_no_reminders_without_the_option(svc: MatchService) -> None:
    out = await two_player_match(svc)
    assert await svc.due_reminders(10**12) == []
    assert await svc.storage.timers.pending(out.match_id) == []


# ---------------------------------------------------------------------------- recovery
async def test_active_matches_tell_which_boards_were_not_posted(db_path: Path) -> None:
    svc = await open_service(db_path)
    try:
        a = await two_player_match(svc, channel=1)
        b = await two_player_match(svc, channel=2)
        await svc.set_turn_message(a.match_id, a.version, 4242)
        b = await svc.submit(2, b.current_user_id, random_move(b, random.Random(0)))
        await svc.set_turn_message(b.match_id, b.version - 1, 5151)  # an older board only
    finally:
        await svc.close()
    svc = await open_service(db_path)
    try:
        active = {o.match_id: o for o in await svc.active_matches()}
        assert set(active) == {a.match_id, b.match_id}
        assert active[a.match_id].turn_message_id == 4242 and active[a.match_id].png is None
        assert active[b.match_id].turn_message_id is None and active[b.match_id].png
        assert active[b.match_id].version == b.version
    finally:
        await svc.close()


async def test_a_failing_renderer_does_not_lose_the_move(db_path: Path) -> None:
    def broken(view: PublicView, *, placements: object = None) -> bytes:
        raise RuntimeError("boom")

    svc = await open_service(db_path, renderer=broken)
    try:
        out = await two_player_match(svc)
        assert out.png is None
        moved = await svc.submit(CHANNEL, out.current_user_id, random_move(out, random.Random(0)))
        assert moved.version == 1 and moved.png is None
    finally:
        await svc.close()


async def test_the_state_cache_is_only_a_cache(svc: MatchService) -> None:
    out = await play(svc, await two_player_match(svc), random.Random(8), moves=20)
    svc._cache.clear()
    assert (await svc.current(CHANNEL)).view == out.view


async def test_storage_is_shared_with_repositories(db_path: Path) -> None:
    store = await Storage.open(db_path)
    svc = MatchService(store, renderer=None, animator=None)
    try:
        out = await two_player_match(svc)
        assert out.png is None
        row = await store.matches.open_in_channel(CHANNEL)
        assert row is not None and row.id == out.match_id
    finally:
        await svc.close()


def test_seat_colour_names_match_the_renderer() -> None:
    style = pytest.importorskip("rendering.style")
    assert tuple(s.colour_name for s in style.SEAT_STYLES) == SEAT_COLOURS


# ---------------------------------------------------------------------------- more
async def test_two_processes_on_one_file_never_both_apply_a_move(db_path: Path) -> None:
    """Two services (as two bot processes) share the file: the per-match lock cannot help,
    the compare-and-set on the version must."""
    a = await open_service(db_path, renderer=None, animator=None)
    b = await open_service(db_path, renderer=None, animator=None)
    try:
        out = await two_player_match(a)
        move = random_move(out, random.Random(1))
        seat = out.view.current
        stale = await b._load(out.match_id)  # b has read version 0 ...
        await a.submit(CHANNEL, out.current_user_id, move, 0)  # ... then a moves
        game = stale.game.copy()
        game.play(seat, move[0])
        entry = [NewAction(game.version, seat, move[0].notation())]
        await refused(ERR_STALE, b._commit(stale, game, entry, 0))
        assert len(await b.storage.actions.entries(out.match_id)) == 1
        now = await b.current(CHANNEL)  # b sees a's move, not its own
        assert now.version == 1 and now.view.step == "deploy"
    finally:
        await a.close()
        await b.close()


async def test_a_match_with_expansions_plays_to_the_end_and_replays(svc: MatchService) -> None:
    exps = ("inns_cathedrals", "traders_builders")
    await svc.create_lobby(
        GUILD, CHANNEL, ANN, "Ann", MatchOptions(players=3, expansions=exps), seed=21
    )
    await svc.join(CHANNEL, BOB, "Bob")
    await svc.join(CHANNEL, CAT, "Cat")
    out = await play(svc, await svc.start(CHANNEL, ANN), random.Random(9))
    assert out.finished and out.view.setup.expansions == exps
    assert out.record_json is not None
    result = replay(GameRecord.from_json(json.loads(out.record_json)))
    assert result.scores == tuple(p.score for p in out.view.players)
    err = await refused(
        ERR_ILLEGAL,
        svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", MatchOptions(expansions=("dragons",))),
    )
    assert "dragons" in err.params["reason"]


async def test_recent_matches_are_listed_from_snapshots_without_replay(
    svc: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = await play(svc, await two_player_match(svc, seed=1), random.Random(1))
    running = await play(svc, await two_player_match(svc, seed=2), random.Random(2), moves=7)
    await svc.create_lobby(GUILD, CHANNEL + 1, ANN, "Ann", MatchOptions())

    def no_replay(*args: object) -> None:
        raise AssertionError("listing must not replay")

    monkeypatch.setattr("bot.services.matches.rebuild", no_replay)
    svc._cache.clear()
    listed = await svc.recent_matches(CHANNEL)
    assert [m.match_id for m in listed] == [running.match_id, done.match_id]
    assert listed[0].status == "active" and listed[0].version == 7 and listed[0].winners == ()
    assert listed[1].status == "finished" and listed[1].winners == done.winners
    assert listed[1].scores == tuple(p.score for p in done.view.players)
    assert listed[1].names == tuple(s.name for s in done.seats)
    assert await svc.recent_matches(CHANNEL + 1) == []  # a lobby has no snapshot yet


async def test_two_lobbies_opened_at_once_in_one_channel_give_one(svc: MatchService) -> None:
    results = await asyncio.gather(
        svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", MatchOptions()),
        svc.create_lobby(GUILD, CHANNEL, BOB, "Bob", MatchOptions()),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, ServiceError)]
    assert len(errors) == 1 and errors[0].key == ERR_MATCH_EXISTS
    assert len(await svc.storage.matches.in_channel(CHANNEL)) == 1


async def test_a_board_is_rendered_once_per_version(db_path: Path) -> None:
    calls: list[int] = []

    def counting(
        view: PublicView,
        *,
        placements: Mapping[Position, tuple[Rotation, ...]] | None = None,
        **_kw: Any,
    ) -> bytes:
        calls.append(view.version)
        return tiny_renderer(view, placements=placements)

    svc = await open_service(db_path, renderer=counting)
    try:
        out = await two_player_match(svc)
        again = await svc.current(CHANNEL)
        assert again.png == out.png and calls == [0]
        moved = await svc.submit(CHANNEL, out.current_user_id, random_move(out, random.Random(0)))
        await svc.current(CHANNEL)
        assert calls == [0, 1] and moved.png is not None
        assert (await svc.current(CHANNEL, render=False)).png is None
    finally:
        await svc.close()


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


@pytest.mark.parametrize("seed", [31, 32, 33])
async def test_random_games_with_undos_and_cold_reloads_stay_consistent(
    svc: MatchService, seed: int
) -> None:
    rng = random.Random(seed)
    out = await two_player_match(svc, seed=seed)
    undos = 0
    while not out.finished:
        if out.view.step == "deploy" and rng.random() < 0.2:
            out = await svc.undo(CHANNEL, out.current_user_id)
            undos += 1
        else:
            out = await svc.submit(CHANNEL, out.current_user_id, random_move(out, rng), out.version)
        if rng.random() < 0.05:
            svc._cache.clear()
            again = (
                await svc.current(CHANNEL) if not out.finished else await svc.match(out.match_id)
            )
            assert again.view == out.view and again.version == out.version
    log = await svc.storage.actions.entries(out.match_id)
    assert len(log) == out.version and [e.seq for e in log] == list(range(1, out.version + 1))
    assert sum(e.action == "undo" for e in log) == undos > 0
    assert out.record_json is not None
    record = GameRecord.from_json(json.loads(out.record_json))
    assert len(record.actions) == out.version - 2 * undos  # each undo removes one placement
    assert replay(record).scores == tuple(p.score for p in out.view.players)


async def test_a_match_that_no_longer_replays_does_not_stop_the_others(db_path: Path) -> None:
    svc = await open_service(db_path, renderer=None, animator=None)
    try:
        good = await two_player_match(svc, channel=1)
        bad = await two_player_match(svc, channel=2)
        async with svc.storage.db.transaction() as tx:  # a log entry an engine change broke
            await svc.storage.actions.append(tx, bad.match_id, [NewAction(1, 0, "place 40,40 r0")])
            await svc.storage.matches.advance(
                tx, bad.match_id, expected_version=0, new_version=1, snapshot={"schema": 1}
            )
    finally:
        await svc.close()
    svc = await open_service(db_path, renderer=None, animator=None)
    try:
        assert [o.match_id for o in await svc.active_matches()] == [good.match_id]
        err = await refused(ERR_ILLEGAL, svc.current(2))
        assert "no longer be replayed" in err.params["reason"]
        assert (await svc.abandon(2, ANN, can_manage=True)).status == "abandoned"
    finally:
        await svc.close()


async def test_undo_also_before_an_expansions_choice_about_the_tile(svc: MatchService) -> None:
    """With bridges, placing a tile may be followed by the seat's own bridge choice: the
    placement can still be taken back there (nothing was drawn); once answered, it is final."""
    await svc.create_lobby(
        GUILD, CHANNEL, ANN, "Ann", MatchOptions(expansions=("bridges_castles_bazaars",)), seed=11
    )
    await svc.join(CHANNEL, BOB, "Bob")
    out = await svc.start(CHANNEL, ANN)
    me = out.current_user_id
    rng = random.Random(1)
    for _ in range(60):  # place until a bridge is offered after the placement
        (d,) = out.decisions
        if d.kind == "core.place":
            cell = next(iter(out.placements))
            placed = await svc.submit(
                CHANNEL, out.current_user_id, [PlaceTile(cell, out.placements[cell][0])]
            )
            kinds = [x.kind for x in placed.decisions]
            if kinds == ["bcb.bridge"]:
                break
            out = placed
        else:
            out = await svc.submit(CHANNEL, out.user_of(d.seat), random_move(out, rng))
    else:
        pytest.fail("no bridge was offered")
    me = placed.current_user_id
    assert placed.undo_seat == placed.view.current
    undone = await svc.undo(CHANNEL, me)
    assert undone.view.step == "place" and [x.kind for x in undone.decisions] == ["core.place"]
    again = await svc.submit(CHANNEL, me, [PlaceTile(cell, undone.placements[cell][0]), Pass()])
    assert [x.kind for x in again.decisions] == ["core.deploy"] and again.undo_seat is None
    await refused(ERR_NO_UNDO, svc.undo(CHANNEL, me))
