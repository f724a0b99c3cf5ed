"""MatchService refusals and undo on real SQLite files: moves from outside the match or out of
turn, illegal cells, stale versions, concurrent submits, atomic multi-action moves, and what
undo may take back."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from app.matches import (
    ERR_ILLEGAL,
    ERR_NO_MATCH,
    ERR_NO_UNDO,
    ERR_NOT_SEATED,
    ERR_NOT_YOUR_TURN,
    ERR_STALE,
    MatchOptions,
    MatchService,
    Outcome,
    ServiceError,
)
from engine import Deploy, Pass, PlaceTile, Position, Rotation
from tests.bot.matchservice import (
    ANN,
    BOB,
    CAT,
    CHANNEL,
    GUILD,
    open_service,
    random_move,
    refused,
    two_player_match,
)


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
        loaded = await fresh.store.load(out.match_id)
        moves = [a["action"] for a in loaded.game.record_json(["Ann", "Bob"])["actions"]]
        assert moves == [
            f"place {first.notation()} {undone.placements[first][0].notation()}",
            "pass",
        ]
    finally:
        await fresh.close()


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
