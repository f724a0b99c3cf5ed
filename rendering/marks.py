"""Marks for the tile turn: the zoomed placement preview and the lettered spots of the placed
tile (numbered cells are drawn by :func:`rendering.board.render_board`; any other decision's
targets by :mod:`rendering.targets`)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.view import PublicView
from engine.core.decisions import FeatureRef
from rendering import style as st
from rendering.board import draw_tiles_and_figures
from rendering.fonts import font
from rendering.frame import Frame, encode_png
from rendering.strips import SUPPLY_STRIP as SUPPLY_STRIP
from rendering.targets import SPOT_RADIUS as SPOT_RADIUS
from rendering.targets import TARGET_TILE, targets_picture
from rendering.tiles import tile_image

PREVIEW_TILE = 128
#: tile side of the spots picture (one tile: the largest a target picture draws)
SPOT_TILE = TARGET_TILE


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


def spots_image(
    view: PublicView, spots: Sequence[str], figures: Sequence[str | None] | None = None
) -> Image.Image:
    """The just-placed tile enlarged, each of ``spots`` labelled A, B, C... in the given order;
    with expansion figures, a strip below shows the deploying player's figures left.

    A thin wrapper over :func:`rendering.targets.targets_picture` with one
    :class:`FeatureRef` per spot on the placed tile."""
    if view.placed is None:
        raise ValueError("no tile has just been placed: no spots to show")
    pos = view.placed
    targets = [FeatureRef(pos.x, pos.y, s) for s in spots]
    labels = [spot_letter(i) for i in range(len(spots))]
    return targets_picture(view, targets, labels, seat=view.current, figures=figures).image


def render_spots(
    view: PublicView, spots: Sequence[str], figures: Sequence[str | None] | None = None
) -> bytes:
    """PNG: the just-placed tile enlarged with each offered spot labelled A, B, C...

    Spots of any figure kind are feature names, so one list serves them all; a feature listed
    twice gets one letter per offer, clear of the others; with ``figures`` (the kind each spot
    is offered for) every letter shows its figure."""
    return encode_png(spots_image(view, spots, figures))
