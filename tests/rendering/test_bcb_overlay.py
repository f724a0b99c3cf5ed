"""Bridges, Castles & Bazaars drawn: real games' public views, decoded and probed — bridges over
their tiles (under the figures), castle tokens on the edge of their two tiles with the follower
on top, bridges and castles left in the panel, and the market strip under the board with the
letters every picker uses (face-down tiles as backs, no bid anywhere)."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image

from engine import Position, view_for
from engine.carcassonne.tiles import tile
from engine.carcassonne.view import PublicView
from engine.core.decisions import FeatureRef
from rendering import render_board, targets_picture
from rendering.board import board_frame, board_image, board_picture
from rendering.overlays import Overlay, overlays_of
from rendering.overlays.bridges_castles_bazaars import (
    KEEP,
    MARKET_TILE,
    PLANK,
    castle_centre,
    market_strip,
)
from rendering.targets import TargetsPicture
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
        # the east edge of the tile: planks only with the bridge (no figure there)
        bx = x + t - t // 5 - 8  # inside the last-placed frame
        got = count(img, (bx, y + t // 2 - 6, bx + 8, y + t // 2 + 6), PLANK)
        assert (got > 20) is planks, (bx, got)
    # the follower on the bridge is drawn over it: on the deck's west half, clear of the
    # cloister in the middle (issue 21), its red on the planks
    view = view_for(bridged.state)
    pic = board_picture(view)
    img, fr = pic.image, pic.frame
    x, y = fr.cell_xy(Position(0, 1))
    t = fr.tile
    red = (214, 40, 40)
    assert count(img, (x + t // 8, y + t // 3, x + 3 * t // 8, y + 2 * t // 3), red) > 30
    assert count(img, (x + 5 * t // 8, y + t // 3, x + 7 * t // 8, y + 2 * t // 3), red) == 0


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


#: a builder's second tile is a bazaar: its market's tiles lie face down for now
FACE_DOWN = (
    ["BA/RFr", "BA/L", "BA/RFr", "BA/L", "BB/R.bi", "BA/RFr", "BA/Rr", "BA/L", "BA/L"],
    [
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
    ],
)


def test_face_down_market_tiles_are_drawn_as_backs() -> None:
    p = play(*FACE_DOWN, expansions=(BCB, "traders_builders"), options=SEALED)
    strip = _strip_of(view_for(p.state))
    # two dark tile backs, no tile art (no road white)
    assert count(strip, (0, 30, 900, 40 + MARKET_TILE), (70, 60, 52)) > 2 * 4000
    assert count(strip, (0, 30, 900, 40 + MARKET_TILE), (246, 240, 222)) == 0


#: a market under way: blue took tile A, green offers the next free tile at 0
LOT_ON_OFFER = [
    *MARKET_TURN,
    "@1 bcb.offer 0@4",
    "@2 bcb.sealed pass",
    "@0 bcb.sealed pass",
    "@2 bcb.offer 1@0",
]


def test_the_market_strip_speaks_the_players_language_and_names_tiles_by_their_letters() -> None:
    """Issue 21: no raw tile id and no English in a Spanish strip; the tile on offer is the
    one lettered so under the tiles (framed), the strip is as high in both languages."""
    from engine.carcassonne.tiles import all_tiles
    from rendering.fonts import SPACING
    from rendering.overlays.bridges_castles_bazaars import STRIP_TEXT, strip_title

    p = play(PILE3, LOT_ON_OFFER, players=3, options=SEALED)
    view = view_for(p.state)
    market = view.ext[BCB].market
    assert market.lot == 1 and market.owners[0] >= 0  # tile A is gone: the lot is now A
    en, es = strip_title(view, "en"), strip_title(view, "es")
    assert en == "Market — on offer: tile A, bid to beat 0 (Player 3)"
    assert es == "Mercado — en subasta: pieza A, puja a superar 0 (Player 3)"
    ids = set(all_tiles())
    for title in (en, es):
        assert not any(tid in title for tid in ids), title
    down = view_for(play(*FACE_DOWN, expansions=(BCB, "traders_builders"), options=SEALED).state)
    assert not down.ext[BCB].market.revealed
    assert strip_title(down, "es") == "Mercado: 2 piezas apartadas boca abajo"
    a, b = market_strip(view, 960, "en"), market_strip(view, 960, "es")
    assert a is not None and b is not None and a.size == b.size
    text_h = round(STRIP_TEXT * SPACING)
    assert (
        a.crop((0, 0, 960, 12 + text_h + 6)).tobytes()
        != b.crop((0, 0, 960, 12 + text_h + 6)).tobytes()
    )
    assert (
        a.crop((0, 12 + text_h + 6, 960, a.height)).tobytes()
        == b.crop((0, 12 + text_h + 6, 960, b.height)).tobytes()
    )  # the tiles and letters are the same
    # the board picture passes the language down
    assert decode(render_board(view, lang="es")).tobytes() != decode(render_board(view)).tobytes()


def test_the_market_strips_letters_read_on_a_phone() -> None:
    from rendering.fonts import PHONE_DIGIT, PHONE_WIDTH, digit_height
    from rendering.labels import text_size
    from rendering.overlays.bridges_castles_bazaars import LABEL_R

    f = PHONE_WIDTH / 960
    assert digit_height(text_size(LABEL_R)) * f >= PHONE_DIGIT
    p = play(PILE3, LOT_ON_OFFER, players=3, options=SEALED)
    wide = market_strip(view_for(p.state), 1920, "es")
    narrow = market_strip(view_for(p.state), 960, "es")
    assert wide is not None and narrow is not None
    assert wide.height > 1.9 * narrow.height  # it grows with the picture, like the score strip


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
    from rendering.spots import spot_point

    p = play(["BA/L", "BA/L"], ["place 0,1 r0", "bcb.bridge 0,1:WE"])
    (deploy,) = pending(p.state)
    targets = [o.target for o in deploy.options]
    assert any(getattr(t, "spot", "") == "road:EW" for t in targets)
    view = view_for(p.state)
    tv = next(t for t in view.tiles if t.pos == Position(0, 1))
    assert spot_point(tv, "road:EW") == (0.5, 0.5)
    img = decode(render_targets(view, targets, [chr(65 + i) for i in range(len(targets))]))
    assert img.size[0] > 100


# ------------------------------------------------------------------------------ issue 21
#: a cloister tile with a bridge across it, and a straight road with a bridge over its middle
CLOISTER_BRIDGED = (["BA/L", "BA/L"], ["place 0,1 r0", "bcb.bridge 0,1:WE"])
ROAD_BRIDGED = (["BA/RFr", "BA/L"], ["place 1,0 r0", "bcb.bridge 1,0:NS"])


def test_a_bridge_across_a_cloister_keeps_the_cloister_in_sight() -> None:
    """The rulebook lets a bridge cross a cloister: the planks run from edge to edge and the
    cloister's building is drawn over them, its red roof in the tile's middle."""
    from rendering.style import ROOF

    for lang in ("en", "es"):
        bridged = view_for(play(*CLOISTER_BRIDGED).state)
        pic = board_picture(bridged, lang=lang)
        img, fr = pic.image, pic.frame
        x, y = fr.cell_xy(Position(0, 1))
        t = fr.tile
        middle = (x + t // 3, y + t // 4, x + 2 * t // 3, y + 3 * t // 4)
        assert count(img, middle, ROOF) > t * t // 60, "the cloister's roof is hidden"
        for bx in (x + t // 5, x + t - t // 5 - 8):  # the deck still runs edge to edge
            assert count(img, (bx, y + t // 2 - 6, bx + 8, y + t // 2 + 6), PLANK) > 20


def _labels_of(moves: tuple[list[str], list[str]]) -> tuple[PublicView, TargetsPicture]:
    from engine.carcassonne.rules import pending

    p = play(*moves)
    (deploy,) = pending(p.state)
    targets = [o.target for o in deploy.options]
    view = view_for(p.state)
    return view, targets_picture(view, targets, [chr(65 + i) for i in range(len(targets))])


def test_no_spot_label_of_what_lies_under_a_bridge_sits_on_its_deck() -> None:
    """Field and road letters stand beside the deck; only the bridge's own road is lettered on
    it (on a cloister tile: on the planks, clear of the cloister's letter)."""
    from rendering.labels import label_extent
    from rendering.overlays.bridges_castles_bazaars import DECK

    for moves, axis in ((CLOISTER_BRIDGED, "WE"), (ROAD_BRIDGED, "NS")):
        view, pic = _labels_of(moves)
        labels, grid = pic.labels, pic.grid
        assert grid is not None
        (bridge,) = view.ext[BCB].bridges
        x, y = grid.cell_xy(bridge.pos.x, bridge.pos.y)
        t = grid.tile
        lo, hi = 0.5 - DECK, 0.5 + DECK
        deck = (
            (x + lo * t, y, x + hi * t, y + t)
            if axis == "NS"
            else (x, y + lo * t, x + t, y + hi * t)
        )
        printed = set(
            tile(next(tv.tile for tv in view.tiles if tv.pos == bridge.pos)).rotated(0).spots
        )
        on_deck = []
        for lab in labels:
            hw, hh = label_extent(lab.label, max(11, int(t * 0.065)))
            cx, cy = lab.at
            meets = (
                cx + hw > deck[0] and cx - hw < deck[2] and cy + hh > deck[1] and cy - hh < deck[3]
            )
            if meets:
                assert isinstance(lab.target, FeatureRef)
                on_deck.append(lab.target.spot)
        laid = [s for s in on_deck if s.startswith("road:") and s not in printed]
        others = [s for s in on_deck if s not in laid and s != "cloister"]
        assert laid, "the bridge's road is lettered on its deck"
        assert not others, others
        # every letter is by itself: no two pills overlap
        for a in labels:
            for b in labels:
                if a is not b:
                    assert math.dist(a.at, b.at) > 2 * 11, (a.label, b.label)
