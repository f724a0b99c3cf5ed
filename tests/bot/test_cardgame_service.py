"""CardMatchService on a real SQLite file: log visibility, replay after reopening, the shared
one-match-per-channel rule, and the remembered closed DMs."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.base import ERR_OTHER_GAME
from app.cardgame import CardMatchService
from app.matches import (
    ERR_MATCH_EXISTS,
    ERR_NOT_SEATED,
    ERR_NOT_YOUR_TURN,
    ERR_STALE,
    MatchOptions,
    MatchService,
    ServiceError,
)
from engine.cardgame import CardAction, PlayCard, state_to_json
from storage import Storage

CH = 77


async def _storage(db: Path) -> Storage:
    return await Storage.open(db)


async def _open(db: Path) -> CardMatchService:
    return CardMatchService(await _storage(db), renderer=None, seeds=lambda: 1)


async def _start(svc: CardMatchService) -> int:
    info = await svc.create_lobby(1, CH, 10, "Ana", 2)
    await svc.join(CH, 20, "Ben")
    out = await svc.start(CH, 10)
    assert set(out.private_changed) == {10, 20}, "both hands are new"
    return info.match_id


async def test_log_visibility_replay_and_refusals(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite3"
    svc = await _open(db)
    try:
        mid = await _start(svc)
        out = await svc.match(mid)
        mover = out.awaiting_users[0]
        other = 30 - mover
        _, sv = await svc.private_view(mid, mover)
        down = next(a for a in sv.legal if isinstance(a, PlayCard))
        with pytest.raises(ServiceError) as e:
            await svc.submit(mid, other, down)
        assert e.value.key == ERR_NOT_YOUR_TURN and e.value.params["current_user_id"] == mover
        with pytest.raises(ServiceError) as e:
            await svc.submit(mid, 99, down)
        assert e.value.key == ERR_NOT_SEATED
        with pytest.raises(ServiceError) as e:
            await svc.submit(mid, mover, down, expected_version=out.version + 5)
        assert e.value.key == ERR_STALE
        moved = await svc.submit(mid, mover, down, expected_version=out.version)
        # the mover's hand changed; the other seat has a new private decision (to play)
        assert set(moved.private_changed) == {mover, other}
        entries = await svc.storage.actions.entries(mid)
        seat = moved.seat_of(mover)
        assert [e.visibility for e in entries] == [f"seat:{seat}"], "a face-down play is private"
        # play on until a face-up card is logged
        while True:
            cur = await svc.match(mid)
            uid = cur.awaiting_users[0]
            _, sv = await svc.private_view(mid, uid)
            action = next((a for a in sv.legal if isinstance(a, PlayCard)), sv.legal[0])
            await svc.submit(mid, uid, action)
            entries = await svc.storage.actions.entries(mid)
            if entries[-1].visibility == "public" and entries[-1].action.startswith("play"):
                break
        loaded = await svc.store.load(mid)
        before = state_to_json(loaded.game)
        await svc.note_dm_closed(other)
        await svc.submit(mid, *(await _any_move(svc, mid)))
        after = state_to_json((await svc.store.load(mid)).game)
    finally:
        await svc.close()
    again = await _open(db)
    try:
        assert await again.dm_is_closed(other), "closed DMs are stored at once"
        reloaded = await again.store.load(mid)
        assert state_to_json(reloaded.game) == after != before
        assert not await again.note_dm_closed(other), "said once only"
    finally:
        await again.close()


async def _any_move(svc: CardMatchService, mid: int) -> tuple[int, CardAction]:
    cur = await svc.match(mid)
    uid = cur.awaiting_users[0]
    _, sv = await svc.private_view(mid, uid)
    return uid, sv.legal[0]


async def test_one_open_match_per_channel_across_both_games(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite3"
    tiles = await MatchService.open(db, renderer=None, animator=None)
    cards = CardMatchService(tiles.storage, renderer=None)
    try:
        await tiles.create_lobby(1, CH, 10, "Ana", MatchOptions())
        with pytest.raises(ServiceError) as e:
            await cards.create_lobby(1, CH, 20, "Ben")
        assert e.value.key == ERR_MATCH_EXISTS and e.value.params["game"] == "carcassonne"
        with pytest.raises(ServiceError) as e:
            await cards.join(CH, 20, "Ben")
        assert e.value.key == ERR_OTHER_GAME
        info = await cards.create_lobby(1, CH + 1, 20, "Ben")
        with pytest.raises(ServiceError) as e:
            await tiles.create_lobby(1, CH + 1, 10, "Ana", MatchOptions())
        assert e.value.key == ERR_MATCH_EXISTS
        assert (await cards.lobby(CH + 1)).match_id == info.match_id
    finally:
        await tiles.close()


async def test_answers_by_decision_key_and_refuses_a_closed_one(tmp_path: Path) -> None:
    """A button answers its decision by key: the seat's own answer closes the key (a second
    click is out of date), and the DM of the next seat's new private decision is due."""
    svc = await _open(tmp_path / "k.sqlite3")
    try:
        mid = await _start(svc)
        out = await svc.match(mid)
        mover = out.awaiting_users[0]
        other = 30 - mover
        _, sv = await svc.private_view(mid, mover)
        play = next(d for d in sv.own_decisions if d.kind == "cards.play")
        assert play.private and all(d.seat == sv.seat for d in sv.own_decisions)
        done = await svc.submit(mid, mover, play.options[0].action, key=play.key)
        assert done.version == out.version + 1
        assert other in done.private_changed, "the next seat's new play decision goes by DM"
        with pytest.raises(ServiceError) as e:
            await svc.submit(mid, mover, play.options[1].action, key=play.key)
        assert e.value.key == ERR_STALE
        _, sv2 = await svc.private_view(mid, other)
        mine = next(d for d in sv2.own_decisions if d.kind == "cards.play")
        with pytest.raises(ServiceError) as e:
            await svc.submit(mid, other, mine.options[0].action, key=play.key)
        assert e.value.key == ERR_STALE, "another seat's key is no open decision of this seat"
        assert (await svc.match(mid)).version == done.version
    finally:
        await svc.close()
