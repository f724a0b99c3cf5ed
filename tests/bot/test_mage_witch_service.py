"""Mage & Witch through the match service on real SQLite files, with no code in ``bot/`` that
knows it: a restart while a seat chooses where the mage or the witch goes resumes on the same
decision and ends as an uninterrupted run; bad answers are refused in one line and change
nothing; the figures' moves and score lines ("+5 mage", "½ witch") are worded in the turn
message in English and Spanish; the expansion is in the lobby."""

from __future__ import annotations

import random
from pathlib import Path

from app.base import ERR_ILLEGAL, ERR_NOT_YOUR_TURN, ERR_STALE, SeatInfo
from app.options import rules_for
from bot.ui.lobby import expansion_name
from engine import Action
from engine.carcassonne.actions import Choose
from engine.carcassonne.events import PointsScored
from engine.carcassonne.expansions.mage_witch import MOVE_STEP, FigurePlaced
from tests.bot.expansion_service import (
    play_until,
    random_answer,
    restarted_at,
    two_seat_match,
)
from tests.bot.matchservice import ANN, BOB, CHANNEL, open_service, refused
from words.i18n import Lang
from words.phrases import event_lines

MW = ("mage_witch",)


async def test_a_restart_while_the_magic_decision_waits_resumes_the_same_decision(
    tmp_path: Path,
) -> None:
    half = await restarted_at(tmp_path, MW, MOVE_STEP)
    (d,) = half.decisions
    assert d.kind == MOVE_STEP and not d.optional and len(d.options) >= 2


async def test_bad_magic_answers_are_refused_in_one_line_and_change_nothing(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "d.sqlite3")
    try:
        out = await play_until(svc, await two_seat_match(svc, MW), random.Random(4), MOVE_STEP)
        (d,) = out.decisions
        other = ANN if out.current_user_id == BOB else BOB
        err = await refused(
            ERR_ILLEGAL,
            svc.submit(
                CHANNEL, out.current_user_id, [Choose(MOVE_STEP, "mage@99,99@road:EW")], key=d.key
            ),
        )
        assert "\n" not in str(err.params.get("reason", ""))
        await refused(
            ERR_NOT_YOUR_TURN,
            svc.submit(CHANNEL, other, [Choose(MOVE_STEP, d.options[0].id)]),
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


async def test_the_figures_and_their_score_lines_are_worded_in_the_turn_message(
    tmp_path: Path,
) -> None:
    svc = await open_service(tmp_path / "w.sqlite3")
    try:
        out = await two_seat_match(svc, MW)
        rng = random.Random(4)
        seen: list[object] = []
        while not out.finished:
            out = await svc.submit(
                CHANNEL, out.current_user_id, random_answer(out, rng), out.version
            )
            seen.extend(out.events)
        assert any(isinstance(e, FigurePlaced) for e in seen)
        seats = [SeatInfo(i, u, n) for i, (u, n) in enumerate(((ANN, "Ann"), (BOB, "Bob")))]
        en = event_lines(seen, seats, Lang.EN)
        es = event_lines(seen, seats, Lang.ES)
        assert any(" the mage on " in line or " the witch on " in line for line in en), en
        assert any(" al mago en " in line or " a la bruja en " in line for line in es), es
        assert all("{" not in line for line in en + es)
        marked = [
            e
            for e in seen
            if isinstance(e, PointsScored)
            and any(str(p).endswith((" mage", "½ witch")) for p in e.item.parts)
        ]
        assert marked, "no score with the mage or the witch in this game"
        lines_en = event_lines(marked, seats, Lang.EN)
        lines_es = event_lines(marked, seats, Lang.ES)
        assert any(" mage" in x or "½ witch" in x for x in lines_en), lines_en
        assert any(" mago" in x or "½ bruja" in x for x in lines_es), lines_es
    finally:
        await svc.close()


def test_the_expansion_is_in_the_lobby_in_english_and_spanish() -> None:
    assert expansion_name("mage_witch", Lang.EN) == "Mage & Witch"
    assert expansion_name("mage_witch", Lang.ES) == "Mago y Bruja"
    assert not list(rules_for(MW))  # no rule variant: the proposals of RULES.md §10.5 hold
