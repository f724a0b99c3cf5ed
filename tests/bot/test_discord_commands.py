"""The Discord front end's other commands end to end: a Spanish locale, the information commands,
pass / choose / undo, the lobby's join, leave and abandon, turn reminders, autocomplete without
a match, and resigning."""

from __future__ import annotations

import json
import re
from pathlib import Path

from app.matches import MatchService
from bot.app import CarcBot
from tests.bot.tiletable import (
    ALICE,
    BOB,
    EVE,
    Table,
    buttons,
    cid,
    labelled,
    png_of,
    posted,
    select_labels,
    start_match,
    whose_turn,
)
from tests.fakediscord import AUTOCOMPLETE_RESULT, EPHEMERAL, FakeDiscord, Result, User


async def test_spanish_locale_gets_spanish_answers(table: Table) -> None:
    fake = table.fake
    ana = User(404, "Ana", locale="es-ES")
    luis = User(505, "Luis", locale="es-419")
    res = await fake.slash(ana, "place", cell=1, rotation=0)
    assert "No hay ninguna partida" in res.last.text()
    new = await fake.slash(ana, "new")
    assert "Unirse" in str(new.callback.data["components"])
    await fake.slash(luis, "join")
    start = await fake.slash(ana, "start")
    turn = start.channel_sends[0]
    assert "te toca" in turn.content
    current = int(re.findall(r"<@(\d+)>", turn.content)[-1])
    other = luis if current == ana.id else ana
    res = await fake.slash(other, "place", cell=1, rotation=0)
    assert "No es tu turno" in res.last.text()
    player = ana if current == ana.id else luis
    choices = await fake.autocomplete(player, "place", "cell", cell="")
    assert choices[0]["name"].startswith("Casilla 1")
    rots = await fake.autocomplete(player, "place", "rotation", cell=1, rotation="")
    fol = await fake.autocomplete(
        player, "place", "follower", cell=1, rotation=rots[0]["value"], follower=""
    )
    assert fol[-1]["name"] == "Sin seguidor" and fol[-1]["value"] == "none"
    help_ = await fake.slash(player, "help")
    assert "Cómo jugar" in help_.last.text()


async def test_information_commands(table: Table) -> None:
    fake = table.fake
    turn = await start_match(fake, farm_scoring="city_supply_1st_ed", tiny_city=4)
    tiles = await fake.slash(EVE, "tiles")
    assert tiles.last.ephemeral
    counts = dict(re.findall(r"`([^`]+)` × (\d+)", tiles.last.text()))
    # 72 tiles: the start tile is placed and one is drawn
    assert sum(int(n) for n in counts.values()) == 70
    assert "Tiles not yet drawn (70)" in tiles.last.text()
    rules = await fake.slash(EVE, "rules")
    assert "1st edition" in rules.last.text() and "4 points + 2 per shield" in rules.last.text()
    score = await fake.slash(BOB, "score")
    assert "Alice" in score.last.text() and "Bob" in score.last.text()
    board = await fake.slash(BOB, "board")
    png_of(board.last.file("board.png"))
    assert board.last.ephemeral
    res = await fake.click(EVE, turn.message_id or 0, cid(turn, "tiles"))
    assert "Tiles not yet drawn (70)" in res.last.text()


async def test_pass_choose_and_undo_commands(table: Table) -> None:
    fake = table.fake
    turn = await start_match(fake)
    user = whose_turn(turn)
    res = await fake.slash(user, "pass")
    assert "None of your open choices can be passed" in res.last.text()
    rot = (await fake.autocomplete(user, "place", "rotation", cell=1, rotation=""))[0]["value"]
    res = await fake.slash(user, "place", cell=1, rotation=rot)
    deploy_turn = res.channel_sends[0]
    labels = {c.get("label") for c in buttons(fake.message(deploy_turn.message_id or 0))}
    assert labels >= {"Follower", "No follower", "Undo", "Tiles left"}
    res = await fake.slash(user, "undo")
    back = res.channel_sends[0]
    assert "took back" in back.content and "your turn: Place your tile" in back.content
    assert "Undo" not in {c.get("label") for c in buttons(fake.message(back.message_id or 0))}
    res = await fake.slash(user, "place", cell=1, rotation=rot)
    deploy_turn = res.channel_sends[0]
    spots = await fake.autocomplete(user, "choose", "option", option="")
    assert spots[-1]["name"].startswith("No follower — ")
    opened = await fake.click(user, deploy_turn.message_id or 0, labelled(deploy_turn, "Follower"))
    picker = opened.followups[0]
    assert picker.ephemeral and picker.file("choices.png")
    msg = fake.message(picker.message_id or 0)
    offered = [b["label"] for b in buttons(msg) if " · " in b["label"]]
    if not offered:  # more than five: a select
        offered = select_labels(msg)
    assert len(offered) == len(spots) - 1  # every spot, lettered; and Pass
    assert all(re.match(r"[A-Z] · ", label) for label in offered), offered
    res = await fake.slash(user, "choose", option=spots[0]["value"])
    assert len(res.channel_sends) == 1
    nxt = res.channel_sends[0]
    assert whose_turn(nxt) is not user


async def test_lobby_rules_join_leave_and_abandon(table: Table) -> None:
    fake = table.fake
    new = await fake.slash(ALICE, "new", players=3)
    lobby = new.callback
    res = await fake.click(ALICE, lobby.message_id or 0, cid(lobby, "join"))
    assert "already joined" in res.last.text()
    res = await fake.click(ALICE, lobby.message_id or 0, cid(lobby, "start"))
    assert "At least 2 players" in res.last.text()
    await fake.click(BOB, lobby.message_id or 0, cid(lobby, "join"))
    res = await fake.click(BOB, lobby.message_id or 0, cid(lobby, "start"))
    assert "Only the host" in res.last.text()
    await fake.click(BOB, lobby.message_id or 0, cid(lobby, "leave"))
    assert "<@202>" not in fake.message(lobby.message_id or 0)["embeds"][0]["description"]
    res = await fake.slash(EVE, "abandon")
    assert "Only the host" in res.last.text()
    manager = User(606, "Mod", permissions=0x10 | 0x400 | 0x800)  # manage channels
    res = await fake.slash(manager, "abandon")
    assert not res.last.ephemeral and "abandoned" in res.last.text()
    res = await fake.click(BOB, lobby.message_id or 0, cid(lobby, "join"))
    assert "closed" in res.last.text()


async def test_turn_reminder_mentions_the_player(tmp_path: Path) -> None:
    clock = [1000.0]
    service = await MatchService.open(tmp_path / "carc.sqlite3", clock=lambda: clock[0])
    bot = CarcBot(service, background_tasks=False)
    fake = FakeDiscord(bot)
    await fake.start()
    try:
        turn = await start_match(fake, reminder_minutes=5)
        cog = bot.get_cog("carcassonne") or bot.cogs["Carcassonne"]
        assert await cog.upkeep.send_reminders(clock[0] + 60) == 0  # type: ignore[attr-defined]
        n = len(fake.requests)
        assert await cog.upkeep.send_reminders(clock[0] + 301) == 1  # type: ignore[attr-defined]
        sent = fake.requests[n]
        player = whose_turn(turn)
        assert f"<@{player.id}>" in sent.content and "still your turn" in sent.content
        assert str(turn.message_id) in sent.content
        assert await cog.upkeep.send_reminders(clock[0] + 400) == 0  # type: ignore[attr-defined]
    finally:
        await fake.close()
        await service.close()


async def test_autocomplete_is_answered_without_a_match(table: Table) -> None:
    res = await table.fake.autocomplete(ALICE, "place", "cell", cell="")
    assert res == []


def test_result_constants_are_discords() -> None:
    assert (AUTOCOMPLETE_RESULT, EPHEMERAL) == (8, 64)
    assert isinstance(Result(), Result)


async def test_resigning_ends_a_two_player_match_with_the_other_as_winner(table: Table) -> None:
    fake = table.fake
    turn = await start_match(fake)
    res = await fake.slash(BOB, "resign")
    (done,) = res.followups
    assert done.ephemeral and "Done" in done.text()
    final = posted(res)
    # the replay follows the final board, after the resigning player was answered
    assert res.requests.index(final) < res.requests.index(done) < res.requests.index(res.last)
    assert [name for name, _ in res.last.files] == ["replay.gif"]
    assert "Bob resigned" in final.content
    assert "🏁" in final.content and "<@101>" in final.content  # Alice wins
    assert not final.custom_ids()
    json.loads(final.file(".json"))
    res = await fake.click(ALICE, turn.message_id or 0, labelled(turn, "Place tile"))
    assert "This match is over" in res.last.text()
