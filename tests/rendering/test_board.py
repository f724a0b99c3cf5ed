"""Board pictures decoded and probed: tiles, figures, outlines, overlays, sizes and limits."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence

import pytest
from PIL import Image

from engine import (
    GameSetup,
    Position,
    PublicView,
    legal_deploys,
    legal_placements,
    new_game,
    public_view,
)
from engine.carcassonne.tiles import FeatureKind, tile
from rendering import (
    placement_order,
    render_animation,
    render_board,
    render_placement_preview,
    render_spots,
    render_tile_sheet,
    spot_anchor,
    style,
)
from rendering.board import (
    CELL_FRAME,
    MAX_SIDE,
    Frame,
    board_picture,
    figure_size,
    last_placed_width,
)
from rendering.fonts import has_glyph
from rendering.marks import PREVIEW_TILE, SPOT_RADIUS, SPOT_TILE
from rendering.tiles import tile_image

from .conftest import play

Pixel = tuple[int, ...]


def frame_of(view: PublicView, *, whole: bool = False, **kw: object) -> Frame:
    """The frame of ``render_board(view, **kw)``'s board part (the turn picture's region, or
    the whole map), placed under the score strip."""
    return board_picture(view, whole=whole, **kw).frame  # type: ignore[arg-type]


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def px(img: Image.Image, xy: tuple[float, float]) -> Pixel:
    p = img.getpixel((int(xy[0]), int(xy[1])))
    assert isinstance(p, tuple)
    return p


def near(c: Sequence[int], want: Sequence[int], tol: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def test_start_board_shows_the_start_tile_at_the_origin() -> None:
    view = public_view(new_game(GameSetup(players=2), seed=5))
    img = decode(render_board(view))
    fr = frame_of(view)
    assert (fr.min_x, fr.min_y, fr.cols, fr.rows) == (-1, -1, 3, 3)  # one-cell margin
    x, y = fr.cell_xy(Position(0, 0))
    T = fr.tile
    assert near(px(img, (x + T / 2, y + 3)), style.CITY)  # city north
    assert near(px(img, (x + 3, y + T / 2)), style.ROAD)  # road west...
    assert near(px(img, (x + T - 4, y + T / 2)), style.ROAD)  # ...to east
    assert near(px(img, (x + T / 2, y + T - 4)), style.GRASS)  # field south
    assert near(px(img, (x - T / 2, y + T / 2)), style.TABLE)  # the empty margin cell


def test_board_size_limits_and_coordinates(midgame: tuple[object, list[PublicView]]) -> None:
    view = midgame[1][-1]
    png = render_board(view, whole=True)
    assert len(png) <= 1_500_000
    img = decode(png)
    assert max(img.size) <= MAX_SIDE
    fr = frame_of(view, whole=True)
    xs = [t.pos.x for t in view.tiles]
    ys = [t.pos.y for t in view.tiles]
    assert fr.min_x == min(xs) - 1 and fr.cols == max(xs) - min(xs) + 3
    assert fr.min_y == min(ys) - 1 and fr.rows == max(ys) - min(ys) + 3
    # every placed tile is drawn where its coordinates say: compare with the cached tile image
    # (without figures and outlines, which would cover parts of it)
    bare = decode(render_board(dataclasses.replace(view, figures=(), last_placed={}), whole=True))
    assert bare.size == img.size
    for tv in view.tiles:
        x, y = fr.cell_xy(tv.pos)
        want = tile_image(tv.tile, int(tv.rotation), fr.tile)
        assert bare.crop((x, y, x + fr.tile, y + fr.tile)).tobytes() == want.tobytes(), tv
    # coordinate labels: text pixels above the first column, none above an empty strip corner
    x0, y0 = fr.cell_xy(Position(fr.min_x, fr.min_y))
    top = img.crop((x0, y0 - fr.label, x0 + fr.tile, y0))
    assert any(near(p, style.TEXT_DIM, 30) for p in _pixels(top))


def _pixels(img: Image.Image) -> list[Pixel]:
    raw = img.convert("RGB").tobytes()
    return [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]


def test_followers_stand_on_their_spot_in_their_colour(
    midgame: tuple[object, list[PublicView]],
) -> None:
    view = midgame[1][-1]
    assert view.figures, "the test game should have figures on the board"
    img = decode(render_board(view, whole=True))
    fr = frame_of(view, whole=True)
    T = fr.tile
    for fig in view.figures:
        tv = next(t for t in view.tiles if t.pos == fig.pos)
        fx, fy = spot_anchor(tile(tv.tile), int(tv.rotation), fig.feature)
        lo = (figure_size(T) / 2 + max(3, T // 16)) / T  # figures stay wholly on their tile
        fx, fy = min(max(fx, lo), 1 - lo), min(max(fy, lo), 1 - lo)
        x, y = fr.cell_xy(fig.pos)
        cx, cy = x + fx * T, y + fy * T
        r = T * 0.15
        box = img.crop((int(cx - r), int(cy - r), int(cx + r), int(cy + r)))
        colour = style.seat_style(int(fig.seat)).fill
        share = sum(near(p, colour, 24) for p in _pixels(box)) / (box.size[0] * box.size[1])
        assert share > 0.2, (fig, share)


def test_farmers_lie_down() -> None:
    """A field figure's sprite is wider than tall; a city figure's is taller than wide."""
    from rendering.figures import figure_sprite

    def bbox(lying: bool) -> tuple[int, int]:
        box = figure_sprite("follower", 0, 64, lying).getbbox()
        assert box is not None
        return box[2] - box[0], box[3] - box[1]

    w, h = bbox(False)
    assert h > w
    w2, h2 = bbox(True)
    assert w2 > h2


def test_last_tile_of_each_player_is_outlined_in_their_colour(
    midgame: tuple[object, list[PublicView]],
) -> None:
    view = midgame[1][-1]
    assert len(view.last_placed) == 4
    img = decode(render_board(view))
    fr = frame_of(view)
    w = last_placed_width(fr.tile)
    for seat, pos in view.last_placed.items():
        x, y = fr.cell_xy(pos)
        probe = (x + 1 + w // 2, y + fr.tile // 2 + 3)
        assert near(px(img, probe), style.seat_style(int(seat)).fill), (seat, pos)


def test_highlight_outlines_a_cell() -> None:
    view = public_view(new_game(GameSetup(players=2), seed=5))
    img = decode(render_board(view, highlight=Position(0, 0)))
    fr = frame_of(view, highlight=Position(0, 0))
    x, y = fr.cell_xy(Position(0, 0))
    inset = max(2, fr.tile // 14)
    assert near(px(img, (x + inset + 1, y + fr.tile / 2 + 9)), (255, 255, 255))


def test_placement_overlay_numbers_cells_in_order_with_rotation_dots() -> None:
    state, _views = play(8, seed=3)
    view = public_view(state)
    placements = legal_placements(state)
    order = placement_order(placements)
    assert order == sorted(placements, key=lambda p: (p.y, p.x))
    img = decode(render_board(view, placements=placements))
    fr = frame_of(view, placements=placements)
    T = fr.tile
    for pos in order:
        x, y = fr.cell_xy(pos)
        assert near(px(img, (x + T * 0.12, y + T * 0.3)), (86, 96, 112)), pos
        # the rotation dots: count yellow runs along the dot row
        row = [px(img, (xx, y + T * 0.8)) for xx in range(x + T // 8, x + T - T // 8)]
        runs, inside = 0, False
        for p in row:
            hit = near(p, CELL_FRAME, 60)
            runs += hit and not inside
            inside = hit
        assert runs == len(placements[pos]), (pos, runs, placements[pos])
        # the number is drawn in white in the middle of the cell
        mid = img.crop((x + T // 4, y + T // 5, x + 3 * T // 4, y + 2 * T // 3))
        assert any(near(p, (255, 255, 255), 20) for p in _pixels(mid))


def test_names_in_other_scripts_have_glyphs() -> None:
    for name in ("Ana", "Борис", "Ελένη", "Zoë", "Łukasz", "Ñandú"):
        assert all(has_glyph(ch) for ch in name), name
    assert not has_glyph("\U0010fffd")


def test_header_shows_current_tile(midgame: tuple[object, list[PublicView]]) -> None:
    view = midgame[1][-1]
    assert view.drawn
    pic = board_picture(view, whole=False)
    assert pic.header is not None and pic.header.thumb is not None
    x0, y0, x1, y1 = pic.header.thumb
    # the drawn tile, unrotated, framed in the current player's colour
    assert (
        pic.image.crop(pic.header.thumb).tobytes() == tile_image(view.drawn, 0, x1 - x0).tobytes()
    )
    frame = px(pic.image, (x0 - 2, (y0 + y1) / 2))
    assert near(frame, style.seat_style(int(view.current)).fill, 10)


def test_placement_preview_shows_each_rotation() -> None:
    state, _ = play(6, seed=11)
    view = public_view(state)
    placements = legal_placements(state)
    pos = max(placements, key=lambda p: len(placements[p]))
    rots = placements[pos]
    img = decode(render_placement_preview(view, pos, rots))
    T = PREVIEW_TILE
    cols = 2 if len(rots) > 2 else len(rots)
    assert img.size[0] == 12 + cols * (3 * T + 12)
    assert view.drawn
    for i, rot in enumerate(rots):
        x = 12 + (i % cols) * (3 * T + 12)
        y = 12 + (i // cols) * (3 * T + 34 + 12) + 34
        want = tile_image(view.drawn, int(rot), T)
        got = img.crop((x + T + 4, y + T + 4, x + 2 * T - 4, y + 2 * T - 4))
        assert got.tobytes() == want.crop((4, 4, T - 4, T - 4)).tobytes(), rot


def test_spots_are_lettered_at_their_anchors() -> None:
    state, _ = play(10, seed=2, stop_at_deploy=True)
    assert state.step == "deploy"
    view = public_view(state)
    spots = [d.spot for d in legal_deploys(state)]
    assert len(spots) >= 2
    img = decode(render_spots(view, spots))
    assert view.placed is not None
    tv = next(t for t in view.tiles if t.pos == view.placed)
    T = SPOT_TILE
    edge = T // 4
    assert img.size == (T + 2 * edge, T + 2 * edge)
    rt = tile(tv.tile).rotated(int(tv.rotation))
    from engine.carcassonne.rules import parse_spot

    for spot in spots:
        fx, fy = spot_anchor(rt.tile, int(tv.rotation), parse_spot(rt, spot))
        cx, cy = edge + fx * T, edge + fy * T
        r = int(T * SPOT_RADIUS)
        assert near(px(img, (cx, cy - r + 3)), (255, 255, 255)), spot  # the white disc
        assert near(px(img, (cx + r + 1, cy)), (20, 20, 20)), spot  # its dark ring


def test_spots_reject_unknown_names() -> None:
    state, _ = play(10, seed=4, stop_at_deploy=True)
    from engine import InvalidActionError

    with pytest.raises(InvalidActionError):
        render_spots(public_view(state), ["city:NOWHERE"])


@pytest.mark.parametrize("fmt", ["gif", "webp"])
def test_animation_has_one_frame_per_view(fmt: str) -> None:
    _state, views = play(12, seed=2)
    data = render_animation(views, fmt=fmt)
    assert len(data) < 8 * 1024 * 1024
    img = Image.open(io.BytesIO(data))
    assert img.format == fmt.upper()
    assert getattr(img, "n_frames", 1) == len(views)
    assert max(img.size) <= 1024
    with pytest.raises(ValueError):
        render_animation(views, fmt="bmp")


def test_whole_game_with_every_playable_expansion_renders() -> None:
    """Every expansion the engine can play today, in one long game (others are drawn by the
    per-tile tests and the tile sheet)."""
    from engine import IllegalActionError

    exps = []
    for e in (
        "inns_cathedrals",
        "traders_builders",
        "flying_machines",
        "ferries",
        "gold_mines",
        "mage_witch",
        "robbers",
        "crop_circles_2",
        "bridges_castles_bazaars",
        "abbey_mayor",
    ):
        try:
            new_game(GameSetup(players=2, expansions=(e,)), seed=1)
        except IllegalActionError:
            continue
        exps.append(e)
    state, views = play(90, seed=9, expansions=exps)
    img = decode(render_board(views[-1]))
    assert max(img.size) <= MAX_SIDE
    # 90 turns and the start tile; a builder's second tile or a market places more in a turn
    assert len(views[-1].tiles) >= 91 or state.step == "over"


def test_tile_sheet_lists_every_tile(tmp_path: object) -> None:
    from engine.carcassonne.tiles import all_tiles

    img = decode(render_tile_sheet())
    n = len(all_tiles())
    assert n == 134
    # 12 columns of 128 px tiles: enough rows for every tile
    assert img.size[0] >= 12 * 128 and img.size[1] >= (n // 12) * 128


def test_render_tiles_command_writes_the_sheet(tmp_path: pytest.TempPathFactory) -> None:
    from pathlib import Path

    from cli.main import main

    out = Path(str(tmp_path)) / "tiles.png"
    assert main(["render-tiles", str(out)]) == 0
    img = decode(out.read_bytes())
    assert img.size[0] > 1000


def test_field_figures_face_sideways_on_the_board() -> None:
    """Spot anchors of fields lie in grass, of cities in the city: checked on rotated tiles."""
    for tid in ("BA/RCr", "BA/CRr", "IC/C!"):
        t = tile(tid)
        for rot in range(4):
            img = tile_image(tid, rot, 128)
            for f in t.features:
                fx, fy = spot_anchor(t, rot, f.index)
                want = {FeatureKind.CITY: style.CITY, FeatureKind.FIELD: style.GRASS}.get(f.kind)
                if want is not None:
                    assert near(px(img, (fx * 128, fy * 128)), want, 60), (tid, rot, f.name)


@pytest.mark.parametrize(
    "name", ["李雷", "김민준", "やまだ", "😀🎲", "👨\u200d👩\u200d👧", "محمد", "שלום"]
)
def test_names_in_any_script_and_emoji_draw_from_the_shipped_fallback_fonts(name: str) -> None:
    from rendering.fonts import fallback_paths, runs, text_mask

    assert fallback_paths(), "the fallback font packages are dependencies (pyproject.toml)"
    mask, _ox, _oy = text_mask(name, 32)
    tofu, _, _ = text_mask("\U0010fffd" * len(name), 32)
    assert mask.getbbox() is not None
    assert mask.tobytes() != tofu.tobytes()
    # every run is drawn by a font of the chain that has its characters: no box anywhere
    for f, part in runs(name, 32):
        probe, _, _ = text_mask(part, 32)
        assert f.getmask(part).getbbox() is not None, (name, part)
        assert probe.getbbox() is not None


def test_an_emoji_sequence_stays_one_run() -> None:
    from rendering.fonts import runs

    family = "👨\u200d👩\u200d👧"
    assert [part for _f, part in runs(f"Ana {family}", 24)] == ["Ana ", family]


def test_expansion_overlays_draw_on_the_board() -> None:
    """An expansion's overlay is found by id; the board calls its layer with the frame it uses."""
    from rendering import overlays

    view = public_view(new_game(GameSetup(players=2, expansions=("inns_cathedrals",)), seed=5))
    calls: list[Frame] = []

    class Magenta(overlays.Overlay):
        id = "inns_cathedrals"

        def draw_board(self, img: Image.Image, v: PublicView, fr: Frame) -> None:
            calls.append(fr)
            x, y = fr.cell_xy(Position(0, 0))
            img.paste((255, 0, 255), (x + 10, y + 10, x + 20, y + 20))

    overlays.register(Magenta())
    try:
        img = decode(render_board(view))
    finally:
        overlays.unregister("inns_cathedrals")
    assert calls == [frame_of(view)]
    x, y = calls[0].cell_xy(Position(0, 0))
    assert px(img, (x + 15, y + 15)) == (255, 0, 255)
    assert px(decode(render_board(view)), (x + 15, y + 15)) != (255, 0, 255)


def test_two_figures_on_one_spot_stand_side_by_side() -> None:
    """A follower and another figure (e.g. a builder) on one feature are both visible."""
    from engine import Seat
    from engine.carcassonne.view import FigureView

    view = public_view(new_game(GameSetup(players=2), seed=5))
    road = next(f.index for f in tile("BA/RCr").features if f.kind is FeatureKind.ROAD)
    figs = (
        FigureView(Seat(0), "follower", Position(0, 0), "road:EW", road),
        FigureView(Seat(1), "builder", Position(0, 0), "road:EW", road),
    )
    img = decode(render_board(dataclasses.replace(view, figures=figs)))
    fr = frame_of(view)
    x, y = fr.cell_xy(Position(0, 0))
    cell = img.crop((x, y, x + fr.tile, y + fr.tile))
    pts = [(i % fr.tile, i // fr.tile, p) for i, p in enumerate(_pixels(cell))]

    def centre(colour: tuple[int, int, int]) -> tuple[float, float]:
        hits = [(a, b) for a, b, p in pts if near(p, colour, 24)]
        assert len(hits) > 20, colour
        return sum(a for a, _ in hits) / len(hits), sum(b for _, b in hits) / len(hits)

    red = centre(style.seat_style(0).fill)
    blue = centre(style.seat_style(1).fill)
    assert abs(red[0] - blue[0]) > fr.tile * 0.12


def test_animation_frames_keep_figure_colours() -> None:
    """A GIF frame in mid-game shows each follower in its seat colour, at its spot."""
    from rendering.animation import animation_frame

    _state, views = play(14, seed=2)
    k = max(range(len(views)), key=lambda i: len(views[i].figures))
    view = views[k]
    assert view.figures
    gif = Image.open(io.BytesIO(render_animation(views)))
    gif.seek(k)
    frame = gif.convert("RGB")
    fr = board_picture(views[k], frame=animation_frame(views), breakdown=False).frame
    T = fr.tile
    for fig in view.figures:
        tv = next(t for t in view.tiles if t.pos == fig.pos)
        fx, fy = spot_anchor(tile(tv.tile), int(tv.rotation), fig.feature)
        lo = (figure_size(T) / 2 + max(3, T // 16)) / T  # figures stay wholly on their tile
        fx, fy = min(max(fx, lo), 1 - lo), min(max(fy, lo), 1 - lo)
        x, y = fr.cell_xy(fig.pos)
        r = fr.tile * 0.15
        box = frame.crop(
            (
                int(x + fx * fr.tile - r),
                int(y + fy * fr.tile - r),
                int(x + fx * fr.tile + r),
                int(y + fy * fr.tile + r),
            )
        )
        colour = style.seat_style(int(fig.seat)).fill
        assert any(near(p, colour, 40) for p in _pixels(box)), fig


def test_wide_boards_keep_the_score_strip_on_top() -> None:
    """Any board's players are in the strip on top, whatever its shape; the whole map is at
    least as wide as the strip needs."""
    from engine import Rotation
    from engine.carcassonne.view import TileView

    view = public_view(new_game(GameSetup(players=5, names=("A", "B", "C", "D", "E")), seed=3))
    row = tuple(TileView(Position(x, 0), "BA/RFr", Rotation.R0) for x in range(-6, 8))
    wide = dataclasses.replace(view, tiles=row)
    pic = board_picture(wide)
    assert pic.header is not None
    assert pic.frame.top == pic.header.height
    assert pic.image.size == (max(pic.frame.board_w, 800), pic.header.height + pic.frame.board_h)
    assert len(pic.header.chips) == 5
    assert all(c.box[3] <= pic.header.height for c in pic.header.chips)


def test_huge_boards_still_fit_2048() -> None:
    """Even a 150-tile straight line stays within the long-side limit."""
    from engine import Rotation
    from engine.carcassonne.view import TileView

    view = public_view(new_game(GameSetup(players=2), seed=3))
    line = tuple(TileView(Position(x, 0), "BA/RFr", Rotation.R0) for x in range(150))
    img = decode(render_board(dataclasses.replace(view, tiles=line), whole=True))
    assert max(img.size) <= MAX_SIDE
