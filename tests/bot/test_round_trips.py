"""Database round trips of a move through the real Discord stack, counted (not timed).

Each trip through aiosqlite is a hand-over to SQLite's thread and back (about 0.3 ms, against a
few µs for the statement itself). A move used to make about 30 of them: three autocompletes and
the command each re-read the channel's match, its row and its seats, and the move's transaction
was one trip per statement. Now every read is one trip and the move's whole transaction is one,
and the rotation and follower suggestions reuse the cell suggestion's read of the player's
decisions until the board changes (bot/cogs/suggestions.py).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from app.matches import MatchService
from tests.bot.tiletable import close_table, open_table, posted, start_match, whose_turn
from tests.storage.trips import Trips

#: trips per step of a move typed as ``/carcassonne place`` (see test below): by a process
#: that may share its file, and by the bot, which holds its file's writer lock and keeps what
#: it read of a match until it writes (storage/foundcache.py): then only the move's
#: transaction and its turn message's id are trips
TRIPS = {False: (1, 0, 1, 4), True: (0, 0, 0, 2)}


@pytest.mark.parametrize("writer", [False, True], ids=["shared file", "writer"])
async def test_a_typed_move_makes_six_round_trips_and_never_rereads_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, writer: bool
) -> None:
    CELL, ROTATION, FOLLOWER, PLACE = TRIPS[writer]
    table = await open_table(tmp_path / "trips.sqlite3", writer=writer)
    try:
        fake, service = table.fake, table.service
        turn = await start_match(fake)
        trips = Trips(service.storage.db)
        replays: list[Any] = []
        real = service.storage.actions.entries

        async def entries(match_id: int) -> Any:
            replays.append(match_id)
            return await real(match_id)

        monkeypatch.setattr(service.storage.actions, "entries", entries)
        rng = random.Random(3)
        for _ in range(12):
            user = whose_turn(turn)
            cells = await fake.autocomplete(user, "place", "cell", cell="")
            # the channel's match, its row and seats: one read (the game is cached)
            assert trips.take() == CELL
            cell = rng.choice(cells)["value"]
            rots = await fake.autocomplete(user, "place", "rotation", cell=cell, rotation="")
            assert trips.take() == ROTATION  # the cell's read is kept: the board is the same
            rot = rng.choice(rots)["value"]
            fols = await fake.autocomplete(
                user, "place", "follower", cell=cell, rotation=rot, follower=""
            )
            assert trips.take() == FOLLOWER  # the preview after the tile (decisions kept)
            follower = rng.choice(fols)["value"]
            res = await fake.slash(user, "place", cell=cell, rotation=rot, follower=follower)
            turn = posted(res)
            # the decisions (1; the preview after the tile is the follower autocomplete's, kept
            # in the seat's picker session), the match under its lock (1: by the id the
            # decisions were read with), the whole move in one transaction (1), the turn
            # message's id (1)
            assert trips.take() == PLACE
        assert replays == [], "a cached game is never replayed from its log"
    finally:
        await close_table(table)


@pytest.mark.parametrize("writer", [False, True], ids=["shared file", "writer"])
async def test_a_submit_is_three_trips(tmp_path: Path, writer: bool) -> None:
    svc = await MatchService.open(
        tmp_path / "submit.sqlite3", writer=writer, renderer=None, animator=None
    )
    try:
        await svc.create_lobby(1, 10, 100, "Ann", svc.options_from_json({}), seed=5)
        await svc.join(10, 200, "Bob")
        out = await svc.start(10, 100)
        trips = Trips(svc.storage.db)
        for move in range(6):
            (d,) = out.decisions
            out = await svc.submit(10, out.current_user_id, [next(iter(d.actions()))])
            # the channel's match, its row under the lock, the move; the writer keeps the
            # row the last move committed, so both reads are answered without a trip (the
            # first move reads once the row the start wrote)
            assert trips.take() == (3 if not writer else 2 if move == 0 else 1)
    finally:
        await svc.close()
