"""MatchService over the decision core (issue 9): answers by decision key, several seats with
open decisions at once, private decisions fetched per seat, previews that reveal nothing, and
resigned seats answered by ``auto_decide`` — played with the test-only Oracle expansion, which
no front-end code knows."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from app.base import ERR_NOT_YOUR_TURN, ERR_STALE
from app.matches import MatchOptions, MatchService, Outcome
from engine.carcassonne.randomplay import choose_answer
from engine.core.decisions import Decision
from engine.core.rng import Rng
from tests.bot.matchservice import open_service, refused
from tests.expansions import oracle

GUILD, CHANNEL = 1, 10
ANN, BOB, CAT = 101, 102, 103


@pytest.fixture(autouse=True)
def with_oracle() -> Iterator[None]:
    oracle.install()
    yield
    oracle.uninstall()


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[MatchService]:
    s = await open_service(tmp_path / "decisions.sqlite3")
    try:
        yield s
    finally:
        await s.close()


async def oracle_match(svc: MatchService, players: int = 3) -> Outcome:
    opts = MatchOptions(players=players, expansions=("oracle",), rules=(("oracle.guess_every", 2),))
    await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", opts, seed=5)
    await svc.join(CHANNEL, BOB, "Bob")
    if players > 2:
        await svc.join(CHANNEL, CAT, "Cat")
    return await svc.start(CHANNEL, ANN)


async def my_decisions(svc: MatchService, user: int) -> tuple[Decision, ...]:
    _, ds = await svc.decisions_for(CHANNEL, user)
    return ds


async def until_guessing(svc: MatchService, out: Outcome, rng: Rng) -> Outcome:
    """Play public decisions until every seat must guess privately."""
    while not out.finished and not out.private_seats:
        (d,) = out.decisions
        out = await svc.submit(CHANNEL, out.user_of(d.seat), [choose_answer(d, rng)], key=d.key)
    return out


async def test_private_guesses_are_asked_of_every_seat_at_once_and_answered_by_key(
    svc: MatchService,
) -> None:
    out = await until_guessing(svc, await oracle_match(svc), Rng(1))
    assert out.private_seats == out.awaiting == (0, 1, 2)
    assert out.decisions == ()  # nothing private on the channel's view
    users = [out.user_of(s) for s in out.awaiting]
    mine = {u: await my_decisions(svc, u) for u in users}
    assert all(len(ds) == 1 and ds[0].private for ds in mine.values())
    # the last seat answers first; the others' keys stay valid
    last = users[-1]
    (d,) = mine[last]
    after = await svc.submit(CHANNEL, last, [d.options[0].action_for(3)], key=d.key)
    assert after.awaiting == tuple(sorted(s for s in out.awaiting if out.user_of(s) != last))
    await refused(ERR_STALE, svc.submit(CHANNEL, last, [d.options[0].action_for(4)], key=d.key))
    await refused(ERR_NOT_YOUR_TURN, svc.submit(CHANNEL, last, [d.options[0].action_for(4)]))
    for u in users[:-1]:
        (mine_d,) = mine[u]
        assert (await my_decisions(svc, u))[0].key == mine_d.key
        after = await svc.submit(CHANNEL, u, [mine_d.options[0].action_for(2)], key=mine_d.key)
    assert not after.private_seats
    assert any(type(e).__name__ == "GuessesRevealed" for e in after.events)


async def test_a_resigned_seat_is_answered_by_auto_decide(svc: MatchService) -> None:
    out = await oracle_match(svc)
    quitter = out.user_of(2)
    out = await svc.resign(CHANNEL, quitter)
    rng, guesses = Rng(2), 0
    while not out.finished:
        assert 2 not in out.awaiting  # every decision of the resigned seat is answered for it
        if out.private_seats:
            guesses += 1
            for seat in out.awaiting:
                (d,) = await my_decisions(svc, out.user_of(seat))
                out = await svc.submit(
                    CHANNEL, out.user_of(seat), [d.options[0].action_for(1)], key=d.key
                )
            continue
        (d,) = out.decisions
        out = await svc.submit(CHANNEL, out.user_of(d.seat), [choose_answer(d, rng)], key=d.key)
    assert guesses > 5


async def test_preview_shows_the_follower_step_but_never_a_draw(svc: MatchService) -> None:
    opts = MatchOptions(players=2)
    await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", opts, seed=3)
    await svc.join(CHANNEL, BOB, "Bob")
    out = await svc.start(CHANNEL, ANN)
    (place,) = out.decisions
    user = out.user_of(place.seat)
    seen = await svc.preview(CHANNEL, user, place.options[0].action)
    assert seen is not None
    ds, view = seen
    assert [d.kind for d in ds] == ["core.deploy"] and view.placed is not None
    out = await svc.submit(CHANNEL, user, [place.options[0].action], key=place.key)
    (deploy,) = out.decisions
    assert deploy.kind == "core.deploy"
    assert await svc.preview(CHANNEL, user, deploy.pass_action) is None  # passing draws
