"""Move overlays: the zoomed placement preview and the lettered follower spots."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.rules import parse_spot
from engine.carcassonne.tiles import tile
from engine.carcassonne.view import PublicView
from rendering import style as st
from rendering.board import draw_counts, draw_tiles_and_figures, figure_kinds
from rendering.figures import figure_sprite
from rendering.fonts import font
from rendering.frame import Frame, encode_png
from rendering.layout import spot_anchor
from rendering.tiles import tile_image

PREVIEW_TILE = 128
SPOT_TILE = 320
#: radius of a spot letter's disc, as a share of the tile (spots are >= 0.16 apart)
SPOT_RADIUS = 0.065


def spot_letter(i: int) -> str:
    """``A``, ``B``, ... ``Z``, ``AA`` ...: the label of the ``i``-th offered spot."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def _neighbourhood(
    view: PublicView, pos: Position, tile_px: int, radius: int = 1
) -> tuple[Image.Image, Frame]:
    fr = Frame(pos.x - radius, pos.y - radius, 2 * radius + 1, 2 * radius + 1, tile_px, label=0)
    img = Image.new("RGB", (fr.cols * tile_px, fr.rows * tile_px), st.TABLE)
    d = ImageDraw.Draw(img)
    for i in range(fr.cols + 1):
        d.line((i * tile_px, 0, i * tile_px, img.size[1]), fill=st.TABLE_GRID)
        d.line((0, i * tile_px, img.size[0], i * tile_px), fill=st.TABLE_GRID)
    draw_tiles_and_figures(img, view, fr, skip=pos)
    return img, fr


def placement_preview_image(
    view: PublicView, pos: Position, rotations: Sequence[Rotation]
) -> Image.Image:
    """The drawn tile at ``pos`` in each of ``rotations``, with its neighbours, labelled in degrees."""
    if view.drawn is None:
        raise ValueError("no tile is drawn: nothing to preview")
    rots = list(rotations) or [Rotation.R0]
    T = PREVIEW_TILE
    pad, head = 12, 34
    cell = 3 * T
    cols = 2 if len(rots) > 2 else len(rots)
    rows = -(-len(rots) // cols)
    img = Image.new("RGB", (pad + cols * (cell + pad), pad + rows * (cell + head + pad)), st.PANEL)
    d = ImageDraw.Draw(img)
    base, _fr = _neighbourhood(view, pos, T)
    label_f = font(22, bold=True)
    for i, rot in enumerate(rots):
        x = pad + (i % cols) * (cell + pad)
        y = pad + (i // cols) * (cell + head + pad)
        d.text(
            (x + cell / 2, y + head / 2),
            f"{Rotation(rot).degrees}°",
            font=label_f,
            fill=st.TEXT,
            anchor="mm",
        )
        pic = base.copy()
        pic.paste(tile_image(view.drawn, int(rot), T), (T, T))
        pd = ImageDraw.Draw(pic)
        pd.rectangle((T, T, 2 * T - 1, 2 * T - 1), outline=(250, 220, 90), width=3)
        img.paste(pic, (x, y + head))
    return img


def render_placement_preview(
    view: PublicView, pos: Position, rotations: Sequence[Rotation]
) -> bytes:
    """PNG: the drawn tile shown at ``pos`` in each legal rotation, labelled 0°/90°/180°/270°."""
    return encode_png(placement_preview_image(view, pos, rotations))


def spots_image(view: PublicView, spots: Sequence[str]) -> Image.Image:
    """The just-placed tile enlarged, each of ``spots`` labelled A, B, C... in the given order;
    with expansion figures, a strip below shows the deploying player's figures left."""
    if view.placed is None:
        raise ValueError("no tile has just been placed: no spots to show")
    tv = next(t for t in view.tiles if t.pos == view.placed)
    T = SPOT_TILE
    edge = T // 4  # a strip of each neighbour for context
    fr = Frame(tv.pos.x - 1, tv.pos.y - 1, 3, 3, T, label=0)
    full = Image.new("RGB", (3 * T, 3 * T), st.TABLE)
    draw_tiles_and_figures(full, view, fr)
    img = full.crop((T - edge, T - edge, 2 * T + edge, 2 * T + edge))
    d = ImageDraw.Draw(img)
    # dim the neighbours so the tile in play stands out
    shade = Image.new("RGB", img.size, (0, 0, 0))
    mask = Image.new("L", img.size, 110)
    ImageDraw.Draw(mask).rectangle((edge, edge, edge + T - 1, edge + T - 1), fill=0)
    img.paste(shade, (0, 0), mask)
    d.rectangle((edge - 2, edge - 2, edge + T + 1, edge + T + 1), outline=(250, 220, 90), width=3)
    rt = tile(tv.tile).rotated(int(tv.rotation))
    f = font(int(T * 0.1), bold=True)
    r = int(T * SPOT_RADIUS)
    seen: dict[int, int] = {}
    for i, spot in enumerate(spots):
        idx = parse_spot(rt, spot)
        fx, fy = spot_anchor(rt.tile, int(tv.rotation), idx)
        # the same feature offered twice (e.g. once per figure kind): letters side by side
        n = seen.get(idx, 0)
        seen[idx] = n + 1
        if n:
            step = 2.4 * SPOT_RADIUS * (1 if fx < 0.6 else -1)
            fx += step * ((n + 1) // 2) * (1 if n % 2 else -1)
            fx = min(max(fx, SPOT_RADIUS), 1 - SPOT_RADIUS)
        cx, cy = edge + fx * T, edge + fy * T
        d.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=(20, 20, 20))
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255))
        d.text((cx, cy), spot_letter(i), font=f, fill=(20, 20, 20), anchor="mm")
    return _with_supply(img, view)


#: height of the strip under the spots that shows the player's figures left
SUPPLY_STRIP = 48
SUPPLY_ICON = 30


def _with_supply(img: Image.Image, view: PublicView) -> Image.Image:
    """Add a strip with the deploying player's figures left by kind (icon and count) when the
    match has more kinds than followers, so the player sees what each spot could take."""
    player = next((p for p in view.players if p.seat == view.current), None)
    if player is None or len(player.supply) < 2:
        return img
    out = Image.new("RGB", (img.size[0], img.size[1] + SUPPLY_STRIP), st.PANEL)
    out.paste(img, (0, 0))
    items = [
        (figure_sprite(k, int(player.seat), SUPPLY_ICON), player.supply[k])
        for k in figure_kinds(player.supply)
    ]
    base = img.size[1] + SUPPLY_STRIP - 7
    draw_counts(out, items, 12, base, out.size[0] - 8, icon=SUPPLY_ICON, text=20)
    return out


def render_spots(view: PublicView, spots: Sequence[str]) -> bytes:
    """PNG: the just-placed tile enlarged with each offered spot labelled A, B, C...

    Spots of any figure kind (follower, large follower, builder, pig) are feature names, so one
    list serves them all; a feature listed twice gets two letters side by side."""
    return encode_png(spots_image(view, spots))
