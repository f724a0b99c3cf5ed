"""Bridges, Castles & Bazaars drawn: real games' public views, decoded and probed — bridges over
their tiles (under the figures), castle tokens on the edge of their two tiles with the follower
on top, bridges and castles left in the panel, and the market strip under the board with the
letters every picker uses (face-down tiles as backs, no bid anywhere)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from engine import Position, view_for
from engine.carcassonne.view import PublicView
from rendering import render_board
from rendering.board import board_frame, board_image, board_picture
from rendering.overlays import Overlay, overlays_of
from rendering.overlays.bridges_castles_bazaars import (
    KEEP,
    MARKET_TILE,
    PLANK,
    castle_centre,
    market_strip,
)
from tests.engine.expansions.bcb_helpers import BCB, NO_BRIDGES, NO_CASTLES, NO_MARKETS, play
from tests.engine.expansions.test_bcb_castles import CASTLE_A, SIDE_BY_SIDE, SIDE_PILE
from tests.engine.expansions.test_bcb_markets import MARKET_TURN, PILE3, SEALED


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def near(c: Sequence[int], want: Sequence[int], tol: int = 30) -> bool:
    return sum(abs(a - b) for a, b in zip(c[:3], want[:3], strict=True)) <= tol


def count(img: Image.Image, box: tuple[int, int, int, int], colour: Sequence[int]) -> int:
    crop = img.crop(box)
    raw = crop.tobytes()
    return sum(1 for i in range(0, len(raw), 3) if near(raw[i : i + 3], colour))


def test_a_bridge_is_drawn_across_its_tile_under_a_follower_on_it() -> None:
    bridged = play(["BA/L", "BA/L"], ["place 0,1 r0", "bcb.bridge 0,1:WE", "deploy road:EW"])
    plain = play(["BA/L", "BA/L"], ["place 0,1 r0", "pass", "deploy cloister"])
    for p, planks in ((bridged, True), (plain, False)):
        view = view_for(p.state)
        pic = board_picture(view)
        img, fr = pic.image, pic.frame
        x, y = fr.cell_xy(Position(0, 1))
        t = fr.tile
        # west and east edges of the tile: planks only with the bridge (no figure there)
        for bx in (x + t // 5, x + t - t // 5 - 8):  # inside the last-placed frame
            got = count(img, (bx, y + t // 2 - 6, bx + 8, y + t // 2 + 6), PLANK)
            assert (got > 20) is planks, (bx, got)
    # the follower on the bridge is drawn over it: its red shows at the tile's middle
    view = view_for(bridged.state)
    pic = board_picture(view)
    img, fr = pic.image, pic.frame
    x, y = fr.cell_xy(Position(0, 1))
    assert (
        count(
            img,
            (x + fr.tile // 3, y + fr.tile // 3, x + 2 * fr.tile // 3, y + 2 * fr.tile // 3),
            (214, 40, 40),
        )
        > 30
    )


def test_castle_tokens_stand_on_the_edge_of_their_two_tiles_with_the_follower_on_top() -> None:
    p = play(SIDE_PILE, SIDE_BY_SIDE, options=(NO_BRIDGES, NO_MARKETS))
    view = view_for(p.state)
    pic = board_picture(view)
    img, fr = pic.image, pic.frame
    for castle, colour in zip(p.model.castles, ((214, 40, 40), (30, 100, 220)), strict=True):
        cx, cy = (int(v) for v in castle_centre(fr, castle.tiles))
        k = fr.tile // 5
        assert count(img, (cx - k, cy - k, cx + k, cy + k), KEEP) > 40
        # the owner's follower above the token
        assert count(img, (cx - k, cy - 2 * k - 10, cx + k, cy - k), colour) > 20
    decode(render_board(view))


def test_panel_shows_bridges_and_castles_left() -> None:
    p = play(["BA/C", "BA/L"], CASTLE_A, options=(NO_MARKETS,), skip_bridges=True)
    view = view_for(p.state)
    (ov,) = [o for o in overlays_of(view) if o.id == BCB]
    items = ov.panel_items(view, 0, 24)  # type: ignore[arg-type]
    assert items is not None and [n for _, n in items] == [3, 2]
    other = ov.panel_items(view, 1, 24)  # type: ignore[arg-type]
    assert other is not None and [n for _, n in other] == [3, 3]
    only_bridges = play(["BA/L"], [], options=(NO_CASTLES, NO_MARKETS))
    got = ov.panel_items(view_for(only_bridges.state), 0, 24)  # type: ignore[arg-type]
    assert got is not None and len(got) == 1


def _strip_of(view: PublicView) -> Image.Image:
    pic = market_strip(view, 900)
    assert pic is not None
    return pic


def test_the_market_strip_letters_the_tiles_on_offer_like_the_pickers() -> None:
    p = play(PILE3, MARKET_TURN, players=3, options=SEALED)
    view = view_for(p.state)
    full = board_image(view)
    no_strip = board_image(view_for(play(PILE3, [], players=3, options=SEALED).state))
    strip = market_strip(view, full.size[0])
    assert strip is not None
    assert full.size[1] >= strip.size[1] + 300 and full.size[1] > no_strip.size[1]
    # the bottom of the board picture is the strip
    bottom = full.crop((0, full.size[1] - strip.size[1], full.size[0], full.size[1]))
    assert bottom.tobytes() == strip.tobytes()
    strip = _strip_of(view)
    # three tiles, each with a white letter disc under it
    white = count(strip, (0, 40 + MARKET_TILE, 900, strip.size[1]), (255, 255, 255))
    assert white > 3 * 60
    # once blue has its tile, that one shows blue's disc and the others are A and B
    q = play(
        PILE3,
        [*MARKET_TURN, "@1 bcb.offer 0@0", "@2 bcb.sealed pass", "@0 bcb.sealed pass"],
        players=3,
        options=SEALED,
    )
    taken = _strip_of(view_for(q.state))
    assert count(taken, (0, 40 + MARKET_TILE, 900, taken.size[1]), (30, 100, 220)) > 100


def test_the_strip_never_shows_a_bid_and_face_down_tiles_are_backs() -> None:
    opened = play(PILE3, [*MARKET_TURN, "@1 bcb.offer 0@2"], players=3, options=SEALED)
    view = view_for(opened.state)
    before = _strip_of(view).tobytes()
    after_bid = play(
        PILE3, [*MARKET_TURN, "@1 bcb.offer 0@2", "@0 bcb.sealed 7"], players=3, options=SEALED
    )
    # a sealed bid changes nothing a channel picture shows
    assert _strip_of(view_for(after_bid.state)).tobytes() == before
    assert render_board(view_for(after_bid.state)) == render_board(view)


def test_face_down_market_tiles_are_drawn_as_backs() -> None:
    pile = ["BA/RFr", "BA/L", "BA/RFr", "BA/L", "BB/R.bi", "BA/RFr", "BA/Rr", "BA/L", "BA/L"]
    moves = [
        "place 1,0 r0",
        "deploy road:EW",
        "place 0,1 r0",
        "pass",
        "place 2,0 r0",
        "deploy builder road:EW",
        "place 0,2 r0",
        "pass",
        "place 3,0 r90",
        "pass",
    ]
    p = play(pile, moves, expansions=(BCB, "traders_builders"), options=SEALED)
    strip = _strip_of(view_for(p.state))
    # two dark tile backs, no tile art (no road white)
    assert count(strip, (0, 30, 900, 40 + MARKET_TILE), (70, 60, 52)) > 2 * 4000
    assert count(strip, (0, 30, 900, 40 + MARKET_TILE), (246, 240, 222)) == 0


def test_overlay_hooks_default_to_nothing() -> None:
    class Quiet(Overlay):
        id = "quiet"

    q = Quiet()
    view = view_for(play(["BA/L"], []).state)
    assert q.strip(view, 100) is None
    img = Image.new("RGB", (10, 10))
    q.draw_under(img, view, board_frame(view))
    assert img.tobytes() == Image.new("RGB", (10, 10)).tobytes()


def test_a_follower_spot_on_a_bridge_is_drawn_in_a_choice_picture() -> None:
    """The deploy choice after a bridge on the tile just placed offers the bridge's road: its
    letter goes to the tile's middle (the printed tile has no such spot)."""
    from engine.carcassonne.rules import pending
    from rendering import render_targets
    from rendering.targets import spot_point

    p = play(["BA/L", "BA/L"], ["place 0,1 r0", "bcb.bridge 0,1:WE"])
    (deploy,) = pending(p.state)
    targets = [o.target for o in deploy.options]
    assert any(getattr(t, "spot", "") == "road:EW" for t in targets)
    view = view_for(p.state)
    tv = next(t for t in view.tiles if t.pos == Position(0, 1))
    assert spot_point(tv, "road:EW") == (0.5, 0.5)
    img = decode(render_targets(view, targets, [chr(65 + i) for i in range(len(targets))]))
    assert img.size[0] > 100
