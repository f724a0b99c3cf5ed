"""How many times one answer asks the match service, from the click to the stored record
(issue 29): a seat's decisions are read once per picker session however many clicks the picker
takes, each look past an answer (is a follower step next?) is asked once, a sealed bid asks
none, and each answer is one submission. Secret decisions are delivered from one read for
every seat, not one per seat.

Before the picker sessions a placement with its follower read the decisions 3–5 times and
looked ahead up to 6 times; a sealed bid cost 5 + m calls (m: seats with a secret decision).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from app.matches import MatchService
from tests.bot.pickers import Answerer
from tests.bot.test_discord_bcb import ALICE, BCB, BOB, CAROL, Table, public_move, secret_users
from tests.bot.test_discord_bcb import table as table  # noqa: F401  (the fixture)
from tests.bot.test_discord_decisions import button, decision_buttons, start
from tests.bot.tiletable import close_table, labelled, open_table, start_match, whose_turn

#: the service calls a front end makes for an answer: reads, looks ahead, writes
READS = ("decisions_for", "current", "match")
COUNTED = (*READS, "preview", "submit", "undo", "private_decisions")


def count_calls(service: MatchService, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    calls: Counter[str] = Counter()
    for name in COUNTED:
        orig = getattr(service, name)

        def counted(
            *a: Any, _orig: Callable[..., Awaitable[Any]] = orig, _name: str = name, **k: Any
        ) -> Awaitable[Any]:
            calls[_name] += 1
            return _orig(*a, **k)

        monkeypatch.setattr(service, name, counted)
    return calls


def reads(calls: Counter[str]) -> int:
    return sum(calls[n] for n in READS)


async def test_placements_and_sealed_bids_read_once_and_submit_once(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = table.fake
    answer = Answerer(fake, random.Random(5), pass_rate=0.0)
    calls = count_calls(table.service, monkeypatch)
    turn = await start(fake, [ALICE, BOB, CAROL], [BCB])
    moves = bids = 0
    for _ in range(300):
        if "🏁" in turn.content or (moves >= 12 and bids >= 2):
            break
        calls.clear()
        owed = [u for u in secret_users(turn) if u is not CAROL]  # Carol's DMs are closed
        if owed:
            dm = fake.dms(owed[0].id)[-1]
            (bid, _passing) = decision_buttons(dm)
            res = await answer.play(owed[0], int(dm["id"]), bid["custom_id"])  # button + modal
            assert "Done" in res.text()
            # one read (the click), none for the modal, no look ahead, one submission; the
            # next seats' secrets are read once for all of them
            assert reads(calls) == 1 and calls["preview"] == 0, calls
            assert calls["submit"] == 1 and calls["private_decisions"] <= 1, calls
            bids += 1
            (turn,) = [r for r in res.channel_sends if r.data.get("embeds")]
            continue
        if secret_users(turn):  # only Carol owes one: she answers through Decide
            res = await fake.click(CAROL, turn.message_id or 0, button(turn, "Decide"))
            res = await answer.play(CAROL, res.last.message_id or 0, *_first_answer(fake, res))
            (turn,) = [r for r in res.channel_sends if r.data.get("embeds")]
            continue
        turn = await public_move(answer, turn)
        # the tile, maybe a bridge, then the follower: many clicks, one read, at most one
        # look ahead per answer, one submission
        assert reads(calls) == 1 and calls["submit"] == 1, calls
        assert calls["preview"] <= 3, calls
        moves += 1
    assert moves >= 12 and bids >= 2, (moves, bids)


def _first_answer(fake: Any, res: Any) -> tuple[str]:
    (bid, _passing) = decision_buttons(fake.message(res.last.message_id or 0))
    return (bid["custom_id"],)


async def test_an_undo_is_one_submission(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    t = await open_table(tmp_path / "undo.sqlite3")
    try:
        fake = t.fake
        turn = await start_match(fake)
        user = whose_turn(turn)
        rot = (await fake.autocomplete(user, "place", "rotation", cell=1, rotation=""))[0]
        res = await fake.slash(user, "place", cell=1, rotation=rot["value"])
        deploy_turn = res.channel_sends[0]
        calls = count_calls(t.service, monkeypatch)
        await fake.slash(user, "undo")
        assert dict(calls) == {"undo": 1}
        res = await fake.slash(user, "place", cell=1, rotation=rot["value"])
        deploy_turn = res.channel_sends[0]
        calls.clear()
        await fake.click(user, deploy_turn.message_id or 0, labelled(deploy_turn, "Undo"))
        assert dict(calls) == {"current": 1, "undo": 1}  # the button checks its version first
    finally:
        await close_table(t)
