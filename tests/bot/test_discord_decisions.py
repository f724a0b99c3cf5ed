"""Any decision through the real Discord front end (issue 9, ARCHITECTURE.md §5.8).

The test-only Oracle expansion (tests/expansions/oracle.py) — a die roll, an optional owl move
to any road or city on the board (often dozens of options), a neutral figure and, every few
turns, a secret guess by every seat at once — is played to the end only through the turn
message's buttons, the ephemeral pickers (buttons, paged selects, pictures, Pass), number
modals and direct messages; one player's DMs are closed and they answer through "Decide".
No code in ``bot/`` knows the expansion. Also: the builder's optional second tile of Traders &
Builders, stale clicks, and ``/carcassonne choose`` with its autocomplete.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from app import matches
from app.matches import MatchService
from bot.app import CarcBot
from tests.bot.cardtable import CardDiscord
from tests.bot.pickers import Answerer, components, turn_posts, verb
from tests.bot.tiletable import choose_expansions, choose_rule, png_of
from tests.expansions import oracle
from tests.fakediscord import DEFAULT_CHANNEL, MODAL, Request, User

ALICE = User(101, "Alice")
BOB = User(202, "Bob")
CAROL = User(303, "Carol")
EVE = User(404, "Eve")
USERS = {u.id: u for u in (ALICE, BOB, CAROL, EVE)}
DECIDER = re.compile(r"<@(\d+)>, your turn:")
SECRET = re.compile(r"🤫 (.*): a secret choice")


@pytest.fixture(autouse=True)
def with_oracle() -> Iterator[None]:
    oracle.install()
    yield
    oracle.uninstall()


@dataclass
class Table:
    fake: CardDiscord
    service: MatchService


#: the match seed of these games (``/carcassonne new`` draws one from ``secrets``)
SEED = 11


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Table]:
    """The real bot over a real MatchService; Carol's DMs are closed (403, code 50007)."""
    monkeypatch.setattr(matches.secrets, "randbelow", lambda n: SEED)
    service = await MatchService.open(tmp_path / "d.sqlite3", animator=None)
    bot = CarcBot(service, background_tasks=False)
    fake = CardDiscord(bot, list(USERS.values()), {CAROL.id})
    await fake.start()
    try:
        yield Table(fake, service)
    finally:
        await fake.close()
        await service.close()


async def start(
    fake: CardDiscord,
    players: list[User],
    expansions: list[str],
    rules: dict[str, object] | None = None,
    **options: object,
) -> Request:
    """/carcassonne new by the first player, expansions and rules on the lobby, the others
    join, start: returns the first turn message."""
    new = await fake.slash(players[0], "new", players=len(players), **options)
    lobby = new.callback.message_id or 0
    await choose_expansions(fake, players[0], lobby, expansions)
    for key, value in (rules or {}).items():
        await choose_rule(fake, players[0], lobby, key, value)
    for p in players[1:]:
        await fake.slash(p, "join")
    res = await fake.slash(players[0], "start")
    (turn,) = turn_posts(res)
    return turn


def decider(turn: Request) -> User:
    (uid,) = DECIDER.findall(turn.content)
    return USERS[int(uid)]


def secret_users(turn: Request) -> list[User]:
    m = SECRET.search(turn.content)
    return [USERS[int(u)] for u in re.findall(r"<@(\d+)>", m.group(1))] if m else []


def decision_buttons(msg: Request | dict[str, object]) -> list[dict[str, str]]:
    return [c for c in components(msg) if verb(c)]  # type: ignore[arg-type]


def button(msg: Request | dict[str, object], label: str) -> str:
    found = [c["custom_id"] for c in components(msg) if c.get("label") == label]  # type: ignore[arg-type]
    assert found, f"no {label!r} button"
    return found[0]


def board(req: Request) -> bytes:
    return req.file("board.png")


# ------------------------------------------------------------------------------ the Oracle
async def test_whole_oracle_game_through_buttons_selects_modals_and_dms(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot")
    caplog.set_level(logging.DEBUG, logger="discord")
    fake = table.fake
    rng = random.Random(4)
    answer = Answerer(fake, rng, pass_rate=0.25)
    players = [ALICE, BOB, CAROL]
    turn = await start(fake, players, ["oracle"])
    owl_pickers = owl_pages = owl_passes = owl_moves = rounds = 0
    for _ in range(600):
        if "🏁" in turn.content:
            break
        secret = secret_users(turn)
        if secret:
            rounds += 1
            assert not DECIDER.findall(turn.content), "a guessing round asks nothing public"
            # the seat that answered the owl may have guessed already: its picker went on to
            # its secret guess (a chained decision) before submitting both
            assert {u.id for u in secret} <= {u.id for u in players} and len(secret) >= 2
            turn = await guessing_round(fake, answer, turn, secret)
            continue
        user = decider(turn)
        owl = "Move the owl" in turn.content
        buttons = decision_buttons(turn)
        opener = [c for c in buttons if verb(c) == "o"]
        assert opener, turn.content
        before = len(answer.seen)
        res = await answer.play(user, turn.message_id or 0, opener[0]["custom_id"])
        (turn,) = turn_posts(res)
        if owl:
            owl_pickers += 1
            first = answer.seen[before]
            png_of(first.file("choices.png"))  # every target drawn with its number or letter
            owl_pages += any(c.get("label") == "Next" for c in components(first))
            passed = f"{user.name} played: Pass" in turn.content
            owl_passes += passed
            owl_moves += not passed
    else:
        pytest.fail("the game did not end")
    assert rounds >= 5 and owl_pickers >= 5, (rounds, owl_pickers)
    assert owl_pages, "the owl's many options came as a paged select with a picture"
    assert owl_passes and owl_moves, (owl_passes, owl_moves)
    assert answer.paged, "a later page of a select was used"
    # Carol's DMs are closed: tried once, told once in the channel, never retried
    assert fake.dm_attempts[CAROL.id] == 1
    notices = [
        r
        for r in fake.requests
        if r.path == f"/channels/{DEFAULT_CHANNEL}/messages"
        and "cannot send you direct" in r.content
    ]
    assert len(notices) == 1 and f"<@{CAROL.id}>" in notices[0].content
    assert not fake.dms(CAROL.id)
    final = turn
    outcome = await table.service.match(1)
    assert outcome.finished and "🏁" in final.content
    for p in outcome.view.players:
        assert re.search(rf"{p.name} — \*\*{p.score}\*\*", final.text())
    # nothing secret was logged by the bot or discord.py
    for n in answer.numbers:
        assert f"oracle.guess {n}" not in caplog.text


async def guessing_round(
    fake: CardDiscord, answer: Answerer, turn: Request, secret: list[User]
) -> Request:
    """Every seat guesses: Alice and Bob from the DM the bot sent them, Carol (DMs closed)
    through the turn message's Decide button. Until the last guess, the channel shows no
    guess: the board is unchanged and the line says only that a secret choice was made."""
    order = list(secret)
    answer.rng.shuffle(order)
    guesses: dict[int, int] = {}
    for i, user in enumerate(order):
        if user is CAROL:
            res = await fake.click(user, turn.message_id or 0, button(turn, "Decide"))
            reply = res.last
            assert reply.ephemeral and "Guess the next roll" in reply.text()
            (guess,) = decision_buttons(fake.message(reply.message_id or 0))
            opened = await fake.click(user, reply.message_id or 0, guess["custom_id"])
        else:
            dm = fake.dms(user.id)[-1]
            assert (
                "Guess the next roll" in dm["content"] and f"<#{DEFAULT_CHANNEL}>" in dm["content"]
            )
            (guess,) = decision_buttons(dm)
            opened = await fake.click(user, int(dm["id"]), guess["custom_id"])
        modal = opened.callback
        assert modal.callback_type == MODAL, opened.text()
        res = await answer.answer_modal(user, modal.data)
        guesses[user.id] = answer.numbers[-1]
        assert res.callback.ephemeral and "Done" in res.text()
        (after,) = turn_posts(res)
        if i < len(order) - 1:
            # the secret stays secret: no number, no words of it, the same board picture
            headline = after.content.splitlines()[0]
            assert headline == f"{user.name} played: 🤫 a secret choice", headline
            assert "guess" not in after.text().lower().replace("guess the next", "")
            assert not (after.data["embeds"][0].get("description") or "")
            assert board(after) == board(turn), "the board shows nothing of a guess"
            waiting = {u.id for u in secret_users(after)}
            assert waiting == {u.id for u in order[i + 1 :]}
            for other in order[i + 1 :]:
                for dm in fake.dms(other.id):
                    assert "oracle.guess" not in dm["content"]
        else:
            assert "Guesses revealed; the die shows" in after.text()
        turn = after
    return turn


# ------------------------------------------------------------------------------ stale clicks
async def until_secret_round(answer: Answerer, turn: Request) -> Request:
    """Answer public decisions (through the pickers) until every seat must guess."""
    for _ in range(40):
        if secret_users(turn) and len(secret_users(turn)) == 3:
            return turn
        if secret_users(turn):  # a round the owl's player entered early: finish it
            turn = await guessing_round(answer.fake, answer, turn, secret_users(turn))  # type: ignore[arg-type]
            continue
        opener = [c for c in decision_buttons(turn) if verb(c) == "o"]
        res = await answer.play(decider(turn), turn.message_id or 0, opener[0]["custom_id"])
        (turn,) = turn_posts(res)
    raise AssertionError("no guessing round came")


async def test_a_closed_decision_is_out_of_date_but_another_seats_open_one_is_not(
    table: Table,
) -> None:
    fake = table.fake
    answer = Answerer(fake, random.Random(8), pass_rate=1.0)  # no owl moves: rounds come fast
    first = await start(fake, [ALICE, BOB, CAROL], ["oracle"], {"oracle.guess_every": 2})
    old_place = button(first, "Place tile")
    await until_secret_round(answer, first)
    alice_dm, bob_dm = fake.dms(ALICE.id)[-1], fake.dms(BOB.id)[-1]
    (alice_guess,) = decision_buttons(alice_dm)
    (bob_guess,) = decision_buttons(bob_dm)
    # Alice opens her number modal, but answers with /carcassonne choose meanwhile
    opened = await fake.click(ALICE, int(alice_dm["id"]), alice_guess["custom_id"])
    res = await fake.slash(ALICE, "choose", option="3")
    (after,) = turn_posts(res)
    # the modal sent after the answer, and the DM's button, are out of date now (with a link)
    res = await fake.submit_modal(ALICE, opened.callback.data, {"number": "5"})
    assert res.last.ephemeral and "out of date" in res.last.text() and not turn_posts(res)
    res = await fake.click(ALICE, int(alice_dm["id"]), alice_guess["custom_id"])
    assert res.last.ephemeral and "out of date" in res.last.text()
    assert str(after.message_id) in res.last.text()
    # the match moved on, yet Bob's guess is still open: his old DM button works
    opened = await fake.click(BOB, int(bob_dm["id"]), bob_guess["custom_id"])
    assert opened.callback.callback_type == MODAL
    res = await fake.submit_modal(BOB, opened.callback.data, {"number": "4"})
    assert "Done" in res.text()
    (after,) = turn_posts(res)
    assert [u.id for u in secret_users(after)] == [CAROL.id]
    # a number out of range is refused kindly; a non-player may not act at all
    res = await fake.click(CAROL, after.message_id or 0, button(after, "Decide"))
    (guess,) = decision_buttons(fake.message(res.last.message_id or 0))
    opened = await fake.click(CAROL, res.last.message_id or 0, guess["custom_id"])
    res = await fake.submit_modal(CAROL, opened.callback.data, {"number": "seven"})
    assert res.last.ephemeral and "whole number from 1 to 6" in res.last.text()
    res = await fake.click(EVE, after.message_id or 0, button(after, "Decide"))
    assert "not a player" in res.last.text()
    # the first turn's Place tile button closed long ago
    res = await fake.click(ALICE, first.message_id or 0, old_place)
    assert res.last.ephemeral and "out of date" in res.last.text()
    assert "Traceback" not in fake.requests[-1].content


# ------------------------------------------------------------------------------ /choose
async def test_choose_autocomplete_lists_only_the_callers_options(table: Table) -> None:
    fake = table.fake
    answer = Answerer(fake, random.Random(9), pass_rate=1.0)
    turn = await start(fake, [ALICE, BOB, CAROL], ["oracle"], {"oracle.guess_every": 2})
    player = decider(turn)
    others = [u for u in (ALICE, BOB, CAROL) if u is not player]
    mine = await fake.autocomplete(player, "choose", "option", option="")
    assert mine and all("Place your tile" in c["name"] for c in mine)
    assert mine[0]["name"].startswith("Cell 1 · ")
    for other in others:
        assert await fake.autocomplete(other, "choose", "option", option="") == []
    assert await fake.autocomplete(EVE, "choose", "option", option="") == []
    res = await fake.slash(others[0], "choose", option=mine[0]["value"])
    assert "not your turn" in res.last.text() and not turn_posts(res)

    turn = await until_secret_round(answer, turn)
    keys = {}
    for user in (ALICE, BOB, CAROL):
        _, ds = await table.service.decisions_for(DEFAULT_CHANNEL, user.id)
        (d,) = ds
        keys[user.id] = d.key
    for user in (ALICE, BOB, CAROL):
        listed = await fake.autocomplete(user, "choose", "option", option="")
        assert [c["name"] for c in listed] == [
            f"{n} — Guess the next roll (1–6)." for n in range(1, 7)
        ]
        assert all(c["value"].startswith(keys[user.id] + "|") for c in listed)
        typed = await fake.autocomplete(user, "choose", "option", option="5")
        assert [c["value"] for c in typed] == [f"{keys[user.id]}|o0=5"]
    # another seat's value is not the caller's choice
    res = await fake.slash(ALICE, "choose", option=f"{keys[BOB.id]}|o0=2")
    assert "none of your open choices" in res.last.text() and not turn_posts(res)
    res = await fake.slash(ALICE, "choose", option=f"{keys[ALICE.id]}|o0=2")
    assert res.last.ephemeral and "Done" in res.last.text()
    (after,) = turn_posts(res)
    assert after.content.startswith("Alice played: 🤫 a secret choice")
    # a typed number answers the one numeric choice (Carol has no DMs: nothing else needed)
    res = await fake.slash(CAROL, "choose", option="6")
    assert "Done" in res.last.text()
    res = await fake.slash(CAROL, "choose", option="6")
    assert "not your turn" in res.last.text()


async def test_a_reminder_mentions_every_seat_with_an_open_decision(tmp_path: Path) -> None:
    clock = [1000.0]
    service = await MatchService.open(
        tmp_path / "r.sqlite3", clock=lambda: clock[0], renderer=None, animator=None
    )
    bot = CarcBot(service, background_tasks=False)
    fake = CardDiscord(bot, list(USERS.values()), {CAROL.id})
    await fake.start()
    try:
        answer = Answerer(fake, random.Random(3), pass_rate=1.0)
        turn = await start(
            fake, [ALICE, BOB, CAROL], ["oracle"], {"oracle.guess_every": 2}, reminder_minutes=5
        )
        turn = await until_secret_round(answer, turn)
        cog = bot.cogs["Carcassonne"]
        n = len(fake.requests)
        assert await cog.upkeep.send_reminders(clock[0] + 301) == 1  # type: ignore[attr-defined]
        (sent,) = [r for r in fake.requests[n:] if r.method == "POST"]
        assert "still your turn" in sent.content
        assert all(f"<@{u.id}>" in sent.content for u in (ALICE, BOB, CAROL))
        assert str(turn.message_id) in sent.content
    finally:
        await fake.close()
        await service.close()
