"""Issue 21's pictures, decoded and probed at full size and as a phone shows them (400 px wide):
text is laid out to fit, never cut mid-word (players' names, the final table's headers, the
choice pictures' titles, a row of figures left); cell numbers and counts stay readable on long
boards; the turn picture's crop keeps every figure or marks what it leaves out; the card game's
final picture names the winner with the scores in big figures."""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Sequence

import pytest
from PIL import Image, ImageChops

from engine import GameSetup, PublicView, apply, legal_placements, new_game, public_view
from engine.carcassonne.geometry import Position
from engine.carcassonne.randomplay import choose_move
from engine.core.decisions import Cell, TileChoice
from engine.core.rng import Rng
from engine.core.seats import Seat
from rendering import render_targets, style
from rendering.board import CELL_FILL, board_picture
from rendering.final import columns, heads_fit, name_fit
from rendering.fonts import PHONE_DIGIT, PHONE_WIDTH, Fitted, digit_height
from rendering.header import header_layout, name_box
from rendering.header import name_fit as chip_name_fit
from rendering.strips import supply_layout, supply_sizes
from rendering.targets import title_fit, title_height
from rendering.words import category_word, word

ALL = ("inns_cathedrals", "traders_builders", "abbey_mayor", "bridges_castles_bazaars")
LONG_NAMES = (
    "Maximiliano Fernández",
    "Player 2",
    "Jugador 3",
    "Supercalifragilistic",
    "王小明 😀",
    "Ελένη Παπαδοπούλου",
)


def pixels(img: Image.Image) -> list[tuple[int, int, int]]:
    """The RGB pixels of ``img``, row by row."""
    raw = img.convert("RGB").tobytes()
    return [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def play(
    moves: int | None,
    *,
    players: int = 3,
    seed: int = 1,
    expansions: tuple[str, ...] = ALL,
    names: Sequence[str] = LONG_NAMES,
) -> tuple[object, list[tuple[PublicView, object]]]:
    """A random game for ``moves`` moves or to the end: the state and (view, state) after
    every move."""
    state = new_game(
        GameSetup(players=players, expansions=expansions, names=tuple(names[:players])), seed=seed
    )
    rng = Rng(seed)
    seen: list[tuple[PublicView, object]] = []
    n = 0
    while state.step != "over" and (moves is None or n < moves):
        seat, act = choose_move(state, rng)
        state = apply(state, seat, act).state
        seen.append((public_view(state), state))
        n += 1
    return state, seen


def assert_fits(f: Fitted, text: str, width: float, height: float) -> None:
    """``f`` holds every word of ``text``, whole, within ``width`` × ``height``."""
    assert not f.cut, (text, f)
    assert " ".join(f.lines).split() == text.split(), (text, f.lines)
    assert f.width <= width + 0.5, (text, f.width, width)
    assert f.height <= height + 0.5, (text, f.height, height)


def ink_box(
    a: Image.Image, b: Image.Image, box: tuple[int, int, int, int] | None = None
) -> tuple[int, int, int, int] | None:
    """Where two pictures differ (within ``box``)."""
    diff = ImageChops.difference(a, b)
    if box is not None:
        diff = diff.crop(box)
    return diff.getbbox()


# ------------------------------------------------------------------------------ names
@pytest.mark.parametrize("players", [4, 5, 6])
def test_names_in_the_score_strip_are_laid_out_whole(players: int) -> None:
    """With four or more players, every name fits its chip on one or two lines, smaller if it
    must, never cut mid-word; what is drawn stays between the colour block and the score."""
    _state, seen = play(6 * players, players=players, seed=players)
    view = seen[-1][0]
    pic = board_picture(view, whole=False)
    lay = pic.header
    assert lay is not None
    for chip in lay.chips:
        name = view.players[int(chip.seat)].name
        x0, y0, x1, y1 = name_box(chip, lay.k)
        assert_fits(chip_name_fit(name, chip, lay.k), name, x1 - x0, y1 - y0)
    # the pixels a name draws: the picture against the same one with that name blank
    for i in range(players):
        blank = dataclasses.replace(
            view,
            players=tuple(
                dataclasses.replace(p, name="") if n == i else p for n, p in enumerate(view.players)
            ),
        )
        other = board_picture(blank, whole=False, frame=pic.frame)
        assert other.header == lay
        x0, y0, x1, y1 = name_box(lay.chips[i], lay.k)
        got = ink_box(pic.image, other.image, (0, 0, lay.width, lay.height))  # the strip
        assert got is not None, view.players[i].name
        # (a glyph may reach a pixel or two past its advance: the J of "Jugador")
        assert got[0] >= x0 - 3 and got[2] <= x1 + 3, (view.players[i].name, got, (x0, x1))
        assert got[1] >= y0 - 3 and got[3] <= y1 + 3, (view.players[i].name, got, (y0, y1))


def test_four_players_chips_are_two_a_row_so_names_keep_their_size() -> None:
    _state, seen = play(12, players=4, names=("Player 1", "Player 2", "Player 3", "Player 4"))
    view = seen[-1][0]
    lay = header_layout(view, 960)
    rows = sorted({c.box[1] for c in lay.chips})
    assert len(rows) == 2
    for chip in lay.chips:
        f = chip_name_fit(view.players[int(chip.seat)].name, chip, lay.k)
        assert f.lines == (view.players[int(chip.seat)].name,) and f.size == 22


# ------------------------------------------------------------------------------ final table
@pytest.mark.parametrize("lang", ["en", "es"])
def test_final_table_headers_and_names_are_never_cut(lang: str) -> None:
    """Every column of the final breakdown is titled whole (one size for all, two lines when
    one is not enough) and no title reaches into the next column; names fit their rows."""
    state, _seen = play(None, players=6, seed=5)
    view = public_view(state)
    assert view.over
    pic = board_picture(view, awards=state.awards, lang=lang)  # type: ignore[attr-defined]
    assert pic.breakdown is not None
    x0, y0, x1, _y1 = pic.breakdown
    width = x1 - x0
    k = width / 960 if width > 960 else 1.0
    cats = sorted({a.item.category for a in state.awards})  # type: ignore[attr-defined]
    assert {"goods", "market"} <= set(cats) or len(cats) >= 5, cats
    from rendering.final import breakdown

    order, _per = breakdown(view, state.awards)  # type: ignore[attr-defined]
    titles = [category_word(c, lang) for c in order] + [word("pic.total", lang)]
    name_w, col_w = columns(width, len(order))
    heads = heads_fit(titles, col_w, k)
    assert len({h.size for h in heads}) == 1
    for t, h in zip(titles, heads, strict=True):
        assert_fits(h, t, col_w - 4, 40 * k)
    for p in view.players:
        assert_fits(name_fit(p.name, name_w - round(36 * k) - round(24 * k), k), p.name, 1e9, 1e9)
    # between two columns the header row is the panel's colour only: no title crosses
    img = pic.image
    pad = round(12 * k)
    head = (y0 + pad + 2, y0 + pad + round(40 * k) - 2)
    for i in range(1, len(titles)):
        x = round(x0 + pad + name_w + i * col_w)
        column = {img.getpixel((x, y)) for y in range(*head)}
        assert column == {style.PANEL}, (titles[i - 1], titles[i], column)


# ------------------------------------------------------------------------------ titles, supply
MARKET_PROMPTS = (
    "Market: choose a tile and make an opening bid (0 or more).",
    "Mercado: elige una pieza y haz una puja de apertura (0 o más).",
)


@pytest.mark.parametrize("title", MARKET_PROMPTS)
def test_a_choice_pictures_title_wraps_whole_words(title: str) -> None:
    """The market picker's title over two tiles: on as many lines as it needs, every word
    whole, nothing drawn past the picture's right margin."""
    _state, seen = play(20, players=3)
    view = seen[-1][0]
    tiles = [TileChoice("BA/L"), TileChoice("BA/RFr")]
    img = decode(render_targets(view, tiles, ["A", "B"], title=title, seat=Seat(0)))
    heading = title_fit(title, img.width)
    assert len(heading.lines) >= 2
    assert_fits(heading, title, img.width - 24, 3 * heading.size * 1.2)
    bar = title_height(heading)
    margin = img.crop((img.width - 12, 0, img.width, bar))
    assert margin.getcolors() == [(12 * bar, style.PANEL)]


def test_the_figures_left_under_a_narrow_picture_are_all_shown() -> None:
    """A seat with seven kinds of figures under the market picker (two tiles, 272 px): the
    row wraps instead of stopping after four icons; each kind's icon is in the picture."""
    _state, seen = play(30, players=3, seed=2)
    view = seen[-1][0]
    p0 = view.players[0]
    assert len(p0.supply) >= 6, p0.supply
    img = decode(render_targets(view, [TileChoice("BA/L"), TileChoice("BA/RFr")], ["A", "B"],
                                seat=Seat(0)))  # fmt: skip
    text, icon, row_h = supply_sizes(img.width)
    from rendering.board import figure_kinds
    from rendering.figures import figure_sprite
    from rendering.fonts import text_width

    items = [(figure_sprite(k, 0, icon), p0.supply[k]) for k in figure_kinds(p0.supply)]
    rows = supply_layout(items, img.width - 20, text)
    assert len(rows) >= 2 and sum(len(r) for r in rows) == len(items)
    top = img.height - row_h * len(rows)
    for r, row in enumerate(rows):
        x = 12
        for pic, n in row:  # the icon drawn where draw_counts puts it, every opaque pixel
            base = top + row_h * (r + 1) - 7
            box = img.crop((x, base - pic.size[1], x + pic.size[0], base))
            alpha = pic.getchannel("A").tobytes()
            want = pixels(pic)
            got = pixels(box)
            solid = [i for i, a in enumerate(alpha) if a == 255]
            assert solid and all(got[i] == want[i] for i in solid), (r, x)
            x += pic.size[0] + 3 + int(text_width(str(n), text, bold=True)) + 8


# ------------------------------------------------------------------------------ long boards
def white_height(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    """How many rows of ``box`` hold white ink (a cell's number: white figures in a dark
    stroke; their anti-aliased edges count from half way to white)."""
    crop = img.crop(box)
    w = crop.width
    data = pixels(crop)
    rows = [y for y in range(crop.height) if any(min(c) >= 190 for c in data[y * w : (y + 1) * w])]
    return rows[-1] - rows[0] + 1 if rows else 0


@pytest.fixture(scope="module")
def long_board() -> tuple[PublicView, object]:
    """A long game with every expansion: the board spans many cells, tiles get small."""
    state, seen = play(260, players=3, seed=4, names=("Ana", "Bo", "Zoë"))
    for view, st in reversed(seen):
        if view.drawn is not None:
            return view, st
    raise AssertionError("no tile drawn")


def test_cell_numbers_read_on_a_phone_on_a_long_board(
    long_board: tuple[PublicView, object],
) -> None:
    """The turn picture and the place-tile picture of a long board: every offered cell's
    number is still 6 px high once the picture is shown 400 px wide."""
    view, state = long_board
    placements = legal_placements(state)  # type: ignore[arg-type]
    pic = board_picture(view, placements=placements, whole=False)
    fr = pic.frame
    assert fr.tile <= 48, fr.tile  # a long board: small tiles
    f = PHONE_WIDTH / pic.image.width
    for pos in placements:
        x, y = fr.cell_xy(pos)
        h = white_height(pic.image, (x + 3, y + 3, x + fr.tile - 3, y + fr.tile - 3))
        assert h * f >= PHONE_DIGIT - 0.5, (pos, h, f)
    cells = sorted(placements, key=lambda p: (p.y, p.x))
    targets = [Cell(p.x, p.y) for p in cells]
    labels = [str(i + 1) for i in range(len(cells))]
    from rendering import targets_picture

    tp = targets_picture(view, targets, labels, seat=view.current)
    assert tp.grid is not None
    g = tp.grid
    f = PHONE_WIDTH / tp.image.width
    for p in cells:
        x, y = g.cell_xy(p.x, p.y)
        assert tp.image.getpixel((x + g.tile // 2, y + 4)) == CELL_FILL or g.tile < 12
        h = white_height(tp.image, (x + 3, y + 3, x + g.tile - 3, y + g.tile - 3))
        assert h * f >= PHONE_DIGIT - 0.5, (p, h, f)
    # the figures left under it: counts as readable
    text, _icon, _row = supply_sizes(tp.image.width)
    assert digit_height(text) * f >= PHONE_DIGIT


# ------------------------------------------------------------------------------ the crop
def test_the_crop_keeps_every_figure_or_marks_it_at_the_edge() -> None:
    """Over whole games: a turn picture shows every figure on the board, or marks the ones
    its crop leaves out beside the edge they lie beyond, in their seat's colour; early in a
    game (a small board) it leaves none out."""
    marked = 0
    for seed in (3, 4):
        _state, seen = play(None, players=3, seed=seed, names=("Ana", "Bo", "Zoë"))
        for n, (view, st) in enumerate(seen):
            if view.drawn is None or n % 9:
                continue
            pic = board_picture(view, placements=legal_placements(st), whole=False)  # type: ignore[arg-type]
            fr = pic.frame
            outside = [f for f in view.figures if not fr.contains(f.pos)]
            in_marks = [f for m in pic.off for f in m.figures]
            assert sorted(map(repr, outside)) == sorted(map(repr, in_marks))
            if view.turn <= 12:
                assert not outside, view.turn
            for m in pic.off:
                box = pic.image.crop(m.box)
                colours = set(pixels(box))
                for f in m.figures[:3]:
                    assert style.seat_style(int(f.seat)).fill in colours, (m, f)
                x0, y0, x1, y1 = m.box  # in the coordinate margin, on its side
                if m.side == "W":
                    assert x1 <= fr.left + fr.label
                elif m.side == "E":
                    assert x0 >= fr.left + fr.board_w - fr.label
                elif m.side == "N":
                    assert y1 <= fr.top + fr.label
                else:
                    assert y0 >= fr.top + fr.board_h - fr.label
                marked += 1
    assert marked, "no figure was ever left out: the test shows nothing"


def test_a_farmer_at_the_edge_of_a_small_board_stays_in_the_picture() -> None:
    """Early on (the issue's turn 5), every tile with a figure is in the turn picture."""
    for seed in range(1, 8):
        _state, seen = play(14, players=2, seed=seed, expansions=(), names=("Ana", "Bo"))
        for view, st in seen:
            if view.drawn is None:
                continue
            pic = board_picture(view, placements=legal_placements(st), whole=False)  # type: ignore[arg-type]
            assert all(pic.frame.contains(f.pos) for f in view.figures)
            assert not pic.off
            for f in view.figures:
                assert pic.frame.contains(Position(f.pos.x, f.pos.y))


# ------------------------------------------------------------------------------ card game
def card_final(players: int, seed: int, names: Sequence[str]) -> object:
    from engine.cardgame import CardSetup, legal_actions
    from engine.cardgame import apply as card_apply
    from engine.cardgame import new_game as card_new

    st = card_new(CardSetup(players=players, names=tuple(names[:players])), seed=seed)
    rnd = random.Random(seed)
    while st.step != "over":
        seat = min(st.awaiting)
        st = card_apply(st, seat, rnd.choice(legal_actions(st, seat))).state
    return st


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_card_games_final_picture_names_the_winner_with_big_scores(lang: str) -> None:
    from engine.cardgame import public_view as card_view
    from rendering.cardgame import (
        INFO_SIZE,
        SCORE_SIZE,
        WINNER,
        players_layout,
        render_table,
        winner_words,
    )

    st = card_final(5, 3, LONG_NAMES)
    view = card_view(st)  # type: ignore[arg-type]
    img = decode(render_table(view, lang))
    f = PHONE_WIDTH / img.width
    (winner,) = [p for p in view.players if p.seat in view.winners]
    headline = winner_words(view, lang)
    assert winner.name in headline and str(winner.score) in headline
    lines = players_layout(view, lang)
    # by the result, winner first; every name whole
    scores = {p.seat: p.score for p in view.players}
    assert lines[0].seat == winner.seat and lines[0].winner
    assert [scores[ln.seat] for ln in lines] == sorted(scores.values(), reverse=True)
    names = {p.seat: p.name for p in view.players}
    for ln in lines:
        assert not ln.name.cut and " ".join(ln.name.lines) == names[ln.seat]
        assert not ln.info.cut
    # big scores, the winner's in gold; the counts readable on a phone
    assert digit_height(SCORE_SIZE) * f >= 12
    assert digit_height(INFO_SIZE) * f >= PHONE_DIGIT
    gold = img.crop(lines[0].score_box)
    assert sum(1 for c in pixels(gold) if c == WINNER) > 100
    # the rows are as the rules leave them (empty: the cards left leave the game) and say so
    assert not any(r.items for r in view.rows)
    rows = img.crop((200, 44, 1000, 44 + 4 * 116))
    assert sum(1 for c in pixels(rows) if c == style.TEXT_DIM) > 100


# ------------------------------------------------------------------------------ every target
def test_every_offered_target_is_labelled_inside_its_picture() -> None:
    """Every decision of games with every expansion (places, spots, holes, bridges, castles,
    markets, wagons …): each option's target gets its label, and every label lies wholly in
    the picture; an empty cell's number sits on its slate box."""
    from engine import pending
    from engine.core.decisions import Cell as CellT
    from rendering import targets_picture
    from rendering.marks import spot_letter

    kinds: set[str] = set()
    for seed in (1, 2):
        state = new_game(
            GameSetup(players=3, expansions=ALL, names=("Ana", "Bo", "Zoë")), seed=seed
        )
        rng = Rng(seed)
        n = 0
        while state.step != "over" and n < 400:
            view = public_view(state)
            for d in pending(state):
                targets = list(dict.fromkeys(o.target for o in d.options))
                if not targets or None in targets or (d.kind in kinds and n % 7):
                    continue
                kinds.add(d.kind)
                cells = all(isinstance(t, CellT) for t in targets)
                labels = [str(i + 1) if cells else spot_letter(i) for i in range(len(targets))]
                pic = targets_picture(view, targets, labels, seat=d.seat)
                drawn = list(pic.labels)
                assert len(drawn) == len([t for t in targets if not hasattr(t, "card")]), d.kind
                w, h = pic.image.size
                for lab in drawn:
                    x, y = lab.at
                    r = lab.radius
                    assert r <= x <= w - r and r <= y <= h - r, (d.kind, lab)
                    if isinstance(lab.target, CellT) and pic.grid is not None:
                        cx, cy = pic.grid.cell_xy(lab.target.x, lab.target.y)
                        assert cx >= 0 and cx + pic.grid.tile <= w, (d.kind, lab)
                        assert cy >= 0 and cy + pic.grid.tile <= h, (d.kind, lab)
            seat, act = choose_move(state, rng)
            state = apply(state, seat, act).state
            n += 1
    assert {"core.place", "core.deploy", "am.abbey"} <= kinds, kinds
