"""Messages: each player's two scoring figures in the score strip and the message in play,
from the public view (``view.track`` holds each messenger; ``view.ext["dispatches"]`` the message
drawn):

* **the score strip**: on its own line of each player's chip, the main figure (a meeple) and
  the messenger (a meeple in a dress with a letter on it), each standing on a pale plate (a
  space of the track, so neither reads as a follower in the supply) with its points; the
  chip's score is their sum (RULES.md §7);
* **the message in play**: a strip under the board with a letter sealed in red wax, the
  message's number and name in the picture's language and, below, in the other one (a drawn
  message is shown to everyone in both languages).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.carcassonne.expansions.dispatches.model import ID, MESSENGER, NAMES
from engine.carcassonne.view import PublicView
from engine.core.seats import Seat
from rendering import style as st
from rendering.figures import SS, meeple, outline_colour
from rendering.fonts import SPACING, draw_fitted, fit_box
from rendering.header import scale_of
from rendering.overlays import Overlay, PanelItem
from rendering.style import seat_style

#: the letter's paper, its ink and the wax seal
PAPER = (246, 238, 214)
PAPER_INK = (96, 78, 50)
WAX = (178, 24, 36)
#: the strip: padding, text size and the letter's height (unscaled px, as the score strip)
PAD = 12
STRIP_TEXT = 24
LETTER = 64


def messenger_points(view: PublicView, seat: Seat) -> int | None:
    """The points on ``seat``'s messenger (``None``: no messenger on the track)."""
    for f in view.track:
        if f.seat == seat and f.kind == MESSENGER:
            return int(f.value)
    return None


def figure_points(view: PublicView, seat: Seat) -> tuple[int, int] | None:
    """(main figure, messenger) of ``seat``, or ``None`` without a messenger."""
    on = messenger_points(view, seat)
    if on is None:
        return None
    score = next((p.score for p in view.players if p.seat == seat), 0)
    return score - on, on


def _letter(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], w: int) -> None:
    """A folded letter in ``box`` with a red wax seal on its flap."""
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=PAPER, outline=PAPER_INK, width=w)
    mx, my = (x0 + x1) / 2, y0 + (y1 - y0) * 0.58
    d.line([(x0, y0), (mx, my), (x1, y0)], fill=PAPER_INK, width=w)
    r = (y1 - y0) * 0.2
    d.ellipse(
        (mx - r, my - r, mx + r, my + r), fill=WAX, outline=(90, 10, 16), width=max(1, w // 2)
    )


def messenger_icon(seat: int, size: int) -> Image.Image:
    """The messenger: the seat's meeple in a dress, a white letter on it, ``size`` px square."""
    style = seat_style(seat)
    size = max(1, size)
    body = meeple(style, size).resize((size * SS, size * SS), Image.Resampling.LANCZOS)
    big = size * SS
    d = ImageDraw.Draw(body)
    w = max(2, big // 14)
    dress = [(0.5 * big, 0.36 * big), (0.9 * big, 0.98 * big), (0.1 * big, 0.98 * big)]
    d.polygon(dress, fill=(*style.fill, 255), outline=outline_colour(style), width=w)
    _letter(d, (0.3 * big, 0.62 * big, 0.7 * big, 0.88 * big), max(1, w // 2))
    return body.resize((size, size), Image.Resampling.LANCZOS)


def on_track(figure: Image.Image) -> Image.Image:
    """``figure`` standing on a space of the scoring track (a pale plate under its feet), so a
    scoring figure is not read as a follower in the supply."""
    size = figure.size[0]
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0.02 * big, 0.72 * big, 0.98 * big, 0.98 * big),
        radius=big // 8,
        fill=(*PAPER, 255),
        outline=(*PAPER_INK, 255),
        width=max(1, big // 24),
    )
    body = figure.resize((round(big * 0.82), round(big * 0.82)), Image.Resampling.LANCZOS)
    img.alpha_composite(body, (round(big * 0.09), 0))
    return img.resize((size, size), Image.Resampling.LANCZOS)


def letter_icon(size: int) -> Image.Image:
    """A letter sealed in red wax, ``size`` px high (1.4 × as wide)."""
    h = max(1, size) * SS
    img = Image.new("RGBA", (round(h * 1.4), h), (0, 0, 0, 0))
    _letter(ImageDraw.Draw(img), (SS, SS, img.size[0] - SS, h - SS), max(2, h // 16))
    return img.resize((round(size * 1.4), size), Image.Resampling.LANCZOS)


def card_lines(card: str, lang: str) -> tuple[str, str]:
    """The message's number and name in ``lang``, then in the other language."""
    en, es = NAMES[card]
    first, second = f"Message {card}: {en}", f"Despacho {card}: {es}"
    return (second, first) if str(lang).lower().startswith("es") else (first, second)


def card_in_play(view: PublicView) -> str | None:
    model: Any = view.ext.get(ID)
    card = getattr(model, "card", None)
    return card if isinstance(card, str) and card in NAMES else None


def message_strip(view: PublicView, width: int, lang: str = "en") -> Image.Image | None:
    """The message in play under the board (``None`` when none is out): the sealed letter and
    two lines, scaled with the picture's width as the score strip is (it reads on a phone)."""
    card = card_in_play(view)
    if card is None:
        return None
    k = scale_of(width)

    def sc(v: float) -> int:
        return max(1, round(v * k))

    line_h = sc(STRIP_TEXT * SPACING)
    height = max(sc(LETTER), 2 * line_h) + 2 * sc(PAD)
    img = Image.new("RGB", (width, height), st.PANEL)
    icon = letter_icon(sc(LETTER))
    img.paste(icon, (sc(PAD), (height - icon.size[1]) // 2), icon)
    x = 2 * sc(PAD) + icon.size[0]
    top = (height - 2 * line_h) / 2
    for i, (text, bold) in enumerate(zip(card_lines(card, lang), (True, False), strict=True)):
        fitted = fit_box(text, width - x - sc(PAD), line_h, sc(STRIP_TEXT), bold=bold, max_lines=1)
        draw_fitted(img, (x, top + line_h * (i + 0.5)), fitted, st.TEXT, anchor="lm")
    return img


class MessagesOverlay(Overlay):
    id = ID
    words = frozenset({"messenger", "despacho"})

    def panel_items(self, view: PublicView, seat: Seat, icon: int) -> Sequence[PanelItem] | None:
        """Both scoring figures of ``seat`` with their points (none once they are added up)."""
        points = figure_points(view, seat)
        if points is None:
            return None
        main, on = points
        figures = (meeple(seat_style(int(seat)), icon), messenger_icon(int(seat), icon))
        return [(on_track(figures[0]), main), (on_track(figures[1]), on)]

    def strip(self, view: PublicView, width: int, lang: str = "en") -> Image.Image | None:
        return message_strip(view, width, lang)


OVERLAY = MessagesOverlay()
