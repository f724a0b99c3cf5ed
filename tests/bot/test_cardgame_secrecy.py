"""No message, image or log line in the channel reveals a hand or a face-down card.

Whole random games are played through Discord (tests/bot/test_cardgame_e2e.py's driver). After
every move the test collects what the channel can see — every non-ephemeral message text and
embed, every attachment — and checks:

* every card named there is visible in the public view (before or after the move) or named by
  the engine's public events; a face-down play never names its card unless a copy of it lies
  face up anyway;
* the table renderer is only ever handed a ``CardPublicView``, and each channel image is
  byte-identical to rendering the public view of that version, with a card back (pixel probe)
  on every face-down card;
* DMs go to their owner's DM channel only and show exactly that seat's hand;
* no log record names any card.
"""

from __future__ import annotations

import io
import logging
import random
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine.cardgame import (
    CardPublicView,
    CardSeatView,
    PlayCard,
    apply,
    public_view,
    seat_view,
)
from engine.cardgame.cards import FACE_BY_CODE
from engine.cardgame.events import (
    CardPlayed,
    CardsCollected,
    ChoiceMade,
    ChoiceNeeded,
    JokerTurnedUp,
    PointsScored,
    SetupCardLaid,
)
from rendering.cardgame import BACK, render_table, table_layout
from tests.bot.cardtable import (
    ALICE,
    BOB,
    CAROL,
    EVE,
    Driver,
    Table,
    card_names,
    close_table,
    hand_codes,
    open_table,
)
from tests.fakediscord import DEFAULT_CHANNEL, EPHEMERAL, Request

#: every way a card is named in a message: its code (typed), or its name in English or
#: Spanish (shown) -> its code
NAMES = {**{c: c for c in FACE_BY_CODE}, **card_names()}
CODE_RE = re.compile("|".join(re.escape(c) for c in sorted(NAMES, key=len, reverse=True)))


def named(text: str) -> set[str]:
    """Codes of the cards named in ``text`` by code or by name (longest first, so
    ``animal-joker`` is not ``animal``)."""
    return {NAMES[found] for found in CODE_RE.findall(text)}


def public_faces(view: CardPublicView) -> set[str]:
    out = set()
    for row in view.rows:
        for item in row.items:
            face = getattr(item, "face", None)
            if face is not None:
                out.add(face.code)
    for _, faces in view.collected:
        out.update(f.code for f in faces)
    for p in view.players:
        out.update(f.code for f in p.chest)
    out.update(p.card for p in view.pending)
    if view.setup_joker is not None:
        out.add(view.setup_joker.code)
    for a in view.awards:
        out.update(a.item.cards)
    return out


def event_faces(events: Any) -> set[str]:
    out: set[str] = set()
    for e in events:
        if isinstance(e, CardPlayed) and e.card is not None:
            out.add(e.card)
        elif isinstance(e, CardsCollected):
            out.update(e.cards)
        elif isinstance(e, SetupCardLaid | JokerTurnedUp | ChoiceNeeded | ChoiceMade):
            out.add(e.card)
        elif isinstance(e, PointsScored):
            out.update(e.award.item.cards)
    return out


def channel_visible(t: Table, r: Request) -> bool:
    """Whether ``r`` created or changed a message everyone in the game channel can see."""
    if r.message_id is None:
        return False
    msg = t.fake.messages.get(r.message_id)
    if msg is None:
        return False
    eph = int(msg.get("flags", 0) or 0) & EPHEMERAL
    return int(msg["channel_id"]) == DEFAULT_CHANNEL and not eph


class RecordingRenderer:
    """The real table renderer, refusing anything but a public view."""

    def __init__(self) -> None:
        self.views: list[CardPublicView] = []

    def __call__(self, view: CardPublicView, lang: str = "en") -> bytes:
        assert isinstance(view, CardPublicView) and not isinstance(view, CardSeatView)
        self.views.append(view)
        return render_table(view, lang)


@pytest.mark.parametrize(
    ("players", "seed", "closed"),
    [(2, 4, {BOB.id}), (3, 2, {CAROL.id})],
)
async def test_no_secret_reaches_the_channel(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    players: int,
    seed: int,
    closed: set[int],
) -> None:
    caplog.set_level(logging.DEBUG)
    users = [ALICE, BOB, CAROL][:players]
    renderer = RecordingRenderer()
    t = await open_table(
        tmp_path / "s.sqlite3", [*users, EVE], closed, renderer=renderer, seed=seed
    )
    d = Driver(t, users, random.Random(seed))
    hidden_plays = down_plays = 0
    images = 0
    try:
        start = await d.lobby_and_start()
        st = await d.state()
        pub0 = public_view(st)
        for r in start.requests:
            if channel_visible(t, r):
                assert named(r.text()) <= public_faces(pub0)
        while not (await d.state()).over:
            await d.step()
            before, after, action, res = d.history[-1]
            pub_before, pub_after = public_view(before), public_view(after)
            allowed_views = public_faces(pub_before) | public_faces(pub_after)
            tr = apply(before, min(before.awaiting), action)
            allowed = allowed_views | event_faces(tr.events)
            seat = min(before.awaiting)
            face_down = isinstance(action, PlayCard) and before.played[seat] == 0
            if face_down:
                down_plays += 1
                if action.card not in allowed_views:  # type: ignore[union-attr]
                    hidden_plays += 1
            for r in res.requests:
                if not channel_visible(t, r):
                    continue
                text = r.text()
                assert named(text) <= allowed, (action, named(text) - allowed, text)
                if face_down:
                    assert action.card not in named(text) or action.card in allowed_views  # type: ignore[union-attr]
                for name, data in r.files:
                    assert name == "table.png", f"only the table image goes to the channel: {name}"
                    assert data == render_table(pub_after, "en"), "image = public view rendered"
                    images += 1
                    img = Image.open(io.BytesIO(data)).convert("RGB")
                    for row, slots in zip(pub_after.rows, table_layout(pub_after), strict=True):
                        for item, slot in zip(row.items, slots, strict=True):
                            if getattr(item, "face_down", False):
                                x0, y0, x1, y1 = slot.box
                                centre = ((x0 + x1) // 2, (y0 + y1) // 2)
                                assert img.getpixel(centre) == BACK
            # DMs: each to its owner only, showing that seat's hand
            for r in res.requests:
                if r.message_id is None or r.method != "POST":
                    continue
                msg = t.fake.messages.get(r.message_id)
                owner = t.fake.user_of_dm(int(msg["channel_id"])) if msg else None
                if owner is None:
                    continue
                assert owner not in closed
                if not r.path.startswith("/channels/"):
                    continue  # a picker opened from the DM's button: the reply to its owner
                seat_users = [(await d.user_of(s)).id for s in range(players)]
                owner_seat = seat_users.index(owner)
                assert sorted(hand_codes(r.content)) == sorted(
                    f.code for f in seat_view(after, owner_seat).hand
                )
        final = await d.state()
        assert down_plays == final.rounds * players, "every seat's first card went face down"
        # a card with no face-up copy on the table is the sharpest test of a leak
        assert hidden_plays >= 2, "the game had face-down cards with no public twin"
        assert images >= d.moves, "every move posted a table image"
        assert renderer.views, "the service rendered through the recording renderer"
        for rec in caplog.records:
            assert not named(rec.getMessage()), f"log names a card: {rec.getMessage()[:200]}"
    finally:
        await close_table(t)
