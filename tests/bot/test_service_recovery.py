"""MatchService after a restart or a failure, on real SQLite files: which boards were not
posted, a failing renderer, the caches and the shared storage, two processes on one file, and
a match that no longer replays."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.matches import ERR_ILLEGAL, ERR_STALE, MatchService
from engine import Position, PublicView, Rotation
from storage import NewAction, Storage
from tests.bot.matchservice import (
    ANN,
    CHANNEL,
    open_service,
    play,
    random_move,
    refused,
    tiny_renderer,
    two_player_match,
)


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
    svc.store.cache.clear()
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


async def test_two_processes_on_one_file_never_both_apply_a_move(db_path: Path) -> None:
    """Two services (as two bot processes) share the file: the per-match lock cannot help,
    the compare-and-set on the version must."""
    a = await open_service(db_path, renderer=None, animator=None)
    b = await open_service(db_path, renderer=None, animator=None)
    try:
        out = await two_player_match(a)
        move = random_move(out, random.Random(1))
        seat = out.view.current
        stale = await b.store.load(out.match_id)  # b has read version 0 ...
        await a.submit(CHANNEL, out.current_user_id, move, 0)  # ... then a moves
        game = stale.game.copy()
        game.play(seat, move[0])
        entry = [NewAction(game.version, seat, move[0].notation())]
        await refused(ERR_STALE, b.commits.commit(stale, game, entry, 0))
        assert len(await b.storage.actions.entries(out.match_id)) == 1
        now = await b.current(CHANNEL)  # b sees a's move, not its own
        assert now.version == 1 and now.view.step == "deploy"
    finally:
        await a.close()
        await b.close()


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
