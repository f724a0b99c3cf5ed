"""The final board's breakdown: each player's points by score category, under the board.

Columns come from the score items generically: the base categories (roads, cities, cloisters,
farms) always, then every other category an award names (an expansion's goods ...), titled by
its ``score.<category>`` message key (:func:`rendering.words.category_word`), then the total.
Points are summed from every award of the game when the caller has them (``GameState.awards``),
else from the awards in the events given; whatever the awards do not explain goes to "Other",
so a row always adds up to the player's score.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.carcassonne.events import Event, PointsScored
from engine.carcassonne.scoring import Award
from engine.carcassonne.view import PublicView
from rendering import style as st
from rendering.figures import draw_mark
from rendering.fonts import Fitted, draw_fitted, draw_text, fit_box, text_width
from rendering.header import scale_of
from rendering.words import BASE_CATEGORIES, category_word, word

HEAD_H = 40
ROW_H = 50
PAD = 12
HEAD_SIZE = 20
NUM_SIZE = 30
TOTAL_SIZE = 34
NAME_SIZE = 24
ROW_BG: st.RGB = (44, 48, 56)


def breakdown_height(view: PublicView, width: int = 0) -> int:
    """Height of the breakdown of ``view``'s players on a picture ``width`` px wide (it scales
    like the score strip, :func:`rendering.header.scale_of`)."""
    return round((PAD + HEAD_H + ROW_H * len(view.players) + PAD) * scale_of(width))


def columns(width: int, n_cats: int) -> tuple[int, float]:
    """The width of the names' column and of each points column (``n_cats`` categories and
    the total) of a breakdown ``width`` px wide."""
    k = scale_of(width)
    name_w = max(round(160 * k), int(width * 0.28))
    return name_w, (width - name_w - 2 * round(PAD * k)) / (n_cats + 1)


def heads_fit(titles: Sequence[str], col_w: float, k: float) -> list[Fitted]:
    """The columns' titles, each in its column, all at one size: the largest at which every
    title fits one line, else the smallest title size with the titles that need it on two
    lines; never cut mid-word (:func:`rendering.fonts.fit_box`)."""
    size, least = round(HEAD_SIZE * k), round(15 * k)
    room, high = col_w - 4, HEAD_H * k
    while size > least and any(text_width(t, size, bold=True) > room for t in titles):
        size -= 1
    return [fit_box(t, room, high, size, bold=True) for t in titles]


def name_fit(name: str, room: float, k: float) -> Fitted:
    """A player's name in ``room`` px of its row: one line, smaller, or two lines."""
    return fit_box(name, room, (ROW_H - 6) * k, round(NAME_SIZE * k), min_size=round(18 * k))


def breakdown(
    view: PublicView, awards: Sequence[Award] | None, events: Sequence[Event] = ()
) -> tuple[list[str], dict[int, dict[str, int]]]:
    """The categories (in column order) and each seat's points per category."""
    if awards is None:
        awards = [a for e in events if isinstance(e, PointsScored) for a in e.awards]
    per: dict[int, dict[str, int]] = {int(p.seat): {} for p in view.players}
    for a in awards:
        row = per.setdefault(int(a.seat), {})
        row[a.item.category] = row.get(a.item.category, 0) + a.points
    extra = sorted({c for row in per.values() for c in row} - set(BASE_CATEGORIES))
    cats = [*BASE_CATEGORIES, *extra]
    # points no award explains (a caller without the game's awards): "other"
    for p in view.players:
        row = per.setdefault(int(p.seat), {})
        rest = p.score - sum(row.values())
        if rest:
            row["other"] = row.get("other", 0) + rest
    if any("other" in row for row in per.values()) and "other" not in cats:
        cats.append("other")
    return cats, per


def draw_breakdown(
    img: Image.Image,
    view: PublicView,
    box: tuple[int, int, int, int],
    awards: Sequence[Award] | None,
    events: Sequence[Event],
    lang: str = "en",
) -> None:
    """Draw the breakdown table in ``box``: a title row of categories, a row per player."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=st.PANEL)
    cats, per = breakdown(view, awards, events)
    width = x1 - x0
    k = scale_of(width)

    def sc(v: float) -> int:
        return round(v * k)

    pad, head_h, row_h = sc(PAD), sc(HEAD_H), sc(ROW_H)
    name_w, col_w = columns(width, len(cats))
    cols = len(cats) + 1
    y = y0 + pad
    titles = [category_word(c, lang) for c in cats] + [word("pic.total", lang)]
    for i, head in enumerate(heads_fit(titles, col_w, k)):
        cx = x0 + pad + name_w + (i + 0.5) * col_w
        draw_fitted(img, (cx, y + head_h / 2), head, st.TEXT_DIM, anchor="mm")
    y += head_h
    ranking = sorted(view.players, key=lambda p: (-p.score, int(p.seat)))
    winners = set(view.winners)
    for n, p in enumerate(ranking):
        style = st.seat_style(int(p.seat))
        ry = y + n * row_h
        if n % 2 == 0:
            d.rectangle((x0, ry, x1, ry + row_h - 1), fill=ROW_BG)
        side = row_h - sc(14)
        bx, by = x0 + pad, ry + sc(7)
        rim = (235, 235, 235) if sum(style.fill) < 160 else (20, 20, 20)
        g = sc(2)
        d.rounded_rectangle((bx - g, by - g, bx + side + g, by + side + g), sc(7), rim)
        d.rounded_rectangle((bx, by, bx + side, by + side), radius=sc(6), fill=style.fill)
        draw_mark(d, style.mark, bx + side / 2, by + side / 2, side * 0.3, style.ink)
        name = name_fit(p.name, name_w - side - sc(24), k)
        draw_fitted(img, (bx + side + sc(10), ry + row_h / 2), name, st.TEXT, anchor="lm")
        row = per.get(int(p.seat), {})
        for i, c in enumerate(cats):
            cx = x0 + pad + name_w + (i + 0.5) * col_w
            v = row.get(c, 0)
            colour = st.TEXT if v else st.TEXT_DIM
            draw_text(
                img, (cx, ry + row_h / 2), str(v), sc(NUM_SIZE), colour, bold=True, anchor="mm"
            )
        cx = x0 + pad + name_w + (cols - 0.5) * col_w
        total = (250, 200, 40) if p.seat in winners else st.TEXT
        draw_text(
            img, (cx, ry + row_h / 2), str(p.score), sc(TOTAL_SIZE), total, bold=True, anchor="mm"
        )
    del y1
