"""Messages through the match service on real SQLite files, with no code in ``bot/`` that knows
it: a restart while the active player holds a message (and while a seat chooses its figure)
resumes on the same decision and ends as an uninterrupted run; an off-turn seat answers its own
figure choice; bad answers are refused in one line and change nothing; the figures and the
message drawn are worded in the turn message in English and Spanish; the expansion and its
rule are in the lobby in both languages."""

from __future__ import annotations

import json
import random
from pathlib import Path

from app.base import ERR_ILLEGAL, ERR_NOT_YOUR_TURN, ERR_STALE, SeatInfo
from app.matches import MatchOptions, MatchService, Outcome
from app.options import rules_for
from bot.ui.lobby import expansion_name, rule_name, value_text
from engine import Action
from engine.carcassonne.actions import Choose
from engine.carcassonne.expansions.dispatches import MessageDrawn
from engine.carcassonne.record import GameRecord, replay
from tests.bot.matchservice import ANN, BOB, CHANNEL, GUILD, open_service, refused
from words.i18n import Lang
from words.phrases import event_lines

MS = ("dispatches",)
FIG, MSG = "dispatches.figure", "dispatches.message"
#: a match (seed 3) whose random answers (random.Random(7)) draw a message at the 78th answer
SEED, CHOICES = 3, 7


async def match(svc: MatchService, rules: tuple[tuple[str, object], ...] = ()) -> Outcome:
    opts = MatchOptions(players=2, expansions=MS, rules=rules)
    await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", opts, seed=SEED)
    await svc.join(CHANNEL, BOB, "Bob")
    return await svc.start(CHANNEL, ANN)


async def answer(svc: MatchService, out: Outcome, rng: random.Random) -> Outcome:
    (d,) = out.decisions
    action = rng.choice(list(d.actions()))
    return await svc.submit(CHANNEL, out.user_of(d.seat), [action], out.version)


async def until(svc: MatchService, out: Outcome, rng: random.Random, kind: str) -> Outcome:
    while not out.finished and out.decisions[0].kind != kind:
        out = await answer(svc, out, rng)
    assert not out.finished, f"no {kind} in this game"
    return out


async def finish(svc: MatchService, out: Outcome, rng: random.Random) -> Outcome:
    while not out.finished:
        out = await answer(svc, out, rng)
    return out


async def restart_at(tmp_path: Path, kind: str) -> None:
    a = await open_service(tmp_path / "a.sqlite3")
    try:
        whole = await finish(a, await match(a), random.Random(CHOICES))
    finally:
        await a.close()
    rng = random.Random(CHOICES)
    b = await open_service(tmp_path / "b.sqlite3")
    try:
        half = await until(b, await match(b), rng, kind)
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
    assert rest.record_json == whole.record_json and rest.record_json is not None
    result = replay(GameRecord.from_json(json.loads(rest.record_json)))
    assert result.scores == tuple(p.score for p in rest.view.players)


async def test_a_restart_while_a_message_waits_resumes_the_same_decision(tmp_path: Path) -> None:
    await restart_at(tmp_path, MSG)


async def test_a_restart_while_a_figure_choice_waits_resumes_it(tmp_path: Path) -> None:
    await restart_at(tmp_path, FIG)


async def test_bad_figure_answers_are_refused_in_one_line_and_change_nothing(
    tmp_path: Path,
) -> None:
    svc = await open_service(tmp_path / "d.sqlite3")
    try:
        out = await until(svc, await match(svc), random.Random(CHOICES), FIG)
        (d,) = out.decisions
        mine = out.user_of(d.seat)
        other = ANN if mine == BOB else BOB
        err = await refused(
            ERR_ILLEGAL, svc.submit(CHANNEL, mine, [Choose(FIG, "both")], key=d.key)
        )
        assert "\n" not in str(err.params.get("reason", ""))
        assert "'both' is not a figure choice" in str(err.params.get("reason", ""))
        await refused(ERR_NOT_YOUR_TURN, svc.submit(CHANNEL, other, [Choose(FIG, "main")]))
        await refused(
            ERR_ILLEGAL, svc.submit(CHANNEL, mine, [Action.from_notation("pass")], key=d.key)
        )
        same = await svc.current(CHANNEL)
        assert same.version == out.version and same.view == out.view
        done = await svc.submit(CHANNEL, mine, [d.options[0].action], out.version, key=d.key)
        assert done.version == out.version + 1
        await refused(ERR_STALE, svc.submit(CHANNEL, mine, [d.options[0].action], key=d.key))
    finally:
        await svc.close()


async def test_the_figures_and_the_message_are_worded_in_english_and_spanish(
    tmp_path: Path,
) -> None:
    svc = await open_service(tmp_path / "w.sqlite3")
    try:
        out = await match(svc)
        rng = random.Random(CHOICES)
        lines_en: list[str] = []
        lines_es: list[str] = []
        seats = [SeatInfo(i, u, n) for i, (u, n) in enumerate(((ANN, "Ann"), (BOB, "Bob")))]
        while not any(isinstance(e, MessageDrawn) for e in out.events):
            out = await answer(svc, out, rng)
            lines_en += event_lines(out.events, seats, Lang.EN)
            lines_es += event_lines(out.events, seats, Lang.ES)
        assert any("moves the main figure" in x or "moves the messenger" in x for x in lines_en)
        assert any("avanza la ficha principal" in x or "avanza la seguidora" in x for x in lines_es)
        drawn_en = [x for x in lines_en if "draws message" in x]
        drawn_es = [x for x in lines_es if "roba el despacho" in x]
        assert drawn_en and drawn_es
        assert "«" in drawn_en[-1] and drawn_en[-1].count("«") == 2  # both languages
        assert all("{" not in x for x in lines_en + lines_es)
        (d,) = out.decisions
        assert d.kind == MSG and [o.id for o in d.options][-1] == "seal"
    finally:
        await svc.close()


async def test_a_standing_choice_chosen_in_the_lobby_asks_no_figure(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "m.sqlite3")
    try:
        out = await match(svc, rules=(("dispatches.choice", "main"),))
        rng = random.Random(CHOICES)
        for _ in range(120):
            if out.finished:
                break
            assert out.decisions[0].kind != FIG
            out = await answer(svc, out, rng)
    finally:
        await svc.close()


def test_the_expansion_and_its_rule_are_in_the_lobby_in_english_and_spanish() -> None:
    assert expansion_name("dispatches", Lang.EN) == "Messages"
    assert expansion_name("dispatches", Lang.ES) == "Despachos"
    (rule,) = rules_for(MS)
    assert rule.key == "dispatches.choice" and rule.default == "ask"
    assert rule_name(rule, Lang.ES) == "Qué ficha de puntuación avanza"
    assert value_text(rule, "dark", Lang.EN).startswith("main figure unless the messenger")
    assert value_text(rule, "ask", Lang.ES) == "preguntar cada vez"
