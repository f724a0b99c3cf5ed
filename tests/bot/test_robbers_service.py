"""Robbers through the match service on real SQLite files, with no code in ``bot/`` that knows
it: a restart while a seat decides where its robber goes resumes on the same decision and ends
as an uninterrupted run; bad answers are refused in one line and change nothing; a steal is a
named line of the turn message in English and Spanish ("Ann's robber takes 2 of Bob's 3");
the expansion and its rule variant are in the lobby."""

from __future__ import annotations

import random
from pathlib import Path

from app.base import ERR_ILLEGAL, ERR_NOT_YOUR_TURN, ERR_STALE
from app.options import rules_for
from bot.ui.lobby import expansion_name
from engine.carcassonne.actions import Choose
from engine.carcassonne.expansions.robbers import OFFER, PLACE_STEP, RobberStole
from tests.bot.expansion_service import (
    asked,
    play_until,
    random_answer,
    restarted_at,
    two_seat_match,
)
from tests.bot.matchservice import ANN, BOB, CHANNEL, open_service, refused
from words.i18n import Lang
from words.phrases import event_lines

RB = ("robbers",)


async def test_a_restart_while_a_robber_waits_resumes_the_same_decision(tmp_path: Path) -> None:
    half = await restarted_at(tmp_path, RB, PLACE_STEP)
    (d,) = half.decisions
    assert d.kind == PLACE_STEP and d.optional and d.options


async def test_bad_robbers_are_refused_in_one_line_and_change_nothing(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "d.sqlite3")
    try:
        out = await play_until(svc, await two_seat_match(svc, RB), random.Random(4), PLACE_STEP)
        (d,) = out.decisions
        other = ANN if asked(out) == BOB else BOB
        err = await refused(
            ERR_ILLEGAL,
            svc.submit(CHANNEL, asked(out), [Choose(PLACE_STEP, "77")], key=d.key),
        )
        assert "\n" not in str(err.params.get("reason", ""))
        await refused(
            ERR_NOT_YOUR_TURN,
            svc.submit(CHANNEL, other, [Choose(PLACE_STEP, d.options[0].id)]),
        )
        same = await svc.current(CHANNEL)
        assert same.version == out.version and same.view == out.view
        placed = await svc.submit(
            CHANNEL, asked(out), [d.options[0].action], out.version, key=d.key
        )
        assert placed.version == out.version + 1
        await refused(  # an answer after the decision closed
            ERR_STALE,
            svc.submit(CHANNEL, asked(out), [d.options[0].action], key=d.key),
        )
    finally:
        await svc.close()


async def test_a_steal_is_a_named_line_of_the_turn_message(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "w.sqlite3")
    try:
        out = await two_seat_match(svc, RB)
        rng = random.Random(4)
        while not out.finished and not any(isinstance(e, RobberStole) for e in out.events):
            d = out.decisions[0]
            # place robbers whenever offered, so that a steal comes soon
            acts = (
                [o.action for o in d.options] if d.kind == PLACE_STEP else random_answer(out, rng)
            )
            out = await svc.submit(CHANNEL, asked(out), acts[:1], out.version)
        (stole,) = [e for e in out.events if isinstance(e, RobberStole)][:1]
        seats = list(out.seats)
        names = {s.seat: s.name for s in seats}
        thief, victim = names[stole.seat], names[stole.victim_seat]
        en = event_lines(out.events, seats, Lang.EN)
        es = event_lines(out.events, seats, Lang.ES)
        want_en = f"{thief}'s robber takes {stole.points} of {victim}'s {stole.of}"
        want_es = f"El ladrón de {thief} roba {stole.points} de los {stole.of} de {victim}"
        assert any(want_en in line for line in en), en
        assert any(want_es in line for line in es), es
        assert all("{" not in line for line in en + es)
    finally:
        await svc.close()


def test_the_expansion_and_its_variant_are_in_the_lobby_in_english_and_spanish() -> None:
    assert expansion_name("robbers", Lang.EN) == "Robbers"
    assert expansion_name("robbers", Lang.ES) == "Ladrones"
    (rule,) = rules_for(RB)
    assert rule.key == OFFER and rule.default == "next" and rule.choices == ("next", "each")


def test_a_steal_s_arithmetic_names_the_victim_by_name_in_every_language() -> None:
    """The score line's part names the victim's player, not a seat number ("half of 2's 9")."""
    from engine.carcassonne.expansions import robbers as _robbers  # noqa: F401  (its words)
    from engine.carcassonne.scoring import Part, ScoreItem
    from words.i18n import Lang
    from words.phrases import reason

    item = ScoreItem(
        "robber", 3, True, False, parts=(Part("part.robber", victim_seat=1, of=6, n=3),)
    )
    assert "Bo's 6" in reason(item, Lang.EN, {0: "Ana", 1: "Bo"})
    assert "de Bo" in reason(item, Lang.ES, {0: "Ana", 1: "Bo"})
    assert "von Bo" in reason(item, Lang.DE, {0: "Ana", 1: "Bo"})
