"""Bridges, Castles & Bazaars through the real discord.py stack (tests/fakediscord.py): whole
games with markets whose sealed bids go by direct message — or, for a player whose DMs are
closed, through the turn message's "Decide" button — and never show in a channel message, a board
picture or a log line before they are revealed together; a market waiting on bids says who has
answered (never what) and its reminder calls only those still to answer. No code in ``bot/``
knows the expansion.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app import matches
from app.matches import MatchService
from bot.app import CarcBot
from tests.bot.cardtable import CardDiscord
from tests.bot.pickers import Answerer, components, turn_posts, verb
from tests.bot.test_discord_decisions import SECRET, button, decision_buttons, start
from tests.fakediscord import DEFAULT_CHANNEL, MODAL, Request, User

ALICE = User(101, "Alice")
BOB = User(202, "Bob")
CAROL = User(303, "Carol")
USERS = {u.id: u for u in (ALICE, BOB, CAROL)}
BCB = "bridges_castles_bazaars"
DECIDER = re.compile(r"<@(\d+)>, your turn:")
ANSWERED = re.compile(r"✅ Already answered in secret: (.*)\.")
REVEALED = re.compile(r"(\w+)'s sealed bid: (pass|\d+)\.")
#: a match seed whose pile brings markets early and often
SEED = 11


def secret_users(turn: Request) -> list[User]:
    m = SECRET.search(turn.content)
    return [USERS[int(u)] for u in re.findall(r"<@(\d+)>", m.group(1))] if m else []


def answered_names(turn: Request) -> list[str]:
    m = ANSWERED.search(turn.content)
    return [re.sub(r"^\W+\s*", "", n).strip() for n in m.group(1).split(",")] if m else []


@dataclass
class Table:
    fake: CardDiscord
    service: MatchService


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


@dataclass
class Rounds:
    """What the sealed rounds of a game did: every answer given, in secret, per round."""

    bids: list[dict[str, str]] = field(default_factory=list)
    by_decide: int = 0


async def sealed_round(
    fake: CardDiscord, answer: Answerer, turn: Request, rounds: Rounds, *, stop_after: int = 99
) -> Request:
    """Every player owed a sealed bid answers it — Alice and Bob in the DM the bot sent them,
    Carol (DMs closed) through the turn message's Decide — a bid (a number in range) or a pass,
    at random. Until the last answer no channel message, picture or embed shows anything of a
    bid; the turn message says who has answered. Then the bids are revealed together."""
    order = list(secret_users(turn))
    answer.rng.shuffle(order)
    before = turn.file("board.png")
    given: dict[str, str] = {}
    for i, user in enumerate(order[:stop_after]):
        if user is CAROL:
            res = await fake.click(user, turn.message_id or 0, button(turn, "Decide"))
            reply = res.last
            assert reply.ephemeral and "Sealed bid for tile" in reply.text()
            where = fake.message(reply.message_id or 0)
            mid = reply.message_id or 0
            rounds.by_decide += 1
        else:
            dm = fake.dms(user.id)[-1]
            assert (
                "Sealed bid for tile" in dm["content"] and f"<#{DEFAULT_CHANNEL}>" in dm["content"]
            )
            where, mid = dm, int(dm["id"])
        (bid, passing) = decision_buttons(where)
        assert bid["label"].startswith("your bid (if you pay it:") and passing["label"] == "Pass"
        if answer.rng.random() < 0.5:
            opened = await fake.click(user, mid, bid["custom_id"])
            modal = opened.callback
            assert modal.callback_type == MODAL, opened.text()
            (text_input,) = components(modal.data)
            assert "if you pay it" in text_input["placeholder"]  # the score the bid leaves
            # the form's title is whole (never cut at Discord's 45 characters) and the form
            # says the bid to beat, as the DM does
            title = modal.data["title"]
            assert len(title) <= 45 and title == "Bid", title
            (shown,) = [c["content"] for c in modal.data["components"] if c["type"] == 10]
            beat = re.search(r"bid more than (\d+)", str(where["content"]))
            assert beat is not None and f"bid more than {beat.group(1)}" in shown, shown
            assert shown.startswith("Sealed bid for tile "), shown
            res = await answer.answer_modal(user, modal.data)
            given[user.name] = str(answer.numbers[-1])
        else:
            res = await fake.click(user, mid, passing["custom_id"])
            given[user.name] = "pass"
        assert "Done" in res.text()
        (after,) = turn_posts(res)
        if i < len(order) - 1:
            # nothing of the bid shows: not its number, not its words, not the board
            assert after.content.splitlines()[0] == f"{user.name} played: 🤫 a secret choice"
            assert not (after.data["embeds"][0].get("description") or "")
            assert "sealed bid:" not in after.text()
            assert after.file("board.png") == before, "a bid changed the channel's picture"
            assert answered_names(after) == [u.name for u in order[: i + 1]]
            assert {u.id for u in secret_users(after)} == {u.id for u in order[i + 1 :]}
            for other in order[i + 1 :]:
                for dm in fake.dms(other.id):
                    assert "bcb.sealed" not in dm["content"] and "sealed bid:" not in dm["content"]
        else:
            # all in: every bid revealed together, as given
            shown = dict(REVEALED.findall(after.text()))
            assert shown == given, (shown, given)
            assert not secret_users(after) or after.content.count("🤫") == 1
        turn = after
    rounds.bids.append(given)
    return turn


async def public_move(answer: Answerer, turn: Request) -> Request:
    """The one whose turn it is answers the turn message's decision through its pickers."""
    (uid,) = DECIDER.findall(turn.content)[:1]
    user = USERS[int(uid)]
    buttons = decision_buttons(turn)
    opener = [c for c in buttons if verb(c) == "o"]
    pick = opener[0] if opener else answer.rng.choice(buttons)
    res = await answer.play(user, turn.message_id or 0, pick["custom_id"])
    (turn,) = turn_posts(res)
    return turn


async def test_whole_game_with_sealed_markets_never_reveals_a_bid_before_its_time(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot")
    caplog.set_level(logging.DEBUG, logger="discord")
    fake = table.fake
    answer = Answerer(fake, random.Random(5), pass_rate=0.5)
    rounds = Rounds()
    turn = await start(fake, [ALICE, BOB, CAROL], [BCB])
    markets = 0
    for _ in range(900):
        if "🏁" in turn.content:
            break
        if "Market!" in turn.text():
            markets += 1
            # the revealed tiles are named in words, not by their ids
            assert not re.search(r"reveals \d tiles: [A-Z]{2}/", turn.text()), turn.text()
        if secret_users(turn):
            turn = await sealed_round(fake, answer, turn, rounds)
        else:
            turn = await public_move(answer, turn)
    else:
        pytest.fail("the game did not end")
    assert markets >= 3 and len(rounds.bids) >= 3, (markets, rounds)
    assert rounds.by_decide, "Carol bid through Decide"
    outcome = await table.service.match(1)
    assert outcome.finished
    # Carol's DMs are closed: tried once, told once, never retried
    assert fake.dm_attempts[CAROL.id] == 1 and not fake.dms(CAROL.id)
    # no log line holds a sealed bid (the action, or its number next to its head)
    assert not re.search(r"bcb\.sealed \d", caplog.text)
    for n in answer.numbers:
        assert f"bcb.sealed {n}" not in caplog.text
    # every channel message: no sealed bid is named before its reveal (checked per round
    # above); and no message ever quotes the private action
    for r in fake.requests:
        if r.path == f"/channels/{DEFAULT_CHANNEL}/messages":
            assert "bcb.sealed" not in r.text()


async def test_a_market_waiting_on_bids_names_who_answered_and_reminds_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(matches.secrets, "randbelow", lambda n: SEED)
    clock = [1000.0]
    service = await MatchService.open(
        tmp_path / "r.sqlite3", clock=lambda: clock[0], renderer=None, animator=None
    )
    bot = CarcBot(service, background_tasks=False)
    fake = CardDiscord(bot, list(USERS.values()), {CAROL.id})
    await fake.start()
    try:
        answer = Answerer(fake, random.Random(7), pass_rate=0.5)
        turn = await start(fake, [ALICE, BOB, CAROL], [BCB], reminder_minutes=5)
        for _ in range(300):
            if len(secret_users(turn)) == 2:
                break
            if secret_users(turn):
                turn = await sealed_round(fake, answer, turn, Rounds())
            else:
                turn = await public_move(answer, turn)
        waiting = secret_users(turn)
        assert len(waiting) == 2 and not answered_names(turn)
        # the first bidder answers; the market now names them, and only the other is awaited
        turn = await sealed_round(fake, answer, turn, Rounds(), stop_after=1)
        done = answered_names(turn)
        (missing,) = secret_users(turn)
        assert len(done) == 1 and done[0] != missing.name
        cog = bot.cogs["Carcassonne"]
        n = len(fake.requests)
        assert await cog.upkeep.send_reminders(clock[0] + 301) == 1  # type: ignore[attr-defined]
        (sent,) = [r for r in fake.requests[n:] if r.method == "POST"]
        assert "still your turn" in sent.content and f"<@{missing.id}>" in sent.content
        answered = next(u for u in USERS.values() if u.name == done[0])
        assert f"<@{answered.id}>" not in sent.content
        pinged = {int(u) for u in sent.data["allowed_mentions"]["users"]}
        assert pinged == {missing.id}
    finally:
        await fake.close()
        await service.close()


def test_market_payments_read_as_minus_and_plus_in_the_channel() -> None:
    from app.base import SeatInfo
    from tests.engine.expansions.bcb_helpers import play
    from tests.engine.expansions.test_bcb_markets import PILE3, RULE8_SEALED, SEALED
    from words.i18n import Lang
    from words.phrases import event_lines

    p = play(PILE3, RULE8_SEALED, players=3, options=SEALED)
    seats = [SeatInfo(0, 1, "Red"), SeatInfo(1, 2, "Blue"), SeatInfo(2, 3, "Green")]
    lines = event_lines(p.events, seats, Lang.EN)
    assert any("**Blue** -3" in line and "**Red** +3" in line for line in lines), lines
    # a tile is named by what is printed on it (words.places), as everywhere in messages
    bought = "Blue buys tile road from east to west and pays 3 to Red."
    assert "Red's sealed bid: 3." in lines and bought in lines
    es = event_lines(p.events, seats, Lang.ES)
    assert "Puja secreta de Red: 3." in es and any("mercado" in line for line in es)


async def test_open_bids_chosen_in_the_lobby_are_public_turns(table: Table) -> None:
    """The match option ``open``: each bid is an ordinary public choice in turn order, its
    number shown to everyone; nothing goes by DM."""
    fake = table.fake
    answer = Answerer(fake, random.Random(3), pass_rate=0.3)
    turn = await start(fake, [ALICE, BOB, CAROL], [BCB], {"bcb.bidding": "open"})
    for _ in range(300):
        if "your turn: Bid for tile" in turn.content:
            break
        assert not secret_users(turn), "open bids are never secret"
        turn = await public_move(answer, turn)
    else:
        pytest.fail("no open bid came")
    (uid,) = DECIDER.findall(turn.content)
    before = len(answer.numbers)
    turn = await public_move(answer, turn)
    bidder = USERS[int(uid)].name
    if len(answer.numbers) > before:
        assert f"{bidder} bids {answer.numbers[-1]}." in turn.text()
    else:
        assert f"{bidder} passes." in turn.text()
    assert not any(fake.dms(u.id) for u in (ALICE, BOB))
