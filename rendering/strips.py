"""Strips under a picture of choices: the score track, a row of tiles, a player's figures left.

Each function draws one strip at a given width and returns it with the labels it placed (in
the strip's own pixels), so :mod:`rendering.targets` can stack strips under the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.carcassonne.view import PublicView
from engine.core.errors import TileDataError
from engine.core.seats import Seat
from rendering import style as st
from rendering.board import draw_counts, figure_kinds
from rendering.figures import figure_sprite
from rendering.fonts import draw_text, readable_size, text_width
from rendering.labels import ACCENT, RIM, LabelPlacer, Placed, draw_labels
from rendering.tiles import tile_image

#: spaces on the score track (a score of 50 or more goes round again)
TRACK_SPACES = 50
#: spaces in a row of the track strip (two rows: 0–24 and 25–49)
TRACK_ROW = 25
#: the largest side of a track space (px)
TRACK_SPACE = 40
#: radius of a label on the track
TRACK_LABEL_R = 12
PAD = 12
#: side of a tile offered as a choice, and the space between two
CHOICE_TILE = 112
CHOICE_GAP = 24
CHOICE_LABEL_R = 14
#: height of a row of the strip with a player's figures left, and the side of its icons (the
#: smallest: a wide picture gets bigger ones, :func:`supply_sizes`)
SUPPLY_STRIP = 48
SUPPLY_ICON = 30

SPACE: st.RGB = (70, 76, 88)
SPACE_TEXT: st.RGB = st.TEXT_DIM


def track_width() -> int:
    """The natural width of a track strip (every space at its largest)."""
    return 2 * PAD + TRACK_ROW * TRACK_SPACE


def track_strip(
    view: PublicView, spaces: Sequence[tuple[int, str]], width: int
) -> tuple[Image.Image, list[Placed]]:
    """The score track 0–49 in two rows, the ``(space, label)`` pairs highlighted and labelled
    (labels above the first row, below the second), each player's score marked by a dot."""
    sq = max(16, min(TRACK_SPACE, (width - 2 * PAD) // TRACK_ROW))
    zone = 2 * TRACK_LABEL_R + 14  # room for labels above row 0 and below row 1
    gap = 6
    height = 2 * PAD + 2 * zone + 2 * sq + gap
    img = Image.new("RGB", (width, height), st.PANEL)
    d = ImageDraw.Draw(img)
    x0 = (width - TRACK_ROW * sq) // 2
    lit = {n % TRACK_SPACES for n, _ in spaces}

    def box(n: int) -> tuple[int, int]:
        row, col = divmod(n, TRACK_ROW)
        return x0 + col * sq, PAD + zone + row * (sq + gap)

    number = max(9, int(sq * 0.36))
    for n in range(TRACK_SPACES):
        x, y = box(n)
        on = n in lit
        d.rounded_rectangle(
            (x + 1, y + 1, x + sq - 2, y + sq - 2),
            radius=max(2, sq // 8),
            fill=ACCENT if on else SPACE,
            outline=RIM if on else st.TABLE_GRID,
            width=2 if on else 1,
        )
        draw_text(
            img,
            (x + sq / 2, y + sq * 0.4),
            str(n),
            number,
            RIM if on else SPACE_TEXT,
            bold=on,
            anchor="mm",
        )
    # where each player stands (score modulo 50): small dots in seat colours along the bottom
    at: dict[int, list[int]] = {}
    for p in view.players:
        at.setdefault(p.score % TRACK_SPACES, []).append(int(p.seat))
    r = max(2, sq // 10)
    for n, seats in at.items():
        x, y = box(n)
        for i, seat in enumerate(seats[:4]):
            cx = x + sq / 2 + (i - (len(seats[:4]) - 1) / 2) * (2 * r + 2)
            cy = y + sq - r - 4
            d.ellipse((cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1), fill=RIM)
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=st.seat_style(seat).fill)
    placer = LabelPlacer((0, 0, width, height))
    seen: dict[int, int] = {}
    for n, text in spaces:
        n %= TRACK_SPACES
        x, y = box(n)
        top = n < TRACK_ROW
        anchor = (x + sq / 2, y if top else y + sq)
        # a space offered twice: its labels side by side along the row
        k = seen.get(n, 0)
        seen[n] = k + 1
        step = 2 * TRACK_LABEL_R + 10
        dx = step * ((k + 1) // 2) * (1 if k % 2 else -1)
        want = (anchor[0] + dx, anchor[1] - zone / 2 if top else anchor[1] + zone / 2)
        placer.place(text, want, TRACK_LABEL_R, anchor=anchor)
    draw_labels(img, placer.placed)
    return img, placer.placed


def choices_width(count: int) -> int:
    """The natural width of a row of ``count`` tiles (at most eight a row)."""
    per_row = max(1, min(count, 8))
    return 2 * PAD + per_row * CHOICE_TILE + (per_row - 1) * CHOICE_GAP


def tile_choices(
    choices: Sequence[tuple[str, str]], width: int
) -> tuple[Image.Image, list[Placed]]:
    """The ``(tile id, label)`` pairs as tile images in rows, each framed, its label under it."""
    per_row = max(
        1, min(len(choices), (width - 2 * PAD + CHOICE_GAP) // (CHOICE_TILE + CHOICE_GAP))
    )
    rows = -(-len(choices) // per_row)
    cell_h = CHOICE_TILE + 2 * CHOICE_LABEL_R + 18
    height = 2 * PAD + rows * cell_h
    img = Image.new("RGB", (width, height), st.PANEL)
    d = ImageDraw.Draw(img)
    used = per_row * CHOICE_TILE + (per_row - 1) * CHOICE_GAP
    placer = LabelPlacer((0, 0, width, height))
    for i, (tid, text) in enumerate(choices):
        row, col = divmod(i, per_row)
        x = (width - used) // 2 + col * (CHOICE_TILE + CHOICE_GAP)
        y = PAD + row * cell_h
        try:
            pic = tile_image(tid, 0, CHOICE_TILE)
        except TileDataError:  # a tile this renderer does not know: a blank with a mark
            pic = Image.new("RGB", (CHOICE_TILE, CHOICE_TILE), st.TABLE_GRID)
            draw_text(pic, (CHOICE_TILE / 2, CHOICE_TILE / 2), "?", 48, st.TEXT, anchor="mm")
        d.rectangle(
            (x - 3, y - 3, x + CHOICE_TILE + 2, y + CHOICE_TILE + 2), outline=ACCENT, width=3
        )
        img.paste(pic, (x, y))
        centre = (x + CHOICE_TILE / 2, y + CHOICE_TILE + 8 + CHOICE_LABEL_R)
        placer.place(text, centre, CHOICE_LABEL_R)
    draw_labels(img, placer.placed)
    return img, placer.placed


def supply_layout(
    items: Sequence[tuple[Image.Image, int]], width: int, text: int
) -> list[list[tuple[Image.Image, int]]]:
    """``items`` (icon, count) in rows that each fit ``width`` px with the counts at ``text``
    px, in order: as many rows as it takes, never an item left out."""
    rows: list[list[tuple[Image.Image, int]]] = [[]]
    x = 0.0
    for pic, n in items:  # as rendering.header.draw_counts lays them out
        w = pic.size[0] + 3 + int(text_width(str(n), text, bold=True))
        if rows[-1] and x + w > width:
            rows.append([])
            x = 0.0
        rows[-1].append((pic, n))
        x += w + 8
    return rows


def supply_sizes(width: int) -> tuple[int, int, int]:
    """The count size, icon side and row height of a supply strip ``width`` px wide: the
    counts stay readable once the picture is shown 400 px wide (a wide picture of a long
    board gets bigger ones)."""
    text = max(20, readable_size(width))
    icon = max(SUPPLY_ICON, round(text * 1.5))
    return text, icon, icon + 18


def supply_strip(view: PublicView, seat: Seat | None, width: int) -> Image.Image | None:
    """``seat``'s figures left by kind (icon and count), when it has more than one kind: on
    as many rows as the picture's width needs, every kind shown."""
    player = next((p for p in view.players if p.seat == seat), None)
    if player is None or len(player.supply) < 2:
        return None
    text, icon, row_h = supply_sizes(width)
    items = [
        (figure_sprite(k, int(player.seat), icon), player.supply[k])
        for k in figure_kinds(player.supply)
    ]
    rows = supply_layout(items, width - 20, text)
    out = Image.new("RGB", (width, row_h * len(rows)), st.PANEL)
    for i, row in enumerate(rows):
        base = row_h * (i + 1) - 7
        draw_counts(out, row, 12, base, width - 8, icon=icon, text=text)
    return out
