"""Pictures of the card game: the table (four rows, card backs, followers, players) and a hand.

:func:`render_table` takes a :class:`CardPublicView` and nothing else, so the channel image
cannot show a hand or a face-down card: face-down cards are drawn as card backs because the
public view does not know their faces. :func:`render_hand` takes a seat's own
:class:`CardSeatView`; it is only ever sent to that player.

Geometry is exposed (:func:`table_layout`) so that tests can probe pixels of a given card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cardgame import CardFace, CardPublicView, CardSeatView, CardType, Colour
from engine.cardgame.cards import ROWS
from engine.cardgame.view import CardPlayerView, FollowerView
from engine.core.seats import Seat
from rendering.figures import draw_mark, meeple_sprite
from rendering.fonts import Fitted, draw_fitted, draw_text, fit_box, text_width
from rendering.frame import encode_png
from rendering.style import PANEL, RGB, TABLE, TEXT, TEXT_DIM, Mark, seat_style
from rendering.words import word

CARD_W, CARD_H = 64, 92
GAP = 8
ROW_H = CARD_H + 24
LABEL_W = 150
MARGIN = 16
HEADER_H = 44
#: a player's line: the name (and the score beside it) over the counts
PLAYER_H = 70
NAME_LINE = 34
NAME_X = MARGIN + 36
#: sizes of the header, the names, the counts and the scores: once the table is shown 400 px
#: wide the counts' digits stay 6 px high and the scores about 13 px
HEADER_SIZE = 24
NAME_SIZE = 26
INFO_SIZE = 21
SCORE_SIZE = 44
WINNER: RGB = (250, 200, 40)
WIDTH = 1000
FOLLOWER = 56
#: side of a follower's sprite: bigger than its slot, so it reads as a playing piece
FOLLOWER_SPRITE = 74

#: the colour of each row's board and of the cards of that colour
ROW_COLOURS: dict[Colour, RGB] = {
    Colour.YELLOW: (232, 190, 40),
    Colour.RED: (200, 52, 44),
    Colour.GREEN: (58, 150, 64),
    Colour.BLUE: (44, 96, 196),
}
JOKER_COLOUR: RGB = (128, 84, 170)
#: card backs: one colour for every face-down card (tests probe it)
BACK: RGB = (92, 56, 30)
BACK_PATTERN: RGB = (132, 88, 50)
CARD_FACE: RGB = (248, 244, 232)
#: the catalogue key of each card type's word (rendering/words.py), in the match language
_TYPE_WORD = {
    CardType.ANIMAL: "pic.cards.animal",
    CardType.BUILDING: "pic.cards.building",
    CardType.ANIMAL_JOKER: "pic.cards.animal_joker",
    CardType.BUILDING_JOKER: "pic.cards.building_joker",
    CardType.DRAGON: "pic.cards.dragon",
    CardType.FAIRY: "pic.cards.fairy",
}
#: the largest and smallest size of a card's word (it shrinks to fit the card)
WORD_SIZE, WORD_MIN = 12, 8


def row_word(colour: Colour, lang: str = "en") -> str:
    """The name of a row (``city`` / ``ciudad``)."""
    return word(f"pic.cards.row.{colour.value}", lang)


@dataclass(frozen=True, slots=True)
class Slot:
    """Where one row item is drawn: its box, and whether it is a card back / a follower."""

    box: tuple[int, int, int, int]
    back: bool
    follower: bool


def card_colour(face: CardFace) -> RGB:
    return ROW_COLOURS[face.colour] if face.colour is not None else JOKER_COLOUR


def _step(n_items: int) -> int:
    """Horizontal distance between items: cards overlap when a row grows long."""
    avail = WIDTH - LABEL_W - 2 * MARGIN - CARD_W
    if n_items <= 1:
        return CARD_W + GAP
    return max(14, min(CARD_W + GAP, avail // (n_items - 1)))


def table_layout(view: CardPublicView) -> list[list[Slot]]:
    """The box of every item of every row (rows in :data:`ROWS` order)."""
    out: list[list[Slot]] = []
    for r, row in enumerate(view.rows):
        y0 = HEADER_H + r * ROW_H + (ROW_H - CARD_H) // 2
        step = _step(len(row.items))
        slots = []
        for i, item in enumerate(row.items):
            x0 = MARGIN + LABEL_W + i * step
            if isinstance(item, FollowerView):
                fy = y0 + (CARD_H - FOLLOWER) // 2
                slots.append(Slot((x0, fy, x0 + FOLLOWER, fy + FOLLOWER), False, True))
            else:
                slots.append(Slot((x0, y0, x0 + CARD_W, y0 + CARD_H), item.face_down, False))
        out.append(slots)
    return out


@lru_cache(maxsize=1)
def _back_sprite() -> tuple[Image.Image, Image.Image]:
    """A card back (diagonal hatching, plain centre) and its rounded-corner mask."""
    card = Image.new("RGB", (CARD_W, CARD_H), BACK)
    d = ImageDraw.Draw(card)
    for k in range(-CARD_H, CARD_W, 12):
        d.line((k, CARD_H, k + CARD_H, 0), fill=BACK_PATTERN, width=2)
    cx, cy = CARD_W // 2, CARD_H // 2
    # the centre is left plain so that a probe there reads BACK
    d.rectangle((cx - 14, cy - 14, cx + 14, cy + 14), fill=BACK)
    d.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), radius=6, outline=(30, 20, 10), width=2)
    mask = Image.new("L", (CARD_W, CARD_H), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), radius=6, fill=255)
    return card, mask


def _draw_back(img: Image.Image, box: tuple[int, int, int, int]) -> None:
    card, mask = _back_sprite()
    img.paste(card, box[:2], mask)


def _draw_face(
    img: Image.Image, box: tuple[int, int, int, int], face: CardFace, lang: str = "en"
) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    colour = card_colour(face)
    d.rounded_rectangle(box, radius=6, fill=CARD_FACE, outline=colour, width=5)
    d.rectangle((x0 + 5, y0 + 5, x1 - 5, y0 + 18), fill=colour)
    cx = (x0 + x1) / 2
    if face.type is CardType.CHARACTER:
        draw_text(img, (cx, y0 + 54), str(face.value), 36, colour, bold=True, anchor="mm")
        return
    lines = word(_TYPE_WORD[face.type], lang).split("\n")
    room = x1 - x0 - 12
    size = WORD_SIZE
    while size > WORD_MIN and max(text_width(t, size, bold=True) for t in lines) > room:
        size -= 1
    for i, line in enumerate(lines):
        y = y0 + 52 + (i - (len(lines) - 1) / 2) * (size + 4)
        draw_text(img, (cx, y), line, size, (40, 40, 40), bold=True, anchor="mm")


def _draw_items(img: Image.Image, view: CardPublicView, lang: str = "en") -> None:
    for row, slots in zip(view.rows, table_layout(view), strict=True):
        for item, slot in zip(row.items, slots, strict=True):
            if isinstance(item, FollowerView):
                sprite = meeple_sprite(int(item.seat), FOLLOWER_SPRITE)
                img.paste(sprite, slot.box[:2], sprite)
            elif item.face is None:
                _draw_back(img, slot.box)
            else:
                _draw_face(img, slot.box, item.face, lang)


def _header(img: Image.Image, view: CardPublicView, lang: str) -> None:
    text = word(
        "pic.cards.round", lang, round=max(view.round, 1), rounds=view.rounds, pile=view.pile_left
    )
    if view.over:
        text = winner_words(view, lang)
    fitted = fit_box(text, WIDTH - 2 * MARGIN, HEADER_H, HEADER_SIZE, bold=True, max_lines=1)
    draw_fitted(img, (MARGIN, HEADER_H / 2), fitted, TEXT, anchor="lm")


def winner_words(view: CardPublicView, lang: str = "en") -> str:
    """The final picture's headline: the game is over and who won, with how many points."""
    names = {p.seat: p.name for p in view.players}
    winners = [names[s] for s in view.winners if s in names]
    if not winners:
        return word("pic.game_over", lang)
    best = max(p.score for p in view.players)
    if len(winners) == 1:
        return word("pic.cards.winner", lang, name=winners[0], score=best)
    listed = word("pic.cards.and", lang).join([", ".join(winners[:-1]), winners[-1]])
    return word("pic.cards.winners", lang, names=listed, score=best)


def _rows(img: Image.Image, view: CardPublicView, lang: str) -> None:
    d = ImageDraw.Draw(img)
    for r, colour in enumerate(ROWS):
        y0 = HEADER_H + r * ROW_H
        d.rectangle((0, y0 + 2, WIDTH, y0 + ROW_H - 2), fill=PANEL)
        d.rectangle(
            (MARGIN, y0 + 8, MARGIN + LABEL_W - 16, y0 + ROW_H - 8), fill=ROW_COLOURS[colour]
        )
        label = row_word(colour, lang)
        draw_text(
            img,
            (MARGIN + 10, y0 + ROW_H / 2),
            label,
            18,
            (255, 255, 255),
            bold=True,
            anchor="lm",
            stroke=2,
            stroke_fill=(20, 20, 20),
        )
    if view.over and not any(row.items for row in view.rows):
        # the rules take the cards left in the rows off the table at the end (RULES §17.5)
        note = fit_box(
            word("pic.cards.rows_cleared", lang),
            WIDTH - LABEL_W - 3 * MARGIN,
            ROW_H,
            INFO_SIZE,
            max_lines=2,
        )
        x = MARGIN + LABEL_W + (WIDTH - LABEL_W - 2 * MARGIN) / 2
        draw_fitted(img, (x, HEADER_H + 2 * ROW_H), note, TEXT_DIM, anchor="mm")


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """Where one player's line of the table is drawn: its box, its name laid out (whole
    words), the box of its score (in big figures) and of its line of counts."""

    seat: Seat
    box: tuple[int, int, int, int]
    name: Fitted
    score_box: tuple[int, int, int, int]
    info: Fitted
    winner: bool


def player_order(view: CardPublicView) -> list[CardPlayerView]:
    """The players as their lines are listed: in seat order, or at the end by the result
    (winners first, then by score)."""
    if not view.over:
        return list(view.players)
    winners = set(view.winners)
    return sorted(view.players, key=lambda p: (p.seat not in winners, -p.score, int(p.seat)))


def players_layout(view: CardPublicView, lang: str = "en") -> list[PlayerLine]:
    """Each player's line under the rows: the seat's mark, the name, the score in big figures
    at the right and the counts (hand, animals, chest, follower) under the name; sized to be
    read once the picture is shown 400 px wide."""
    top = HEADER_H + 4 * ROW_H + 8
    winners = set(view.winners) if view.over else set()
    out = []
    for i, p in enumerate(player_order(view)):
        y0 = top + i * PLAYER_H
        score = str(p.score)
        sw = round(text_width(score, SCORE_SIZE, bold=True))
        score_box = (WIDTH - MARGIN - sw, y0 + 4, WIDTH - MARGIN, y0 + PLAYER_H - 4)
        room = score_box[0] - NAME_X - 52  # the winner's star stands before the score
        turn = "» " if p.seat in view.awaiting and not view.over else ""
        name = fit_box(f"{turn}{p.name}", room, NAME_LINE, NAME_SIZE, bold=True, max_lines=1)
        animals = sum(a.cards for a in p.animals) + p.unassigned_jokers
        info = word(
            "pic.cards.counts",
            lang,
            hand=p.hand_size,
            animals=animals,
            chest=p.chest_size,
            row=row_word(p.follower_row, lang) if p.follower_row else "—",
        )
        counts = fit_box(info, room, PLAYER_H - NAME_LINE - 4, INFO_SIZE, max_lines=1)
        box = (0, y0, WIDTH, y0 + PLAYER_H)
        out.append(PlayerLine(p.seat, box, name, score_box, counts, p.seat in winners))
    return out


def _players(img: Image.Image, view: CardPublicView, lang: str) -> None:
    d = ImageDraw.Draw(img)
    scores = {p.seat: p.score for p in view.players}
    for n, line in enumerate(players_layout(view, lang)):
        x0, y0, x1, y1 = line.box
        if n % 2 == 0:
            d.rectangle((x0, y0, x1, y1 - 1), fill=PANEL)
        style = seat_style(int(line.seat))
        mid = y0 + NAME_LINE / 2 + 4
        rim = (235, 235, 235) if sum(style.fill) < 160 else (20, 20, 20)
        draw_mark(d, style.mark, MARGIN + 14, mid, 15, rim)  # shows black on the dark table
        draw_mark(d, style.mark, MARGIN + 14, mid, 12, style.fill)
        draw_fitted(img, (NAME_X, mid), line.name, TEXT, anchor="lm")
        draw_fitted(img, (NAME_X, mid + NAME_LINE / 2 + 14), line.info, TEXT_DIM, anchor="lm")
        sx0, sy0, sx1, sy1 = line.score_box
        if line.winner:  # a gold star before the winner's score
            draw_mark(d, Mark.STAR, sx0 - 24, (sy0 + sy1) / 2, 17, (20, 20, 20))
            draw_mark(d, Mark.STAR, sx0 - 24, (sy0 + sy1) / 2, 14, WINNER)
        colour = WINNER if line.winner else TEXT
        score = str(scores[line.seat])
        draw_text(img, (sx1, (sy0 + sy1) / 2), score, SCORE_SIZE, colour, bold=True, anchor="rm")


def render_table(view: CardPublicView, lang: str = "en") -> bytes:
    """The table as PNG: header (at the end: who won), the four rows (backs for face-down
    cards), the players with their scores in big figures (at the end: by the result)."""
    return encode_png(table_image(view, lang))


def table_image(view: CardPublicView, lang: str = "en") -> Image.Image:
    """The picture :func:`render_table` encodes."""
    players_y = HEADER_H + 4 * ROW_H + 8
    height = players_y + len(view.players) * PLAYER_H + MARGIN
    img = Image.new("RGB", (WIDTH, height), TABLE)
    _header(img, view, lang)
    _rows(img, view, lang)
    _draw_items(img, view, lang)
    _players(img, view, lang)
    return img


def hand_layout(cards: int) -> list[tuple[int, int, int, int]]:
    """The box of each card of a hand image, left to right."""
    return [
        (MARGIN + i * (CARD_W + GAP), MARGIN, MARGIN + i * (CARD_W + GAP) + CARD_W, MARGIN + CARD_H)
        for i in range(cards)
    ]


def render_hand(view: CardSeatView, lang: str = "en") -> bytes:
    """A seat's hand face up (sent only to that seat), its words in ``lang``."""
    faces: Sequence[CardFace] = view.hand
    boxes = hand_layout(len(faces))
    width = max(2 * MARGIN + len(faces) * (CARD_W + GAP), 200)
    img = Image.new("RGB", (width, CARD_H + 2 * MARGIN), TABLE)
    for face, box in zip(faces, boxes, strict=True):
        _draw_face(img, box, face, lang)
    return encode_png(img)


__all__ = [
    "BACK",
    "PlayerLine",
    "Slot",
    "card_colour",
    "hand_layout",
    "player_order",
    "players_layout",
    "render_hand",
    "render_table",
    "row_word",
    "table_image",
    "table_layout",
    "winner_words",
]
