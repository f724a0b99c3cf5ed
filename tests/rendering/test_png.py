"""The PNG writer (rows unfiltered, zlib): every file decodes with Pillow to exactly the pixels
of the image, and of Pillow's own file of it, for real pictures and random images; the file is
well formed (signature, header, CRCs, unfiltered rows) and not bigger than Pillow's."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from engine import legal_deploys, legal_placements, public_view
from rendering import png
from rendering.board import board_image
from rendering.figures import figure_sprite
from rendering.fonts import text_mask
from rendering.frame import encode_png
from rendering.marks import spots_image

from .conftest import play

BOTH = ("inns_cathedrals", "traders_builders")


def pillow_png(img: Image.Image, level: int = 1) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=level)
    return buf.getvalue()


def decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    return img


def assert_same_pixels(img: Image.Image, data: bytes) -> None:
    """``data`` decodes to ``img``'s mode, size and pixels, as Pillow's own PNG of it does."""
    mine, theirs = decoded(data), decoded(pillow_png(img))
    assert (mine.mode, mine.size) == (img.mode, img.size) == (theirs.mode, theirs.size)
    assert mine.tobytes() == img.tobytes() == theirs.tobytes()


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The chunks of a PNG file, each CRC checked."""
    assert data[:8] == png.SIGNATURE
    out = []
    at = 8
    while at < len(data):
        (n,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + n]
        (crc,) = struct.unpack(">I", data[at + 8 + n : at + 12 + n])
        assert crc == zlib.crc32(kind + body)
        out.append((kind, body))
        at += 12 + n
    assert at == len(data)
    return out


@pytest.fixture(scope="module")
def pictures() -> dict[str, Image.Image]:
    """Real pictures: turn pictures early and late, the whole map and final board of a game with
    both expansions, a spots picture, figure sprites (RGBA) and a text mask (L)."""
    _, views = play(300, seed=4, expansions=BOTH)
    assert views[-1].over
    mid_state, mid = play(25, seed=4, expansions=BOTH, stop_at_deploy=True)
    base_state, base = play(25, seed=4)
    legal = {p: tuple(r) for p, r in legal_placements(base_state).items()}
    ds = legal_deploys(mid_state)
    return {
        "turn 1": board_image(views[0], whole=False),
        "turn 26": board_image(base[-1], placements=legal, whole=False),
        "whole": board_image(mid[-1], whole=True, lang="es"),
        "final": board_image(views[-1]),
        "spots": spots_image(public_view(mid_state), [d.spot for d in ds]),
        "sprite": figure_sprite("follower", 2, 60, False),
        "lying sprite": figure_sprite("follower", 0, 41, True),
        "mask": text_mask("Борис 42", 33, True, 2)[0],
        "tall": board_image(views[0]).crop((0, 0, 3, 301)),
    }


@pytest.mark.parametrize(
    "name",
    ["turn 1", "turn 26", "whole", "final", "spots", "sprite", "lying sprite", "mask", "tall"],
)
def test_real_pictures_decode_to_the_same_pixels_as_pillows_png(
    pictures: dict[str, Image.Image], name: str
) -> None:
    img = pictures[name]
    data = encode_png(img)
    assert_same_pixels(img, data)


@pytest.mark.parametrize("name", ["turn 1", "turn 26", "whole", "final", "spots"])
def test_board_pictures_are_no_bigger_than_pillows(
    pictures: dict[str, Image.Image], name: str
) -> None:
    """Unfiltered rows at zlib level 2 against Pillow's filtered level 1 (what the renderer
    wrote before): within 10 %."""
    img = pictures[name]
    assert len(encode_png(img)) <= 1.1 * len(pillow_png(img, 1))


def test_file_is_one_header_one_data_chunk_and_the_end_with_unfiltered_rows(
    pictures: dict[str, Image.Image],
) -> None:
    img = pictures["final"]
    found = chunks(encode_png(img))
    assert [k for k, _ in found] == [b"IHDR", b"IDAT", b"IEND"]
    w, h, depth, colour, comp, filt, interlace = struct.unpack(">IIBBBBB", found[0][1])
    assert (w, h, depth, colour, comp, filt, interlace) == (*img.size, 8, 2, 0, 0, 0)
    raw = zlib.decompress(found[1][1])
    row = 1 + 3 * w
    assert len(raw) == row * h
    assert all(raw[y * row] == 0 for y in range(h))  # filter "none" on every row
    assert b"".join(raw[y * row + 1 : (y + 1) * row] for y in range(h)) == img.tobytes()


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "LA"])
@pytest.mark.parametrize("size", [(1, 1), (5, 3), (3, png.BAND), (7, png.BAND + 1), (2, 200)])
def test_noise_of_every_mode_and_odd_sizes_round_trips(mode: str, size: tuple[int, int]) -> None:
    rnd = random.Random(hash((mode, size)) & 0xFFFF)
    img = Image.frombytes(mode, size, rnd.randbytes(size[0] * size[1] * len(mode)))
    assert_same_pixels(img, png.encode(img))


@settings(max_examples=40, deadline=None)
@given(
    mode=st.sampled_from(["RGB", "RGBA", "L", "LA"]),
    w=st.integers(1, 90),
    h=st.integers(1, 3 * png.BAND),
    seed=st.integers(0, 2**16),
    flat=st.booleans(),
    level=st.integers(0, 9),
)
def test_any_image_round_trips(
    mode: str, w: int, h: int, seed: int, flat: bool, level: int
) -> None:
    """Random images (noise, or a few flat colour blocks like our art) at any zlib level."""
    rnd = random.Random(seed)
    if flat:
        img = Image.new(mode, (w, h), tuple(rnd.randrange(256) for _ in mode))  # type: ignore[arg-type]
        for _ in range(4):
            x0, y0 = rnd.randrange(w), rnd.randrange(h)
            box = (x0, y0, rnd.randrange(x0, w) + 1, rnd.randrange(y0, h) + 1)
            img.paste(tuple(rnd.randrange(256) for _ in mode), box)  # type: ignore[arg-type]
    else:
        img = Image.frombytes(mode, (w, h), rnd.randbytes(w * h * len(mode)))
    assert_same_pixels(img, png.encode(img, level))


def test_other_modes_are_written_by_pillow() -> None:
    """A palette image keeps its palette (Pillow writes it); the pixels come back the same."""
    img = Image.new("RGB", (40, 30), (200, 30, 30)).convert("P", palette=Image.Palette.ADAPTIVE)
    img.paste(1, (5, 5, 20, 20))
    out = decoded(png.encode(img))
    assert out.mode == "P"
    assert out.convert("RGB").tobytes() == img.convert("RGB").tobytes()


@pytest.mark.parametrize("fast", [True, False])
def test_isal_and_zlib_write_the_same_pixels(fast: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """By default deflate is ISA-L's (``isal``, when installed), else the standard library's
    zlib: either way the file is a PNG of exactly the image, as small as Pillow's."""
    if fast and png._isal is None:
        pytest.skip("isal is not installed")
    monkeypatch.setattr(png, "FAST", fast)
    rnd = random.Random(15)
    for mode in ("RGB", "RGBA", "L", "LA"):
        for size in ((1, 1), (3, png.ISAL_BAND), (7, png.ISAL_BAND + 1), (5, 2 * png.BAND + 3)):
            img = Image.frombytes(mode, size, rnd.randbytes(size[0] * size[1] * len(mode)))
            assert_same_pixels(img, png.encode(img))
    _state, views = play(40, seed=4, players=3, expansions=BOTH)
    img = board_image(views[-1])
    data = encode_png(img)
    assert_same_pixels(img, data)
    assert len(data) <= len(pillow_png(img))
    if fast:  # ISA-L's stream is not zlib's (other matcher), but it is a zlib stream
        monkeypatch.setattr(png, "FAST", False)
        assert data != encode_png(img)
