"""What the match-service tests of every expansion share (each expansion's own file says what
its decisions look like): a two-seat match with the expansion on a real SQLite file, random
answers to the first open decision (whoever's: a robber offered to the next player is theirs),
played until a decision of one kind opens or to the end, and the restart check — a game
stopped while that decision waits and continued by a new process ends as an uninterrupted run
of the same seed and answers does."""

from __future__ import annotations

import json
import random
from pathlib import Path

from app.matches import MatchOptions, MatchService, Outcome
from engine import Action
from engine.carcassonne.record import GameRecord, replay
from tests.bot.matchservice import ANN, BOB, CHANNEL, GUILD, open_service


async def two_seat_match(
    svc: MatchService,
    expansions: tuple[str, ...],
    *,
    seed: int = 3,
    rules: tuple[tuple[str, object], ...] = (),
) -> Outcome:
    """Ann opens a table with ``expansions`` (and ``rules``), Bob joins, Ann starts."""
    opts = MatchOptions(players=2, expansions=expansions, rules=rules)
    await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", opts, seed=seed)
    await svc.join(CHANNEL, BOB, "Bob")
    return await svc.start(CHANNEL, ANN)


def asked(out: Outcome) -> int:
    """The user whose decision is open (the first one listed)."""
    return out.user_of(out.decisions[0].seat)


def random_answer(out: Outcome, rng: random.Random) -> list[Action]:
    """Any answer of the one open decision (passing too, when it may be passed)."""
    (d,) = out.decisions
    return [rng.choice(list(d.actions()))]


async def play_until(svc: MatchService, out: Outcome, rng: random.Random, kind: str) -> Outcome:
    """Random answers until a decision of ``kind`` is open (the game must get there)."""
    while not out.finished and out.decisions[0].kind != kind:
        out = await svc.submit(CHANNEL, asked(out), random_answer(out, rng), out.version)
    assert not out.finished, f"no {kind} decision opened in this game"
    return out


async def play_to_end(svc: MatchService, out: Outcome, rng: random.Random) -> Outcome:
    while not out.finished:
        out = await svc.submit(CHANNEL, asked(out), random_answer(out, rng), out.version)
    return out


async def restarted_at(
    tmp_path: Path,
    expansions: tuple[str, ...],
    kind: str,
    *,
    seed: int = 3,
    answers_seed: int = 4,
    rules: tuple[tuple[str, object], ...] = (),
) -> Outcome:
    """Play to a ``kind`` decision, stop, reopen the file in a new service (nothing cached)
    and finish: the same view and decisions after the restart, the same record as a run never
    stopped, and a record that replays to its scores. Returns the outcome where it stopped, for
    the caller to check the decision's shape."""
    a = await open_service(tmp_path / "a.sqlite3")
    try:
        first = await two_seat_match(a, expansions, seed=seed, rules=rules)
        whole = await play_to_end(a, first, random.Random(answers_seed))
    finally:
        await a.close()
    rng = random.Random(answers_seed)
    b = await open_service(tmp_path / "b.sqlite3")
    try:
        half = await play_until(
            b, await two_seat_match(b, expansions, seed=seed, rules=rules), rng, kind
        )
    finally:
        await b.close()
    c = await open_service(tmp_path / "b.sqlite3")  # a new process: nothing cached
    try:
        again = await c.current(CHANNEL)
        assert again.version == half.version and again.view == half.view
        assert again.decisions == half.decisions
        rest = await play_to_end(c, again, rng)
    finally:
        await c.close()
    assert rest.record_json == whole.record_json
    assert rest.record_json is not None
    result = replay(GameRecord.from_json(json.loads(rest.record_json)))
    assert result.scores == tuple(p.score for p in rest.view.players)
    return half
