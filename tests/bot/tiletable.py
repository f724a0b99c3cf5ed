"""The tile game's table behind the fake Discord for the Discord tests: the real bot and
MatchService on a SQLite file (:class:`Table`, also reopened on the same file and messages as
after a restart), the players, and helpers that start a match through the lobby message, find
components on a message and check what a move posted (scores, the final message, PNGs)."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from app.matches import MatchService
from app.options import find_rule
from bot.app import CarcBot
from tests.fakediscord import FakeDiscord, Request, Result, User, walk_components

ALICE = User(101, "Alice")
BOB = User(202, "Bob")
EVE = User(303, "Eve")
PLAYERS = {u.id: u for u in (ALICE, BOB)}
PLAYERS_BY_NAME = {u.name: u for u in (ALICE, BOB)}


@dataclass
class Table:
    fake: FakeDiscord
    service: MatchService
    bot: CarcBot
    db: Path


async def open_table(
    db: Path, *, messages: FakeDiscord | None = None, writer: bool = False
) -> Table:
    """A bot on the fake Discord over the SQLite file ``db`` (``writer``: holding the file's
    writer lock as the real bot does, so its storage keeps what it read until it writes)."""
    service = await MatchService.open(db, writer=writer)
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
    found = [c["custom_id"] for c in walk_components(comps) if c.get("label") == label]
    assert found, f"no {label!r} in {[c.get('label') for c in walk_components(comps)]}"
    return found[0]


def buttons(msg: dict[str, object]) -> list[dict[str, str]]:
    """The enabled buttons of a stored message."""
    comps = msg.get("components") or []
    assert isinstance(comps, list)
    return [c for c in walk_components(comps) if c["type"] == 2 and not c.get("disabled")]


def select_id(msg: dict[str, object]) -> str:
    """The custom_id of a stored message's select."""
    comps = msg.get("components") or []
    assert isinstance(comps, list)
    return next(c["custom_id"] for c in walk_components(comps) if c["type"] == 3)


def _ids(msg: dict[str, object]) -> list[str]:
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


async def typed_move(fake: FakeDiscord, user: User, rng: random.Random) -> Result:
    """One move typed as ``/carcassonne place``, as a player does: the cell, the rotation and
    the follower each picked at random from what autocomplete offers."""
    cell = rng.choice(await fake.autocomplete(user, "place", "cell", cell=""))["value"]
    rots = await fake.autocomplete(user, "place", "rotation", cell=cell, rotation="")
    rot = rng.choice(rots)["value"]
    fols = await fake.autocomplete(user, "place", "follower", cell=cell, rotation=rot, follower="")
    return await fake.slash(
        user, "place", cell=cell, rotation=rot, follower=rng.choice(fols)["value"]
    )


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


def select_labels(msg: dict[str, object]) -> list[str]:
    """The option labels of a stored message's select."""
    comps = msg.get("components") or []
    assert isinstance(comps, list)
    for c in walk_components(comps):
        if c["type"] == 3:
            return [o["label"] for o in c["options"]]
    raise AssertionError("no select")


def select_options(msg: dict[str, object]) -> list[str]:
    """The option values of a stored message's select."""
    comps = msg.get("components") or []
    assert isinstance(comps, list)
    for c in walk_components(comps):
        if c["type"] == 3:
            return [o["value"] for o in c["options"]]
    raise AssertionError("no select")


def channel_of(req: Request) -> int:
    """The channel a message was posted in (``/channels/ID/messages``)."""
    return int(req.path.split("/")[2])
