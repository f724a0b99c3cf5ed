"""The services answer every call with their own error: a wrong argument type or an id beyond
64 bits is ServiceError ``bad_input``, never a raw TypeError, AttributeError or OverflowError
from deep inside (issue 13).

Property test: every public method of both services, on a real SQLite file holding a lobby and
a running match of each game, called with each argument in turn replaced by a hypothesis value
of the wrong kind (huge and negative ids, floats, None, strings, bytes, lists, objects ...).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.base import ERR_BAD_INPUT, ServiceError
from app.cardgame import CardMatchService
from app.guard import MAX_INT, MAX_TEXT, _fits
from app.matches import MatchOptions, MatchService
from engine import Pass
from engine.cardgame import CardAction

ANN, BOB = 11, 22
TILES_CH, CARDS_CH, LOBBY_CH = 1001, 1002, 1003


@dataclass
class World:
    runner: asyncio.Runner
    tiles: MatchService
    cards: CardMatchService
    tile_match: int
    card_match: int


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    runner = asyncio.Runner()
    db = tmp_path_factory.mktemp("boundary") / "b.sqlite3"

    async def setup() -> World:
        tiles = await MatchService.open(db, renderer=None, animator=None)
        cards = CardMatchService(tiles.storage, renderer=None, seeds=lambda: 1)
        await tiles.create_lobby(1, TILES_CH, ANN, "Ann", MatchOptions(), seed=1)
        await tiles.join(TILES_CH, BOB, "Bob")
        started = await tiles.start(TILES_CH, ANN)
        await cards.create_lobby(1, CARDS_CH, ANN, "Ann")
        await cards.join(CARDS_CH, BOB, "Bob")
        dealt = await cards.start(CARDS_CH, ANN)
        await tiles.create_lobby(1, LOBBY_CH, ANN, "Ann", MatchOptions(), seed=2)
        return World(runner, tiles, cards, started.match_id, dealt.match_id)

    w = runner.run(setup())
    try:
        yield w
    finally:
        runner.run(w.tiles.close())
        runner.close()


def _valid(w: World, svc: Any, name: str) -> Any:
    """A value of the right type for parameter ``name`` (not necessarily one that succeeds)."""
    card = isinstance(svc, CardMatchService)
    table: dict[str, Any] = {
        "channel_id": CARDS_CH if card else TILES_CH,
        "guild_id": 1,
        "user_id": ANN,
        "host_id": ANN,
        "match_id": w.card_match if card else w.tile_match,
        "message_id": 5,
        "version": 0,
        "expected_version": 0,
        "name": "Cat",
        "host_name": "Cat",
        "options": MatchOptions(),
        "players": 2,
        "lang": "en",
        "seed": 3,
        "actions": [Pass()],
        "action": CardAction.from_notation("follower red") if card else Pass(),
        "key": None,
        "expansions": [],
        "value": 1,
        "limit": 3,
        "now": 0.0,
        "can_manage": False,
        "render": False,
        "change": lambda o: o,
    }
    return table.get(name, 0)


def _calls(w: World) -> list[tuple[Any, str, list[str]]]:
    """(service, method name, its parameter names) of every public coroutine method."""
    out = []
    for svc in (w.tiles, w.cards):
        for name in dir(type(svc)):
            fn = getattr(type(svc), name)
            if name.startswith("_") or name == "close" or not getattr(fn, "__guarded__", False):
                continue
            params = [p for p in inspect.signature(fn).parameters if p != "self"]
            out.append((svc, name, params))
    return out


WRONG = st.one_of(
    st.integers(min_value=MAX_INT + 1, max_value=1 << 80),
    st.integers(max_value=-(1 << 63) - 1, min_value=-(1 << 80)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.none(),
    st.booleans(),
    st.text(max_size=8),
    st.text(min_size=MAX_TEXT + 1, max_size=MAX_TEXT + 2),
    st.binary(max_size=8),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.builds(object),
    st.just("channel"),
)


def test_every_public_method_is_guarded(world: World) -> None:
    names = {(type(s).__name__, n) for s, n, _ in _calls(world)}
    for must in ("submit", "start", "join", "create_lobby", "match", "current", "abandon"):
        assert ("MatchService", must) in names and ("CardMatchService", must) in names
    assert ("MatchService", "preview") in names and ("CardMatchService", "private_view") in names


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_wrong_argument_is_a_service_error(world: World, data: st.DataObject) -> None:
    svc, method, params = data.draw(st.sampled_from(_calls(world)), label="method")
    if not params:
        return
    wrong = data.draw(st.sampled_from(params), label="param")
    value = data.draw(WRONG, label="value")
    fn = getattr(type(svc), method)
    hint = inspect.get_annotations(fn.__wrapped__, eval_str=True).get(wrong, Any)
    fits = _fits(value, hint)
    kwargs = {p: value if p == wrong else _valid(world, svc, p) for p in params}

    async def call() -> None:
        await getattr(svc, method)(**kwargs)

    try:
        world.runner.run(call())
    except ServiceError as e:
        assert fits or e.key == ERR_BAD_INPUT, (method, wrong, value, e.key)
    # anything else (TypeError, OverflowError, AttributeError ...) fails the test
    else:
        assert fits, f"{method}({wrong}={value!r}) was accepted"


@pytest.mark.parametrize(
    "value", [1 << 63, (1 << 63) + 5, -(1 << 64), 10**30, "12", 3.0, None, True, b"1"]
)
def test_huge_or_mistyped_ids_are_refused_cleanly(world: World, value: Any) -> None:
    """The examples the issue names, for every id a caller hands over."""

    async def go() -> list[str]:
        keys = []
        for coro in (
            world.tiles.match(value),
            world.tiles.current(value),
            world.tiles.submit(TILES_CH, value, [Pass()]),
            world.tiles.submit(TILES_CH, ANN, [value]),
            world.tiles.submit(TILES_CH, ANN, value),
            world.cards.submit(world.card_match, ANN, value),
            world.cards.private_view(value, ANN),
            world.tiles.join(value, BOB, "Bob"),
            world.cards.create_lobby(1, value, ANN, "Ann"),
        ):
            try:
                await coro
            except ServiceError as e:
                keys.append(e.key)
        return keys

    assert world.runner.run(go()) == [ERR_BAD_INPUT] * 9
