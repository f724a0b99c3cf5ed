"""The pictures the tile-game service draws, in the match's language.

A match's pictures speak the language of its public messages, which the Discord front end
learns from each interaction (``note_lang``) and, before any after a restart, from the
language the lobby was opened in (``MatchOptions.lang``); the service draws the turn picture in the
language it last heard (so a match in Spanish is drawn once per move, in Spanish) and the
front end asks :func:`board_png` for another language or for the whole map (cached per
version, language and kind).

A finished match's pictures need what its last move's events say (the figures final scoring
took off, the features it scored) and every award of the game (the final breakdown):
:func:`picture_inputs` finds both, replaying the last move when the events are not at hand
(``/carcassonne board`` after the end).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import partial

from bot.services.replay import Game
from engine import apply
from engine.carcassonne.events import Event
from engine.carcassonne.scoring import Award


class PictureLangs:
    """The language each match's pictures are drawn in (``"en"`` until told otherwise)."""

    default_lang: str = "en"

    @property
    def picture_langs(self) -> dict[int, str]:
        langs: dict[int, str] | None = self.__dict__.get("_picture_langs")
        if langs is None:
            langs = self.__dict__["_picture_langs"] = {}
        return langs

    def note_lang(self, match_id: int, lang: str) -> None:
        """Draw ``match_id``'s next pictures in ``lang`` (``"en"``/``"es"``/``"de"``)."""
        self.picture_langs[match_id] = str(lang)
        while len(self.picture_langs) > 4096:  # forget the oldest matches
            del self.picture_langs[next(iter(self.picture_langs))]

    def lang_of_match(self, match_id: int, opened_in: str = "") -> str:
        """The language last heard for ``match_id``; else the one it was opened in (stored with
        its options, so a restart keeps it); else English."""
        return self.picture_langs.get(match_id) or opened_in or self.default_lang


def last_move_events(game: Game) -> tuple[Event, ...]:
    """The events of ``game``'s last move, replayed from the state before it (empty when that
    state is not kept, e.g. right after an undo)."""
    if game.previous is None or not game.moves:
        return ()
    last = game.moves[-1]
    try:
        return apply(game.previous, last.seat, last.action).events
    except Exception:  # the move replayed once already; never let a picture break a call
        return ()


def picture_inputs(
    game: Game, events: Sequence[Event], finished: bool
) -> tuple[tuple[Event, ...], tuple[Award, ...] | None]:
    """The events and awards a picture of ``game`` is drawn with."""
    if not finished:
        return tuple(events), None
    return (tuple(events) or last_move_events(game)), tuple(game.state.awards)


async def board_png(
    service: object, outcome: object, lang: str, *, whole: bool = False
) -> bytes | None:
    """The board of ``outcome`` in ``lang`` (the whole map with ``whole``): the outcome's own
    picture when it is that one, else drawn (and cached) by ``service``; None without a
    renderer or when drawing failed."""
    from bot.services.matches import MatchService
    from bot.services.results import Outcome

    assert isinstance(service, MatchService) and isinstance(outcome, Outcome)
    if outcome.png is not None and outcome.png_lang == lang and not whole:
        return outcome.png
    renderer = service.renderer
    if renderer is None:
        return None
    # a module-level renderer over a view without its decisions (closures) pickles: the
    # service's painter draws it in a worker process (bot.services.painters)
    draw = partial(
        renderer,
        dataclasses.replace(outcome.view, decisions=()),
        placements=outcome.placements or None,
        lang=lang,
        events=outcome.picture_events,
        awards=outcome.awards,
        whole=whole,
    )
    key = (outcome.match_id, outcome.version, lang, whole)
    return await service._picture(key, draw, f"the board of match {outcome.match_id}")
