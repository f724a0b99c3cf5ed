"""Warm-up: what a fresh process would otherwise compute during its first pictures.

A process that has drawn nothing yet derives each tile type's layout the first time a board
shows it (about 20 ms a type, 134 types: the first game with expansions paid ~0.6 s over its
first turns) and sets up a font face for each text size the first time it draws at that size
(~10 ms each, FreeType's auto-hinter). :func:`warm_up` does both ahead of time; the bot calls
it at start-up and in each rendering worker process.

The font sizes warmed are those of the pictures every turn shows: the turn picture (its score
strip at the turn picture's width, and the coordinates, cell numbers and points of its tiles at
every size from :data:`WARM_TILES`), and the spot and target pictures (one is drawn to find
them). Whole maps and final boards scale their text with the board's width, so their sizes
vary from game to game and are not warmed; the face cache keeps the recent ones.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from rendering import fonts
from rendering.layout import tile_layout

#: tile sizes of the turn picture warmed: from the first turn's (the largest) down to those
#: of a board of ~200 tiles
WARM_TILES = range(40, 152 + 1, 8)


@dataclass(frozen=True, slots=True)
class WarmUpReport:
    """What :func:`warm_up_report` did: tile layouts derived, font faces set up (and how
    many were new), overlays loaded, and the CPU seconds it took."""

    tiles: int
    faces: int
    new_faces: int
    overlays: int
    seconds: float


def turn_font_sizes() -> set[tuple[int, bool]]:
    """The (size, bold) of every text of a turn picture, for any of :data:`WARM_TILES`."""
    from rendering.board import (
        LABEL,
        TURN_TILE,
        TURN_WIDTH,
        cell_number_size,
        coord_size,
        corner_size,
    )
    from rendering.header import scale_of, text_sizes
    from rendering.scored import pill_size

    out = set(text_sizes(scale_of(TURN_WIDTH)))
    out.add((corner_size(LABEL), True))
    # the main font's glyph check (which font of the chain draws a character)
    out.add((32, False))
    for t in (*WARM_TILES, TURN_TILE):
        out.update({(coord_size(t), True), (cell_number_size(t), True), (pill_size(t), True)})
    return out


def _spot_picture_sizes() -> None:
    """Draw the spots of the first tile of a new game: sets up the faces of spot and target
    pictures (labels, figures, the strip of figures left)."""
    from engine.carcassonne.actions import PlaceTile
    from engine.carcassonne.placement import legal_deploys, legal_placements
    from engine.carcassonne.rules import apply, new_game
    from engine.carcassonne.state import GameSetup
    from engine.carcassonne.view import public_view
    from engine.core.decisions import Cell
    from rendering.marks import spots_image
    from rendering.targets import targets_picture

    state = new_game(GameSetup(players=2), seed=1)
    for pos, rots in sorted(legal_placements(state).items()):
        after = apply(state, state.current, PlaceTile(pos, rots[0])).state
        if after.step == "deploy" and legal_deploys(after):
            ds = legal_deploys(after)
            view = public_view(after)
            spots_image(view, [d.spot for d in ds], [d.figure for d in ds])
            targets_picture(view, [Cell(pos.x, pos.y)], ["1"], title="1")
            return


def warm_up_report(tile_ids: Iterable[str] | None = None, *, faces: bool = True) -> WarmUpReport:
    """Derive the layouts of ``tile_ids`` (default: every tile type of every expansion), load
    every expansion's overlay and, with ``faces``, set up the font faces of the turn picture
    and the spot pictures; returns what was done."""
    from engine.carcassonne.registry import all_expansions
    from engine.carcassonne.tiles import all_tiles
    from rendering.overlays import overlay_for

    t0 = time.process_time()
    ids = list(all_tiles()) if tile_ids is None else list(tile_ids)
    for tid in ids:
        tile_layout(tid)
    loaded = sum(overlay_for(exp.id) is not None for exp in all_expansions())
    before = fonts.faces_made()
    made = 0
    if faces:
        sizes = turn_font_sizes()
        for size, bold in sorted(sizes):
            fonts.warm_face(size, bold)
        _spot_picture_sizes()
        made = len(sizes)
    return WarmUpReport(
        len(ids), made, fonts.faces_made() - before, loaded, time.process_time() - t0
    )


def warm_up(tile_ids: Iterable[str] | None = None, *, faces: bool = True) -> int:
    """Compute the layouts of ``tile_ids`` (default: every tile type of every expansion) and
    load every expansion's overlay ahead of the first board; with ``faces``, also set up the
    font faces every turn's pictures use (see the module). Returns how many tile types were
    done. A bot calls this once at start-up (in a worker thread) and in each worker process."""
    return warm_up_report(tile_ids, faces=faces).tiles
