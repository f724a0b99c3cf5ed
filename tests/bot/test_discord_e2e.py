"""The Discord front end end to end: the real discord.py bot, the real MatchService on a real
SQLite file, no network (tests/fakediscord.py, ECOSYSTEM.md §2.3).

Whole 2-player games are played through the slash command (values picked from autocomplete) and
through the buttons and selects, and a match survives a restart (the table and its helpers:
tests/bot/tiletable.py). Refusals: test_discord_refusals.py; the other commands:
test_discord_commands.py.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from app import matches
from engine import Pass, PlaceTile
from tests.bot.tiletable import (
    ALICE,
    BOB,
    Table,
    assert_final,
    buttons,
    channel_of,
    cid,
    close_table,
    labelled,
    open_table,
    png_of,
    posted,
    score_lines,
    select_id,
    select_labels,
    select_options,
    start_match,
    whose_turn,
)
from tests.fakediscord import DEFERRED_CHANNEL_MESSAGE
from tests.fakediscord_records import User

#: the match seed of the whole game through buttons (its board grows past 25 legal cells)
BUTTONS_SEED = 2


# ------------------------------------------------------------------------------ whole games
async def test_whole_game_through_slash_commands_with_autocomplete(table: Table) -> None:
    fake = table.fake
    rng = random.Random(7)
    turn = await start_match(fake)
    png_of(turn.file("board.png"))
    announced: dict[str, int] = {}
    deployed = 0
    for _ in range(200):
        if "🏁" in turn.content:
            break
        user = whose_turn(turn)
        cells = await fake.autocomplete(user, "place", "cell", cell="")
        assert cells and len(cells) <= 25
        cell = rng.choice(cells)["value"]
        rots = await fake.autocomplete(user, "place", "rotation", cell=cell, rotation="")
        assert rots and all(r["value"] in (0, 90, 180, 270) for r in rots)
        rot = rng.choice(rots)["value"]
        fols = await fake.autocomplete(
            user, "place", "follower", cell=cell, rotation=rot, follower=""
        )
        assert fols[-1]["value"] == "none"
        follower = rng.choice(fols)["value"]
        deployed += follower != "none"
        res = await fake.slash(user, "place", cell=cell, rotation=rot, follower=follower)
        assert res.callback.callback_type == DEFERRED_CHANNEL_MESSAGE
        assert res.callback.ephemeral, "the command's own answer is private"
        turn = posted(res)
        for name, pts in score_lines(turn.text()).items():
            announced[name] = announced.get(name, 0) + pts
    else:
        pytest.fail("the game did not end")
    assert deployed > 5
    outcome = await table.service.match(1)
    assert outcome.finished
    final_table = {p.name: p.score for p in outcome.view.players}
    assert_final(res.channel_sends, announced, final_table)


async def test_whole_game_through_buttons_and_selects(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Place tile -> numbered cells (a select with pages beyond 25) -> the tile turned each
    legal way -> lettered spots or No follower; both answers are submitted together."""
    monkeypatch.setattr(matches.secrets, "randbelow", lambda n: BUTTONS_SEED)
    fake = table.fake
    rng = random.Random(11)
    turn = await start_match(fake, players=2)
    announced: dict[str, int] = {}
    paged = previews = no_figure = 0
    for _ in range(200):
        if "🏁" in turn.content:
            break
        user = whose_turn(turn)
        opened = await fake.click(user, turn.message_id or 0, labelled(turn, "Place tile"))
        picker = opened.followups[0]
        assert picker.ephemeral, picker.content
        png_of(picker.file("choices.png"))
        pid = picker.message_id or 0
        msg = fake.message(pid)
        one_cell = "Choose the rotation" in picker.content  # one legal cell: its rotations
        assert one_cell or "Choose the cell" in picker.content, picker.content
        if any(c.get("label") == "Next" for c in buttons(msg)) and not paged:
            res = await fake.click(user, pid, labelled(msg, "Next"))
            assert res.last.message_id == pid
            msg = fake.message(pid)
            assert select_labels(msg)[0] == "Cell 26"
            paged += 1
        cells = [b for b in buttons(msg) if b["label"].startswith("Cell ")]
        if one_cell:
            pass
        elif cells:
            res = await fake.click(user, pid, rng.choice(cells)["custom_id"])
        else:
            value = rng.choice(select_options(msg))
            res = await fake.click(user, pid, select_id(msg), values=[value])
        msg = fake.message(pid)

        def asked(msg: dict[str, Any]) -> bool:  # not yet submitted nor to be confirmed
            return "Done" not in msg["content"] and "Confirm?" not in msg["content"]

        if "Put a figure" not in msg["content"] and asked(msg):
            rots = [b for b in buttons(msg) if b["label"].endswith("°")]
            assert 2 <= len(rots) <= 4, msg["content"]
            png_of((picker if one_cell else res.last).file("choices.png"))  # each way turned
            previews += 1
            res = await fake.click(user, pid, rng.choice(rots)["custom_id"])
            msg = fake.message(pid)
        if "Confirm?" in msg["content"]:  # chosen in a select, and no figure can go on it
            res = await fake.click(user, pid, labelled(msg, "Confirm"))
            no_figure += 1
        elif "Done" in msg["content"]:  # no figure can go on it: the placement is the move
            no_figure += 1
        else:
            assert "Put a figure on the tile" in msg["content"], msg["content"]
            assert "So far: cell " in msg["content"], msg["content"]
            spots = [b for b in buttons(msg) if b["label"] not in ("Back", "No follower")]
            assert spots, "a follower step with nothing to choose is never asked"
            assert all(re.match(r"[A-Z] · ", b["label"]) for b in spots), spots
            pick = rng.choice([*spots, *[b for b in buttons(msg) if b["label"] == "No follower"]])
            res = await fake.click(user, pid, pick["custom_id"])
        turn = posted(res)
        assert "Done" in fake.message(pid)["content"]
        for name, pts in score_lines(turn.text()).items():
            announced[name] = announced.get(name, 0) + pts
    else:
        pytest.fail("the game did not end")
    assert paged and previews > 10 and no_figure, (paged, previews, no_figure)
    outcome = await table.service.match(1)
    assert_final(res.channel_sends, announced, {p.name: p.score for p in outcome.view.players})


# ------------------------------------------------------------------------------ restart
async def test_restart_halfway_continues_from_the_old_button(tmp_path: Path) -> None:
    db = tmp_path / "carc.sqlite3"
    t1 = await open_table(db)
    rng = random.Random(3)
    try:
        turn = await start_match(t1.fake)
        for _ in range(6):
            user = whose_turn(turn)
            cell = rng.choice(await t1.fake.autocomplete(user, "place", "cell", cell=""))
            rot = (
                await t1.fake.autocomplete(
                    user, "place", "rotation", cell=cell["value"], rotation=""
                )
            )[0]
            res = await t1.fake.slash(
                user, "place", cell=cell["value"], rotation=rot["value"], follower="none"
            )
            turn = res.channel_sends[0]
    finally:
        await close_table(t1)
    # a new process: new service, new bot, the same database and the same Discord messages
    t2 = await open_table(db, messages=t1.fake)
    try:
        before = (await t2.service.current(channel_of(turn), render=False)).version
        user = whose_turn(turn)
        opened = await t2.fake.click(user, turn.message_id or 0, labelled(turn, "Place tile"))
        picker = opened.followups[0]
        pid = picker.message_id or 0
        msg = t2.fake.message(pid)
        cells = [b for b in buttons(msg) if b["label"].startswith("Cell ")]
        if cells:
            await t2.fake.click(user, pid, cells[0]["custom_id"])
        else:
            await t2.fake.click(user, pid, select_id(msg), values=[select_options(msg)[0]])
        msg = t2.fake.message(pid)
        rots = [b for b in buttons(msg) if b["label"].endswith("°")]
        if rots:
            await t2.fake.click(user, pid, rots[0]["custom_id"])
        res = await t2.fake.click(user, pid, labelled(t2.fake.message(pid), "No follower"))
        assert len(res.channel_sends) == 1
        after = await t2.service.current(channel_of(turn), render=False)
        assert after.version == before + 2  # place + pass, both stored
    finally:
        await close_table(t2)


async def test_restart_recovery_posts_a_board_that_was_never_posted(tmp_path: Path) -> None:
    db = tmp_path / "carc.sqlite3"
    t1 = await open_table(db)
    try:
        turn = await start_match(t1.fake)
        user = whose_turn(turn)
        # the move is stored, then the process dies before posting the new board
        outcome = await t1.service.current(channel_of(turn), render=False)
        pos, rots = next(iter(outcome.placements.items()))
        await t1.service.submit(channel_of(turn), user.id, [PlaceTile(pos, rots[0]), Pass()])
    finally:
        await close_table(t1)
    t2 = await open_table(db, messages=t1.fake)
    try:
        n = len(t2.fake.requests)
        await t2.fake.ready()
        posted = [r for r in t2.fake.requests[n:] if r.method == "POST"]
        assert len(posted) == 1 and posted[0].path.endswith("/messages")
        assert "your turn" in posted[0].content
        again = await t2.service.current(channel_of(turn), render=False)
        assert again.turn_message_id == posted[0].message_id
        await t2.fake.ready()  # a second READY (reconnect) posts nothing new
        assert len([r for r in t2.fake.requests[n:] if r.method == "POST"]) == 1
    finally:
        await close_table(t2)


async def test_after_a_restart_the_reposted_board_speaks_the_language_the_table_was_opened_in(
    tmp_path: Path,
) -> None:
    """The opener's language is stored with the match: a board re-posted after a restart,
    before anyone has clicked anything, is in Spanish (it was English until somebody acted)."""
    db = tmp_path / "carc.sqlite3"
    ana = User(ALICE.id, "Alice", locale="es-ES")
    t1 = await open_table(db)
    try:
        lobby = (await t1.fake.slash(ana, "new")).callback
        await t1.fake.click(BOB, lobby.message_id or 0, cid(lobby, "join"))
        turn = (await t1.fake.click(ana, lobby.message_id or 0, cid(lobby, "start"))).channel_sends[
            0
        ]
        assert "te toca" in turn.content, turn.content
        user = whose_turn(turn)
        outcome = await t1.service.current(channel_of(turn), render=False)
        pos, rots = next(iter(outcome.placements.items()))
        await t1.service.submit(channel_of(turn), user.id, [PlaceTile(pos, rots[0]), Pass()])
    finally:
        await close_table(t1)
    t2 = await open_table(db, messages=t1.fake)
    try:
        n = len(t2.fake.requests)
        await t2.fake.ready()
        reposted = [r for r in t2.fake.requests[n:] if r.method == "POST"]
        assert len(reposted) == 1
        assert "te toca" in reposted[0].content and "your turn" not in reposted[0].content
    finally:
        await close_table(t2)


async def test_the_played_line_names_the_cell_as_the_pickers_number_it(table: Table) -> None:
    """The channel's "X played" line names the cell by the number the picker, the autocomplete
    and the board picture gave it (and where it is), never by coordinates alone."""
    fake = table.fake
    turn = await start_match(fake)
    user = whose_turn(turn)
    cells = await fake.autocomplete(user, "place", "cell", cell="")
    last = cells[-1]
    rots = await fake.autocomplete(user, "place", "rotation", cell=last["value"], rotation="")
    res = await fake.slash(
        user, "place", cell=last["value"], rotation=rots[0]["value"], follower="none"
    )
    headline = posted(res).content.splitlines()[0]
    n = last["value"]
    assert headline.startswith(f"{user.name} played: cell {n} (x "), headline
    assert last["name"].startswith(f"Cell {n} — x "), last["name"]
    where = last["name"].split(" — ")[1].split(" (")[0]
    assert f"cell {n} ({where}) · " in headline, (headline, where)
