"""The card game in Discord end to end: the real discord.py bot, the real CardMatchService on a
real SQLite file, DMs through the recorded HTTP layer (one player's DMs answer 403 / 50007;
the table and the driver: tests/bot/cardtable.py).
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.choices import keyref
from engine.cardgame import public_view, seat_view
from tests.bot.cardtable import (
    ALICE,
    BOB,
    EVE,
    Driver,
    Table,
    cid,
    close_table,
    hand_codes,
    ids,
    open_table,
    png,
    table_posts,
)
from tests.fakediscord import DEFAULT_CHANNEL, EPHEMERAL


@pytest.fixture
async def duo(tmp_path: Path) -> AsyncIterator[Table]:
    t = await open_table(tmp_path / "cards.sqlite3", [ALICE, BOB, EVE], {BOB.id})
    try:
        yield t
    finally:
        await close_table(t)


# ------------------------------------------------------------------------------ tests
async def test_whole_game_with_dms_and_a_closed_dm_player(tmp_path: Path) -> None:
    """A 2-player game from /cardgame new to the final scoring, with a restart in the middle.
    Alice reads her hand by DM after every change; Bob's DMs are closed: one failed DM, one
    notice in the channel, then his hand through the ephemeral My hand button."""
    db = tmp_path / "cards.sqlite3"
    t = await open_table(db, [ALICE, BOB, EVE], {BOB.id})
    d = Driver(t, [ALICE, BOB], random.Random(7))
    try:
        start = await d.lobby_and_start()
        notices = [
            r for r in start.channel_sends if "<@202>" in r.content and "My hand" in r.text()
        ]
        # Bob's interface language is Spanish, but the notice follows the match language
        assert len(notices) == 1
        assert t.fake.dm_attempts[BOB.id] == 1
        alice_dms = t.fake.dms(ALICE.id)
        st = await d.state()
        alice_seat = 0 if (await d.user_of(0)).id == ALICE.id else 1
        assert st.hands[alice_seat], "seed 1 deals at once (no setup joker)"
        assert alice_dms and alice_dms[-1]["attachments"], "Alice got her hand with its image"
        assert f"<#{DEFAULT_CHANNEL}>" in alice_dms[-1]["content"], "the DM names its table"
        assert sorted(hand_codes(alice_dms[-1]["content"])) == sorted(
            f.code for f in seat_view(st, alice_seat).hand
        )
        img = png(t.fake.attachments[alice_dms[-1]["attachments"][0]["url"]])
        assert img.width > 100
        while not (await d.state()).over:
            await d.step()
            if d.moves == 60:  # restart: a new bot and service on the same database
                old = t.fake
                await close_table(t)
                t = await open_table(db, [ALICE, BOB, EVE], {BOB.id}, old=old)
                d.t = t
            if d.moves % 25 == 0:
                st = await d.state()
                bob_seat = 1 - alice_seat
                hand = await t.fake.click(
                    BOB, d.table_msg.message_id or 0, cid(d.table_msg, "hand")
                )  # type: ignore[union-attr]
                answer = hand.last
                assert answer.ephemeral
                assert sorted(hand_codes(answer.content)) == sorted(
                    f.code for f in seat_view(st, bob_seat).hand
                ), "Bob's ephemeral hand is his current hand"
                # Alice's latest DM shows her current hand
                assert sorted(hand_codes(t.fake.dms(ALICE.id)[-1]["content"])) == sorted(
                    f.code for f in seat_view(st, alice_seat).hand
                )
        final = table_posts(d.history[-1][3])[-1]
        assert "Final scoring" in final.text() and "🏆" in final.text()
        assert not final.custom_ids(), "the final table has no buttons"
        st = await d.state()
        assert st.over and st.round == st.rounds
        for p, s in zip(st.setup.names, st.scores, strict=True):
            assert f"{p}: **{s}**" in final.text()
        standings = final.text().split("Standings")[1]
        best = max(range(2), key=lambda s: (st.scores[s], len(st.chests[s])))
        first = f"1. {'🔴🔵'[best]} {st.setup.names[best]} — **{st.scores[best]}**"
        assert first in standings, standings
        assert f"🏠 {len(st.chests[best])}" in standings
        # DMs: never retried for Bob (after the restart the snapshot remembers him too)
        assert t.fake.dm_attempts[BOB.id] == 1
        assert not t.fake.dms(BOB.id)
        assert len(t.fake.dms(ALICE.id)) > 20
        all_notices = [
            m
            for m in t.fake.channel_messages()
            if "<@202>" in (m["content"] or "")
            and ("My hand" in m["content"] or "Mi mano" in m["content"])
        ]
        assert len(all_notices) == 1
        ways = {"slash-play", "dm-play", "hand-play", "slash-claim", "button-claim", "choice"}
        assert ways <= set(d.via), d.via
    finally:
        await close_table(t)


async def test_refusals(duo: Table) -> None:
    """Not a player, not your turn, stale button, wrong row, a match already running."""
    t = duo
    d = Driver(t, [ALICE, BOB], random.Random(3))
    await d.lobby_and_start()
    st = await d.state()
    while st.step != "play":
        await d.step()
        st = await d.state()
    msg = d.table_msg
    assert msg is not None and msg.message_id is not None
    mover = await d.user_of(min(st.awaiting))
    other = BOB if mover is ALICE else ALICE
    # a match already running (either game)
    again = await t.fake.slash(EVE, "new", command="cardgame")
    assert again.callback.ephemeral and "already open" in again.callback.content
    tile = await t.fake.slash(EVE, "new")
    assert tile.callback.ephemeral and "already" in tile.callback.content
    # the mover's follower: a public decision on the table, drawn by the shared presenter
    fol = next(d for d in seat_view(st, min(st.awaiting)).own_decisions if not d.private)
    fol_button = next(c for c in ids(msg) if c.startswith("cardd:") and keyref(fol.key) in c)
    # not a player
    res = await t.fake.click(EVE, msg.message_id, fol_button)
    assert res.callback.ephemeral and "not a player" in res.callback.content
    res = await t.fake.slash(EVE, "hand", command="cardgame")
    assert "not a player" in res.last.content
    # not your turn (Bob reads Spanish)
    res = await t.fake.click(other, msg.message_id, fol_button)
    assert res.callback.ephemeral and f"<@{mover.id}>" in res.callback.content
    res = await t.fake.slash(other, "claim", command="cardgame", row="red")
    assert f"<@{mover.id}>" in res.last.content
    # the engine's reason for a row nobody has, in each player's language
    res = await t.fake.slash(BOB, "claim", command="cardgame", row="púrpura")
    assert "'púrpura' no es una fila; usa amarillo (claustro)" in res.last.content
    res = await t.fake.slash(ALICE, "claim", command="cardgame", row="purple")
    assert "'purple' is not a row; use yellow (cloister)" in res.last.content
    # wrong row: once a seat has played its face-down card, coloured cards go to their row
    while True:
        seat = min(st.awaiting)
        sv = seat_view(st, seat)
        coloured = [f for f in sv.hand if f.colour is not None]
        if st.step == "play" and not sv.next_card_face_down and coloured:
            break
        await d.step()
        st = await d.state()
    user = await d.user_of(seat)
    f = coloured[0]
    assert f.colour is not None
    wrong = next(c for c in ("yellow", "red", "green", "blue") if c != f.colour.value)
    before = st.version
    res = await t.fake.slash(user, "play", command="cardgame", card=f.code, row=wrong)
    answer = res.last
    assert answer.ephemeral
    assert ("cannot go in" in answer.content) or ("no puede ir" in answer.content), answer.content
    assert not table_posts(res), "nothing was posted in the channel"
    assert (await d.state()).version == before, "the refused move was not stored"
    rows = await t.fake.autocomplete(user, "play", "row", command="cardgame", card=f.code, row="")
    assert [c["value"] for c in rows] == [f.colour.value], "autocomplete offers the legal row only"
    # the card autocomplete offers the user's own hand, nobody else's
    mine = await t.fake.autocomplete(user, "play", "card", command="cardgame", card="")
    assert {c["value"] for c in mine} == {x.code for x in sv.hand}
    other_user = BOB if user is ALICE else ALICE
    assert await t.fake.autocomplete(other_user, "play", "card", command="cardgame", card="") == []
    # a stale button: the play button of a hand shown before the seat moved
    msg = d.table_msg
    assert msg is not None
    hand = (await t.fake.click(user, msg.message_id or 0, cid(msg, "hand"))).last
    play = next(c for c in ids(hand) if c.startswith("cardd:"))
    await d.step()
    res = await t.fake.click(user, hand.message_id or 0, play)
    answer = res.last
    assert answer.ephemeral
    assert ("out of date" in answer.content) or ("desactualizada" in answer.content), answer.content
    # My hand is never stale
    res = await t.fake.click(ALICE, msg.message_id or 0, cid(msg, "hand"))
    assert res.last.ephemeral and "**Hand:**" in res.last.content
    # abandon: only the host or a manager
    host = await t.cards.lobby(DEFAULT_CHANNEL)
    not_host = BOB if host.host_id == ALICE.id else ALICE
    res = await t.fake.slash(not_host, "abandon", command="cardgame")
    refusal = res.callback
    assert refusal.ephemeral
    assert ("host" in refusal.content) or ("anfitrión" in refusal.content), refusal.content
    host_user = ALICE if host.host_id == ALICE.id else BOB
    res = await t.fake.slash(host_user, "abandon", command="cardgame")
    assert not res.callback.ephemeral
    gone = (await t.fake.slash(ALICE, "hand", command="cardgame")).last
    assert gone.ephemeral and "no card game" in gone.content


async def test_rules_and_score(duo: Table) -> None:
    t = duo
    res = await t.fake.slash(ALICE, "rules", command="cardgame")
    text = res.callback.text()
    assert res.callback.ephemeral and "1→3*" in text and "2→6 ·" in text and "assumed" in text
    es = await t.fake.slash(BOB, "rules", command="cardgame")
    assert "supuesto" in es.callback.text()
    none = await t.fake.slash(ALICE, "score", command="cardgame")
    assert "no card game" in none.callback.content
    d = Driver(t, [ALICE, BOB], random.Random(5))
    await d.lobby_and_start()
    for _ in range(30):
        await d.step()
    st = await d.state()
    res = await t.fake.slash(ALICE, "score", command="cardgame")
    for name, score in zip(st.setup.names, st.scores, strict=True):
        assert f"{name}: **{score}**" in res.callback.text()
    assert bool(res.callback.data["flags"] & EPHEMERAL)


async def test_cardgame_commands_fit_discord_and_speak_spanish(duo: Table) -> None:
    """The /cardgame group within Discord's limits, every name and description in Spanish,
    and the tile game's command keeps its own translations."""
    tree = duo.bot.tree
    translator = tree.translator
    assert translator is not None
    group = tree.get_command("cardgame")
    assert group is not None
    payload = await group.get_translated_payload(tree, translator)
    subs = {o["name"] for o in payload["options"]}
    assert subs == {"new", "join", "leave", "start", "abandon", "play", "claim", "hand",
                    "score", "rules", "vote_out"}  # fmt: skip

    def walk(node: dict[str, Any]) -> Any:
        yield node
        for o in node.get("options", []):
            yield from walk(o)

    for node in walk(payload):
        assert re.fullmatch(r"[-_a-z0-9]{1,32}", node["name"]), node["name"]
        assert 1 <= len(node["description"]) <= 100
        assert len(node.get("options", [])) <= 25
        es = node["name_localizations"].get("es-ES")
        assert es and re.fullmatch(r"[-_a-zà-ÿ0-9]{1,32}", es), node["name"]
        assert 1 <= len(node["description_localizations"].get("es-ES", "")) <= 100, node["name"]
    tile = tree.get_command("carcassonne")
    assert tile is not None
    tile_payload = await tile.get_translated_payload(tree, translator)
    assert tile_payload["name_localizations"]["es-ES"] == "carcassonne"
    new = next(o for o in tile_payload["options"] if o["name"] == "new")
    assert new["description_localizations"]["es-ES"].startswith("Abre una mesa nueva de Carc")


async def test_restart_reposts_a_table_that_was_not_posted(tmp_path: Path) -> None:
    """A move stored but not announced (crash before posting) is posted on the next start."""
    db = tmp_path / "cards.sqlite3"
    t = await open_table(db, [ALICE, BOB], set())
    d = Driver(t, [ALICE, BOB], random.Random(2))
    try:
        await d.lobby_and_start()
        await d.step()
        # a move made straight through the service: stored, never posted
        st = await d.state()
        seat = min(st.awaiting)
        action = seat_view(st, seat).legal[0]
        user = await d.user_of(seat)
        await t.cards.submit(d.match_id, user.id, action)
        old = t.fake
        await close_table(t)
        t = await open_table(db, [ALICE, BOB], set(), old=old)
        before = len(t.fake.requests)
        await t.fake.ready()
        posts = [
            r
            for r in t.fake.requests[before:]
            if r.path == f"/channels/{DEFAULT_CHANNEL}/messages" and r.data.get("embeds")
        ]
        assert len(posts) == 1
        now = await t.cards.match(d.match_id)
        keys = {keyref(x.key) for x in now.view.decisions}
        shown = {c.split(":")[2] for c in posts[0].custom_ids() if c.startswith("cardd:")}
        assert shown == keys, "the table shows the decisions open now"
        before = len(t.fake.requests)
        await t.fake.ready()  # already posted: nothing more
        assert not [r for r in t.fake.requests[before:] if r.path.startswith("/channels/")]
    finally:
        await close_table(t)


async def test_a_double_click_moves_once(duo: Table) -> None:
    """Two clicks of the same follower row in its picker arrive together: one move, one
    "out of date" (the answer closed the decision's key)."""
    t = duo
    d = Driver(t, [ALICE, BOB], random.Random(9))
    await d.lobby_and_start()
    st = await d.state()
    while st.step != "play" or st.follower_row[min(st.awaiting)] is not None:
        await d.step()
        st = await d.state()
    user = await d.user_of(min(st.awaiting))
    msg = d.table_msg
    assert msg is not None and msg.message_id is not None
    fol = next(x for x in seat_view(st, min(st.awaiting)).own_decisions if not x.private)
    opener = next(c for c in ids(msg) if c.startswith("cardd:") and keyref(fol.key) in c)
    picker = (await t.fake.click(user, msg.message_id, opener)).last
    pid = picker.message_id or 0
    red = next(o for o in fol.options if o.id == "red")
    button = next(c for c in ids(picker) if c.endswith(f":g:o{fol.options.index(red)}"))
    first, second = await asyncio.gather(
        t.fake.click(user, pid, button), t.fake.click(user, pid, button)
    )
    after = await d.state()
    assert after.version == st.version + 1
    # what each clicker was told (the channel's sends made meanwhile land in either result,
    # in whatever order a loaded machine runs the two clicks)
    texts = [
        " ".join(m.content for m in r.messages if m not in r.channel_sends) for r in (first, second)
    ]
    stale = ("out of date", "desactualizada")
    assert sum(any(s in x for s in stale) for x in texts) == 1, texts
    # concurrent results share the channel sends made meanwhile: count distinct messages
    posted = {r.message_id for r in table_posts(first) + table_posts(second)}
    assert len(posted) == 1


async def test_the_dealer_lays_a_setup_joker_by_slash_command(tmp_path: Path) -> None:
    """Seed 2 turns up a joker during setup: only the dealer is offered it, and
    ``/cardgame play card:<joker> row:<row>`` lays it (a public choice)."""
    t = await open_table(tmp_path / "c.sqlite3", [ALICE, BOB], set(), seed=2)
    d = Driver(t, [ALICE, BOB], random.Random(1))
    try:
        await d.lobby_and_start()
        st = await d.state()
        assert st.step == "setup"
        dealer = await d.user_of(st.dealer)
        other = BOB if dealer is ALICE else ALICE
        joker = seat_view(st, st.dealer).public.setup_joker
        assert joker is not None
        offered = await t.fake.autocomplete(dealer, "play", "card", command="cardgame", card="")
        assert [c["value"] for c in offered] == [joker.code]
        assert await t.fake.autocomplete(other, "play", "card", command="cardgame", card="") == []
        rows = await t.fake.autocomplete(
            dealer, "play", "row", command="cardgame", card=joker.code, row=""
        )
        assert [c["value"] for c in rows] == ["yellow", "red", "green", "blue"]
        res = await t.fake.slash(dealer, "play", command="cardgame", card=joker.code, row="green")
        after = await d.state()
        assert after.version == st.version + 1
        post = table_posts(res)[-1]
        # the card is named in words, never by its code
        assert f"🃏 {joker.describe()} laid in 🟩 field" in post.text(), post.text()
        assert f"`{joker.code}`" not in post.text()
        green = public_view(after).rows[2]
        assert joker in [getattr(item, "face", None) for item in green.items]
    finally:
        await close_table(t)


async def test_lobby_join_leave_full_and_host_only_start(duo: Table) -> None:
    t = duo
    new = await t.fake.slash(ALICE, "new", command="cardgame", players=2)
    lobby = new.callback
    mid = lobby.message_id or 0
    res = await t.fake.click(BOB, mid, cid(lobby, "join"))
    assert "(2/2)" in res.callback.text()
    full = await t.fake.click(EVE, mid, cid(lobby, "join"))
    assert full.callback.ephemeral and "full" in full.callback.content
    early = await t.fake.click(BOB, mid, cid(lobby, "start"))
    assert early.last.ephemeral and "anfitrión" in early.last.content  # Bob reads Spanish
    left = await t.fake.click(BOB, mid, cid(lobby, "leave"))
    assert left.callback.callback_type == 7 and "(1/2)" in left.callback.text()
    alone = await t.fake.click(ALICE, mid, cid(lobby, "start"))
    assert alone.last.ephemeral and "At least 2" in alone.last.content
    assert not table_posts(alone)
    await t.fake.slash(EVE, "join", command="cardgame")
    started = await t.fake.slash(ALICE, "start", command="cardgame")
    assert len(table_posts(started)) == 1
    late = await t.fake.click(BOB, mid, cid(lobby, "join"))
    assert late.callback.ephemeral and "cerrada" in late.callback.content
