"""Every refusal a player can cause in the Discord front end gets its ephemeral answer: not your
turn, not a player, an illegal cell or rotation, a stale button, a double click, a second
match, missing channel permissions, and an unexpected failure (an apology, not a traceback)."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.tiletable import (
    ALICE,
    BOB,
    EVE,
    Table,
    channel_of,
    labelled,
    start_match,
    whose_turn,
)
from tests.fakediscord import FakeDiscord, User


# ------------------------------------------------------------------------------ refusals
async def test_not_your_turn_and_not_a_player(table: Table) -> None:
    fake = table.fake
    turn = await start_match(fake)
    player = whose_turn(turn)
    other = BOB if player is ALICE else ALICE
    res = await fake.click(other, turn.message_id or 0, labelled(turn, "Place tile"))
    assert res.last.ephemeral and "not your turn" in res.last.text()
    assert f"<@{player.id}>" in res.last.text()
    res = await fake.slash(EVE, "place", cell=1, rotation=0)
    assert res.last.ephemeral and "not a player" in res.last.text()
    res = await fake.click(EVE, turn.message_id or 0, labelled(turn, "Place tile"))
    assert res.last.ephemeral and "not a player" in res.last.text()
    assert not res.channel_sends


async def test_illegal_cell_and_rotation(table: Table) -> None:
    fake = table.fake
    turn = await start_match(fake)
    user = whose_turn(turn)
    res = await fake.slash(user, "place", cell=999, rotation=0)
    assert res.last.ephemeral and "Cell 999 is not a legal place" in res.last.text()
    cells = await fake.autocomplete(user, "place", "cell", cell="")
    legal = {
        r["value"]
        for r in await fake.autocomplete(
            user, "place", "rotation", cell=cells[0]["value"], rotation=""
        )
    }
    bad = next(d for d in (0, 90, 180, 270, 45) if d not in legal)
    res = await fake.slash(user, "place", cell=cells[0]["value"], rotation=bad)
    assert res.last.ephemeral and "does not fit" in res.last.text()
    res = await fake.slash(
        user, "place", cell=cells[0]["value"], rotation=min(legal), follower="city:XYZ"
    )
    assert "cannot put a follower" in res.last.text()
    assert not res.channel_sends
    assert (await table.service.current(channel_of(turn), render=False)).version == 0


async def test_stale_button_links_to_the_current_board(table: Table) -> None:
    fake = table.fake
    turn = await start_match(fake)
    user = whose_turn(turn)
    cells = await fake.autocomplete(user, "place", "cell", cell="")
    rot = (await fake.autocomplete(user, "place", "rotation", cell=cells[0]["value"], rotation=""))[
        0
    ]
    res = await fake.slash(user, "place", cell=cells[0]["value"], rotation=rot["value"])
    new_turn = res.channel_sends[0]
    assert "your turn: Put a figure on the tile you placed, or pass." in new_turn.content
    res = await fake.click(user, turn.message_id or 0, labelled(turn, "Place tile"))
    assert res.last.ephemeral and "out of date" in res.last.text()
    assert str(new_turn.message_id) in res.last.text()


async def test_double_click_applies_once(table: Table) -> None:
    fake = table.fake
    turn = await start_match(fake)
    user = whose_turn(turn)
    res = await fake.slash(
        user,
        "place",
        cell=1,
        rotation=(await fake.autocomplete(user, "place", "rotation", cell=1, rotation=""))[0][
            "value"
        ],
    )
    turn = res.channel_sends[0]
    no_follower = labelled(turn, "No follower")
    before = (await table.service.current(channel_of(turn), render=False)).version
    first, second = await asyncio.gather(
        fake.click(user, turn.message_id or 0, no_follower),
        fake.click(user, turn.message_id or 0, no_follower),
    )
    sends = [r for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")]
    boards = [r for r in sends if r.message_id and r.message_id > (turn.message_id or 0)]
    assert len(boards) == 1, [b.content for b in boards]
    assert (await table.service.current(channel_of(turn), render=False)).version == before + 1
    texts = first.text() + second.text()
    assert "out of date" in texts


async def test_a_second_match_in_the_same_channel_is_refused(table: Table) -> None:
    fake = table.fake
    await fake.slash(ALICE, "new")
    res = await fake.slash(BOB, "new")
    assert res.last.ephemeral and "already running in this channel" in res.last.text()
    await start_match_in_lobby(fake)
    res = await fake.slash(EVE, "new")
    assert "already running" in res.last.text()


async def start_match_in_lobby(fake: FakeDiscord) -> None:
    await fake.slash(BOB, "join")
    res = await fake.slash(ALICE, "start")
    assert len(res.channel_sends) == 1


async def test_start_reports_missing_channel_permissions(table: Table) -> None:
    fake = table.fake
    await fake.slash(ALICE, "new")
    await fake.slash(BOB, "join")
    fake.app_permissions = 0x400 | 0x800  # view channel + send messages only
    res = await fake.slash(ALICE, "start")
    assert res.last.ephemeral
    assert "Attach Files" in res.last.text() and "Embed Links" in res.last.text()
    assert not res.channel_sends


async def test_an_unexpected_failure_is_an_apology_not_a_traceback(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fake = table.fake
    turn = await start_match(fake)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(table.service, "current", broken)
    monkeypatch.setattr(table.service, "decisions_for", broken)
    for res in (
        await fake.slash(whose_turn(turn), "board"),
        await fake.click(whose_turn(turn), turn.message_id or 0, labelled(turn, "Place tile")),
        await fake.slash(User(404, "Ana", locale="es-ES"), "score"),
    ):
        assert res.last.ephemeral
        assert "went wrong" in res.last.text() or "Algo ha fallado" in res.last.text()
        assert "disk on fire" not in res.last.text() and "Traceback" not in res.last.text()
    assert "disk on fire" in caplog.text  # the operator sees it in the log
