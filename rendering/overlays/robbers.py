"""Robbers: the robber printed on its tiles (the symbol ``robber``, a small masked face in a
corner, drawn upright) and the robbers themselves, from the public track (``view.track``):

* **the score strip** (:meth:`RobbersOverlay.panel_items`): on each player's line, first their
  own robber, in their colour, with 1 while it is in front of them and 0 while it stands on the
  track; then every other player's robber standing beside one of this player's scoring figures
  (their victim), in its owner's colour inside a red ring, with the space it stands on. So a
  robber is drawn next to its victim's score, and reads at phone width (the icons are the
  strip's figure icons' size).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from PIL import Image

from engine.carcassonne.track import space
from engine.carcassonne.view import PublicView
from engine.core.seats import Seat
from rendering import style as st
from rendering.figures import SS
from rendering.layout import Symbol
from rendering.overlays import Overlay, PanelItem, Place, SymbolArt
from rendering.pen import Pen, rel

#: the expansion's id and its figure on the track
ID = "robbers"
ROBBER = "robber"
#: the ring around a robber standing beside its victim
THREAT = (200, 20, 20)
FACE = (40, 40, 40)
MASK = (230, 230, 230)


def paint_face(pen: Pen, sym: Symbol, fill: st.RGB, ring: st.RGB | None = None) -> None:
    """A round face in ``fill`` with a white mask and two eyes (``ring``: a thick rim)."""
    c, s = sym.at, sym.size
    if ring is not None:
        pen.disc(c, s * 0.5, ring)
    pen.disc(c, s * 0.42, fill, (255, 255, 255), 0.006)
    pen.rect(rel(c, s, [(-0.36, -0.12)])[0], rel(c, s, [(0.36, 0.04)])[0], MASK)
    pen.disc(rel(c, s, [(-0.15, -0.04)])[0], s * 0.06, st.DARK)
    pen.disc(rel(c, s, [(0.15, -0.04)])[0], s * 0.06, st.DARK)


def paint_robber(pen: Pen, sym: Symbol) -> None:
    """The printed symbol: a dark face with a white mask."""
    paint_face(pen, sym, FACE)


def robber_icon(seat: int, size: int, threat: bool = False) -> Image.Image:
    """RGBA icon of ``seat``'s robber, ``size`` px square (``threat``: in a red ring)."""
    big = max(1, size) * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    sym = Symbol(ROBBER, (0.5, 0.5), 1.0, "")
    paint_face(Pen(img), sym, st.seat_style(seat).fill, THREAT if threat else None)
    return img.resize((max(1, size), max(1, size)), Image.Resampling.LANCZOS)


def plays_robbers(view: PublicView) -> bool:
    return ID in view.ext


def victim_spaces(view: PublicView, seat: Seat) -> set[int]:
    """The spaces of ``seat``'s scoring figures: its marker and any scoring figure on the
    track."""
    figures = [f for f in view.track if f.seat == seat and f.scoring]
    score = next((p.score for p in view.players if p.seat == seat), 0)
    marker = score - sum(f.value for f in figures)
    return {space(marker), *(space(f.value) for f in figures)}


class RobbersOverlay(Overlay):
    id = ID
    symbols = MappingProxyType({"robber": SymbolArt(paint_robber, Place.CORNER, 0.2, upright=True)})

    def panel_items(self, view: PublicView, seat: Seat, icon: int) -> Sequence[PanelItem] | None:
        """``seat``'s own robber (1 in front, 0 on the track), then the robbers beside it."""
        if not plays_robbers(view):
            return None
        robbers = [f for f in view.track if f.kind == ROBBER and not f.scoring]
        home = 0 if any(f.seat == seat for f in robbers) else 1
        items: list[PanelItem] = [(robber_icon(int(seat), icon), home)]
        mine = victim_spaces(view, seat)
        for f in sorted(robbers, key=lambda f: int(f.seat)):
            if f.seat != seat and f.value in mine:
                items.append((robber_icon(int(f.seat), icon, threat=True), int(f.value)))
        return items


OVERLAY = RobbersOverlay()
