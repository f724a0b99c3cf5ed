"""Replay frames drawn on the previous frame (issue 15): the same pixels as frames drawn whole.

:class:`rendering.canvas.BoardCanvas` redraws only the boxes of the board a view changes and
the score strip; these tests draw real games with every built expansion both ways and compare
every pixel: the frames themselves, the boxes it says may have changed, and the decoded GIF.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat

from engine import GameSetup, PublicView, apply, new_game, public_view
from engine.carcassonne.events import Event
from engine.carcassonne.randomplay import choose_move
from engine.core.rng import Rng
from rendering import animation, header, render_animation
from rendering import style as st
from rendering.animation import animation_frame
from rendering.board import board_picture
from rendering.canvas import BoardCanvas
from rendering.frame import Frame
from rendering.header import header_layout

ALL = ("inns_cathedrals", "traders_builders", "abbey_mayor", "bridges_castles_bazaars")
NAMES = ("Ana", "Борис", "Ελένη", "Zoë")


def replay_views(
    seed: int, expansions: tuple[str, ...], players: int = 4
) -> tuple[list[PublicView], list[Event]]:
    """One view per turn of a random game played to the end (as the bot's replay has them)
    and the last move's events."""
    state = new_game(
        GameSetup(players=players, expansions=expansions, names=NAMES[:players]), seed=seed
    )
    rng = Rng(seed)
    views = [public_view(state)]
    last: list[Event] = []
    while state.step != "over":
        seat, act = choose_move(state, rng)
        tr = apply(state, seat, act)
        state, last = tr.state, list(tr.events)
        if state.step != "deploy":
            views.append(public_view(state))
    return views, last


@pytest.fixture(scope="module")
def every_expansion() -> tuple[list[PublicView], list[Event]]:
    """A whole 2-player game with every built expansion: bridges, a castle, a barn, the
    market, goods, every figure kind (checked: the tests mean something only if so)."""
    views, last = replay_views(12, ALL, players=2)

    def most(ext: str, what: str) -> int:
        return max(len(getattr(v.ext.get(ext), what, ())) for v in views)

    assert most("bridges_castles_bazaars", "bridges") and most("bridges_castles_bazaars", "castles")
    assert most("abbey_mayor", "barns")
    assert any(getattr(v.ext.get("bridges_castles_bazaars"), "market", None) for v in views)
    kinds = {f.figure for v in views for f in v.figures}
    assert kinds >= {"follower", "large", "builder", "pig", "mayor", "wagon"}, kinds
    return views, last


def whole(view: PublicView, fr: Frame, events: Sequence[Event] = ()) -> Image.Image:
    """The replay's picture of ``view`` drawn whole (every chip drawn)."""
    return board_picture(view, frame=fr, events=events, breakdown=False).image


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize("expansions", [ALL, ()])
def test_every_frame_is_the_frame_drawn_whole_and_changes_only_in_its_boxes(
    expansions: tuple[str, ...], every_expansion: tuple[list[PublicView], list[Event]]
) -> None:
    # the base game's last view comes without its events (a game ended by resignation):
    # its picture (game over, winners' stars) is drawn on the one before too
    views, last = every_expansion if expansions else (replay_views(7, ())[0], [])
    fr = animation_frame(views)
    canvas = BoardCanvas(fr)
    previous: Image.Image | None = None
    drawn_on = area = 0
    for i, view in enumerate(views):
        events = last if i == len(views) - 1 else []
        img, boxes = canvas.draw(view, events)
        assert same(img, whole(view, fr, events)), f"frame {i} differs"
        if boxes is not None:
            assert previous is not None
            drawn_on += 1
            outside = img.copy()
            for box in boxes:  # put the previous picture back inside every box
                outside.paste(previous.crop(box), box[:2])
            assert same(outside, previous), f"frame {i} changed outside its boxes"
            top = header_layout(view, canvas.width).height  # the board's boxes are under it
            area += sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes if b[1] >= top)
        previous = img.copy()
    # most frames were drawn on the previous one: the score strip and a few boxes of the
    # board, a tenth of the pictures' area at most
    assert canvas.whole == len(views) - drawn_on <= len(views) // 5
    assert canvas.boxes >= drawn_on
    assert previous is not None
    assert area < drawn_on * previous.width * previous.height // 10


def test_chips_drawn_from_the_chip_cache_are_the_chips_drawn(
    every_expansion: tuple[list[PublicView], list[Event]],
) -> None:
    """Strips drawn with ``keep_chips`` (the replay) are the strips drawn chip by chip."""
    views, _last = every_expansion
    width = BoardCanvas(animation_frame(views)).width
    hits = header.CHIPS.stats().hits
    for v in views[::5]:
        lay = header_layout(v, width)
        kept = Image.new("RGB", (width, lay.height))
        drawn = kept.copy()
        header.draw_header(kept, v, lay, keep_chips=True)
        header.draw_header(drawn, v, lay)
        assert same(kept, drawn)
    assert header.CHIPS.stats().hits > hits


def decoded(data: bytes) -> list[tuple[Image.Image, int]]:
    gif = Image.open(io.BytesIO(data))
    return [(f.convert("RGB"), f.info.get("duration", 0)) for f in ImageSequence.Iterator(gif)]


def per_view(frames: list[tuple[Image.Image, int]], views: int) -> list[Image.Image]:
    """The decoded picture showing each view (a view drawn like the one before it is not a
    frame of its own: the frame before is shown longer, 500 ms a view)."""
    out: list[Image.Image] = []
    for img, ms in frames[:-1]:
        out += [img] * (ms // 500)
    out += [frames[-1][0]] * (views - len(out))
    return out


def test_the_gif_decodes_to_the_frames_of_the_gif_drawn_whole(
    every_expansion: tuple[list[PublicView], list[Event]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The GIF made frame on frame and the GIF made of frames drawn whole (every frame diffed
    in full, as before issue 15's change) decode to the same pictures, pixel for pixel."""
    views, last = every_expansion
    fast = render_animation(views, events=last)

    def draw_whole(
        self: BoardCanvas, view: PublicView, events: object = (), *, drawn: object = None
    ) -> tuple[Image.Image, None]:
        return whole(view, self.frame, events), None  # type: ignore[arg-type]

    with monkeypatch.context() as m:
        m.setattr(BoardCanvas, "draw", draw_whole)
        slow = render_animation(views, events=last)
    a, b = decoded(fast), decoded(slow)
    assert len(a) == len(b) > len(views) * 3 // 4
    for i, ((fa, ms_a), (fb, ms_b)) in enumerate(zip(a, b, strict=True)):
        assert same(fa, fb), f"frame {i} differs"
        assert ms_a == ms_b
    # the last frame is the final board: figures back, scored features outlined
    fr = animation_frame(views)
    want = whole(views[-1], fr, last)
    final = a[-1][0].crop((0, 0, *want.size))
    err = ImageStat.Stat(ImageChops.difference(final, want).convert("L")).mean[0]
    assert err < 1.0, err


def test_the_palette_from_a_ninth_of_the_pixels_keeps_colours(
    every_expansion: tuple[list[PublicView], list[Event]],
) -> None:
    """The palette is made from every third pixel of every third row: the seat colours are
    still exact, and frames are as close to their true colours as with a palette of every
    pixel (mean error well under one level in 255)."""
    views, last = every_expansion
    fr = animation_frame(views)
    n = len(views) - 1
    frames = [whole(views[i], fr, last if i == n else []) for i in (0, n // 2, n)]
    size = (max(f.width for f in frames), max(f.height for f in frames))
    ninth = animation._palette(frames, size)
    assert animation.PALETTE_STEP == 3
    try:
        animation.PALETTE_STEP = 1
        every = animation._palette(frames, size)
    finally:
        animation.PALETTE_STEP = 3

    def error(palette: Image.Image) -> float:
        out = []
        for f in frames:
            q = f.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
            out.append(ImageStat.Stat(ImageChops.difference(q, f).convert("L")).mean[0])
        return max(out)

    assert error(ninth) < 1.0
    assert error(ninth) <= error(every) * 1.5 + 0.1
    colours = ninth.getpalette() or []
    entries = {tuple(colours[i : i + 3]) for i in range(0, len(colours), 3)}
    for p in views[0].players:
        assert st.seat_style(int(p.seat)).fill in entries, p
