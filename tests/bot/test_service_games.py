"""The tile-game service never touches a card-game match sharing the database."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cardgame import CardMatchService
from app.matches import ERR_OTHER_GAME, MatchService, ServiceError

CHANNEL = 700


async def test_tile_commands_leave_a_card_match_alone(tmp_path: Path) -> None:
    tiles = await MatchService.open(tmp_path / "m.sqlite3", renderer=None, animator=None)
    try:
        cards = CardMatchService(tiles.storage)
        await cards.create_lobby(1, CHANNEL, 10, "Ana")
        await cards.join(CHANNEL, 11, "Ben")
        await cards.start(CHANNEL, 10)
        for call in (
            tiles.join(CHANNEL, 12, "Cy"),
            tiles.current(CHANNEL),
            tiles.lobby(CHANNEL),
        ):
            with pytest.raises(ServiceError) as err:
                await call
            # the tile game names the game that owns the channel instead of touching it
            assert err.value.key == ERR_OTHER_GAME and err.value.params["game"] == "cardgame"
        assert await tiles.active_matches() == []  # restart recovery skips card matches
    finally:
        await tiles.close()
