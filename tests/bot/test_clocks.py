"""Turn clocks (app/clocks.py): a move's deadline is a timer row written with the move that
starts the turn; it fires once (across a restart too), a move made before it wins the race, an
AI stand-in plays a move whose deadline passed, and after the match's limit of missed moves in
a row the seat is handed to the AI."""

from __future__ import annotations

import random
from pathlib import Path

from app.clocks import DEADLINE, WARNING
from app.matches import MatchService, Outcome
from tests.bot.matchservice import CHANNEL, open_service, random_move, two_player_match

LIVE = 120.0  # the live clock's seconds a move


async def _fresh(db: Path, now: list[float]) -> MatchService:
    return await open_service(db, renderer=None, clock=lambda: now[0])


def _mover(out: Outcome) -> int:
    return out.user_of(out.decisions[0].seat)


async def test_a_deadline_fires_once_through_a_restart_and_a_stand_in_moves(
    tmp_path: Path,
) -> None:
    db, now = tmp_path / "c.sqlite3", [1000.0]
    svc = await _fresh(db, now)
    try:
        out = await two_player_match(svc, seed=4, clock="live")
        assert out.deadline is not None  # shown on the turn message
        late = _mover(out)
        assert await svc.due_timers(now[0] + LIVE - 1) == []
    finally:
        await svc.close()
    # the bot was down when the deadline passed: it fires at the next start, once
    svc = await _fresh(db, now)
    try:
        (due,) = await svc.due_timers(now[0] + LIVE + 5)
        assert (due.kind, due.user_id, due.version) == (DEADLINE, late, out.version)
        assert await svc.due_timers(now[0] + LIVE + 10) == []  # claimed: never twice
        done = await svc.play_timeout(due.match_id, due.user_id, due.version)
        assert done is not None and done.missed == 1 and not done.handed
        assert done.played.outcome.version > out.version
        seats = await svc.storage.matches.seats(out.match_id)
        assert next(s for s in seats if s.user_id == late).missed == 1
        # the same timer fired again (another process) plays nothing: the version moved on
        assert await svc.play_timeout(due.match_id, due.user_id, due.version) is None
    finally:
        await svc.close()


async def test_a_move_a_moment_before_the_deadline_wins_the_race(tmp_path: Path) -> None:
    now = [5000.0]
    svc = await _fresh(tmp_path / "r.sqlite3", now)
    try:
        out = await two_player_match(svc, seed=4, clock="live")
        who, version = _mover(out), out.version
        now[0] += LIVE - 0.5  # half a second left: the tile, then no follower
        out = await svc.submit(CHANNEL, who, random_move(out, random.Random(1)))
        while _mover(out) == who:
            out = await svc.submit(CHANNEL, who, [out.decisions[0].pass_action])
        # the deadline of the old turn is gone (the move replaced it) ...
        assert [d for d in await svc.due_timers(5000.0 + LIVE + 1) if d.version == version] == []
        # ... and a late firing of it changes nothing
        assert await svc.play_timeout(out.match_id, who, version) is None
        seats = await svc.storage.matches.seats(out.match_id)
        assert all(s.missed == 0 for s in seats)
    finally:
        await svc.close()


async def test_missed_moves_in_a_row_hand_the_seat_to_the_ai(tmp_path: Path) -> None:
    """missed_limit 2: two deadlines missed in a row and the seat is the AI's (its controller
    says "away:normal", so the player can take it back); a move of their own in between would
    have set the count back to 0."""
    now = [0.0]
    svc = await _fresh(tmp_path / "m.sqlite3", now)
    try:
        out = await two_player_match(svc, seed=7, clock="live", missed_limit=2)
        late = _mover(out)
        handed = False
        for _ in range(60):
            if out.finished:
                break
            if _mover(out) != late:  # the other player answers at once
                out = await svc.submit(CHANNEL, _mover(out), random_move(out, random.Random(2)))
                continue
            now[0] += LIVE + 1
            dues = [d for d in await svc.due_timers(now[0]) if d.kind == DEADLINE]
            assert dues, "the late player's deadline is due"
            done = await svc.play_timeout(dues[0].match_id, dues[0].user_id, dues[0].version)
            assert done is not None
            out = done.played.outcome
            assert out.finished or _mover(out) != late, "the stand-in played the whole move"
            if done.handed:
                handed = True
                break
        assert handed
        seat = next(s for s in out.seats if s.user_id == late)
        assert seat.controller == "away:normal"
        played = await svc.play_controlled(out.match_id)  # the AI plays it from now on
        assert played is None or played.decision.seat == seat.seat or _mover(out) != late
    finally:
        await svc.close()


async def test_an_async_clock_warns_before_the_deadline_and_no_clock_sets_none(
    tmp_path: Path,
) -> None:
    now = [0.0]
    svc = await _fresh(tmp_path / "a.sqlite3", now)
    try:
        out = await two_player_match(svc, seed=4, clock="async")
        kinds = sorted(t.kind for t in await svc.storage.timers.pending(out.match_id))
        assert kinds == [DEADLINE, WARNING]
        (warn,) = await svc.due_timers(24 * 3600 - 3600 + 1)
        assert warn.kind == WARNING
    finally:
        await svc.close()
    svc = await _fresh(tmp_path / "n.sqlite3", now)
    try:
        out = await two_player_match(svc, seed=4)
        assert out.deadline is None and await svc.storage.timers.pending(out.match_id) == []
    finally:
        await svc.close()


async def test_discord_shows_the_deadline_and_says_when_a_stand_in_moved(tmp_path: Path) -> None:
    """Through the real discord.py stack: ``/carcassonne new clock:live``; the turn message
    shows the deadline as a Discord timestamp; when it passes, the scheduler's firing posts
    the stand-in's move with the reason."""
    import time

    from tests.bot.tiletable import ALICE, BOB, close_table, open_table

    table = await open_table(tmp_path / "d.sqlite3")
    try:
        fake = table.fake
        await fake.slash(ALICE, "new", clock="live")
        await fake.slash(BOB, "join")
        start = await fake.slash(ALICE, "start")
        turn = start.channel_sends[0]
        assert "⏰ Move due <t:" in turn.content and ":R>" in turn.content, turn.content
        cog = fake.bot.get_cog("Carcassonne")
        sent = await cog.upkeep.fire(time.time() + LIVE + 5)  # type: ignore[attr-defined]
        assert sent == 1
        posted = fake.requests[-1]
        assert "ran out of time; an AI played for them" in posted.content, posted.content
        assert "⏰ Move due <t:" in posted.content  # the next player's clock runs
    finally:
        await close_table(table)


async def test_the_others_vote_a_silent_seat_out_to_the_ai(tmp_path: Path) -> None:
    """Three people; after five silent minutes on their move, the other two vote (a majority of
    the two) and the silent seat is the AI's until its player comes back. Refused: voting
    too soon, voting for a player who is not to move, voting for oneself."""
    import pytest

    from app.errors import ServiceError
    from tests.bot.matchservice import ANN, BOB, CAT, GUILD

    now = [0.0]
    svc = await _fresh(tmp_path / "v.sqlite3", now)
    try:
        from app.matches import MatchOptions

        opts = MatchOptions(players=3)
        await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", opts, seed=2)
        await svc.join(CHANNEL, BOB, "Bob")
        await svc.join(CHANNEL, CAT, "Cat")
        out = await svc.start(CHANNEL, ANN)
        silent = _mover(out)
        a, b = [u for u in (ANN, BOB, CAT) if u != silent]
        svc.clock = lambda: now[0]
        for voter, target, words in ((a, silent, "minutes"), (a, b, "not that player's move")):
            with pytest.raises(ServiceError) as e:
                await svc.vote_out(CHANNEL, voter, target)
            assert e.value.key == "illegal" and words in e.value.reason("en"), e.value.reason("en")
        import time

        now[0] = time.time() + 301  # the turn started when the match was written
        with pytest.raises(ServiceError):
            await svc.vote_out(CHANNEL, silent, silent)
        first = await svc.vote_out(CHANNEL, a, silent)
        assert (first.votes, first.needed, first.outcome) == (1, 2, None)
        second = await svc.vote_out(CHANNEL, b, silent)
        assert second.outcome is not None
        seat = next(s for s in second.outcome.seats if s.user_id == silent)
        assert seat.controller == "away:normal"
        played = await svc.play_controlled(out.match_id)
        assert played is not None and played.decision.seat == seat.seat
    finally:
        await svc.close()


async def test_a_player_who_turns_pings_off_is_named_but_not_pinged(tmp_path: Path) -> None:
    from tests.bot.tiletable import ALICE, BOB, close_table, open_table

    table = await open_table(tmp_path / "p.sqlite3")
    try:
        fake = table.fake
        done = await fake.slash(ALICE, "pings", on=False)
        assert "not be pinged" in done.text()
        await fake.slash(ALICE, "pings", on=False)  # twice is fine
        await fake.slash(ALICE, "new")
        await fake.slash(BOB, "join")
        turns = []
        start = await fake.slash(ALICE, "start")
        turns.append(start.channel_sends[0])
        for turn in turns:
            allowed = turn.payload.get("allowed_mentions") or {}
            named = [int(u) for u in allowed.get("users", [])]
            if f"<@{ALICE.id}>, your turn" in turn.content:
                assert ALICE.id not in named, allowed
        assert ALICE.id in await table.service.quiet_players()
        await fake.slash(ALICE, "pings", on=True)
        assert ALICE.id not in await table.service.quiet_players()
        again = await table.service.storage.quiet.all()
        assert ALICE.id not in again
    finally:
        await close_table(table)


async def test_the_card_game_has_clocks_too(tmp_path: Path) -> None:
    """A card match with a live clock: the awaited player's deadline is stored with the move
    that starts their turn; when it passes the stand-in plays for them and counts a missed
    move; the card table shows the deadline."""
    from app.cardgame import CardMatchService
    from tests.bot.matchservice import ANN, BOB, GUILD

    now = [0.0]
    svc = await CardMatchService.open(tmp_path / "cc.sqlite3", renderer=None, clock=lambda: now[0])
    try:
        await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", 2, seed=3, clock="live")
        await svc.join(CHANNEL, BOB, "Bob")
        out = await svc.start(CHANNEL, ANN)
        assert out.deadline is not None
        pending = await svc.storage.timers.pending(out.match_id)
        assert [t.kind for t in pending] == [DEADLINE]
        late = pending[0].user_id
        assert await svc.due_timers(LIVE - 1) == []
        (due,) = await svc.due_timers(LIVE + 1)
        done = await svc.play_timeout(due.match_id, due.user_id, due.version)
        assert done is not None and done.missed == 1
        assert done.played.outcome.version > out.version
        seats = await svc.storage.matches.seats(out.match_id)
        assert next(s for s in seats if s.user_id == late).missed == 1
        # the tile game's scheduler never claims a card match's timers
        tiles = MatchService(svc.storage, renderer=None, animator=None)
        assert await tiles.due_timers(10**9) == []
    finally:
        await svc.close()


async def test_discord_runs_the_card_games_clock_through_the_same_scheduler(
    tmp_path: Path,
) -> None:
    """``/cardgame new clock:live``: the table shows the deadline; the tile game's scheduler
    fires the card game's timers too, and the stand-in's play is posted."""
    import time

    from tests.bot.cardtable import close_table as close_cards
    from tests.bot.cardtable import open_table as open_cards
    from tests.bot.tiletable import ALICE, BOB

    cards = await open_cards(tmp_path / "cl.sqlite3", [ALICE, BOB], set())
    try:
        fake = cards.fake
        new = await fake.slash(ALICE, "new", command="cardgame", clock="live")
        lobby = new.callback
        from tests.bot.cardtable import cid

        await fake.click(BOB, lobby.message_id or 0, cid(lobby, "join"))
        start = await fake.click(ALICE, lobby.message_id or 0, cid(lobby, "start"))
        tables = [r for r in start.requests if "⏰" in str((r.payload or {}).get("content"))]
        assert tables, "the table message shows the deadline"
        upkeep = fake.bot.get_cog("Carcassonne").upkeep  # type: ignore[union-attr]
        sent = await upkeep.fire(time.time() + LIVE + 5)
        assert sent >= 1
        said = [str((r.payload or {}).get("content", "")) for r in fake.requests]
        assert any("ran out of time; an AI played for them" in x for x in said)
    finally:
        await close_cards(cards)


async def test_the_card_game_can_vote_a_silent_seat_out_too(tmp_path: Path) -> None:
    from app.cardgame import CardMatchService
    from tests.bot.matchservice import ANN, BOB, GUILD

    now = [0.0]
    svc = await CardMatchService.open(tmp_path / "cv.sqlite3", renderer=None, clock=lambda: now[0])
    try:
        await svc.create_lobby(GUILD, CHANNEL, ANN, "Ann", 2, seed=3)
        await svc.join(CHANNEL, BOB, "Bob")
        out = await svc.start(CHANNEL, ANN)
        silent = out.awaiting_users[0]
        other = BOB if silent == ANN else ANN
        import time

        now[0] = time.time() + 301
        vote = await svc.vote_out(CHANNEL, other, silent)
        assert vote.outcome is not None  # one other person: one vote is a majority
        assert next(s for s in vote.outcome.seats if s.user_id == silent).controller
        played = await svc.play_controlled(out.match_id)
        assert played is not None
    finally:
        await svc.close()


async def test_vote_out_through_discord_answers_the_voter(tmp_path: Path) -> None:
    """Both games' ``vote_out`` share one body: a vote too soon is refused in one private
    line; in the card game, the single other player's vote hands the seat over at once."""
    from tests.bot.tiletable import ALICE, BOB, close_table, open_table

    table = await open_table(tmp_path / "vd.sqlite3")
    try:
        fake = table.fake
        await fake.slash(ALICE, "new")
        await fake.slash(BOB, "join")
        start = await fake.slash(ALICE, "start")
        silent, voter = (ALICE, BOB) if "<@101>" in start.channel_sends[0].content else (BOB, ALICE)
        res = await fake.slash(voter, "vote_out", player=silent)
        assert res.callback.ephemeral and "minutes on their move" in res.text(), res.text()
    finally:
        await close_table(table)
