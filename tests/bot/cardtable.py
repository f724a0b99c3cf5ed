"""The card game's table behind the fake Discord, for the card-game bot tests:
:class:`CardDiscord` (FakeDiscord plus DM channels; a closed DM answers 403 / 50007), a
:class:`Table` of the real bot, both services and the card cog on one SQLite file, and
:class:`Driver`, which plays whole games through slash commands, the table buttons, the hand DM
and the My hand reply (the shared decision pickers), choosing among the legal moves like a
player would."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from PIL import Image

from app.cardgame import CardMatchService
from app.choices import Token, keyref, walk
from app.matches import MatchService
from bot.app import CarcBot
from engine.cardgame import CardAction, LayJoker, PlaceFollower, PlayCard, seat_view
from engine.cardgame.cards import FACES
from engine.cardgame.state import CardState
from engine.core import messages
from engine.core.decisions import Decision
from tests.fakediscord import (
    DEFAULT_CHANNEL,
    FakeDiscord,
    Request,
    Result,
    User,
    route_params,
    walk_components,
)

ALICE = User(101, "Alice")
BOB = User(202, "Bob", locale="es-ES")
CAROL = User(404, "Carol")
EVE = User(303, "Eve")


class _Resp:
    status = 403
    reason = "Forbidden"


class CardDiscord(FakeDiscord):
    """FakeDiscord with DM channels: ``POST /users/@me/channels`` opens one per user, and a
    message to the DM channel of a user in ``closed`` answers 403 (code 50007)."""

    def __init__(
        self, bot: Any, users: list[User], closed: set[int], *, wire: bool = False
    ) -> None:
        super().__init__(bot, wire=wire)
        self.users = {u.id: u for u in users}
        self.closed = closed
        self.dm_channel: dict[int, int] = {}  # user id -> DM channel id
        self.dm_attempts: dict[int, int] = {}  # user id -> DM sends tried

    def user_of_dm(self, channel_id: int) -> int | None:
        for uid, cid in self.dm_channel.items():
            if cid == channel_id:
                return uid
        return None

    def dms(self, user_id: int) -> list[dict[str, Any]]:
        cid = self.dm_channel.get(user_id)
        return [] if cid is None else self.channel_messages(cid)

    async def _rest(self, route: Any, *, files: Any = None, form: Any = None, **kw: Any) -> Any:
        if route.path == "/users/@me/channels" and route.method == "POST":
            uid = int(kw["json"]["recipient_id"])
            self.requests.append(Request("POST", "/users/@me/channels", kw["json"], []))
            cid = self.dm_channel.setdefault(uid, self.next_id())
            user = self.users.get(uid, User(uid, f"user{uid}"))
            return {"id": str(cid), "type": 1, "recipients": [user.payload()]}
        if route.path == "/channels/{channel_id}/messages" and route.method == "POST":
            uid = self.user_of_dm(int(route_params(route)["channel_id"]))
            if uid is not None:
                self.dm_attempts[uid] = self.dm_attempts.get(uid, 0) + 1
                if uid in self.closed:
                    self.requests.append(Request("POST", "dm-refused", kw.get("json"), []))
                    raise discord.Forbidden(
                        _Resp(),  # type: ignore[arg-type]
                        {"code": 50007, "message": "Cannot send messages to this user"},
                    )
        return await super()._rest(route, files=files, form=form, **kw)


@dataclass
class Table:
    fake: CardDiscord
    tiles: MatchService
    cards: CardMatchService
    bot: CarcBot
    cog: Any  # bot.cogs.cardgame.CardGame


async def open_table(
    db: Path,
    users: list[User],
    closed: set[int],
    *,
    old: CardDiscord | None = None,
    renderer: Any = None,
    seed: int = 1,
    wire: bool = False,
) -> Table:
    tiles = await MatchService.open(db, renderer=None, animator=None)
    bot = CarcBot(tiles, background_tasks=False)
    cards = CardMatchService(tiles.storage, seeds=lambda: seed)
    if renderer is not None:
        cards.renderer = renderer
    bot.card_service = cards  # type: ignore[attr-defined]
    fake = CardDiscord(bot, users, closed, wire=wire)
    if old is not None:  # a restart: Discord keeps its messages and DM channels
        fake.messages, fake.attachments, fake._ids = old.messages, old.attachments, old._ids
        fake.dm_channel, fake.dm_attempts = old.dm_channel, old.dm_attempts
        fake.requests = old.requests
    await fake.start()
    if "bot.cogs.cardgame" not in bot.extensions:  # the bot loads it with its EXTENSIONS
        await bot.load_extension("bot.cogs.cardgame")
    cog = bot.get_cog("CardGame")
    # load_extension imports the module afresh, so compare by name
    assert type(cog).__name__ == "CardGame"
    return Table(fake, tiles, cards, bot, cog)


async def close_table(t: Table) -> None:
    await t.fake.close()
    await t.tiles.close()


def ids(msg: Request | dict[str, Any]) -> list[str]:
    if isinstance(msg, Request):
        return msg.custom_ids()
    return [c["custom_id"] for c in walk_components(msg.get("components") or [])]


def cid(msg: Request | dict[str, Any], action: str, arg: str | None = None) -> str:
    for c in ids(msg):
        parts = c.split(":")
        if parts[3] == action and (arg is None or ":".join(parts[4:]) == arg):
            return c
    raise AssertionError(f"no {action}:{arg} in {ids(msg)}")


def png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    return img.convert("RGB")


def table_posts(res: Result) -> list[Request]:
    """Table messages the bot posted in the game channel during ``res``."""
    return [
        r
        for r in res.channel_sends
        if r.path == f"/channels/{DEFAULT_CHANNEL}/messages" and r.data.get("embeds")
    ]


@dataclass
class Driver:
    """Plays a card match through Discord, choosing random legal moves (each player sees only
    their own view to choose: ``seat_view``)."""

    t: Table
    users: list[User]
    rnd: random.Random
    table_msg: Request | None = None
    moves: int = 0
    history: list[tuple[CardState, CardState, CardAction, Result]] = field(default_factory=list)
    via: dict[str, int] = field(default_factory=dict)
    match_id: int = 0

    @property
    def fake(self) -> CardDiscord:
        return self.t.fake

    async def state(self) -> CardState:
        loaded = await self.t.cards.store.load(self.match_id)
        return loaded.game

    async def user_of(self, seat: int) -> User:
        seats = await self.t.cards.storage.seats(self.match_id)
        uid = next(s.user_id for s in seats if s.seat == seat)
        return next(u for u in self.users if u.id == uid)

    def _note(self, res: Result) -> None:
        posts = table_posts(res)
        if posts:
            self.table_msg = posts[-1]

    async def lobby_and_start(self) -> Result:
        host, *others = self.users
        new = await self.fake.slash(host, "new", command="cardgame", players=len(self.users))
        lobby = new.callback
        assert lobby.callback_type == 4 and not lobby.ephemeral
        for u in others:
            res = await self.fake.click(u, lobby.message_id or 0, cid(lobby, "join"))
            assert res.callback.callback_type == 7
        self.match_id = int(cid(lobby, "start").split(":")[1])
        start = await self.fake.click(host, lobby.message_id or 0, cid(lobby, "start"))
        self._note(start)
        assert self.table_msg is not None, start.requests
        return start

    async def step(self) -> Result:
        """One move by one awaited seat, through a randomly chosen front door."""
        before = await self.state()
        seat = min(before.awaiting)
        user = await self.user_of(seat)
        sv = seat_view(before, seat)
        action = self.rnd.choice(sv.legal)
        res = await self._do(user, action, seat)
        after = await self.state()
        assert after.version == before.version + 1, (action, res.text())
        self.history.append((before, after, action, res))
        self._note(res)
        self.moves += 1
        return res

    async def _do(self, user: User, action: CardAction, seat: int) -> Result:
        fake, msg = self.fake, self.table_msg
        assert msg is not None and msg.message_id is not None
        way = self.rnd.random() < 0.5
        st = await self.state()
        decision = next(d for d in seat_view(st, seat).own_decisions if action in d.actions())
        if isinstance(action, PlayCard):
            if way:
                self.via["slash-play"] = self.via.get("slash-play", 0) + 1
                choices = await fake.autocomplete(user, "play", "card", command="cardgame", card="")
                assert action.card in [c["value"] for c in choices]
                rows = await fake.autocomplete(
                    user, "play", "row", command="cardgame", card=action.card, row=""
                )
                assert action.row.value in [c["value"] for c in rows]
                return await fake.slash(
                    user, "play", command="cardgame", card=action.card, row=action.row.value
                )
            assert decision.private, "the card to play is a private decision"
            assert not [c for c in ids(msg) if keyref(decision.key) in c], "not on the table"
            dms = fake.dms(user.id)
            if dms and any(keyref(decision.key) in c for c in ids(dms[-1])):
                self.via["dm-play"] = self.via.get("dm-play", 0) + 1
                return await self.answer(user, int(dms[-1]["id"]), decision, action)
            self.via["hand-play"] = self.via.get("hand-play", 0) + 1
            hand = await fake.click(user, msg.message_id, cid(msg, "hand"))
            assert hand.last.ephemeral and hand.last.files, "the hand keeps its picture"
            res = await self.answer(user, hand.last.message_id or 0, decision, action)
            res.requests[:0] = hand.requests
            return res
        if isinstance(action, PlaceFollower) and way:
            self.via["slash-claim"] = self.via.get("slash-claim", 0) + 1
            rows = await fake.autocomplete(user, "claim", "row", command="cardgame", row="")
            assert action.row.value in [c["value"] for c in rows]
            return await fake.slash(user, "claim", command="cardgame", row=action.row.value)
        assert not decision.private
        name = {PlaceFollower: "button-claim", LayJoker: "lay"}.get(type(action), "choice")
        self.via[name] = self.via.get(name, 0) + 1
        return await self.answer(user, msg.message_id, decision, action)

    async def answer(
        self, user: User, message_id: int, decision: Decision, action: CardAction
    ) -> Result:
        """Open ``decision``'s picker from its button on a message, then answer it question
        by question (the path of ``action``'s option), confirming a select's answer."""
        fake = self.fake
        ref = f":{keyref(decision.key)}:"
        opener = next(
            c for c in ids(fake.message(message_id)) if c.startswith("cardd:") and ref in c
        )
        results = [await fake.click(user, message_id, opener)]
        option = next(o for o in decision.options if o.action == action)
        path: tuple[Token, ...] = ()
        picker = next(r for r in results[0].messages if r.message_id and r.custom_ids())
        pid = picker.message_id or 0
        assert int(fake.message(pid).get("flags", 0)) & 64, "a picker is for its player alone"
        for _ in range(8):
            comps = list(walk_components(fake.message(pid).get("components") or []))
            if not comps:
                break  # answered: the picker says "Done"
            assert all(c["custom_id"].startswith(("cardd:", "cardds:")) for c in comps)
            confirm = [c for c in comps if c["custom_id"].split(":")[4] == "s"]
            if confirm:
                results.append(await fake.click(user, pid, confirm[0]["custom_id"]))
                continue
            q = walk(decision, path).question()
            if q.facet is not None:
                value = option.facet(q.facet)
                assert value is not None
                token = Token("v", q.values.index(value))
            else:
                token = Token("o", list(q.options).index(option))
            path = (*path, token)
            want = ".".join(t.text() for t in path)
            button = [c for c in comps if c["type"] == 2 and c["custom_id"].split(":")[5] == want]
            if button:
                results.append(await fake.click(user, pid, button[0]["custom_id"]))
                continue
            select = next(
                c
                for c in comps
                if c["type"] == 3 and any(o["value"] == token.text() for o in c["options"])
            )
            results.append(await fake.click(user, pid, select["custom_id"], values=[token.text()]))
        else:
            raise AssertionError("the picker never ended")
        res = results[-1]
        res.requests[:0] = [r for x in results[:-1] for r in x.requests]
        return res


def card_names() -> dict[str, str]:
    """Each card's name in English and in Spanish -> its code (cards are named in words)."""
    return {
        messages.text(f"cards.name.{f.code}", lang): f.code for f in FACES for lang in ("en", "es")
    }


def hand_codes(text: str) -> list[str]:
    """The codes of the cards a hand message lists by name (``🟦 blue character 2, …``)."""
    line = next((ln for ln in text.splitlines() if ln.startswith(("**Hand:**", "**Mano:**"))), "")
    listed = line.partition(":**")[2].strip()
    if listed in ("empty", "vacía"):
        return []
    names = card_names()
    out = []
    for shown in filter(None, (c.strip() for c in listed.split(","))):
        name = shown.split(" ", 1)[1] if " " in shown else shown  # after the colour mark
        assert name in names, (name, line)
        out.append(names[name])
    return out
