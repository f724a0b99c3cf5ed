"""Ferries through the match service on real SQLite files, with no code in ``bot/`` that knows
it: a restart while a seat chooses where a ferry goes (placed or moved) resumes on the same
decision and ends as an uninterrupted run; bad answers are refused in one line and change
nothing; the ferries are worded in the turn message in English and Spanish; the expansion and
its variant are in the lobby."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from app.base import ERR_ILLEGAL, ERR_NOT_YOUR_TURN, ERR_STALE, SeatInfo
from app.options import rules_for
from bot.ui.lobby import expansion_name, rule_help, rule_name, value_text
from engine import Action
from engine.carcassonne.actions import Choose
from engine.carcassonne.expansions.ferries import MOVE_STEP, PLACE_STEP, FerryPlaced
from tests.bot.expansion_service import (
    play_until,
    random_answer,
    restarted_at,
    two_seat_match,
)
from tests.bot.matchservice import ANN, BOB, CHANNEL, open_service, refused
from words.i18n import Lang
from words.phrases import event_lines

FR = ("ferries",)


@pytest.mark.parametrize("kind", [PLACE_STEP, MOVE_STEP])
async def test_a_restart_while_a_ferry_waits_resumes_the_same_decision(
    tmp_path: Path, kind: str
) -> None:
    half = await restarted_at(tmp_path, FR, kind)
    (d,) = half.decisions
    assert d.optional is (kind == MOVE_STEP) and len(d.options) >= 1


async def test_bad_ferries_are_refused_in_one_line_and_change_nothing(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "d.sqlite3")
    try:
        out = await play_until(svc, await two_seat_match(svc, FR), random.Random(4), PLACE_STEP)
        (d,) = out.decisions
        other = ANN if out.current_user_id == BOB else BOB
        err = await refused(
            ERR_ILLEGAL,
            svc.submit(CHANNEL, out.current_user_id, [Choose(PLACE_STEP, "NN")], key=d.key),
        )
        assert "\n" not in str(err.params.get("reason", ""))
        await refused(
            ERR_NOT_YOUR_TURN,
            svc.submit(CHANNEL, other, [Choose(PLACE_STEP, d.options[0].id)]),
        )
        await refused(  # the ferry must be placed: no pass
            ERR_ILLEGAL,
            svc.submit(CHANNEL, out.current_user_id, [Action.from_notation("pass")], key=d.key),
        )
        await refused(  # a move is no answer to the placing
            ERR_ILLEGAL,
            svc.submit(CHANNEL, out.current_user_id, [Choose(MOVE_STEP, "0,0:NS")], key=d.key),
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


async def test_the_ferries_are_worded_in_the_turn_message(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "w.sqlite3")
    try:
        out = await two_seat_match(svc, FR)
        rng = random.Random(4)
        while not any(isinstance(e, FerryPlaced) for e in out.events):
            out = await svc.submit(
                CHANNEL, out.current_user_id, random_answer(out, rng), out.version
            )
        seats = [SeatInfo(i, u, n) for i, (u, n) in enumerate(((ANN, "Ann"), (BOB, "Bob")))]
        en = event_lines(out.events, seats, Lang.EN)
        es = event_lines(out.events, seats, Lang.ES)
        assert any("puts the ferry on the lake at" in line for line in en), en
        assert any("coloca el transbordador en el lago de" in line for line in es), es
        assert all("{" not in line for line in en + es)
    finally:
        await svc.close()


def test_the_expansion_and_its_variant_are_in_the_lobby_in_english_and_spanish() -> None:
    assert expansion_name("ferries", Lang.EN) == "Ferries"
    assert expansion_name("ferries", Lang.ES) == "Transbordadores"
    (rule,) = rules_for(FR)
    assert rule.key == "ferries.moves" and rule.choices == ("turn", "placement")
    assert rule_name(rule, Lang.ES) == "Un transbordador movido no se mueve más"
    assert "reglamento" in rule_help(rule, Lang.ES)
    assert [value_text(rule, v, Lang.EN) for v in rule.choices] == [
        "for the whole turn",
        "for that placement",
    ]
    assert [value_text(rule, v, Lang.ES) for v in rule.choices] == [
        "durante todo el turno",
        "durante esa colocación",
    ]
