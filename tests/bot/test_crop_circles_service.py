"""Crop Circles through the match service on real SQLite files, with no code in ``bot/`` that
knows it: the other seats answer the round with their own decisions (the service addresses
each to its seat); a restart mid-round resumes on the same decision and ends as an
uninterrupted run; bad answers (an answer not offered, another seat's decision, an answer
after the decision closed) are refused in one line and change nothing; the choice and the
skipped seats are worded in the turn message in English and Spanish; the expansion and its
two tile sets are in the lobby."""

from __future__ import annotations

import json
import random
from pathlib import Path

from app.base import ERR_ILLEGAL, ERR_NOT_YOUR_TURN, ERR_STALE, SeatInfo
from app.matches import MatchOptions, MatchService, Outcome
from app.options import rules_for
from bot.ui.lobby import expansion_name
from engine import Action
from engine.carcassonne.actions import Choose
from engine.carcassonne.expansions.crop_circles import (
    CHOOSE_STEP,
    ROUND_STEP,
    SET_I,
    SET_II,
    OptionChosen,
    SeatSkipped,
)
from engine.carcassonne.record import GameRecord, replay
from engine.core import messages
from tests.bot.matchservice import ANN, BOB, CHANNEL, GUILD, open_service, refused
from words.i18n import Lang
from words.phrases import event_lines

CC = ("crop_circles",)
BOTH = ((SET_I, True), (SET_II, True))


def move(out: Outcome, rng: random.Random) -> tuple[int, list[Action]]:
    """The user whose decision is open and a random answer to it (B, which no seat may
    decline, is chosen twice as often as A)."""
    (d,) = out.decisions
    actions = list(d.actions())
    if d.kind == CHOOSE_STEP:
        actions = [a for a in actions if a == Choose(CHOOSE_STEP, "b")] + actions
    return out.user_of(d.seat), [rng.choice(actions)]


async def match(svc: MatchService, seed: int = 3) -> Outcome:
    options = MatchOptions(players=2, expansions=CC, rules=BOTH, random_seats=False)
    await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", options, seed=seed)
    await svc.join(CHANNEL, BOB, "Bob")
    return await svc.start(CHANNEL, ANN)


async def step(svc: MatchService, out: Outcome, rng: random.Random) -> Outcome:
    user, actions = move(out, rng)
    return await svc.submit(CHANNEL, user, actions, out.version)


async def until_other_seat_answers(svc: MatchService, out: Outcome, rng: random.Random) -> Outcome:
    """Play until a round asks a seat other than the active one."""
    while not out.finished:
        d = out.decisions[0]
        if d.kind == ROUND_STEP and out.user_of(d.seat) != out.current_user_id:
            return out
        out = await step(svc, out, rng)
    raise AssertionError("no round asked another seat in this game")


async def finish(svc: MatchService, out: Outcome, rng: random.Random) -> Outcome:
    while not out.finished:
        out = await step(svc, out, rng)
    return out


async def test_a_restart_mid_round_resumes_the_same_decision(tmp_path: Path) -> None:
    a = await open_service(tmp_path / "a.sqlite3")
    try:
        whole = await finish(a, await match(a), random.Random(5))
    finally:
        await a.close()
    rng = random.Random(5)
    b = await open_service(tmp_path / "b.sqlite3")
    try:
        half = await until_other_seat_answers(b, await match(b), rng)
        (d,) = half.decisions
        assert d.kind == ROUND_STEP and half.user_of(d.seat) != half.current_user_id
    finally:
        await b.close()
    c = await open_service(tmp_path / "b.sqlite3")  # a new process: nothing cached
    try:
        again = await c.current(CHANNEL)
        assert again.version == half.version and again.view == half.view
        assert again.decisions == half.decisions
        rest = await finish(c, again, rng)
    finally:
        await c.close()
    assert rest.record_json == whole.record_json
    assert rest.record_json is not None
    result = replay(GameRecord.from_json(json.loads(rest.record_json)))
    assert result.scores == tuple(p.score for p in rest.view.players)


async def test_bad_answers_are_refused_in_one_line_and_change_nothing(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "d.sqlite3")
    try:
        out = await until_other_seat_answers(svc, await match(svc), random.Random(5))
        (d,) = out.decisions
        asked = out.user_of(d.seat)
        other = ANN if asked == BOB else BOB  # the active player: not their decision now
        err = await refused(
            ERR_ILLEGAL,
            svc.submit(CHANNEL, asked, [Choose(ROUND_STEP, "99,99/city:N/follower")], key=d.key),
        )
        assert "\n" not in str(err.params.get("reason", ""))
        await refused(
            ERR_NOT_YOUR_TURN,
            svc.submit(CHANNEL, other, [d.options[0].action]),
        )
        same = await svc.current(CHANNEL)
        assert same.version == out.version and same.view == out.view
        done = await svc.submit(CHANNEL, asked, [d.options[0].action], out.version, key=d.key)
        assert done.version == out.version + 1
        await refused(  # an answer after the decision closed
            ERR_STALE,
            svc.submit(CHANNEL, asked, [d.options[0].action], key=d.key),
        )
    finally:
        await svc.close()


async def test_the_choice_and_the_skipped_seats_are_worded_in_the_turn_message(
    tmp_path: Path,
) -> None:
    svc = await open_service(tmp_path / "w.sqlite3")
    try:
        out = await match(svc)
        rng = random.Random(5)
        while not any(isinstance(e, OptionChosen) for e in out.events):
            out = await step(svc, out, rng)
        seats = [SeatInfo(i, u, n) for i, (u, n) in enumerate(((ANN, "Ann"), (BOB, "Bob")))]
        en = event_lines(out.events, seats, Lang.EN)
        es = event_lines(out.events, seats, Lang.ES)
        assert any("chooses option" in line for line in en), en
        assert any("elige la opción" in line for line in es), es
        assert all("{" not in line for line in en + es)
        while not any(isinstance(e, SeatSkipped) for e in out.events):
            out = await step(svc, out, rng)
        en = event_lines(out.events, seats, Lang.EN)
        es = event_lines(out.events, seats, Lang.ES)
        assert any("is skipped" in line for line in en), en
        assert any("se salta" in line for line in es), es
    finally:
        await svc.close()


def test_the_expansion_and_its_tile_sets_are_in_the_lobby_in_english_and_spanish() -> None:
    assert expansion_name("crop_circles", Lang.EN) == "Crop Circles"
    assert expansion_name("crop_circles", Lang.ES) == "Círculos en los cultivos"
    rules = rules_for(CC)
    assert [(r.key, r.default) for r in rules] == [(SET_I, False), (SET_II, True)]
    assert messages.text(f"opt.{SET_II}", "en") == "Crop Circles tiles of 2012"
    assert messages.text(f"opt.{SET_I}", "es") == "Piezas de Círculos en los cultivos de 2010"
