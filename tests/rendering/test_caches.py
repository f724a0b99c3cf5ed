"""The renderer's caches: bounded by count and bytes, least recently used dropped first, never
changing a picture (decoded pixels equal with the caches full or empty), and the warm-up that
fills them ahead of the first game."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import legal_deploys, legal_placements, public_view
from engine.carcassonne.tiles import all_tiles
from rendering import cache, cache_stats, fonts, render_board, render_spots, warm_up_report
from rendering.cache import Memo, memo, nbytes
from rendering.layout import tile_layout
from rendering.warm import WARM_TILES, turn_font_sizes

from .conftest import play

BOTH = ("inns_cathedrals", "traders_builders")


def pixels(png: bytes) -> tuple[str, tuple[int, int], bytes]:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.mode, img.size, img.tobytes()


@pytest.fixture
def scratch() -> object:
    """Caches made by a test are taken off the registry afterwards."""
    before = dict(cache.CACHES)
    yield None
    cache.CACHES.clear()
    cache.CACHES.update(before)


def test_count_bound_drops_the_least_recently_used(scratch: object) -> None:
    calls: list[int] = []

    @memo("test.count", entries=3, budget=1 << 20)
    def square(n: int) -> int:
        calls.append(n)
        return n * n

    for n in (1, 2, 3):
        assert square(n) == n * n
    assert square(1) == 1  # a hit: 1 becomes the most recently used
    square(4)  # drops 2, the least recently used
    assert calls == [1, 2, 3, 4]
    square(1)
    square(3)
    assert calls == [1, 2, 3, 4]  # still there
    square(2)
    assert calls == [1, 2, 3, 4, 2]
    s = square.stats()
    assert (s.entries, s.max_entries, s.hits, s.misses) == (3, 3, 3, 5)


def test_byte_budget_bounds_pictures(scratch: object) -> None:
    @memo("test.bytes", entries=1000, budget=100_000)
    def picture(n: int) -> Image.Image:
        return Image.new("RGB", (100, 100), (n, n, n))

    for n in range(20):
        picture(n)
    s = picture.stats()
    each = nbytes(Image.new("RGB", (100, 100)))
    assert each == 100 * 100 * 4 + 200  # RGB is stored 4 bytes a pixel
    assert s.entries == 2 and s.nbytes == 2 * each <= s.budget
    # a result bigger than the whole budget is still returned, and kept alone
    big = Memo(lambda: Image.new("L", (500, 500)), "test.big", 10, 1000)
    assert big().size == (500, 500)
    assert big.stats().entries == 1


def test_keyword_arguments_are_part_of_the_key(scratch: object) -> None:
    @memo("test.kw", entries=8, budget=1 << 20)
    def f(a: int, b: int = 0) -> int:
        return a + 10 * b

    assert (f(1), f(1, b=2), f(1, 2)) == (1, 21, 21)


def test_every_renderer_cache_stays_within_its_limits_after_a_game() -> None:
    _, views = play(200, seed=9, expansions=BOTH)
    for v in views[::10]:
        render_board(v, whole=True)
        render_board(v)
    listed = {s.name for s in cache_stats()}
    assert {"tiles.image", "tiles.base", "fonts.face", "fonts.text_mask", "fonts.width"} <= listed
    for s in cache_stats():
        assert s.max_entries > 0 and s.budget > 0, s
        assert s.entries <= s.max_entries and s.nbytes <= s.budget, s


def test_font_faces_are_bounded() -> None:
    """Asking for more sizes than :data:`fonts.FONT_FACES` keeps at most that many faces; a
    dropped face is made again when wanted, and measures the same."""
    width = fonts.text_width("Zoë 17", 23, True)
    for size in range(6, 6 + fonts.FONT_FACES + 10):
        fonts.font(size, False)
    s = next(s for s in cache_stats() if s.name == "fonts.face")
    assert s.entries == fonts.FONT_FACES
    assert s.nbytes == fonts.FONT_FACES * fonts.FACE_BYTES
    assert fonts.font(23, True).getlength("Zoë 17") == width


@pytest.mark.parametrize("text", ["Ana", "Борис 12", "Ελένη", "王小明", "Zoë 🐑", "x"])
def test_cached_widths_are_the_fonts_own(text: str) -> None:
    for size, bold in ((22, False), (50, True)):
        want = sum(f.getlength(part) for f, part in fonts.runs(text, size, bold))
        assert fonts.text_width(text, size, bold) == want
        assert fonts.text_width(text, size, bold) == want  # the cached value


def test_pictures_are_the_same_with_caches_full_or_empty() -> None:
    """A turn picture, a spots picture and a whole final map drawn with every cache warm and
    again after emptying them all decode to the same pixels."""
    state, views = play(40, seed=5, expansions=BOTH, stop_at_deploy=True)
    ds = legal_deploys(state)
    _, done = play(300, seed=5)
    turn_state, _ = play(30, seed=5, expansions=BOTH)
    legal = legal_placements(turn_state)

    def draw() -> list[tuple[str, tuple[int, int], bytes]]:
        return [
            pixels(render_board(public_view(turn_state), placements=legal)),
            pixels(render_spots(public_view(state), [d.spot for d in ds])),
            pixels(render_board(done[-1], lang="es")),
        ]

    warm = draw()
    assert draw() == warm
    cache.clear()
    assert all(s.entries == 0 for s in cache_stats())
    assert draw() == warm


def test_warm_up_covers_every_tile_layout_and_the_faces_of_every_turn() -> None:
    """After the warm-up, a game with both expansions drawn turn by turn (legal cells numbered,
    scorings outlined) and its spot pictures derive no tile layout and set up no font face."""
    report = warm_up_report()
    assert report.tiles == len(all_tiles())
    assert report.faces == len(turn_font_sizes()) >= 20
    assert report.overlays >= 1
    again = warm_up_report()
    assert again.new_faces == 0  # all still there
    layouts = tile_layout.cache_info().misses  # type: ignore[attr-defined]
    faces = fonts.faces_made()
    state, views = play(45, seed=2, expansions=BOTH, stop_at_deploy=True)
    for n in range(2, 46, 3):
        st, vs = play(n, seed=2, expansions=BOTH)
        render_board(vs[-1], placements=legal_placements(st))
    render_spots(public_view(state), [d.spot for d in legal_deploys(state)])
    assert tile_layout.cache_info().misses == layouts  # type: ignore[attr-defined]
    assert fonts.faces_made() == faces


def test_warm_tiles_reach_the_first_turns_tile() -> None:
    from rendering.board import TURN_TILE

    assert max(WARM_TILES) == TURN_TILE
