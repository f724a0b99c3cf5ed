"""Gold Mines through the match service on real SQLite files, with no code in ``bot/`` that
knows it: a restart while a seat chooses where the second bar goes resumes on the same
decision and ends as an uninterrupted run; bad answers are refused in one line and change
nothing; the bars are worded in the turn message in English and Spanish; the expansion is in
the lobby."""

from __future__ import annotations

import random
from pathlib import Path

from app.base import ERR_ILLEGAL, ERR_NOT_YOUR_TURN, ERR_STALE, SeatInfo
from app.options import rules_for
from bot.ui.lobby import expansion_name
from engine import Action
from engine.carcassonne.actions import Choose
from engine.carcassonne.expansions.gold_mines import BAR_STEP, GoldPlaced
from tests.bot.expansion_service import (
    play_until,
    random_answer,
    restarted_at,
    two_seat_match,
)
from tests.bot.matchservice import ANN, BOB, CHANNEL, open_service, refused
from words.i18n import Lang
from words.phrases import event_lines

GM = ("gold_mines",)


async def test_a_restart_while_the_second_bar_waits_resumes_the_same_decision(
    tmp_path: Path,
) -> None:
    half = await restarted_at(tmp_path, GM, BAR_STEP)
    (d,) = half.decisions
    assert d.kind == BAR_STEP and not d.optional and len(d.options) >= 2


async def test_bad_bars_are_refused_in_one_line_and_change_nothing(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "d.sqlite3")
    try:
        out = await play_until(svc, await two_seat_match(svc, GM), random.Random(4), BAR_STEP)
        (d,) = out.decisions
        other = ANN if out.current_user_id == BOB else BOB
        err = await refused(
            ERR_ILLEGAL,
            svc.submit(CHANNEL, out.current_user_id, [Choose(BAR_STEP, "99,99")], key=d.key),
        )
        assert "\n" not in str(err.params.get("reason", ""))
        await refused(
            ERR_NOT_YOUR_TURN,
            svc.submit(CHANNEL, other, [Choose(BAR_STEP, d.options[0].id)]),
        )
        await refused(
            ERR_ILLEGAL,
            svc.submit(CHANNEL, out.current_user_id, [Action.from_notation("pass")], key=d.key),
        )
        same = await svc.current(CHANNEL)
        assert same.version == out.version and same.view == out.view
        placed = await svc.submit(
            CHANNEL, out.current_user_id, [d.options[0].action], out.version, key=d.key
        )
        assert placed.version == out.version + 1
        await refused(  # an answer after the decision closed
            ERR_STALE,
            svc.submit(CHANNEL, out.current_user_id, [d.options[0].action], key=d.key),
        )
    finally:
        await svc.close()


async def test_the_bars_are_worded_in_the_turn_message(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "w.sqlite3")
    try:
        out = await two_seat_match(svc, GM)
        rng = random.Random(4)
        while not any(isinstance(e, GoldPlaced) for e in out.events):
            out = await svc.submit(
                CHANNEL, out.current_user_id, random_answer(out, rng), out.version
            )
        seats = [SeatInfo(i, u, n) for i, (u, n) in enumerate(((ANN, "Ann"), (BOB, "Bob")))]
        en = event_lines(out.events, seats, Lang.EN)
        es = event_lines(out.events, seats, Lang.ES)
        assert any("puts a gold bar on" in line for line in en), en
        assert any("coloca un lingote de oro en" in line for line in es), es
        assert all("{" not in line for line in en + es)
    finally:
        await svc.close()


def test_the_expansion_is_in_the_lobby_in_english_and_spanish() -> None:
    assert expansion_name("gold_mines", Lang.EN) == "Gold Mines"
    assert expansion_name("gold_mines", Lang.ES) == "Minas de oro"
    assert not list(rules_for(GM))  # no rule variant: the rulebook leaves none open
