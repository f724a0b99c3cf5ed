"""MatchService end to end on real SQLite files: whole games (with expansions, undos and cold
reloads), restarts that continue identically, and the match listing."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from PIL import Image

from app.matches import ERR_ILLEGAL, ERR_NO_MATCH, MatchOptions, MatchService
from engine import PlaceTile
from engine.carcassonne.events import PointsScored
from engine.carcassonne.record import GameRecord, replay
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

    monkeypatch.setattr("app.matches.rebuild", no_replay)
    svc.store.cache.clear()
    listed = await svc.recent_matches(CHANNEL)
    assert [m.match_id for m in listed] == [running.match_id, done.match_id]
    assert listed[0].status == "active" and listed[0].version == 7 and listed[0].winners == ()
    assert listed[1].status == "finished" and listed[1].winners == done.winners
    assert listed[1].scores == tuple(p.score for p in done.view.players)
    assert listed[1].names == tuple(s.name for s in done.seats)
    assert await svc.recent_matches(CHANNEL + 1) == []  # a lobby has no snapshot yet


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
            svc.store.cache.clear()
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
