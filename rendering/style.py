"""Colours and per-seat marks shared by every picture.

Player colours follow the physical game (red, blue, yellow, green, black, pink); each seat also
has its own shape so colour-blind players can tell figures apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

# tile art
GRASS: RGB = (140, 192, 92)
GRASS_DARK: RGB = (112, 160, 70)
HEDGE: RGB = (92, 66, 38)
HEDGE_LIGHT: RGB = (160, 124, 78)
CITY: RGB = (222, 178, 110)
CITY_DARK: RGB = (196, 146, 80)
WALL: RGB = (112, 78, 48)
ROAD: RGB = (246, 240, 222)
ROAD_EDGE: RGB = (104, 92, 78)
WATER: RGB = (70, 152, 214)
WATER_DARK: RGB = (34, 96, 160)
ROOF: RGB = (196, 68, 48)
STONE: RGB = (236, 230, 214)
DARK: RGB = (40, 34, 30)
PENNANT: RGB = (40, 86, 178)
#: the timber sides of a road that passes over another road or a city
OVERPASS: RGB = (150, 120, 86)

# board and panel
TABLE: RGB = (46, 50, 58)
TABLE_GRID: RGB = (62, 67, 77)
TEXT: RGB = (236, 236, 240)
TEXT_DIM: RGB = (160, 166, 178)
PANEL: RGB = (34, 37, 43)
HIGHLIGHT: RGB = (255, 255, 255)


class Mark(Enum):
    """The shape printed on a seat's figures and next to its name."""

    CIRCLE = "circle"
    SQUARE = "square"
    TRIANGLE = "triangle"
    DIAMOND = "diamond"
    STAR = "star"
    CROSS = "cross"


@dataclass(frozen=True, slots=True)
class SeatStyle:
    """How a seat is drawn: name of the colour, fill, outline/mark colour and shape."""

    colour_name: str
    fill: RGB
    ink: RGB
    mark: Mark


SEAT_STYLES: tuple[SeatStyle, ...] = (
    SeatStyle("red", (214, 40, 40), (255, 255, 255), Mark.CIRCLE),
    SeatStyle("blue", (30, 100, 220), (255, 255, 255), Mark.SQUARE),
    SeatStyle("yellow", (250, 204, 20), (30, 30, 30), Mark.TRIANGLE),
    SeatStyle("green", (20, 120, 50), (255, 255, 255), Mark.DIAMOND),
    SeatStyle("black", (28, 28, 28), (255, 255, 255), Mark.STAR),
    SeatStyle("pink", (240, 110, 200), (30, 30, 30), Mark.CROSS),
)
#: figures no player owns (seat -1: the mage, the witch ...): light grey, dark rim and mark
NEUTRAL = SeatStyle("neutral", (206, 206, 210), (40, 40, 40), Mark.DIAMOND)


def seat_style(seat: int) -> SeatStyle:
    """The style of ``seat`` (0-based); seats beyond six reuse the palette."""
    return SEAT_STYLES[seat % len(SEAT_STYLES)] if seat >= 0 else NEUTRAL
