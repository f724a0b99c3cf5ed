"""Flying Machines through the match service on real SQLite files, with no code in ``bot/`` that
knows it: a match in which followers fly plays to the end and replays; a restart while a flying
follower waits to land resumes on the same decision and ends as an uninterrupted run; bad
answers to the landing are refused in one line and change nothing; the roll and the flight are
worded in the turn message and the variants in the lobby, in English and Spanish."""

from __future__ import annotations

import json
import random
from pathlib import Path

from app.base import ERR_ILLEGAL, ERR_NOT_YOUR_TURN, ERR_STALE, SeatInfo
from app.matches import MatchOptions, MatchService, Outcome
from app.options import rules_for
from bot.ui.lobby import expansion_name, rule_help, rule_name, value_text
from engine import Action, Deploy
from engine.carcassonne.actions import Choose
from engine.carcassonne.events import DieRolled
from engine.carcassonne.expansions.flying_machines import FlierFlew
from engine.carcassonne.record import GameRecord, replay
from tests.bot.matchservice import ANN, BOB, CHANNEL, GUILD, open_service, refused
from words.i18n import Lang
from words.phrases import event_lines

FM = ("flying_machines",)


def flier_move(out: Outcome, rng: random.Random) -> list[Action]:
    """A random answer, taking the flying machine whenever it is offered."""
    (d,) = out.decisions
    answers = list(d.actions())
    fly = [a for a in answers if isinstance(a, Deploy) and a.spot.startswith("flier:")]
    return [fly[0] if fly else rng.choice(answers)]


async def match(svc: MatchService, seed: int = 3) -> Outcome:
    await svc.create_lobby(
        GUILD, CHANNEL, ANN, "Ann", MatchOptions(players=2, expansions=FM), seed=seed
    )
    await svc.join(CHANNEL, BOB, "Bob")
    return await svc.start(CHANNEL, ANN)


async def until_landing(svc: MatchService, out: Outcome, rng: random.Random) -> Outcome:
    while not out.finished and out.decisions[0].kind != "flier.land":
        out = await svc.submit(CHANNEL, out.current_user_id, flier_move(out, rng), out.version)
    assert not out.finished, "no flight could land in this game"
    return out


async def finish(svc: MatchService, out: Outcome, rng: random.Random) -> Outcome:
    while not out.finished:
        out = await svc.submit(CHANNEL, out.current_user_id, flier_move(out, rng), out.version)
    return out


async def test_a_restart_while_a_follower_waits_to_land_resumes_the_same_decision(
    tmp_path: Path,
) -> None:
    a = await open_service(tmp_path / "a.sqlite3")
    try:
        whole = await finish(a, await match(a), random.Random(4))
    finally:
        await a.close()
    rng = random.Random(4)
    b = await open_service(tmp_path / "b.sqlite3")
    try:
        half = await until_landing(b, await match(b), rng)
        (d,) = half.decisions
        assert d.kind == "flier.land" and not d.optional and d.options
    finally:
        await b.close()
    c = await open_service(tmp_path / "b.sqlite3")  # a new process: nothing cached
    try:
        again = await c.current(CHANNEL)
        assert again.version == half.version and again.view == half.view
        assert again.decisions == half.decisions
        assert [o.id for o in again.decisions[0].options] == [o.id for o in d.options]
        rest = await finish(c, again, rng)
    finally:
        await c.close()
    assert rest.record_json == whole.record_json
    assert [p.score for p in rest.view.players] == [p.score for p in whole.view.players]
    assert rest.record_json is not None
    result = replay(GameRecord.from_json(json.loads(rest.record_json)))
    assert result.scores == tuple(p.score for p in rest.view.players)
    assert any(isinstance(e, FlierFlew) and not e.reason for e in result.events)


async def test_bad_landings_are_refused_in_one_line_and_change_nothing(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "d.sqlite3")
    try:
        out = await until_landing(svc, await match(svc), random.Random(4))
        (d,) = out.decisions
        other = ANN if out.current_user_id == BOB else BOB
        err = await refused(
            ERR_ILLEGAL,
            svc.submit(CHANNEL, out.current_user_id, [Choose("flier.land", "field:Nw")], key=d.key),
        )
        assert "\n" not in str(err.params.get("reason", ""))
        await refused(
            ERR_NOT_YOUR_TURN,
            svc.submit(CHANNEL, other, [Choose("flier.land", d.options[0].id)]),
        )
        await refused(
            ERR_ILLEGAL,
            svc.submit(CHANNEL, out.current_user_id, [Action.from_notation("pass")], key=d.key),
        )
        same = await svc.current(CHANNEL)
        assert same.version == out.version and same.view == out.view
        landed = await svc.submit(
            CHANNEL, out.current_user_id, [d.options[0].action], out.version, key=d.key
        )
        assert landed.version == out.version + 1
        await refused(  # an answer after the decision closed
            ERR_STALE,
            svc.submit(CHANNEL, out.current_user_id, [d.options[0].action], key=d.key),
        )
    finally:
        await svc.close()


async def test_the_roll_and_the_flight_are_worded_in_the_turn_message(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "w.sqlite3")
    try:
        out = await match(svc)
        rng = random.Random(4)
        while not any(isinstance(e, DieRolled) for e in out.events):
            out = await svc.submit(CHANNEL, out.current_user_id, flier_move(out, rng), out.version)
        seats = [SeatInfo(i, u, n) for i, (u, n) in enumerate(((ANN, "Ann"), (BOB, "Bob")))]
        en = event_lines(out.events, seats, Lang.EN)
        es = event_lines(out.events, seats, Lang.ES)
        flew = next(e for e in out.events if isinstance(e, FlierFlew))
        who = seats[flew.seat].name
        assert any(line.startswith(f"{who} rolls a {flew.distance}") for line in en), en
        assert any(line.startswith(f"{who} saca un {flew.distance}") for line in es), es
        assert any("flying machine" in line for line in en), en
        assert any("máquina voladora" in line for line in es), es
        assert any("flies" in line for line in en) and any("vuela" in line for line in es)
        assert all("{" not in line for line in en + es)
    finally:
        await svc.close()


def test_the_variants_are_in_the_lobby_in_english_and_spanish() -> None:
    assert expansion_name("flying_machines", Lang.EN) == "Flying Machines"
    assert expansion_name("flying_machines", Lang.ES) == "Máquinas voladoras"
    rules = rules_for(FM)
    assert [r.key for r in rules] == ["flier.figures", "flier.after_failed"]
    words = {
        (r.key, lang): (
            rule_name(r, lang),
            rule_help(r, lang),
            [value_text(r, v, lang) for v in r.choices],
        )
        for r in rules
        for lang in (Lang.EN, Lang.ES)
    }
    assert words["flier.figures", Lang.EN][0] == "Who may fly"
    assert words["flier.figures", Lang.ES][0] == "Quién puede volar"
    assert words["flier.figures", Lang.ES][2] == [
        "seguidores normales y grandes",
        "toda figura seguidor",
    ]
    assert words["flier.after_failed", Lang.EN][2] == ["none on that tile", "none all turn"]
    assert "durante ese turno" in words["flier.after_failed", Lang.ES][1]
    for name, help_, values in words.values():
        assert name and help_ and all(values)
        assert not any(v in ("followers", "all", "placement", "turn") for v in values)
