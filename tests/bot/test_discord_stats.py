"""``/carcassonne leaderboard``, ``stats`` and ``history`` through the real discord.py stack: a
finished game shows on all three, in the caller's language, the leaderboard pages with its
buttons and the history hands out a game's record file."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.ratings import shown
from storage import RatingChange
from tests.bot.tiletable import ALICE, BOB, Table, close_table, open_table, start_match
from tests.fakediscord import GUILD_ID

ALICE_ES = replace(ALICE, locale="es-ES")
ALICE_DE = replace(ALICE, locale="de")


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    t = await open_table(tmp_path / "stats.sqlite3")
    try:
        yield t
    finally:
        await close_table(t)


async def _finished(table: Table) -> int:
    """Alice and Bob start a match and Bob resigns: Alice wins. Returns the match id."""
    await start_match(table.fake)
    await table.fake.slash(BOB, "resign")
    (result,) = await table.service.storage.ratings.results(guild_id=GUILD_ID)
    return result.match_id


async def test_a_finished_game_on_the_leaderboard_stats_and_history(table: Table) -> None:
    fake = table.fake
    empty = (await fake.slash(ALICE, "leaderboard")).callback
    assert empty.ephemeral and "Nobody here has a rating yet" in empty.text()
    match_id = await _finished(table)
    alice = await table.service.storage.ratings.rating(GUILD_ID, ALICE.id)
    assert alice is not None
    board = (await fake.slash(ALICE, "leaderboard")).callback
    text = board.text()
    assert (
        "Leaderboard" in text and f"1. <@{ALICE.id}> — **{shown(alice.mu, alice.sigma)}**" in text
    )
    assert text.index(f"<@{ALICE.id}>") < text.index(f"<@{BOB.id}>")
    assert not board.custom_ids(), "one page: no page buttons"

    es = (await fake.slash(ALICE_ES, "leaderboard")).callback.text()
    assert "Clasificación de este servidor" in es
    de = (await fake.slash(ALICE_DE, "stats")).callback
    assert de.ephemeral
    assert "Statistik von Alice" in de.text() and "Siege: 1" in de.text(), de.text()
    stats = (await fake.slash(ALICE, "stats")).callback.text()
    assert "Games: 1" in stats and "Wins: 1" in stats and "Rating" in stats
    assert "the base game only" in stats and f"Game {match_id}" in stats
    # the time per move comes from the action log's times: shown once a move was timed
    pace = await table.service.storage.ratings.seconds_per_move(ALICE.id, GUILD_ID)
    assert ("Time per move" in stats) == (pace is not None)
    bob = (await fake.slash(ALICE, "stats", player=BOB)).callback.text()
    assert "Stats of Bob" in bob and "Wins: 0" in bob and "#2/2" in bob, bob

    history = (await fake.slash(ALICE_ES, "history")).callback
    assert "Partidas terminadas" in history.text()
    assert f"Partida {match_id}" in history.text() and "se fue" in history.text()
    record = await fake.slash(ALICE_DE, "history", game=match_id)
    sent = record.followups[0]
    assert "Protokoll von Partie" in sent.text()
    data = json.loads(sent.file(f"carcassonne-{match_id}.json"))
    assert data, "the record file"
    assert sent.file(f"replay-{match_id}.gif")[:3] == b"GIF", "and the replay animation"
    missing = await fake.slash(ALICE, "history", game=match_id + 99)
    assert "no finished game" in missing.followups[0].text()


async def test_the_leaderboard_pages_with_buttons(table: Table) -> None:
    fake = table.fake
    match_id = await _finished(table)
    storage = table.service.storage
    async with storage.db.transaction() as tx:  # eleven more rated players (ids 1..11)
        await storage.ratings.save(
            tx,
            GUILD_ID,
            match_id,
            [RatingChange(match_id, u, 25, 8, 20 + u, 5) for u in range(1, 12)],
        )
    first = (await fake.slash(ALICE, "leaderboard")).callback
    assert "Page 1 of 2" in first.text() and "10. " in first.text() and "11. " not in first.text()
    ids = first.custom_ids()
    assert len(ids) == 2
    page2 = await fake.click(ALICE, first.message_id or 0, ids[1])
    shown_page = page2.callback
    assert shown_page.callback_type == 7, "the same message shows the next page"
    assert "Page 2 of 2" in shown_page.text() and "11." in shown_page.text()
