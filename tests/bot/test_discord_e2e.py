"""The Discord front end end to end: the real discord.py bot, the real MatchService on a real
SQLite file, no network (tests/fakediscord.py, ECOSYSTEM.md §2.3).

Whole 2-player games are played through the slash command (values picked from autocomplete) and
through the buttons and selects; a match survives a restart; every refusal a player can cause
gets its ephemeral answer.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from bot.app import CarcBot
from bot.services import matches
from bot.services.matches import MatchService
from bot.services.options import find_rule
from engine import Pass, PlaceTile
from tests.fakediscord import (
    AUTOCOMPLETE_RESULT,
    DEFERRED_CHANNEL_MESSAGE,
    EPHEMERAL,
    FakeDiscord,
    Request,
    Result,
    User,
)

ALICE = User(101, "Alice")
BOB = User(202, "Bob")
EVE = User(303, "Eve")
PLAYERS = {u.id: u for u in (ALICE, BOB)}
#: the match seed of the whole game through buttons (its board grows past 25 legal cells)
BUTTONS_SEED = 2


@dataclass
class Table:
    fake: FakeDiscord
    service: MatchService
    bot: CarcBot
    db: Path


async def open_table(db: Path, *, messages: FakeDiscord | None = None) -> Table:
    service = await MatchService.open(db)
    bot = CarcBot(service, background_tasks=False)
    fake = FakeDiscord(bot)
    if messages is not None:  # a restart: Discord still has the old messages
        fake.messages = messages.messages
        fake.attachments = messages.attachments
        fake._ids = messages._ids
    await fake.start()
    return Table(fake, service, bot, db)


async def close_table(t: Table) -> None:
    await t.fake.close()
    await t.service.close()


# ------------------------------------------------------------------------------ helpers
def png_of(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    assert min(img.size) >= 64, img.size
    # a drawing, not a blank canvas: the channels vary across the picture
    assert any(lo != hi for lo, hi in img.convert("RGB").getextrema())
    return img


def cid(req: Request | dict[str, object], action: str) -> str:
    ids = req.custom_ids() if isinstance(req, Request) else _ids(req)
    found = [c for c in ids if c.split(":")[3] == action]
    assert found, f"no {action!r} component in {ids}"
    return found[0]


def labelled(req: Request | dict[str, object], label: str) -> str:
    """The custom_id of the (first) component labelled ``label``."""
    data = req.data if isinstance(req, Request) else req
    comps = data.get("components") or []
    assert isinstance(comps, list)
    from tests.fakediscord import walk_components

    found = [c["custom_id"] for c in walk_components(comps) if c.get("label") == label]
    assert found, f"no {label!r} in {[c.get('label') for c in walk_components(comps)]}"
    return found[0]


def buttons(msg: dict[str, object]) -> list[dict[str, str]]:
    """The enabled buttons of a stored message."""
    from tests.fakediscord import walk_components

    comps = msg.get("components") or []
    assert isinstance(comps, list)
    return [c for c in walk_components(comps) if c["type"] == 2 and not c.get("disabled")]


def select_id(msg: dict[str, object]) -> str:
    """The custom_id of a stored message's select."""
    from tests.fakediscord import walk_components

    comps = msg.get("components") or []
    assert isinstance(comps, list)
    return next(c["custom_id"] for c in walk_components(comps) if c["type"] == 3)


def _ids(msg: dict[str, object]) -> list[str]:
    from tests.fakediscord import walk_components

    comps = msg.get("components") or []
    assert isinstance(comps, list)
    return [c["custom_id"] for c in walk_components(comps)]


def whose_turn(turn: Request) -> User:
    ids = re.findall(r"<@(\d+)>", turn.content)
    assert ids, turn.content
    return PLAYERS[int(ids[-1])]


async def choose_expansions(
    fake: FakeDiscord, user: User, lobby_id: int, expansions: Sequence[str]
) -> Result:
    """Pick ``expansions`` in the lobby message's expansions select (as ``user``)."""
    return await fake.click(
        user, lobby_id, cid(fake.message(lobby_id), "exps"), values=[*expansions]
    )


async def choose_rule(
    fake: FakeDiscord, user: User, lobby_id: int, key: str, value: object
) -> Result:
    """Open the rule ``key`` from the lobby's Rules select and press the button of ``value``."""
    opened = await fake.click(user, lobby_id, cid(fake.message(lobby_id), "rule"), values=[key])
    picker = opened.callback
    assert picker.ephemeral, picker.text()
    rule = find_rule(key)
    assert rule is not None
    index = next(i for i, c in enumerate(rule.choices) if type(c) is type(value) and c == value)
    button = next(c for c in picker.custom_ids() if c.endswith(f":ruleset:{key}:{index}"))
    return await fake.click(user, picker.message_id or 0, button)


async def start_match(
    fake: FakeDiscord,
    *,
    expansions: Sequence[str] = (),
    rules: dict[str, object] | None = None,
    **options: object,
) -> Request:
    """/carcassonne new, the host picks the expansions and rules on the lobby message, Bob
    presses Join, Alice presses Start: returns the first turn message."""
    new = await fake.slash(ALICE, "new", **options)
    lobby = new.callback
    assert lobby.callback_type == 4 and not lobby.ephemeral
    assert "Join" in str(lobby.data["components"])
    if expansions:
        await choose_expansions(fake, ALICE, lobby.message_id or 0, expansions)
    for key, value in (rules or {}).items():
        await choose_rule(fake, ALICE, lobby.message_id or 0, key, value)
    join = await fake.click(BOB, lobby.message_id or 0, cid(lobby, "join"))
    assert join.callback.callback_type == 7  # the lobby message itself is updated
    assert "<@202>" in join.callback.text()
    start = await fake.click(ALICE, lobby.message_id or 0, cid(lobby, "start"))
    assert len(start.channel_sends) == 1, start.requests
    turn = start.channel_sends[0]
    assert turn.custom_ids(), "the turn message has buttons"
    return turn


def score_lines(text: str) -> dict[str, int]:
    """Points per player name summed over every scoring line: ``**names** +N — reason``, or
    ``**a** +N, **b** +M — reason`` when winners of one scoring got different points."""
    out: dict[str, int] = {}
    for line in text.splitlines():
        who, sep, _ = line.partition(" — ")
        if not sep or not who.startswith("**"):
            continue
        for names, pts in re.findall(r"\*\*([^*]+)\*\* \+(\d+)", who):
            for n in names.split(", "):
                out[n] = out.get(n, 0) + int(pts)
    return out


def posted(res: Result) -> Request:
    """The one message a move posts in the channel. After the last move the final board comes
    first and the replay animation follows in a message of its own (the move never waits for
    the animation)."""
    sends = res.channel_sends
    assert sends, res.text()
    if "🏁" in sends[0].content:
        assert len(sends) == 2, res.text()
        assert [name for name, _ in sends[0].files if name.endswith(".gif")] == []
        assert [name for name, _ in sends[1].files] == ["replay.gif"]
    else:
        assert len(sends) == 1, res.text()
    return sends[0]


def assert_final(sends: list[Request], announced: dict[str, int], table: dict[str, int]) -> None:
    """The final message (table, winners, board PNG, record; scores add up), then the replay."""
    final, replay = sends
    text = final.text()
    assert "final scores" in text and "🏁" in final.content
    for name, score in table.items():
        assert re.search(rf"{name} — \*\*{score}\*\*", text), (name, score, text)
        assert announced.get(name, 0) == score, (announced, table)
    best = max(table.values())
    for name, score in table.items():
        if score == best:
            assert str(PLAYERS_BY_NAME[name].id) in final.content
    png_of(final.file("board.png"))
    gif = Image.open(io.BytesIO(replay.file("replay.gif")))
    assert gif.format == "GIF" and getattr(gif, "n_frames", 1) > 10, "one frame per turn"
    record = json.loads(final.file(".json"))
    assert record["setup"]["players"] == 2
    assert not final.custom_ids(), "no buttons on the final message"


PLAYERS_BY_NAME = {u.name: u for u in (ALICE, BOB)}


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
    paged = previews = 0
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
            assert _select_labels(msg)[0] == "Cell 26"
            paged += 1
        cells = [b for b in buttons(msg) if b["label"].startswith("Cell ")]
        if one_cell:
            pass
        elif cells:
            res = await fake.click(user, pid, rng.choice(cells)["custom_id"])
        else:
            value = rng.choice(_select_options(msg))
            res = await fake.click(user, pid, select_id(msg), values=[value])
        msg = fake.message(pid)
        if "Put a figure" not in msg["content"]:
            rots = [b for b in buttons(msg) if b["label"].endswith("°")]
            assert 2 <= len(rots) <= 4, msg["content"]
            png_of((picker if one_cell else res.last).file("choices.png"))  # each way turned
            previews += 1
            res = await fake.click(user, pid, rng.choice(rots)["custom_id"])
            msg = fake.message(pid)
        assert "Put a figure on the tile" in msg["content"] and "So far: x " in msg["content"]
        spots = [b for b in buttons(msg) if b["label"] not in ("Back", "No follower")]
        assert all(re.match(r"[A-Z] · ", b["label"]) for b in spots), spots
        pick = rng.choice([*spots, *[b for b in buttons(msg) if b["label"] == "No follower"]])
        res = await fake.click(user, pid, pick["custom_id"])
        turn = posted(res)
        assert "Done" in fake.message(pid)["content"]
        for name, pts in score_lines(turn.text()).items():
            announced[name] = announced.get(name, 0) + pts
    else:
        pytest.fail("the game did not end")
    assert paged and previews > 10, (paged, previews)
    outcome = await table.service.match(1)
    assert_final(res.channel_sends, announced, {p.name: p.score for p in outcome.view.players})


def _select_labels(msg: dict[str, object]) -> list[str]:
    from tests.fakediscord import walk_components

    comps = msg.get("components") or []
    assert isinstance(comps, list)
    for c in walk_components(comps):
        if c["type"] == 3:
            return [o["label"] for o in c["options"]]
    raise AssertionError("no select")


def _select_options(msg: dict[str, object]) -> list[str]:
    from tests.fakediscord import walk_components

    comps = msg.get("components") or []
    assert isinstance(comps, list)
    for c in walk_components(comps):
        if c["type"] == 3:
            return [o["value"] for o in c["options"]]
    raise AssertionError("no select")


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
        before = (await t2.service.current(_chan(turn), render=False)).version
        user = whose_turn(turn)
        opened = await t2.fake.click(user, turn.message_id or 0, labelled(turn, "Place tile"))
        picker = opened.followups[0]
        pid = picker.message_id or 0
        msg = t2.fake.message(pid)
        cells = [b for b in buttons(msg) if b["label"].startswith("Cell ")]
        if cells:
            await t2.fake.click(user, pid, cells[0]["custom_id"])
        else:
            await t2.fake.click(user, pid, select_id(msg), values=[_select_options(msg)[0]])
        msg = t2.fake.message(pid)
        rots = [b for b in buttons(msg) if b["label"].endswith("°")]
        if rots:
            await t2.fake.click(user, pid, rots[0]["custom_id"])
        res = await t2.fake.click(user, pid, labelled(t2.fake.message(pid), "No follower"))
        assert len(res.channel_sends) == 1
        after = await t2.service.current(_chan(turn), render=False)
        assert after.version == before + 2  # place + pass, both stored
    finally:
        await close_table(t2)


def _chan(req: Request) -> int:
    return int(req.path.split("/")[2])


async def test_restart_recovery_posts_a_board_that_was_never_posted(tmp_path: Path) -> None:
    db = tmp_path / "carc.sqlite3"
    t1 = await open_table(db)
    try:
        turn = await start_match(t1.fake)
        user = whose_turn(turn)
        # the move is stored, then the process dies before posting the new board
        outcome = await t1.service.current(_chan(turn), render=False)
        pos, rots = next(iter(outcome.placements.items()))
        await t1.service.submit(_chan(turn), user.id, [PlaceTile(pos, rots[0]), Pass()])
    finally:
        await close_table(t1)
    t2 = await open_table(db, messages=t1.fake)
    try:
        n = len(t2.fake.requests)
        await t2.fake.ready()
        posted = [r for r in t2.fake.requests[n:] if r.method == "POST"]
        assert len(posted) == 1 and posted[0].path.endswith("/messages")
        assert "your turn" in posted[0].content
        again = await t2.service.current(_chan(turn), render=False)
        assert again.turn_message_id == posted[0].message_id
        await t2.fake.ready()  # a second READY (reconnect) posts nothing new
        assert len([r for r in t2.fake.requests[n:] if r.method == "POST"]) == 1
    finally:
        await close_table(t2)


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
    assert (await table.service.current(_chan(turn), render=False)).version == 0


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
    before = (await table.service.current(_chan(turn), render=False)).version
    first, second = await asyncio.gather(
        fake.click(user, turn.message_id or 0, no_follower),
        fake.click(user, turn.message_id or 0, no_follower),
    )
    sends = [r for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")]
    boards = [r for r in sends if r.message_id and r.message_id > (turn.message_id or 0)]
    assert len(boards) == 1, [b.content for b in boards]
    assert (await table.service.current(_chan(turn), render=False)).version == before + 1
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
        offered = _select_labels(msg)
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


async def test_start_reports_missing_channel_permissions(table: Table) -> None:
    fake = table.fake
    await fake.slash(ALICE, "new")
    await fake.slash(BOB, "join")
    fake.app_permissions = 0x400 | 0x800  # view channel + send messages only
    res = await fake.slash(ALICE, "start")
    assert res.last.ephemeral
    assert "Attach Files" in res.last.text() and "Embed Links" in res.last.text()
    assert not res.channel_sends


async def test_turn_reminder_mentions_the_player(tmp_path: Path) -> None:
    clock = [1000.0]
    service = await MatchService.open(tmp_path / "carc.sqlite3", clock=lambda: clock[0])
    bot = CarcBot(service, background_tasks=False)
    fake = FakeDiscord(bot)
    await fake.start()
    try:
        turn = await start_match(fake, reminder_minutes=5)
        cog = bot.get_cog("carcassonne") or bot.cogs["Carcassonne"]
        assert await cog.send_reminders(clock[0] + 60) == 0  # type: ignore[attr-defined]
        n = len(fake.requests)
        assert await cog.send_reminders(clock[0] + 301) == 1  # type: ignore[attr-defined]
        sent = fake.requests[n]
        player = whose_turn(turn)
        assert f"<@{player.id}>" in sent.content and "still your turn" in sent.content
        assert str(turn.message_id) in sent.content
        assert await cog.send_reminders(clock[0] + 400) == 0  # type: ignore[attr-defined]
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
