"""Issue 14's pictures, probed as a phone shows them (400 px wide) and at full size: scores and
the current player's colour survive downscaling, the turn picture is cropped to what matters,
symbols stand upright, figures are never cut by a tile edge or frame, frames tell players
apart from offered cells, the final board keeps its figures and breaks the scores down, what
just scored is outlined in its owner's colour, every word is in the match language, and the
replay of a long game is small enough to post."""

from __future__ import annotations

import dataclasses
import io
import random
import re
from collections.abc import Sequence

import pytest
from PIL import Image

from engine import GameSetup, PublicView, Seat, apply, legal_placements, new_game, public_view
from engine.carcassonne.events import Event, FinalScoringStarted, PointsScored
from engine.carcassonne.featurescore import final_scoring
from engine.carcassonne.geometry import Position
from engine.carcassonne.randomplay import choose_move
from engine.carcassonne.tiles import all_tiles
from engine.carcassonne.view import FigureView
from engine.core import messages
from engine.core.rng import Rng
from rendering import render_animation, render_board, style
from rendering.animation import ANIM_BUDGET
from rendering.board import (
    CELL_FRAME,
    board_picture,
    focus_box,
    last_placed_width,
    place_figures,
)
from rendering.final import breakdown
from rendering.frame import Frame
from rendering.layout import tile_layout
from rendering.overlays.inns_cathedrals import CATHEDRAL_SIZE, INN_SIZE
from rendering.scored import feature_mask, find_scored, scorings
from rendering.tiles import tile_image
from rendering.words import TEXTS, category_word

from .phone import assert_readable_on_a_phone, phone

NAMES = ("Ana", "王小明", "Ελένη 😀", "Zoë", "Max", "Olaf")
BOTH = ("inns_cathedrals", "traders_builders")


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def near(c: Sequence[int], want: Sequence[int], tol: int = 30) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def game(
    moves: int | None, *, players: int = 4, seed: int = 7, expansions: tuple[str, ...] = ()
) -> tuple[object, list[Event], list[tuple[PublicView, tuple[Event, ...]]]]:
    """A random game (every decision answered) for ``moves`` moves or to the end: the state,
    the last move's events and (view, events) after every move."""
    state = new_game(
        GameSetup(players=players, expansions=expansions, names=NAMES[:players]), seed=seed
    )
    rng = Rng(seed)
    last: list[Event] = []
    seen: list[tuple[PublicView, tuple[Event, ...]]] = []
    n = 0
    while state.step != "over" and (moves is None or n < moves):
        seat, act = choose_move(state, rng)
        tr = apply(state, seat, act)
        state, last = tr.state, list(tr.events)
        seen.append((public_view(state), tr.events))
        n += 1
    return state, last, seen


# ------------------------------------------------------------------------------ phone width
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_turn_pictures_read_on_a_phone(players: int, lang: str) -> None:
    """Every turn's picture, downscaled to 400 px: each score's figures and the current
    player's colour survive (each seat in turn, black and yellow included)."""
    state, _last, seen = game(12 * players, players=players, seed=players)
    shown = 0
    for view, events in seen[-players * 2 :]:
        placements = legal_placements(state) if view is seen[-1][0] else None
        png = render_board(view, placements=placements, events=events, lang=lang)
        assert decode(png).size[0] == 960
        assert_readable_on_a_phone(png, view)
        shown += 1
    assert shown == 2 * players


def test_big_scores_and_every_seat_colour_survive() -> None:
    state, _last, seen = game(30, players=6, seed=3)
    view = seen[-1][0]
    scores = (0, 7, 48, 99, 120, 305)
    for current in range(6):
        players = tuple(
            dataclasses.replace(p, score=scores[(i + current) % 6])
            for i, p in enumerate(view.players)
        )
        v = dataclasses.replace(view, players=players, current=Seat(current))
        assert_readable_on_a_phone(render_board(v), v)


def test_whole_map_and_final_board_read_on_a_phone() -> None:
    state, last, seen = game(None, players=4, seed=11, expansions=BOTH)
    view = public_view(state)
    assert view.over
    final = render_board(view, events=last, awards=state.awards, lang="es")
    assert_readable_on_a_phone(final, view)
    mid = seen[len(seen) // 2][0]
    whole = render_board(mid, whole=True)
    assert_readable_on_a_phone(whole, mid)
    assert decode(whole).size[0] > 960  # a big map: the strip grew with it


def test_the_probe_fails_when_a_score_is_wrong() -> None:
    """The phone probe reads the figures: a picture of other scores does not pass."""
    _state, _last, seen = game(20, players=3, seed=5)
    view = seen[-1][0]
    players = tuple(dataclasses.replace(p, score=p.score + 37) for p in view.players)
    png = render_board(dataclasses.replace(view, players=players))
    with pytest.raises(AssertionError):
        assert_readable_on_a_phone(png, view)


# ------------------------------------------------------------------------------ the crop
def test_turn_picture_is_cropped_to_what_matters_and_board_shows_everything() -> None:
    state, _last, seen = game(60, players=2, seed=4)
    view = seen[-1][0]
    placements = legal_placements(state)
    turn = board_picture(view, placements=placements, whole=False)
    whole = board_picture(view, placements=placements, whole=True)
    box = focus_box(view, placements)
    fr = turn.frame
    assert (fr.min_x, fr.min_y, fr.cols, fr.rows) == (
        box[0],
        box[1],
        box[2] - box[0] + 1,
        box[3] - box[1] + 1,
    )
    for pos in [*placements, *view.last_placed.values()]:
        assert fr.contains(pos), pos
    assert all(whole.frame.contains(tv.pos) for tv in view.tiles)
    # a small region gets bigger tiles than the whole map (without figures to take in too)
    small = dataclasses.replace(view, last_placed={Seat(0): view.tiles[-1].pos}, figures=())
    near_cells = {p: placements[p] for p in list(placements)[:1]}
    cropped = board_picture(small, placements=near_cells, whole=False).frame
    assert cropped.cols * cropped.rows < whole.frame.cols * whole.frame.rows
    assert cropped.tile > whole.frame.tile


# ------------------------------------------------------------------------------ symbols
@pytest.mark.parametrize("tile_id", ["BA/L", "IC/Cccc.c"])
def test_symbols_stand_upright_whatever_the_rotation(tile_id: str) -> None:
    """On a plain background (a lone cloister on grass, a cathedral in a city on every side)
    a building looks the same in every rotation, at its turned place: never on its side."""
    from rendering.layout import rotate_point

    T = 128
    (sym,) = [s for s in tile_layout(tile_id).symbols if s.kind in ("cloister", "cathedral")]
    h = sym.size * T * 0.55

    def crop(rot: int) -> bytes:
        cx, cy = rotate_point(sym.at, rot)
        box = (round(cx * T - h), round(cy * T - h * 1.3), round(cx * T + h), round(cy * T + h))
        return tile_image(tile_id, rot, T).crop(box).tobytes()

    ref = crop(0)
    for rot in (1, 2, 3):
        assert crop(rot) == ref, rot


def test_an_inn_stands_upright_on_a_turned_tile() -> None:
    tid = next(t for t in all_tiles() if any(s.kind == "inn" for s in tile_layout(t).symbols))
    (inn,) = [s for s in tile_layout(tid).symbols if s.kind == "inn"]
    from rendering.layout import rotate_point

    crops = []
    for rot in range(4):
        img = tile_image(tid, rot, 256)
        cx, cy = rotate_point(inn.at, rot)
        h = inn.size * 256 * 0.42
        # the roof: its blue is in the upper half of the symbol, never beside or below it
        roof = [
            (x, y)
            for y in range(int(cy * 256 - 2 * h), int(cy * 256 + 2 * h))
            for x in range(int(cx * 256 - 2 * h), int(cx * 256 + 2 * h))
            if 0 <= x < 256 and 0 <= y < 256 and near(img.getpixel((x, y)), (70, 90, 170), 20)  # type: ignore[arg-type]
        ]
        assert roof, rot
        assert max(y for _x, y in roof) < cy * 256 + 2, rot
        crops.append(len(roof))
    assert max(crops) - min(crops) < 0.2 * max(crops)


def test_buildings_are_big_enough_for_a_phone() -> None:
    sizes = {
        s.kind: s.size
        for t in all_tiles()
        for s in tile_layout(t).symbols
        if s.kind in ("inn", "cathedral")
    }
    assert sizes["inn"] >= INN_SIZE >= 0.22 and sizes["cathedral"] >= CATHEDRAL_SIZE >= 0.34
    lone = [s for s in tile_layout("BA/L").symbols if s.kind == "cloister"]
    assert lone and lone[0].size >= 0.4


# ------------------------------------------------------------------------------ figures, frames
@pytest.mark.parametrize("kind", ["follower", "large", "builder", "pig"])
def test_figures_are_never_cut_by_a_tile_edge_or_a_frame(kind: str) -> None:
    view = public_view(new_game(GameSetup(players=2, expansions=BOTH), seed=5))
    T = 96
    fr = Frame(-1, -1, 3, 3, T, label=0)
    band = last_placed_width(T) + 1
    from engine import Rotation
    from engine.carcassonne.view import TileView

    for tid, td in sorted(all_tiles().items()):
        for rot in (0, 1):
            tv = TileView(Position(0, 0), tid, Rotation(rot))
            figs = tuple(FigureView(Seat(0), kind, tv.pos, "x", f.index) for f in td.features)
            v = dataclasses.replace(view, tiles=(tv,), figures=figs)
            cx, cy = fr.cell_xy(tv.pos)
            for ps in place_figures(v, fr, {tv.pos: (tid, tv.rotation)}):
                box = ps.sprite.getbbox()
                assert box is not None
                x0, y0 = ps.at[0] + box[0] - cx, ps.at[1] + box[1] - cy
                x1, y1 = ps.at[0] + box[2] - cx, ps.at[1] + box[3] - cy
                assert band <= x0 and x1 <= T - band, (tid, rot, kind, ps.at)
                assert band <= y0 and y1 <= T - band, (tid, rot, kind, ps.at)


def test_last_tiles_are_framed_apart_from_offered_cells_even_yellow_and_black() -> None:
    state, _last, seen = game(30, players=5, seed=2)
    view = seen[-1][0]
    placements = legal_placements(state)
    pic = board_picture(view, placements=placements, whole=True)
    img, fr = pic.image, pic.frame
    w = last_placed_width(fr.tile)
    for seat, pos in view.last_placed.items():
        fill = style.seat_style(int(seat)).fill
        x, y = fr.cell_xy(pos)
        mid = y + fr.tile // 2 + 5
        band = img.getpixel((x + 1 + w // 2, mid))
        assert near(band, fill, 12), (seat, band)  # type: ignore[arg-type]
        assert not near(fill, CELL_FRAME, 120)  # no seat colour is like an offered cell's
        rim = img.getpixel((x, mid))
        assert near(rim, (245, 245, 245), 12)  # type: ignore[arg-type]
        # the corner flag in the seat's colour
        assert near(img.getpixel((x + 3, y + 3)), fill, 12)  # type: ignore[arg-type]
    # the black seat's frame against the dark table: the light rim stands out
    assert sum(abs(a - b) for a, b in zip((245, 245, 245), style.TABLE, strict=True)) > 400


# ------------------------------------------------------------------------------ scoring
def test_final_scoring_lists_the_figures_it_takes_off() -> None:
    state, _last, _seen = game(40, players=3, seed=9)
    before = {(int(f.seat), f.figure, f.pos, f.feature) for f in public_view(state).figures}
    assert before
    events: list[Event] = []
    final_scoring(state.clone(), events)  # type: ignore[attr-defined]
    (started,) = [e for e in events if isinstance(e, FinalScoringStarted)]
    assert {(int(f.seat), f.figure, f.pos, f.feature) for f in started.figures} == before
    assert events.index(started) == 0


def test_final_board_keeps_every_figure_outlines_owners_and_breaks_scores_down() -> None:
    state, last, _seen = game(None, players=3, seed=12, expansions=BOTH)
    view = public_view(state)
    assert view.over and not view.figures  # final scoring took them all off
    (started,) = [e for e in last if isinstance(e, FinalScoringStarted)]
    pic = board_picture(view, events=last, awards=state.awards)
    img, fr = pic.image, pic.frame
    bare = board_picture(view, awards=state.awards).image
    for f in started.figures:
        x, y = fr.cell_xy(f.pos)
        cell = (x, y, x + fr.tile, y + fr.tile)
        assert img.crop(cell).tobytes() != bare.crop(cell).tobytes(), f
    # each scored feature is outlined in its (first) owner's colour
    scored = find_scored(view, scorings(last, final=True))
    assert scored
    rot = {tv.pos: (tv.tile, int(tv.rotation)) for tv in view.tiles}
    for sc in scored:
        if not sc.cells or sc.category == "farm":
            continue
        fill = style.seat_style(int(sc.winners[0])).fill
        pos, i = sc.cells[0]
        x, y = fr.cell_xy(pos)
        m = feature_mask(rot[pos][0], i, rot[pos][1], fr.tile)
        inside = [
            (x + px, y + py)
            for py in range(fr.tile)
            for px in range(fr.tile)
            if m.getpixel((px, py))
        ]
        tinted = sum(1 for p in inside[::7] if _towards(img.getpixel(p), bare.getpixel(p), fill))  # type: ignore[arg-type]
        assert tinted > 0.5 * len(inside[::7]), sc
    # the breakdown adds up to every score, by category, expansion categories included
    cats, per = breakdown(view, state.awards)
    assert cats[:4] == ["road", "city", "cloister", "farm"]
    for p in view.players:
        assert sum(per[int(p.seat)].values()) == p.score
    assert "other" not in cats
    assert pic.breakdown is not None and pic.breakdown[3] == img.size[1]
    if "goods" in cats:
        assert category_word("goods", "es") == "Mercancías"


def _towards(got: Sequence[int], was: Sequence[int], colour: Sequence[int]) -> bool:
    """Whether ``got`` is ``was`` moved towards ``colour``."""
    return sum(abs(g - c) for g, c in zip(got, colour, strict=False)) < sum(
        abs(w - c) for w, c in zip(was, colour, strict=False)
    )


def test_the_feature_that_just_scored_is_outlined_with_its_points() -> None:
    _state, _last, seen = game(None, players=2, seed=6)
    view, events = next(
        (v, e)
        for v, e in seen
        if any(isinstance(x, PointsScored) and x.awards and x.item.category == "city" for x in e)
    )
    pic = board_picture(view, events=events, whole=False)
    plain = board_picture(view, whole=False)
    (sc,) = [s for s in find_scored(view, scorings(events)) if s.category == "city"][:1]
    fill = style.seat_style(int(sc.winners[0])).fill
    diff = [
        (x, y)
        for y in range(plain.frame.top, plain.image.size[1], 2)
        for x in range(0, plain.image.size[0], 2)
        if pic.image.getpixel((x, y)) != plain.image.getpixel((x, y))
    ]
    assert diff
    # the pill with the points is in the owner's colour, the text in its ink
    pill = sum(1 for p in diff if near(pic.image.getpixel(p), fill, 12))  # type: ignore[arg-type]
    assert pill > 40


# ------------------------------------------------------------------------------ words
def test_spanish_pictures_draw_no_english_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text a Spanish picture draws goes through the catalogue: none is an English text
    of it (numbers, names and letters aside)."""
    import rendering.board
    import rendering.cardgame
    import rendering.final
    import rendering.header
    import rendering.targets
    from engine.cardgame import CardSetup
    from engine.cardgame import new_game as card_game
    from engine.cardgame import public_view as card_view
    from rendering.cardgame import render_table

    drawn: list[str] = []
    real = rendering.header.draw_text

    def spy(img: Image.Image, xy: tuple[float, float], text: str, *a: object, **k: object) -> None:
        drawn.append(text)
        real(img, xy, text, *a, **k)  # type: ignore[arg-type]

    import rendering.fonts
    import rendering.overlays.bridges_castles_bazaars as bcb
    from engine import view_for
    from tests.engine.expansions.bcb_helpers import play as bcb_play
    from tests.engine.expansions.test_bcb_markets import MARKET_TURN, PILE3, SEALED

    for mod in (
        rendering.board,
        rendering.header,
        rendering.final,
        rendering.cardgame,
        rendering.targets,
        rendering.fonts,  # text laid out on lines (draw_fitted) is drawn from here
        bcb,
    ):
        monkeypatch.setattr(mod, "draw_text", spy)
    state, last, _seen = game(None, players=3, seed=12, expansions=BOTH)
    render_board(public_view(state), events=last, awards=state.awards, lang="es")
    _s, _l, seen = game(10, players=3, seed=3)
    render_board(seen[-1][0], lang="es")
    render_table(card_view(card_game(CardSetup(players=3), seed=2)), "es")
    # the card game's final table and a market under way (issue 21)
    cards = card_game(CardSetup(players=3), seed=2)
    rnd = random.Random(2)
    from engine.cardgame import apply as card_apply
    from engine.cardgame import legal_actions as card_actions

    while cards.step != "over":
        seat = min(cards.awaiting)
        cards = card_apply(cards, seat, rnd.choice(card_actions(cards, seat))).state
    render_table(card_view(cards), "es")
    lot = [*MARKET_TURN, "@1 bcb.offer 0@4", "@2 bcb.sealed pass", "@0 bcb.sealed pass"]
    market = bcb_play(PILE3, [*lot, "@2 bcb.offer 1@0"], players=3, options=SEALED)
    render_board(view_for(market.state), lang="es")
    english = {
        line
        for key, (en, es) in TEXTS.items()
        if en != es
        for line in en.split("\n")
        if not line.startswith("{")
    }
    english -= {line for _en, es in TEXTS.values() for line in es.split("\n")}
    english |= {"Turn", "Tiles left", "Current tile", "Game over", "BUILD", "JOKER"}
    english |= {"Market", "on offer", "bid to beat", "wins", "points", "cards left"}
    joined = " | ".join(drawn)
    assert drawn
    for word in english:
        head = word.split("{")[0].strip()
        found = re.search(rf"(?<![\w]){re.escape(head)}(?![\w])", joined) if head else None
        assert found is None, (word, joined[:400])
    assert any("Turno" in d for d in drawn) and any("Fin de la partida" in d for d in drawn)
    assert any(d.startswith("Mercado — en subasta: pieza") for d in drawn), drawn
    assert any(d.startswith("Fin de la partida · gana") for d in drawn)


def test_every_picture_word_has_a_spanish_text() -> None:
    for key, (en, es) in TEXTS.items():
        assert messages.text(key, "es") == es and es, key
        assert en and es
    assert messages.text("pic.colour.black", "es") == "negro"


# ------------------------------------------------------------------------------ replay
def test_the_replay_of_a_long_game_fits_discord_and_decodes_to_its_frames() -> None:
    from rendering.animation import animation_frame

    state, last, seen = game(None, players=4, seed=7, expansions=BOTH)
    views = [public_view(new_game(state.setup, seed=7))] + [
        v for v, _e in seen if v.step != "deploy"
    ]
    data = render_animation(views, events=last)
    assert len(data) <= min(ANIM_BUDGET, 3 * 1024 * 1024), len(data)
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames == len(views)
    fr = animation_frame(views)
    assert fr.tile >= 40  # readable: tiles are 17 px and more once shown 400 px wide
    for k in (1, len(views) // 2, len(views) - 2):
        gif.seek(k)
        got = gif.convert("RGB")
        want = board_picture(views[k], frame=fr, breakdown=False).image
        small = phone(got)
        assert small.size[0] == 400
        same = sum(
            1
            for a, b in zip(
                got.crop((0, 0, *want.size)).tobytes()[::97], want.tobytes()[::97], strict=True
            )
            if abs(a - b) <= 40
        )
        assert same > 0.97 * len(want.tobytes()[::97]), k


def test_random_placement_order_does_not_matter_for_scoring_highlights() -> None:
    """The feature graph the pictures rebuild from a view matches the engine's own."""
    _state, _last, seen = game(50, players=2, seed=8)
    view = seen[-1][0]
    tiles = list(view.tiles)
    random.Random(1).shuffle(tiles)
    shuffled = dataclasses.replace(view, tiles=tuple(tiles))
    events = [e for _v, es in seen for e in es if isinstance(e, PointsScored) and e.awards]
    assert [s.cells for s in find_scored(view, events)] == [
        s.cells for s in find_scored(shuffled, events)
    ]
    for s in find_scored(view, events):
        if s.category in ("road", "city", "cloister"):
            assert s.cells, s
            assert {p for p, _ in s.cells} <= {tv.pos for tv in view.tiles}
