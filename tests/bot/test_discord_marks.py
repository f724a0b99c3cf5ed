"""The colour mark beside a player's name is the colour their figures have on the board.

The marks are checked against the renderer's own seat table (rendering/style.py) by colour
distance, and through the real discord.py stack: the turn message's scores and the board PNG
agree on who is which colour.
"""

from __future__ import annotations

import re
import unicodedata

from bot.ui import presenters as ui
from rendering.style import SEAT_STYLES, seat_style
from tests.bot.tiletable import Table, png_of, start_match

#: Unicode names the standard library may not know yet (PINK HEART is Unicode 15)
NEWER_NAMES = {"\U0001fa77": "PINK HEART"}


def colour_word(emoji: str) -> str:
    """The colour an emoji is named for: ``🔴`` (LARGE RED CIRCLE) -> ``red``."""
    name = unicodedata.name(emoji, "") or NEWER_NAMES[emoji]
    words = [w.lower() for w in name.split() if w not in ("LARGE", "MEDIUM", "CIRCLE", "HEART")]
    assert len(words) == 1, name
    return words[0]


def test_each_seat_mark_is_named_for_the_colour_the_board_draws() -> None:
    assert len(ui.SEAT_EMOJI) == len(SEAT_STYLES)
    for seat, style in enumerate(SEAT_STYLES):
        assert colour_word(ui.SEAT_EMOJI[seat]) == style.colour_name, seat
    assert ui.SEAT_EMOJI[:2] == ("🔴", "🔵"), "seat 1 is red and seat 2 blue, as drawn"


async def test_turn_message_marks_players_in_their_board_colour(table: Table) -> None:
    turn = await start_match(table.fake)
    outcome = await table.service.current(int(turn.path.split("/")[2]), render=False)
    scores = next(f["value"] for f in turn.data["embeds"][0]["fields"] if f["name"] == "Scores")
    img = png_of(turn.file("board.png")).convert("RGB")
    colours = {c for _, c in img.getcolors(maxcolors=1 << 24) or ()}
    for s in outcome.seats:
        mark = re.search(rf"(\S+) {s.name}:", scores)
        assert mark is not None, scores
        style = seat_style(s.seat)
        assert style.colour_name == s.colour
        assert colour_word(mark.group(1)) == style.colour_name
        # the panel of the board picture draws that seat in that very colour
        assert style.fill in colours, (s.name, style.fill)
