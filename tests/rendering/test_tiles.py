"""Tile art: every tile type in every rotation, probed at its edges and its feature anchors."""

from __future__ import annotations

import math

import pytest
from PIL import Image

from engine.carcassonne.tiles import EdgeKind, FeatureKind, all_tiles, tile
from rendering import spot_anchor, style
from rendering.layout import tile_layout
from rendering.marks import SPOT_RADIUS
from rendering.tiles import tile_image

SIZE = 64
ALL = sorted(all_tiles())


def near(c: tuple[int, ...], want: tuple[int, int, int], tol: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want, strict=True)) <= tol


def edge_probe(img: Image.Image, side: int) -> tuple[int, ...]:
    s = img.size[0]
    inset = 2
    xy = [(s // 2, inset), (s - 1 - inset, s // 2), (s // 2, s - 1 - inset), (inset, s // 2)][side]
    px = img.getpixel(xy)
    assert isinstance(px, tuple)
    return px


EDGE_COLOUR = {EdgeKind.CITY: style.CITY, EdgeKind.ROAD: style.ROAD, EdgeKind.FIELD: style.GRASS}


@pytest.mark.parametrize("tile_id", ALL)
def test_every_rotation_shows_the_edges_of_the_data(tile_id: str) -> None:
    t = tile(tile_id)
    for rot in range(4):
        img = tile_image(tile_id, rot, SIZE)
        assert img.size == (SIZE, SIZE) and img.mode == "RGB"
        edges = t.rotated(rot).edges
        for side, kind in enumerate(edges):
            if kind is EdgeKind.SEALED:
                continue
            got = edge_probe(img, side)
            assert near(got, EDGE_COLOUR[kind]), (tile_id, rot, "NESW"[side], kind, got)


@pytest.mark.parametrize("tile_id", ALL)
def test_feature_anchors_sit_on_their_feature(tile_id: str) -> None:
    """A follower's spot is drawn on the right kind of ground, and spots do not pile up."""
    t = tile(tile_id)
    img = tile_image(tile_id, 0, 128)
    seen: list[tuple[float, float]] = []
    for f in t.features:
        fx, fy = spot_anchor(t, 0, f.index)
        assert 0.0 < fx < 1.0 and 0.0 < fy < 1.0
        px = img.getpixel((int(fx * 128), int(fy * 128)))
        assert isinstance(px, tuple)
        if f.kind is FeatureKind.CITY:
            assert near(px, style.CITY, 60), (tile_id, f.name, px)
        elif f.kind is FeatureKind.ROAD:
            assert near(px, style.ROAD, 60), (tile_id, f.name, px)
        elif f.kind is FeatureKind.FIELD:
            assert near(px, style.GRASS, 60), (tile_id, f.name, px)
        for other in seen:  # spot letters (discs of 2 x SPOT_RADIUS + ring) must not overlap
            assert math.dist(other, (fx, fy)) > 2 * SPOT_RADIUS + 0.02, (tile_id, f.name)
        seen.append((fx, fy))


def test_spot_anchor_turns_with_the_tile() -> None:
    t = tile("BA/RCr")  # city N, road W-E
    city = next(f.index for f in t.features if f.kind is FeatureKind.CITY)
    x0, y0 = spot_anchor(t, 0, city)
    assert y0 < 0.3 and abs(x0 - 0.5) < 0.15
    x1, y1 = spot_anchor(t, 1, city)  # turned 90° clockwise: the city is east
    assert x1 > 0.7 and abs(y1 - 0.5) < 0.15
    assert (x1, y1) == pytest.approx((1 - y0, x0))


def hedge_pixels(tile_id: str) -> int:
    raw = tile_image(tile_id, 0, 128).tobytes()
    return sum(1 for i in range(0, len(raw), 3) if near(tuple(raw[i : i + 3]), style.HEDGE, 30))


@pytest.mark.parametrize(
    "tile_id", ["IC/C!", "AM/C!+", "TB/CcR!.w", "BB/CFR!", "AM/CRr", "CC.2/CFC"]
)
def test_field_splitting_walls_are_drawn(tile_id: str) -> None:
    """Fields that the data keeps apart are separated by a visible wall."""
    assert hedge_pixels(tile_id) > 60
    assert tile_layout(tile_id).field_walls


@pytest.mark.parametrize("tile_id", ["BA/C", "BA/Cc.1", "BA/L", "IC/RrRr"])
def test_no_walls_where_the_fields_are_not_split(tile_id: str) -> None:
    assert hedge_pixels(tile_id) == 0


def test_separate_cities_do_not_touch() -> None:
    """IC/CCCC has four cities: the grass between them is a connected inner field."""
    lay = tile_layout("IC/CCCC")
    field = next(f.index for f in tile("IC/CCCC").features if f.kind is FeatureKind.FIELD)
    assert sum(1 for lab in lay.labels if lab == field) > 200
    img = tile_image("IC/CCCC", 0, 128)
    px = img.getpixel((64, 64))
    assert isinstance(px, tuple) and near(px, style.GRASS)


def test_cached_images_are_reused() -> None:
    assert tile_image("BA/Cc.1", 1, 80) is tile_image("BA/Cc.1", 1, 80)


def test_warm_up_computes_layouts_ahead() -> None:
    from rendering import warm_up

    assert warm_up(["BA/C", "BA/L"]) == 2
    assert tile_layout.cache_info().currsize >= 2  # type: ignore[attr-defined]


@pytest.mark.parametrize("tile_id", ALL)
def test_grass_is_partitioned_exactly_as_the_data_says(tile_id: str) -> None:
    """Each field's half-edges lie in that field's area of the picture (so the drawn walls
    separate exactly the fields TILES.md lists), and every field has an area."""
    from rendering.layout import GRID, HALF_SEGMENTS

    t = tile(tile_id)
    lay = tile_layout(tile_id)
    for f in t.features:
        if f.kind is not FeatureKind.FIELD:
            continue
        assert f.index in lay.labels, (tile_id, f.name, "has no area")
        for h in range(8):
            if not f.halves >> h & 1:
                continue
            (ax, ay), (bx, by) = HALF_SEGMENTS[h]
            mx, my = (ax + bx) / 2, (ay + by) / 2
            # two cells in from the edge, towards the centre
            gx = min(GRID - 1, int(mx * GRID + (2 if mx < 0.5 else -2 if mx > 0.5 else 0)))
            gy = min(GRID - 1, int(my * GRID + (2 if my < 0.5 else -2 if my > 0.5 else 0)))
            assert lay.labels[gy * GRID + gx] == f.index, (tile_id, f.name, h)


def test_abbey_is_stone_to_the_edge() -> None:
    """The abbey tile has no grass: it joins nothing, whatever touches it."""
    img = tile_image("AM/A", 0, 64)
    for side in range(4):
        assert not near(edge_probe(img, side), style.GRASS, 60)


def test_font_ships_in_a_package_not_a_system_path() -> None:
    import fontpkg_noto_sans  # type: ignore[import-untyped]

    from rendering.fonts import font_path

    path = font_path()
    assert path.is_file() and path.suffix == ".ttf"
    assert str(path).startswith(str(fontpkg_noto_sans.ROOT))
