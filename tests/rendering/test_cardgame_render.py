"""The card-game table and hand images, decoded and pixel-probed (real Pillow, real games)."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine.cardgame import (
    CardSetup,
    CardState,
    PlaceFollower,
    PlayCard,
    apply,
    legal_actions,
    new_game,
    public_view,
    seat_view,
)
from engine.cardgame.view import CardView, FollowerView
from rendering.cardgame import (
    BACK,
    CARD_FACE,
    ROW_COLOURS,
    card_colour,
    hand_layout,
    render_hand,
    render_table,
    table_layout,
)
from rendering.style import seat_style


def _img(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    return img.convert("RGB")


def _play_until(pred: object, *, players: int = 3, seed: int = 5, limit: int = 400) -> CardState:
    """Random legal moves until ``pred(state)`` holds."""
    st = new_game(CardSetup(players=players, names=("Ana", "Борис", "Zoë")[:players]), seed=seed)
    rnd = random.Random(seed)
    for _ in range(limit):
        if pred(st):  # type: ignore[operator]
            return st
        seat = min(st.awaiting)
        st = apply(st, seat, rnd.choice(legal_actions(st, seat))).state
    raise AssertionError("condition never reached")


def _has_down_up_and_follower(st: CardState) -> bool:
    view = public_view(st)
    items = [i for r in view.rows for i in r.items]
    return (
        any(isinstance(i, CardView) and i.face_down for i in items)
        and any(isinstance(i, CardView) and not i.face_down for i in items)
        and any(isinstance(i, FollowerView) for i in items)
    )


def test_table_shows_backs_faces_and_followers() -> None:
    st = _play_until(_has_down_up_and_follower)
    view = public_view(st)
    img = _img(render_table(view))
    assert img.width == 1000
    seen = {"back": 0, "face": 0, "follower": 0}
    for row, slots in zip(view.rows, table_layout(view), strict=True):
        for item, slot in zip(row.items, slots, strict=True):
            x0, y0, x1, y1 = slot.box
            cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
            if isinstance(item, FollowerView):
                # the follower figure in its seat's colour somewhere in its box
                fill = seat_style(int(item.seat)).fill
                crop = img.crop(slot.box)
                assert fill in {c for _, c in crop.getcolors(1 << 16) or []}
                seen["follower"] += 1
            elif item.face is None:
                assert img.getpixel((cx, cy)) == BACK, "a face-down card is a card back"
                seen["back"] += 1
            else:
                # the last card of a row is drawn whole: its colour band and white face show
                if slot is slots[-1]:
                    assert img.getpixel((x0 + 10, y0 + 10)) == card_colour(item.face)
                    assert img.getpixel((x0 + 8, y0 + CARD_FACE_PROBE)) == CARD_FACE
                assert img.getpixel((cx, cy)) != BACK
                seen["face"] += 1
    assert all(seen.values()), seen


CARD_FACE_PROBE = 80  # below the text, inside the white face


def test_row_labels_in_row_colours() -> None:
    view = public_view(new_game(CardSetup(players=2), seed=1))
    img = _img(render_table(view))
    for r, (colour, rgb) in enumerate(ROW_COLOURS.items()):
        y = 44 + r * (92 + 24) + 14
        assert img.getpixel((24, y)) == rgb, colour


def test_table_image_depends_on_the_public_view_only() -> None:
    """Two states that differ only in hidden information draw the same picture."""
    a = new_game(CardSetup(players=2), seed=1)
    seat = min(a.awaiting)
    down = [x for x in legal_actions(a, seat) if isinstance(x, PlayCard)]
    # two different cards played face down into the same row: same public view
    by_card: dict[str, PlayCard] = {}
    for x in down:
        if x.row.value == "red":
            by_card.setdefault(x.card, x)
    first, second = list(by_card.values())[:2]
    s1 = apply(a, seat, first).state
    s2 = apply(a, seat, second).state
    assert s1.hands != s2.hands
    assert public_view(s1) == public_view(s2)
    assert render_table(public_view(s1)) == render_table(public_view(s2))


def test_follower_moves_are_drawn() -> None:
    st = new_game(CardSetup(players=2), seed=1)
    seat = min(st.awaiting)
    st2 = apply(st, seat, PlaceFollower(next(iter(ROW_COLOURS)))).state
    assert render_table(public_view(st)) != render_table(public_view(st2))


def test_hand_image_shows_each_card_face() -> None:
    st = new_game(CardSetup(players=2), seed=1)
    seat = min(st.awaiting)
    sv = seat_view(st, seat)
    img = _img(render_hand(sv))
    boxes = hand_layout(len(sv.hand))
    assert len(boxes) == len(sv.hand) == 6
    for face, (x0, y0, _, _) in zip(sv.hand, boxes, strict=True):
        assert img.getpixel((x0 + 10, y0 + 10)) == card_colour(face)
        assert img.getpixel((x0 + 8, y0 + CARD_FACE_PROBE)) == CARD_FACE


def test_spanish_table_differs_only_in_words() -> None:
    view = public_view(new_game(CardSetup(players=2), seed=1))
    en, es = _img(render_table(view, "en")), _img(render_table(view, "es"))
    assert en.size == es.size
    assert en.tobytes() != es.tobytes()
