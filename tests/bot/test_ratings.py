"""Ratings on real SQLite: a scripted series of tile and card games rates its players exactly as
``openskill``'s own Plackett–Luce computation does; players who resigned or were handed to the
AI count last; a game with an AI seat rates nobody; a finished game counts once across a
restart."""

from __future__ import annotations

import random
from pathlib import Path

from openskill.models import PlackettLuce

from app.cardgame import CardMatchService
from app.matches import MatchOptions, MatchService
from app.ratings import Ratings, ranks, shown
from storage import GLOBAL, Storage
from tests.bot.matchservice import (
    ANN,
    BOB,
    CAT,
    CHANNEL,
    GUILD,
    open_service,
    play,
    two_player_match,
)

CARD_CH = 77


async def _card_game(
    svc: CardMatchService, players: dict[int, str], rng: random.Random, *, away: int = 0
) -> tuple[list[int], list[int], list[int]]:
    """A card game of ``players`` played to the end with random legal moves (``away``'s seat
    handed to the AI stand-in first); returns (users by seat, scores, winners)."""
    (host, host_name), *rest = players.items()
    info = await svc.create_lobby(GUILD, CARD_CH, host, host_name, len(players))
    for uid, name in rest:
        await svc.join(CARD_CH, uid, name)
    out = await svc.start(CARD_CH, host)
    if away:
        await svc.hand_over(CARD_CH, away)
    mid = info.match_id
    while not out.finished:
        uid = out.awaiting_users[0]
        _, sv = await svc.private_view(mid, uid)
        out = await svc.submit(mid, uid, rng.choice(sv.legal))
    users = [s.user_id for s in sorted(out.seats, key=lambda s: s.seat)]
    return users, [p.score for p in out.view.players], [int(s) for s in out.view.winners]


async def _resigned_tile_game(svc: MatchService, order: list[int], channel: int = CHANNEL) -> None:
    """A 3-player tile game (Ann hosts, Bob and Cat join) where the players in ``order`` resign
    one after the other until one is left."""
    await svc.create_lobby(GUILD, channel, ANN, "Ann", MatchOptions(players=3), seed=5)  # type: ignore[call-arg]
    await svc.join(channel, BOB, "Bob")
    await svc.join(channel, CAT, "Cat")
    await svc.start(channel, ANN)
    for uid in order:
        await svc.resign(channel, uid)


def _expected(
    games: list[tuple[list[int], list[int]]],
) -> dict[int, tuple[float, float]]:
    """openskill's own ratings after ``games`` (users, ranks), one ``rate`` call each."""
    model = PlackettLuce()
    now: dict[int, tuple[float, float]] = {}
    for users, places in games:
        olds = [model.rating(*now[u]) if u in now else model.rating() for u in users]
        new = model.rate([[r] for r in olds], ranks=places)
        for u, team in zip(users, new, strict=True):
            now[u] = (team[0].mu, team[0].sigma)
    return now


async def _stored(storage: Storage, scope: int) -> dict[int, tuple[float, float]]:
    rows = await storage.ratings.top(scope, limit=100)
    return {r.user_id: (r.mu, r.sigma) for r in rows}


def _close(a: dict[int, tuple[float, float]], b: dict[int, tuple[float, float]]) -> None:
    assert a.keys() == b.keys()
    for k in a:
        assert abs(a[k][0] - b[k][0]) < 1e-9 and abs(a[k][1] - b[k][1]) < 1e-9, k


async def test_a_scripted_series_matches_openskill(tmp_path: Path) -> None:
    tiles = await open_service(tmp_path / "r.sqlite3")
    cards = CardMatchService(tiles.storage, renderer=None, seeds=lambda: 3)
    rng = random.Random(7)
    series: list[tuple[list[int], list[int]]] = []
    try:
        users, scores, winners = await _card_game(cards, {ANN: "Ann", BOB: "Bob", CAT: "Cat"}, rng)
        series.append((users, ranks(scores, (), winners)))
        # Cat resigns, then Bob: Ann is first, Bob and Cat share the last place
        await _resigned_tile_game(tiles, [CAT, BOB])
        series.append(([ANN, BOB, CAT], [1, 2, 2]))
        users, scores, winners = await _card_game(cards, {BOB: "Bob", CAT: "Cat"}, rng)
        series.append((users, ranks(scores, (), winners)))
        # a whole tile game, played to its final scoring
        end = await play(tiles, await two_player_match(tiles, seed=9), rng)
        by_seat = sorted(end.seats, key=lambda s: s.seat)
        (a, b) = (p.score for p in sorted(end.view.players, key=lambda p: p.seat))
        series.append(([s.user_id for s in by_seat], [1 + (b > a), 1 + (a > b)]))
        expected = _expected(series)
        _close(await _stored(tiles.storage, GUILD), expected)
        _close(await _stored(tiles.storage, GLOBAL), expected)
        board = await tiles.ratings.leaderboard(GUILD)
        assert [s.place for s in board] == [1, 2, 3]
        assert {s.user_id: s.rating for s in board} == {
            u: shown(*expected[u]) for u in (ANN, BOB, CAT)
        }
        ann = await tiles.stats.player(GUILD, ANN)
        assert ann.games == 3 and ann.wins >= 1 and ann.rating == shown(*expected[ANN])
    finally:
        await tiles.close()


async def test_a_player_handed_to_the_ai_counts_last(tmp_path: Path) -> None:
    tiles = await open_service(tmp_path / "a.sqlite3")
    cards = CardMatchService(tiles.storage, renderer=None, seeds=lambda: 4)
    try:
        users, scores, winners = await _card_game(
            cards, {ANN: "Ann", BOB: "Bob"}, random.Random(2), away=BOB
        )
        (result,) = await tiles.storage.ratings.results(guild_id=GUILD)
        by_user = {s.user_id: s for s in result.seats}
        assert by_user[BOB].left and by_user[BOB].rank == 2, "away at the end: last"
        assert by_user[ANN].rank == 1
        _close(await _stored(tiles.storage, GUILD), _expected([([ANN, BOB], [1, 2])]))
    finally:
        await tiles.close()


async def test_a_resigner_counts_last_and_an_ai_game_rates_nobody(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "ai.sqlite3")
    try:
        await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", MatchOptions(), seed=3)
        await svc.add_ai(CHANNEL, ANN, "easy")
        await svc.start(CHANNEL, ANN)
        await svc.resign(CHANNEL, ANN)
        (result,) = await svc.storage.ratings.results(guild_id=GUILD)
        assert not result.rated
        assert await svc.storage.ratings.top(GUILD, limit=10) == []
        assert await svc.storage.ratings.top(GLOBAL, limit=10) == []
        stats = await svc.stats.player(GUILD, ANN)
        assert stats.games == 1 and stats.wins == 0 and stats.rating is None
    finally:
        await svc.close()


async def test_a_finished_game_counts_once_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "restart.sqlite3"
    svc = await open_service(db)

    async def crashed(self: Ratings) -> int:  # the process dies before rating the game
        return 0

    try:
        original = Ratings.settle
        Ratings.settle = crashed  # type: ignore[method-assign]
        await _resigned_tile_game(svc, [CAT, BOB])
    finally:
        Ratings.settle = original  # type: ignore[method-assign]
        await svc.close()
    for restart in range(2):  # two restarts: the pending game is rated by the first only
        again = await open_service(db)
        try:
            assert len(await again.storage.ratings.pending()) == (1 if restart == 0 else 0)
            await again.ratings.settle()
            await again.ratings.settle()
            rows = await again.storage.ratings.top(GUILD, limit=10)
            assert {r.user_id: r.games for r in rows} == {ANN: 1, BOB: 1, CAT: 1}
            _close(await _stored(again.storage, GUILD), _expected([([ANN, BOB, CAT], [1, 2, 2])]))
        finally:
            await again.close()


async def test_the_time_per_move_is_the_mean_gap_before_each_of_the_players_moves(
    tmp_path: Path,
) -> None:
    """Two moves by Ann 10 s and 30 s after the move before: 20 s a move."""
    from app.matches import MatchService
    from tests.bot.matchservice import ANN, BOB, CHANNEL, GUILD, two_player_match

    svc = await MatchService.open(tmp_path / "p.sqlite3", renderer=None, animator=None)
    try:
        out = await two_player_match(svc, seed=3)
        match_id = out.match_id
        async with svc.storage.db.transaction() as tx:  # a finished game with timed moves
            await tx.execute("DELETE FROM actions WHERE match_id = ?", (match_id,))
            for seq, seat, at in ((1, 0, 100.0), (2, 0, 110.0), (3, 1, 115.0), (4, 0, 145.0)):
                await tx.execute(
                    "INSERT INTO actions (match_id, seq, seat, action, visibility, created_at)"
                    " VALUES (?, ?, ?, 'pass', 'public', ?)",
                    (match_id, seq, seat, at),
                )
            await tx.execute(
                "INSERT INTO game_results (match_id, guild_id, channel_id, game, expansions,"
                " finished_at, rated) VALUES (?, ?, ?, 'carcassonne', '[]', 0, 1)",
                (match_id, GUILD, CHANNEL),
            )
        seats = await svc.storage.matches.seats(match_id)
        first = next(s.user_id for s in seats if s.seat == 0)
        assert first in (ANN, BOB)
        assert await svc.storage.ratings.seconds_per_move(first, GUILD) == 20.0
    finally:
        await svc.close()
