"""A board picture kept from one view to the next and redrawn only where the view changed.

A replay draws one picture per turn on one fixed frame (issue 15). From one turn to the next
the board only gains a tile, a few figures come or go, a player's last tile moves, and the
score strip changes; drawing every picture whole spent most of a replay's time on pixels that
were already there. :class:`BoardCanvas` keeps the last picture and, for the next view, redraws
the score strip and only the boxes of the board those changes touch: each box is reset from
the background layer (table, grid, coordinates) and drawn again with every layer of
:func:`rendering.board.board_picture`, in the same order and at the same pixel positions,
limited to what meets the box (:func:`rendering.board.draw_board_part`). Anything drawn whole
over a box (an overlay's tokens, a figure standing half in it) is drawn on a scratch copy, so
pixels outside the box are never touched twice. The pictures are those drawn whole, pixel for
pixel (``tests/rendering/test_canvas.py``), and :meth:`BoardCanvas.draw` says which boxes may
differ from the previous picture, so the replay diffs and encodes only those.

What changes a box: a tile added, replaced or removed (its cell); a player's last tile (old and
new cell); a figure placed, removed or moved (its sprite's box, before and after); an overlay's
tokens, when its model (``view.ext[overlay.id]``) changes: everything it drew before and draws
now, found by drawing it alone on a clear layer. An overlay's board drawing is taken to depend
on the view only through its model and the frame (true of every overlay today; the test with
every expansion checks it). The strips under the board are compared and pasted again when they
changed.

A picture is drawn whole when its layout moves (the score strip's height, the strips under the
board, the picture's size) and for a view with events (features outlined, points, the final
figures), then the next one is drawn whole too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageChops

from engine.carcassonne.events import Event
from engine.carcassonne.geometry import Position, Rotation
from engine.carcassonne.view import FigureView, PublicView
from rendering.board import (
    Box,
    PlacedSprite,
    board_background,
    board_picture,
    draw_board_part,
    place_figures,
)
from rendering.frame import Frame
from rendering.header import draw_header, header_layout
from rendering.overlays import Overlay, overlays_of
from rendering.region import MIN_WIDTH, overlay_strips
from rendering.scored import final_figures

#: what identifies a figure as drawn: the figure, where its sprite goes and the sprite's size
_SpriteKey = tuple[FigureView, tuple[int, int], tuple[int, int]]


@dataclass(frozen=True, slots=True)
class _Shown:
    """What the canvas shows: the view, its layout and what its board part drew."""

    view: PublicView
    shown: PublicView
    fr: Frame
    size: tuple[int, int]
    strips: tuple[bytes, ...]
    strip_sizes: tuple[tuple[int, int], ...]
    tiles: dict[Position, tuple[str, Rotation]]
    sprites: dict[_SpriteKey, PlacedSprite]
    whole_only: bool


class BoardCanvas:
    """Board pictures of the views of one game on one ``frame`` (whole map, score strip on top,
    no breakdown: the replay's frames), each drawn on the previous one.

    :meth:`draw` returns the picture (the same image object, changed in place: copy it to keep
    it) and the boxes that may differ from the previous picture (``None``: drawn whole): the
    parts of the score strip that changed (found by comparing it with the strip before, a
    part per player's chip), the board's boxes, the strips under the board if they changed."""

    def __init__(self, frame: Frame, *, lang: str = "en") -> None:
        self.frame = frame
        self.lang = lang
        self.width = max(frame.board_w, MIN_WIDTH)
        self.image: Image.Image | None = None
        self._was: _Shown | None = None
        self._background: Image.Image | None = None
        self._scratch: Image.Image | None = None
        #: pictures drawn whole and boxes redrawn so far (tests and benchmarks look)
        self.whole = 0
        self.boxes = 0

    def draw(
        self,
        view: PublicView,
        events: Sequence[Event] = (),
        *,
        drawn: Image.Image | None = None,
    ) -> tuple[Image.Image, list[Box] | None]:
        """The picture of ``view`` (``events``: its last move's, as for
        :func:`rendering.board.board_picture`) and the boxes that may differ from the last
        picture drawn, or ``None`` when drawn whole. ``drawn``, if given, is the picture
        already drawn whole (used when this one has to be)."""
        was = self._was
        header = header_layout(view, self.width)
        top = header.height
        fr = self.frame.at((self.width - self.frame.board_w) // 2, top)
        strips = overlay_strips(view, self.width, self.lang)
        size = (self.width, top + fr.board_h + sum(s.size[1] for s in strips))
        strip_sizes = tuple(s.size for s in strips)
        shown = _shown(view, events)
        if (
            was is None
            or self.image is None
            or events
            or was.whole_only
            or was.fr != fr
            or was.size != size
            or was.strip_sizes != strip_sizes
        ):
            return self._draw_whole(view, shown, events, fr, size, strips, drawn), None
        img = self.image
        tiles = _tiles(shown, fr)
        sprites = {_key(ps): ps for ps in place_figures(shown, fr, tiles)}
        boxes = _merge(
            _clip(b, (0, top, size[0], top + fr.board_h))
            for b in self._changes(was, view, shown, fr, tiles, sprites)
        )
        if boxes:
            bg, scratch = self._layers(size, fr)
            placed = list(sprites.values())
            for box in boxes:  # copies on Pillow's cores: the same as crop and paste
                scratch.im.paste(bg.im.crop(box), box)
                draw_board_part(scratch, view, shown, fr, placed=placed, within=box)
                img.im.paste(scratch.im.crop(box), box)
            self.boxes += len(boxes)
        strip = (0, 0, size[0], top)
        before = img.im.crop(strip)
        draw_header(img, view, header, self.lang, keep_chips=True)
        changed = before.chop_difference(img.im.crop(strip))
        out = [*_changed_parts(changed, [c.box[0] for c in header.chips]), *boxes]
        blobs = tuple(s.tobytes() for s in strips)
        if blobs != was.strips:
            y = top + fr.board_h
            below = (0, y, size[0], size[1])
            bg, _scratch = self._layers(size, fr)
            img.paste(bg.crop(below), below[:2])
            for pic in strips:
                img.paste(pic, ((size[0] - pic.size[0]) // 2, y))
                y += pic.size[1]
            out.append(below)
        self._was = _Shown(view, shown, fr, size, blobs, strip_sizes, tiles, sprites, False)
        return img, out

    def _draw_whole(
        self,
        view: PublicView,
        shown: PublicView,
        events: Sequence[Event],
        fr: Frame,
        size: tuple[int, int],
        strips: Sequence[Image.Image],
        drawn: Image.Image | None,
    ) -> Image.Image:
        if drawn is None:
            drawn = board_picture(
                view, frame=self.frame, lang=self.lang, events=events, breakdown=False
            ).image
        assert drawn.size == size, (drawn.size, size)
        if self._was is None or self._was.fr != fr or self._was.size != size:
            self._background = self._scratch = None
        self.image = drawn
        tiles = _tiles(shown, fr)
        sprites = {_key(ps): ps for ps in place_figures(shown, fr, tiles)}
        blobs = tuple(s.tobytes() for s in strips)
        sizes = tuple(s.size for s in strips)
        # a picture with events outlines features and draws points: the next is drawn whole
        self._was = _Shown(view, shown, fr, size, blobs, sizes, tiles, sprites, bool(events))
        self.whole += 1
        return drawn

    def _layers(self, size: tuple[int, int], fr: Frame) -> tuple[Image.Image, Image.Image]:
        """The background every box is reset from, and the scratch picture boxes are drawn on."""
        if self._background is None or self._scratch is None:
            self._background = board_background(size, fr)
            self._scratch = self._background.copy()
        return self._background, self._scratch

    def _changes(
        self,
        was: _Shown,
        view: PublicView,
        shown: PublicView,
        fr: Frame,
        tiles: dict[Position, tuple[str, Rotation]],
        sprites: dict[_SpriteKey, PlacedSprite],
    ) -> list[Box]:
        """The boxes of the board that may differ between ``was`` and ``view``."""
        T = fr.tile

        def cell(pos: Position) -> Box:
            x, y = fr.cell_xy(pos)
            return (x, y, x + T, y + T)

        out = [
            cell(p)
            for p in sorted(tiles.keys() | was.tiles.keys())
            if tiles.get(p) != was.tiles.get(p)
        ]
        before, now = was.view.last_placed, view.last_placed
        for seat in sorted(before.keys() | now.keys()):
            if before.get(seat) != now.get(seat):
                out += [cell(p) for p in (before.get(seat), now.get(seat)) if p and fr.contains(p)]
        for key in was.sprites.keys() ^ sprites.keys():
            ps = was.sprites.get(key) or sprites[key]
            out.append((*ps.at, ps.at[0] + ps.sprite.size[0], ps.at[1] + ps.sprite.size[1]))
        for ov in overlays_of(view):
            if view.ext.get(ov.id) != was.view.ext.get(ov.id):
                out += _drawn_by(ov, was.shown, fr, was.size)
                out += _drawn_by(ov, shown, fr, was.size)
        return out


def _shown(view: PublicView, events: Sequence[Event]) -> PublicView:
    """``view`` with the figures its picture draws (as :func:`board_picture` does)."""
    if view.over:
        return dataclasses.replace(view, figures=final_figures(view, events))
    return view


def _tiles(view: PublicView, fr: Frame) -> dict[Position, tuple[str, Rotation]]:
    return {tv.pos: (tv.tile, tv.rotation) for tv in view.tiles if fr.contains(tv.pos)}


def _key(ps: PlacedSprite) -> _SpriteKey:
    return (ps.figure, ps.at, ps.sprite.size)


def _drawn_by(ov: Overlay, view: PublicView, fr: Frame, size: tuple[int, int]) -> list[Box]:
    """Where ``ov`` draws on the board of ``view``: drawn alone on a black and on a white layer
    (a pixel it draws shows on one of them at least)."""
    out = []
    for fill in ((0, 0, 0), (255, 255, 255)):
        layer = Image.new("RGB", size, fill)
        ov.draw_under(layer, view, fr)
        ov.draw_board(layer, view, fr)
        box = (layer if fill == (0, 0, 0) else ImageChops.invert(layer)).getbbox()
        if box is not None:
            out.append(box)
    return out


def _changed_parts(diff: Any, cuts: Sequence[int]) -> list[Box]:
    """The boxes round what changed in the score strip (``diff``: the difference of the strip
    before and after, a Pillow image core), one per column between ``cuts`` (where the
    players' chips start): the chips that did not change are left out, so nobody quantises
    them again."""
    width, height = diff.size
    out = []
    xs = sorted({0, width, *(x for x in cuts if 0 < x < width)})
    for x0, x1 in zip(xs, xs[1:], strict=False):
        box = diff.crop((x0, 0, x1, height)).getbbox(False)
        if box is not None:
            out.append((x0 + box[0], box[1], x0 + box[2], box[3]))
    return out


def _clip(box: Box, limit: Box) -> Box | None:
    x0, y0 = max(box[0], limit[0]), max(box[1], limit[1])
    x1, y1 = min(box[2], limit[2]), min(box[3], limit[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _merge(boxes: Iterable[Box | None]) -> list[Box]:
    """The boxes, overlapping or touching ones joined into their bounding box."""
    out: list[Box] = []
    for b in boxes:
        if b is None:
            continue
        while True:
            for i, o in enumerate(out):
                if b[0] <= o[2] and o[0] <= b[2] and b[1] <= o[3] and o[1] <= b[3]:
                    b = (min(b[0], o[0]), min(b[1], o[1]), max(b[2], o[2]), max(b[3], o[3]))
                    del out[i]
                    break
            else:
                break
        out.append(b)
    return out
